"""The quick reference's columns and pages, split by us rather than balanced by WeasyPrint.

WeasyPrint balances CSS columns by laying them out again and again, growing their height
by the smallest gap it has seen so far, which can be a pixel: The Inverted Tower's page
took 60 such passes and three seconds, and a word changed in a table note could triple
that.  Instead the quick reference is laid out once in a single column of the final
column's width, on a page tall enough to hold it all (:func:`measuring_css`); the heights
of its blocks give the split that makes the fullest column least full, and the book puts
the blocks in two columns side by side, on as few pages as hold them (A5's takes two
facing pages: set to fit on one, it came to 5.8 pt).  A block (a run of paragraphs, or a
table with its lead-in) is never cut between the columns, and a block that ends in a
heading is never left at the foot of a column.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from itertools import pairwise

MARK = "quick-block-"  # the mark before block i is MARK + str(i); after the last, MARK + "end"
WIDE = "quick-wide-"  # the same marks, the blocks laid out across the whole page
# The measuring page's empty block as tall as the quick reference's page, and the mark at
# the top of its title: what a page holds, measured with the rest.
PAGE_MARK = f"{MARK}page"
TITLE_MARK = f"{MARK}title"
TALL_PAGE = "3000mm"  # taller than any quick reference, so that it is laid out in one piece
MAX_PAGES = 6  # a quick reference that needs more is cut at the foot of its last page

# The blocks of each column, as slices (None: to the end), page by page: a page holds two
# columns, or one across it for what a column is too narrow for (a wide table).
Column = tuple[int | None, int | None]
QuickLayout = tuple[tuple[Column, ...], ...]


def measuring_css(page_width: str) -> str:
    """The extra page rule for the measuring pass: the quick reference's page, as wide as
    the book's, but tall enough for everything in one column."""
    return f"@page quick {{ size: {page_width} {TALL_PAGE}; }}"


def best_split(anchors: Mapping[str, Sequence[float]]) -> QuickLayout | None:
    """The columns of the quick reference, page by page, from the measuring page's anchors
    (WeasyPrint's ``Page.anchors``: a box's x1, y1, x2 and y2, in CSS pixels): the fewest
    pages that hold it, each in two columns or (where a block is too tall for a column)
    one across the page, split so that the fullest column is least full.

    The template marks the top of block 0, the bottom of the last block, and the top of
    every block a column may start with (not one after a heading), laid out a column
    wide (:data:`MARK`) and, if it can, a page wide (:data:`WIDE`); :data:`PAGE_MARK`'s
    height is a page's (one page holds everything when it is missing), and the first
    page gives the title its room.  None when no block but the first may start a column
    (or there is no block at all): the columns are then left to CSS.
    """
    narrow, wide = _marks(anchors, MARK), _marks(anchors, WIDE)
    if narrow is None:
        raise ValueError("the measuring pass lost its last mark")
    blocks = [index for index, _ in narrow]
    if len(blocks) < 3:  # a title and nothing else, or one block that no split may cut
        return None
    column = [top for _, top in narrow]
    across = [top for _, top in wide] if wide and len(wide) == len(narrow) else None
    page = _page_height(anchors) or column[-1] - column[0]
    title = column[0] - anchors.get(TITLE_MARK, (0.0, column[0]))[1]
    for pages in range(1, MAX_PAGES + 1):
        fullest, cuts = _layout(column, across, page, title, pages)
        if fullest <= 1:
            break

    def block(cut: int) -> int | None:
        return blocks[cut] if cut < len(blocks) - 1 else None

    return tuple(tuple((block(a), block(b)) for a, b in pairwise(page_cuts))
                 for page_cuts in cuts)


def _marks(anchors: Mapping[str, Sequence[float]], prefix: str
           ) -> list[tuple[int, float]] | None:
    """The marked blocks (index, top) in order, then (-1, the bottom of the last); None
    without the last mark."""
    if f"{prefix}end" not in anchors:
        return None
    found = sorted((int(name[len(prefix):]), box[1]) for name, box in anchors.items()
                   if name.startswith(prefix) and name[len(prefix):].isdigit())
    return [*found, (-1, anchors[f"{prefix}end"][1])]


def _page_height(anchors: Mapping[str, Sequence[float]]) -> float:
    """The height of the quick reference's page; 0 when it is not given."""
    box = anchors.get(PAGE_MARK)
    return box[3] - box[1] if box is not None else 0.0


Cuts = tuple[tuple[int, ...], ...]  # page by page, the marks its columns run between


def _layout(narrow: Sequence[float], wide: Sequence[float] | None, page: float,
            title: float, pages: int) -> tuple[float, Cuts]:
    """The marks (indexes into ``narrow``, the tops of the blocks a column may start with
    and then the bottom of the last) cut into ``pages`` pages of two columns, or of one
    (measured in ``wide``) where that is better: the cuts that make the fullest column,
    as a share of its room, least full; then the most even (the least sum of squared
    fills, so that no column is left empty while another is full)."""
    last = len(narrow) - 1

    @cache
    def fill(start: int, page_number: int) -> tuple[float, float, Cuts]:
        room = max(page - title if page_number == 0 else page, 1.0)
        if page_number == pages - 1:
            options = [_two(narrow, start, cut, last, room) for cut in range(start, last + 1)]
            if wide is not None:
                options.append(_one(wide, start, last, room))
            return min(options)
        options = []
        for end in range(start, last + 1):
            here = [_two(narrow, start, cut, end, room) for cut in range(start, end + 1)]
            if wide is not None:
                here.append(_one(wide, start, end, room))
            fullest, even, cuts = min(here)
            rest = fill(end, page_number + 1)
            options.append((max(fullest, rest[0]), even + rest[1], cuts + rest[2]))
        return min(options)

    fullest, _, cuts = fill(0, 0)
    return fullest, cuts


def _two(tops: Sequence[float], start: int, cut: int, end: int, room: float
         ) -> tuple[float, float, Cuts]:
    first, second = (tops[cut] - tops[start]) / room, (tops[end] - tops[cut]) / room
    return max(first, second), first * first + second * second, ((start, cut, end),)


def _one(tops: Sequence[float], start: int, end: int, room: float
         ) -> tuple[float, float, Cuts]:
    # Across the page a column is twice as wide: as even as two columns at half its fill.
    share = (tops[end] - tops[start]) / room
    return share, share * share / 2, ((start, end),)
