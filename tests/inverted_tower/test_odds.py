"""Exact odds of The Inverted Tower against the rulings, brute force and Monte Carlo."""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction
from itertools import product

import pytest

from generator.rulesets.inverted_tower.family import FAMILY
from generator.rulesets.inverted_tower.game import TapeDice, fight
from generator.rulesets.inverted_tower.odds import (
    daggers_spent,
    fight_odds,
    floor_odds,
    hit_chance,
    room_distribution,
)
from generator.rulesets.inverted_tower.policy import REFERENCE
from generator.rulesets.inverted_tower.rooms import record_room, resolve_room
from generator.rulesets.inverted_tower.rules import Rules
from generator.rulesets.inverted_tower.state import FloorState, Hero, RoomKind
from tests.inverted_tower.support import (
    PROFILES,
    data,
    hero,
    profile,
    random_roll,
    rules,
)

# rulings.md 1.2: single-monster hit chance, rows attribute 0..4, columns floor 1..5.
HIT_TABLE = [
    ["1/6", "1/6", "1/6", "1/6", "1/6"],
    ["1/3", "1/6", "1/6", "1/6", "1/6"],
    ["1/2", "1/3", "1/6", "1/6", "1/6"],
    ["2/3", "1/2", "1/3", "1/6", "1/6"],
    ["5/6", "2/3", "1/2", "1/3", "1/6"],
]


def test_hit_table_of_the_rulings() -> None:
    r = rules()
    for attr, row in enumerate(HIT_TABLE):
        for floor, text in enumerate(row, start=1):
            assert hit_chance(r, attr, floor, 1, False, 0) == Fraction(text), (attr, floor)


def _oracle(profile_id: str, attr: int, floor: int, level: int, elite: bool,
            daggers: int, effective_six: bool) -> tuple[Fraction, Fraction]:
    """The rule as rulings.md words it, by hand: natural 6 hits, natural 1 misses.

    Under IT-08 Alt (``effective_six``) a die plus daggers that reaches 6 is a critical
    hit too, but a natural 1 still misses whatever is added to it.
    """
    hits = spent = 0
    for die in range(1, 7):
        for k in range(daggers + 1):
            if elite and profile_id == "draft-4.5":
                total = die + k  # IT-07 Alt: a plain Dice Check, daggers allowed
            else:
                total = die + attr - floor - (level if elite else 0) + k
            six = die + (k if effective_six else 0) >= 6
            if die != 1 and (six or total >= 5):
                hits += 1
                spent += k
                break
    return Fraction(hits, 6), Fraction(spent, 6)


@pytest.mark.parametrize("profile_id", PROFILES)
@pytest.mark.parametrize("effective_six", [False, True])
def test_hit_chance_matches_brute_force(profile_id: str, effective_six: bool) -> None:
    r = rules(profile_id, ("IT-08",) if effective_six else ())
    six = r.profile.alt("IT-08")
    for attr, floor, level, elite, daggers in product(range(5), range(1, 5), range(4),
                                                      (False, True), range(4)):
        want = _oracle(profile_id, attr, floor, level, elite, daggers, six)
        got = (hit_chance(r, attr, floor, level, elite, daggers),
               daggers_spent(r, attr, floor, level, elite, daggers))
        assert got == want, (attr, floor, level, elite, daggers)


def test_hit_query_under_it08_alt_lets_no_dagger_lift_a_natural_one() -> None:
    """Issue 24, point 2: ``odds hit attr=4 floor=1 daggers=1`` under IT-08 Alt is 5/6.

    With STR 4 on floor 1 every face but the 1 hits; a dagger on the 1 reaches the
    effective 6, but a natural 1 still misses (rulings.md IT-08 Alt).
    """
    query = FAMILY.odds["hit"]
    values = {p.name: p.default for p in query.params} | {"attr": 4, "floor": 1, "daggers": 1}
    got = dict(query.compute(data(), profile(alts=("IT-08",)), values))
    assert got["P(hit) without daggers"] == Fraction(5, 6)
    assert got["P(hit) with 1 dagger(s) spent after seeing the die"] == Fraction(5, 6)
    assert got["expected daggers used with 1 available"] == 0


def _negative_binomial(p: Fraction, monsters: int, hp: int) -> tuple[Fraction, Fraction]:
    """P(kill ``monsters`` before ``hp`` misses) and the expected misses, capped at ``hp``."""
    q = 1 - p
    alive = Fraction(0)
    damage = Fraction(0)
    for misses in range(hp):
        ways = math.comb(monsters - 1 + misses, misses)
        alive += ways * p ** monsters * q ** misses
        damage += misses * ways * p ** monsters * q ** misses
    return alive, damage + hp * (1 - alive)


@pytest.mark.parametrize(("attr", "floor", "monsters", "hp"),
                         [(1, 1, 1, 5), (1, 1, 3, 5), (0, 1, 2, 3), (3, 2, 3, 4), (2, 4, 1, 2)])
def test_fight_odds_match_the_negative_binomial(attr: int, floor: int, monsters: int,
                                                hp: int) -> None:
    r = rules()
    h = hero(r, hp=hp, max_hp=hp, attributes=(attr, 0, 0), daggers=0, potions=0)
    odds = fight_odds(r, REFERENCE, h, floor, ("normal",) * monsters)
    alive, damage = _negative_binomial(hit_chance(r, attr, floor, 1, False, 0), monsters, hp)
    assert (odds.survive, odds.damage) == (alive, damage)
    assert odds.daggers == 0 and odds.potions == 0


@pytest.mark.parametrize(("hp", "max_hp", "daggers", "potions", "foes"), [
    (2, 2, 1, 0, ("normal", "normal")),
    (1, 2, 1, 1, ("normal",)),
    (2, 3, 2, 0, ("normal", "elite")),
])
def test_fight_odds_match_every_dice_sequence(hp: int, max_hp: int, daggers: int, potions: int,
                                              foes: tuple[str, ...]) -> None:
    r = rules()
    h = hero(r, hp=hp, max_hp=max_hp, daggers=daggers, potions=potions)
    length = len(foes) + hp + potions * max_hp
    alive = damage = spent = drunk = Fraction(0)
    weight = Fraction(1, 6 ** length)
    for dice in product(range(1, 7), repeat=length):
        tape = TapeDice(dice)
        after, killer = fight(r, REFERENCE, h, 1, foes, tape)
        alive += weight * (not killer)
        rolls = tape.pos
        kills = len(foes) if not killer else _kills(r, foes, dice[:rolls], h)
        damage += weight * (rolls - kills)
        spent += weight * (h.daggers - after.daggers)
        drunk += weight * (h.potions - after.potions)
    odds = fight_odds(r, REFERENCE, h, 1, foes)
    assert (odds.survive, odds.damage, odds.daggers, odds.potions) == (alive, damage, spent, drunk)


def _kills(r: Rules, foes: tuple[str, ...], dice: Sequence[int], h: Hero) -> int:
    """Kills in a lost fight: replay it roll by roll (each roll kills or misses)."""
    from generator.rulesets.inverted_tower.procedures import attack, start_fight

    state = start_fight(r, REFERENCE, h, 1, foes)
    for die in dice:
        state = attack(r, REFERENCE, state, die)
    return len(foes) - len(state.foes)


def test_fight_odds_agree_with_monte_carlo() -> None:
    r = rules()
    h = hero(r)  # 5 HP, STR 1, a dagger and a potion
    foes = ("normal", "normal", "elite")
    odds = fight_odds(r, REFERENCE, h, 1, foes)
    rng = random.Random(2024)
    runs = 2500
    alive = taken = 0
    for _ in range(runs):
        dice = TapeDice([rng.randint(1, 6) for _ in range(60)])
        _, killer = fight(r, REFERENCE, h, 1, foes, dice)
        alive += not killer
        kills = _kills(r, foes, dice.tape[: dice.pos], h) if killer else len(foes)
        taken += dice.pos - kills
    p = float(odds.survive)
    assert abs(alive / runs - p) < 4 * math.sqrt(p * (1 - p) / runs)
    # Damage per fight is at most 5 HP plus a potion's 5: its spread is under 10.
    assert abs(taken / runs - float(odds.damage)) < 4 * 10 / math.sqrt(runs)


def test_room_odds_give_the_key_numbers() -> None:
    r = rules()
    dist = room_distribution(r, FloorState(1))
    assert dist[("stairs", False)] == Fraction(1, 18)  # rulings.md 1.2
    assert sum(dist.values()) == 1
    odds = floor_odds(r)
    assert odds.forced_boss == Fraction(17, 18) ** 11  # rulings.md 1.2: about 0.53
    assert round(float(odds.forced_boss), 2) == 0.53
    first_encounter = floor_odds(rules(alts=("IT-32",)))
    assert first_encounter.forced_boss == Fraction(17, 18) ** 10


def test_floor_odds_with_more_lair_treasure_rolls() -> None:
    # Two treasure rolls in the lair need a die more; it does not change a room's kind.
    r = replace(rules(), lair_treasure_rolls=2)
    assert floor_odds(r) == floor_odds(rules())


def test_room_odds_with_rerolls_sum_to_one() -> None:
    r = rules(alts=("IT-02", "IT-03"))
    fs = FloorState(1, kinds=frozenset(r.once_per_floor) - {next(iter(r.once_per_floor))})
    assert sum(room_distribution(r, fs, 3).values()) == 1
    assert sum(room_distribution(r, FloorState(1, kinds=frozenset(r.once_per_floor)), 3)
               .values()) == 1


def test_floor_odds_agree_with_monte_carlo() -> None:
    r = rules()
    odds = floor_odds(r)
    rng = random.Random(7)
    runs = 2000
    forced = lairs = 0
    stairs_at = 0
    for _ in range(runs):
        fs = FloorState(1)
        while not fs.last and fs.explored < r.max_rooms:
            roll = random_roll(rng)
            room = resolve_room(r, fs, roll)
            if room.stairs:
                stairs_at += room.index
                forced += room.kind is RoomKind.LAIR and not fs.stairs_found and (
                    room.index == r.max_rooms)
            lairs += room.kind is RoomKind.LAIR
            fs = record_room(fs, room)
    for got, want in ((forced / runs, odds.forced_boss), (lairs / runs, odds.has_lair)):
        p = float(want)
        assert abs(got - p) < 4 * math.sqrt(p * (1 - p) / runs), (got, p)
    assert abs(stairs_at / runs - float(odds.stairs_room)) < 0.25


def test_room_odds_agree_with_monte_carlo() -> None:
    r = rules()
    fs = FloorState(1, stairs_room=1)
    dist = room_distribution(r, fs, 4)
    rng = random.Random(11)
    runs = 6000
    seen: Counter[tuple[str, bool]] = Counter()
    for _ in range(runs):
        room = resolve_room(r, fs, random_roll(rng), 4)
        seen[("boss lair" if room.kind is RoomKind.LAIR else room.kind.value, room.last)] += 1
    for key, p in dist.items():
        sigma = math.sqrt(float(p) * (1 - float(p)) / runs)
        assert abs(seen[key] / runs - float(p)) < 4 * sigma + 1e-9, key


@pytest.mark.parametrize("profile_id", PROFILES)
def test_every_query_runs_with_its_defaults(profile_id: str) -> None:
    for query in FAMILY.odds.values():
        values = {p.name: p.default for p in query.params}
        result = query.compute(data(), profile(profile_id), values)
        assert result and all(isinstance(v, Fraction) and v >= 0 for _, v in result)
        assert all(p.min <= p.default <= p.max for p in query.params)


def test_draft_45_elites_are_easier_and_worth_more() -> None:
    faithful, alt = rules(), rules("draft-4.5")
    h = hero(faithful, attributes=(1, 0, 0))
    tough = fight_odds(faithful, REFERENCE, h, 2, ("elite",))
    easy = fight_odds(alt, REFERENCE, h, 2, ("elite",))
    assert easy.survive > tough.survive
