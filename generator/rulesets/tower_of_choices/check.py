"""The checker for generated trials: every violation, with stable codes (style.md 7).

Codes and the invariants of rulings.md 3.5 they stand for:

* ``vocabulary`` (1): a skill, item or setback name that the data does not know, or an
  original spelling that TC-13 normalises (``MELEE ATTACK``) left in a name (9).
* ``obstacle-limits`` (2): an obstacle naming fewer or more approaches than
  ``checks.obstacle_limits`` allows (none at all among them), or an approach outside them
  (DRAW, TARGET, TARGET at most DRAW).
* ``outcomes`` (2): an obstacle without a success or a failure outcome.
* ``endurance`` (4): the cards needed between two rests exceed the smallest legal deck and
  no energy drink lies in reach.
* ``room-names`` (8): an empty or repeated room name.
* ``raw-dice`` (section 4 of rulings.md: raw dice beside derived results): a roll outside
  its bound, or a derived field that the rolls do not give (for a booklet's trial, built
  from the catalogue, every room replayed in order).
* ``rests`` (TC-20): rest spots or floors that the placement rule does not give.
* a booklet's pre-made characters (issue 26, :func:`.premade.premade_violations`): the
  codes of :func:`.character.character_violations` (5, character legality: TC-14, TC-15,
  TC-16; 1 for a name the data does not know), and ``premade-derived`` (5), a deck or
  coins left that does not follow from the character.

Invariants 3 (a gamebook's section graph) and 7 (shuffle tapes) concern a booklet's
sections and tapes, which the shared checkers prove (:func:`generator.engine.gamebook.
check_sections`, :func:`generator.engine.tapes.check_tapes`, with the bounds of
:mod:`.gamebook`); 6 (challenge bookkeeping) concerns play logs, which the engine's tests
check on its own runs.
"""

from __future__ import annotations

from generator.findings import Finding
from generator.rulesets.tower_of_choices.premade import premade_violations
from generator.rulesets.tower_of_choices.rules import Rules, require_economy
from generator.rulesets.tower_of_choices.trial import (
    Approach,
    CatalogueDeal,
    Obstacle,
    Recorder,
    Room,
    Trial,
    catalogue_room,
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
    "carry-limit": 5, "premade-derived": 5,
    "room-names": 8,
    "naming": 9,
}


def check_trial(rules: Rules, trial: Trial) -> list[Finding]:
    """Every violation of rulings.md 3.5 that a generated ``trial`` shows.

    Findings come room by room, each room's in the order its parts are read (name, loot,
    rest cost, obstacles, rolls), then the rests and the endurance of the whole trial,
    then a booklet's pre-made characters; a booklet's trial has its rolls replayed after
    its rooms, all in order, since each room picks from what the rooms before it left.

    Raises:
        ValueError: the data's deck economy is not the one the engine plays
            (:func:`.rules.require_economy`).
    """
    require_economy(rules.data)
    out: list[Finding] = []
    first_named: dict[str, int] = {}
    for room in trial.rooms:
        out += _room_name(room, first_named)
        out += _original_names(rules, room)
        out += _room_vocabulary(rules, room)
        if not room.obstacles:
            out.append(Finding("obstacle-limits", _where(room.number), "the room has no obstacle"))
        for obstacle in room.obstacles:
            out += _obstacle(rules, _where(room.number, obstacle.name), obstacle)
        if not trial.from_catalogue:
            out += _rolls(rules, trial, room.number)
    if trial.from_catalogue:
        out += _catalogue_rolls(rules, trial)
    out += _rests(rules, trial)
    out += _endurance(rules, trial)
    return out + premade_violations(rules, trial.characters)


def _room_name(room: Room, first_named: dict[str, int]) -> list[Finding]:
    """Invariant 8: a room name is not empty and not repeated; ``first_named`` maps each
    name seen so far to its first room, and gains this room's."""
    where = _where(room.number)
    repeated = room.name in first_named
    first = first_named.setdefault(room.name, room.number)
    if not room.name.strip():
        return [Finding("room-names", where, "the room has no name")]
    if repeated:
        return [Finding("room-names", where, f"{room.name!r} is also the name of room {first}")]
    return []


def _original_names(rules: Rules, room: Room) -> list[Finding]:
    """Invariant 9: no room or obstacle name keeps a spelling that TC-13 normalises."""
    written = {alias.written for alias in rules.data.aliases}
    return [
        Finding("naming", _where(room.number), f"{text!r} uses {old!r}, not its TC-13 name")
        for text in (room.name, *(o.name for o in room.obstacles))
        for old in written
        if old in text
    ]


def _room_vocabulary(rules: Rules, room: Room) -> list[Finding]:
    """Invariant 1: the room's loot is an item and its rest cost a setback."""
    where = _where(room.number)
    out = []
    if room.loot is not None and room.loot not in rules.items:
        out.append(Finding("vocabulary", where, f"loot {room.loot!r} is not in the item catalogue"))
    if room.rest_cost not in rules.setbacks:
        out.append(Finding("vocabulary", where, f"rest cost {room.rest_cost!r} is not a setback"))
    return out


def _obstacle(rules: Rules, at: str, obstacle: Obstacle) -> list[Finding]:
    """One obstacle: its approaches (invariants 1 and 2), its helping items (1), then its
    outcomes (2)."""
    out = _approach_count(rules, at, obstacle)
    for approach in obstacle.approaches:
        out += _approach_skill(rules, at, approach)
        out += _approach_limits(rules, at, approach)
    out += [
        Finding("vocabulary", at, f"helping item {item!r} is not in the catalogue")
        for item in (*obstacle.helps, *(i for a in obstacle.approaches for i in a.helps))
        if item not in rules.items
    ]
    out += _outcomes(rules, at, obstacle)
    return out


def _approach_count(rules: Rules, at: str, obstacle: Obstacle) -> list[Finding]:
    """Invariant 2: the obstacle names as many approaches as ``checks.obstacle_limits``
    allows, and at least one."""
    checks = rules.data.checks
    fewest, most = checks.obstacle_fewest_approaches, checks.obstacle_most_approaches
    named = len(obstacle.approaches)
    if not named:
        return [Finding("obstacle-limits", at, "the obstacle has no approach")]
    if fewest <= named <= most:
        return []
    return [Finding("obstacle-limits", at, f"{named} approaches, expected {fewest} to {most}")]


def _approach_skill(rules: Rules, at: str, approach: Approach) -> list[Finding]:
    """Invariant 1: the approach is a skill of the data."""
    if approach.skill in rules.data.skill_names:
        return []
    return [Finding("vocabulary", at, f"{approach.skill!r} is not a skill")]


def _approach_limits(rules: Rules, at: str, approach: Approach) -> list[Finding]:
    """Invariant 2: DRAW and TARGET within ``checks.obstacle_limits``."""
    checks = rules.data.checks
    skill, draw, target = approach.skill, approach.draw, approach.target
    out = []
    if draw < checks.obstacle_min_draw:
        out.append(
            Finding(
                "obstacle-limits", at, f"{skill}: DRAW {draw} is below {checks.obstacle_min_draw}"
            )
        )
    if target < checks.obstacle_min_target:
        out.append(
            Finding(
                "obstacle-limits",
                at,
                f"{skill}: TARGET {target} is below {checks.obstacle_min_target}",
            )
        )
    if checks.obstacle_target_at_most_draw and target > draw:
        out.append(
            Finding("obstacle-limits", at, f"{skill}: TARGET {target} is above DRAW {draw}")
        )
    return out


def _outcomes(rules: Rules, at: str, obstacle: Obstacle) -> list[Finding]:
    """Invariant 2: a success and a failure outcome, the failure a known setback (1)."""
    out = []
    if not obstacle.success:
        out.append(Finding("outcomes", at, "the obstacle has no success outcome"))
    if not obstacle.failure:
        out.append(Finding("outcomes", at, "the obstacle has no failure outcome"))
    elif obstacle.failure not in rules.setbacks:
        out.append(
            Finding("vocabulary", at, f"setback {obstacle.failure!r} is not in the setbacks table")
        )
    return out


def _rolls(rules: Rules, trial: Trial, number: int) -> list[Finding]:
    """The raw dice (rulings.md section 4): each roll within its bound, and every derived
    field of the room what the rolls give."""
    room = trial.rooms[number - 1]
    where = _where(number)
    for roll in room.rolls:
        if not 0 <= roll.value < roll.bound:
            return [Finding("raw-dice", where, f"roll {roll.value} is outside [0, {roll.bound})")]
    try:
        again = derive_room(rules, number, Recorder(iter(room.rolls)))
    except ValueError as error:
        return [Finding("raw-dice", where, f"the rolls do not replay: {error!r}")]
    out = []
    if len(again.rolls) != len(room.rolls):
        out.append(Finding("raw-dice", where, "the room has rolls that nothing uses"))
    for field in ("name", "obstacles", "loot", "rest_cost"):
        if getattr(again, field) != getattr(room, field):
            out.append(Finding("raw-dice", where, f"{field} does not follow from the rolls"))
    return out


def _catalogue_rolls(rules: Rules, trial: Trial) -> list[Finding]:
    """The raw picks of a booklet's trial (rulings.md section 4): each within its bound,
    and every room what its picks give after the rooms before it (TC-20), its rest spot
    included where the rules rest after it."""
    for index, room in enumerate(trial.rooms, 1):
        if room.number != index:
            return [Finding("raw-dice", _where(room.number),
                            f"room {index} of the trial is numbered {room.number}")]
        for roll in room.rolls:
            if not 0 <= roll.value < roll.bound:
                return [Finding("raw-dice", _where(room.number),
                                f"pick {roll.name!r} {roll.value} is outside [0, {roll.bound})")]
    deal, derived, out = CatalogueDeal(), list[Room](), list[Finding]()
    for room in trial.rooms:
        rec = Recorder(iter(room.rolls))
        try:
            derived.append(catalogue_room(rules, room.number, room.number == len(trial.rooms),
                                          rec, deal))
        except ValueError as error:
            # The rooms after it pick from what this one leaves: they cannot be replayed.
            return [*out, Finding("raw-dice", _where(room.number),
                                  f"the picks do not replay: {error}")]
        if len(rec.rolls) != len(room.rolls):
            out.append(Finding("raw-dice", _where(room.number),
                               "the room has picks that nothing uses"))
    for room, again in zip(trial.rooms, place_rests(rules, derived), strict=True):
        out += [Finding("raw-dice", _where(room.number), f"{field} does not follow from the picks")
                for field in ("name", "obstacles", "loot", "rest_cost", "rest_place")
                if getattr(again, field) != getattr(room, field)]
    return out


def _rests(rules: Rules, trial: Trial) -> list[Finding]:
    """TC-20: rest spots and floors where the placement rule puts them."""
    placed = place_rests(rules, list(trial.rooms))
    return [
        Finding(
            "rests",
            _where(room.number),
            f"expected rest spot {want.rest_spot} on floor {want.floor}, got "
            f"{room.rest_spot} on floor {room.floor} (TC-20)",
        )
        for room, want in zip(trial.rooms, placed, strict=True)
        if (room.rest_spot, room.floor) != (want.rest_spot, want.floor)
    ]


def _endurance(rules: Rules, trial: Trial) -> list[Finding]:
    """Invariant 4: between rests, the cheapest approaches fit the smallest legal deck,
    unless an energy drink was found on the way."""
    out = []
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
    return out
