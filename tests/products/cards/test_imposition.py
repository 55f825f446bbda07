"""Card imposition as numbers: counts, margins, mirrored backs, marks (no rendering)."""

from __future__ import annotations

import itertools

import pytest

from generator.model.paper import CARD_PAPERS, PAPERS
from generator.products.cards.imposition import (
    MARGIN,
    MIN_MARK,
    SIZES,
    ImpositionError,
    card_size,
    layout,
    parse_offset,
    sheet_marks,
    sheets,
)


@pytest.mark.parametrize("paper", list(CARD_PAPERS))
@pytest.mark.parametrize("size", list(SIZES))
def test_cards_inside_the_margin(paper: str, size: str) -> None:
    lay = layout(paper, card_size(size))
    w, h = lay.page_w, lay.page_h  # the paper, turned the way that holds more
    assert sorted((w, h)) == sorted((PAPERS[paper].width_mm, PAPERS[paper].height_mm))
    for p in lay.fronts + lay.backs:
        x0, y0, x1, y1 = p.outer
        assert x0 >= MARGIN - 1e-9 and y0 >= MARGIN - 1e-9
        assert x1 <= w - MARGIN + 1e-9 and y1 <= h - MARGIN + 1e-9
    for m in lay.marks:
        assert 0 < m.x1 <= m.x2 < w and 0 < m.y1 <= m.y2 < h


@pytest.mark.parametrize("paper", list(CARD_PAPERS))
@pytest.mark.parametrize("size", [*SIZES, "100x143.5mm", "90x60mm"])
@pytest.mark.parametrize("bleed", [0.0, 3.0])
@pytest.mark.parametrize("fold", [False, True])
def test_outer_marks_reach_into_the_printed_area(
    paper: str, size: str, bleed: float, fold: bool
) -> None:
    """A printer may leave the 5 mm margin blank: at least MIN_MARK of every outer mark lies
    inside it wherever the paper beyond the cards has that much room (poker on Letter had
    0.6 mm, A4 with bleed 0.9 mm), and all that room where it has less; no mark touches the
    paper's edge."""
    try:
        lay = layout(paper, card_size(size), bleed=bleed, fold=fold)
    except ImpositionError:
        return  # a fold pair too wide for the paper
    w, h = lay.page_w, lay.page_h
    boxes = [p.outer for p in lay.fronts + (lay.backs if fold else ())]
    left, top = min(b[0] for b in boxes), min(b[1] for b in boxes)
    right, bottom = max(b[2] for b in boxes), max(b[3] for b in boxes)
    spans = []  # (an outer mark's span inside the margin, the room there beyond the cards)
    for m in lay.marks:
        assert m.x1 >= 1.0 - 1e-9 and m.y1 >= 1.0 - 1e-9
        assert m.x2 <= w - 1.0 + 1e-9 and m.y2 <= h - 1.0 + 1e-9
        if m.x1 == m.x2 and m.y2 <= top + 1e-9:
            spans.append((m.y2 - max(m.y1, MARGIN), top - MARGIN))
        elif m.x1 == m.x2 and m.y1 >= bottom - 1e-9:
            spans.append((min(m.y2, h - MARGIN) - m.y1, h - MARGIN - bottom))
        elif m.y1 == m.y2 and m.x2 <= left + 1e-9:
            spans.append((m.x2 - max(m.x1, MARGIN), left - MARGIN))
        elif m.y1 == m.y2 and m.x1 >= right - 1e-9:
            spans.append((min(m.x2, w - MARGIN) - m.x1, w - MARGIN - right))
    assert spans
    for printed, room in spans:
        assert printed >= min(MIN_MARK, max(0.0, room)) - 1e-9, (printed, room)


def test_cards_that_fill_the_printable_area_keep_their_count() -> None:
    """How many cards fit is counted inside the 5 mm margin (design.md section 7): cards
    that fill it leave their outer marks in the margin, touching the cards."""
    lay = layout("a4", card_size("100x143.5mm"))
    assert (lay.cols, lay.rows) == (2, 2)
    top = min(m.y2 for m in lay.marks if m.x1 == m.x2)
    assert top == pytest.approx(min(p.y for p in lay.fronts))


@pytest.mark.parametrize("paper", list(CARD_PAPERS))
def test_three_by_three_poker_and_fewer_with_bleed(paper: str) -> None:
    poker = layout(paper, card_size("poker"))
    assert (poker.cols, poker.rows) == (3, 3)
    bled = layout(paper, card_size("poker"), bleed=3)
    assert bled.per_sheet < 9
    xs = sorted({p.x for p in bled.fronts})
    assert all(b - a >= 63.5 + 6 - 1e-9 for a, b in itertools.pairwise(xs))


def test_custom_sizes_and_bad_ones() -> None:
    assert card_size("70x120mm").width == 70
    # A side over 300 mm (or infinite) ran --png, which has no paper, out of memory.
    for bad in ("huge", "10x10mm", "63x88", "x88mm", "20x10000000mm", "20x" + "9" * 400 + "mm"):
        with pytest.raises(ImpositionError, match=r"expected one of: poker.* 20 to 300 mm a side"):
            card_size(bad)
    assert card_size("300x20mm").height == 20
    with pytest.raises(ImpositionError, match="does not fit inside the 5 mm margin"):
        layout("a4", card_size("300x100mm"))


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_backs_are_mirrored_and_offset(duplex: str) -> None:
    lay = layout("a4", card_size("bridge"), duplex=duplex, back_offset=(0.5, -1.0))  # type: ignore[arg-type]
    w, h = PAPERS["a4"].width_mm, PAPERS["a4"].height_mm
    for front, back in zip(lay.fronts, lay.backs, strict=True):
        if duplex == "long":
            assert back.x == pytest.approx(w - front.x - front.w + 0.5)
            assert back.y == pytest.approx(front.y - 1.0)
        else:
            assert back.x == pytest.approx(front.x + 0.5)
            assert back.y == pytest.approx(h - front.y - front.h - 1.0)


def test_fold_pairs_meet_at_the_fold() -> None:
    with pytest.raises(ImpositionError, match="with --fold there are none"):
        layout("a4", card_size("poker"), fold=True, back_offset=(1.0, 0.0))
    lay = layout("a4", card_size("poker"), fold=True)
    # Portrait holds three pairs, landscape four.
    assert (lay.orientation, lay.per_sheet) == ("landscape", 4)
    fold = 297 / 2
    for front, back in zip(lay.fronts, lay.backs, strict=True):
        # Folded down the middle, each front lands on its back; the inner pairs meet there.
        assert back.x == pytest.approx(2 * fold - front.x - front.w)
    assert {round(p.x + p.w, 6) for p in lay.fronts} >= {fold}
    assert any(m.fold for m in lay.marks)


def test_marks_at_every_cut_and_never_over_a_card() -> None:
    lay = layout("letter", card_size("mini"), gutter=4)
    cuts = sorted({round(v, 6) for p in lay.fronts for v in (p.x, p.x + p.w)})
    assert cuts == sorted({round(m.x1, 6) for m in lay.marks if m.x1 == m.x2})
    for m in lay.marks:
        for p in lay.fronts:
            x0, y0, x1, y1 = p.outer
            inside_x = x0 < (m.x1 + m.x2) / 2 < x1
            inside_y = max(m.y1, y0) < min(m.y2, y1)
            assert not (inside_x and inside_y and m.x1 == m.x2 and x0 < m.x1 < x1)
            assert not (max(m.x1, x0) < min(m.x2, x1) and max(m.y1, y0) < min(m.y2, y1))


@pytest.mark.parametrize("fold", [False, True])
def test_a_partial_sheet_has_marks_only_around_its_cards(fold: bool) -> None:
    lay = layout("a4", card_size("poker"), fold=fold)
    assert sheet_marks(lay, lay.per_sheet) == lay.marks
    used = lay.fronts[:lay.cols]  # the first row only
    marks = sheet_marks(lay, lay.cols)
    assert marks and len(marks) < len(lay.marks)
    bottom = max(p.outer[3] for p in used)
    row_cuts = {round(p.y, 6) for p in used} | {round(p.y + p.h, 6) for p in used}
    # Marks along the vertical cuts end below the row; the horizontal ones are its two cuts.
    assert max(max(m.y1, m.y2) for m in marks) <= bottom + 0.75 + 4.0 + 1e-6
    assert {round(m.y1, 6) for m in marks if m.y1 == m.y2} == row_cuts


def test_a_back_offset_that_moves_backs_off_the_paper_is_refused() -> None:
    # Letter poker leaves 6.35 mm above and below the cards.
    assert layout("letter", card_size("poker"), back_offset=(0, -6.3)).backs
    with pytest.raises(ImpositionError, match=r"^--back-offset 0,-7 moves backs off the paper: "
                       r"on letter, these cards allow -12\.7 to 12\.7 mm across and -6\.3 to "
                       r"6\.3 mm down"):
        layout("letter", card_size("poker"), back_offset=(0, -7))
    with pytest.raises(ImpositionError, match="moves backs off the paper"):
        layout("a4", card_size("poker"), bleed=3, back_offset=(40, 0))


def test_sheets_and_offsets() -> None:
    assert [len(r) for r in sheets(20, 9)] == [9, 9, 2]
    assert parse_offset("0.5,-1") == (0.5, -1.0)
    for bad in ("1", "a,b", "1,2,3", "100,0"):
        with pytest.raises(ImpositionError):
            parse_offset(bad)
