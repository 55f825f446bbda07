"""3 Dice Dungeon's maps in the printed booklet: one level of the booklet's JSON drawn as
inline SVG for the answer section, and the same grid empty for the player's own map
(design.md 6, rulings.md 2.4 Mode A).

The map decides nothing: every square, kind, door, number and coordinate comes from the
level's JSON (``grid``, ``start``, ``descents``, ``cells[]``).  Deterministic (the same
level gives the same bytes), black and grey only (a home printer), pure Python: the SVG
goes inline in the booklet's HTML, so its text is set in the document's own fonts.

Drawing: one 15-unit frame per square, scaled to the square's size in millimetres.  A
location is a room inside its square (its size and symbol say its kind) or, for a
corridor, a passage through it.  Each exit is a door in the room's wall and a passage to
the square's edge, so two squares whose exits agree meet in one continuous passage with
a door at each end.  Each exit is drawn once for its side, in the same frame turned to
that side (north at 0 degrees, east at 90...).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup, escape

from generator.model.sheets import GridSection
from generator.render.fonts import SANS
from generator.render.svg import title

Pos = tuple[int, int]

# The booklet's side letters (its cells' ``exits``): the step to the neighbour on that side
# and the turn of the side from north, in degrees.
SIDES: Mapping[str, tuple[int, int, int]] = {
    "N": (0, -1, 0),
    "E": (1, 0, 90),
    "S": (0, 1, 180),
    "W": (-1, 0, 270),
}
OPPOSITE: Mapping[str, str] = {"N": "S", "E": "W", "S": "N", "W": "E"}
# Each kind's room: its inset from the square's edge, in the 15-unit frame (a corridor has
# no room: it is a passage).  A small room is drawn small and a great hall fills its square,
# so that the size alone tells most kinds apart; the rest have a symbol (SYMBOLS).
INSETS: Mapping[str, float] = {
    "small-room": 3.1,
    "large-room": 1.5,
    "vault": 1.9,
    "crypt": 1.9,
    "temple": 1.5,
    "great-hall": 0.8,
}
# The order of the key.
KINDS = ("corridor", "small-room", "large-room", "vault", "crypt", "temple", "great-hall")

FRAME = 15.0  # a square, in its own units
MID = FRAME / 2
DOOR = 1.5  # half the width of a way through a door
CORRIDOR = 2.2  # half a corridor's width
WALL = 0.5
LINE = 0.3
INK = "#111"
GREY = "#888"
HALL_FLOOR = "#e2e2e2"

GUTTER = 6.0  # mm, for the coordinates above and to the left of the grid
MARGIN = 1.5  # mm, right and below, for the frame's stroke and an exit off the edge
MAX_SQUARE = 15.0  # mm
MAX_WIDTH = 104.0  # mm of grid, inside the A5 text width with the gutter
MAX_HEIGHT = 112.0  # mm, leaving room on the page for the heading and the key


@dataclass(frozen=True)
class Geometry:
    """Where a grid of ``width`` by ``height`` squares lies on the page, in mm."""

    width: int
    height: int
    square: float

    @classmethod
    def of(cls, width: int, height: int) -> Geometry:
        if width < 1 or height < 1:
            raise ValueError(f"expected a grid of at least 1 by 1, got {width} by {height}")
        side = min(MAX_SQUARE, MAX_WIDTH / width, MAX_HEIGHT / height)
        return cls(width, height, side)

    @property
    def size(self) -> tuple[float, float]:
        return (GUTTER + self.width * self.square + MARGIN,
                GUTTER + self.height * self.square + MARGIN)

    def origin(self, pos: Pos) -> tuple[float, float]:
        return GUTTER + pos[0] * self.square, GUTTER + pos[1] * self.square


def level_map(level: Mapping[str, Any], number_key: str = "Its section number") -> Markup:
    """One level of a booklet's ``levels[]`` as a figure: the map (inline SVG) and its key,
    which says what the number in a location is (``number_key``).

    Raises KeyError or ValueError for a level without the keys the booklet's schema gives
    every level (``towerpress check`` finds those first).  A level without ``descents`` or
    ``temples`` is drawn without them.
    """
    grid = Geometry.of(int(level["grid"]["width"]), int(level["grid"]["height"]))
    cells = {(int(c["x"]), int(c["y"])): c for c in level["cells"]}
    start = _pos(level["start"])
    descents = {_pos(p) for p in level.get("descents", ())}
    temples = {_pos(p) for p in level.get("temples", ())}
    columns, rows = _coordinates(grid, cells.values())
    body = [_squares(grid, "dd-rock"), _coordinates_svg(grid, columns, rows)]
    for pos, cell in sorted(cells.items()):
        body.append(_location(grid, pos, cell, cells, _marks(pos, start, descents, temples)))
    body.append(_frame(grid))
    title = f"Level {level['number']}" if "number" in level else "Level"
    svg = _svg(grid, "dd-map", f"{title}: the map", body)
    key = _key(cells.values(), cells.get(start), bool(descents & cells.keys()), number_key)
    return Markup('<figure class="dd-level-map">{}{}</figure>').format(svg, key)


def blank_grid(width: int, height: int) -> Markup:
    """The grid of :func:`level_map`, of the same size, without a location: the squares in
    solid lines with their coordinates, and a small box at the middle of each side two
    squares share, to fill where a door is.

    Raises ValueError for a grid of no square."""
    grid = Geometry.of(width, height)
    columns = [GridSection.column_name(x) for x in range(width)]
    rows = [str(y + 1) for y in range(height)]
    body = [_squares(grid, "dd-blank", dashed=False), _door_boxes(grid),
            _coordinates_svg(grid, columns, rows), _frame(grid)]
    return _svg(grid, "dd-grid", "An empty map grid", body)


# -- the grid ---------------------------------------------------------------------------------


def _svg(grid: Geometry, css_class: str, label: str, body: Iterable[str]) -> Markup:
    w, h = grid.size
    return Markup(
        f'<svg xmlns="http://www.w3.org/2000/svg" class="{css_class}" '
        f'width="{_n(w)}mm" height="{_n(h)}mm" viewBox="0 0 {_n(w)} {_n(h)}" '
        f'role="img" aria-label="{escape(label)}" font-family="{SANS}">'
        + title(label) + "".join(body) + "</svg>"
    )


def _squares(grid: Geometry, css_class: str, dashed: bool = True) -> str:
    """The light lines between the squares: dashed on a map, where they are only the
    ground between locations; solid on an empty grid, for the pencil to follow."""
    left, top = grid.origin((0, 0))
    right, bottom = grid.origin((grid.width, grid.height))
    lines = [f"M{_n(grid.origin((x, 0))[0])} {_n(top)}V{_n(bottom)}" for x in range(1, grid.width)]
    lines += [f"M{_n(left)} {_n(grid.origin((0, y))[1])}H{_n(right)}"
              for y in range(1, grid.height)]
    style = 'stroke-width="0.15" stroke-dasharray="0.6 0.6"' if dashed else 'stroke-width="0.2"'
    return (f'<path class="{css_class}" d="{"".join(lines)}" fill="none" stroke="{GREY}" '
            f"{style}/>")


def _frame(grid: Geometry) -> str:
    left, top = grid.origin((0, 0))
    w, h = grid.width * grid.square, grid.height * grid.square
    return (f'<rect class="dd-frame" x="{_n(left)}" y="{_n(top)}" width="{_n(w)}" '
            f'height="{_n(h)}" fill="none" stroke="{INK}" stroke-width="0.35"/>')


def _coordinates(grid: Geometry, cells: Iterable[Mapping[str, Any]]
                 ) -> tuple[list[str], list[str]]:
    """Column and row names as the booklet's labels give them ("D4": column D, row 4); a
    column or row without a location takes the same scheme's name."""
    columns = [GridSection.column_name(x) for x in range(grid.width)]
    rows = [str(y + 1) for y in range(grid.height)]
    for cell in cells:
        label = str(cell["label"])
        letters = label.rstrip("0123456789")
        if letters and label[len(letters):]:
            columns[int(cell["x"])] = letters
            rows[int(cell["y"])] = label[len(letters):]
    return columns, rows


def _coordinates_svg(grid: Geometry, columns: Sequence[str], rows: Sequence[str]) -> str:
    size = min(3.0, grid.square * 0.2)
    out = ['<g class="dd-coordinates" font-weight="600" fill="#333" '
           f'font-size="{_n(size)}">']
    for x, name in enumerate(columns):
        cx = grid.origin((x, 0))[0] + grid.square / 2
        out.append(f'<text x="{_n(cx)}" y="{_n(GUTTER - 1.6)}" text-anchor="middle">'
                   f"{escape(name)}</text>")
    for y, name in enumerate(rows):
        cy = grid.origin((0, y))[1] + grid.square / 2 + size * 0.35
        out.append(f'<text x="{_n(GUTTER - 1.4)}" y="{_n(cy)}" text-anchor="end">'
                   f"{escape(name)}</text>")
    return "".join(out) + "</g>"


def _door_boxes(grid: Geometry) -> str:
    """A small box at the middle of each side two squares share, to fill where a door is
    (as the log's map sheet has)."""
    side = min(1.8, grid.square * 0.12)
    boxes = []
    for x in range(grid.width):
        for y in range(grid.height):
            ox, oy = grid.origin((x, y))
            if x + 1 < grid.width:
                boxes.append((ox + grid.square, oy + grid.square / 2))
            if y + 1 < grid.height:
                boxes.append((ox + grid.square / 2, oy + grid.square))
    d = "".join(f"M{_n(cx - side / 2)} {_n(cy - side / 2)}h{_n(side)}v{_n(side)}h{_n(-side)}Z"
                for cx, cy in boxes)
    return (f'<path class="dd-door-boxes" d="{d}" fill="#fff" stroke="#777" '
            f'stroke-width="0.2"/>')


# -- a location -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Marks:
    start: bool
    descent: bool
    temple: bool


def _marks(pos: Pos, start: Pos, descents: set[Pos], temples: set[Pos]) -> Marks:
    return Marks(pos == start, pos in descents, pos in temples)


def _location(grid: Geometry, pos: Pos, cell: Mapping[str, Any],
              cells: Mapping[Pos, Mapping[str, Any]], marks: Marks) -> str:
    """One square's location: the floors first (its room or passage and those of its
    exits), then the walls and doors over them, its symbols and its number."""
    kind = str(cell["location"])
    ox, oy = grid.origin(pos)
    exits = [side for side in SIDES if side in cell["exits"]]
    inset = INSETS.get(kind)
    ends = {side: _end(pos, side, cells, grid) for side in exits}
    floors = _room_floor(kind, inset) + "".join(
        _turned(side, _exit_floor(inset, ends[side])) for side in exits)
    walls = _passage_walls(exits) if inset is None else _room_walls(kind, inset, exits)
    doors = "".join(_exit(side, inset, ends[side]) for side in exits)
    title = f"{cell['label']}: {cell['location_name']}, section {cell['section']}"
    flags = "".join(f' data-{name}="true"' for name, on in
                    (("start", marks.start), ("descent", marks.descent)) if on)
    return (
        f'<g class="dd-location" data-label="{escape(cell["label"])}" '
        f'data-kind="{escape(kind)}" data-section="{escape(cell["section"])}"{flags} '
        f'transform="translate({_n(ox)} {_n(oy)}) scale({_n(grid.square / FRAME)})">'
        f"<title>{escape(title)}</title>{floors}{walls}{doors}{_symbol(kind, marks)}"
        f"{_start_badge(inset) if marks.start else ''}{_number(cell, inset)}</g>"
    )


@dataclass(frozen=True)
class End:
    """Where an exit's passage ends: at the square's edge, where the neighbour's exit
    meets it (``agrees``; ``room``: the neighbour is a room, whose passage is narrower),
    or past the frame (``off_grid``); ``y``: the end, in the square's frame turned north."""

    agrees: bool
    room: bool
    off_grid: bool
    y: float = -0.06  # just over the edge: the two floors overlap, no grid line shows


def _end(pos: Pos, side: str, cells: Mapping[Pos, Mapping[str, Any]], grid: Geometry) -> End:
    dx, dy, _ = SIDES[side]
    there = (pos[0] + dx, pos[1] + dy)
    off_grid = not (0 <= there[0] < grid.width and 0 <= there[1] < grid.height)
    neighbour = cells.get(there)
    agrees = neighbour is not None and OPPOSITE[side] in neighbour["exits"]
    room = neighbour is not None and str(neighbour["location"]) in INSETS
    if off_grid:
        return End(agrees, room, off_grid, -MARGIN * FRAME / grid.square)
    return End(agrees, room, off_grid)


def _turned(side: str, inner: str, attrs: str = "") -> str:
    """``inner`` (drawn for the north side) turned to ``side``."""
    turn = SIDES[side][2]
    rotate = f' transform="rotate({turn} {_n(MID)} {_n(MID)})"' if turn else ""
    return f"<g{attrs}{rotate}>{inner}</g>"


def _line(d: str, width: float, css: str = "") -> str:
    attr = f' class="{css}"' if css else ""
    return f'<path{attr} d="{d}" fill="none" stroke="{INK}" stroke-width="{_n(width)}"/>'


def _rect(x: float, y: float, w: float, h: float, fill: str, extra: str = "") -> str:
    return (f'<rect{extra} x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}" '
            f'fill="{fill}"/>')


def _room_floor(kind: str, inset: float | None) -> str:
    if inset is None:  # a corridor: the middle of its passage
        lo = MID - CORRIDOR
        return _rect(lo, lo, 2 * CORRIDOR, 2 * CORRIDOR, "#fff")
    floor = HALL_FLOOR if kind == "great-hall" else "#fff"
    return _rect(inset, inset, FRAME - 2 * inset, FRAME - 2 * inset, floor)


def _room_walls(kind: str, inset: float, exits: Sequence[str]) -> str:
    """The four walls, each with a gap where a door is; a vault's and a crypt's thick."""
    wall = WALL * 1.7 if kind in ("vault", "crypt") else WALL
    a, b = inset - wall / 2, FRAME - inset + wall / 2
    out = []
    for side in SIDES:
        if side in exits:
            d = f"M{_n(a)} {_n(inset)}H{_n(MID - DOOR)}M{_n(MID + DOOR)} {_n(inset)}H{_n(b)}"
        else:
            d = f"M{_n(a)} {_n(inset)}H{_n(b)}"
        out.append(_turned(side, _line(d, wall, "dd-wall")))
    return "".join(out)


def _passage_walls(exits: Sequence[str]) -> str:
    """A corridor's walls round its middle, on each side it has no exit."""
    lo, hi = MID - CORRIDOR, MID + CORRIDOR
    d = f"M{_n(lo - WALL / 2)} {_n(lo)}H{_n(hi + WALL / 2)}"
    return "".join(_turned(side, _line(d, WALL, "dd-wall")) for side in SIDES
                   if side not in exits)


def _exit_floor(inset: float | None, end: End) -> str:
    half = CORRIDOR if inset is None else DOOR
    wall = MID - CORRIDOR if inset is None else inset
    return _rect(MID - half, end.y, 2 * half, wall - end.y, "#fff")


def _exit(side: str, inset: float | None, end: End) -> str:
    """One exit's walls: a room's passage from the door in its wall to the square's edge,
    or a corridor's from its middle.  The neighbour's own exit, drawn in its square, meets
    it there; an exit with none facing it is closed at the edge (``dd-one-sided``), and
    one off the grid runs on past the frame."""
    y0 = end.y
    if inset is None:
        lo, hi = MID - CORRIDOR, MID + CORRIDOR
        # The walls run a half wall into the middle, so the corners close.
        inner = _line(f"M{_n(lo)} {_n(y0)}V{_n(lo + WALL / 2)}"
                      f"M{_n(hi)} {_n(y0)}V{_n(lo + WALL / 2)}", WALL)
        if end.agrees and end.room:  # a room's narrower passage: close the rest
            inner += _line(f"M{_n(lo - WALL / 2)} 0H{_n(MID - DOOR)}"
                           f"M{_n(MID + DOOR)} 0H{_n(hi + WALL / 2)}", WALL)
    else:
        lo, hi = MID - DOOR, MID + DOOR
        inner = _line(f"M{_n(lo)} {_n(y0)}V{_n(inset)}M{_n(hi)} {_n(y0)}V{_n(inset)}", LINE)
        inner += (f'<rect class="dd-door" x="{_n(lo)}" y="{_n(inset - 0.6)}" '
                  f'width="{_n(2 * DOOR)}" height="1.2" fill="#fff" stroke="{INK}" '
                  f'stroke-width="{_n(LINE)}"/>')
    if not end.agrees and not end.off_grid:
        inner += _line(f"M{_n(lo - WALL / 2)} 0H{_n(hi + WALL / 2)}", WALL)
    css = "dd-exit" if end.agrees else "dd-exit dd-one-sided"
    return _turned(side, inner, f' class="{css}" data-side="{side}"')


def _start_badge(inset: float | None) -> str:
    """The start, on the north-east corner of its room (a corridor: of its square), kept
    inside the square and clear of the section number in the other corner."""
    corner = 0.0 if inset is None else inset
    x, y = min(FRAME - corner, FRAME - 2.6), max(corner, 2.6)
    return (f'<g class="dd-start" transform="translate({_n(x)} {_n(y)})">'
            f'<circle r="2.5" fill="#fff"/>{_START}</g>')


def _number(cell: Mapping[str, Any], inset: float | None) -> str:
    """The location's section, small, in the room's north-west corner (a corridor: the
    square's, beside the passage)."""
    at = 0.9 if inset is None else inset + 0.8
    return (f'<text class="dd-section" x="{_n(at)}" y="{_n(at + 2.5)}" font-size="3.1" '
            f'font-weight="700" fill="{INK}">{escape(cell["section"])}</text>')


# -- the symbols (each drawn round 0, 0, about 5 units across) ----------------------------------

# The start: a black disc with a white arrow down (the stairs from above end here).
_START = (f'<circle r="2.1" fill="{INK}"/>'
          '<path d="M-1.15 -0.75H1.15L0 1.25Z" fill="#fff"/>')
# The stairs down: steps seen from the side, going down to the east.
_STAIRS = ('<path d="M-2.7 -2.4H-1.35V-1.1H0V0.2H1.35V1.5H2.7V2.6H-2.7Z" fill="#333" '
           'stroke="none"/>')
_TEMPLE = (
    f'<g fill="none" stroke="{INK}" stroke-width="0.3" stroke-linejoin="round">'
    '<path d="M-2.6 -1.2L0 -2.6L2.6 -1.2Z"/>'
    '<path d="M-2.2 -0.6H2.2M-1.6 -0.6V1.8M0 -0.6V1.8M1.6 -0.6V1.8M-2.6 2.3H2.6"/></g>'
)
_CHEST = (
    f'<g fill="#fff" stroke="{INK}" stroke-width="0.3" stroke-linejoin="round">'
    '<rect x="-2.4" y="-0.7" width="4.8" height="2.9"/>'
    '<path d="M-2.4 -0.7V-1.4Q0 -2.9 2.4 -1.4V-0.7Z"/>'
    f'<rect x="-0.45" y="-0.9" width="0.9" height="1.1" fill="{INK}"/></g>'
)
_COFFIN = (
    f'<g fill="#fff" stroke="{INK}" stroke-width="0.3" stroke-linejoin="round">'
    '<path d="M-0.9 -2.7H0.9L1.7 -1.3L1.0 2.7H-1.0L-1.7 -1.3Z"/>'
    '<path d="M0 -1.8V1.4M-0.8 -0.8H0.8" stroke-width="0.25"/></g>'
)
SYMBOLS: Mapping[str, str] = {"temple": _TEMPLE, "vault": _CHEST, "crypt": _COFFIN}


def _symbol(kind: str, marks: Marks) -> str:
    """The stairs down in a location that has them (a great hall), else its kind's symbol
    (a temple, whether the JSON calls it one by its kind or by the level's ``temples``)."""
    if marks.descent:
        drawn, css = _STAIRS, "dd-stairs"
    elif marks.temple:
        drawn, css = _TEMPLE, "dd-temple"
    elif kind in SYMBOLS:
        drawn, css = SYMBOLS[kind], f"dd-symbol-{kind}"
    else:
        return ""
    return f'<g class="{css}" transform="translate({_n(MID)} {_n(MID + 0.6)})">{drawn}</g>'


# -- the key ----------------------------------------------------------------------------------


def _key(cells: Iterable[Mapping[str, Any]], start: Mapping[str, Any] | None,
         has_descent: bool, number_key: str) -> Markup:
    """What the symbols mean: the kinds this level has, in a fixed order, named as the
    booklet names them; then the start, the stairs down, the doors and a section number
    (the start's, as the map shows it)."""
    names: dict[str, str] = {}
    for cell in cells:
        names.setdefault(str(cell["location"]), str(cell["location_name"]))
    known = [k for k in KINDS if k in names]
    known += sorted(k for k in names if k not in KINDS)
    items = [_key_item(_key_location(kind), names[kind]) for kind in known]
    if start is not None:
        items.append(_key_item(_key_icon(_START), "Start (the stairs from above)"))
    if has_descent:
        items.append(_key_item(_key_icon(_STAIRS), "Stairs down"))
    items.append(_key_item(_key_doors(), "A door on each side"))
    if start is not None:
        items.append(Markup('<li><span class="dd-key-number">{}</span>'
                            '<span class="dd-key-text">{}</span></li>'
                            ).format(start["section"], number_key))
    return Markup('<ul class="dd-key">{}</ul>').format(Markup("").join(items))


def _key_item(icon: str, text: str) -> Markup:
    return Markup('<li>{}<span class="dd-key-text">{}</span></li>').format(Markup(icon), text)


def _key_svg(inner: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="dd-key-icon" width="6mm" '
            f'height="6mm" viewBox="0 0 {_n(FRAME)} {_n(FRAME)}">{inner}</svg>')


def _key_location(kind: str) -> str:
    """A location of ``kind`` as the map draws it (a corridor: running north to south)."""
    inset = INSETS.get(kind)
    if inset is None:
        end = End(agrees=True, room=False, off_grid=False)
        floors = _room_floor(kind, None) + "".join(
            _turned(side, _exit_floor(None, end)) for side in ("N", "S"))
        return _key_svg(floors + _passage_walls(["N", "S"])
                        + _exit("N", None, end) + _exit("S", None, end))
    marks = Marks(start=False, descent=False, temple=kind == "temple")
    return _key_svg(_room_floor(kind, inset) + _room_walls(kind, inset, [])
                    + _symbol(kind, marks))


def _key_icon(drawn: str) -> str:
    return _key_svg(f'<g transform="translate({_n(MID)} {_n(MID)}) scale(2)">{drawn}</g>')


def _key_doors() -> str:
    """Two rooms' walls, north and south, and the way between them with its two doors."""
    top, bottom = 3.5, FRAME - 3.5
    lo, hi = MID - DOOR, MID + DOOR
    walls = "".join(_line(f"M0 {_n(y)}H{_n(lo)}M{_n(hi)} {_n(y)}H{_n(FRAME)}", WALL)
                    for y in (top, bottom))
    doors = "".join(
        f'<rect x="{_n(lo)}" y="{_n(y - 0.6)}" width="{_n(2 * DOOR)}" height="1.2" '
        f'fill="#fff" stroke="{INK}" stroke-width="{_n(LINE)}"/>' for y in (top, bottom))
    sides = _line(f"M{_n(lo)} {_n(top)}V{_n(bottom)}M{_n(hi)} {_n(top)}V{_n(bottom)}", LINE)
    return _key_svg(walls + sides + doors)


# -- numbers ----------------------------------------------------------------------------------


def _pos(value: Sequence[Any]) -> Pos:
    return int(value[0]), int(value[1])


def _n(value: float) -> str:
    """A coordinate, short and the same on every machine: at most 3 decimals, no ``-0``."""
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text
