"""Exact odds of The Inverted Tower, as Fractions (``towerpress odds inverted-tower``).

Each query enumerates the reference rules themselves: the hit chance reads the same dagger
table the engine rolls against, the fight odds are a dynamic programme over the hashable
:class:`~generator.rulesets.inverted_tower.procedures.Fight` states that
:func:`~generator.rulesets.inverted_tower.procedures.attack` steps through, and the room odds
enumerate the dice of :func:`~generator.rulesets.inverted_tower.rooms.resolve_room`. The
tests check them against brute-force enumeration and against Monte Carlo play.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import product

from generator.engine.family import OddsQuery, Param
from generator.model.common import Profile
from generator.rulesets.inverted_tower.data import InvertedTower
from generator.rulesets.inverted_tower.entities import EventKind
from generator.rulesets.inverted_tower.policy import REFERENCE, Policy
from generator.rulesets.inverted_tower.procedures import Fight, attack, start_fight
from generator.rulesets.inverted_tower.rooms import NeedMoreDice, record_room, resolve_room
from generator.rulesets.inverted_tower.rules import Rules, rules_for
from generator.rulesets.inverted_tower.state import (
    FloorState,
    Hero,
    RoomContent,
    RoomKind,
    RoomRoll,
)

Labelled = list[tuple[str, Fraction]]

# -- one combat roll ------------------------------------------------------------------------


def hit_chance(rules: Rules, attribute: int, floor: int, level: int, elite: bool,
               daggers: int) -> Fraction:
    """P(one roll hits) with up to ``daggers`` daggers (IT-07/08/09/10/28).

    The same number whether the daggers are spent after seeing the die (the fewest that
    turn it into a hit, IT-10 Faithful), declared before it, or kept (IT-09 Alt); only
    what they cost differs (:func:`daggers_spent`).
    """
    foe = rules.elite if elite else rules.normal
    need = rules.daggers_needed(foe, attribute, floor, level)
    return Fraction(sum(1 for n in need[1:] if n <= daggers), rules.faces)


def daggers_spent(rules: Rules, attribute: int, floor: int, level: int, elite: bool,
                  daggers: int) -> Fraction:
    """Expected daggers one roll uses up when ``daggers`` are available (IT-09, IT-10)."""
    if rules.daggers_kept:
        return Fraction(0)
    if rules.daggers_before_roll:
        return Fraction(daggers)
    foe = rules.elite if elite else rules.normal
    need = rules.daggers_needed(foe, attribute, floor, level)
    return Fraction(sum(n for n in need[1:] if n <= daggers), rules.faces)


def _hit_query(data: InvertedTower, profile: Profile, v: Mapping[str, int]) -> Labelled:
    rules = rules_for(data, profile)
    args = (v["attr"], v["floor"], v["level"], bool(v["elite"]))
    how = ("kept" if rules.daggers_kept
           else "declared before the roll" if rules.daggers_before_roll
           else "spent after seeing the die")
    out: Labelled = [("P(hit) without daggers", hit_chance(rules, *args, 0))]
    for k in range(1, v["daggers"] + 1):
        out.append((f"P(hit) with {k} dagger(s) {how}", hit_chance(rules, *args, k)))
        out.append((f"expected daggers used with {k} available", daggers_spent(rules, *args, k)))
    return out


# -- a whole fight ---------------------------------------------------------------------------


@dataclass(frozen=True)
class FightOdds:
    """Exact expectations over one fight (IT-17), by the reference player."""

    survive: Fraction
    damage: Fraction  # HP lost to failed rolls, the fatal one included
    daggers: Fraction
    potions: Fraction
    hp_if_alive: Fraction  # expected HP at the end, given survival (0 when it cannot)


def fight_odds(rules: Rules, policy: Policy, hero: Hero, floor: int,
               foes: tuple[str, ...]) -> FightOdds:
    """The fight from ``hero`` against ``foes`` (fought in order), by dynamic programming.

    Each state is a :class:`Fight` with its counters at zero; its value is the exact
    expectation over the next die of :func:`attack`, so the odds follow the reference
    rules and policy exactly, level-ups, daggers and potions included.
    """
    memo: dict[Fight, tuple[Fraction, Fraction, Fraction, Fraction, Fraction]] = {}
    share = Fraction(1, rules.faces)

    def value(state: Fight) -> tuple[Fraction, Fraction, Fraction, Fraction, Fraction]:
        found = memo.get(state)
        if found is not None:
            return found
        alive = damage = spent = drunk = hp = Fraction(0)
        for die in range(1, rules.faces + 1):
            nxt = attack(rules, policy, state, die)
            damage += share * nxt.taken
            spent += share * nxt.spent
            drunk += share * nxt.drunk
            if nxt.dead:
                continue
            if not nxt.foes:
                alive += share
                hp += share * nxt.hero.hp
                continue
            a, d, s, p, h = value(replace(nxt, taken=0, spent=0, drunk=0))
            alive += share * a
            damage += share * d
            spent += share * s
            drunk += share * p
            hp += share * h
        found = (alive, damage, spent, drunk, hp)
        memo[state] = found
        return found

    start = start_fight(rules, policy, hero, floor, foes)
    if start.over:
        return FightOdds(Fraction(1), Fraction(0), Fraction(0), Fraction(0), Fraction(hero.hp))
    a, d, s, p, h = value(start)
    return FightOdds(a, d, s, p, h / a if a else Fraction(0))


def _fight_query(data: InvertedTower, profile: Profile, v: Mapping[str, int]) -> Labelled:
    rules = rules_for(data, profile)
    monsters, elites, max_hp = v["monsters"], v["elites"], v["max_hp"]
    if elites > monsters:
        raise ValueError(f"elites must be at most monsters, got elites={elites} and "
                         f"monsters={monsters}")
    if max_hp < v["hp"]:
        raise ValueError(f"max_hp must be at least hp, got hp={v['hp']} and max_hp={max_hp}")
    attributes = [0] * rules.attribute_count
    attributes[0] = v["attr"]
    hero = Hero(hp=v["hp"], max_hp=max_hp, attributes=tuple(attributes), level=v["level"],
                xp=v["xp"], gold=0, daggers=v["daggers"], potions=v["potions"])
    foes = (rules.normal.id,) * (monsters - elites) + (rules.elite.id,) * elites
    odds = fight_odds(rules, REFERENCE, hero, v["floor"], foes)
    return [
        ("P(survive)", odds.survive),
        ("expected HP lost (failed rolls)", odds.damage),
        ("expected daggers spent", odds.daggers),
        ("expected potions drunk", odds.potions),
        ("expected HP at the end if alive", odds.hp_if_alive),
    ]


# -- what a new room holds -------------------------------------------------------------------

#: The kinds a room query reports, in print order; a lair on the stairs is its own row.
STAIRS_LAIR = "stairs and boss lair"


def room_label(kind: RoomKind, stairs: bool) -> str:
    if kind is RoomKind.LAIR:
        return STAIRS_LAIR if stairs else "boss lair"
    return kind.value


def room_outcomes(rules: Rules, fs: FloorState, index: int = 0
                  ) -> list[tuple[RoomContent, Fraction]]:
    """Every content the next new room of ``fs`` (or room ``index``) can have, weighted.

    Enumerates the dice that decide a room's kind (dead-end, room check, event roll); the
    other dice are fixed, so monsters and treasure are not spread out. An IT-02 Alt
    reroll ends on the first acceptable face, uniform over the acceptable faces.
    """
    faces = range(1, rules.faces + 1)
    out: list[tuple[RoomContent, Fraction]] = []
    # Faces that read the same give the same room: one of each, weighted by their count.
    groups = [_classes(faces, table) for table in (
        rules.dead_end_check, rules.room_check, rules.event_of)]
    for (dead_end, a), (check, b), (event, c) in product(*groups):
        share = Fraction(a * b * c, rules.faces ** 3)
        # The lair's extra treasure dice (IT-25) are fixed too: they do not decide the kind.
        extra = (1,) * max(0, rules.lair_treasure_rolls - 1)
        roll = RoomRoll(dead_end, check, event, 1, 1, 1, 1, 1, 1, extra_treasure=extra)
        try:
            out.append((resolve_room(rules, fs, roll, index), share))
        except NeedMoreDice:
            fine = [f for f in faces if not (rules.event_of[f] in rules.once_per_floor
                                             and rules.event_of[f] in fs.kinds)]
            out.extend((resolve_room(rules, fs, replace(roll, rerolls=(f,)), index),
                        share / len(fine)) for f in fine)
    return out


def _classes(faces: range, table: Sequence[object]) -> list[tuple[int, int]]:
    """One face per distinct entry of a per-face table, with how many faces read it."""
    first: dict[object, tuple[int, int]] = {}
    for face in faces:
        face0, count = first.get(table[face], (face, 0))
        first[table[face]] = (face0, count + 1)
    return list(first.values())


def room_distribution(rules: Rules, fs: FloorState, index: int = 0
                      ) -> dict[tuple[str, bool], Fraction]:
    """P(label, last room) of the next new room of ``fs`` (or room ``index``)."""
    out: dict[tuple[str, bool], Fraction] = {}
    for room, weight in room_outcomes(rules, fs, index):
        key = (room_label(room.kind, room.stairs), room.last)
        out[key] = out.get(key, Fraction(0)) + weight
    return out


def _room_query(data: InvertedTower, profile: Profile, v: Mapping[str, int]) -> Labelled:
    rules = rules_for(data, profile)
    kinds = frozenset(kind for kind, key in ((EventKind.MERCHANT, "merchant"),
                                             (EventKind.BONFIRE, "bonfire"),
                                             (EventKind.TRAP, "trap"),
                                             (EventKind.STAIRS, "stairs")) if v[key])
    room = min(v["room"], rules.max_rooms)
    fs = FloorState(floor=rules.first_floor, kinds=kinds,
                    stairs_room=1 if v["stairs"] else 0)
    dist = room_distribution(rules, fs, room)
    labels = [k.value for k in RoomKind if k is not RoomKind.LAIR] + ["boss lair", STAIRS_LAIR]
    out: Labelled = []
    for label in labels:
        total = sum((p for (name, _), p in dist.items() if name == label), Fraction(0))
        out.append((f"P({label})", total))
    out.append(("P(it is the floor's last room)",
                sum((p for (_, last), p in dist.items() if last), Fraction(0))))
    return out


# -- the stairs and the boss of a floor ------------------------------------------------------


@dataclass(frozen=True)
class FloorOdds:
    forced_boss: Fraction  # no stairs in the rooms before the last: it holds stairs and boss
    has_lair: Fraction  # exploring every room, the floor holds a boss lair
    stairs_room: Fraction  # expected index of the stairs room


def floor_odds(rules: Rules) -> FloorOdds:
    """Exact odds over a floor's content, exploring until its last room (IT-18).

    A dynamic programme over what later rooms read from the log (the event kinds and
    whether the stairs are known), room by room, through :func:`room_outcomes`.
    """
    states: dict[FloorState, Fraction] = {FloorState(floor=rules.first_floor): Fraction(1)}
    forced = lair = stairs_at = Fraction(0)
    for index in range(1, rules.max_rooms + 1):
        nxt: dict[FloorState, Fraction] = {}
        for fs, p in states.items():
            for room, weight in room_outcomes(rules, fs, index):
                weight *= p
                if room.stairs and not fs.stairs_found:
                    stairs_at += weight * index
                    if index == rules.max_rooms:
                        forced += weight
                if room.kind is RoomKind.LAIR:
                    lair += weight
                if room.last:
                    continue
                after = record_room(fs, room)
                key = FloorState(fs.floor, kinds=after.kinds,
                                 stairs_room=1 if after.stairs_room else 0)
                nxt[key] = nxt.get(key, Fraction(0)) + weight
        states = nxt
    return FloorOdds(forced, lair, stairs_at)


def _floor_query(data: InvertedTower, profile: Profile, v: Mapping[str, int]) -> Labelled:
    rules = rules_for(data, profile)
    odds = floor_odds(rules)
    last = rules.max_rooms
    return [
        (f"P(no stairs before room {last}: room {last} is the stairs and the boss lair)",
         odds.forced_boss),
        ("P(the floor holds a boss lair, exploring to its last room)", odds.has_lair),
        ("expected room of the stairs", odds.stairs_room),
    ]


def _p(name: str, help: str, default: int, low: int, high: int) -> Param:
    return Param(name, help, default, low, high)


QUERIES: dict[str, OddsQuery] = {
    "hit": OddsQuery(
        "hit", "One combat roll: P(hit) and daggers used (IT-07/08/09/10/28).",
        (_p("attr", "the attribute added", 1, 0, 30), _p("floor", "floor number", 1, 1, 99),
         _p("level", "character level", 1, 0, 30),
         _p("elite", "1 for an elite or boss, 0 for an ordinary monster", 0, 0, 1),
         _p("daggers", "daggers available", 1, 0, 10)),
        _hit_query),
    "fight": OddsQuery(
        "fight", "A fight to the end by the reference player: P(survive), HP lost (IT-17).",
        (_p("monsters", "monsters in the room", 2, 1, 8),
         _p("elites", "how many of them are elite (fought last)", 0, 0, 8),
         _p("hp", "current HP", 5, 1, 30), _p("max_hp", "Max HP (at least hp)", 5, 1, 30),
         _p("attr", "the attribute added", 1, 0, 30), _p("floor", "floor number", 1, 1, 99),
         _p("level", "character level", 1, 0, 30), _p("xp", "XP towards the next level", 0, 0, 99),
         _p("daggers", "daggers carried", 1, 0, 6), _p("potions", "potions carried", 1, 0, 3)),
        _fight_query, follow={"max_hp": "hp", "monsters": "elites"}),
    "room": OddsQuery(
        "room", "What a new room holds, given what the floor already has (IT-01/02/03/18).",
        (_p("room", "the room's number on the floor", 1, 1, 99),
         _p("stairs", "1 if the stairs are already found", 0, 0, 1),
         _p("merchant", "1 if the floor has a merchant", 0, 0, 1),
         _p("bonfire", "1 if the floor has a bonfire", 0, 0, 1),
         _p("trap", "1 if the floor has a trap room", 0, 0, 1)),
        _room_query),
    "floor": OddsQuery(
        "floor", "A floor's stairs and boss: the forced boss at the last room (IT-18).",
        (), _floor_query),
}
