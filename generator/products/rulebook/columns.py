"""The quick reference's two columns, split by us rather than balanced by WeasyPrint.

WeasyPrint balances CSS columns by laying them out again and again, growing their height
by the smallest gap it has seen so far, which can be a pixel: The Inverted Tower's page
took 60 such passes and three seconds, and a word changed in a table note could triple
that.  Instead the quick reference is laid out once in a single column of the final
column's width, on a page tall enough to hold it all (:func:`measuring_css`); the heights
of its blocks give the split that makes the taller column shortest, and the book puts the
blocks before and after it in two columns side by side.  A block (a run of paragraphs, or
a table with its lead-in) is never cut between the columns, and a block that ends in a
heading is never left at the foot of the first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

MARK = "quick-block-"  # the mark before block i is MARK + str(i); after the last, MARK + "end"
TALL_PAGE = "3000mm"  # taller than any quick reference, so that it is laid out in one piece


def measuring_css(page_width: str) -> str:
    """The extra page rule for the measuring pass: the quick reference's page, as wide as
    the book's, but tall enough for everything in one column."""
    return f"@page quick {{ size: {page_width} {TALL_PAGE}; }}"


def best_split(anchors: Mapping[str, Sequence[float]]) -> int | None:
    """The index of the first block of the second column, from the measuring page's
    anchors (WeasyPrint's ``Page.anchors``: a box's x1, y1 and more, in CSS pixels): the
    split whose taller column is shortest, the earlier one on a tie.

    The template marks the top of block 0, the bottom of the last block, and the top of
    every block a column may start with (not one after a heading).  None when there is
    no such block (or no block at all): the columns are then left to CSS.
    """
    if f"{MARK}end" not in anchors:
        raise ValueError("the measuring pass lost its last mark")
    if f"{MARK}0" not in anchors:  # a quick reference with a title and nothing else
        return None
    top, bottom = anchors[f"{MARK}0"][1], anchors[f"{MARK}end"][1]
    starts = {
        int(name[len(MARK):]): box[1]
        for name, box in anchors.items()
        if name.startswith(MARK) and name[len(MARK):].isdigit()
    }
    candidates = [index for index in starts if index > 0]
    if not candidates:
        return None
    return min(candidates, key=lambda i: (max(starts[i] - top, bottom - starts[i]), i))
