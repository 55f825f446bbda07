"""The exact-odds queries of 3 Dice Dungeon: ``towerpress odds three-dice-dungeon NAME``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from fractions import Fraction
from typing import Any

from generator.engine.family import OddsQuery, Param
from generator.model.common import Profile
from generator.rulesets.three_dice_dungeon.combat import hit_faces
from generator.rulesets.three_dice_dungeon.data import ThreeDiceDungeon
from generator.rulesets.three_dice_dungeon.odds import (
    attack_modifier,
    fight_odds,
    hit_chance,
    location_odds,
)
from generator.rulesets.three_dice_dungeon.parameters import DIE
from generator.rulesets.three_dice_dungeon.rules import Foe, Rules, rules_for


def _rules(data: Any, profile: Profile) -> Rules:
    if not isinstance(data, ThreeDiceDungeon):
        raise TypeError(f"expected 3 Dice Dungeon content, got {type(data).__name__}")
    return rules_for(data, profile)


def query_foe(rules: Rules, params: Mapping[str, int]) -> Foe:
    """The monster an odds query names: manual index, elite flag, d6-scale die.

    Raises:
        ValueError: no monster of the manual has that index.
    """
    monsters = rules.data.monsters
    index = params["monster"]
    if not 1 <= index <= len(monsters):
        names = ", ".join(f"{i}={m.name}" for i, m in enumerate(monsters, 1))
        raise ValueError(f"monster must be 1-{len(monsters)} ({names}), got {index}")
    name = monsters[index - 1].name
    die = params["die"]
    if die == 0:  # the monster's own face on the main level's monster column, if it has one
        faces = [r.low for r in rules.data.main_level.rows.rows if r.value.monster == name]
        die = faces[0] if faces else 1
    foe = rules.foe(name, die, bool(params["elite"]), {})
    return foe if params["abilities"] else replace(foe, abilities=())


def _plain_damage(rules: Rules, params: Mapping[str, int]) -> int:
    """A hit's damage without items: DD-28 Alt's fixed damage, else Str (DD-06 Alt: attr)."""
    if rules.scale is not None:
        return rules.scale.player_damage
    return params["attr"] if rules.damage_from_attack_stat else params["str"]


def _hit(data: Any, profile: Profile, params: Mapping[str, int]) -> list[tuple[str, Fraction]]:
    rules = _rules(data, profile)
    p = hit_chance(
        rules, params["attr"], params["bonus"], params["armour"], bool(params["bleeding"])
    )
    return [("P(hit)", p), ("P(miss: the monster hits you)", 1 - p)]


def _fight(data: Any, profile: Profile, params: Mapping[str, int]) -> list[tuple[str, Fraction]]:
    rules = _rules(data, profile)
    foe = query_foe(rules, params)
    faces = _faces(rules, foe, params)
    odds = fight_odds(rules, foe, faces, _plain_damage(rules, params), params["hp"])
    return [
        (f"P(hit) against {foe.name} (armour {foe.armour})", Fraction(faces, DIE)),
        ("P(win)", odds.win),
        ("P(die)", odds.death),
        ("expected damage taken", odds.damage),
        ("expected attack rolls", odds.rounds),
    ]


def _faces(rules: Rules, foe: Foe, params: Mapping[str, int]) -> int:
    return hit_faces(
        rules, attack_modifier(rules, params["attr"], params["bonus"], False), foe.armour
    )


def _kill(data: Any, profile: Profile, params: Mapping[str, int]) -> list[tuple[str, Fraction]]:
    rules = _rules(data, profile)
    foe = query_foe(rules, params)
    faces = _faces(rules, foe, params)
    odds = fight_odds(rules, foe, faces, _plain_damage(rules, params), None)
    return [
        (f"expected damage taken to kill {foe.name}", odds.damage),
        ("expected attack rolls", odds.rounds),
    ]


def _location(data: Any, profile: Profile, params: Mapping[str, int]) -> list[tuple[str, Fraction]]:
    rules = _rules(data, profile)
    return location_odds(rules, bool(params["undead"]), params["wheel"])


_ATTACK = (
    Param("attr", "the attacking attribute's current value", 4, 0, 50),
    Param("bonus", "lasting to-hit bonuses (Magic Swords on Dex, Jade)", 0, 0, 20),
)
_MONSTER = (
    Param("monster", "monster manual index, 1-based (2 = Goblins in the bundled manual)", 2, 1, 50),
    Param("elite", "1 for an elite (+1 to every stat)", 0, 0, 1),
    Param("die", "the monster die for the d6 scale (0: the monster's own table face)", 0, 0, 6),
)

ODDS: dict[str, OddsQuery] = {
    "hit": OddsQuery(
        "hit",
        "One attack roll against a monster's armour (Dex), crits included (DD-04, DD-23).",
        (
            *_ATTACK,
            Param("armour", "the monster's Dex (armour)", 6, 0, 50),
            Param("bleeding", "1 while an attribute is at 0 (DD-23)", 0, 0, 1),
        ),
        _hit,
    ),
    "fight": OddsQuery(
        "fight",
        "A whole fight against one monster from given HP, no items or powers (exact DP).",
        (
            *_MONSTER,
            Param("hp", "the player's HP at the start", 15, 1, 200),
            Param("str", "the player's STR (damage per hit)", 3, 1, 50),
            *_ATTACK,
            Param("abilities", "1: the monster pays Mind for its abilities (DD-08)", 1, 0, 1),
        ),
        _fight,
    ),
    "kill": OddsQuery(
        "kill",
        "Expected damage taken to kill one monster with unlimited HP (rulings.md 2.2).",
        (
            *_MONSTER,
            Param("str", "the player's STR (damage per hit)", 3, 1, 50),
            *_ATTACK,
            Param("abilities", "1: the monster pays Mind for its abilities (DD-08)", 0, 0, 1),
        ),
        _kill,
    ),
    "location": OddsQuery(
        "location",
        "The location table: kinds, monsters, exit rolls, treasures and mean XP.",
        (
            Param("undead", "1 for the undead level's table", 0, 0, 1),
            Param("wheel", "training wheels of this discovery number (0: none)", 0, 0, 6),
        ),
        _location,
    ),
}
