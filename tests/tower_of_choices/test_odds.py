"""Exact odds of Tower of Choices against brute force, rulings.md 3.2 and Monte Carlo."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.engine.rng import stream
from generator.rulesets.tower_of_choices.family import FAMILY
from generator.rulesets.tower_of_choices.odds import (
    NO_WILD,
    commit_odds,
    hand_succeeds,
    stop_early_odds,
)
from generator.rulesets.tower_of_choices.policy import options
from generator.rulesets.tower_of_choices.procedures import Attempt, resolve_check
from generator.rulesets.tower_of_choices.state import shuffle
from tests.tower_of_choices.support import (
    data,
    profile,
    rules,
    standard,
    state,
)

M, W, C, OTHER = "M", "W", "C", "O"  # match, wild, challenge, other


def orderings(m: int, w: int, c: int, o: int) -> list[tuple[str, ...]]:
    """Every distinct order of a pile, each equally likely after a fair shuffle (as a
    multiset, so weight each by its multiplicity: we enumerate index permutations)."""
    cards = [M] * m + [W] * w + [C] * c + [OTHER] * o
    return [tuple(cards[i] for i in p) for p in itertools.permutations(range(len(cards)))]


def brute(
    m: int, w: int, c: int, o: int, cards: int, target: int, inc: int, early: bool
) -> Fraction:
    orders = orderings(m, w, c, o)
    wins = 0
    for order in orders:
        drawn = order[:cards]
        if early:
            ok = any(
                hand_succeeds(h.count(M), h.count(W), h.count(C), target, 1, inc)
                for h in (drawn[:j] for j in range(len(drawn) + 1))
            )
        else:
            ok = hand_succeeds(drawn.count(M), drawn.count(W), drawn.count(C), target, 1, inc)
        wins += ok
    return Fraction(wins, len(orders))


def test_rulings_3_2_key_numbers() -> None:
    # rulings.md 3.2: a 6-card deck, 2 copies of the approach skill.
    d = data()
    deck, two = d.starting_deck_size(), d.character.cards_per_starting_skill
    assert (deck, two) == (6, 2)
    assert commit_odds(deck, two, 0, 2, 1) == Fraction(3, 5)  # 0.60
    assert commit_odds(deck, two, 0, 3, 1) == Fraction(4, 5)  # 0.80
    assert commit_odds(deck, two, 0, 4, 1) == Fraction(14, 15)  # 0.93
    assert commit_odds(deck, two, 0, 2, 2) == Fraction(1, 15)  # 0.07
    assert commit_odds(deck, two, 0, 4, 2) == Fraction(2, 5)  # 0.40
    assert commit_odds(deck, 0, 0, 2, 1) == 0
    assert d.standard_checks_per_deck() == 3


def test_key_numbers_query_reads_the_data() -> None:
    rows = dict(FAMILY.odds["key-numbers"].compute(data(), profile(), {}))
    assert rows["DRAW 2, TARGET 1"] == Fraction(3, 5)
    assert rows["DRAW 3, TARGET 1"] == Fraction(4, 5)
    assert rows["DRAW 4, TARGET 1"] == Fraction(14, 15)
    assert rows["DRAW 2, TARGET 2"] == Fraction(1, 15)
    assert rows["DRAW 4, TARGET 2"] == Fraction(2, 5)
    assert rows["approach skill with no cards in the deck"] == 0
    assert rows["standard checks a fresh deck pays for"] == 3


def test_check_query_defaults_and_profiles() -> None:
    query = FAMILY.odds["check"]
    defaults = {p.name: p.default for p in query.params}
    assert dict(query.compute(data(), profile(), defaults))["success"] == Fraction(3, 5)
    # TC-01: one challenge card in a 7-card pile.
    one = dict(defaults, deck=7, challenges=1)
    assert dict(query.compute(data(), profile(), one))["success"] == commit_odds(7, 2, 1, 2, 1)
    # TC-04 Alt stops early: never worse, and strictly better with a challenge card.
    early = dict(query.compute(data(), profile(alts=("TC-04",)), one))["success"]
    assert early == stop_early_odds(7, 2, 1, 2, 1) > commit_odds(7, 2, 1, 2, 1)
    # TC-05: a TARGET pushed below 0 floors at 0 (Faithful) or 1 (Alt).
    zero = dict(defaults, target=0)
    assert dict(query.compute(data(), profile(), zero))["success"] == 1
    alt = dict(query.compute(data(), profile(alts=("TC-05",)), zero))["success"]
    assert alt == Fraction(3, 5)
    # TC-06 Alt: wild cards count at one more TARGET.
    wild = dict(defaults, matching=1, wild=2)
    assert dict(query.compute(data(), profile(), wild))["success"] == commit_odds(6, 1, 0, 2, 1)
    counted = dict(query.compute(data(), profile(alts=("TC-06",)), wild))["success"]
    assert counted == commit_odds(6, 1, 0, 2, 1, 1, 2, 1) > commit_odds(6, 1, 0, 2, 1)


def _grid() -> list[tuple[int, int, int, int]]:
    return [
        (m, w, c, o)
        for size in range(0, 6)
        for m in range(size + 1)
        for w in range(size - m + 1)
        for c in range(size - m - w + 1)
        for o in [size - m - w - c]
        if w <= 2 and c <= 2
    ]


@pytest.mark.parametrize("early", [False, True])
def test_fast_odds_equal_enumeration_of_every_order(early: bool) -> None:
    fast = stop_early_odds if early else commit_odds
    for m, w, c, o in _grid():
        size = m + w + c + o
        orders = orderings(m, w, c, o)  # computed once per pile
        for cards in range(size + 2):
            for target in (-1, 0, 1, 2, 3):
                for inc in (NO_WILD, 1):
                    wins = 0
                    for order in orders:
                        drawn = order[:cards]
                        hands = [drawn[:j] for j in range(len(drawn) + 1)] if early else [drawn]
                        wins += any(
                            hand_succeeds(h.count(M), h.count(W), h.count(C), target, 1, inc)
                            for h in hands
                        )
                    exact = fast(size, m, c, cards, target, 1, w, inc)
                    assert exact == Fraction(wins, len(orders)), (m, w, c, o, cards, target, inc)


@settings(max_examples=40, deadline=None)
@given(
    m=st.integers(0, 3),
    w=st.integers(0, 1),
    c=st.integers(0, 2),
    o=st.integers(0, 3),
    cards=st.integers(0, 5),
    target=st.integers(0, 3),
    early=st.booleans(),
)
def test_larger_piles_against_brute_force(
    m: int, w: int, c: int, o: int, cards: int, target: int, early: bool
) -> None:
    size = m + w + c + o
    if size > 7:
        return
    fast = stop_early_odds if early else commit_odds
    assert fast(size, m, c, cards, target, 1, w, 1) == brute(m, w, c, o, cards, target, 1, early)


def test_impossible_piles_are_refused() -> None:
    with pytest.raises(ValueError, match="impossible pile: 3 cards with 2 matching, 2 challenge"):
        commit_odds(3, 2, 2, 1, 1)
    with pytest.raises(ValueError, match="cannot draw -1 cards"):
        stop_early_odds(3, 1, 0, -1, 1)


def _enumerate_check(pile: list[str], attempt: Attempt, alts: tuple[str, ...]) -> Fraction:
    """P(success) of resolve_check itself, over every order of ``pile``."""
    prof = profile(alts=alts)
    wins = 0
    perms = list(itertools.permutations(pile))
    for order in perms:
        st_ = state(list(order), ability="DETERMINATION")
        wins += resolve_check(rules(prof), st_, standard(), attempt).success
    return Fraction(wins, len(perms))


@pytest.mark.parametrize("alts", [(), ("TC-04",), ("TC-12",), ("TC-04", "TC-12")])
def test_the_policys_chances_are_the_rules_chances(alts: tuple[str, ...]) -> None:
    """Every option the policy scores (draw sizes, DETERMINATION's burn) against the rules
    played on every order of the pile: the fast path against brute force."""
    pile = ["Grace", "Grace", "CHALLENGE", "Luck", "Strength", "Perception"]
    prof = profile(alts=alts)
    st_ = state(pile, ability="DETERMINATION")
    for choice in options(rules(prof), st_, standard(), st_.pile):
        assert choice.chance == _enumerate_check(pile, choice.attempt, alts), choice


def _monte_carlo(
    pile: list[str], attempt: Attempt, alts: tuple[str, ...], runs: int, seed: str
) -> float:
    prof = profile(alts=alts)
    rng = stream(seed, "tower-of-choices", purpose="test")
    wins = 0
    for _ in range(runs):
        cards = list(pile)
        shuffle(rng, cards)
        st_ = state(cards)
        wins += resolve_check(rules(prof), st_, standard(), attempt).success
    return wins / runs


@pytest.mark.parametrize(
    ("pile", "cards", "alts"),
    [
        (["Grace"] * 2 + ["Strength"] * 2 + ["Perception"] * 2, 2, ()),
        (["Grace"] * 2 + ["Strength"] * 2 + ["Perception"] * 2 + ["CHALLENGE"], 2, ()),
        (["Grace"] * 3 + ["Strength"] * 2 + ["CHALLENGE"] * 2, 2, ("TC-04",)),
        (["Grace"] * 2 + ["Luck"] * 2 + ["Perception"] * 2, 2, ("TC-06",)),
    ],
)
def test_monte_carlo_agrees_with_the_exact_odds(
    pile: list[str], cards: int, alts: tuple[str, ...]
) -> None:
    prof = profile(alts=alts)
    st_ = state(pile)
    exact = next(
        c.chance
        for c in options(rules(prof), st_, standard(), st_.pile)
        if c.attempt == Attempt("Grace", cards)
    )
    runs = 4000
    seen = _monte_carlo(pile, Attempt("Grace", cards), alts, runs, f"mc-{pile}-{alts}")
    sigma = math.sqrt(float(exact) * (1 - float(exact)) / runs)
    assert abs(seen - float(exact)) < 4 * sigma + 1e-9, (seen, exact)


def test_counts_of_the_enumeration_are_multiset_weighted() -> None:
    # Sanity of the oracle: index permutations weight every multiset order equally.
    orders = orderings(2, 0, 0, 1)
    assert Counter(orders) == Counter({("M", "M", "O"): 2, ("M", "O", "M"): 2, ("O", "M", "M"): 2})
