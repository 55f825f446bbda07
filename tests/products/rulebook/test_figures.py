"""The rulebook's figures (issue 28): each is the engine's play of the seed the content
gives, drawn as vector paths on the page of its chapter; a figure the family has not is a
finding of ``validate``."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pdfplumber
import pypdfium2
import pypdfium2.raw as pdfium_c
import pytest
from click.testing import CliRunner
from markupsafe import Markup

from generator.cli.main import cli
from generator.engine.booklet import BookletRequest, make_booklet
from generator.engine.examples import CheckExample, LevelExample, LogExample
from generator.engine.family import family_of
from generator.model.loader import Content, Ruleset
from generator.model.prose import directives
from generator.model.sheets import LinesSection
from generator.products.rulebook.figures import level_figure, log_figure
from generator.render.markdown import Figures, ProseRenderer
from tests.content import RULESETS, edit
from tests.pdfs import pdf_pages
from tests.products.rulebook.support import bundled
from tests.renders import Renders

SVG = "{http://www.w3.org/2000/svg}"
FIGURES = {"three-dice-dungeon": "level-map", "inverted-tower": "dungeon-log",
           "tower-of-choices": "check"}


@pytest.fixture(scope="module")
def books(renders: Renders, content: Content) -> dict[str, Path]:
    """The bundled rulebooks on A4, as the other rulebook tests share them."""
    return renders.many({rid: bundled(content, rid) for rid in RULESETS})


def seed_of(ruleset: Ruleset, name: str) -> tuple[str, str]:
    """The seed the content gives figure ``name``, and the file that asks for it."""
    for chapter in ruleset.chapters:
        text = ruleset.sources[f"rules/{Path(chapter.file).name}"]
        for d in directives(text):
            if d.kind == "figure" and d.arg == name:
                assert d.seed is not None
                return d.seed, chapter.file
    raise AssertionError(f"no chapter of {ruleset.id} asks for figure {name!r}")


def example(content: Content, ruleset_id: str) -> Any:
    ruleset = content.ruleset(ruleset_id)
    name = FIGURES[ruleset_id]
    seed, _ = seed_of(ruleset, name)
    return family_of(ruleset).examples[name](ruleset.data, ruleset.profile(), seed)


def test_the_map_is_the_level_the_engine_rolls_for_the_seed(content: Content) -> None:
    ruleset = content.ruleset("three-dice-dungeon")
    level = example(content, "three-dice-dungeon")
    assert isinstance(level, LevelExample)
    # The booklet of the same seed and profile, as `towerpress booklet` makes it.
    document = make_booklet(ruleset, family_of(ruleset), ruleset.profile(),
                            BookletRequest(level.seed, family_of(ruleset).default_depth, 0))
    booklet = document["levels"][0]
    drawing = str(level_figure(level))
    svg = ElementTree.fromstring(drawing[drawing.index("<svg"):drawing.index("</svg>") + 6])
    drawn = {g.get("data-label"): g for g in svg.iter(f"{SVG}g")
             if g.get("class") == "dd-location"}
    assert set(drawn) == {cell["label"] for cell in booklet["cells"]}
    for cell in booklet["cells"]:
        g = drawn[cell["label"]]
        assert g.get("data-kind") == cell["location"]
        doors = {e.get("data-side") for e in g.iter(f"{SVG}g")
                 if "dd-exit" in (e.get("class") or "")}
        assert doors == set(cell["exits"])
        # Numbered in the order found, from 1: the start is 1.
        assert g.get("data-section") == str(cell["order"] + 1)
    assert len(booklet["cells"]) >= 8, "a sample level should show a few locations"


def test_the_log_holds_the_rooms_of_the_played_floor(content: Content) -> None:
    ruleset = content.ruleset("inverted-tower")
    log = example(content, "inverted-tower")
    assert isinstance(log, LogExample)
    family = family_of(ruleset)
    played = family.play(ruleset.data, ruleset.profile(), f"int:{log.seed}",
                         family.default_depth)
    floor_one = [s for s in played.steps if dict(s.state).get("floor") == 1]
    rooms = [s.text for s in floor_one if s.what == "room"]
    assert [line.number for line in log.lines] == list(range(1, len(rooms) + 1))
    for line, text in zip(log.lines, rooms, strict=True):
        kind = line.cells["kind"].lower()
        head = text.split(":", 1)[1].split(";")[0]
        assert kind.split(" (")[0] in head or (kind == "encounter" and "monster" in head)
    # Its end is the play's: down the stairs of the room the last line ticks.
    assert any(s.text.startswith("go down the stairs") for s in floor_one)
    assert log.lines[-1].cells["outcome"].endswith("Descended")
    assert log.lines[-1].cells.get("stairs") == "yes"
    # Every key the example writes is a column of the log sheet (sheets/log.toml).
    columns = {c.key for s in ruleset.sheets["log"].sections for c in getattr(s, "columns", ())}
    assert {key for line in log.lines for key in line.cells} <= columns


def test_the_check_is_the_first_check_the_game_plays(content: Content) -> None:
    ruleset = content.ruleset("tower-of-choices")
    check = example(content, "tower-of-choices")
    assert isinstance(check, CheckExample)
    family = family_of(ruleset)
    played = family.play(ruleset.data, ruleset.profile(), f"int:{check.seed}",
                         family.default_depth)
    drew = next(s.text for s in played.steps if s.what == "check")
    declared = next(s.text for s in played.steps if " (DRAW " in s.text)
    assert drew.startswith(f"drew {', '.join(check.drawn)}: {check.matches} {check.skill} "
                           f"for {check.needed} needed")
    assert declared.startswith(f"{check.skill} (DRAW {check.draw}, TARGET {check.target})")
    assert drew.endswith("success") == check.success


def test_the_log_figure_uses_the_sheets_columns(content: Content) -> None:
    ruleset = content.ruleset("inverted-tower")
    log = example(content, "inverted-tower")
    section = next(s for s in ruleset.sheets["log"].sections if isinstance(s, LinesSection))
    html = str(log_figure((ruleset.sheets["log"].title, section), log))
    heads = re.findall(r'<th class="(?:text|check)">([^<]*)</th>', html)
    assert heads == [c.label for c in section.columns]
    ticks = html.count('aria-label="ticked"')
    assert ticks == sum(1 for line in log.lines for k, v in line.cells.items() if v == "yes")


def test_an_unknown_figure_is_named_by_validate(content_copy: Path) -> None:
    chapter = content_copy / "three-dice-dungeon" / "rules" / "03-locations-and-mapping.md"
    edit(chapter, "{{ figure: level-map ", "{{ figure: levelmap ")
    line = next(n for n, text in enumerate(chapter.read_text().splitlines(), start=1)
                if "levelmap" in text)
    result = CliRunner().invoke(cli, ["validate", "--content", str(content_copy)])
    assert result.exit_code == 2
    assert (f"content/three-dice-dungeon/rules/03-locations-and-mapping.md: line {line}: "
            "unknown figure 'levelmap' (expected one of: level-map)") in result.output


def test_a_figure_without_a_seed_is_a_content_finding(content_copy: Path) -> None:
    chapter = content_copy / "tower-of-choices" / "rules" / "03-the-skill-deck-and-checks.md"
    edit(chapter, "{{ figure: check seed=1 }}", "{{ figure: check }}")
    result = CliRunner().invoke(cli, ["validate", "--content", str(content_copy)])
    assert result.exit_code == 2
    assert "figure 'check' has no seed" in result.output
    edit(chapter, "{{ figure: check }}", "See {{ figure: check seed=1 }} here.")
    result = CliRunner().invoke(cli, ["validate", "--content", str(content_copy)])
    assert "figure 'check' must stand alone on its line" in result.output


def test_a_figure_and_its_lead_in_are_one_block(content: Content) -> None:
    ruleset = content.ruleset("tower-of-choices")
    drawn: list[str] = []

    def draw(seed: str) -> Markup:
        drawn.append(seed)
        return Markup("<figure></figure>")

    prose = ProseRenderer(ruleset.raw, ruleset.root, figures=Figures({"check": draw}))
    blocks, _ = prose.render("First.\n\nHere it is:\n\n{{ figure: check seed=9 }}\n\nAfter.",
                             file="x.md", folder=ruleset.root, slug="x", anchors=set())
    assert drawn == ["9"]
    assert [str(b.html).startswith('<div class="figure-lead"><p>Here it is:</p>')
            for b in blocks] == [False, True, False]


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_the_figure_is_drawn_on_its_chapters_page_in_vector_paths(
    ruleset_id: str, content: Content, books: dict[str, Path]
) -> None:
    ruleset = content.ruleset(ruleset_id)
    _, file = seed_of(ruleset, FIGURES[ruleset_id])
    title = next(c.title for c in ruleset.chapters if c.file == file)
    pages = pdf_pages(books[ruleset_id])
    found = [i for i, text in enumerate(pages) if "Figure." in text]
    assert len(found) == 1
    index = found[0]
    # The chapter's running head, or its title on the page where it opens.
    assert title.upper() in pages[index] or title in pages[index]
    document = pypdfium2.PdfDocument(books[ruleset_id])
    kinds = [obj.type for obj in document[index].get_objects(max_depth=4)]
    assert kinds.count(pdfium_c.FPDF_PAGEOBJ_PATH) >= 20
    assert pdfium_c.FPDF_PAGEOBJ_IMAGE not in kinds
    with pdfplumber.open(books[ruleset_id]) as pdf:
        sizes = {round(c["size"], 1) for c in pdf.pages[index].chars}
    assert min(sizes) >= 7.0, f"type under 7 pt on the figure's page: {sorted(sizes)[:3]}"
