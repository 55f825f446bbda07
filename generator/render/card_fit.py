"""Fit every card's text inside its card, from the layout itself (design.md section 7).

A card's text sits in a ``.face-box`` of the card's inner size; once WeasyPrint has laid
it out, the height (and the widest line) of its ``.face`` says whether it fits.  The
sheets are laid out once at the base size and read (:func:`overflows`); the few cards
that overflow are laid out again, side by side in one small document, at the sizes their
overflow suggests (:func:`fit`), and fall back to every smaller size down to 6 pt.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup

from generator.errors import RenderError
from generator.model.decks import Card
from generator.render.fonts import SANS, SERIF, font_face_css
from generator.render.pdf import render_document
from generator.render.svg import dice_faces
from generator.render.templating import environment

MIN_PT = 6.0
STEP_PT = 0.5
PX_PER_MM = 96 / 25.4
TOLERANCE_PX = 0.5


@dataclass(frozen=True)
class FaceBox:
    """The box a card's text must stay inside, in mm."""

    width: float
    height: float


def base_size(card_width: float) -> float:
    """The text size of a card of this width before any shrinking, in pt."""
    size = 10.0 * card_width / 63.5
    return max(7.0, min(11.0, round(size * 4) / 4))


def sizes_below(base: float) -> list[float]:
    """Every size tried below ``base``, largest first, down to MIN_PT."""
    count = max(1, math.floor((base - MIN_PT) / STEP_PT + 1e-9))
    return sorted({max(MIN_PT, round(base - STEP_PT * i, 2)) for i in range(1, count + 1)},
                  reverse=True)


_SVG = re.compile(r'<svg class="die".*?</svg>', re.DOTALL)


def placeholder_dice(faces: str) -> Markup:
    """The dice of ``faces`` as empty boxes of the size of the drawn faces (same lines)."""
    return Markup(_SVG.sub('<span class="die-box"></span>', str(dice_faces(faces))))


def _boxes(page_box: Any) -> Iterator[Any]:
    """The ``.face-box`` boxes of a page."""
    stack = [page_box]
    while stack:
        current = stack.pop()
        element = getattr(current, "element", None)
        if element is not None and "face-box" in (element.get("class") or "").split():
            yield current
            continue
        stack.extend(getattr(current, "children", ()))


def _right_edge(box: Any) -> float:
    edge = 0.0
    stack = [box]
    while stack:
        current = stack.pop()
        if getattr(current, "width", None) is not None and hasattr(current, "position_x"):
            edge = max(edge, current.position_x + current.margin_width())
        stack.extend(getattr(current, "children", ()))
    return edge


def overflows(pages: Iterable[Any], box: FaceBox) -> dict[str, float]:
    """How far each laid-out card overflows, by key: 1.0 or less fits.

    The ratio is the larger of height and width over the box's; a card found several
    times (copies) keeps its worst ratio.
    """
    limit_h = box.height * PX_PER_MM + TOLERANCE_PX
    limit_w = box.width * PX_PER_MM + TOLERANCE_PX
    ratios: dict[str, float] = {}
    for page in pages:
        for holder in _boxes(page._page_box):
            key = holder.element.get("data-key")
            face = holder.children[0] if holder.children else None
            if key is None or face is None:
                continue
            height = face.margin_height()
            width = _right_edge(face) - holder.content_box_x()
            ratio = max(height / limit_h, width / limit_w)
            ratios[key] = max(ratios.get(key, 0.0), ratio)
    return ratios


def _measure_html(items: Sequence[tuple[Card, float]], box: FaceBox) -> str:
    template = environment().get_template("cards/measure.html")
    return template.render(
        items=list(enumerate(items)), box=box, dice=placeholder_dice,
        font_faces=font_face_css(), serif=SERIF, sans=SANS,
    )


def _trial(items: Sequence[tuple[Card, float]], box: FaceBox, root: Any) -> list[float]:
    """Lay out each (card, size) once, all in one document; their overflow ratios."""
    if not items:
        return []
    document = render_document(_measure_html(items, box), root)
    ratios = overflows(document.pages, box)
    return [ratios[f"{i}"] for i in range(len(items))]


def _guesses(base: float, ratio: float) -> list[float]:
    """Sizes likely to fit a card that overflows by ``ratio`` at ``base``.

    Text area grows with the square of the size, so the size scales with the square root.
    """
    smaller = sizes_below(base)
    guess = base / math.sqrt(max(ratio, 1.0))
    near = [s for s in smaller if s <= guess + STEP_PT + 1e-9][:3]
    return near or smaller[-1:]


def fit(
    cards: Iterable[Card], box: FaceBox, base: float, root: Any,
    ratios: Mapping[str, float] | None = None,
) -> dict[str, float]:
    """The text size of every card (by key), the largest tried that fits, at most ``base``.

    ``ratios`` are overflow ratios already read at ``base`` (from the sheets); cards
    without one are laid out at ``base`` first.

    Raises:
        RenderError: a card does not fit even at 6 pt; the message names it.
    """
    unique: dict[str, Card] = {}
    for card in cards:
        unique.setdefault(card.key, card)
    known = dict(ratios or {})
    missing = [c for k, c in unique.items() if k not in known]
    for card, ratio in zip(missing, _trial([(c, base) for c in missing], box, root),
                           strict=True):
        known[card.key] = ratio
    sizes = {key: base for key in unique}
    over = [c for k, c in unique.items() if known[k] > 1.0]
    tried: dict[str, set[float]] = {c.key: set() for c in over}
    for attempt in range(2):
        trials: list[tuple[Card, float]] = []
        for card in over:
            wanted = (_guesses(base, known[card.key]) if attempt == 0 else sizes_below(base))
            trials.extend((card, s) for s in wanted if s not in tried[card.key])
        for (card, size), ratio in zip(trials, _trial(trials, box, root), strict=True):
            tried[card.key].add(size)
            if ratio <= 1.0 and (sizes[card.key] >= base or size > sizes[card.key]):
                sizes[card.key] = size
        # Cards that no guess fits try every smaller size.
        over = [c for c in over if sizes[c.key] >= base]
    for key, card in unique.items():
        if known[key] > 1.0 and sizes[key] >= base:
            raise RenderError(
                f"card {card.title!r} of deck {card.deck!r} overflows its "
                f"{box.width:.1f} x {box.height:.1f} mm text box even at {MIN_PT:g} pt; "
                "shorten its text or use a larger card size"
            )
    return sizes
