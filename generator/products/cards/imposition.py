"""Card imposition: where each card goes on a sheet, in millimetres (design.md section 7).

Pure geometry, no HTML: the number of cards that fit inside the printable margin, the
position of every front and of the back behind it (mirrored for long- or short-edge
duplex, shifted by the printer's back offset), fold-and-glue pairs, and the crop marks
drawn outside the cards at the cut lines.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Literal

from generator.model.paper import CARD_PAPERS, PAPERS

MARGIN = 5.0  # mm: nothing that must print comes nearer the paper's edge
MARK_CLEARANCE = 0.75  # mm between a crop mark and the card (or its bleed)
MARK_LENGTH = 4.0  # mm, at most
MIN_MARK = 1.0  # mm: shorter marks are not drawn
# Where the paper beyond the cards is narrow (poker on Letter: 1.35 mm inside the margin,
# A4 with 3 mm bleed 1.15), an outer mark comes nearer the card, down to touching it, so
# that MIN_MARK of it lies inside MARGIN, where every printer prints.  Cards that fill the
# printable area to within less than that leave their outer marks in the margin: how many
# fit is counted inside the margin (design.md section 7), not inside their marks.
EPS = 1e-6

Duplex = Literal["long", "short", "none"]
DUPLEX: tuple[Duplex, ...] = ("long", "short", "none")
Orientation = Literal["portrait", "landscape"]


SIZES: Mapping[str, tuple[float, float]] = {
    "poker": (63.5, 88.9),
    "bridge": (57.15, 88.9),
    "mini": (44.45, 63.5),
    "tarot": (69.85, 120.65),
}
_CUSTOM = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*[x×]\s*(\d+(?:\.\d+)?)\s*mm\s*$", re.IGNORECASE)


class ImpositionError(ValueError):
    """Cards that cannot be laid out (too large for the paper, a bad size)."""


@dataclass(frozen=True)
class CardSize:
    name: str  # "poker", or "63x88mm" for a custom size
    width: float
    height: float


def card_size(text: str) -> CardSize:
    """A preset name or ``WxHmm``.

    Raises:
        ImpositionError: naming the accepted forms.
    """
    key = text.strip().lower()
    if key in SIZES:
        return CardSize(key, *SIZES[key])
    m = _CUSTOM.match(key)
    # No paper holds a card over 300 mm; --png has no paper, and a card 10 km tall ran out
    # of memory there.
    if m and all(MIN_SIDE <= float(v) <= MAX_SIDE for v in m.groups()):
        w, h = float(m.group(1)), float(m.group(2))
        return CardSize(f"{m.group(1)}x{m.group(2)}mm", w, h)
    raise ImpositionError(
        f"unknown card size {text!r} (expected one of: {', '.join(SIZES)}, "
        f"or WxHmm such as 63x88mm, {MIN_SIDE:g} to {MAX_SIDE:g} mm a side)"
    )


MIN_SIDE, MAX_SIDE = 20.0, 300.0  # mm: a custom card's sides


@dataclass(frozen=True)
class Placement:
    """A card's trim box on a sheet, with the bleed around it (left, top, right, bottom)."""

    x: float
    y: float
    w: float
    h: float
    bleed: tuple[float, float, float, float]

    @property
    def outer(self) -> tuple[float, float, float, float]:
        """The bleed box: x0, y0, x1, y1."""
        left, top, right, bottom = self.bleed
        return (self.x - left, self.y - top, self.x + self.w + right, self.y + self.h + bottom)


@dataclass(frozen=True)
class Mark:
    """A crop mark (or a fold mark) from (x1, y1) to (x2, y2)."""

    x1: float
    y1: float
    x2: float
    y2: float
    fold: bool = False


@dataclass(frozen=True)
class Layout:
    """Every slot of a sheet; ``backs`` mirrors ``fronts`` slot for slot."""

    paper: str
    page_w: float
    page_h: float
    size: CardSize
    bleed: float
    gutter: float
    cols: int
    rows: int
    fronts: tuple[Placement, ...]
    backs: tuple[Placement, ...]
    marks: tuple[Mark, ...]
    fold: bool
    duplex: Duplex
    orientation: Orientation = "portrait"  # of the pages: landscape where it holds more

    @property
    def per_sheet(self) -> int:
        return len(self.fronts)

    @property
    def with_backs(self) -> bool:
        """Whether backs are printed: beside their fronts to fold, or behind them in duplex."""
        return self.fold or self.duplex != "none"


def _count(avail: float, size: float, gutter: float, bleed_out: float) -> int:
    """How many cards of ``size`` fit in ``avail`` with ``gutter`` and outer bleed."""
    return max(0, math.floor((avail - 2 * bleed_out + gutter + EPS) / (size + gutter)))


def layout(
    paper: str,
    size: CardSize,
    *,
    bleed: float = 0.0,
    gutter: float = 0.0,
    duplex: Duplex = "long",
    back_offset: tuple[float, float] = (0.0, 0.0),
    fold: bool = False,
) -> Layout:
    """Lay out one sheet, on the paper turned the way that holds more cards (portrait
    when both hold as many).

    A back offset keeps the sheet portrait: the calibration sheet measures it on a
    portrait page, and a landscape page is turned onto the paper clockwise by one printer
    and anticlockwise by another, which would turn the offset either way.

    Raises:
        ImpositionError: no card fits inside the printable margin, or an offset is asked for
            backs that are not on the other side of the sheet.
    """
    if paper not in CARD_PAPERS:
        raise ImpositionError(f"unknown paper {paper!r} (expected one of: "
                              f"{', '.join(CARD_PAPERS)})")
    if bleed < 0 or gutter < 0:
        raise ImpositionError("bleed and gutter must not be negative")
    if back_offset != (0.0, 0.0) and (fold or duplex == "none"):
        # Only backs printed on the other side of the sheet can be misregistered.
        without = "--fold" if fold else "--duplex none"
        raise ImpositionError(f"--back-offset moves backs printed on the other side of the "
                              f"sheet; with {without} there are none (leave it out)")
    short, long = sorted((float(PAPERS[paper].width_mm), float(PAPERS[paper].height_mm)))
    turns: tuple[Orientation, ...] = ("portrait",)
    if back_offset == (0.0, 0.0):
        turns += ("landscape",)
    found: list[Layout] = []
    failure: ImpositionError | None = None
    for turn in turns:
        page_w, page_h = (short, long) if turn == "portrait" else (long, short)
        try:
            found.append(_layout_on(paper, page_w, page_h, size, bleed, gutter, duplex,
                                    back_offset, fold, turn))
        except ImpositionError as exc:
            failure = failure or exc  # the portrait one's message, when neither fits
    if not found:
        assert failure is not None
        raise failure
    return max(found, key=lambda lay: lay.per_sheet)  # the first (portrait) on a tie


def _layout_on(
    paper: str, page_w: float, page_h: float, size: CardSize, bleed: float, gutter: float,
    duplex: Duplex, back_offset: tuple[float, float], fold: bool, turn: Orientation,
) -> Layout:
    # Bleed spills into the gutter: neighbours need twice the bleed between them.
    gap = max(gutter, 2 * bleed)
    avail_w, avail_h = page_w - 2 * MARGIN, page_h - 2 * MARGIN
    rows = _count(avail_h, size.height, gap, bleed)
    if fold:
        # Fronts left of the fold, backs right of it, each pair meeting at the fold line.
        cols = _count(avail_w / 2 + bleed, size.width, gap, bleed)
    else:
        cols = _count(avail_w, size.width, gap, bleed)
    if cols < 1 or rows < 1:
        what = "a fold-and-glue pair" if fold else "one card"
        raise ImpositionError(
            f"{size.name} cards ({size.width:g} x {size.height:g} mm) with {bleed:g} mm bleed: "
            f"{what} does not fit inside the {MARGIN:g} mm margin of {paper} "
            f"({avail_w:g} x {avail_h:g} mm printable)"
        )
    block_h = rows * size.height + (rows - 1) * gap
    y0 = (page_h - block_h) / 2
    fronts: list[Placement] = []
    backs: list[Placement] = []
    ox, oy = back_offset
    for r in range(rows):
        y = y0 + r * (size.height + gap)
        for c in range(cols):
            if fold:
                x = page_w / 2 - (c + 1) * size.width - c * gap
                front = Placement(x, y, size.width, size.height, (bleed, bleed, 0.0, bleed))
                mx = page_w - x - size.width
                back = Placement(mx, y, size.width, size.height, (0.0, bleed, bleed, bleed))
            else:
                block_w = cols * size.width + (cols - 1) * gap
                x = (page_w - block_w) / 2 + c * (size.width + gap)
                front = Placement(x, y, size.width, size.height, (bleed,) * 4)
                back = _mirror(front, page_w, page_h, duplex)
                back = Placement(back.x + ox, back.y + oy, back.w, back.h, back.bleed)
            fronts.append(front)
            backs.append(back)
    if duplex != "none" and not fold:
        _check_on_paper(backs, page_w, page_h, back_offset, paper)
    placed = fronts + backs if fold else fronts
    marks = tuple(_marks(placed, page_w, page_h, fold))
    return Layout(paper, page_w, page_h, size, bleed, gutter, cols, rows, tuple(fronts),
                  tuple(backs), marks, fold, duplex, turn)


def _check_on_paper(
    backs: list[Placement], page_w: float, page_h: float, offset: tuple[float, float],
    paper: str,
) -> None:
    """Raises ImpositionError when the offset moves a back (with its bleed) off the paper."""
    ox, oy = offset
    x0 = min(b.outer[0] for b in backs) - ox
    y0 = min(b.outer[1] for b in backs) - oy
    x1 = max(b.outer[2] for b in backs) - ox
    y1 = max(b.outer[3] for b in backs) - oy
    if x0 + ox < -EPS or y0 + oy < -EPS or x1 + ox > page_w + EPS or y1 + oy > page_h + EPS:
        raise ImpositionError(
            f"--back-offset {ox:g},{oy:g} moves backs off the paper: on {paper}, these cards "
            f"allow {_inward(-x0):g} to {_inward(page_w - x1):g} mm across and "
            f"{_inward(-y0):g} to {_inward(page_h - y1):g} mm down (the calibration sheet "
            "measures the offset)"
        )


def _inward(limit: float) -> float:
    """``limit`` to a tenth of a mm, rounded towards 0 so that it is still allowed."""
    return math.trunc(round(limit * 10, 6)) / 10


def sheet_marks(lay: Layout, count: int) -> tuple[Mark, ...]:
    """The marks of a sheet that holds ``count`` cards: a partial sheet has none where no
    card is, and a layout without marks (a Tabletop Simulator grid) has none at all."""
    if count >= lay.per_sheet or not lay.marks:
        return lay.marks
    placed = list(lay.fronts[:count])
    if lay.fold:
        placed += lay.backs[:count]
    return tuple(_marks(placed, lay.page_w, lay.page_h, lay.fold))


def _mirror(p: Placement, page_w: float, page_h: float, duplex: Duplex) -> Placement:
    """Where the back of ``p`` goes on the next page so that it lands behind it.

    The sheet turns over its long or its short edge: on a portrait page the long edge is
    upright, so a long-edge flip mirrors across; on a landscape page it lies along the top,
    so the same flip mirrors up and down.  However the printer turns a landscape page onto
    its paper, the page's top stays along the same edge of the paper on both sides.
    """
    left, top, right, bottom = p.bleed
    if duplex == "none":
        return p  # backs printed on their own sheets, in the same places
    if (duplex == "long") == (page_h >= page_w):  # the sheet turns over an upright edge
        return Placement(page_w - p.x - p.w, p.y, p.w, p.h, (right, top, left, bottom))
    return Placement(p.x, page_h - p.y - p.h, p.w, p.h, (left, bottom, right, top))


def _free(x: float, y: float, boxes: list[tuple[float, float, float, float]]) -> bool:
    return not any(b[0] - EPS < x < b[2] + EPS and b[1] - EPS < y < b[3] + EPS for b in boxes)


def _segment(lo: float, hi: float) -> tuple[float, float] | None:
    """The mark between ``lo`` and ``hi``, shortened to at most MARK_LENGTH."""
    if hi - lo < MIN_MARK - EPS:
        return None
    return (lo, min(hi, lo + MARK_LENGTH))


def _clearance(printable: float) -> float:
    """The gap between an outer mark and the card, given the ``printable`` mm between the
    card and the margin: the usual one, or less, so that MIN_MARK of the mark is printed."""
    return max(0.0, min(MARK_CLEARANCE, printable - MIN_MARK))


def _marks(
    placed: list[Placement], page_w: float, page_h: float, fold: bool
) -> Iterator[Mark]:
    """Marks along every cut line, in the spaces between cards and around them.

    A vertical cut at x gets a mark in each free run of the line x = const that touches a
    card's corner (above, below, and in the gutters between rows), never over a card.
    """
    boxes = [p.outer for p in placed]
    fold_x = page_w / 2
    edge = 1.0  # mm from the paper's edge
    cuts_x = sorted({round(v, 6) for p in placed for v in (p.x, p.x + p.w)})
    cuts_y = sorted({round(v, 6) for p in placed for v in (p.y, p.y + p.h)})
    for x in cuts_x:
        is_fold = fold and abs(x - fold_x) < EPS
        # The card corners on this line, and the free spans beyond them.
        ends = sorted({v for p, b in zip(placed, boxes, strict=True)
                       if abs(p.x - x) < EPS or abs(p.x + p.w - x) < EPS for v in (b[1], b[3])})
        yield from _runs(x, ends, boxes, page_h, edge, vertical=True, fold=is_fold)
    for y in cuts_y:
        ends = sorted({v for p, b in zip(placed, boxes, strict=True)
                       if abs(p.y - y) < EPS or abs(p.y + p.h - y) < EPS for v in (b[0], b[2])})
        yield from _runs(y, ends, boxes, page_w, edge, vertical=False, fold=False)


def _runs(
    at: float,
    ends: list[float],
    boxes: list[tuple[float, float, float, float]],
    length: float,
    edge: float,
    *,
    vertical: bool,
    fold: bool,
) -> Iterator[Mark]:
    def free(v: float) -> bool:
        return _free(at, v, boxes) if vertical else _free(v, at, boxes)

    def mark(a: float, b: float) -> Mark:
        lo, hi = sorted((a, b))
        return Mark(at, lo, at, hi, fold) if vertical else Mark(lo, at, hi, at, fold)

    first, last = ends[0], ends[-1]
    near = _clearance(first - MARGIN)
    before = _segment(edge, first - near)
    if before:
        yield mark(first - near, max(edge, first - near - MARK_LENGTH))
    after = _segment(last + _clearance(length - MARGIN - last), length - edge)
    if after:
        yield mark(after[0], after[1])
    # Gutters: between two card corners on this line with free paper between them.
    for lo, hi in itertools.pairwise(ends):
        mid = (lo + hi) / 2
        if hi - lo > 2 * MARK_CLEARANCE + MIN_MARK and free(mid):
            seg = (lo + MARK_CLEARANCE, hi - MARK_CLEARANCE)
            if seg[1] - seg[0] > 2 * MARK_LENGTH:
                yield mark(seg[0], seg[0] + MARK_LENGTH)
                yield mark(seg[1] - MARK_LENGTH, seg[1])
            else:
                yield mark(*seg)


def sheets(count: int, per_sheet: int) -> list[range]:
    """Card indexes on each sheet: full sheets, then a partial last one."""
    return [range(i, min(i + per_sheet, count)) for i in range(0, count, per_sheet)]


def parse_offset(text: str) -> tuple[float, float]:
    """``"0.5,-1"`` as millimetres.

    Raises:
        ImpositionError: not two numbers.
    """
    parts = text.split(",")
    try:
        if len(parts) != 2:
            raise ValueError
        x, y = (float(p) for p in parts)
    except ValueError:
        raise ImpositionError(
            f"--back-offset {text!r} is not two numbers in mm (expected X,Y such as 0.5,-1)"
        ) from None
    if not (math.isfinite(x) and math.isfinite(y)) or abs(x) > 20 or abs(y) > 20:
        raise ImpositionError(f"--back-offset {text!r}: each number must be within ±20 mm")
    return (x, y)
