"""The Inverted Tower's own pages of the printed booklet: the hero page and the floor table
(``templates/booklet/inverted-tower.html``), read back from the PDF: the outline and the
floor table with pypdf, the hero page with pdfplumber.

The session's printed booklet (tests/products/booklet/support.py: a few floors) and its
JSON, as the renderer numbered it for its pages, is what the pages are held against.  The
page decides nothing: the last tests lay out the two macros alone for a
JSON whose numbers were changed, and see the changes printed.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Mapping, Sequence
from io import BytesIO
from pathlib import Path
from typing import Any

import pdfplumber
import pytest
from pypdf import PdfReader

from generator.engine.booklet import BookletRequest, make_booklet
from generator.render.fonts import font_face_css
from generator.render.pdf import pdf_bytes, render_document
from generator.render.templating import environment
from generator.render.typography import typeset
from generator.rulesets import FAMILIES, load_content
from tests.products.booklet.support import PRINTED_SEED, printed
from tests.renders import Renders

RULESET = "inverted-tower"
SEED = "1234"
HERO, FLOOR_TABLE = "Your hero", "The floor table"  # the two parts' bookmarks
ROW = re.compile(r"^(\d+) (\d+)\b")  # a room's row: its number, then its section


@pytest.fixture(scope="module")
def folder(renders: Renders) -> Path:
    """The session's printed Inverted Tower booklet (tests/products/booklet/support.py),
    as ``it.pdf`` and its JSON as the PDF numbers it, ``it.json``."""
    source = printed(renders, RULESET)
    stem = source / f"{RULESET}-{PRINTED_SEED}"
    out = source / "it"
    out.mkdir(exist_ok=True)
    shutil.copyfile(stem.with_suffix(".pdf"), out / "it.pdf")
    shutil.copyfile(stem.with_suffix(".json"), out / "it.json")
    return out


@pytest.fixture(scope="module")
def booklet(folder: Path) -> tuple[PdfReader, dict[str, Any]]:
    document = json.loads((folder / "it.json").read_text(encoding="utf-8"))
    return PdfReader(folder / "it.pdf"), document


@pytest.fixture(scope="module")
def hero_page(folder: Path, booklet: tuple[PdfReader, dict[str, Any]]) -> str:
    """The hero page's text, flat (one space between words), as pdfplumber reads it."""
    (first,) = _pages_of(booklet[0], HERO)
    return _plumbed((folder / "it.pdf").read_bytes(), first)


def _pages_of(reader: PdfReader, title: str) -> range:
    """The pages (from 0) of the part bookmarked ``title``, to the next bookmark."""
    marks: dict[str, int] = {}
    for mark in reader.outline:
        if not isinstance(mark, list):
            page = reader.get_destination_page_number(mark)
            assert page is not None, mark.title
            marks[str(mark.title)] = page
    first = marks[title]
    return range(first, min((p for p in marks.values() if p > first),
                            default=len(reader.pages)))


def _part(reader: PdfReader, title: str) -> list[str]:
    """The text of each page of the part bookmarked ``title``, to the next bookmark."""
    return [reader.pages[i].extract_text() for i in _pages_of(reader, title)]


def _plumbed(pdf: bytes, page: int) -> str:
    """Page ``page`` of ``pdf`` as pdfplumber reads it, flat. The sans "ft" ligature has no
    Unicode point and reads as "(cid:N)"."""
    with pdfplumber.open(BytesIO(pdf)) as opened:
        text = opened.pages[page].extract_text() or ""
    return " ".join(re.sub(r"\(cid:\d+\)", "ft", text).split())


def _floor_rows(pages: Sequence[str], floor: int) -> dict[int, int]:
    """The rows of floor ``floor`` in the floor table: room number -> section number."""
    lines = [line for page in pages for line in page.splitlines()]
    start = lines.index(next(line for line in lines if line.startswith(f"Floor {floor} ")))
    rows: dict[int, int] = {}
    for line in lines[start + 1:]:
        if line.startswith("Floor "):
            break
        if found := ROW.match(line):
            rows[int(found[1])] = int(found[2])
    return rows


def _bestiary_xp(page: str, names: Sequence[str]) -> dict[str, int]:
    """The XP the hero page prints for each monster: the first line of digits alone after
    the line of its name (the XP column comes after the roll's terms)."""
    lines = page.splitlines()
    found = {}
    for name in names:
        at = lines.index(name)
        found[name] = int(next(line for line in lines[at + 1:] if line.isdigit()))
    return found


# -- the booklet ---------------------------------------------------------------------------


def test_the_floor_table_names_every_room_of_floor_1_with_its_section(
        booklet: tuple[PdfReader, dict[str, Any]]) -> None:
    reader, document = booklet
    floor = document["floors"][0]
    printed = _floor_rows(_part(reader, FLOOR_TABLE), floor["number"])
    assert printed == {room["number"]: room["section"] for room in floor["rooms"]}


def test_the_floor_table_has_every_floor_and_a_head_on_each_page(
        booklet: tuple[PdfReader, dict[str, Any]]) -> None:
    reader, document = booklet
    pages = _part(reader, FLOOR_TABLE)
    for floor in document["floors"]:
        rooms = {room["number"]: room["section"] for room in floor["rooms"]}
        assert _floor_rows(pages, floor["number"]) == rooms
    assert all("Room Section What is there Treasure" in page for page in pages)
    assert len(pages) <= 5  # compact: a 10-floor table takes a few A5 pages


def test_the_hero_page_is_one_page_with_the_start_the_ladder_and_the_targets(
        booklet: tuple[PdfReader, dict[str, Any]], hero_page: str) -> None:
    reader, document = booklet
    assert len(_pages_of(reader, HERO)) == 1
    start, ladder = document["character"], document["ladder"]
    # Each box's note says where it starts, in the order of the boxes: the attributes, level
    # and XP, then HP, Max HP and what the hero carries.
    starts = [*start["attributes"].values(), start["level"], start["xp"], start["hp"],
              start["max_hp"], *(c["start"] for c in start["carried"])]
    assert [int(n) for n in re.findall(r"starts at (\d+)", hero_page)] == starts
    assert all(f"{c['name']}. {c['text']}" in hero_page for c in start["carried"])
    levels = " ".join(str(step["level"]) for step in ladder["steps"])
    needs = " ".join(str(step["xp"]) for step in ladder["steps"])
    label = "Total XP" if ladder["counting"] == "total" else "XP needed"
    assert f"Level {levels} {label} {needs} Reached" in hero_page
    assert f"({ladder['most_xp']} in all)" in hero_page
    assert [int(n) for n in re.findall(r"(\d+) or more", hero_page)] == [
        m["target"] for m in document["bestiary"].values()]
    crits = start["crits"]
    assert (f"a natural {crits['hit']} always hits and a natural {crits['miss']} always "
            "misses") in hero_page


def test_the_hero_page_shows_the_bestiary_xp(
        booklet: tuple[PdfReader, dict[str, Any]]) -> None:
    reader, document = booklet
    (page,) = _part(reader, HERO)
    monsters = document["bestiary"].values()
    assert _bestiary_xp(page, [m["name"] for m in monsters]) == {
        m["name"]: m["xp"] for m in monsters}
    for monster in monsters:  # the terms of its roll, as the JSON words them
        flat = " ".join(page.split())
        assert all(term["text"] in flat for term in monster["to_hit"])


# -- the macros alone, on a changed JSON ------------------------------------------------------

PAGE = """{% import "booklet/inverted-tower.html" as own with context %}
<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><style>{{ font_faces }}
:root { --serif: TowerPressSerif; --sans: TowerPressSans; --font-size: 9.2pt; }
@page { size: A5; margin: 14mm 12mm 15mm 15mm; }
{{ stylesheet("base/book.css") }}{{ stylesheet("booklet/booklet.css") }}
{{ stylesheet("booklet/inverted-tower.css") }}</style></head>
<body>{{ own.character(doc) }}{{ own.answers(doc) }}</body></html>"""


Changed = tuple[dict[str, Any], str, list[str], str]


def _pages_alone(document: Mapping[str, Any]) -> tuple[str, list[str], str]:
    """The HTML of the two macros laid out alone for ``document``, the text of each of its
    pages (pypdf's), and its first page, the hero's, flat (pdfplumber's)."""
    html = typeset(environment().from_string(PAGE).render(doc=document, paper="a5",
                                                          font_faces=font_face_css()))
    pdf = pdf_bytes(render_document(html, load_content().ruleset(RULESET).root))
    pages = [page.extract_text() for page in PdfReader(BytesIO(pdf)).pages]
    return html, pages, _plumbed(pdf, 0)


@pytest.fixture(scope="module")
def changed() -> Changed:
    """A booklet of two floors with its numbers changed where no rule would put them (a
    section, a die, an XP, the hero's start, a step of the ladder, the target, the crits);
    laid out alone."""
    ruleset = load_content().ruleset(RULESET)
    family = FAMILIES[RULESET]
    document = make_booklet(ruleset, family, ruleset.profile(ruleset.info.booklet_profile),
                            BookletRequest(SEED, 2, 0))
    room = document["floors"][0]["rooms"][0]
    room["section"] = 977
    room["dice"] = {name: 7 - value for name, value in room["dice"].items()}
    document["bestiary"]["boss"]["xp"] = 41
    document["bestiary"]["boss"]["target"] = 8
    hero = document["character"]
    hero.update(points=3, max_hp=9, level=4)
    hero["carried"][1]["start"] = 6
    hero["crits"].update(hit=5, miss=2)
    document["ladder"]["steps"][0]["xp"] = 777
    document["ladder"]["most_xp"] = 4321
    return document, *_pages_alone(document)


def test_the_pages_print_the_json_not_the_rules(changed: Changed) -> None:
    document, html, pages, _ = changed
    hero, table = pages[0], pages[1:]
    assert _floor_rows(table, 1)[1] == 977
    boss = document["bestiary"]["boss"]["name"]
    assert _bestiary_xp(hero, [boss]) == {boss: 41}
    # The dice are drawn, not written: the row's faces, in the HTML, are the changed dice.
    row = html[html.index('href="#s977"'):]
    faces = [int(v) for v in re.findall(r'aria-label="(\d)"', row[:row.index("</tr>")])]
    assert faces == list(document["floors"][0]["rooms"][0]["dice"].values())


def test_the_hero_page_prints_the_start_it_is_given(changed: Changed) -> None:
    document, _, _, hero = changed
    assert "then add 3 to STR, DEX or INT." in hero
    assert [int(n) for n in re.findall(r"starts at (\d+)", hero)] == [0, 0, 0, 4, 0, 5, 9, 0,
                                                                       6, 1]
    steps = document["ladder"]["steps"]
    assert steps[0]["xp"] == 777
    assert (f"Level {' '.join(str(s['level']) for s in steps)} Total XP "
            f"{' '.join(str(s['xp']) for s in steps)} Reached") in hero
    assert "(4321 in all)" in hero
    assert [int(n) for n in re.findall(r"(\d+) or more", hero)] == [5, 5, 8]  # the boss's 8
    assert "a natural 5 always hits and a natural 2 always misses" in hero
