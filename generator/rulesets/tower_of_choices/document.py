"""A booklet's trial as its JSON holds it, written and read back (issue 25).

:func:`dungeon_json` writes the trial under the booklet's ``rooms`` key (and the numbers of
its two endings), with every raw pick beside what it decided (rulings.md section 4) and
every number a renderer prints: each approach's DRAW, TARGET and what each helping item
adds; and, for the character page (issue 26), its pre-made ``characters`` and the build
worksheet's ``creation`` (:mod:`.premade`). :func:`read_dungeon` rebuilds the
:class:`.trial.Trial` from it exactly as written, derived fields included (a pre-made
character's deck and coins left too), so that :func:`.check.check_trial` finds a changed
pick or a changed derived field; it refuses only what it cannot stand for, a room or an
obstacle the catalogue has no such name for.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from generator.engine.gamebook import Key
from generator.engine.rng import normalise_seed
from generator.errors import TowerpressError
from generator.rulesets.tower_of_choices.premade import (
    characters_json,
    creation_json,
    read_characters,
)
from generator.rulesets.tower_of_choices.rules import Rules
from generator.rulesets.tower_of_choices.trial import Approach, Obstacle, Roll, Room, Trial


def dungeon_json(rules: Rules, trial: Trial, numbers: Mapping[Key, int],
                 rests_after: Callable[[Room], bool]) -> dict[str, Any]:
    """The booklet's dungeon keys for ``trial``, its sections numbered by ``numbers``, and
    its character page's."""
    return {"rooms": [_room(room, numbers, rests_after(room)) for room in trial.rooms],
            "victory": numbers[("victory",)], "defeat": numbers[("defeat",)],
            "characters": characters_json(trial.characters), "creation": creation_json(rules)}


def _room(room: Room, numbers: Mapping[Key, int], rests: bool) -> dict[str, Any]:
    n = room.number
    return {
        "number": n, "name": room.name, "floor": room.floor, "section": numbers[("room", n)],
        "end": numbers.get(("room-end", n)),
        "rest": {"section": numbers[("rest", n)], "place": room.rest_place} if rests else None,
        "loot": room.loot, "rest_cost": room.rest_cost,
        "picks": [{"name": r.name, "bound": r.bound, "value": r.value} for r in room.rolls],
        "obstacles": [_obstacle(n, k, o, numbers) for k, o in enumerate(room.obstacles, 1)],
    }


def _obstacle(n: int, k: int, obstacle: Obstacle, numbers: Mapping[Key, int]
              ) -> dict[str, Any]:
    return {
        "section": numbers[("obstacle", n, k)], "name": obstacle.name,
        "approaches": [{
            "skill": a.skill, "draw": a.draw, "target": a.target,
            "items": [{"item": item, "draw": draw, "target": target}
                      for item, (draw, target) in zip(a.helps, a.help_steps, strict=True)],
            "section": numbers[("check", n, k, a.skill)],
        } for a in obstacle.approaches],
        "success": numbers[("success", n, k)], "failure": numbers[("failure", n, k)],
        "setback": obstacle.failure, "rest_before": numbers.get(("rest-here", n, k)),
    }


def read_dungeon(rules: Rules, document: Mapping[str, Any]) -> Trial:
    """The trial of a booklet's JSON ``document`` (valid against its schema), as written.

    Raises:
        TowerpressError: a room or an obstacle that the catalogue does not name, said
            with where it is.
    """
    rooms = tuple(_read_room(rules, i, room) for i, room in enumerate(document["rooms"]))
    return Trial(normalise_seed(document["seed"]), rules.profile_id, (), rooms,
                 from_catalogue=True, characters=read_characters(document["characters"]))


def _read_room(rules: Rules, index: int, room: Mapping[str, Any]) -> Room:
    catalogue = rules.data.catalogue
    names = {p.name for p in catalogue.rooms} | {catalogue.top.name}
    if room["name"] not in names:
        raise TowerpressError(f"rooms[{index}].name: {room['name']!r} is not a room of the "
                              "catalogue")
    rest = room["rest"]
    obstacles = tuple(_read_obstacle(rules, f"rooms[{index}].obstacles[{j}]", o)
                      for j, o in enumerate(room["obstacles"]))
    rolls = tuple(Roll(p["bound"], p["value"], p["name"]) for p in room["picks"])
    # TC-20: a rest after the room is its rest spot, unless floors end with a rest (Alt).
    return Room(room["number"], room["name"], obstacles, room["loot"],
                rest is not None and not rules.floors, room["rest_cost"], room["floor"],
                rolls, rest["place"] if rest is not None else "")


def _read_obstacle(rules: Rules, where: str, obstacle: Mapping[str, Any]) -> Obstacle:
    try:
        rules.data.catalogue.obstacle(obstacle["name"])
    except KeyError:
        raise TowerpressError(f"{where}.name: {obstacle['name']!r} is not an obstacle of the "
                              "catalogue") from None
    approaches = tuple(
        Approach(a["skill"], a["draw"], a["target"], (),
                 tuple(i["item"] for i in a["items"]),
                 tuple((i["draw"], i["target"]) for i in a["items"]))
        for a in obstacle["approaches"])
    return Obstacle(obstacle["name"], approaches, (), obstacle["setback"])
