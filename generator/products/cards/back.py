"""The back of a deck's cards: line art drawn by the project, black on white.

A diamond lattice (out to the bleed's edge when there is bleed) and in the middle a
medallion whose motif tells the decks of a ruleset apart by their order: a die face with
that many pips for a dice game, a fan of that many cards for a card game (the deck file's
``back_motif``).  The deck's and the ruleset's names are set over it in text by the
template.

A back has no frame near its edge: printed two-sided, a back lands a millimetre or so off
its front on most printers, and a frame 2 mm inside the trim then shows 1 mm on one side
and 3 on the other.  Nothing but the even lattice comes nearer the trim than CLEAR.
"""

from __future__ import annotations

import math
from functools import cache

from markupsafe import Markup

from generator.render.svg import data_url, die_face

FRAME_INSET = 2.0  # mm from the trim: the frame of the fronts
CLEAR = 6.0  # mm: a back's lines nearer the trim than this are the lattice's only
LATTICE = 4.5  # mm between lattice lines


def _clip(x0: float, y0: float, x1: float, y1: float, c: float, slope: int) -> str | None:
    """The part of the line y = slope * x + c inside the box, as a path segment, or None."""
    points: list[tuple[float, float]] = []
    for x in (x0, x1):
        y = slope * x + c
        if y0 - 1e-9 <= y <= y1 + 1e-9:
            points.append((x, y))
    for y in (y0, y1):
        x = (y - c) * slope  # slope is +1 or -1
        if x0 - 1e-9 <= x <= x1 + 1e-9:
            points.append((x, y))
    points = sorted(set((round(x, 3), round(y, 3)) for x, y in points))
    if len(points) < 2:
        return None
    (ax, ay), (bx, by) = points[0], points[-1]
    if abs(ax - bx) < 1e-6 and abs(ay - by) < 1e-6:
        return None
    return f"M{ax} {ay}L{bx} {by}"


MEDALLION = 0.42  # the medallion's side, a share of the frame's shorter side


def _medallion_side(w: float, h: float) -> float:
    """The side of the medallion of a ``w`` x ``h`` mm card's back, in mm."""
    return MEDALLION * min(w - 2 * FRAME_INSET, h - 2 * FRAME_INSET)


def medallion_reach(w: float, h: float) -> float:
    """How far the medallion (a square on its corner, in the frame's middle) reaches above
    and below the card's middle, in mm: the names on the back stay clear of it."""
    return _medallion_side(w, h) * math.sqrt(2) / 2


def back_svg(w: float, h: float, bleed: tuple[float, float, float, float], pips: int,
             motif: str = "dice") -> Markup:
    """An SVG of the bleed box (``w`` x ``h`` is the trim), in mm."""
    left, top, right, bottom = bleed
    bw, bh = w + left + right, h + top + bottom
    fx, fy = left + FRAME_INSET, top + FRAME_INSET
    fw, fh = w - 2 * FRAME_INSET, h - 2 * FRAME_INSET
    inner = 0.9
    x0, y0, x1, y1 = fx + inner, fy + inner, fx + fw - inner, fy + fh - inner
    if any(bleed):
        # Printed with bleed, the lattice runs out to the bleed's edge: a cut off the line,
        # or a back printed a little off its front, then shows pattern, not a white sliver.
        x0, y0, x1, y1 = 0.0, 0.0, bw, bh
    lines: list[str] = []
    span = int((bw + bh) / LATTICE) + 2
    for slope in (1, -1):
        for k in range(-span, span + 1):
            # Lines through the frame's centre, every LATTICE mm across.
            cx, cy = fx + fw / 2, fy + fh / 2
            c = cy - slope * cx + k * LATTICE * 1.41421356
            line = _clip(x0, y0, x1, y1, c, slope)
            if line:
                lines.append(line)
    medallion = _medallion_side(w, h)
    mx, my = fx + fw / 2 - medallion / 2, fy + fh / 2 - medallion / 2
    mark = medallion * 0.62
    centre = (fx + fw / 2, fy + fh / 2)
    count = max(1, min(6, pips))
    middle = _fan(centre, mark, count) if motif == "cards" else _die(centre, mark, count)
    return Markup(
        f'<svg xmlns="http://www.w3.org/2000/svg" class="back-art" '
        f'width="{bw:.3f}mm" height="{bh:.3f}mm" '
        f'viewBox="0 0 {bw:.3f} {bh:.3f}" role="img">'
        f'<rect x="0" y="0" width="{bw:.3f}" height="{bh:.3f}" fill="#fff"/>'
        # One path for the whole lattice: each SVG element costs WeasyPrint a draw call.
        f'<path d="{"".join(lines)}" stroke="#666" stroke-width="0.18" fill="none"/>'
        f'<rect x="{mx:.3f}" y="{my:.3f}" width="{medallion:.3f}" height="{medallion:.3f}" '
        f'rx="{medallion * 0.18:.3f}" fill="#fff" stroke="#222" stroke-width="0.35" '
        f'transform="rotate(45 {mx + medallion / 2:.3f} {my + medallion / 2:.3f})"/>'
        f"{middle}</svg>"
    )


def _die(centre: tuple[float, float], side: float, pips: int) -> str:
    """A die face of ``pips``, ``side`` mm square, centred on ``centre``."""
    die = str(die_face(pips, 10.0)).replace('width="10.0pt" height="10.0pt"',
                                            f'width="{side:.3f}" height="{side:.3f}"')
    return die.replace("<svg ", f'<svg x="{centre[0] - side / 2:.3f}" '
                       f'y="{centre[1] - side / 2:.3f}" ', 1)


FAN_SPREAD = 100.0  # degrees from the first card of a fan to the last, at most
FAN_STEP = 26.0  # degrees between neighbouring cards, at most


def _fan(centre: tuple[float, float], side: float, count: int) -> str:
    """A hand of ``count`` cards fanned from a point below them, within a ``side`` mm
    square centred on ``centre``: a card game's mark, where a dice game has pips.  Each
    card's top corner shows, so that the cards can be counted."""
    cw, ch = side * 0.4, side * 0.6  # a card, upright
    cx, cy = centre
    pivot = cy + side * 0.42  # the cards turn about a point below their feet
    bottom = pivot - side * 0.04
    step = min(FAN_STEP, FAN_SPREAD / max(1, count - 1))
    cards = []
    for i in range(count):
        angle = (i - (count - 1) / 2) * step
        cards.append(
            f'<g transform="rotate({angle:.2f} {cx:.3f} {pivot:.3f})">'
            f'<rect x="{cx - cw / 2:.3f}" y="{bottom - ch:.3f}" width="{cw:.3f}" '
            f'height="{ch:.3f}" rx="{cw * 0.12:.3f}" fill="#fff" stroke="#222" '
            f'stroke-width="0.3"/>'
            f'<rect x="{cx - cw / 2 + cw * 0.14:.3f}" y="{bottom - ch + cw * 0.14:.3f}" '
            f'width="{cw * 0.72:.3f}" height="{ch - cw * 0.28:.3f}" rx="{cw * 0.06:.3f}" '
            f'fill="none" stroke="#222" stroke-width="0.15"/></g>')
    return "".join(cards)


@cache
def back_image(w: float, h: float, bleed: tuple[float, float, float, float], pips: int,
               motif: str = "dice") -> Markup:
    """The back as an image of the SVG, by a data URL: one picture that WeasyPrint lays
    out as a single box instead of the SVG's elements."""
    left, top, right, bottom = bleed
    url = data_url(str(back_svg(w, h, bleed, pips, motif)))
    return Markup(
        f'<img class="back-art" alt="" src="{url}" '
        f'style="width: {w + left + right:.3f}mm; height: {h + top + bottom:.3f}mm">'
    )
