"""The page model and the order of sections that meets the spread rule (spreads.py), on
sections of made-up heights: no layout is needed to hold them."""

from __future__ import annotations

from generator.engine.rng import SplitMix64
from generator.products.booklet.spreads import (
    Measure,
    Pages,
    arrange,
    clashes,
    place,
    spread,
)

PAGE = 600.0


def test_page_one_is_alone_then_pages_face_in_pairs() -> None:
    assert [spread(p) for p in range(1, 8)] == [0, 1, 1, 2, 2, 3, 3]


def test_sections_stack_and_move_whole_to_the_next_page() -> None:
    measures = {1: Measure(250), 2: Measure(250), 3: Measure(250), 4: Measure(100)}
    pages = place([1, 2, 3, 4], measures, 5, PAGE)
    assert pages == {1: Pages(5, 5), 2: Pages(5, 5), 3: Pages(6, 6), 4: Pages(6, 6)}


def test_a_section_that_fills_the_page_exactly_stays_on_it() -> None:
    pages = place([1, 2, 3], {1: Measure(400), 2: Measure(200), 3: Measure(1)}, 2, PAGE)
    assert pages[2] == Pages(2, 2) and pages[3] == Pages(3, 3)


def test_a_section_taller_than_a_page_starts_a_page_and_spans_its_pages() -> None:
    measures = {1: Measure(100), 2: Measure(300, pages=3), 3: Measure(200), 4: Measure(100)}
    pages = place([1, 2, 3, 4], measures, 1, PAGE)
    assert pages[2] == Pages(2, 4) and pages[3] == Pages(4, 4) and pages[4] == Pages(4, 4)
    assert list(pages[2].spreads()) == [1, 2]


def test_clashes_are_ways_on_within_a_spread() -> None:
    pages = {1: Pages(1, 1), 2: Pages(2, 2), 3: Pages(3, 3), 4: Pages(4, 5)}
    assert clashes(pages, [(1, 2), (2, 3), (3, 4), (4, 4)]) == [(2, 3)]


def _chain_book(count: int, seed: int) -> tuple[list[int], dict[int, Measure],
                                                 list[tuple[int, int]]]:
    """A gamebook of ``count`` sections like a tower: each leads to the next, to a hub every
    ten, and back to the start; heights from a quarter to three quarters of a page."""
    rng = SplitMix64(seed)
    measures = {n: Measure(PAGE * (0.25 + rng.below(50) / 100)) for n in range(1, count + 1)}
    edges = [(n, n + 1) for n in range(1, count)]
    edges += [(n, 10 * (n // 10) + 1) for n in range(2, count + 1) if n % 10]
    return list(range(1, count + 1)), measures, edges


def test_arrange_meets_the_rule_keeping_the_start_first() -> None:
    for seed in range(20):
        sections, measures, edges = _chain_book(120, seed)
        order = arrange(sections, measures, edges, 4, PAGE, seed)
        assert sorted(order) == sections and order[0] == 1
        assert clashes(place(order, measures, 4, PAGE), edges) == [], seed


def test_arrange_is_deterministic() -> None:
    sections, measures, edges = _chain_book(80, 3)
    assert arrange(sections, measures, edges, 4, PAGE, 9) == \
        arrange(sections, measures, edges, 4, PAGE, 9)


def test_arrange_leaves_no_page_emptier_than_it_must() -> None:
    """With sections of a third of a page and no ways on, three stand on every page."""
    measures = {n: Measure(PAGE / 3 - 1) for n in range(1, 31)}
    order = arrange(list(measures), measures, [], 1, PAGE, 0)
    pages = place(order, measures, 1, PAGE)
    assert max(p.last for p in pages.values()) == 10
