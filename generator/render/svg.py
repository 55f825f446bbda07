"""Dice faces drawn as SVG, so no font needs dice glyphs (design.md section 7)."""

from __future__ import annotations

import base64
import re
from collections.abc import Callable, Iterable
from functools import cache

from markupsafe import Markup, escape

from generator.model.views import RANGE_DASH, printed_range

_PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((2, 2),),
    2: ((1, 1), (3, 3)),
    3: ((1, 1), (2, 2), (3, 3)),
    4: ((1, 1), (3, 1), (1, 3), (3, 3)),
    5: ((1, 1), (3, 1), (2, 2), (1, 3), (3, 3)),
    6: ((1, 1), (3, 1), (1, 2), (3, 2), (1, 3), (3, 3)),
}
_RANGE = re.compile(f"^(\\d)(?:(?:-|{RANGE_DASH})(\\d))?$")


def die_face(value: int, size_pt: float = 11.0) -> Markup:
    """One d6 face with pips, black on white, sized in points."""
    return Markup(
        f'<svg class="die" width="{size_pt}pt" height="{size_pt}pt" viewBox="0 0 19 19" '
        f'role="img" aria-label="{value}">{title(str(value))}{_face(value)}</svg>'
    )


def title(label: str) -> str:
    """An SVG's ``<title>``: a tagged PDF's alternative text for the picture (WeasyPrint
    reads it, not ``aria-label``); nothing is drawn."""
    return f"<title>{escape(label)}</title>"


def _face(value: int) -> str:
    """A face's shapes, in a 19 x 19 box."""
    pips = "".join(
        f'<circle cx="{x * 5 - 0.5}" cy="{y * 5 - 0.5}" r="1.45"/>' for x, y in _PIPS[value]
    )
    return ('<rect x="0.75" y="0.75" width="17.5" height="17.5" rx="3.5" '
            f'fill="#fff" stroke="#222" stroke-width="1.3"/><g fill="#222">{pips}</g>')


def dice_paths(dice: Iterable[tuple[float, float, int]], size: float) -> str:
    """Many d6 faces of one ``size``, each ``(x, y, value)``, as two SVG paths (the faces,
    the pips): drawn as one shape each, a tape of a thousand dice costs what a few shapes
    do, where a thousand ``<use>`` or ``<circle>`` elements took seconds to draw."""
    k = size / 19
    faces, pips = [], []
    for x, y, value in dice:
        faces.append(_rounded(x + 0.75 * k, y + 0.75 * k, 17.5 * k, 3.5 * k))
        pips += [_circle(x + (px * 5 - 0.5) * k, y + (py * 5 - 0.5) * k, 1.45 * k)
                 for px, py in _PIPS[value]]
    return (f'<path d="{"".join(faces)}" fill="#fff" stroke="#222" '
            f'stroke-width="{1.3 * k:.3f}"/><path d="{"".join(pips)}" fill="#222"/>')


KAPPA = 0.5523  # a quarter circle's Bezier handles, as a share of its radius


def _circle(cx: float, cy: float, r: float) -> str:
    # Bezier curves, not arcs: WeasyPrint turns each arc into curves through matrices,
    # which cost a tape of dice seconds.
    h = r * KAPPA
    return (f"M{cx + r:.2f} {cy:.2f}c0 {h:.2f} {h - r:.2f} {r:.2f} {-r:.2f} {r:.2f}"
            f"s{-r:.2f} {h - r:.2f} {-r:.2f} {-r:.2f}s{r - h:.2f} {-r:.2f} {r:.2f} {-r:.2f}"
            f"s{r:.2f} {r - h:.2f} {r:.2f} {r:.2f}z")


def _rounded(x: float, y: float, side: float, r: float) -> str:
    """A square with rounded corners (quadratic curves), clockwise from its top left."""
    inner = side - 2 * r
    return (f"M{x + r:.2f} {y:.2f}h{inner:.2f}q{r:.2f} 0 {r:.2f} {r:.2f}"
            f"v{inner:.2f}q0 {r:.2f} {-r:.2f} {r:.2f}h{-inner:.2f}q{-r:.2f} 0 {-r:.2f} {-r:.2f}"
            f"v{-inner:.2f}q0 {-r:.2f} {r:.2f} {-r:.2f}z")


def data_url(svg: str) -> str:
    """An SVG document as a ``data:`` URL, for an ``<img>`` (namespace added if missing)."""
    if "xmlns=" not in svg.split(">", 1)[0]:
        svg = svg.replace("<svg ", '<svg xmlns="http://www.w3.org/2000/svg" ', 1)
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode("utf-8")).decode("ascii")


@cache
def die_image(value: int) -> Markup:
    """One d6 face as an image of its SVG, by a data URL, sized by CSS.

    WeasyPrint parses each distinct URL once per document, however often it appears, where
    an inline SVG is parsed at every die.
    """
    return Markup(f'<img class="die" src="{data_url(str(die_face(value)))}" alt="{value}">')


def dice_faces(faces: str) -> Markup:
    """``"1–3"`` (or ``"1-3"``) drawn as faces 1 to 3; ``"5"`` as one face; other text left
    as text.

    The printed digits stay beside the faces so the text layer keeps the numbers.
    """
    return _dice(faces, die_face)


def dice_images(faces: str) -> Markup:
    """As :func:`dice_faces`, each face an image (:func:`die_image`)."""
    return _dice(faces, die_image)


def _dice(faces: str, draw: Callable[[int], Markup]) -> Markup:
    m = _RANGE.match(faces.strip())
    if not m or not 1 <= int(m.group(1)) <= 6 or (m.group(2) and not 1 <= int(m.group(2)) <= 6):
        return Markup("{}").format(printed_range(faces))
    low = int(m.group(1))
    high = int(m.group(2) or low)
    if high - low >= 2:
        pictures = draw(low) + Markup('<span class="dash">\u2013</span>') + draw(high)
    else:
        pictures = Markup("").join(draw(v) for v in range(low, high + 1))
    return Markup('<span class="dice">{}<span class="faces">{}</span></span>').format(
        pictures, printed_range(faces.strip())
    )
