"""Sheets and logs: open the PDFs and check what a player, a printer and a PDF reader see."""

from __future__ import annotations

import io
import re
from functools import partial
from pathlib import Path

import pypdf
import pytest

from generator.model.loader import Content, Ruleset
from generator.model.paper import PAPERS
from generator.model.sheets import (
    BoxesSection,
    GridSection,
    LadderSection,
    LinesSection,
    NotesSection,
    ReferenceSection,
    SheetDef,
    TrackSection,
    field_names,
)
from generator.products.sheets.render import (
    SHEET_PAPERS,
    sheet_def,
    units,
    write_sheet,
)
from generator.render import pdf as pdf_module
from generator.rulesets import load_content
from generator.rulesets.inverted_tower.data import InvertedTower
from generator.rulesets.three_dice_dungeon.data import ThreeDiceDungeon
from generator.rulesets.tower_of_choices.data import TowerOfChoices
from tests.content import RULESETS, edit
from tests.pdfs import named_widgets, opened, pdf_faults, plain_quotes, straight_quotes
from tests.renders import Make, Renders

MM = 72 / 25.4
PAGE_SIZES = {"a4": (210 * MM, 297 * MM), "letter": (612.0, 792.0), "a5": (148 * MM, 210 * MM)}
KINDS = ("sheet", "log")
Key = tuple[str, str, str]  # ruleset, kind, paper


def render(ruleset: Ruleset, kind: str, out: Path, paper: str, floors: int | None = None) -> Path:
    write_sheet(ruleset, kind, out, paper=paper, floors=floors)
    assert pdf_module.last_warnings == []
    return out


@pytest.fixture(scope="session")
def pdfs(content: Content, renders: Renders) -> dict[Key, Path]:
    """Every sheet and log in A4 (logs at their default length); Letter and A5 too, logs
    with one floor to keep the test fast."""
    wanted: dict[Key, tuple[str, Make]] = {}
    for rid in RULESETS:
        for kind in KINDS:
            for paper in ("a4", "letter", "a5"):
                floors = None if paper == "a4" or kind == "sheet" else 1
                wanted[(rid, kind, paper)] = (f"sheets-{rid}-{kind}-{paper}.pdf", partial(
                    _render_bundled, content, rid, kind, paper, floors))
    return renders.many(wanted)


def _render_bundled(content: Content, ruleset_id: str, kind: str, paper: str,
                    floors: int | None, out: Path) -> Path:
    return render(content.ruleset(ruleset_id), kind, out, paper, floors)


def terminal_fields(path: Path | io.BytesIO) -> dict[str, object]:
    """Fields a person writes in (groups such as ``attr`` of ``attr.str`` left out)."""
    fields = pypdf.PdfReader(path).get_fields() or {}
    return {name: f.get("/V") for name, f in fields.items() if "/FT" in f}


def expected_fields(ruleset: Ruleset, kind: str, floors: int | None) -> list[str]:
    sheet = sheet_def(ruleset, kind)
    names: list[str] = []
    for unit in units(sheet, floors):
        names += field_names(sheet, unit.number if sheet.repeat else None, ruleset.profile())
    return names


def pdf_text(path: Path) -> str:
    pdf = opened(path)
    # A tight tolerance: a label and its note, or two table cells, are a space apart.
    return plain_quotes("\n".join(page.extract_text(x_tolerance=1) or ""
                                   for page in pdf.pages))


def printed_words(sheet: SheetDef, ruleset: Ruleset) -> set[str]:
    """Every word the definition says must be printed (labels, data names, numbers)."""
    texts: list[str] = [sheet.title]
    for s in sheet.sections:
        texts.append(s.title)
        if s.legend:
            texts += [s.legend.label, *s.legend.names]
        if isinstance(s, BoxesSection):
            texts += [b.label for b in s.boxes] + [b.note for b in s.boxes]
            texts += [p.label for b in s.boxes for p in b.parts]
        elif isinstance(s, LadderSection):
            rows = s.under(ruleset.profile())
            texts += [s.level_header, rows.header, s.reached_header]
            texts += [str(n) for row in rows.rows for n in row]
        elif isinstance(s, LinesSection):
            texts += [s.row_header, s.note, *(c.label for c in s.columns)]
            texts += [str(n) for n in range(1, s.rows + 1)]
        elif isinstance(s, TrackSection):
            texts += [s.track.label, s.track.note, s.held_label, *s.track.marks]
        elif isinstance(s, ReferenceSection):
            texts += [*s.headers, *(cell for row in s.rows for cell in row)]
        elif isinstance(s, GridSection):
            texts += [s.column_name(c) for c in range(s.columns)]
            texts += [str(r + 1) for r in range(s.rows)]
    return words_of("\n".join(texts))


def words_of(text: str) -> set[str]:
    """Words compared without case (titles print in capitals) or trailing punctuation."""
    text = text.replace("\u00ad", "").replace("\u2212", "-")  # a typed "-5" prints "−5"
    text = re.sub(r"(\w)-\n(\w)", r"\1\2", text)
    return {w.strip(".,:;()").casefold() for w in text.split()} - {""}


@pytest.mark.parametrize("paper", ["a4", "letter", "a5"])
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_page_size_and_count(
    content: Content, pdfs: dict[Key, Path], ruleset_id: str, kind: str, paper: str
) -> None:
    reader = pypdf.PdfReader(pdfs[(ruleset_id, kind, paper)])
    for page in reader.pages:
        width, height = float(page.mediabox.width), float(page.mediabox.height)
        assert (width, height) == pytest.approx(PAGE_SIZES[paper], abs=0.5)
    if kind == "sheet":
        # One page on A4 and Letter; A5, half the size, may take two.
        assert len(reader.pages) <= (1 if paper != "a5" else 2)
    sheet = sheet_def(content.ruleset(ruleset_id), kind)
    if sheet.repeat and sheet.repeat.new_page:
        # Every floor starts a page and takes the same number of pages.
        floors = sheet.repeat.default if paper == "a4" else 1
        assert len(reader.pages) % floors == 0


@pytest.mark.parametrize("paper", ["a4", "letter", "a5"])
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_form_fields_have_the_definition_names(
    content: Content, pdfs: dict[Key, Path], ruleset_id: str, kind: str, paper: str
) -> None:
    ruleset = content.ruleset(ruleset_id)
    floors = None if paper == "a4" or kind == "sheet" else 1
    found = terminal_fields(pdfs[(ruleset_id, kind, paper)])
    assert sorted(found) == sorted(expected_fields(ruleset, kind, floors))


def test_field_names_say_what_they_hold(pdfs: dict[Key, Path]) -> None:
    it_sheet = terminal_fields(pdfs[("inverted-tower", "sheet", "a4")])
    assert {"attr.str", "attr.dex", "attr.int", "hp.current", "hp.max", "level", "xp",
            "floor", "items.dagger", "items.potion", "items.gold"} <= set(it_sheet)
    it_log = terminal_fields(pdfs[("inverted-tower", "log", "a4")])
    assert {"floor1.room03.kind", "floor2.room12.boss", "floor1.room01.wandering"} <= set(it_log)
    dd_log = terminal_fields(pdfs[("three-dice-dungeon", "log", "a4")])
    assert {"level1.map.c04.location", "level1.map.c04.east", "level2.loc05.monster"} <= set(dd_log)
    tc_sheet = terminal_fields(pdfs[("tower-of-choices", "sheet", "a4")])
    tc_names = {"skill1.name", "ability", "coins", "item10.cost", "challenge.converted"}
    assert tc_names <= set(tc_sheet)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_fields_are_clean_on_paper_and_inside_the_margin(
    pdfs: dict[Key, Path], ruleset_id: str, kind: str
) -> None:
    reader = pypdf.PdfReader(pdfs[(ruleset_id, kind, "a4")])
    width, height = PAGE_SIZES["a4"]
    for page in reader.pages:
        for ref in page.get("/Annots", []):
            widget = ref.get_object()
            assert widget["/Subtype"] == "/Widget"
            # No border or background of the field's own: the page prints the lines and boxes.
            assert "/MK" not in widget and "/BS" not in widget
            x0, y0, x1, y1 = (float(v) for v in widget["/Rect"])
            margin = 5 * MM
            assert min(x0, x1) >= margin and max(x0, x1) <= width - margin
            assert min(y0, y1) >= margin and max(y0, y1) <= height - margin


@pytest.mark.parametrize("paper", PAPERS)
def test_everything_stays_inside_the_page_margins(pdfs: dict[Key, Path], paper: str) -> None:
    # The left and right margins hold nothing, and the bottom one only the footer: a box
    # that runs into them may be cut off by a home printer (A5's margins are 8 mm).
    margin = SHEET_PAPERS[paper].margin_mm * MM
    slack = 1.0  # half a stroke may stand out of the box it draws
    outside: dict[str, list[str]] = {}
    for (rid, kind, p), path in sorted(pdfs.items()):
        if p != paper:
            continue
        pdf = opened(path)
        for number, page in enumerate(pdf.pages, 1):
            left, right = margin - slack, float(page.width) - margin + slack
            bottom = float(page.height) - margin + slack
            body = [o for o in page.chars if o["top"] < bottom]  # not the footer
            for o in body + page.rects + page.lines + page.curves + page.annots:
                if o["x0"] < left or o["x1"] > right or o["top"] < margin - slack \
                        or o["bottom"] > bottom:
                    what = o.get("text") or o["object_type"]
                    outside.setdefault(f"{rid} {kind} p{number}", []).append(
                        f"{what} at x {o['x0']:.0f}-{o['x1']:.0f}")
    assert {k: v[:3] for k, v in outside.items()} == {}


@pytest.mark.parametrize("paper", PAPERS)
def test_a_short_reference_cell_stays_on_one_line(
    content: Content, pdfs: dict[Key, Path], paper: str
) -> None:
    # The Classes table squeezed its Power column: "Pick / Locks", "Fist of / Fury".
    data = content.ruleset("three-dice-dungeon").data
    short = [text for c in data.classes for text in (c.power.name, c.power.cost_text)
             if len(text) <= 14 and " " in text]
    assert short
    pdf = opened(pdfs[("three-dice-dungeon", "sheet", paper)])
    lines = [line for page in pdf.pages for line in (page.extract_text() or "").splitlines()]
    assert [t for t in short if not any(t in line for line in lines)] == []


def test_the_footer_prints_on_a_home_printer(pdfs: dict[Key, Path]) -> None:
    # On A5 the footer ended 3.1 mm from the paper's edge, where most printers print nothing.
    close = {}
    for (rid, kind, paper), path in sorted(pdfs.items()):
        pdf = opened(path)
        for number, page in enumerate(pdf.pages, 1):
            edge = (float(page.height) - max(c["bottom"] for c in page.chars)) / MM
            if edge < 5.0:
                close[f"{rid} {kind} {paper} p{number}"] = round(edge, 2)
    assert close == {}


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_every_label_from_the_definition_is_printed(
    content: Content, pdfs: dict[Key, Path], ruleset_id: str, kind: str
) -> None:
    ruleset = content.ruleset(ruleset_id)
    text = words_of(pdf_text(pdfs[(ruleset_id, kind, "a4")]))
    missing = printed_words(sheet_def(ruleset, kind), ruleset) - text
    assert missing == set()
    assert words_of(ruleset.title) <= text


def test_quotes_are_curled(pdfs: dict[Key, Path]) -> None:
    # "Healer's case", "the location's key number": printed with ’.
    assert pdf_faults(straight_quotes, pdfs, "quote") == {}


def test_labels_come_from_the_data(content: Content, pdfs: dict[Key, Path]) -> None:
    it, dd, tc = (content.ruleset(r).data for r in RULESETS)
    assert isinstance(it, InvertedTower)
    assert isinstance(dd, ThreeDiceDungeon)
    assert isinstance(tc, TowerOfChoices)
    it_text = pdf_text(pdfs[("inverted-tower", "sheet", "a4")])
    for attribute in it.character.attributes:
        assert f"{attribute.name} {attribute.code}" in it_text
    for item in it.items:
        assert item.plural in it_text
    dd_text = pdf_text(pdfs[("three-dice-dungeon", "sheet", "a4")])
    for a in dd.character.attributes:
        assert a.name in dd_text
    for c in dd.classes:
        assert c.name in dd_text and c.power.name.split()[0] in dd_text
    tc_lines = pdf_text(pdfs[("tower-of-choices", "sheet", "a4")]).splitlines()
    for offer in tc.items:
        assert any(line.endswith(f"{offer.name} {offer.cost}") for line in tc_lines), offer.name
    log_text = pdf_text(pdfs[("inverted-tower", "log", "a4")])
    for row in it.events.table.rows:
        assert row.value.name in log_text


def test_ladders_print_the_data_numbers(content: Content, pdfs: dict[Key, Path]) -> None:
    it = content.ruleset("inverted-tower")
    assert isinstance(it.data, InvertedTower)
    lv = it.data.leveling
    first = it.data.character.start.level.faithful  # the default profile reads IT-12 Faithful
    costs = [str(lv.cost(level)) for level in range(first, first + lv.ladder_rows)]
    levels = [str(level + 1) for level in range(first, first + lv.ladder_rows)]
    lines = pdf_text(pdfs[("inverted-tower", "sheet", "a4")]).splitlines()
    assert "Level " + " ".join(levels) in lines
    assert any(line.endswith(" ".join(costs)) for line in lines)
    dd = content.ruleset("three-dice-dungeon")
    assert isinstance(dd.data, ThreeDiceDungeon)
    exp = dd.data.experience
    thresholds = [str(exp.threshold(lv_)) for lv_ in range(2, exp.listed_max_level + 1)]
    dd_lines = pdf_text(pdfs[("three-dice-dungeon", "sheet", "a4")]).splitlines()
    assert any(line.endswith(" ".join(thresholds)) for line in dd_lines)


def fill(path: Path, values: dict[str, str]) -> bytes:
    writer = pypdf.PdfWriter(clone_from=pypdf.PdfReader(path))
    for page in writer.pages:
        writer.update_page_form_field_values(page, values, auto_regenerate=False)
    buffer = io.BytesIO()
    writer.write(buffer)
    return buffer.getvalue()


@pytest.mark.parametrize(
    ("ruleset_id", "kind", "values"),
    [
        ("inverted-tower", "sheet", {"attr.str": "1", "hp.current": "4", "hp.max": "6",
                                     "items.gold": "15", "ladder.l02": "/on",
                                     "notes": "Bonfire on floor 2"}),
        ("inverted-tower", "log", {"floor2.room03.kind": "Trap", "floor2.room03.stairs": "/on",
                                   "floor4.room12.boss": "/on"}),
        ("three-dice-dungeon", "log", {"level1.map.c04.location": "7",
                                       "level1.map.c04.east": "/on",
                                       "level2.loc07.monster": "Orcs"}),
        ("tower-of-choices", "sheet", {"skill1.name": "Stealth", "item10.cost": "3",
                                       "challenge.converted": "2"}),
    ],
)
def test_fill_save_and_read_back(
    pdfs: dict[Key, Path], ruleset_id: str, kind: str, values: dict[str, str]
) -> None:
    filled = terminal_fields(io.BytesIO(fill(pdfs[(ruleset_id, kind, "a4")], values)))
    assert {name: filled[name] for name in values} == values
    untouched = {v for name, v in filled.items() if name not in values}
    assert untouched <= {"", "/Off"}


def test_two_renders_are_identical(content: Content, pdfs: dict[Key, Path], tmp_path: Path) -> None:
    for rid, kind, paper in (("inverted-tower", "sheet", "a4"), ("tower-of-choices", "log", "a5")):
        floors = None if paper == "a4" else 1
        again = render(content.ruleset(rid), kind, tmp_path / "again.pdf", paper, floors)
        assert again.read_bytes() == pdfs[(rid, kind, paper)].read_bytes()


def test_metadata_and_outline(content: Content, pdfs: dict[Key, Path]) -> None:
    reader = pypdf.PdfReader(pdfs[("inverted-tower", "log", "a4")])
    ruleset = content.ruleset("inverted-tower")
    sheet = sheet_def(ruleset, "log")
    assert reader.metadata is not None
    assert reader.metadata.title == f"{ruleset.title}: {sheet.title}"
    assert reader.metadata.author
    titles = [item.title for item in reader.outline if not isinstance(item, list)]
    assert sheet.repeat is not None
    floors = [f"{sheet.repeat.label} {n}" for n in range(1, sheet.repeat.default + 1)]
    assert titles == [f"{ruleset.title} {sheet.title}", *floors]


def test_notes_and_grids_are_single_fields(content: Content, pdfs: dict[Key, Path]) -> None:
    sheet = sheet_def(content.ruleset("inverted-tower"), "sheet")
    (notes,) = [s for s in sheet.sections if isinstance(s, NotesSection)]
    reader = pypdf.PdfReader(pdfs[("inverted-tower", "sheet", "a4")])
    field = (reader.get_fields() or {})[notes.name]
    assert field["/FT"] == "/Tx" and int(field.get("/Ff", 0)) & (1 << 12)  # multiline


def _widgets(page: pypdf.PageObject) -> dict[str, tuple[float, ...]]:
    """Each form field's full name on ``page`` and its rectangle (x0, y0, x1, y1, in pt)."""
    return {name: tuple(float(v) for v in widget["/Rect"])
            for name, widget in named_widgets(page)}


def _rooms(path: Path, paper: str) -> dict[str, float]:
    """The mm left between the foot of its page and each field, by full field name."""
    spec = SHEET_PAPERS[paper]
    rooms: dict[str, float] = {}
    for page in pypdf.PdfReader(path).pages:
        for name, rect in _widgets(page).items():
            bottom = (float(page.mediabox.height) - min(rect[1], rect[3])) / MM
            rooms[name] = spec.height_mm - spec.margin_mm - bottom
    return rooms


@pytest.mark.parametrize("paper", PAPERS)
def test_notes_that_fill_run_to_the_foot_of_their_page(
    content: Content, pdfs: dict[Key, Path], paper: str
) -> None:
    line = 6.5 if paper == "a5" else 7.2  # mm: --line in sheet.css (A5: issue 28)
    seen = 0
    for (rid, kind, p), path in sorted(pdfs.items()):
        sheet = sheet_def(content.ruleset(rid), kind)
        names = {s.name for s in sheet.sections if isinstance(s, NotesSection) and s.fill}
        if p != paper or not names:
            continue
        for name, room in _rooms(path, paper).items():
            if name.rpartition(".")[2] in names:
                seen += 1
                assert 0 <= room < line, f"{rid} {kind} {name}: {room:.1f} mm left below"
    # The Inverted Tower's and Tower of Choices' sheets, and each map of 3 Dice Dungeon's log.
    assert seen == (2 + (2 if paper == "a4" else 1))


def _room_below_notes(content_root: Path, paper: str = "a4") -> tuple[int, float]:
    """The pages of The Inverted Tower's sheet from ``content_root``, and the mm left below
    its notes named ``notes``."""
    out = content_root.parent / "sheet.pdf"
    pages = write_sheet(load_content(content_root).ruleset("inverted-tower"), "sheet", out,
                        paper=paper)
    return pages, _rooms(out, paper)["notes"]


IT_NOTES = 'name = "notes"\nlines = 12\nfill = true\n'


def test_notes_beside_a_taller_section_fill_their_page(content_copy: Path) -> None:
    edit(content_copy / "inverted-tower" / "sheets" / "sheet.toml", IT_NOTES,
         IT_NOTES + 'width = "half"\n\n[[sections]]\nkind = "notes"\ntitle = "Foes"\n'
         'name = "foes"\nlines = 16\nwidth = "half"\n')
    pages, room = _room_below_notes(content_copy)
    assert pages == 1 and 0 <= room < 7.2


def test_notes_on_a_second_page_fill_it(content_copy: Path) -> None:
    edit(content_copy / "inverted-tower" / "sheets" / "sheet.toml", '[[sections]]\nkind = "notes"',
         '[[sections]]\nkind = "notes"\ntitle = "Journal"\nname = "journal"\nlines = 20\n\n'
         '[[sections]]\nkind = "notes"')
    pages, room = _room_below_notes(content_copy)
    assert pages == 2 and 0 <= room < 7.2


def test_a_long_log_fills_the_notes_of_every_copy(content: Content, tmp_path: Path) -> None:
    # Only the first two copies are measured (sheets.MEASURED_COPIES); the rest follow them.
    out = render(content.ruleset("three-dice-dungeon"), "log", tmp_path / "log.pdf", "a5",
                 floors=4)
    pages = pypdf.PdfReader(out).pages
    rooms = {n: r for n, r in _rooms(out, "a5").items() if n.endswith(".notes")}
    assert len(pages) == 8 and sorted(rooms) == [f"level{n}.notes" for n in range(1, 5)]
    assert all(0 <= room < 6.5 for room in rooms.values()), rooms


def test_a_copy_laid_out_unlike_the_second_is_measured_too(content_copy: Path) -> None:
    # A heading long enough to wrap only once the level number has two digits moves level
    # 10's rows down: the lines measured on level 2 would push its notes onto a new page.
    log = content_copy / "three-dice-dungeon" / "sheets" / "log.toml"
    edit(log, 'label = "Dungeon level"', 'label = "Dungeon level of the old tower beneath '
         'the hills where the dark ones sleep andee"')
    # Ten copies are laid out four times over: each is cut down to a small map and its
    # notes, one page, where a heading that wraps moves the notes down as much (the full
    # log took 30 s; this one fails as that one did when only two copies are measured).
    edit(log, "columns = 10\nrows = 10\n", "columns = 2\nrows = 2\n")
    text = log.read_text(encoding="utf-8")
    log.write_text(text[:text.index('[[sections]]\nkind = "lines"')], encoding="utf-8")
    out = content_copy.parent / "log.pdf"
    pages = write_sheet(load_content(content_copy).ruleset("three-dice-dungeon"), "log", out,
                        paper="a5", floors=10)
    rooms = {n: r for n, r in _rooms(out, "a5").items() if n.endswith(".notes")}
    assert pages == 10 and len(rooms) == 10
    assert all(0 <= room < 6.5 for room in rooms.values()), rooms


def test_numbers_in_boxes_and_squares_are_centred(pdfs: dict[Key, Path]) -> None:
    reader = pypdf.PdfReader(pdfs[("three-dice-dungeon", "log", "a4")])
    fields = {}
    for ref in reader.pages[0].get("/Annots", []):
        widget = ref.get_object()
        fields[widget["/Parent"].get_object()["/T"] + "." + widget["/T"]] = widget
    assert fields["c04.location"].get("/Q") == 1
    sheet = pypdf.PdfReader(pdfs[("inverted-tower", "sheet", "a4")])
    quadding = {
        name: field.get("/Q") for name, field in (sheet.get_fields() or {}).items()
        if "/FT" in field
    }
    assert quadding["name"] is None  # a name is written from the left
