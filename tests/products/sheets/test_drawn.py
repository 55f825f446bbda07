"""Grids and ruled rows drawn as pictures, their fields copied from one square or row
(generator/products/sheets/drawn.py): measured on the PDF, where the lines are and where
the fields are, in mm."""

from __future__ import annotations

import json
from itertools import pairwise
from pathlib import Path
from typing import Any

import pypdf
import pytest
import tinyhtml5  # type: ignore[import-untyped]  # WeasyPrint's HTML parser, untyped

from generator.model.loader import Content, Ruleset
from generator.model.sheets import GridSection, LinesSection, field_names
from generator.products.sheets.drawn import (
    ROW_LINE,
    Copy,
    GridShape,
    Template,
    grid_svg,
    rows_per_piece,
)
from generator.products.sheets.render import (
    grid_geometry,
    lines_geometry,
    sheet_def,
    sheet_paper,
    units,
    write_sheet,
)
from generator.render import pdf as pdf_module
from generator.rulesets import load_content
from tests.content import edit
from tests.pdfs import named_widgets, opened
from tests.renders import Renders

MM = 72 / 25.4
DD = "three-dice-dungeon"
GREY_WALL = (0.466667, 0.466667, 0.466667)  # #777
RULE = (0.333333, 0.333333, 0.333333)  # #555
CLOSE = 0.02  # mm: what a position may be off by (the PDF's numbers have two decimals)

Rect = tuple[float, float, float, float]  # x0, top, x1, bottom in mm from the top left


@pytest.fixture(scope="module")
def dd_log(content: Content, renders: Renders) -> Path:
    """3 Dice Dungeon's map sheet in A4, its two default levels (as tests/products/sheets/
    test_pdf.py makes it, so the session makes it once)."""

    def make(out: Path) -> None:
        write_sheet(content.ruleset(DD), "log", out, paper="a4")
        assert pdf_module.last_warnings == []

    return renders.many({DD: ("sheets-three-dice-dungeon-log-a4.pdf", make)})[DD]


def widgets(page: pypdf.PageObject) -> dict[str, tuple[Rect, Any]]:
    """Each widget of ``page`` by its full field name, in the page's order: its rectangle
    (mm, from the page's top left) and its dictionary."""
    height = float(page.mediabox.height)
    found: dict[str, tuple[Rect, Any]] = {}
    for name, widget in named_widgets(page):
        x0, y0, x1, y1 = (float(v) for v in widget["/Rect"])
        rect = (min(x0, x1) / MM, (height - max(y0, y1)) / MM, max(x0, x1) / MM,
                (height - min(y0, y1)) / MM)
        found[name] = (rect, widget)
    return found


def middle(rect: Rect) -> tuple[float, float]:
    return (rect[0] + rect[2]) / 2, (rect[1] + rect[3]) / 2


def grid_section(ruleset: Ruleset) -> GridSection:
    (grid,) = [s for s in sheet_def(ruleset, "log").sections if isinstance(s, GridSection)]
    return grid


def key_section(ruleset: Ruleset) -> LinesSection:
    (key,) = [s for s in sheet_def(ruleset, "log").sections if isinstance(s, LinesSection)]
    return key


def walls(path: Path, page: int) -> tuple[list[float], list[float]]:
    """The middles (mm) of the grey walls between the map's columns, and between its rows:
    the bars as long as the map is wide or tall."""
    drawn = opened(path).pages[page]
    bars = [r for r in drawn.rects if r["non_stroking_color"] == GREY_WALL]
    longest = max(max(r["width"], r["height"]) for r in bars)
    down = sorted((r["x0"] + r["x1"]) / 2 / MM for r in bars
                  if r["height"] > longest - 1 and r["width"] < 1)
    across = sorted((r["top"] + r["bottom"]) / 2 / MM for r in bars
                    if r["width"] > longest - 1 and r["height"] < 1)
    return down, across


@pytest.mark.parametrize("page", [0, 2])  # level 1, under the title, and level 2
def test_the_map_walls_are_a_square_apart(content: Content, dd_log: Path, page: int) -> None:
    ruleset = content.ruleset(DD)
    grid = grid_section(ruleset)
    cell = grid_geometry(grid, sheet_paper("a4")).cell_mm
    down, across = walls(dd_log, page)
    assert (len(down), len(across)) == (grid.columns - 1, grid.rows - 1)
    for lines in (down, across):
        steps = [b - a for a, b in pairwise(lines)]
        assert steps == pytest.approx([cell] * len(steps), abs=CLOSE)


@pytest.mark.parametrize(("page", "level"), [(0, 1), (2, 2)])
def test_each_square_holds_its_fields_and_each_exit_sits_on_its_wall(
    content: Content, dd_log: Path, page: int, level: int
) -> None:
    grid = grid_section(content.ruleset(DD))
    down, across = walls(dd_log, page)
    cell = down[1] - down[0]
    # The walls outside the first and last squares, a square further out.
    xs = [down[0] - cell, *down, down[-1] + cell]
    ys = [across[0] - cell, *across, across[-1] + cell]
    found = widgets(pypdf.PdfReader(dd_log).pages[page])
    prefix = f"level{level}."
    for row in range(grid.rows):
        for col in range(grid.columns):
            x, y = middle(found[prefix + grid.cell(col, row)][0])
            assert (x, y) == pytest.approx(((xs[col] + xs[col + 1]) / 2,
                                            (ys[row] + ys[row + 1]) / 2), abs=CLOSE)
            square = prefix + grid.square(col, row)
            if col + 1 < grid.columns:
                assert middle(found[square + ".east"][0]) == pytest.approx(
                    (xs[col + 1], y), abs=CLOSE)
            if row + 1 < grid.rows:
                assert middle(found[square + ".south"][0]) == pytest.approx(
                    (x, ys[row + 1]), abs=CLOSE)


def test_key_rules_are_a_row_apart_and_each_row_holds_its_fields(
    content: Content, dd_log: Path
) -> None:
    ruleset = content.ruleset(DD)
    key = key_section(ruleset)
    shape = lines_geometry(key, sheet_paper("a4"))
    drawn = opened(dd_log).pages[1]
    rules = sorted(line["top"] / MM for line in drawn.lines
                   if line["stroking_color"] == RULE and line["width"] > 100 * MM)
    assert len(rules) == key.rows
    steps = [b - a for a, b in pairwise(rules)]
    assert steps == pytest.approx([shape.row_mm + ROW_LINE] * len(steps), abs=CLOSE)
    found = widgets(pypdf.PdfReader(dd_log).pages[1])
    above = rules[0] - steps[0]  # the column heads' rule, a row above the first rule
    for row, (top, bottom) in enumerate(zip([above, *rules], rules, strict=False), start=1):
        for column in key.columns:
            rect = found["level1." + key.field(row, column)][0]
            if column.kind == "check":  # a box in the middle of its row
                assert middle(rect)[1] == pytest.approx((top + bottom) / 2, abs=0.05)
            else:  # the row's height between its rules
                assert (rect[1], rect[3]) == pytest.approx(
                    (top + ROW_LINE / 2, bottom - ROW_LINE / 2), abs=CLOSE)


def test_copied_fields_are_their_template_but_for_name_and_place(dd_log: Path) -> None:
    found = widgets(pypdf.PdfReader(dd_log).pages[0])
    for template, copies in (("map.a01.location", "location"), ("map.a01.east", "east"),
                             ("map.a01.south", "south")):
        (_, first) = found["level1." + template]
        same = [w for name, (_, w) in found.items() if name.endswith("." + copies)]
        assert len(same) > 80
        for widget in same:
            # Each its own element of the tagged structure (test_print.py), all else alike.
            for key in set(first) | set(widget):
                if key not in ("/T", "/TU", "/Rect", "/Parent", "/StructParent"):
                    assert widget.get(key) == first.get(key), key


def test_fields_come_in_the_order_of_the_definition(content: Content, dd_log: Path) -> None:
    # The order a reader tabs through them: each square's location, then its exits.
    ruleset = content.ruleset(DD)
    sheet = sheet_def(ruleset, "log")
    expected = [name for unit in units(sheet)
                for name in field_names(sheet, unit.number, ruleset.profile())]
    on_pages = [name for page in pypdf.PdfReader(dd_log).pages for name in widgets(page)]
    assert on_pages == expected
    assert len(expected) == len(set(expected))


def test_rows_too_many_for_a_page_go_on_as_many_as_they_need(content_copy: Path) -> None:
    # Each page holds a piece: the column heads, and as many rows as fit under them.
    log = content_copy / "inverted-tower" / "sheets" / "log.toml"
    edit(log, 'rows = { source = "max-rooms" }', "rows = 70")
    ruleset = load_content(content_copy).ruleset("inverted-tower")
    out = content_copy.parent / "log.pdf"
    write_sheet(ruleset, "log", out, paper="a5", floors=1)
    spec = sheet_paper("a5")
    shape = lines_geometry(key_section(ruleset), spec)
    assert len(shape.pieces) == 3
    filled = [found for page in pypdf.PdfReader(out).pages if (found := widgets(page))]
    assert [sorted({name.split(".")[1] for name in found}) for found in filled] == [
        [f"room{n:02d}" for n in range(first, last + 1)] for first, last in shape.pieces]
    for found in filled:
        for rect, _ in found.values():  # above the foot of the page
            assert rect[3] <= spec.height_mm - spec.margin_mm
    sheet = sheet_def(ruleset, "log")
    assert [name for found in filled for name in found] == field_names(
        sheet, 1, ruleset.profile())


def test_rows_per_piece_fill_the_room_without_running_over() -> None:
    for room, row in ((150.0, 6.2), (231.0, 9.0), (100.0, 5.5)):
        count = rows_per_piece(room, row)
        assert count * (row + ROW_LINE) <= room < (count + 1) * (row + ROW_LINE)
    assert rows_per_piece(3.0, 5.5) == 1  # a row too tall still has a piece


def test_a_grid_without_exits_draws_none() -> None:
    plain = grid_svg(GridShape(4, 3, False, 10.0, 5.0, 2.0))
    assert "stroke-dasharray" not in plain
    with_exits = grid_svg(GridShape(4, 3, True, 10.0, 5.0, 2.0))
    assert with_exits.count("stroke-dasharray") >= 2


def test_copies_read_back_from_the_html_whatever_their_titles() -> None:
    title = """Dead end: "it's <b>over</b>" & done"""
    copies = (Copy(1, "floor1.room02.kind", title, 0.0, 7.25),
              Copy(2, "floor1.room03.kind", "Room 3 Kind", 1.5, 14.5))
    template = Template("floor1.room01", 0, "floor1.room01.kind", "Room 1 Kind", copies)
    html = f"<!DOCTYPE html><input name=a {template.attributes}>"
    (element,) = tinyhtml5.parse(html).iter("{http://www.w3.org/1999/xhtml}input")
    assert element.get("data-group") == "floor1.room01"
    assert element.get("data-key") == "0"
    assert json.loads(element.get("data-copies")) == [
        [1, "floor1.room02.kind", title, 0.0, 7.25],
        [2, "floor1.room03.kind", "Room 3 Kind", 1.5, 14.5]]
