"""3 Dice Dungeon combat: exact odds against brute force and Monte Carlo, and properties."""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.rulesets.three_dice_dungeon.combat import (
    Fight,
    Outcome,
    fight,
    hit_faces,
    hit_faces_by_enumeration,
    hits,
)
from generator.rulesets.three_dice_dungeon.dice import FastRng, Tape, TapeExhausted
from generator.rulesets.three_dice_dungeon.dungeon import CharacterRoll
from generator.rulesets.three_dice_dungeon.effects import Stat
from generator.rulesets.three_dice_dungeon.entities import Ability, AbilityKind, Loot
from generator.rulesets.three_dice_dungeon.family import FAMILY
from generator.rulesets.three_dice_dungeon.game import play
from generator.rulesets.three_dice_dungeon.hero import Hero, death_floor, gain_item
from generator.rulesets.three_dice_dungeon.odds import fight_odds, hit_chance
from generator.rulesets.three_dice_dungeon.policy import ReferencePolicy
from generator.rulesets.three_dice_dungeon.rules import Foe, Rules
from generator.rulesets.three_dice_dungeon.simulate import run_streams
from tests.three_dice_dungeon.support import profile, rules


class Passive(ReferencePolicy):
    """A player who only attacks, always with Dex: the fight the exact odds describe."""

    def use_salts(self, rules: Rules, hero: Hero, fight: Fight) -> bool:
        return False

    def fight_start(self, rules: Rules, hero: Hero, fight: Fight) -> None:
        return None

    def round_start(self, rules: Rules, hero: Hero, fight: Fight) -> Outcome | None:
        return None

    def extra_attacks(self, rules: Rules, hero: Hero, fight: Fight) -> int:
        return 0

    def attack_stat(self, rules: Rules, hero: Hero, fight: Fight) -> Stat:
        return Stat.DEX

    def rescue(self, rules: Rules, hero: Hero, stat: Stat, shortfall: int) -> str | None:
        return None

    def fury(self, rules: Rules, hero: Hero, fight: Fight, damage: int) -> bool:
        return False

    def shield(self, rules: Rules, hero: Hero, fight: Fight, damage: int) -> str | None:
        return None


def make_hero(r: Rules, hp: int, strength: int, dex: int, mind: int = 3) -> Hero:
    roll = CharacterRoll((), (strength, dex, mind), (Stat.STR, Stat.DEX, Stat.MIND), "", hp)
    return Hero(r, roll)


def make_foe(
    hp: int, damage: int, armour: int, mind: int = 0, abilities: tuple[Ability, ...] = ()
) -> Foe:
    return Foe("Test", "Test", hp, damage, armour, mind, abilities, False, Loot(1, (), ""), False)


# -- one attack roll ------------------------------------------------------------------------


@pytest.mark.parametrize("alt", [False, True])
def test_hit_faces_closed_form_matches_enumeration(alt: bool) -> None:
    r = rules("as-written", ("DD-04",) if alt else ())
    for modifier in range(-6, 16):
        for armour in range(0, 20):
            assert hit_faces(r, modifier, armour) == hit_faces_by_enumeration(r, modifier, armour)


def test_hit_chance_counts_faces_with_crits() -> None:
    r = rules()
    # attribute 4 against Dex 6: 3 + 4 > 6, so faces 3..6 hit.
    assert hit_chance(r, 4, 0, 6) == Fraction(4, 6)
    # Against armour 20 only the natural 6 hits; against armour 0 the natural 1 still misses.
    assert hit_chance(r, 4, 0, 20) == Fraction(1, 6)
    assert hit_chance(r, 4, 0, 0) == Fraction(5, 6)
    assert hit_chance(r, 4, 0, 6, bleeding=True) == Fraction(3, 6)  # DD-23: -1
    assert [hits(r, d, 0, 3) for d in range(1, 7)] == [False, False, False, True, True, True]


# -- a whole fight: DP against brute force and Monte Carlo ------------------------------------


def brute_force(r: Rules, foe: Foe, hp: int, strength: int, dex: int) -> tuple[Fraction, Fraction]:
    """P(win) and E[damage taken] by trying every sequence of dice on the reference fight."""

    def walk(prefix: list[int]) -> tuple[Fraction, Fraction]:
        hero = make_hero(r, hp, strength, dex)
        try:
            outcome = fight(r, hero, foe, Tape(prefix), Passive())
        except TapeExhausted:
            win = damage = Fraction(0)
            for face in range(1, 7):
                w, d = walk([*prefix, face])
                win += w / 6
                damage += d / 6
            return win, damage
        return Fraction(outcome is Outcome.WON), Fraction(hp - hero.hp)

    return walk([])


CASES = [
    # (profile, foe, player hp, str, dex)
    ("d6-scale", make_foe(3, 1, 3), 3, 2, 2),
    ("d6-scale", make_foe(2, 1, 5), 2, 1, 1),
    ("as-written", make_foe(4, 2, 5), 4, 2, 2),
    ("as-written", make_foe(3, 1, 6, 2, (Ability(AbilityKind.DAMAGE_BONUS, 1, 1),)), 4, 2, 3),
    ("as-written", make_foe(3, 2, 4, 2, (Ability(AbilityKind.REGEN, 1, 1),)), 3, 2, 1),
]


@pytest.mark.parametrize(("base", "foe", "hp", "strength", "dex"), CASES)
def test_fight_dp_matches_brute_force(
    base: str, foe: Foe, hp: int, strength: int, dex: int
) -> None:
    r = rules(base)
    hero = make_hero(r, hp, strength, dex)
    faces = hit_faces(r, dex, foe.armour)
    damage = r.scale.player_damage if r.scale else strength
    assert hero.cur[Stat.DEX] == dex
    exact = fight_odds(r, foe, faces, damage, hp)
    win, taken = brute_force(r, foe, hp, strength, dex)
    assert exact.win == win
    assert exact.damage == taken


def test_fight_dp_agrees_with_monte_carlo() -> None:
    r = rules()
    foe = r.foe("Snotlings", 1, False, {})  # with its +1 damage per Mind ability
    exact = fight_odds(r, foe, hit_faces(r, 4, foe.armour), 3, 15)
    rng = FastRng(2024)
    trials = 3000
    wins = 0
    for _ in range(trials):
        hero = make_hero(r, 15, 3, 4)
        wins += fight(r, hero, foe, rng, Passive()) is Outcome.WON
    p = float(exact.win)
    sigma = math.sqrt(p * (1 - p) / trials)
    assert abs(wins / trials - p) < 4 * sigma + 1e-9


def test_rulings_2_2_expected_damage_to_kill() -> None:
    # STR 3, attack attribute 4, damage = the Str column, no abilities (rulings.md 2.2).
    expected = {
        "Snotlings": (3, 30),
        "Goblins": (28, 280),
        "Orcs": (64, 320),
        "Dragons": (360, 360),
    }
    for reading, column in (((), 0), (("DD-04",), 1)):
        r = rules("as-written", reading)
        for name, figures in expected.items():
            foe = replace(r.foe(name, 1, False, {}), abilities=())
            odds = fight_odds(
                r, foe, hit_faces(r, 4 if r.attribute_to_hit else 0, foe.armour), 3, None
            )
            assert odds.damage == figures[column], (name, reading)


def test_the_kill_and_fight_queries_answer_exactly() -> None:
    spec = FAMILY.odds["kill"]
    values = {p.name: p.default for p in spec.params}
    values["monster"] = 1  # Snotlings
    found = dict(spec.compute(rules().data, profile(), values))
    assert found["expected damage taken to kill Snotlings"] == 3
    fight_spec = FAMILY.odds["fight"]
    values = {p.name: p.default for p in fight_spec.params}
    results = dict(fight_spec.compute(rules().data, profile(), values))
    assert results["P(win)"] + results["P(die)"] == 1
    assert 0 < results["P(win)"] < 1


# -- properties over whole games ------------------------------------------------------------


class Watchful(ReferencePolicy):
    """The reference player, asserting the hero's invariants at every round."""

    def round_start(self, rules: Rules, hero: Hero, fight: Fight) -> Outcome | None:
        assert hero.hp <= hero.max_hp
        assert hero.hp > death_floor(rules, hero)  # alive means above the floor
        assert all(hero.cur[s] >= 0 for s in hero.cur)
        result = super().round_start(rules, hero, fight)
        assert hero.hp <= hero.max_hp  # healing never passes the maximum
        return result


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=10**6), base=st.sampled_from(["as-written", "d6-scale"])
)
def test_hp_stays_at_most_max_and_death_is_at_the_floor(seed: int, base: str) -> None:
    r = rules(base)
    outcome, game = play(r, Watchful(), run_streams(f"int:{seed}", 0), 2)
    hero = game.hero
    assert hero.hp <= hero.max_hp
    if outcome.death in ("monster", "elite", "roaming monster"):
        assert hero.hp <= death_floor(r, hero)
        if hero.soul is None:
            assert hero.hp <= r.data.combat.death_at
    elif outcome.death is None:
        assert hero.hp > death_floor(r, hero)


def test_death_comes_exactly_at_zero() -> None:
    r = rules()
    foe = make_foe(50, 3, 20)  # only a natural 6 hits it
    hero = make_hero(r, 3, 1, 1)
    # One miss (a 2) takes 3 HP: exactly 0, which is death.
    assert fight(r, hero, foe, Tape([2]), Passive()) is Outcome.DIED
    assert hero.hp == 0
    hero = make_hero(r, 4, 1, 1)
    with pytest.raises(TapeExhausted):  # 1 HP left: still fighting, wants another die
        fight(r, hero, foe, Tape([2]), Passive())
    assert hero.hp == 1


def test_the_soul_stone_keeps_you_up_to_its_floor_at_a_price_in_xp() -> None:
    r = rules()
    soul = next(n for n, i in r.items.items() if i.name == "Soul Stone")
    foe = make_foe(50, 3, 20)
    hero = make_hero(r, 3, 1, 1)
    gain_item(r, hero, soul)
    hero.xp = 12
    floor = death_floor(r, hero)
    assert floor == r.effects[soul].floor < 0
    # 3 -> 0 (alive with the stone; not below 0, no XP lost), 0 -> -3 (XP 12 -> 7).
    with pytest.raises(TapeExhausted):
        fight(r, hero, foe, Tape([2, 2]), Passive())
    assert (hero.hp, hero.xp) == (-3, 7)
    # Another miss: -6 is past the floor of -5: dead.
    hero = make_hero(r, 3, 1, 1)
    gain_item(r, hero, soul)
    hero.xp = 12
    assert fight(r, hero, foe, Tape([2, 2, 2]), Passive()) is Outcome.DIED
    # With little XP the stone takes the soul first.
    hero = make_hero(r, 1, 1, 1)
    gain_item(r, hero, soul)
    hero.xp = 5
    assert fight(r, hero, foe, Tape([2]), Passive()) is Outcome.SOUL_LOST
