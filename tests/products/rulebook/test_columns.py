"""The quick reference's column split: chosen from measured block positions."""

from __future__ import annotations

import pytest
from markupsafe import Markup

from generator.products.rulebook.columns import MARK, best_split
from generator.render.markdown import ProseBlock


def anchors(**tops: float) -> dict[str, tuple[float, float, float, float]]:
    """Anchors as WeasyPrint gives them (x1, y1, x2, y2), from mark suffixes to tops."""
    return {f"{MARK}{name.lstrip('_')}": (0.0, y, 100.0, y) for name, y in tops.items()}


def test_the_split_makes_the_taller_column_shortest() -> None:
    # Blocks 10, 40, 10 and 40 high: after the second block, both columns are 50.
    assert best_split(anchors(_0=0, _1=10, _2=50, _3=60, end=100)) == 2
    # One tall block first: it stands alone in the first column.
    assert best_split(anchors(_0=0, _1=70, _2=80, _3=90, end=100)) == 1


def test_a_column_never_starts_after_a_heading() -> None:
    # Block 1 ends in a heading, so the template leaves out the mark of block 2.
    assert best_split(anchors(_0=0, _1=10, _3=60, end=100)) == 3


def test_ties_take_the_earlier_split() -> None:
    assert best_split(anchors(_0=0, _1=40, _2=60, end=100)) == 1


def test_no_place_to_split_leaves_the_columns_to_css() -> None:
    assert best_split(anchors(_0=0, end=100)) is None


def test_an_empty_quick_reference_has_nothing_to_split() -> None:
    assert best_split(anchors(end=100)) is None


def test_a_lost_mark_is_an_error() -> None:
    with pytest.raises(ValueError, match="lost"):
        best_split(anchors(_0=0, _1=10))


def test_prose_that_ends_in_a_heading_is_known() -> None:
    assert ProseBlock(html=Markup("<p>Hit.</p>\n<h2 id='x'>Levels</h2>\n")).ends_in_heading
    assert not ProseBlock(html=Markup("<h2>Levels</h2>\n<p>Costs 10.</p>\n")).ends_in_heading
    assert not ProseBlock(html=Markup("<h2>Levels</h2>\n"), table="levels").ends_in_heading
