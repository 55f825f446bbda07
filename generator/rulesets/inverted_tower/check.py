"""The checker of pre-rolled floors: every violation, each with a stable code.

:func:`check_floor` never stops at the first problem (style.md, habit 2). Codes map to
the invariants of rulings.md section 1.5 (:data:`INVARIANT`); ``where`` reads
``floor 2/room 5``. A floor is valid when the list is empty. Derived fields are checked by
resolving every room again from its raw dice, and the structure by direct counting, so
a tampered booklet shows both what it claims and which rule it breaks.
"""

from __future__ import annotations

from collections import Counter

from generator.findings import Finding
from generator.rulesets.inverted_tower.booklet import FloorContent
from generator.rulesets.inverted_tower.rooms import (
    EVENT_OF_ROOM,
    NeedMoreDice,
    record_room,
    resolve_room,
    wander_foes,
    wander_treasure,
)
from generator.rulesets.inverted_tower.rules import Rules
from generator.rulesets.inverted_tower.state import FloorState, RoomContent, RoomKind

#: Each code and the invariant of rulings.md 1.5 it checks.
INVARIANT = {
    "die-range": 1,
    "derived-mismatch": 1,
    "room-numbering": 2,
    "too-many-rooms": 2,
    "after-last": 2,
    "stairs-count": 3,
    "forced-stairs": 3,
    "event-repeat": 4,
    "event-monsters": 5,
    "encounter-size": 5,
    "elite": 5,
    "dead-end": 6,
    "boss-lair": 7,
    "trap-kind": 8,
    "treasure": 9,
    "tape-short": 11,
}


def check_floor(rules: Rules, content: FloorContent) -> list[Finding]:
    """Every violation of rulings.md 1.5 in one pre-rolled floor.

    The order is stable: the floor-wide checks of invariants 1 to 4, then invariants 5 to
    9 room by room, then the combat tape (invariant 11).
    """
    floor = f"floor {content.floor}"
    out = [
        *_dice_in_range(rules, content, floor),
        *_wandering_derived(rules, content, floor),
        *_rooms_derived(rules, content, floor),
        *_numbering(rules, content.rooms, floor),
        *_one_stairs(rules, content.rooms, floor),
        *_events_once(rules, content.rooms, floor),
    ]
    for room in content.rooms:
        out += _room_findings(rules, content, room, f"{floor}/room {room.index}")
    out += _tape_covers(content, floor)
    return out


def _dice_in_range(rules: Rules, content: FloorContent, floor: str) -> list[Finding]:
    """Invariant 1: every room die and every combat die is a face of the die."""
    faces = range(1, rules.faces + 1)
    out: list[Finding] = []
    for room in content.rooms:
        bad = [d for d in room.roll.dice() if d not in faces]
        if bad:
            out.append(Finding("die-range", f"{floor}/room {room.index}",
                               f"expected dice 1..{rules.faces}, got {bad!r}"))
    for i, die in enumerate(content.combat_tape):
        if die not in faces:
            out.append(Finding("die-range", f"{floor}/combat tape[{i}]",
                               f"expected 1..{rules.faces}, got {die}"))
    return out


def _wandering_derived(rules: Rules, content: FloorContent, floor: str) -> list[Finding]:
    """Invariant 1: each wandering entry's dice are faces, and its foes and treasure follow."""
    faces = range(1, rules.faces + 1)
    out: list[Finding] = []
    for i, entry in enumerate(content.wandering):
        where = f"{floor}/wandering[{i}]"
        roll = entry.roll
        if any(d not in faces for d in (roll.check, roll.elite, roll.count, roll.treasure)):
            out.append(Finding("die-range", where,
                               f"expected dice 1..{rules.faces}, got {roll!r}"))
            continue
        foes = wander_foes(rules, roll)
        if entry.foes != foes or entry.treasure != (wander_treasure(rules, roll) if foes else None):
            out.append(Finding("derived-mismatch", where,
                               f"the dice give {foes!r}, printed {entry.foes!r}"))
    return out


def _rooms_derived(rules: Rules, content: FloorContent, floor: str) -> list[Finding]:
    """Invariant 1: each room, resolved again from its raw dice, is the room printed.

    Stops at the first room whose dice do not resolve or are not faces of the die, and once
    the floor has ended (rooms past its end are invariant 2's).
    """
    out: list[Finding] = []
    fs = FloorState(content.floor)
    faces = range(1, rules.faces + 1)
    for room in content.rooms:
        where = f"{floor}/room {room.index}"
        if fs.last or fs.explored >= rules.max_rooms:
            break
        if any(d not in faces for d in room.roll.dice()):
            break  # a die off the die is invariant 1's "die-range"; the tables cannot read it
        try:
            expected = resolve_room(rules, fs, room.roll)
        except (NeedMoreDice, IndexError, ValueError) as exc:
            out.append(Finding("derived-mismatch", where,
                               f"the raw dice do not resolve: {exc!r}"))
            break
        if expected != room:
            out.append(Finding("derived-mismatch", where,
                               f"the dice give {_describe(expected)}, printed {_describe(room)}"))
        fs = record_room(fs, room)
    return out


def _numbering(rules: Rules, rooms: tuple[RoomContent, ...], floor: str) -> list[Finding]:
    """Invariant 2: rooms numbered from 1, within the room limit, nothing after the last."""
    out: list[Finding] = []
    if [r.index for r in rooms] != list(range(1, len(rooms) + 1)):
        out.append(Finding("room-numbering", floor,
                           f"expected rooms 1..{len(rooms)}, got {[r.index for r in rooms]!r}"))
    if len(rooms) > rules.max_rooms:
        out.append(Finding("too-many-rooms", floor,
                           f"expected at most {rules.max_rooms}, got {len(rooms)}"))
    lasts = [r.index for r in rooms if r.last]
    if rooms and (not rooms[-1].last or lasts != [rooms[-1].index]):
        out.append(Finding("after-last", floor,
                           f"expected only the final room to be last, got {lasts!r}"))
    return out


def _one_stairs(rules: Rules, rooms: tuple[RoomContent, ...], floor: str) -> list[Finding]:
    """Invariant 3: one stairs room; a floor that reaches the limit without one forces it."""
    out: list[Finding] = []
    stairs = [r.index for r in rooms if r.stairs]
    if len(stairs) != 1:
        out.append(Finding("stairs-count", floor,
                           f"expected exactly one stairs room, got {stairs!r}"))
    natural = [r.index for r in rooms if r.kind is RoomKind.STAIRS and r.index < rules.max_rooms]
    if not natural and len(rooms) == rules.max_rooms:
        last = rooms[-1]
        lair_ok = last.kind is RoomKind.LAIR or not rules.forced_lair
        if not (last.stairs and lair_ok):
            out.append(Finding("forced-stairs", f"{floor}/room {last.index}",
                               "no stairs before the last room, so it must be the stairs "
                               "and the boss lair"))
    return out


def _events_once(rules: Rules, rooms: tuple[RoomContent, ...], floor: str) -> list[Finding]:
    """Invariant 4: an event kind the profile allows once per floor appears at most once."""
    kinds = Counter(EVENT_OF_ROOM[r.kind] for r in rooms if r.kind in EVENT_OF_ROOM)
    return [Finding("event-repeat", floor, f"expected at most one {kind.value} room, got {n}")
            for kind, n in sorted(kinds.items()) if kind in rules.once_per_floor and n > 1]


def _room_findings(rules: Rules, content: FloorContent, room: RoomContent,
                   where: str) -> list[Finding]:
    """Invariants 5 to 9 for one room, in that order."""
    return [
        *_monsters_placed(rules, room, where),
        *_dead_end_after_stairs(rules, content, room, where),
        *_boss_lair(rules, room, where),
        *_trap_kind(rules, room, where),
        *_treasure_granted(rules, room, where),
    ]


def _monsters_placed(rules: Rules, room: RoomContent, where: str) -> list[Finding]:
    """Invariant 5: monsters only in encounters and lairs; an encounter's size and elites."""
    out: list[Finding] = []
    if room.kind in EVENT_OF_ROOM and room.foes:
        out.append(Finding("event-monsters", where,
                           f"an event room holds {room.monsters} monsters"))
    if room.kind is RoomKind.ENCOUNTER:
        sizes = set(rules.monster_count[1:])
        if room.monsters not in sizes:
            out.append(Finding("encounter-size", where,
                               f"expected {sorted(sizes)} monsters, got {room.monsters}"))
        elites = sum(1 for f in room.foes if f == rules.elite.id)
        most = room.monsters if rules.all_elite else 1  # IT-05
        if (elites and not room.elite) or elites > most or (room.elite and not elites):
            out.append(Finding("elite", where,
                               f"{elites} elites with the elite check "
                               f"{'passed' if room.elite else 'failed'}"))
    return out


def _dead_end_after_stairs(rules: Rules, content: FloorContent, room: RoomContent,
                           where: str) -> list[Finding]:
    """Invariant 6: the dead-end die is read only after the stairs (IT-18 for the lair)."""
    out: list[Finding] = []
    before = content.stairs_room == 0 or room.index <= content.stairs_room
    if room.dead_end is not None and before:
        out.append(Finding("dead-end", where,
                           "the dead-end check is read before the stairs are found"))
    if room.dead_end and rules.dead_end_lair and (room.kind is not RoomKind.LAIR
                                                  or not room.last):
        out.append(Finding("dead-end", where,
                           "a dead-end room must be the last room and hold the boss"))
    return out


def _boss_lair(rules: Rules, room: RoomContent, where: str) -> list[Finding]:
    """Invariant 7: a lair holds the boss and its minions and gives its loot; no other room."""
    out: list[Finding] = []
    if room.kind is RoomKind.LAIR:
        allowed = {rules.minions_on_pass, rules.minions_on_fail}
        minions = room.monsters - 1
        if minions not in allowed or room.foes[-1:] != (rules.boss.id,):
            out.append(Finding("boss-lair", where,
                               f"expected the boss and {sorted(allowed)} minions, "
                               f"got {room.foes!r}"))
        if room.loot != rules.loot:
            out.append(Finding("boss-lair", where,
                               f"expected loot {rules.loot!r}, got {room.loot!r}"))
    elif room.loot != type(room.loot)():
        out.append(Finding("boss-lair", where, "only a boss lair gives the boss's loot"))
    return out


def _trap_kind(rules: Rules, room: RoomContent, where: str) -> list[Finding]:
    """Invariant 8: a trap names one of the character's attributes."""
    if room.kind is RoomKind.TRAP and not 0 <= room.trap_attribute < rules.attribute_count:
        return [Finding("trap-kind", where,
                        f"expected an attribute index, got {room.trap_attribute}")]
    return []


def _treasure_granted(rules: Rules, room: RoomContent, where: str) -> list[Finding]:
    """Invariant 9: treasure only where the profile grants it (IT-15, IT-25)."""
    grants = {
        RoomKind.ENCOUNTER: rules.treasure_after_encounter,
        RoomKind.TRAP: rules.treasure_after_trap,
        RoomKind.LAIR: rules.lair_treasure_rolls > 0,
    }.get(room.kind, False)
    if grants != (room.treasure is not None):
        return [Finding("treasure", where,
                        f"a {room.kind.value} room {'gives' if grants else 'gives no'} treasure "
                        f"under profile {rules.profile.id!r}")]
    return []


def _tape_covers(content: FloorContent, floor: str) -> list[Finding]:
    """Invariant 11: the combat tape covers the floor's monsters, or the booklet wraps it."""
    if not content.wraps and len(content.combat_tape) < content.monsters:
        return [Finding("tape-short", floor,
                        f"{len(content.combat_tape)} combat dice for "
                        f"{content.monsters} monsters and no fallback rule")]
    return []


def _describe(room: object) -> str:
    kind = getattr(room, "kind", None)
    foes = getattr(room, "foes", ())
    return f"{getattr(kind, 'value', kind)} with {len(foes)} monsters"
