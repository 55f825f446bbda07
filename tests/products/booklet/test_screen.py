"""``towerpress booklet --format html``: the booklet as one page for a phone (issue 29),
written by the command and read back as a file: it stands alone, its ways on are links
that resolve, it holds its document, and ``towerpress check`` proves it."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

import pytest

from generator.engine.booklet import check_document
from generator.engine.family import family_of
from generator.model.loader import Content
from generator.products.booklet.html_check import embedded_document, html_findings
from generator.products.booklet.screen import screen_html
from generator.render import fonts
from tests.commands import run_here
from tests.content import RULESETS
from tests.products.booklet.support import printed_files
from tests.renders import Renders

SEED, ODDS = "7", "50"
MAX_BYTES = 1_200_000  # the largest (The Inverted Tower's ten floors) is about 820 KB


@dataclass(frozen=True)
class Made:
    page: Path
    json: Path
    again: Path  # the same page, written by a second run
    said: str  # what the command printed


def _booklet(ruleset_id: str, fmt: str, out: Path) -> str:
    result = run_here("booklet", ruleset_id, "--seed", SEED, "--odds", ODDS, "--format", fmt,
                      "-o", str(out))
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Made]:
    """Each ruleset's booklet of seed 7, default depth: as a page, twice, and as JSON.  The
    first second run cuts its fonts afresh (cutting them is most of a page's time): the
    cut is deterministic whatever the ruleset."""
    pages, again, jsons = (tmp_path_factory.mktemp(name) for name in ("html", "again", "json"))
    found: dict[str, Made] = {}
    for ruleset_id in RULESETS:
        said = _booklet(ruleset_id, "html", pages)
        if not found:
            fonts._subset_woff2.cache_clear()
        _booklet(ruleset_id, "html", again)
        _booklet(ruleset_id, "json", jsons)
        name = f"{ruleset_id}-{SEED}"
        found[ruleset_id] = Made(pages / f"{name}.html", jsons / f"{name}.json",
                                 again / f"{name}.html", said)
    return found


class _Links(HTMLParser):
    """Every URL a page names (src, href, CSS url()), its ids, and each section's
    turn-to links."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []
        self.ids: set[str] = set()
        self.ways: dict[str, list[str]] = {}
        self.section: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = {name: value or "" for name, value in attrs}
        self.urls += [named[name] for name in ("src", "href") if name in named]
        self.urls += re.findall(r"url\(\s*['\"]?([^'\")]+)", named.get("style", ""))
        self.ids.add(named.get("id", ""))
        if tag == "article" and "section" in named.get("class", "").split():
            self.section = named["id"]
            self.ways[self.section] = []
        if tag == "a" and "turn-to" in named.get("class", "").split() and self.section:
            self.ways[self.section].append(named["href"])

    def handle_endtag(self, tag: str) -> None:
        if tag == "article":
            self.section = None

    def handle_data(self, data: str) -> None:
        self.urls += re.findall(r"url\(\s*['\"]?([^'\")]+)", data)


def _links(path: Path) -> _Links:
    parser = _Links()
    parser.feed(path.read_text("utf-8"))
    return parser


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_the_command_writes_one_page_and_says_so(made: dict[str, Made],
                                                  ruleset_id: str) -> None:
    page = made[ruleset_id].page
    assert sorted(p.name for p in page.parent.glob(f"{ruleset_id}-*")) == [page.name]
    size = round(page.stat().st_size / 1024)
    assert re.fullmatch(rf"wrote {re.escape(str(page))} \(\d+ sections, {size:,} KB\)\n",
                        made[ruleset_id].said)
    assert page.stat().st_size < MAX_BYTES


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_the_page_names_no_file_and_no_address(made: dict[str, Made], ruleset_id: str) -> None:
    links = _links(made[ruleset_id].page)
    assert links.urls
    outside = [u for u in links.urls if not u.startswith(("#", "data:"))]
    assert outside == []
    assert not re.search(r"https?://|\bfile:", made[ruleset_id].page.read_text("utf-8"))


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_every_way_on_is_a_link_to_its_section(made: dict[str, Made], ruleset_id: str) -> None:
    document = json.loads(made[ruleset_id].json.read_text("utf-8"))
    links = _links(made[ruleset_id].page)
    assert links.ways == {f"s{s['number']}": [f"#s{w['section']}" for w in s["turn_to"]]
                          for s in document["sections"]}
    assert {u[1:] for u in links.urls if u.startswith("#")} <= links.ids


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_the_page_holds_its_document(content: Content, made: dict[str, Made],
                                     ruleset_id: str) -> None:
    embedded = embedded_document(made[ruleset_id].page.read_text("utf-8"))
    assert embedded is not None
    document = json.loads(embedded)
    assert document == json.loads(made[ruleset_id].json.read_text("utf-8"))
    ruleset = content.ruleset(ruleset_id)
    assert check_document(document, ruleset, family_of(ruleset)) == []


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_each_tape_entry_is_a_box_to_tap(made: dict[str, Made], ruleset_id: str) -> None:
    text = made[ruleset_id].page.read_text("utf-8")
    document = json.loads(made[ruleset_id].json.read_text("utf-8"))
    keys = re.findall(r'<button class="tape-box" type="button" data-key="([^"]+)" '
                      r'aria-pressed="false">', text)
    assert keys == [f"{t}.{e}" for t, tape in enumerate(document["tapes"], 1)
                    for e in range(1, len(tape["entries"]) + 1)]
    store = f"towerpress:{ruleset_id}:{SEED}:{document['content_hash'][:16]}"
    assert f'data-store="{store}"' in text
    # A tape of numbers past six prints every entry as a number, as the printed tape does:
    # no die face among them (a 6 drawn as pips beside 1768 reads as another kind of roll).
    boxes = re.findall(r'data-key="(\d+)\.\d+" aria-pressed="false">(.*?)</button>', text)
    for index, tape in enumerate(document["tapes"], 1):
        drawn = "".join(inner for key, inner in boxes if key == str(index))
        assert ('class="die f' in drawn) == (tape["high"] <= 6 and any(
            1 <= v <= 6 for entry in tape["entries"] for v in entry)), tape["name"]


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_a_second_run_writes_the_same_bytes(made: dict[str, Made], ruleset_id: str) -> None:
    assert made[ruleset_id].page.read_bytes() == made[ruleset_id].again.read_bytes()


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_check_proves_the_page(made: dict[str, Made], ruleset_id: str) -> None:
    page = made[ruleset_id].page
    result = run_here("check", str(page))
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith(f"{page}: ok ({ruleset_id}, seed {SEED}, ")


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_check_finds_a_retargeted_link(made: dict[str, Made], ruleset_id: str,
                                       tmp_path: Path) -> None:
    text = made[ruleset_id].page.read_text("utf-8")
    document = json.loads(made[ruleset_id].json.read_text("utf-8"))
    section = next(s for s in document["sections"] if s["turn_to"])
    way = section["turn_to"][0]["section"]
    other = next(s["number"] for s in document["sections"] if s["number"] != way)
    start = text.index(f'<article class="screen section" id="s{section["number"]}">')
    at = text.index(f'class="turn-to" href="#s{way}"', start)
    tampered = tmp_path / "tampered.html"
    tampered.write_text(text[:at] + text[at:].replace(f"#s{way}", f"#s{other}", 1), "utf-8")
    result = run_here("check", str(tampered))
    assert result.returncode == 1
    assert f"{tampered}: html at section {section['number']}: links to " in result.stdout


def test_check_refuses_a_page_without_its_document_in_one_line(made: dict[str, Made],
                                                               tmp_path: Path) -> None:
    text = made["tower-of-choices"].page.read_text("utf-8")
    start = text.index('<script type="application/json" id="booklet-json">')
    end = text.index("</script>", start)
    cases = {"none": text[:start] + text[end + len("</script>"):],
             "garbled": text[:end - 10] + text[end:]}
    for name, case in cases.items():
        page = tmp_path / f"{name}.html"
        page.write_text(case, "utf-8")
        result = run_here("check", str(page))
        assert result.returncode == 2, name
        assert result.stderr.count("\n") == 1 and str(page) in result.stderr, result.stderr


def test_a_laid_out_document_makes_its_page_the_same_way(content: Content,
                                                        renders: Renders) -> None:
    """The JSON beside a printed booklet, numbered as laid out (its ``layout``)."""
    document, _, _ = printed_files(renders, "three-dice-dungeon")
    assert "layout" in document
    page = screen_html(content.ruleset("three-dice-dungeon"), document)
    assert html_findings(document, page, "the page") == []
    embedded = embedded_document(page)
    assert embedded is not None and json.loads(embedded) == document
