"""The back of a deck's cards: line art drawn by the project, black on white.

A diamond lattice inside the same rounded frame as the fronts (out to the bleed's edge when
there is bleed), and in the middle a die face whose pips tell the decks of a ruleset apart
(the deck's order).  The deck's and the
ruleset's names are set over it in text by the template.
"""

from __future__ import annotations

import math
from functools import cache

from markupsafe import Markup

from generator.render.svg import data_url, die_face

FRAME_INSET = 2.0  # mm from the trim: the frame of fronts and backs
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


def back_svg(w: float, h: float, bleed: tuple[float, float, float, float], pips: int) -> Markup:
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
    die = die_face(max(1, min(6, pips)), 10.0)
    die_mm = medallion * 0.62
    die_svg = str(die).replace('width="10.0pt" height="10.0pt"',
                               f'width="{die_mm:.3f}" height="{die_mm:.3f}"')
    die_svg = die_svg.replace("<svg ", f'<svg x="{fx + fw / 2 - die_mm / 2:.3f}" '
                              f'y="{fy + fh / 2 - die_mm / 2:.3f}" ', 1)
    return Markup(
        f'<svg xmlns="http://www.w3.org/2000/svg" class="back-art" '
        f'width="{bw:.3f}mm" height="{bh:.3f}mm" '
        f'viewBox="0 0 {bw:.3f} {bh:.3f}" role="img">'
        f'<rect x="0" y="0" width="{bw:.3f}" height="{bh:.3f}" fill="#fff"/>'
        # One path for the whole lattice: each SVG element costs WeasyPrint a draw call.
        f'<path d="{"".join(lines)}" stroke="#666" stroke-width="0.18" fill="none"/>'
        f'<rect x="{fx:.3f}" y="{fy:.3f}" width="{fw:.3f}" height="{fh:.3f}" rx="2.2" '
        'fill="none" stroke="#222" stroke-width="0.35"/>'
        f'<rect x="{fx + 0.7:.3f}" y="{fy + 0.7:.3f}" width="{fw - 1.4:.3f}" '
        f'height="{fh - 1.4:.3f}" rx="1.6" fill="none" stroke="#222" stroke-width="0.15"/>'
        f'<rect x="{mx:.3f}" y="{my:.3f}" width="{medallion:.3f}" height="{medallion:.3f}" '
        f'rx="{medallion * 0.18:.3f}" fill="#fff" stroke="#222" stroke-width="0.35" '
        f'transform="rotate(45 {mx + medallion / 2:.3f} {my + medallion / 2:.3f})"/>'
        f"{die_svg}</svg>"
    )


@cache
def back_image(w: float, h: float, bleed: tuple[float, float, float, float], pips: int) -> Markup:
    """The back as an image of the SVG, by a data URL: one picture that WeasyPrint lays
    out as a single box instead of the SVG's elements."""
    left, top, right, bottom = bleed
    url = data_url(str(back_svg(w, h, bleed, pips)))
    return Markup(
        f'<img class="back-art" alt="" src="{url}" '
        f'style="width: {w + left + right:.3f}mm; height: {h + top + bottom:.3f}mm">'
    )
