"""Exact odds of a skill check, as Fractions (style.md: exactness, brute-force oracles).

A draw pile is a composition: ``size`` cards, of which ``matching`` bear the approach skill,
``challenges`` are challenge cards and ``wild`` are wild cards (TC-06 Alt; 0 otherwise); the
rest are other skills.  A hand of m matches, w wilds and c challenges succeeds when
``m >= target + per_card * c`` (TC-01), or, with wild cards counted,
``m + w >= target + wild_increase + per_card * c`` (TC-06 Alt).

* :func:`commit_odds`: the player commits to ``cards`` before drawing (TC-04 Faithful); a
  short pile gives all it has (TC-02 Faithful).  A multivariate hypergeometric sum.
* :func:`stop_early_odds`: the player draws one card at a time and stops at the first
  success (TC-04 Alt).  A dynamic programme over (matches, wilds, challenges) drawn so far.

Both are cached; the tests check them against enumeration of every ordering of small piles.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import lru_cache
from math import comb

from generator.engine.family import OddsQuery, Param
from generator.model.common import Profile
from generator.rulesets.tower_of_choices.data import TowerOfChoices
from generator.rulesets.tower_of_choices.rules import rules_for

NO_WILD = -1  # wild_increase when wild cards do not count (TC-06 Faithful)


def hand_succeeds(m: int, w: int, c: int, target: int, per_card: int, wild_increase: int) -> bool:
    """TC-01 and TC-06: whether a hand with these counts beats ``target``."""
    need = target + per_card * c
    if m >= need:
        return True
    return wild_increase != NO_WILD and m + w >= need + wild_increase


def _check(size: int, matching: int, challenges: int, wild: int) -> None:
    if min(size, matching, challenges, wild) < 0 or matching + challenges + wild > size:
        raise ValueError(
            f"impossible pile: {size} cards with {matching} matching, "
            f"{challenges} challenge and {wild} wild"
        )


@lru_cache(maxsize=1 << 16)
def commit_odds(
    size: int,
    matching: int,
    challenges: int,
    cards: int,
    target: int,
    per_card: int = 1,
    wild: int = 0,
    wild_increase: int = NO_WILD,
) -> Fraction:
    """P(success) drawing ``min(cards, size)`` cards at once (TC-04 Faithful, TC-02).

    Raises:
        ValueError: the composition does not fit in ``size`` or ``cards`` is negative.
    """
    _check(size, matching, challenges, wild)
    if cards < 0:
        raise ValueError(f"cannot draw {cards} cards")
    k = min(cards, size)
    other = size - matching - challenges - wild
    ways = 0
    for c in range(min(challenges, k) + 1):
        for w in range(min(wild, k - c) + 1):
            for m in range(min(matching, k - c - w) + 1):
                rest = k - c - w - m
                if rest > other or not hand_succeeds(m, w, c, target, per_card, wild_increase):
                    continue
                ways += comb(matching, m) * comb(wild, w) * comb(challenges, c) * comb(other, rest)
    return Fraction(ways, comb(size, k))


@lru_cache(maxsize=1 << 16)
def stop_early_odds(
    size: int,
    matching: int,
    challenges: int,
    cards: int,
    target: int,
    per_card: int = 1,
    wild: int = 0,
    wild_increase: int = NO_WILD,
) -> Fraction:
    """P(success) drawing up to ``cards`` one at a time, stopping at success (TC-04 Alt).

    Raises:
        ValueError: as :func:`commit_odds`.
    """
    _check(size, matching, challenges, wild)
    if cards < 0:
        raise ValueError(f"cannot draw {cards} cards")
    k = min(cards, size)
    other = size - matching - challenges - wild
    won = Fraction(0)
    states: dict[tuple[int, int, int, int], Fraction] = {(0, 0, 0, 0): Fraction(1)}
    for drawn in range(k + 1):
        nxt: dict[tuple[int, int, int, int], Fraction] = {}
        for (m, w, c, o), p in states.items():
            if hand_succeeds(m, w, c, target, per_card, wild_increase):
                won += p
                continue
            if drawn == k:
                continue
            left = size - drawn
            for count, key in (
                (matching - m, (m + 1, w, c, o)),
                (wild - w, (m, w + 1, c, o)),
                (challenges - c, (m, w, c + 1, o)),
                (other - o, (m, w, c, o + 1)),
            ):
                if count:
                    nxt[key] = nxt.get(key, Fraction(0)) + p * Fraction(count, left)
        states = nxt
    return won


def draw_odds(
    stop_early: bool,
    size: int,
    matching: int,
    challenges: int,
    cards: int,
    target: int,
    per_card: int = 1,
    wild: int = 0,
    wild_increase: int = NO_WILD,
) -> Fraction:
    """:func:`stop_early_odds` or :func:`commit_odds`, as TC-04 reads."""
    f = stop_early_odds if stop_early else commit_odds
    return f(size, matching, challenges, cards, target, per_card, wild, wild_increase)


# -- odds queries for ``towerpress odds`` ----------------------------------------------------

FROM_DATA = -1  # a parameter left at -1 takes the data's value


def _data(data: object) -> TowerOfChoices:
    if not isinstance(data, TowerOfChoices):
        raise TypeError(f"expected Tower of Choices data, got {type(data).__name__}")
    return data


def _check_query(
    data: object, profile: Profile, values: Mapping[str, int]
) -> list[tuple[str, Fraction]]:
    d = _data(data)
    rules = rules_for(d, profile)
    checks = d.checks
    pick = {
        "deck": d.starting_deck_size(),
        "matching": d.character.cards_per_starting_skill,
        "draw": checks.standard_draw,
        "target": checks.standard_target,
    }
    v = {k: (pick[k] if k in pick and x == FROM_DATA else x) for k, x in values.items()}
    target = max(v["target"], rules.target_floor)
    wild_increase = checks.wild_target_increase if rules.wild_cards else NO_WILD
    p = draw_odds(
        rules.stop_early,
        v["deck"],
        v["matching"],
        v["challenges"],
        v["draw"],
        target,
        checks.challenge_target_per_card,
        v["wild"] if rules.wild_cards else 0,
        wild_increase,
    )
    return [("success", p), ("failure", 1 - p)]


def _key_numbers(
    data: object, profile: Profile, values: Mapping[str, int]
) -> list[tuple[str, Fraction]]:
    """rulings.md 3.2 from the data: a fresh deck, the approach skill's starting cards, the
    standard DRAW plus every total DRAW bonus one item gives a skill, the standard TARGET
    and the TARGET after one DM increase."""
    d = _data(data)
    rules = rules_for(d, profile)
    checks = d.checks
    bonuses = sorted(
        {0} | {sum(m.draw for m in i.modifiers_for(s)) for i in d.items for s in d.skill_names}
    )
    steps = sorted(
        {0} | {a.direction for a in checks.adjustments if a.changes == "target" and a.direction > 0}
    )
    deck, matching = d.starting_deck_size(), d.character.cards_per_starting_skill
    out: list[tuple[str, Fraction]] = []
    for step in steps:
        for bonus in bonuses:
            if bonus < 0:
                continue
            draw, target = checks.standard_draw + bonus, checks.standard_target + step
            p = draw_odds(
                rules.stop_early,
                deck,
                matching,
                0,
                draw,
                target,
                checks.challenge_target_per_card,
            )
            out.append((f"DRAW {draw}, TARGET {target}", p))
    no_cards = commit_odds(deck, 0, 0, checks.standard_draw, checks.standard_target)
    out.append(("approach skill with no cards in the deck", no_cards))
    out.append(("standard checks a fresh deck pays for", Fraction(d.standard_checks_per_deck())))
    return out


ODDS: dict[str, OddsQuery] = {
    "check": OddsQuery(
        name="check",
        help="Exact chance that one skill check succeeds, from the pile's composition "
        "(TC-01; TC-04 Alt stops early; TC-05 floors TARGET; TC-06 Alt counts wild cards).",
        params=(
            Param("deck", "cards in the draw pile (-1: a fresh deck)", FROM_DATA, -1, 60),
            Param(
                "matching",
                "cards of the approach skill (-1: a starting skill's)",
                FROM_DATA,
                -1,
                60,
            ),
            Param("challenges", "challenge cards in the pile", 0, 0, 60),
            Param("wild", "wild (Luck) cards in the pile, counted only under TC-06 Alt", 0, 0, 60),
            Param("draw", "cards drawn (-1: the standard DRAW)", FROM_DATA, -1, 60),
            Param(
                "target",
                "TARGET (-1: the standard TARGET; 0 or less floors per TC-05)",
                FROM_DATA,
                -1,
                60,
            ),
        ),
        compute=_check_query,
    ),
    "key-numbers": OddsQuery(
        name="key-numbers",
        help="The key numbers of rulings.md 3.2: a fresh deck with the approach skill's "
        "starting cards, at the standard obstacle and with item DRAW bonuses and a TARGET "
        "increase.",
        params=(),
        compute=_key_numbers,
    ),
}
