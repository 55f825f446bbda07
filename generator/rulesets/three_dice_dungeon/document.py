"""A pre-rolled 3 Dice Dungeon as the booklet's JSON, written and read back.

:func:`dungeon_json` writes the keys a booklet holds beside the shared ones
(``booklet.schema.json`` describes them): the ``character``, the dungeon's
``substitution`` (DD-09), the XP ``ladder`` and the ``levels``, each with its grid, its
start, its roaming table and its cells.  A cell keeps its raw dice under ``dice`` and
beside them everything they decided (its location, monster with its numbers, treasure,
XP and doors), so the printed booklet renders the map and every location without
deciding anything.

:func:`read_dungeon` rebuilds the :class:`.dungeon.Dungeon` exactly as the JSON has it:
the raw dice and the derived fields as recorded, never recomputed, so that
:func:`.check.check_dungeon` finds a changed die or a changed derived value.  Only what
the JSON does not record is taken from the data: a monster's abilities and loot, by the
manual monster it names.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from generator.engine.gamebook import Key
from generator.engine.rng import normalise_seed
from generator.errors import TowerpressError
from generator.rulesets.three_dice_dungeon.dungeon import CharacterRoll, Dungeon
from generator.rulesets.three_dice_dungeon.effects import ATTRIBUTES, Stat
from generator.rulesets.three_dice_dungeon.entities import Monster
from generator.rulesets.three_dice_dungeon.levels import (
    Cell,
    Grid,
    Level,
    LootRoll,
    MonsterRoll,
    Pos,
    TreasureRoll,
)
from generator.rulesets.three_dice_dungeon.rules import Foe, Rules

Json = dict[str, Any]
Numbers = Mapping[Key, int]


def cell_key(level: int, pos: Pos) -> Key:
    """The section key of a location (:mod:`.gamebook`)."""
    return ("cell", level, pos[0], pos[1])


def label(pos: Pos) -> str:
    """A square's name on the printed grid: its column's letter and its row, from the
    north-west corner ("A1"; the default start is "D4")."""
    return f"{chr(ord('A') + pos[0])}{pos[1] + 1}"


def letters(rules: Rules) -> tuple[str, ...]:
    """The sides' letters ("N", "E", "S", "W"), from the data's side names."""
    return tuple(side[0].upper() for side in rules.data.sides)


# -- writing --------------------------------------------------------------------------------


def dungeon_json(rules: Rules, dungeon: Dungeon, numbers: Numbers) -> Json:
    """The booklet's dungeon keys; ``numbers`` are the sections' printed numbers."""
    return {
        "character": character_json(rules, dungeon.character),
        "substitution": _substitution(dungeon.substitution),
        "ladder": [{"level": lv, "xp": xp} for lv, xp in dungeon.ladder],
        "levels": [level_json(rules, level, numbers) for level in dungeon.levels],
    }


def character_json(rules: Rules, character: CharacterRoll) -> Json:
    """The creation dice (DD-01), the attributes they give and the HP (DD-02)."""
    spec = rules.data.character
    return {
        "rejected": [list(t) for t in character.rejected],
        "dice": list(character.dice),
        "attributes": {s.value: character.value(s) for s in ATTRIBUTES},
        "class": character.klass or None,
        "hp": character.hp,
        "level": spec.start_level,
        "xp": spec.start_xp,
        "coins": spec.start_coins,
    }


def _substitution(pairs: Sequence[tuple[str, str]]) -> list[Json]:
    return [{"table": name, "monster": used} for name, used in pairs]


def level_json(rules: Rules, level: Level, numbers: Numbers) -> Json:
    sides = letters(rules)
    return {
        "number": level.number,
        "theme": "undead" if level.undead else "main",
        "title": rules.table(level.undead).title,
        "attempt": level.attempt,
        "grid": {"width": level.grid.width, "height": level.grid.height},
        "start": list(level.start),
        "stuck": level.stuck,
        "temples": [list(p) for p in level.temples],
        "descents": [list(p) for p in level.descents],
        "substitution": _substitution(level.substitution),
        "roaming": roaming_json(rules, level),
        "cells": [cell_json(rules, level, c, numbers[cell_key(level.number, c.pos)], sides)
                  for c in level.cells],
    }


def roaming_foes(rules: Rules, level: Level) -> tuple[dict[int, Foe], dict[int, Foe]]:
    """Returning to Danger on ``level`` (DD-21), as :func:`.game.roaming_monster` plays
    it: the roaming die's faces that bring a monster, and under the Alt reading the
    monster column's faces that can name it (the others are rolled again)."""
    roaming = rules.data.exploring.roaming
    subst = dict(level.substitution)
    rows: dict[int, Foe] = {}
    column: dict[int, Foe] = {}
    for face in range(1, roaming.table.faces + 1):
        name = roaming.table.lookup(face)
        if name and not rules.roaming_alt:
            rows[face] = rules.foe(name, face, roaming.elite, subst)
        elif rules.roaming_alt and face not in roaming.alt_reroll:
            column[face] = rules.foe(rules.row(level.undead, face).monster, face,
                                     roaming.elite, subst)
    return rows, column


def roaming_json(rules: Rules, level: Level) -> Json:
    """The level's roaming table, every monster with its numbers (DD-21)."""
    roaming = rules.data.exploring.roaming
    rows, column = roaming_foes(rules, level)
    return {
        "rows": [{"roll": face, "comes": bool(roaming.table.lookup(face)),
                  "monster": foe_json(rules, rows[face]) if face in rows else None}
                 for face in range(1, roaming.table.faces + 1)],
        "column": [{"roll": face, "monster": foe_json(rules, foe)}
                   for face, foe in sorted(column.items())],
        "xp_per_pip": roaming.alt_xp_per_pip if rules.roaming_alt else 0,
    }


def foe_json(rules: Rules, foe: Foe) -> Json:
    """A monster as fought: its numbers after every rule that sets them, its manual
    monster, its ability note (none when abilities are not used) and its loot."""
    manual = rules.manual(foe.base)
    return {
        "name": foe.name,
        "base": foe.base,
        "elite": foe.elite,
        "dragon": foe.dragon,
        "hp": foe.hp,
        "armour": foe.armour,
        "damage": foe.damage,
        "mind": foe.mind,
        "abilities": manual.note if foe.abilities else None,
        "loot": {"coins": foe.loot.coins, "items": list(foe.loot.items),
                 "label": foe.loot.label or None, "chart": foe.loot.chart or None},
    }


def cell_json(rules: Rules, level: Level, cell: Cell, section: int, sides: Sequence[str]
              ) -> Json:
    artifact = (rules.data.artifacts.lookup(cell.artifact_die).name
                if cell.artifact_die is not None else None)
    return {
        "x": cell.pos[0],
        "y": cell.pos[1],
        "label": label(cell.pos),
        "section": section,
        "order": cell.order,
        "distance": cell.distance,
        "location": cell.kind,
        "location_name": rules.kinds[cell.kind].name,
        "monster": {**foe_json(rules, cell.monster.foe), "base_face": cell.monster.base_face},
        "treasure": {"item": cell.treasure.item,
                     "label": rules.row(level.undead, cell.treasure.die).treasure.label or None},
        "loot": {"item": cell.loot.item} if cell.loot is not None else None,
        "artifact": {"item": artifact} if artifact is not None else None,
        "xp": cell.xp,
        "exits": [sides[s] for s in cell.exits],
        "exit_count": cell.exit_count,
        "entrance_above": cell.entrance_above,
        "dropped": cell.dropped,
        "forced": [sides[s] for s in cell.forced],
        "fallback": [sides[s] for s in cell.fallback],
        "dice": cell_dice(cell),
    }


def cell_dice(cell: Cell) -> Json:
    """Every raw die of a location, by name (the section prints the same)."""
    m = cell.monster
    return {
        "location": cell.location_die,
        "monster": list(m.rolls),  # training-wheel rerolls first; the last counts (DD-29)
        "elite_base": list(m.elite_rolls),  # DD-13: the last counts
        "elite_xp": list(m.xp_rolls),  # DD-14
        "treasure": cell.treasure.die,
        "treasure_charts": _charts(cell.treasure.chart_rolls),
        "exits": [list(roll) for roll in cell.exit_rolls],  # several under DD-11 Alt
        "artifact": cell.artifact_die,
        "loot_charts": _charts(cell.loot.chart_rolls) if cell.loot is not None else [],
    }


def _charts(rolls: Sequence[tuple[str, int]]) -> list[Json]:
    return [{"chart": chart, "die": face} for chart, face in rolls]


# -- reading --------------------------------------------------------------------------------


def read_dungeon(rules: Rules, document: Mapping[str, Any]) -> Dungeon:
    """The dungeon of a booklet's JSON (valid against the schemas), as written.

    Raises:
        TowerpressError: the JSON names a location kind, a monster, an item or a class
            the content does not have, or its seed is blank; the message says where.
    """
    try:
        seed = normalise_seed(document["seed"])
    except ValueError as exc:
        raise TowerpressError(f"seed: {exc}") from None
    return Dungeon(
        seed=seed,
        profile=rules.profile.id,
        character=read_character(rules, document["character"]),
        substitution=_pairs(document["substitution"]),
        levels=tuple(read_level(rules, level) for level in document["levels"]),
        ladder=tuple((step["level"], step["xp"]) for step in document["ladder"]),
    )


def read_character(rules: Rules, data: Json) -> CharacterRoll:
    """The creation dice and what they gave.  The order the dice were placed in is read
    back from the attributes: each die goes to the first attribute (in the data's order)
    still free that shows its value, or to none (HP, which no die can be) when none does,
    so that a changed attribute is found (DD-01)."""
    dice = tuple(data["dice"])
    values = data["attributes"]
    placed: list[Stat] = []
    for die in dice:
        free = [s for s in ATTRIBUTES if s not in placed and values[s.value] == die]
        placed.append(free[0] if free else Stat.HP)
    klass = data["class"] or ""
    if klass and klass not in {c.name for c in rules.classes}:
        raise TowerpressError(f"character: {klass!r} is not a class of this profile")
    return CharacterRoll(tuple(tuple(t) for t in data["rejected"]), dice, tuple(placed),
                         klass, data["hp"])


def _pairs(rows: Sequence[Json]) -> tuple[tuple[str, str], ...]:
    return tuple((row["table"], row["monster"]) for row in rows)


def _pos(value: Sequence[int]) -> Pos:
    return (value[0], value[1])


def read_level(rules: Rules, data: Json) -> Level:
    grid = Grid(data["grid"]["width"], data["grid"]["height"], _pos(data["start"]))
    where = f"level {data['number']}"
    sides = letters(rules)
    return Level(
        number=data["number"],
        undead=data["theme"] == "undead",
        attempt=data["attempt"],
        grid=grid,
        substitution=_pairs(data["substitution"]),
        cells=tuple(read_cell(rules, cell, f"{where} / cell {cell['label']}", sides)
                    for cell in data["cells"]),
        temples=tuple(_pos(p) for p in data["temples"]),
        descents=tuple(_pos(p) for p in data["descents"]),
        stuck=data["stuck"],
    )


def read_cell(rules: Rules, data: Json, where: str, sides: Sequence[str]) -> Cell:
    if data["location"] not in rules.kinds:
        raise TowerpressError(f"{where}: {data['location']!r} is not a kind of location")
    dice = data["dice"]
    return Cell(
        pos=(data["x"], data["y"]),
        order=data["order"],
        distance=data["distance"],
        location_die=dice["location"],
        kind=data["location"],
        exit_rolls=tuple(tuple(roll) for roll in dice["exits"]),
        exit_count=data["exit_count"],
        exits=tuple(sides.index(s) for s in data["exits"]),
        dropped=data["dropped"],
        forced=tuple(sides.index(s) for s in data["forced"]),
        fallback=tuple(sides.index(s) for s in data["fallback"]),
        entrance_above=data["entrance_above"],
        monster=_monster_roll(rules, data["monster"], dice, where),
        treasure=TreasureRoll(dice["treasure"], _chart_rolls(dice["treasure_charts"]),
                              _item(rules, data["treasure"]["item"], where)),
        artifact_die=dice["artifact"],
        xp=data["xp"],
        loot=_loot(rules, data["loot"], dice["loot_charts"], where),
    )


def _chart_rolls(rows: Sequence[Json]) -> tuple[tuple[str, int], ...]:
    return tuple((row["chart"], row["die"]) for row in rows)


def _item(rules: Rules, name: str, where: str) -> str:
    if name not in rules.items:
        raise TowerpressError(f"{where}: {name!r} is not an item")
    return name


def _loot(rules: Rules, data: Json | None, charts: Sequence[Json], where: str
          ) -> LootRoll | None:
    """A loot roll (DD-33 Alt); its dice without its item read as an item of none, which
    the checker finds."""
    if data is None and not charts:
        return None
    item = _item(rules, data["item"], where) if data is not None else ""
    return LootRoll(_chart_rolls(charts), item)


def _monster_roll(rules: Rules, data: Json, dice: Json, where: str) -> MonsterRoll:
    foe = read_foe(rules, data, where)
    return MonsterRoll(tuple(dice["monster"]), tuple(dice["elite_base"]), data["base_face"],
                       tuple(dice["elite_xp"]), data["name"], foe)


def _manual(rules: Rules, name: str, where: str) -> Monster:
    for monster in rules.data.monsters:
        if monster.name == name:
            return monster
    raise TowerpressError(f"{where}: {name!r} is not a monster of the manual")


def read_foe(rules: Rules, data: Json, where: str) -> Foe:
    """A monster with its numbers as recorded; its abilities (none on the d6 scale,
    DD-28) and loot (DD-33) are its manual monster's."""
    base = _manual(rules, data["base"], where)
    scale = rules.scale
    abilities = base.abilities if scale is None or scale.monster_abilities else ()
    return Foe(name=data["name"], base=base.name, hp=data["hp"], damage=data["damage"],
               armour=data["armour"], mind=data["mind"], abilities=abilities,
               elite=data["elite"], loot=rules.loot(base), dragon=data["dragon"])
