"""The checker for generated trials: every violation, with stable codes (style.md 7).

Codes and the invariants of rulings.md 3.5 they stand for:

* ``vocabulary`` (1): a skill, item or setback name that the data does not know, or an
  original spelling that TC-13 normalises (``MELEE ATTACK``) left in a name (9).
* ``obstacle-limits`` (2): an obstacle without approaches, or an approach outside
  ``checks.obstacle_limits`` (DRAW, TARGET, TARGET at most DRAW).
* ``outcomes`` (2): an obstacle without a success or a failure outcome.
* ``endurance`` (4): the cards needed between two rests exceed the smallest legal deck and
  no energy drink lies in reach.
* ``room-names`` (8): an empty or repeated room name.
* ``raw-dice`` (section 4 of rulings.md: raw dice beside derived results): a roll outside
  its bound, or a derived field that the rolls do not give.
* ``rests`` (TC-20): rest spots or floors that the placement rule does not give.

Invariants 3 (a gamebook's section graph), 6 (challenge bookkeeping of play logs) and 7
(shuffle tapes) concern booklets and play logs; the engine's tests check 6 on its own runs.
"""

from __future__ import annotations

from generator.findings import Finding
from generator.rulesets.tower_of_choices.rules import Rules, require_economy
from generator.rulesets.tower_of_choices.trial import (
    Recorder,
    Trial,
    derive_room,
    place_rests,
)


def _where(room: int, obstacle: str = "") -> str:
    return f"Room {room}" + (f"/{obstacle}" if obstacle else "")


#: Each code (of this checker and of character.character_violations) and the invariant of
#: rulings.md 3.5 it checks; 0 for the raw dice, which every derived value is checked from.
INVARIANT = {
    "raw-dice": 0,
    "unknown-skill": 1, "unknown-ability": 1, "unknown-item": 1, "vocabulary": 1,
    "obstacle-limits": 2, "outcomes": 2,
    "rests": 4, "endurance": 4,
    "skill-count": 5, "repeated-skill": 5, "item-count": 5, "coins": 5, "over-budget": 5,
    "carry-limit": 5,
    "room-names": 8,
    "naming": 9,
}

def check_trial(rules: Rules, trial: Trial) -> list[Finding]:
    """Every violation of rulings.md 3.5 that a generated ``trial`` shows.

    Raises:
        ValueError: the data's deck economy is not the one the engine plays
            (:func:`.rules.require_economy`).
    """
    require_economy(rules.data)
    data = rules.data
    checks = data.checks
    out: list[Finding] = []
    skills = set(data.skill_names)
    written = {alias.written for alias in data.aliases}

    def bad(code: str, where: str, message: str) -> None:
        out.append(Finding(code, where, message))

    names: dict[str, int] = {}
    for room in trial.rooms:
        where = _where(room.number)
        if not room.name.strip():
            bad("room-names", where, "the room has no name")
        elif room.name in names:
            bad(
                "room-names", where, f"{room.name!r} is also the name of room {names[room.name]}"
            )
        names.setdefault(room.name, room.number)
        for text in (room.name, *(o.name for o in room.obstacles)):
            for old in written:
                if old in text:
                    bad("naming", where, f"{text!r} uses {old!r}, not its TC-13 name")
        if room.loot is not None and room.loot not in rules.items:
            bad("vocabulary", where, f"loot {room.loot!r} is not in the item catalogue")
        if room.rest_cost not in rules.setbacks:
            bad("vocabulary", where, f"rest cost {room.rest_cost!r} is not a setback")
        if not room.obstacles:
            bad("obstacle-limits", where, "the room has no obstacle")
        for obstacle in room.obstacles:
            at = _where(room.number, obstacle.name)
            if not obstacle.approaches:
                bad("obstacle-limits", at, "the obstacle has no approach")
            for a in obstacle.approaches:
                if a.skill not in skills:
                    bad("vocabulary", at, f"{a.skill!r} is not a skill")
                if a.draw < checks.obstacle_min_draw:
                    bad(
                        "obstacle-limits",
                        at,
                        f"{a.skill}: DRAW {a.draw} is below {checks.obstacle_min_draw}",
                    )
                if a.target < checks.obstacle_min_target:
                    bad(
                        "obstacle-limits",
                        at,
                        f"{a.skill}: TARGET {a.target} is below {checks.obstacle_min_target}",
                    )
                if checks.obstacle_target_at_most_draw and a.target > a.draw:
                    bad(
                        "obstacle-limits",
                        at,
                        f"{a.skill}: TARGET {a.target} is above DRAW {a.draw}",
                    )
            for item in obstacle.helps:
                if item not in rules.items:
                    bad("vocabulary", at, f"helping item {item!r} is not in the catalogue")
            if not obstacle.success:
                bad("outcomes", at, "the obstacle has no success outcome")
            if not obstacle.failure:
                bad("outcomes", at, "the obstacle has no failure outcome")
            elif obstacle.failure not in rules.setbacks:
                bad(
                    "vocabulary",
                    at,
                    f"setback {obstacle.failure!r} is not in the setbacks table",
                )
        _check_rolls(rules, room.number, trial, out)
    _check_rests(rules, trial, out)
    _check_endurance(rules, trial, out)
    return out


def _check_rolls(rules: Rules, number: int, trial: Trial, out: list[Finding]) -> None:
    room = trial.rooms[number - 1]
    where = _where(number)
    for roll in room.rolls:
        if not 0 <= roll.value < roll.bound:
            out.append(
                Finding("raw-dice", where, f"roll {roll.value} is outside [0, {roll.bound})")
            )
            return
    try:
        again = derive_room(rules, number, Recorder(iter(room.rolls)))
    except (StopIteration, ValueError) as error:
        out.append(Finding("raw-dice", where, f"the rolls do not replay: {error!r}"))
        return
    if len(again.rolls) != len(room.rolls):
        out.append(Finding("raw-dice", where, "the room has rolls that nothing uses"))
    for field in ("name", "obstacles", "loot", "rest_cost"):
        if getattr(again, field) != getattr(room, field):
            out.append(Finding("raw-dice", where, f"{field} does not follow from the rolls"))


def _check_rests(rules: Rules, trial: Trial, out: list[Finding]) -> None:
    placed = place_rests(rules, list(trial.rooms))
    for room, want in zip(trial.rooms, placed, strict=True):
        if (room.rest_spot, room.floor) != (want.rest_spot, want.floor):
            out.append(
                Finding(
                    "rests",
                    _where(room.number),
                    f"expected rest spot {want.rest_spot} on floor {want.floor}, got "
                    f"{room.rest_spot} on floor {room.floor} (TC-20)",
                )
            )


def _check_endurance(rules: Rules, trial: Trial, out: list[Finding]) -> None:
    """Invariant 4: between rests, the cheapest approaches fit the smallest legal deck,
    unless an energy drink was found on the way."""
    spent, drink, start = 0, False, 1
    for room in trial.rooms:
        spent += room.cards_needed
        if spent > rules.min_deck and not drink:
            out.append(
                Finding(
                    "endurance",
                    _where(room.number),
                    f"rooms {start}-{room.number} need {spent} cards between rests, more "
                    f"than the smallest deck of {rules.min_deck}",
                )
            )
            spent, drink, start = 0, False, room.number + 1
            continue
        drink = drink or room.loot in rules.restore_items
        rests = trial.floor_end(room) if rules.floors else room.rest_spot
        if rests:
            spent, drink, start = 0, False, room.number + 1
