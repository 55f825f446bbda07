"""The rulebook covers' drawings, one per motif of ``ruleset.toml``'s ``[cover]`` table
(:mod:`generator.model.cover`): line art with light fills, for a home printer.  Every
choice a drawing makes at random is seeded from the ruleset's id, so that the same content
gives the same cover.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from random import Random

from markupsafe import escape

from generator.model.cover import cover_value
from generator.model.loader import Ruleset
from generator.render.fonts import SANS, SERIF
from generator.render.svg import dice_paths

INK = "#1a1a1a"


@dataclass(frozen=True)
class Drawing:
    """A motif drawn: its shapes, in the box they fill (SVG user units)."""

    x: float
    y: float
    width: float
    height: float
    shapes: str

    @property
    def box(self) -> str:
        return f"{self.x:.1f} {self.y:.1f} {self.width:.1f} {self.height:.1f}"


# -- shapes -------------------------------------------------------------------------------

def _polar(r: float, degrees: float, cx: float = 500, cy: float = 500) -> tuple[float, float]:
    a = math.radians(degrees - 90)  # 0 degrees points up, clockwise
    return cx + r * math.cos(a), cy + r * math.sin(a)


def _arc(r: float, a0: float, a1: float) -> str:
    """An arc of radius ``r`` about the centre, from angle ``a0`` to ``a1`` (clockwise)."""
    x0, y0 = _polar(r, a0)
    x1, y1 = _polar(r, a1)
    large = 1 if a1 - a0 > 180 else 0
    return f"M{x0:.1f} {y0:.1f}A{r:.1f} {r:.1f} 0 {large} 1 {x1:.1f} {y1:.1f}"


def _sector(r_in: float, r_out: float, a0: float, a1: float) -> str:
    """A ring's piece between two radii and two angles, closed."""
    x0, y0 = _polar(r_in, a1)
    x1, y1 = _polar(r_in, a0)
    large = 1 if a1 - a0 > 180 else 0
    return (f"{_arc(r_out, a0, a1)}L{x0:.1f} {y0:.1f}"
            f"A{r_in:.1f} {r_in:.1f} 0 {large} 0 {x1:.1f} {y1:.1f}z")


def _ring(r_in: float, r_out: float) -> str:
    """An annulus, for ``fill-rule="evenodd"``."""
    return "".join(f"M{500 - r:.1f} 500a{r:.1f} {r:.1f} 0 1 0 {2 * r:.1f} 0"
                   f"a{r:.1f} {r:.1f} 0 1 0 {-2 * r:.1f} 0z" for r in (r_out, r_in))


def _radial(r0: float, r1: float, degrees: float) -> str:
    x0, y0 = _polar(r0, degrees)
    x1, y1 = _polar(r1, degrees)
    return f"M{x0:.1f} {y0:.1f}L{x1:.1f} {y1:.1f}"


def _grey(level: float) -> str:
    """A light grey: 0 is white, 1 the darkest fill a cover uses (ink is kept for lines)."""
    v = round(255 - 70 * max(0.0, min(1.0, level)))
    return f"#{v:02x}{v:02x}{v:02x}"


# -- the tower, seen from above going down -------------------------------------------------

_NARROWING = 0.8  # each floor's ring is this much of the one above: the tower goes on down
_DEEPEST = 46  # no ring narrower than this is drawn: the depths are a dark well


def _tower(ruleset: Ruleset) -> Drawing:
    """Concentric floors, each walled into ``rooms`` rooms, turning a little floor by floor;
    on each the stairs down, a room further round, so that they wind into the depths."""
    rooms = cover_value(ruleset.sources, ruleset.info.cover.param("rooms"))
    rng = Random(ruleset.id)
    radii = [430.0]
    while radii[-1] * _NARROWING > _DEEPEST:
        radii.append(radii[-1] * _NARROWING)
    step = 360 / rooms
    stair = rng.randrange(rooms)
    parts = [_battlements(rooms, rng)]
    for floor, r_out in enumerate(radii[:-1]):
        r_in = radii[floor + 1]
        turn = floor * step * 0.3
        parts.append(_floor(floor / len(radii), r_in, r_out, turn, step, rooms, rng))
        parts.append(_stairs(r_in, r_out, turn + (stair + floor) * step, step))
    parts.append(f'<circle cx="500" cy="500" r="{radii[-1]:.1f}" fill="{_grey(1)}" '
                 f'stroke="{INK}" stroke-width="2"/>'
                 f'<circle cx="500" cy="500" r="{radii[-1] * 0.55:.1f}" fill="{INK}"/>')
    return Drawing(20, 20, 960, 960, "".join(parts))


def _battlements(rooms: int, rng: Random) -> str:
    """The top of the tower: a parapet of merlons, two a room, and the way in."""
    count = 2 * rooms
    merlons = "".join(_sector(438, 478, (i + 0.18) * 360 / count, (i + 0.82) * 360 / count)
                      for i in range(count))
    return (f'<path d="{_ring(430, 438)}" fill="{_grey(0.35)}" fill-rule="evenodd" '
            f'stroke="{INK}" stroke-width="3"/>'
            f'<path d="{merlons}" fill="#fff" stroke="{INK}" stroke-width="3.5" '
            f'stroke-linejoin="round"/>')


def _floor(depth: float, r_in: float, r_out: float, turn: float, step: float, rooms: int,
           rng: Random) -> str:
    """One floor: a ring of rooms, greyer the deeper it lies, its walls finer with the
    distance; a wall between two rooms has a door in it or not."""
    width = max(1.4, 5.0 * r_out / 430)
    walls = []
    for k in range(rooms):
        angle = turn + k * step
        span = r_out - r_in
        if span > 40 and rng.random() < 0.7:  # a door: the wall broken about its middle
            walls.append(_radial(r_in, r_in + span * 0.38, angle))
            walls.append(_radial(r_in + span * 0.62, r_out, angle))
        else:
            walls.append(_radial(r_in, r_out, angle))
    return (f'<path d="{_ring(r_in, r_out)}" fill="{_grey(depth * 0.8)}" fill-rule="evenodd"/>'
            f'<circle cx="500" cy="500" r="{r_out:.1f}" fill="none" stroke="{INK}" '
            f'stroke-width="{width * 1.3:.2f}"/>'
            f'<path d="{"".join(walls)}" stroke="{INK}" stroke-width="{width:.2f}" '
            f'stroke-linecap="round"/>')


def _stairs(r_in: float, r_out: float, angle: float, step: float) -> str:
    """The stairs down: a room of treads stepping inward to the floor below."""
    treads = 5
    pad = step * 0.12
    lines = "".join(_arc(r_out - (r_out - r_in) * (i + 0.5) / treads, angle + pad,
                         angle + step - pad) for i in range(treads))
    width = max(1.0, 3.2 * r_out / 430)
    return (f'<path d="{_sector(r_in, r_out, angle, angle + step)}" fill="#fff" '
            f'stroke="{INK}" stroke-width="{width * 1.2:.2f}"/>'
            f'<path d="{lines}" fill="none" stroke="{INK}" stroke-width="{width:.2f}" '
            f'stroke-linecap="round"/>')


# -- the dungeon, mapped on the grid of its map sheet -------------------------------------

_FILLED = 0.42  # the share of the grid's squares the level's locations take


@dataclass(frozen=True)
class _Level:
    """A level laid out square by square: each location and the one it was entered from."""

    columns: int
    rows: int
    rooms: frozenset[tuple[int, int]]  # the other locations are corridors
    parent: Mapping[tuple[int, int], tuple[int, int]]
    start: tuple[int, int]
    hall: tuple[int, int]  # the great hall, the way down: the location furthest in


def _dungeon(ruleset: Ruleset) -> Drawing:
    """A level of the map sheet's grid, its rooms joined by doors and corridors, from the
    entrance to the great hall; the dice the game is played with rest on the sheet."""
    cover = ruleset.info.cover
    columns = cover_value(ruleset.sources, cover.param("columns"))
    rows = cover_value(ruleset.sources, cover.param("rows"))
    dice = cover_value(ruleset.sources, cover.param("dice"))
    cell = 1000 / max(columns, rows)
    width, height = round(columns * cell), round(rows * cell)
    rng = Random(ruleset.id)
    resting = _dice_place(dice, columns, rows)
    level = _level(columns, rows, rng, resting)
    body = [_grid(columns, rows, cell), _passages(level, cell), _rooms(level, cell),
            _doors(level, cell), _marks(level, cell), _dice(dice, cell, width, height, rng)]
    return Drawing(-4, -4, width + 8, height + 8, "".join(body))


def _dice_place(dice: int, columns: int, rows: int) -> frozenset[tuple[int, int]]:
    """The squares the dice rest on, in the lower right corner: the map keeps clear of them."""
    span = max(1, math.ceil(dice * 1.1))
    return frozenset((x, y) for x in range(columns - span, columns)
                     for y in range(rows - 2, rows))


def _level(columns: int, rows: int, rng: Random, taken: frozenset[tuple[int, int]]) -> _Level:
    """Grown from the entrance at the foot of the grid, a location at a time, each next to
    one already there (as a location's exits lead to new ones)."""
    start = (columns // 2 - 1, rows - 1)
    parent: dict[tuple[int, int], tuple[int, int]] = {}
    depth = {start: 0}
    target = max(4, round(columns * rows * _FILLED))
    while len(depth) < target:
        frontier = sorted({(n, c) for c in depth for n in _neighbours(c, columns, rows)
                           if n not in depth and n not in taken})
        if not frontier:
            break
        # A new location where the map is thin yet: the level branches across the whole
        # sheet, not in a blob about the entrance.
        weights = [1 / (1 + _crowd(n, depth)) ** 1.5 for n, _ in frontier]
        new, old = rng.choices(frontier, weights)[0]
        parent[new], depth[new] = old, depth[old] + 1
    cells = sorted(depth)
    rooms = frozenset(c for c in cells if c != start and rng.random() < 0.55)
    hall = max(cells, key=lambda c: (depth[c], c))
    return _Level(columns, rows, rooms | {hall}, parent, start, hall)


def _crowd(c: tuple[int, int], placed: Mapping[tuple[int, int], int]) -> int:
    """The locations within two squares of ``c``."""
    return sum((c[0] + dx, c[1] + dy) in placed for dx in range(-2, 3) for dy in range(-2, 3))


def _neighbours(c: tuple[int, int], columns: int, rows: int) -> list[tuple[int, int]]:
    x, y = c
    return [(a, b) for a, b in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1))
            if 0 <= a < columns and 0 <= b < rows]


def _grid(columns: int, rows: int, cell: float) -> str:
    """The map sheet's squares, in a light line, as the player draws on them."""
    lines = [f"M{x * cell:.1f} 0V{rows * cell:.1f}" for x in range(columns + 1)]
    lines += [f"M0 {y * cell:.1f}H{columns * cell:.1f}" for y in range(rows + 1)]
    return (f'<rect width="{columns * cell:.1f}" height="{rows * cell:.1f}" fill="#fff"/>'
            f'<path d="{"".join(lines)}" stroke="#9a9a9a" stroke-width="1.6" fill="none"/>')


def _centre(c: tuple[int, int], cell: float) -> tuple[float, float]:
    return (c[0] + 0.5) * cell, (c[1] + 0.5) * cell


def _passages(level: _Level, cell: float) -> str:
    """Every way from a location to the one it was entered from, and the way in: walls
    (a wide dark line) under floors (a narrower light one)."""
    segments = [(_centre(a, cell), _centre(b, cell)) for a, b in level.parent.items()]
    sx, sy = _centre(level.start, cell)
    segments.append(((sx, sy), (sx, sy + cell * 0.62)))
    d = "".join(f"M{a[0]:.1f} {a[1]:.1f}L{b[0]:.1f} {b[1]:.1f}" for a, b in segments)
    return (f'<path d="{d}" stroke="{INK}" stroke-width="{cell * 0.34:.1f}" '
            f'stroke-linecap="square" fill="none"/>'
            f'<path d="{d}" stroke="#f2f2f2" stroke-width="{cell * 0.34 - 9:.1f}" '
            f'stroke-linecap="square" fill="none"/>')


def _rooms(level: _Level, cell: float) -> str:
    inset = cell * 0.13
    side = cell - 2 * inset
    return "".join(
        f'<rect x="{c[0] * cell + inset:.1f}" y="{c[1] * cell + inset:.1f}" '
        f'width="{side:.1f}" height="{side:.1f}" fill="{_grey(0.15 if c == level.hall else 0)}" '
        f'stroke="{INK}" stroke-width="5"/>' for c in sorted(level.rooms))


def _doors(level: _Level, cell: float) -> str:
    """A door where a passage meets a room's wall: a small box across the way."""
    doors = []
    inset, half = cell * 0.13, cell * 0.14
    for a, b in sorted(level.parent.items()):
        # Between two rooms, one door halfway; else the door is in the room's wall.
        both = a in level.rooms and b in level.rooms
        for room, other in ((a, b), (b, a))[:1 if both else 2]:
            if room not in level.rooms:
                continue
            (x, y), (ox, oy) = _centre(room, cell), _centre(other, cell)
            dx, dy = (ox > x) - (ox < x), (oy > y) - (oy < y)
            reach = cell / 2 if both else cell / 2 - inset
            px, py = x + dx * reach, y + dy * reach
            w, h = (half * 0.9, half * 2) if dx else (half * 2, half * 0.9)
            doors.append(f'<rect x="{px - w / 2:.1f}" y="{py - h / 2:.1f}" width="{w:.1f}" '
                         f'height="{h:.1f}" fill="#fff" stroke="{INK}" stroke-width="3.5"/>')
    return "".join(doors)


def _marks(level: _Level, cell: float) -> str:
    """The great hall's stairs down, and an arrow for the way in."""
    x, y = level.hall[0] * cell, level.hall[1] * cell
    treads = "".join(f"M{x + cell * 0.27:.1f} {y + cell * t:.1f}H{x + cell * 0.73:.1f}"
                     for t in (0.3, 0.4, 0.5, 0.6, 0.7))
    sx, sy = _centre(level.start, cell)
    foot = (level.start[1] + 1) * cell
    arrow = (f"M{sx:.1f} {foot + 2:.1f}L{sx:.1f} {sy + cell * 0.05:.1f}"
             f"M{sx - cell * 0.12:.1f} {sy + cell * 0.2:.1f}L{sx:.1f} {sy + cell * 0.05:.1f}"
             f"L{sx + cell * 0.12:.1f} {sy + cell * 0.2:.1f}")
    return (f'<path d="{treads}" stroke="{INK}" stroke-width="4" stroke-linecap="round"/>'
            f'<path d="{arrow}" stroke="{INK}" stroke-width="5" fill="none" '
            f'stroke-linecap="round" stroke-linejoin="round"/>')


def _dice(dice: int, cell: float, width: int, height: int, rng: Random) -> str:
    """The game's dice, resting on the sheet's corner, each at a slant of its own."""
    size = cell * 0.78
    parts = []
    for i in range(dice):
        cx = width - cell * (0.75 + 1.05 * (dice - 1 - i))
        cy = height - cell * (0.95 if i % 2 else 1.2)
        angle = rng.uniform(-24, 24)
        parts.append(f'<g transform="rotate({angle:.1f} {cx:.1f} {cy:.1f})">'
                     f'{dice_paths([(cx - size / 2, cy - size / 2, rng.randint(1, 6))], size)}'
                     f'</g>')
    return "".join(parts)


# -- a fanned hand of cards ----------------------------------------------------------------

_CARD_W, _CARD_H = 254.0, 356.0  # a poker card's proportions, 63.5 x 88.9
_PIVOT_DROP = 330.0  # the hand's pivot, below the cards' foot


def _cards(ruleset: Ruleset) -> Drawing:
    """The deck's cards fanned as a hand holds them, each card's name along its left edge,
    where the next card leaves it showing; the front card shows its face."""
    deck = ruleset.decks[ruleset.info.cover.param("deck")]
    names = list(dict.fromkeys(card.title for card in ruleset.cards(deck)))
    spread = min(100.0, 6.6 * (len(names) - 1))
    angles = [-spread / 2 + spread * i / max(1, len(names) - 1) for i in range(len(names))]
    pivot = (0.0, 0.0)
    body = [_card(name, angle, pivot, front=i == len(names) - 1)
            for i, (name, angle) in enumerate(zip(names, angles, strict=True))]
    body.append(_pile(len(names)))
    xs, ys = zip(*(_turned(corner, angle) for angle in angles for corner in _corners()),
                 strict=True)
    ys = (*ys, _PILE_Y + _CARD_W / 2 + 5 * len(names) ** 0.5)
    pad = 8
    return Drawing(min(xs) - pad, min(ys) - pad, max(xs) - min(xs) + 2 * pad,
                   max(ys) - min(ys) + 2 * pad, "".join(body))


_PILE_Y = -60.0  # the draw pile's centre, in the V under the hand


def _pile(cards: int) -> str:
    """The draw pile, face down and lying across under the hand: a few edges, one back."""
    edges = max(2, round(cards ** 0.5))
    w, h = _CARD_H, _CARD_W
    parts = []
    for i in range(edges, -1, -1):
        x, y = -w / 2 + 4 * i, _PILE_Y - h / 2 + 5 * i
        parts.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{w}" height="{h}" rx="16" '
                     f'fill="#fff" stroke="{INK}" stroke-width="3"/>')
    x, y = -w / 2, _PILE_Y - h / 2
    diamonds = "".join(f"M{x + 20 + k * 35:.1f} {y + 20:.1f}l{h - 40:.1f} {h - 40:.1f}"
                       f"M{x + 20 + k * 35:.1f} {y + h - 20:.1f}l{h - 40:.1f} {40 - h:.1f}"
                       for k in range(-8, round((w - 40) / 35) + 1))
    parts.append(f'<rect x="{x + 14:.1f}" y="{y + 14:.1f}" width="{w - 28}" height="{h - 28}" '
                 f'rx="9" fill="{_grey(0.3)}" stroke="{INK}" stroke-width="1.5"/>'
                 f'<clipPath id="pile-back"><rect x="{x + 20:.1f}" y="{y + 20:.1f}" '
                 f'width="{w - 40}" height="{h - 40}"/></clipPath>'
                 f'<path d="{diamonds}" stroke="#fff" stroke-width="3" '
                 f'clip-path="url(#pile-back)"/>')
    return "".join(parts)


def _corners() -> list[tuple[float, float]]:
    """A card's corners, the hand's pivot at the origin below it."""
    top, foot = -_PIVOT_DROP - _CARD_H, -_PIVOT_DROP
    return [(x, y) for x in (-_CARD_W / 2, _CARD_W / 2) for y in (top, foot)]


def _turned(point: tuple[float, float], degrees: float) -> tuple[float, float]:
    a = math.radians(degrees)
    x, y = point
    return x * math.cos(a) - y * math.sin(a), x * math.sin(a) + y * math.cos(a)


def _card(name: str, angle: float, pivot: tuple[float, float], *, front: bool) -> str:
    x0, y0 = pivot[0] - _CARD_W / 2, pivot[1] - _PIVOT_DROP - _CARD_H
    # Turned a quarter clockwise, the name reads down the card, its letters standing to
    # the right of the point it starts from.
    label = (f'<text x="{x0 + 17:.1f}" y="{y0 + 34:.1f}" '
             f'transform="rotate(90 {x0 + 17:.1f} {y0 + 34:.1f})" font-family="{SANS}" '
             f'font-size="30" letter-spacing="1.5" fill="{INK}">{escape(name.upper())}</text>')
    face = _card_face(name, x0, y0) if front else ""
    return (f'<g transform="rotate({angle:.2f} {pivot[0]:.1f} {pivot[1]:.1f})">'
            f'<rect x="{x0:.1f}" y="{y0:.1f}" width="{_CARD_W}" height="{_CARD_H}" rx="16" '
            f'fill="#fff" stroke="{INK}" stroke-width="4"/>'
            f'<rect x="{x0 + 10:.1f}" y="{y0 + 10:.1f}" width="{_CARD_W - 20}" '
            f'height="{_CARD_H - 20}" rx="9" fill="none" stroke="{INK}" stroke-width="1.2"/>'
            f'<path d="M{x0 + 50:.1f} {y0 + 10:.1f}V{y0 + _CARD_H - 10:.1f}" stroke="{INK}" '
            f'stroke-width="1.2"/>{label}{face}</g>')


def _card_face(name: str, x0: float, y0: float) -> str:
    """The front card: its name across the top and, below, a tower of its own."""
    cx = x0 + 50 + (_CARD_W - 60) / 2
    title = (f'<text x="{cx:.1f}" y="{y0 + 62:.1f}" text-anchor="middle" font-family="{SERIF}" '
             f'font-size="34" font-weight="bold" fill="{INK}">{escape(name)}</text>')
    return title + _tower_glyph(cx, y0 + 100, 118, 210)


def _tower_glyph(cx: float, top: float, width: float, height: float) -> str:
    """A small tower: battlements, a door and two windows, in line."""
    left, right, foot = cx - width / 2, cx + width / 2, top + height
    step = width / 5
    crenels = "".join(f"H{left + step * (i + 1):.1f}V{top + (22 if i % 2 == 0 else 0):.1f}"
                      for i in range(5))
    outline = f"M{left:.1f} {foot:.1f}V{top:.1f}{crenels}V{foot:.1f}z"
    door = (f"M{cx - 18:.1f} {foot:.1f}V{foot - 40:.1f}"
            f"a18 18 0 0 1 36 0V{foot:.1f}")
    windows = "".join(f'<rect x="{x - 9:.1f}" y="{top + 62:.1f}" width="18" height="30" rx="9" '
                      f'fill="{INK}"/>' for x in (cx - 28, cx + 28))
    stones = "".join(f"M{left:.1f} {top + y:.1f}H{right:.1f}" for y in (110, 140))
    return (f'<path d="{outline}" fill="{_grey(0.25)}" stroke="{INK}" stroke-width="4" '
            f'stroke-linejoin="round"/><path d="{stones}" stroke="{INK}" stroke-width="1.5"/>'
            f'<path d="{door}" fill="#fff" stroke="{INK}" stroke-width="4"/>{windows}')


#: Each motif of :data:`generator.model.cover.COVER_MOTIFS`, drawn.
MOTIFS: Mapping[str, Callable[[Ruleset], Drawing]] = {
    "tower": _tower,
    "dungeon": _dungeon,
    "cards": _cards,
}
