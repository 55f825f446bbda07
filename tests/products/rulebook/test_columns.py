"""The quick reference's column split: chosen from measured block positions."""

from __future__ import annotations

import pytest
from markupsafe import Markup

from generator.products.rulebook.columns import MARK, PAGE_MARK, TITLE_MARK, WIDE, best_split
from generator.render.markdown import ProseBlock


def anchors(**tops: float) -> dict[str, tuple[float, float, float, float]]:
    """Anchors as WeasyPrint gives them (x1, y1, x2, y2), from mark suffixes to tops."""
    return {f"{MARK}{name.lstrip('_')}": (0.0, y, 100.0, y) for name, y in tops.items()}


def test_the_split_makes_the_taller_column_shortest() -> None:
    # Blocks 10, 40, 10 and 40 high: after the second block, both columns are 50.
    assert best_split(anchors(_0=0, _1=10, _2=50, _3=60, end=100)) == (((0, 2), (2, None)),)
    # One tall block first: it stands alone in the first column.
    assert best_split(anchors(_0=0, _1=70, _2=80, _3=90, end=100)) == (((0, 1), (1, None)),)


def test_a_column_never_starts_after_a_heading() -> None:
    # Block 1 ends in a heading, so the template leaves out the mark of block 2.
    assert best_split(anchors(_0=0, _1=10, _3=60, end=100)) == (((0, 3), (3, None)),)


def test_ties_take_the_earlier_split() -> None:
    assert best_split(anchors(_0=0, _1=40, _2=60, end=100)) == (((0, 1), (1, None)),)


def test_no_place_to_split_leaves_the_columns_to_css() -> None:
    assert best_split(anchors(_0=0, end=100)) is None


def test_an_empty_quick_reference_has_nothing_to_split() -> None:
    assert best_split(anchors(end=100)) is None


def test_a_lost_mark_is_an_error() -> None:
    with pytest.raises(ValueError, match="lost"):
        best_split(anchors(_0=0, _1=10))


def test_what_one_page_cannot_hold_takes_facing_pages_shared_evenly() -> None:
    # Five blocks of 30 on pages of 60 (A5's quick reference at 7 pt and more): two pages,
    # no column fuller than its page, none left empty.
    found = anchors(_0=0, _1=30, _2=60, _3=90, _4=120, end=150)
    found[PAGE_MARK] = (0.0, 0.0, 100.0, 60.0)
    layout = best_split(found)
    assert layout == (((0, 1), (1, 2)), ((2, 3), (3, None)))


def test_the_title_takes_its_room_from_the_first_page() -> None:
    found = anchors(_0=20, _1=50, _2=80, end=110)
    found[PAGE_MARK] = (0.0, 0.0, 100.0, 70.0)
    found[TITLE_MARK] = (0.0, 0.0, 100.0, 0.0)
    # 90 of blocks beside a title of 20 on pages of 70: two columns of 50 room each do
    # not hold three blocks of 30, so a second page takes one.
    layout = best_split(found)
    assert layout is not None and len(layout) == 2


def test_a_block_too_tall_for_a_column_takes_the_page_across() -> None:
    # Block 1 is taller than a column (100 of 60) but not than the page across (50).
    found = anchors(_0=0, _1=20, _2=120, end=140)
    found[PAGE_MARK] = (0.0, 0.0, 100.0, 60.0)
    found.update({f"{WIDE}{name}": (0.0, top, 100.0, top)
                  for name, top in (("0", 0), ("1", 10), ("2", 60), ("end", 70))})
    layout = best_split(found)
    assert layout is not None and len(layout) == 2
    assert any(len(page) == 1 for page in layout)


def test_prose_that_ends_in_a_heading_is_known() -> None:
    assert ProseBlock(html=Markup("<p>Hit.</p>\n<h2 id='x'>Levels</h2>\n")).ends_in_heading
    assert not ProseBlock(html=Markup("<h2>Levels</h2>\n<p>Costs 10.</p>\n")).ends_in_heading
    assert not ProseBlock(html=Markup("<h2>Levels</h2>\n"), table="levels").ends_in_heading
