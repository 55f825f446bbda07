"""The fitter's arithmetic: sizes tried, the guess from an overflow, the shares, and the
line that names the cards that do not fit."""

from __future__ import annotations

from dataclasses import replace

from generator.model.decks import Card
from generator.products.cards.fit import (
    SHARES,
    guess,
    may_fit,
    sizes_below,
    split,
    too_long,
    weight,
)
from generator.products.cards.imposition import SIZES
from generator.products.cards.pieces import FaceBox, Overflow, base_size
from generator.rulesets import load_content


def test_base_sizes_and_the_sizes_below() -> None:
    assert base_size(SIZES["poker"][0]) == 10.0
    assert base_size(SIZES["mini"][0]) == 7.0
    assert sizes_below(10.0) == [9.5, 9.0, 8.5, 8.0, 7.5, 7.0, 6.5, 6.0]
    assert sizes_below(7.0) == [6.5, 6.0]
    # A back's name on mini cards starts at 7.7 pt: the last try is 6 pt, not 6.2.
    assert sizes_below(7.7) == [7.2, 6.7, 6.2, 6.0]


def tall(height: float) -> Overflow:
    return Overflow(height=height, width=0.998)


def test_guess_scales_with_the_square_root_of_a_tall_overflow() -> None:
    assert guess(10.0, tall(1.0001)) == 9.5  # always below the size that overflowed
    assert guess(10.0, tall(1.25)) == 8.5  # 10 / sqrt(1.25) = 8.94
    assert guess(10.0, tall(2.0)) == 7.0  # 7.07
    assert guess(10.0, tall(9.0)) == 6.0  # never below the floor
    assert guess(10.0, tall(float("inf"))) == 6.0


def test_guess_scales_with_a_wide_overflow_itself() -> None:
    assert guess(10.0, Overflow(height=0.5, width=1.25)) == 8.0  # 10 / 1.25
    assert guess(10.0, Overflow(height=1.25, width=1.1)) == 8.5  # the height asks for less


def test_one_step_larger_is_tried_only_when_it_may_fit() -> None:
    assert may_fit(tall(0.9), 8.0, 8.5)  # 0.956 if it grew only in step with the size
    assert not may_fit(tall(0.95), 8.0, 8.5)  # 1.009: it would overflow even so
    assert may_fit(tall(0.5), 6.0, 6.5)


def test_shares_keep_every_card_once_and_balance_the_work() -> None:
    content = load_content()
    cards = [c for r in content.rulesets.values() for d in r.decks.values()
             for c in dict.fromkeys(r.cards(d, r.profile()))]
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


def test_the_error_names_the_cards_that_do_not_fit_and_what_to_do() -> None:
    box = FaceBox(37.25, 56.3)
    cards = [Card(key=f"monsters/{n}", deck="monsters", deck_title="Monsters", title=n)
             for n in ["Orc", "Troll", "Lich", "Elf", "Ogre", "Imp", "Hag", "Wolf", "Bat",
                       "Rat", "Asp", "Eel"]]
    one = too_long(cards[:1], box, ["items", "classes"])
    assert one == ("card 'Orc' of deck 'monsters' overflows its 37.2 x 56.3 mm text box even at "
                   "6 pt; shorten the text, use a larger card size or print a deck that fits "
                   "(--deck items or --deck classes)")
    assert too_long(cards[:1], box, ["items"]).endswith("(--deck items)")
    many = too_long(cards, box, [])
    assert many.startswith("12 cards overflow their 37.2 x 56.3 mm text box even at 6 pt: "
                           "'Orc' of deck 'monsters', 'Troll' of deck 'monsters', ")
    # Ten are named (a mini card printed the six of a reference deck, and four were named).
    assert "'Rat' of deck 'monsters' and 2 more; " in many and "Asp" not in many
    assert many.endswith("; shorten the text or use a larger card size")
