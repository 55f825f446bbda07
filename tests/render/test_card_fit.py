"""The fitter's arithmetic: sizes tried, the guess from an overflow, the shares."""

from __future__ import annotations

from dataclasses import replace

from generator.model.loader import load_content
from generator.render.card_fit import SHARES, base_size, guess, sizes_below, split, weight
from generator.render.imposition import SIZES


def test_base_sizes_and_the_sizes_below() -> None:
    assert base_size(SIZES["poker"][0]) == 10.0
    assert base_size(SIZES["mini"][0]) == 7.0
    assert sizes_below(10.0) == [9.5, 9.0, 8.5, 8.0, 7.5, 7.0, 6.5, 6.0]
    assert sizes_below(7.0) == [6.5, 6.0]


def test_guess_scales_with_the_square_root_of_the_overflow() -> None:
    assert guess(10.0, 1.0001) == 9.5  # always below the size that overflowed
    assert guess(10.0, 1.25) == 8.5  # 10 / sqrt(1.25) = 8.94
    assert guess(10.0, 2.0) == 7.0  # 7.07
    assert guess(10.0, 9.0) == 6.0  # never below the floor
    assert guess(10.0, float("inf")) == 6.0


def test_shares_keep_every_card_once_and_balance_the_work() -> None:
    content = load_content()
    cards = [c for r in content.rulesets.values() for d in r.decks.values()
             for c in dict.fromkeys(d.cards(r.data, r.profile()))]
    cards += [replace(c, key=f"{c.key}#2") for c in cards]
    shares = split(cards, SHARES)
    assert len(shares) == SHARES
    assert sorted(c.key for s in shares for c in s) == sorted(c.key for c in cards)
    loads = [sum(weight(c) for c in s) for s in shares]
    assert max(loads) - min(loads) <= max(weight(c) for c in cards)
    # Each share keeps the deck's order, and the split is the same every time.
    order = {c.key: i for i, c in enumerate(cards)}
    for share in shares:
        assert [order[c.key] for c in share] == sorted(order[c.key] for c in share)
    assert split(cards, SHARES) == shares
    assert split(cards[:1], SHARES) == [cards[:1]]
