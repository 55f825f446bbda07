"""Character sheets and logs: printable, and fillable on screen (PDF form fields).

The sheet's words and numbers are all in its :class:`~generator.model.sheets.SheetDef`
(resolved from the data by the model); this module lays them out.  Every place a person
writes is an HTML ``<input>`` or ``<textarea>`` with ``appearance: auto``, which WeasyPrint
turns into an AcroForm field named after the input's ``name``; the field itself has no
border and no background, so a blank sheet prints only the project's own lines and boxes.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypedDict

from markupsafe import Markup

from generator import __version__
from generator.errors import RenderError, TowerpressError
from generator.model.common import Profile, RulesetInfo
from generator.model.loader import Ruleset
from generator.model.paper import PAPERS, Paper, paper
from generator.model.sheets import (
    BoxesSection,
    GridSection,
    LadderSection,
    LinesSection,
    NotesSection,
    ReferenceSection,
    Section,
    SheetDef,
    TrackSection,
)
from generator.products.sheets.appearance import write_appearances
from generator.products.sheets.drawn import (
    GridDrawing,
    GridShape,
    LinesDrawing,
    LinesShape,
    copy_fields,
    grid_drawing,
    grid_svg,
    lines_drawing,
    lines_pictures,
    rows_per_piece,
)
from generator.render import weasyprint_internals as internals
from generator.render.fonts import SANS, SERIF, font_face_css
from generator.render.output import write_atomic
from generator.render.pdf import render_document, write_checked
from generator.render.templating import render_template

MAX_FLOORS = 99


@dataclass(frozen=True)
class SheetPaper:
    """A page for sheets: narrow margins (design.md 7: at least 5 mm), a compact type size."""

    paper: Paper
    margin_mm: float
    font_size_pt: float

    @property
    def css_size(self) -> str:
        return self.paper.css_size

    @property
    def width_mm(self) -> float:
        return self.paper.width_mm

    @property
    def height_mm(self) -> float:
        return self.paper.height_mm

    @property
    def body_width_mm(self) -> float:
        return self.width_mm - 2 * self.margin_mm

    @property
    def small(self) -> bool:
        """A5 and half-letter: set tighter (sheet.css ``small-page``)."""
        return self.width_mm < 150

    @property
    def row_mm(self) -> float:
        """A ruled row's height, between its rules (a row that fills a page: page_row_mm):
        at least MIN_ROW_MM, so a pencil's line fits (issue 28: A5's 5.3 mm did not)."""
        return MIN_ROW_MM if self.small else 6.8

    @property
    def tick_mm(self) -> float:
        """A box to tick, its border included (sheet.css ``--tick``)."""
        return 3.0 if self.small else 3.4

    @property
    def body_height_mm(self) -> float:
        # The footer sits in the bottom margin; the page box is the rest.
        return self.height_mm - 2 * self.margin_mm

    @property
    def footer_gap_mm(self) -> float:
        """The footer's gap below the page box: 2 mm, or less where the margin is narrow,
        so that its line ends at least 5 mm from the paper's edge, which most printers
        leave blank (on A5 it ended 3.1 mm from the edge).  Margins are 8 mm at least."""
        return round(max(0.2, min(2.0, self.margin_mm - PRINTABLE_MM - FOOTER_MM)), 2)


MIN_ROW_MM = 6.5  # a row a pencil writes in: the least height between its rules
PRINTABLE_MM = 5.0  # the margin most printers cannot print in (design.md 7)
FOOTER_MM = 3.0  # the footer's line: 7 pt type


SHEET_PAPERS: Mapping[str, SheetPaper] = {
    "a4": SheetPaper(PAPERS["a4"], 11, 9.5),
    "letter": SheetPaper(PAPERS["letter"], 11, 9.5),
    "a5": SheetPaper(PAPERS["a5"], 8, 7.6),
}
#: A booklet folded from Letter sheets (products/booklet/pages.py) holds its log on its own
#: half-letter pages; no sheet of its own is printed on them.
HALF_LETTER = SheetPaper(Paper("half-letter", 139.7, 215.9, "5.5in 8.5in"), 8, 7.6)

#: Which sheet file a product reads.
SHEET_IDS: Mapping[str, str] = {"sheet": "sheet", "log": "log"}


@dataclass(frozen=True)
class Unit:
    """One copy of a sheet's sections: the whole sheet, or one floor of a log."""

    number: int
    heading: str  # "" for a sheet
    prefix: str  # prepended to every field name: "" or "floor3."
    rows: tuple[tuple[Section, ...], ...]  # full-width sections alone, half-width in pairs


def sheet_paper(paper_id: str) -> SheetPaper:
    """Raises TowerpressError for an unknown paper, naming those that exist."""
    if paper_id == HALF_LETTER.paper.id:
        return HALF_LETTER
    return SHEET_PAPERS[paper(paper_id).id]


def sheet_def(ruleset: Ruleset, kind: str) -> SheetDef:
    """The ruleset's sheet (``kind="sheet"``) or log (``kind="log"``) definition."""
    sheet_id = SHEET_IDS.get(kind, kind)
    found = ruleset.sheets.get(sheet_id)
    if not isinstance(found, SheetDef) or found.kind != kind:
        raise TowerpressError(
            f"{ruleset.id} has no {kind} (expected content/{ruleset.id}/sheets/{sheet_id}.toml "
            f"with kind = {kind!r})"
        )
    return found


def _pair_rows(sections: Sequence[Section]) -> tuple[tuple[Section, ...], ...]:
    rows: list[tuple[Section, ...]] = []
    waiting: Section | None = None
    for section in sections:
        if section.width == "half":
            if waiting is None:
                waiting = section
                continue
            rows.append((waiting, section))
            waiting = None
        else:
            if waiting is not None:
                rows.append((waiting,))
                waiting = None
            rows.append((section,))
    if waiting is not None:
        rows.append((waiting,))
    return tuple(rows)


def units(sheet: SheetDef, floors: int | None = None) -> tuple[Unit, ...]:
    rows = _pair_rows(sheet.sections)
    if sheet.repeat is None:
        return (Unit(1, "", "", rows),)
    count = floors or sheet.repeat.default
    if not 1 <= count <= MAX_FLOORS:
        raise TowerpressError(f"--floors {count} is outside 1-{MAX_FLOORS}")
    return tuple(
        Unit(n, f"{sheet.repeat.label} {n}", f"{sheet.repeat.prefix}{n}.", rows)
        for n in range(1, count + 1)
    )


def grid_geometry(section: GridSection, spec: SheetPaper) -> GridShape:
    """Square cells as large as the page allows below the headings."""
    reserved = 21.0 if spec.small else 24.0
    gutter = 5.0  # room for the coordinates
    width = (spec.body_width_mm - gutter - 1) / section.columns
    height = (spec.body_height_mm - reserved - gutter) / section.rows
    cell = int(min(width, height) * 10) / 10
    return GridShape(section.columns, section.rows, section.exits, cell, gutter,
                     round(min(3.2, cell * 0.2), 1))


def starts_page(section: Section, spec: SheetPaper) -> bool:
    """Whether ``section`` starts a page on ``spec``'s: a lines section that fills one
    (``page``), or one the sheet cuts small pages at (``small_page_start``)."""
    return (isinstance(section, LinesSection) and section.page) or (
        spec.small and section.small_page_start)


def lines_geometry(section: LinesSection, spec: SheetPaper) -> LinesShape:
    """The rows of ``section`` on ``spec``'s pages: as tall as a page's rows when the
    section starts a page (and so fills it), as many to a piece as a page holds below the
    headings."""
    row = page_row_mm(section, spec) if starts_page(section, spec) else spec.row_mm
    return LinesShape(column_widths(section), tuple(c.kind == "check" for c in section.columns),
                      section.rows, row, spec.tick_mm, rows_per_piece(lines_room_mm(spec), row))


def _picture(sheet: SheetDef, section: Section) -> str:
    """The name of a section's picture(s): the same on every copy of a log."""
    return f"{sheet.id}-{section_kind(section)}-{sheet.sections.index(section) + 1}"


def sheet_pictures(sheet: SheetDef, spec: SheetPaper) -> dict[str, str]:
    """The SVG of each picture that draws a section of ``sheet`` (its grids, its ruled
    rows: products/sheets/drawn.py), by its ``picture:`` name."""
    found: dict[str, str] = {}
    for section in sheet.sections:
        if isinstance(section, GridSection):
            found[_picture(sheet, section)] = grid_svg(grid_geometry(section, spec))
        elif isinstance(section, LinesSection):
            found |= lines_pictures(lines_geometry(section, spec), _picture(sheet, section))
    return found


def lines_room_mm(spec: SheetPaper) -> float:
    """The height a page holds for rows, below a section's headings.  On A5, what Tower of
    Choices' trial log needs above its 24 rows of 6.5 mm on its first page, under the
    sheet's title (sheet.css sets the headings closer there)."""
    reserved = 44.0 if spec.width_mm > 150 else 33.0
    return spec.body_height_mm - reserved


def page_row_mm(section: LinesSection, spec: SheetPaper) -> float:
    """The line height that fills a page with ``section``'s rows (below its headings)."""
    fitted = int(lines_room_mm(spec) / (section.rows + 1.4) * 10) / 10
    return max(MIN_ROW_MM, min(10.0, fitted))


def column_widths(section: LinesSection) -> tuple[float, ...]:
    """Per cent widths: the row number first, then the columns by their relative widths.
    The number's column is as wide as its head: "Room" in bold 7 pt on A5 ran into the
    next column's at 0.8 of a share."""
    number = 0.8 if len(section.row_header) <= 3 else 1.05
    total = number + sum(c.width for c in section.columns)
    return tuple(round(100 * w / total, 3) for w in (number, *(c.width for c in section.columns)))


_SECTION_KINDS: tuple[tuple[type[Section], str], ...] = (
    (BoxesSection, "boxes"),
    (LadderSection, "ladder"),
    (LinesSection, "lines"),
    (TrackSection, "track"),
    (ReferenceSection, "reference"),
    (NotesSection, "notes"),
    (GridSection, "grid"),
)


def section_kind(section: Section) -> str:
    """The name of the template macro that draws ``section``."""
    for kind, name in _SECTION_KINDS:
        if isinstance(section, kind):
            return name
    raise TypeError(f"no template for {type(section).__name__}")


def sheet_html(
    ruleset: Ruleset,
    kind: str,
    *,
    paper: str = "a4",
    floors: int | None = None,
    profile: Profile | None = None,
    more_lines: Mapping[str, int] | None = None,
    measuring: bool = False,
) -> str:
    """The HTML that goes into WeasyPrint for a sheet or a log.

    ``more_lines`` gives notes that fill their page (``fill = true``) their lines beyond
    ``lines``, by field name, as :func:`room_for_lines` measures them on a layout made with
    ``measuring``: ids on the rows and on those notes, for their positions.  The ids are
    left out of the PDF itself, where each would be a named destination.
    """
    spec = sheet_paper(paper)
    sheet = sheet_def(ruleset, kind)
    profile = profile or ruleset.profile()

    def lines_of(section: LinesSection, prefix: str) -> LinesDrawing:
        return lines_drawing(section, lines_geometry(section, spec), prefix,
                             _picture(sheet, section))

    def drawn_grid(section: GridSection, prefix: str) -> GridDrawing:
        return grid_drawing(section, grid_geometry(section, spec), prefix,
                            _picture(sheet, section))

    authors = ", ".join(dict.fromkeys(c.author for c in ruleset.info.credits))
    return render_template("sheets/sheet.html", SheetContext(
        ruleset=ruleset,
        info=ruleset.info,
        sheet=sheet,
        units=units(sheet, floors),
        profile=profile,
        spec=spec,
        paper=paper,
        font_faces=font_face_css(),
        serif=SERIF,
        sans=SANS,
        authors=authors,
        version=__version__,
        drawn_grid=drawn_grid,
        lines_of=lines_of,
        section_kind=section_kind,
        starts_page=lambda row: any(starts_page(section, spec) for section in row),
        more_lines=more_lines or {},
        measuring=measuring,
    ))


class SheetContext(TypedDict):
    """What ``sheets/sheet.html`` reads."""

    ruleset: Ruleset
    info: RulesetInfo
    sheet: SheetDef
    units: tuple[Unit, ...]
    profile: Profile
    spec: SheetPaper
    paper: str
    font_faces: Markup
    serif: str
    sans: str
    authors: str
    version: str
    drawn_grid: Callable[[GridSection, str], GridDrawing]  # by the field names' prefix
    lines_of: Callable[[LinesSection, str], LinesDrawing]
    section_kind: Callable[[Section], str]
    starts_page: Callable[[Sequence[Section]], bool]  # whether a row of them starts a page
    more_lines: Mapping[str, int]  # notes given more lines to fill their page, by field
    measuring: bool


def filling_notes(sheet: SheetDef) -> list[NotesSection]:
    return [s for s in sheet.sections if isinstance(s, NotesSection) and s.fill]


PX_PER_MM = 96 / 25.4  # WeasyPrint's page positions are CSS pixels


def room_for_lines(document: Any, sheet: SheetDef, spec: SheetPaper,
                   floors: int | None = None) -> dict[str, int]:
    """How many more lines each filling notes section has room for, read off a layout made
    with ``measuring``.

    The room is what the notes' copy of the sheet leaves at the foot of their page (below
    the lowest of its rows there), and, for notes beside a taller section, what their row
    holds below them.  Rows are never split between pages (sheet.css), so each row's box
    is whole on one page.
    """
    foot = (spec.height_mm - spec.margin_mm) * PX_PER_MM
    placed: dict[str, tuple[int, tuple[float, ...]]] = {}
    for number, page in enumerate(document.pages):
        for name, box in page.anchors.items():
            placed.setdefault(name, (number, tuple(box)))
    more: dict[str, int] = {}
    for unit in units(sheet, floors):
        rows = [placed.get(f"row-{unit.number}-{i}") for i in range(len(unit.rows))]
        for row, here in zip(unit.rows, rows, strict=True):
            for notes in row:
                if not isinstance(notes, NotesSection) or not notes.fill:
                    continue
                field = unit.prefix + notes.name
                drawn = placed.get(f"notes-{field}")
                if drawn is None or here is None:
                    continue
                page, (_, top, _, bottom) = drawn
                lowest = max(r[1][3] for r in rows if r is not None and r[0] == page)
                room = foot - lowest + here[1][3] - bottom
                line = (bottom - top) / notes.lines
                # Half a pixel to spare, so that rounding never pushes the last line over.
                more[field] = max(0, math.floor((room - 0.5) / line))
    return more


def nest_fields(document: Any, pdf: Any) -> None:
    """Turn WeasyPrint's flat fields named ``a.b.c`` into a PDF field hierarchy.

    First makes the fields that the laid-out ones stand for (drawn.copy_fields: a map's
    squares after the first, a table's rows).  Also drops the checkboxes' border colour
    (``/MK``), so that no reader draws a frame of its own around a box the page already
    prints, and centres the text of the inputs of class ``center`` (a number in a box) with
    ``/Q 1``; and gives every field the appearances WeasyPrint leaves out (appearance.py).

    A PDF field's own (partial) name may not hold a period: ``attr.str`` is the field
    ``str`` under the field ``attr``, which is how every reader shows and fills it.  Used as
    WeasyPrint's ``finisher``: it edits the PDF objects before they are written, so the
    bytes stay reproducible.
    """

    form = pdf.catalog.get("AcroForm")
    if form is None:
        return
    for element, widget in internals.form_widgets(document):
        if "center" in (element.get("class") or "").split():
            widget["Q"] = 1
    copy_fields(document, pdf)  # after the centring, which the copies take over
    parents: dict[str, Any] = {}
    roots: list[Any] = []

    def parent(path: str) -> Any:
        if path not in parents:
            head, _, last = path.rpartition(".")
            node = internals.pdf_dictionary({"T": internals.pdf_string(last),
                                             "Kids": internals.pdf_array()})
            pdf.add_object(node)
            parents[path] = node
            if head:
                up = parent(head)
                node["Parent"] = up.reference
                up["Kids"].append(node.reference)
            else:
                roots.append(node.reference)
        return parents[path]

    fields = [(reference, internals.pdf_object(pdf, reference)) for reference in form["Fields"]]
    write_appearances(pdf, (field for _, field in fields))
    for reference, field in fields:
        # No border colour for a reader to draw: the page prints the box (clean on paper).
        field.pop("MK", None)
        head, _, last = internals.text_of(field["T"]).rpartition(".")
        if not head:
            roots.append(reference)
            continue
        up = parent(head)
        field["T"] = internals.pdf_string(last)
        field["Parent"] = up.reference
        up["Kids"].append(reference)
    form["Fields"] = internals.pdf_array(roots)


def sheet_pdf_bytes(document: Any) -> bytes:
    """The PDF with its form fields, reproducible (no dates, a content-derived identifier)."""

    return write_checked(document, finisher=nest_fields)


def write_sheet(
    ruleset: Ruleset,
    kind: str,
    out: Path,
    *,
    paper: str = "a4",
    floors: int | None = None,
) -> int:
    """Write a sheet or a log as PDF; returns the page count."""

    document = sheet_document(ruleset, kind, paper=paper, floors=floors)
    write_atomic(out, sheet_pdf_bytes(document))
    return len(document.pages)


def sheet_document(ruleset: Ruleset, kind: str, *, paper: str = "a4",
                   floors: int | None = None) -> Any:
    """A sheet or a log laid out (WeasyPrint's Document): a booklet takes its log's pages.

    Write it with :func:`nest_fields` as the finisher: that makes the fields copied from
    the laid-out ones (drawn.copy_fields), without which a grid has only its first square's.
    """
    sheet = sheet_def(ruleset, kind)
    if filling_notes(sheet):
        return _with_notes_filled(ruleset, sheet, paper, floors)
    return _laid_out(ruleset, sheet, paper, sheet_html(ruleset, kind, paper=paper, floors=floors))


def _laid_out(ruleset: Ruleset, sheet: SheetDef, paper: str, html: str) -> Any:
    return render_document(html, ruleset.root,
                           pictures=sheet_pictures(sheet, sheet_paper(paper)))


MEASURED_COPIES = 2  # the first copy of a log, under its title, and one like all the rest


def _with_notes_filled(ruleset: Ruleset, sheet: SheetDef, paper: str,
                       floors: int | None) -> Any:
    """The sheet laid out with its filling notes as long as their pages allow.

    A log's copies each start a page (the loader sees to it), and all but the first most
    often lay out alike, so the first two are measured and the rest given the second's
    lines: a 99-floor log is not laid out twice over.  Where a later copy lays out
    otherwise (a heading that wraps only at "Level 10"), the page count shows it, and
    every copy is measured.
    """
    wanted = units(sheet, floors)
    tries = sorted({min(len(wanted), MEASURED_COPIES), len(wanted)})
    for copies in tries:
        document, pages = _fill_from(ruleset, sheet, paper, wanted, copies)
        if len(document.pages) == pages:
            return document
    raise RenderError(
        f"content/{ruleset.id}/sheets/{sheet.id}.toml: the notes that fill the page took "
        f"the {paper} {sheet.kind} from {pages} to {len(document.pages)} pages; give them "
        "fewer lines, or no fill")


def _fill_from(ruleset: Ruleset, sheet: SheetDef, paper: str, wanted: Sequence[Unit],
               copies: int) -> tuple[Any, int]:
    """The sheet laid out with the notes' lines measured on its first ``copies`` copies,
    and the pages it should take."""

    measured = _laid_out(ruleset, sheet, paper, sheet_html(
        ruleset, sheet.kind, paper=paper, floors=copies, measuring=True))
    found = room_for_lines(measured, sheet, sheet_paper(paper), copies)
    last = wanted[copies - 1]
    more = {unit.prefix + n.name: found.get(last.prefix + n.name, 0)
            for unit in wanted[copies:] for n in filling_notes(sheet)} | found
    pages = len(measured.pages)
    if len(wanted) > copies:
        starts = next(number for number, page in enumerate(measured.pages)
                      if f"row-{last.number}-0" in page.anchors)
        pages += (len(wanted) - copies) * (len(measured.pages) - starts)
    document = _laid_out(ruleset, sheet, paper, sheet_html(
        ruleset, sheet.kind, paper=paper, floors=len(wanted), more_lines=more))
    return document, pages
