"""Sheet and log definitions (``content/<ruleset>/sheets/*.toml``), resolved against the data.

A sheet file says what a printed sheet holds: its title, its sections and their labels.
Everything the rules decide (attribute names, the XP ladder, how many rooms a floor has,
the item catalogue with its costs) is *named* in the file, never retyped: a section asks
for a source (``source = "attributes"``) and this module fills it in from the typed data
of the ruleset (:mod:`generator.model.sheet_sources`).  The result is a :class:`SheetDef`
whose every printed word and number is known before any template runs.

Form-field names are built here too, so that the renderer, the tests and a player's saved
PDF agree on them (``attr.str``, ``hp.current``, ``floor1.room03.kind``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from generator.model.common import Profile
from generator.model.schema import Node, check_unique
from generator.model.sheet_sources import LadderSource, Sources, Track

KINDS = ("sheet", "log")
LAYOUTS = ("row", "list", "stack")
WIDTHS = ("full", "half")
COLUMN_KINDS = ("text", "check")
_NAME = re.compile(r"^[a-z][a-z0-9-]*(\.[a-z][a-z0-9-]*)*$")


# -- what a sheet holds -------------------------------------------------------------------------


@dataclass(frozen=True)
class Part:
    """One form field of a box: its full field name and its caption."""

    name: str
    label: str
    width: float = 1.0  # relative to the box's other parts


@dataclass(frozen=True)
class Box:
    """A labelled place to write: one field, or several side by side (current and max)."""

    label: str
    note: str
    parts: tuple[Part, ...]


@dataclass(frozen=True)
class Legend:
    """A printed line of names from the data, e.g. the kinds of room a log cell may hold."""

    label: str
    names: tuple[str, ...]


@dataclass(frozen=True)
class Section:
    title: str
    width: str  # "full" or "half"
    legend: Legend | None
    # On A5 and half-letter, starts a page (and ruled rows fill it, as ``page`` does): a
    # sheet too long for one small page is cut where its two pages balance (issue 28).
    small_page_start: bool


@dataclass(frozen=True)
class BoxesSection(Section):
    # "row": boxes side by side; "list": one per line, its note beside it, small count boxes;
    # "stack": one per line, the label beside its parts
    layout: str
    boxes: tuple[Box, ...]

    @property
    def shared_parts(self) -> tuple[Part, ...]:
        """The parts of the first box when every box has parts of the same labels and
        widths, else none: a stack then prints their labels once, as column heads."""
        if not self.boxes:
            return ()
        shape = [(part.label, part.width) for part in self.boxes[0].parts]
        if any([(part.label, part.width) for part in b.parts] != shape for b in self.boxes):
            return ()
        return self.boxes[0].parts


@dataclass(frozen=True)
class LadderRows:
    header: str
    rows: tuple[tuple[int, int], ...]  # (level, XP)


@dataclass(frozen=True)
class LadderSection(Section):
    level_header: str
    reached_header: str
    prefix: str  # field names: {prefix}.l{level:02d}
    ruling: str  # "" when no ruling changes the ladder
    faithful: LadderRows
    alt: LadderRows

    def under(self, profile: Profile) -> LadderRows:
        """The ladder a profile plays with."""
        if self.ruling and profile.alt(self.ruling):
            return self.alt
        return self.faithful

    def field(self, level: int) -> str:
        return f"{self.prefix}.l{level:02d}"


@dataclass(frozen=True)
class Column:
    key: str
    label: str
    kind: str  # "text" or "check"
    width: float  # relative


@dataclass(frozen=True)
class LinesSection(Section):
    row_prefix: str  # field names: {row_prefix}{n:02d}.{column key}
    row_header: str
    rows: int
    columns: tuple[Column, ...]
    note: str
    page: bool  # starts a page and fills it (taller lines)

    def field(self, row: int, column: Column) -> str:
        return f"{self.row_prefix}{row:02d}.{column.key}"


@dataclass(frozen=True)
class TrackSection(Section):
    prefix: str
    track: Track
    held_label: str  # "" for no "held" box

    def field(self, index: int) -> str:
        return f"{self.prefix}.{index + 1:02d}"


@dataclass(frozen=True)
class ReferenceSection(Section):
    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class NotesSection(Section):
    name: str
    lines: int
    fill: bool = False  # then as many more lines as the foot of its page holds


@dataclass(frozen=True)
class GridSection(Section):
    prefix: str
    columns: int
    rows: int
    exits: bool
    note: str

    @staticmethod
    def column_name(index: int) -> str:
        """Column coordinates A, B, ... Z, AA, AB, ..."""
        name = ""
        index += 1
        while index:
            index, rest = divmod(index - 1, 26)
            name = chr(65 + rest) + name
        return name

    def square(self, column: int, row: int) -> str:
        """The name that a square's fields start with: ``map.c04``."""
        return f"{self.prefix}.{self.column_name(column).lower()}{row + 1:02d}"

    def cell(self, column: int, row: int) -> str:
        """The field a square's location (its key number) is written in."""
        return f"{self.square(column, row)}.location"


@dataclass(frozen=True)
class Repeat:
    """A log repeats its sections once per floor (level, trial page)."""

    prefix: str  # field names start {prefix}{n}.
    label: str  # printed "Floor 3"
    default: int
    new_page: bool  # each floor starts a page


@dataclass(frozen=True)
class SheetDef:
    id: str
    kind: str  # "sheet" or "log"
    title: str
    intro: str
    repeat: Repeat | None
    sections: tuple[Section, ...]


# -- reading ----------------------------------------------------------------------------------


def _name(node: Node, key: str, default: str | None = None) -> str:
    value = node.str(key, default)
    if value and not _NAME.match(value):
        node.error(key, f"{value!r} is not a field name (lower-case words joined by '.' or '-')")
    return value


def _legend(node: Node, src: Sources) -> Legend | None:
    if not node.has("legend"):
        return None
    lg = node.table("legend")
    before = lg.str_list("before", ())
    entries = src.entries(lg, "source")
    lg_label = lg.str("label")
    lg.done()
    return Legend(lg_label, (*before, *(e.label for e in entries)))


def _count(node: Node, key: str, src: Sources) -> int:
    """A count written as a number (a layout choice) or ``{ source = "..." }`` (a rule)."""
    raw = node.data.get(key)
    if isinstance(raw, dict):
        sub = node.table(key)
        value = src.number(sub, "source")
        sub.done()
        return value
    return node.int(key, min=1, max=200)


def _width(node: Node, key: str = "width") -> float:
    width = node.data.get(key, 1)
    node._used.add(key)
    # Relative to the other parts: beyond 100 times as wide, a column is all there is
    # (1e300 collapsed a log's headers; NaN passed "<= 0").
    if isinstance(width, bool) or not isinstance(width, (int, float)) or not 0 < width <= 100:
        node.error(key, f"expected a number above 0 and at most 100, got {width!r}")
        return 1.0
    return float(width)


def _parts(node: Node) -> list[Part]:
    """Parts as written: ``key`` in ``name``, to be completed by :func:`_box`."""
    parts: list[Part] = []
    for p in node.tables("parts", required=False):
        parts.append(Part(_name(p, "key"), p.str("label", "", nonempty=False), _width(p)))
        p.done()
    return parts


def _box(name: str, label: str, note: str, spec: list[Part]) -> Box:
    if not spec:
        return Box(label, note, (Part(name, ""),))
    return Box(label, note, tuple(Part(f"{name}.{p.name}", p.label, p.width) for p in spec))


def _boxes(node: Node, src: Sources) -> tuple[str, tuple[Box, ...]]:
    """Boxes from a source, numbered boxes (``repeat``), then the boxes written out."""
    layout = node.choice("layout", LAYOUTS, "row")
    spec = _parts(node)
    boxes: list[Box] = []
    if node.has("source"):
        prefix = _name(node, "prefix")
        for entry in src.entries(node, "source"):
            boxes.append(_box(f"{prefix}.{entry.slug}", entry.label, entry.note, spec))
    if node.has("repeat"):
        r = node.table("repeat")
        count = _count(r, "count", src)
        name, label = r.str("name"), r.str("label")
        if "{n}" not in name:
            r.error("name", f"{name!r} must hold {{n}}, the box's number")
        for n in range(1, count + 1):
            boxes.append(_box(name.replace("{n}", str(n)), label.replace("{n}", str(n)), "", spec))
        r.done()
    for b in node.tables("boxes", required=not (node.has("source") or node.has("repeat"))):
        name = _name(b, "name")
        note = b.str("note", "", nonempty=False)
        boxes.append(_box(name, b.str("label"), note, _parts(b) or spec))
        b.done()
    return layout, tuple(boxes)


def _ladder(node: Node, src: Sources, base: dict[str, Any]) -> LadderSection:
    ladder: LadderSource = src.ladder(node, "source")
    header = node.str("xp_header")
    header_alt = node.str("xp_header_alt", header)
    return LadderSection(
        **base,
        level_header=node.str("level_header"),
        reached_header=node.str("reached_header"),
        prefix=_name(node, "prefix"),
        ruling=ladder.ruling,
        faithful=LadderRows(header, ladder.faithful),
        alt=LadderRows(header_alt, ladder.alt),
    )


def _lines(node: Node, src: Sources, base: dict[str, Any]) -> LinesSection:
    columns: list[Column] = []
    for c in node.tables("columns", min_items=1):
        key = c.str("key")
        if key and not _NAME.match(key):
            c.error("key", f"{key!r} is not a field name")
        kind = c.choice("kind", COLUMN_KINDS, "text")
        columns.append(Column(key, c.str("label"), kind, _width(c)))
        c.done()
    check_unique(node, "columns", [c.key for c in columns], "column key")
    return LinesSection(
        **base,
        row_prefix=_name(node, "row_prefix"),
        row_header=node.str("row_header"),
        rows=_count(node, "rows", src),
        columns=tuple(columns),
        note=node.str("note", "", nonempty=False),
        page=node.bool("page", False),
    )


def _section(node: Node, src: Sources) -> Section | None:
    kind = node.choice("kind", ("boxes", "ladder", "lines", "track", "reference", "notes", "grid"))
    base: dict[str, Any] = {
        # A track is titled by its item's name unless the file says otherwise.
        "title": node.str("title", "" if kind == "track" else None),
        "width": node.choice("width", WIDTHS, "full"),
        "legend": _legend(node, src),
        "small_page_start": node.bool("small_page_start", False),
    }
    section: Section | None = None
    if kind == "boxes":
        layout, boxes = _boxes(node, src)
        section = BoxesSection(**base, layout=layout, boxes=boxes)
    elif kind == "ladder":
        section = _ladder(node, src, base)
    elif kind == "lines":
        section = _lines(node, src, base)
    elif kind == "track":
        section = TrackSection(
            **base,
            prefix=_name(node, "prefix"),
            track=src.track(node, "source"),
            held_label=node.str("held_label", "", nonempty=False),
        )
    elif kind == "reference":
        headers = node.str_list("headers")
        entries = src.entries(node, "source")
        rows = tuple(e.cells for e in entries)
        for e in entries:
            if len(e.cells) != len(headers):
                node.error("headers", f"source {node.data.get('source')!r} gives {len(e.cells)} "
                           f"columns, the headers name {len(headers)}")
                break
        section = ReferenceSection(**base, headers=headers, rows=rows)
    elif kind == "notes":
        lines = node.int("lines", min=1, max=60)
        fill = node.bool("fill", False)
        section = NotesSection(**base, name=_name(node, "name"), lines=lines, fill=fill)
    elif kind == "grid":
        section = GridSection(
            **base,
            prefix=_name(node, "prefix"),
            columns=node.int("columns", min=2, max=26),
            rows=node.int("rows", min=2, max=40),
            exits=node.bool("exits", False),
            note=node.str("note", "", nonempty=False),
        )
    node.done()
    return section


def load_sheet(sheet_id: str, node: Node, src: Sources) -> SheetDef:
    kind = node.choice("kind", KINDS)
    repeat: Repeat | None = None
    if node.has("repeat"):
        r = node.table("repeat")
        repeat = Repeat(
            _name(r, "prefix"),
            r.str("label"),
            r.int("default", min=1, max=99),
            r.bool("new_page", False),
        )
        r.done()
    elif kind == "log":
        node.error("repeat", "missing required key (a log repeats per floor: expected a table)")
    sections = [s for s in (_section(n, src) for n in node.tables("sections", min_items=1)) if s]
    sheet = SheetDef(
        id=sheet_id,
        kind=kind,
        title=node.str("title"),
        intro=node.str("intro", "", nonempty=False),
        repeat=repeat,
        sections=tuple(sections),
    )
    node.done()
    filling = [s.name for s in sheet.sections if isinstance(s, NotesSection) and s.fill]
    if len(filling) > 1:
        # Each would take the same room at the foot of the page.
        node.error("sections", f"{len(filling)} notes sections fill the page "
                   f"({', '.join(map(repr, filling))}): only one of a sheet may (fill = true)")
    if filling and repeat is not None and not repeat.new_page:
        # The room a copy leaves at the foot of a page is the next copy's.
        node.error("sections", f"notes {filling[0]!r} cannot fill the page: the copies "
                   "share their pages (set repeat.new_page = true)")
    names = field_names(sheet)
    check_unique(node, "sections", names, "form field name")
    # A field is either written in or a group of others (attr holds attr.str), never both.
    groups = {n.rpartition(".")[0] for n in names}
    for name in sorted(groups.intersection(names)):
        node.error("sections", f"form field {name!r} also names a group of fields ({name}.*)")
    return sheet


def field_names(
    sheet: SheetDef, unit: int | None = None, profile: Profile | None = None
) -> list[str]:
    """Every form field of one copy of the sheet's sections, in order.

    ``unit`` (a floor number) prefixes the names of a log's repeated sections; ``profile``
    picks the ladder a ruling decides (without it, the levels of both readings).
    """
    prefix = f"{sheet.repeat.prefix}{unit}." if sheet.repeat and unit is not None else ""
    names: list[str] = []
    for s in sheet.sections:
        if isinstance(s, BoxesSection):
            names += [p.name for b in s.boxes for p in b.parts]
        elif isinstance(s, LadderSection):
            chosen = (s.under(profile),) if profile else (s.faithful, s.alt)
            levels = {lv for rows in chosen for lv, _ in rows.rows}
            names += [s.field(lv) for lv in sorted(levels)]
        elif isinstance(s, LinesSection):
            names += [s.field(r, c) for r in range(1, s.rows + 1) for c in s.columns]
        elif isinstance(s, TrackSection):
            names += [s.field(i) for i in range(len(s.track.marks))]
            names += [f"{s.prefix}.held"] if s.held_label else []
        elif isinstance(s, NotesSection):
            names.append(s.name)
        elif isinstance(s, GridSection):
            for row in range(s.rows):
                for col in range(s.columns):
                    names.append(s.cell(col, row))
                    if s.exits and col + 1 < s.columns:
                        names.append(s.square(col, row) + ".east")
                    if s.exits and row + 1 < s.rows:
                        names.append(s.square(col, row) + ".south")
    return [prefix + n for n in names]


def load_sheets(nodes: Mapping[str, Node], sources: Sources) -> Mapping[str, SheetDef]:
    """Typed sheet definitions by id (the file stem), from ``sheets/*.toml``, each source
    they name looked up in ``sources`` (the family's).

    When the ruleset's tables had errors, ``sources`` is unchecked: the files are then
    only read for their own keys, since their references cannot be checked.
    """
    return {stem: load_sheet(stem, node, sources) for stem, node in sorted(nodes.items())}
