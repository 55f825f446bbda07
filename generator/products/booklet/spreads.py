"""The spread rule, and the order of sections that meets it (design.md 6, issue 26).

A reader sees two facing pages at once: page 1 alone, then 2-3, 4-5...  No section may
share a spread with a section one of its ways on leads to, nor with one that leads to it.
A gamebook prints its sections in number order, so the rule is met by choosing which
section gets which number.  This module does so without laying out pages: each section's
height was measured once (:mod:`generator.products.booklet.layout`), and a model of the
page stacks them as the stylesheet does (no margins between sections; a section moves to
the next page whole unless it is taller than a page).  The final layout confirms it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from generator.engine.rng import SplitMix64

Edge = tuple[int, int]
#: Rounding: a section that ends within this of the foot of the page (CSS pixels) fits.
SLACK_PX = 0.01
MAX_SWAPS = 4000  # repairs tried after the greedy order, before giving up
WINDOW = 64  # sections looked at for each place: the next ones in the seed's order


@dataclass(frozen=True)
class Measure:
    """A section as laid out: its ``height`` in CSS pixels, or, for one taller than a page,
    the ``pages`` it spans and the height of its last part."""

    height: float
    pages: int = 1


@dataclass(frozen=True)
class Pages:
    """Where the model (or a layout) puts a section: its first and last page, 1-based."""

    first: int
    last: int

    def spreads(self) -> range:
        return range(spread(self.first), spread(self.last) + 1)


def spread(page: int) -> int:
    """The spread that page ``page`` (1-based) is on: page 1 alone, then 2-3, 4-5..."""
    return page // 2


def place(order: Sequence[int], measures: Mapping[int, Measure], first_page: int,
          page_height: float) -> dict[int, Pages]:
    """Where the page model puts each section of ``order`` (numbers, in printed order),
    stacked from the top of page ``first_page``."""
    state = _State(first_page, 0.0)
    return {number: state.add(measures[number], page_height) for number in order}


def neighbours(edges: Iterable[Edge]) -> dict[int, set[int]]:
    """Each section's neighbours under the rule: those it leads to and those leading to it."""
    out: dict[int, set[int]] = {}
    for a, b in edges:
        if a != b:
            out.setdefault(a, set()).add(b)
            out.setdefault(b, set()).add(a)
    return out


def clashes(pages: Mapping[int, Pages], edges: Iterable[Edge]) -> list[Edge]:
    """Every way on (a, b) whose two sections share a spread, in order."""
    return sorted({(a, b) for a, b in edges if a != b and a in pages and b in pages
                   and set(pages[a].spreads()) & set(pages[b].spreads())})


def arrange(sections: Sequence[int], measures: Mapping[int, Measure], edges: Sequence[Edge],
            first_page: int, page_height: float, seed: int) -> list[int]:
    """An order of ``sections`` (the seed's numbers, in its order, section 1 first) whose
    model meets the spread rule, as near the seed's own as it can be: each place takes the
    first section in the seed's order that clashes with nothing on its spread, one that
    still fits on the page first (no page is left emptier than it must be).  Where none
    clashes with nothing, swaps (chosen from ``seed``) repair what is left.  Returns the
    best order found; the caller confirms it on the laid-out pages."""
    near = neighbours(edges)
    order = _greedy(sections, measures, near, first_page, page_height)
    return _repair(order, measures, edges, first_page, page_height, SplitMix64(seed))


def _greedy(sections: Sequence[int], measures: Mapping[int, Measure],
            near: Mapping[int, set[int]], first_page: int, page_height: float) -> list[int]:
    order: list[int] = []
    left = list(sections)
    on_spread: dict[int, set[int]] = {}
    state = _State(first_page, 0.0)
    while left:
        pick = _pick(left, order, state, measures, near, on_spread, page_height)
        left.remove(pick)
        order.append(pick)
        for s in state.add(measures[pick], page_height).spreads():
            on_spread.setdefault(s, set()).add(pick)
    return order


def _pick(left: Sequence[int], order: Sequence[int], state: _State,
          measures: Mapping[int, Measure], near: Mapping[int, set[int]],
          on_spread: Mapping[int, set[int]], page_height: float) -> int:
    """Section 1 opens the sections; then, of the next :data:`WINDOW` in the seed's order,
    the first that clashes with nothing where it would go and fits on this page, or, if
    none fits, the first that clashes with nothing (or, if all clash, the first)."""
    if not order:
        return left[0]
    free = None
    for number in left[:WINDOW]:
        pages = state.pages_of(measures[number], page_height)
        if any(near.get(number, set()) & on_spread.get(s, set()) for s in pages.spreads()):
            continue
        if pages.first == state.page:
            return number
        free = free or number
    return free or left[0]


@dataclass
class _State:
    """The page model's pen: the page it is on and how far down (CSS pixels)."""

    page: int
    y: float

    def pages_of(self, m: Measure, page_height: float) -> Pages:
        """Where a section measured ``m`` goes next: on this page if it fits whole (and
        is not taller than a page), else from the top of the next."""
        page = self.page
        if self.y > 0 and (m.pages > 1 or self.y + m.height > page_height + SLACK_PX):
            page += 1
        return Pages(page, page + m.pages - 1)

    def add(self, m: Measure, page_height: float) -> Pages:
        pages = self.pages_of(m, page_height)
        self.y = m.height + (self.y if pages.first == self.page and m.pages == 1 else 0.0)
        self.page = pages.last
        return pages


def _repair(order: list[int], measures: Mapping[int, Measure], edges: Sequence[Edge],
            first_page: int, page_height: float, rng: SplitMix64) -> list[int]:
    """Swap a section of a clash with another (never section 1) while that lowers the
    count of clashes; stops when none is left or after :data:`MAX_SWAPS` tries."""
    def count(candidate: Sequence[int]) -> list[Edge]:
        return clashes(place(candidate, measures, first_page, page_height), edges)

    found = count(order)
    for _ in range(MAX_SWAPS):
        if not found:
            break
        a, b = found[rng.below(len(found))]
        i = order.index(a if a != order[0] and rng.below(2) else b)
        j = 1 + rng.below(len(order) - 1)
        if i == 0 or i == j:
            continue
        trial = list(order)
        trial[i], trial[j] = trial[j], trial[i]
        again = count(trial)
        if len(again) < len(found):
            order, found = trial, again
    return order
