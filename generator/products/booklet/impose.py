"""A booklet imposed for saddle stitching (design.md 7): its pages two a side of landscape
sheets, in folding order, so that printing duplex (flip on the short edge), folding the
stack in half and stapling it gives the booklet in order.

The pages are padded with blank ones to a multiple of four.  Sheet ``i`` (from 0) of a
booklet of ``4k`` pages holds, on its front, pages ``4k - 1 - 2i`` (left) and ``2i``
(right), and on its back ``2i + 1`` and ``4k - 2 - 2i`` (pages counted from 0): the outer
sheet holds the covers, the innermost the middle spread.  Each page is drawn as a Form
XObject by the card sheets' composer.
"""

from __future__ import annotations

from generator.products.booklet.pages import BookletPaper
from generator.products.cards.compose import Info, Placed, Sheet, compose
from generator.products.cards.fit import Piece
from generator.products.cards.imposition import Mark

FOLD_MARK = 4.0  # mm: the dashed fold line at the head and foot of each sheet


def saddle_order(pages: int) -> list[tuple[int, int]]:
    """The (left, right) pages (from 0) of each side of each sheet, in printing order, for
    a booklet of ``pages`` pages padded to a multiple of four; a page past the last is a
    blank one."""
    total = -(-pages // 4) * 4
    sides = []
    for i in range(total // 4):
        sides.append((total - 1 - 2 * i, 2 * i))
        sides.append((2 * i + 1, total - 2 - 2 * i))
    return sides


def impose_saddle(pdf: bytes, pages: int, spec: BookletPaper, info: Info) -> bytes:
    """The booklet ``pdf`` (of ``pages`` pages on ``spec``) on ``spec.sheet`` sheets."""
    assert spec.sheet is not None, "a paper that folds"
    width, height = spec.sheet
    sheets = [Sheet(width, height, tuple(_placed(index, slot, spec)
                                         for slot, index in enumerate(side) if index < pages),
                    _fold_marks(width, height),
                    label=f"Sheet {number // 2 + 1} {('front', 'back')[number % 2]}")
              for number, side in enumerate(saddle_order(pages))]
    return compose([pdf], sheets, info)


def _placed(index: int, slot: int, spec: BookletPaper) -> Placed:
    x = slot * spec.width_mm
    return Placed(Piece(0, index), x, 0.0, spec.width_mm, spec.height_mm,
                  (x, 0.0, x + spec.width_mm, spec.height_mm))


def _fold_marks(width: float, height: float) -> tuple[Mark, ...]:
    middle = width / 2
    return (Mark(middle, 0.0, middle, FOLD_MARK, fold=True),
            Mark(middle, height - FOLD_MARK, middle, height, fold=True))
