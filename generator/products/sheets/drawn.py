"""Map grids and ruled rows drawn as pictures, their form fields copied from one square.

WeasyPrint lays a page out box by box, and each box costs it about a millisecond whatever
it holds: 3 Dice Dungeon's map, a div per square and per exit and a field in each, took
0.9 s a page, and its location key, a table of 24 rows of 8 fields, 0.45 s.  So here the
lines and boxes of a grid, and those of a run of ruled rows, are SVG pictures (``picture:``
URLs, the same for every copy of a log, so each is parsed once), and the fields of only the
first square (or row) are laid out, as inputs: the *templates*.  Each template names the
fields like it, their titles and how far from it they are (mm); when the PDF is written,
:func:`copy_fields` (called by the sheets' finisher) makes each a copy of the template's
widget annotation moved by that much: the same type, font, appearance and flags as if
WeasyPrint had laid it out, another name and place.  A document of these pages written
without that finisher holds only the templates' fields.

Every line is where the box it replaces had it, and of the same width: a box's border lies
inside the box, a table's collapsed border is centred on the line between two cells.  Thin
lines are filled, as a box's border is (a reader draws a stroke thinner than a pixel a
pixel wide, but a fill by how much of the pixel it covers: strokes made the map's walls
look twice as heavy on screen), or are the dashes of a wide stroke; the rules of a table
are strokes, as its borders were.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup

from generator.model.sheets import GridSection, LinesSection
from generator.render import weasyprint_internals as internals

PT = 25.4 / 72  # mm in a point
PT_PER_MM = 72 / 25.4

# sheet.css: the strokes the grid's divs and the key's table cells had.
CELL_LINE = 0.35 * PT  # a square's border (#777): two side by side between squares
FRAME_LINE = 1.0 * PT
EXIT_LINE = 0.6 * PT
TICK_LINE = 0.7 * PT
ROW_LINE = 0.5 * PT  # under each row (#555)
COLUMN_LINE = 0.4 * PT  # between two columns (#999)


def mm(value: float) -> str:
    """A length for an SVG or CSS value, in mm to a thousandth."""
    return f"{value:.3f}".rstrip("0").rstrip(".") or "0"


@dataclass(frozen=True)
class Copy:
    """A field made from a template: its place in its group's order, name, title, and its
    offset from the template (mm, rightwards and down)."""

    key: int
    name: str
    title: str
    dx_mm: float
    dy_mm: float


@dataclass(frozen=True)
class Template:
    """An input laid out as usual that stands for ``copies`` too.  ``group`` names the
    fields laid out and copied together (one grid, one run of rows), which the PDF keeps in
    their ``key`` order: the order a reader tabs through them, as when each was laid out."""

    group: str
    key: int
    name: str
    title: str
    copies: tuple[Copy, ...]

    @property
    def attributes(self) -> Markup:
        """The input's ``data-`` attributes that :func:`copy_fields` reads.

        The copies' JSON is quoted with ``'`` so that its many ``"`` stay as they are: the
        HTML parser reads an attribute full of ``&#34;`` ten times slower.
        """
        copies = [[c.key, c.name, c.title, round(c.dx_mm, 4), round(c.dy_mm, 4)]
                  for c in self.copies]
        data = json.dumps(copies, ensure_ascii=False, separators=(",", ":"))
        for char, entity in (("&", "&amp;"), ("'", "&#39;"), ("<", "&lt;"), (">", "&gt;")):
            data = data.replace(char, entity)
        return Markup('data-group="{}" data-key="{}" ').format(self.group, self.key) + Markup(
            f"data-copies='{data}'")


# -- the map grid ---------------------------------------------------------------------------


@dataclass(frozen=True)
class GridShape:
    """A grid's measures (mm): its squares, the gutter that holds the coordinates above
    and left of them, and the exits' boxes."""

    columns: int
    rows: int
    exits: bool
    cell_mm: float
    gutter_mm: float
    exit_mm: float

    @property
    def width_mm(self) -> float:
        return self.gutter_mm + self.columns * self.cell_mm + 0.5

    @property
    def height_mm(self) -> float:
        return self.gutter_mm + self.rows * self.cell_mm + 0.5

    def square(self, col: int, row: int) -> tuple[float, float]:
        """The top left corner of a square."""
        return self.gutter_mm + col * self.cell_mm, self.gutter_mm + row * self.cell_mm

    def has_east(self, col: int) -> bool:
        return self.exits and col + 1 < self.columns

    def has_south(self, row: int) -> bool:
        return self.exits and row + 1 < self.rows

    def east(self, col: int, row: int) -> tuple[float, float]:
        """The top left corner of the box of the exit between a square and the next one
        right, astride their wall."""
        x, y = self.square(col, row)
        return x + self.cell_mm - self.exit_mm / 2, y + (self.cell_mm - self.exit_mm) / 2

    def south(self, col: int, row: int) -> tuple[float, float]:
        x, y = self.square(col, row)
        return x + (self.cell_mm - self.exit_mm) / 2, y + self.cell_mm - self.exit_mm / 2


@dataclass(frozen=True)
class GridDrawing:
    """What the page lays out of a grid: its picture (a ``picture:`` URL's name, the same
    for every copy of the grid, so that it is parsed once and drawn as one object), and the
    templates of its fields, those of square A1."""

    shape: GridShape
    picture: str
    location: Template
    east: Template | None
    south: Template | None

    @property
    def row_names(self) -> str:
        """The rows' numbers, a line each."""
        return "\n".join(str(n) for n in range(1, self.shape.rows + 1))


def _box(x: float, y: float, width: float, height: float) -> str:
    return f"M{mm(x)} {mm(y)}h{mm(width)}v{mm(height)}h{mm(-width)}z"


def _ring(x: float, y: float, width: float, height: float, line: float) -> str:
    """A border ``line`` wide inside the box, to fill even-odd."""
    return _box(x, y, width, height) + _box(x + line, y + line, width - 2 * line,
                                             height - 2 * line)


Dashes = dict[tuple[str, float, tuple[float, ...]], list[str]]  # lines by their stroke


def _dashes(found: Dashes, colour: str, vertical: bool, across: tuple[float, float],
            start: float, dashes: tuple[float, ...], pitch: float, count: int) -> None:
    """Add to ``found`` a line of ``count`` runs of ``dashes`` (lengths, drawn and skipped
    in turn from ``start``), ``pitch`` apart, spanning ``across`` (mm: left to right of a
    column of them, or top to bottom of a row).

    WeasyPrint parses each number of a path in Python, and each element's colours: the
    exits' borders as a path of rings took 50 ms more a page than these few dashed lines.
    A line's width, ``across``, is never the thin side of a box: a reader draws a stroke
    thinner than a pixel a pixel wide (see the module's docstring).
    """
    low, high = across
    if high - low <= 0 or min(dashes) <= 0:
        return
    middle, end = (low + high) / 2, start + (count - 1) * pitch + sum(dashes)
    line = (f"M{mm(middle)} {mm(start)}V{mm(end)}" if vertical
            else f"M{mm(start)} {mm(middle)}H{mm(end)}")
    found.setdefault((colour, high - low, (*dashes, pitch - sum(dashes))), []).append(line)


def _dashed(found: Dashes) -> list[str]:
    """Each stroke's lines as one path: a path's dashes start again at each of its lines."""
    return [f'<path d="{"".join(lines)}" fill="none" stroke="{colour}" '
            f'stroke-width="{mm(width)}" stroke-dasharray="{" ".join(map(mm, dashes))}"/>'
            for (colour, width, dashes), lines in found.items()]


def grid_svg(shape: GridShape) -> str:
    """The grid's lines as an SVG picture in mm, painted as its divs were.

    First the frame; then the squares' borders, which abut: two side by side make a wall
    twice as wide as the one along the frame; then the exits' boxes, white with a black
    border, over the walls but for the strip of each wall that the next square's border
    painted over its exit.

    The exits along one wall are drawn together, as dashed lines: their insides, then the
    sides of their borders across the wall, each side of that strip; and along each line
    of exits (the east exits of a row), the two sides of their borders along the wall.
    The white goes first, so that a border's edge is smoothed once, as a CSS border's is.
    """
    cell, size, left = shape.cell_mm, shape.exit_mm, shape.gutter_mm
    width, height = shape.columns * cell, shape.rows * cell
    walls = [_box(left + c * cell - CELL_LINE, left, 2 * CELL_LINE, height)
             for c in range(1, shape.columns)]
    walls += [_box(left, left + r * cell - CELL_LINE, width, 2 * CELL_LINE)
              for r in range(1, shape.rows)]
    drawn = [f'<path d="{_ring(left, left, width, height, FRAME_LINE)}" fill="#000" '
             'fill-rule="evenodd"/>',
             f'<path d="{_ring(left, left, width, height, CELL_LINE)}" fill="#777" '
             'fill-rule="evenodd"/>',
             f'<path d="{"".join(walls)}" fill="#777"/>']
    if shape.exits:
        whites: Dashes = {}
        blacks: Dashes = {}
        first = left + (cell - size) / 2  # where the first exit along a wall starts
        sides = (EXIT_LINE, size - 2 * EXIT_LINE, EXIT_LINE)
        for vertical, walls_across, along in ((True, shape.columns, shape.rows),
                                              (False, shape.rows, shape.columns)):
            for n in range(1, walls_across):
                wall = left + n * cell
                for across in ((wall - size / 2, wall), (wall + CELL_LINE, wall + size / 2)):
                    _dashes(whites, "#fff", vertical, across, first, (size,), cell, along)
                    _dashes(blacks, "#000", vertical, across, first, sides, cell, along)
            for n in range(along):
                line = (first + n * cell, first + n * cell + size)
                _dashes(blacks, "#000", not vertical, line, left + cell - size / 2, sides,
                        cell, walls_across - 1)
        drawn += _dashed(whites) + _dashed(blacks)
    w, h = mm(shape.width_mm), mm(shape.height_mm)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}mm" height="{h}mm" '
            f'viewBox="0 0 {w} {h}">{"".join(drawn)}</svg>')


def grid_drawing(section: GridSection, shape: GridShape, prefix: str,
                 picture: str) -> GridDrawing:
    """The fields of ``section``, drawn to ``shape`` by ``picture``: their names start
    with ``prefix``, and they come in the order of field_names (each square's location,
    then its exits right and down)."""
    copies: dict[str, list[Copy]] = {"location": [], "east": [], "south": []}
    for row in range(section.rows):
        for col in range(section.columns):
            here = f"{section.column_name(col)}{row + 1}"
            found = [("location", section.cell(col, row), f"{section.title} {here}")]
            if shape.has_east(col):
                found.append(("east", section.square(col, row) + ".east",
                              f"{here} {section.column_name(col + 1)}{row + 1}"))
            if shape.has_south(row):
                found.append(("south", section.square(col, row) + ".south",
                              f"{here} {section.column_name(col)}{row + 2}"))
            key = sum(len(c) for c in copies.values())
            for n, (kind, name, title) in enumerate(found):
                copies[kind].append(Copy(key + n, prefix + name, title,
                                         col * shape.cell_mm, row * shape.cell_mm))
    group = f"grid:{prefix}{section.prefix}"

    def template(kind: str) -> Template | None:
        if not copies[kind]:
            return None
        first, *rest = copies[kind]
        return Template(group, first.key, first.name, first.title, tuple(rest))

    location = template("location")
    assert location is not None  # a grid has two squares at least (model/sheets.py)
    return GridDrawing(shape, picture, location, template("east"), template("south"))


# -- ruled rows -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Place:
    """Where a column's field goes in its cell: CSS ``left`` and ``width`` for a text
    field, and for a box to tick, the cell's middle (per cent of the width, then mm)."""

    left: str
    width: str
    middle_pct: float
    middle_mm: float

    def tick_left(self, tick_mm: float) -> str:
        return f"calc({self.middle_pct:.3f}% + {mm(self.middle_mm - tick_mm / 2)}mm)"


@dataclass(frozen=True)
class LinesShape:
    """A lines section's measures: its columns' widths (per cent of the section's width,
    the number's first), which columns hold a box to tick, its rows' height between their
    rules (mm), and how many rows a piece holds: a piece fits a page (under a copy of the
    column heads), so that a long section is cut into several."""

    widths: tuple[float, ...]
    checks: tuple[bool, ...]  # by column, the number's left out
    rows: int
    row_mm: float
    tick_mm: float
    per_piece: int

    @property
    def pitch_mm(self) -> float:
        """From one row to the next: a row and its rule."""
        return self.row_mm + ROW_LINE

    @property
    def pieces(self) -> tuple[tuple[int, int], ...]:
        """The first and last row of each piece."""
        step = max(1, self.per_piece)
        return tuple((first, min(first + step - 1, self.rows))
                     for first in range(1, self.rows + 1, step))

    @property
    def edges(self) -> tuple[float, ...]:
        """Per cent: each column's left edge, then the right edge of the last."""
        return tuple(sum(self.widths[:i]) for i in range(len(self.widths) + 1))

    @property
    def places(self) -> tuple[Place, ...]:
        """Each column's field, the number's left out: inside the rules between columns,
        as a table's cell is inside the half of its collapsed borders."""
        edges, half = self.edges, COLUMN_LINE / 2
        found = []
        for i in range(1, len(self.widths)):
            right = half if i + 1 < len(self.widths) else 0.0  # no rule right of the last
            found.append(Place(f"calc({edges[i]:.3f}% + {mm(half)}mm)",
                               f"calc({self.widths[i]:.3f}% - {mm(half + right)}mm)",
                               (edges[i] + edges[i + 1]) / 2, (half - right) / 2))
        return tuple(found)

    @property
    def number_width(self) -> str:
        return f"calc({self.widths[0]:.3f}% - {mm(COLUMN_LINE / 2)}mm)"

    @property
    def tick_top(self) -> float:
        """The first row's box to tick, mm from the piece's top: in the middle of the row."""
        return (self.row_mm - self.tick_mm) / 2


def lines_svg(shape: LinesShape, rows: int) -> str:
    """The rules of a piece of ``rows`` rows, as an SVG picture as wide as its section:
    down, one between each two columns; across, a rule under each row (its middle a half
    rule above the row's end).  Strokes, as a table's collapsed borders are drawn.

    No viewBox, so that the columns are placed in per cents of the section's width; and
    so a line each, which a path cannot do.  (A path of the rules across, in an inner
    picture stretched to the width, drew them lighter on screen.)
    """
    pitch, height = shape.pitch_mm, rows * shape.pitch_mm
    down = "".join(f'<line x1="{x:.3f}%" y1="0" x2="{x:.3f}%" y2="{mm(height)}mm"/>'
                   for x in shape.edges[1:-1])
    across = "".join(
        f'<line x1="0" y1="{mm(y)}mm" x2="100%" y2="{mm(y)}mm"/>'
        for y in (n * pitch - ROW_LINE / 2 for n in range(1, rows + 1)))
    return (f'<svg xmlns="http://www.w3.org/2000/svg">'
            f'<g stroke="#999" stroke-width="{mm(COLUMN_LINE)}mm">{down}</g>'
            f'<g stroke="#555" stroke-width="{mm(ROW_LINE)}mm">{across}</g></svg>')


def ticks_svg(shape: LinesShape, rows: int) -> str:
    """The boxes to tick down one column of a piece of ``rows`` rows (mm): white, with a
    black border inside each, as the box's CSS border was; as dashed lines (see _dashes),
    the border's top and bottom down the column, its sides along each row."""
    tick, pitch, line = shape.tick_mm, shape.pitch_mm, TICK_LINE
    found: Dashes = {}
    _dashes(found, "#fff", True, (0, tick), shape.tick_top, (tick,), pitch, rows)
    _dashes(found, "#000", True, (0, tick), shape.tick_top, (line, tick - 2 * line, line),
            pitch, rows)
    for n in range(rows):
        top = n * pitch + shape.tick_top
        _dashes(found, "#000", False, (top, top + tick), 0, (line, tick - 2 * line, line),
                2 * tick, 1)
    w, h = mm(tick), mm(rows * pitch)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}mm" height="{h}mm" '
            f'viewBox="0 0 {w} {h}">{"".join(_dashed(found))}</svg>')


@dataclass(frozen=True)
class LinesPiece:
    """Rows ``first`` to ``last`` of a lines section: their pictures' names (``picture:``
    URLs: the rules, and the boxes to tick of each check column) and the templates of the
    first row's fields, by column."""

    first: int
    last: int
    height_mm: float
    rules: str
    ticks: str
    templates: tuple[Template, ...]

    @property
    def numbers(self) -> str:
        """The rows' numbers, a line each."""
        return "\n".join(str(n) for n in range(self.first, self.last + 1))


@dataclass(frozen=True)
class LinesDrawing:
    shape: LinesShape
    pieces: tuple[LinesPiece, ...]

    @property
    def checks(self) -> tuple[Place, ...]:
        return tuple(p for p, check in zip(self.shape.places, self.shape.checks, strict=True)
                     if check)


def lines_drawing(section: LinesSection, shape: LinesShape, prefix: str,
                  picture: str) -> LinesDrawing:
    """The fields of ``section`` drawn to ``shape``, their names starting with ``prefix``,
    by the pictures :func:`lines_pictures` names after ``picture``."""
    pieces = []
    for first, last in shape.pieces:
        group = f"rows:{prefix}{section.row_prefix}{first:02d}"
        templates = []
        for index, column in enumerate(section.columns):
            head, *copies = (
                Copy((row - first) * len(section.columns) + index,
                     prefix + section.field(row, column),
                     f"{section.row_header} {row} {column.label}",
                     0.0, (row - first) * shape.pitch_mm)
                for row in range(first, last + 1))
            templates.append(Template(group, index, head.name, head.title, tuple(copies)))
        rows = last - first + 1
        pieces.append(LinesPiece(first, last, rows * shape.pitch_mm, f"{picture}-{rows}",
                                 f"{picture}-ticks-{rows}", tuple(templates)))
    return LinesDrawing(shape, tuple(pieces))


def lines_pictures(shape: LinesShape, picture: str) -> dict[str, str]:
    """The SVG of each picture that :func:`lines_drawing` names, by its name."""
    found = {}
    for first, last in shape.pieces:
        rows = last - first + 1
        found[f"{picture}-{rows}"] = lines_svg(shape, rows)
        if any(shape.checks):
            found[f"{picture}-ticks-{rows}"] = ticks_svg(shape, rows)
    return found


def rows_per_piece(room_mm: float, row_mm: float) -> int:
    """How many rows ``row_mm`` tall (with their rules) fit in ``room_mm``."""
    return max(1, math.floor(room_mm / (row_mm + ROW_LINE) + 1e-9))


# -- the fields, copied as the PDF is written -----------------------------------------------


def copy_fields(document: Any, pdf: Any) -> None:
    """Make the fields that each template of ``document`` stands for (see the module's
    docstring) in ``pdf``, in their places in the form's and the pages' lists of fields.

    Part of a ``finisher`` (WeasyPrint's hook that edits the PDF objects before they are
    written): the template's widget annotation exists by then.
    """
    form = pdf.catalog.get("AcroForm")
    if form is None:
        return
    tags = _Tags(pdf)
    members: dict[str, list[tuple[int, bytes]]] = {}
    group_of: dict[bytes, str] = {}
    pages: dict[bytes, None] = {}
    for element, widget in internals.form_widgets(document):
        group = element.get("data-group")
        if group is None:
            continue
        found = members.setdefault(group, [])
        found.append((int(element.get("data-key")), widget.reference))
        group_of[widget.reference] = group
        pages[widget["P"]] = None
        x0, y0, x1, y1 = widget["Rect"]
        for key, name, title, dx, dy in json.loads(element.get("data-copies")):
            copy = internals.pdf_dictionary(dict(widget))
            copy["T"] = internals.pdf_string(name)
            copy["TU"] = internals.pdf_string(title)
            dx, dy = dx * PT_PER_MM, dy * PT_PER_MM  # the page's y runs up
            copy["Rect"] = internals.pdf_array((x0 + dx, y0 - dy, x1 + dx, y1 - dy))
            pdf.add_object(copy)
            tags.tag_like(widget, copy)
            found.append((key, copy.reference))
    ordered = {group: [ref for _, ref in sorted(found)] for group, found in members.items()}
    form["Fields"] = _spliced(form["Fields"], group_of, ordered)
    for reference in pages:
        page = internals.pdf_object(pdf, reference)
        page["Annots"] = _spliced(page["Annots"], group_of, ordered)


class _Tags:
    """A tagged PDF's structure (``pdf_tags``): each copied field gets a ``/Form`` element
    of its own beside its template's, found through the template's ``/StructParent``, so
    that no two widgets claim one element and a screen reader finds every field."""

    def __init__(self, pdf: Any):
        self.pdf = pdf
        root = pdf.catalog.get("StructTreeRoot")
        self.nums: Any = None
        self.elements: dict[int, Any] = {}
        if root is not None:
            tree = internals.pdf_object(pdf, internals.pdf_object(pdf, root)["ParentTree"])
            self.nums = tree["Nums"]
            self.elements = dict(zip(self.nums[0::2], self.nums[1::2], strict=True))

    def tag_like(self, template: Any, copy: Any) -> None:
        index = template.get("StructParent")
        if self.nums is None or index is None:
            return
        form = internals.pdf_object(self.pdf, self.elements[index])
        parent = internals.pdf_object(self.pdf, form["P"])
        mark = internals.pdf_dictionary({"Type": "/OBJR", "Obj": copy.reference,
                                         "Pg": form["Pg"]})
        self.pdf.add_object(mark)
        element = internals.pdf_dictionary({
            "Type": "/StructElem", "S": "/Form", "K": internals.pdf_array([mark.reference]),
            "Pg": form["Pg"], "P": form["P"]})
        self.pdf.add_object(element)
        parent["K"].append(element.reference)
        number = max(self.elements) + 1
        self.elements[number] = element.reference
        self.nums += [number, element.reference]
        copy["StructParent"] = number


def _spliced(references: Sequence[bytes], group_of: dict[bytes, str],
             ordered: dict[str, list[bytes]]) -> Any:
    """``references`` with each group's fields in its order where its first template was."""
    out: list[bytes] = []
    done: set[str] = set()
    for reference in references:
        group = group_of.get(reference)
        if group is None:
            out.append(reference)
        elif group not in done:
            done.add(group)
            out += ordered[group]
    return internals.pdf_array(out)
