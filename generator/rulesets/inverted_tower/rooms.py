"""What a new room holds: the player-independent half of the turn procedure.

A room's content depends only on its raw dice (a :class:`RoomRoll`), its index and what
the floor already holds (rulings.md 1.4), never on the character. The same functions
resolve a room lazily during play and pre-roll whole floors for a booklet
(:mod:`generator.rulesets.inverted_tower.booklet`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from generator.rulesets.inverted_tower.entities import EventKind
from generator.rulesets.inverted_tower.rules import Gain, Rules
from generator.rulesets.inverted_tower.state import (
    ROOM_FIELDS,
    WANDER_FIELDS,
    FloorState,
    RoomContent,
    RoomKind,
    RoomRoll,
    WanderRoll,
)

Die = Callable[[], int]

_ROOM_OF_EVENT = {
    EventKind.TRAP: RoomKind.TRAP,
    EventKind.MERCHANT: RoomKind.MERCHANT,
    EventKind.BONFIRE: RoomKind.BONFIRE,
    EventKind.STAIRS: RoomKind.STAIRS,
}
EVENT_OF_ROOM = {room: event for event, room in _ROOM_OF_EVENT.items()}
NO_GAIN = Gain()


class NeedMoreDice(Exception):
    """The room's roll is too short: ``field`` names the variable part that needs a die."""

    def __init__(self, field: str):
        super().__init__(field)
        self.field = field


def can_explore(rules: Rules, fs: FloorState) -> bool:
    """A new room exists: the last room is not found and the room limit not reached (IT-18)."""
    return not fs.last and fs.explored < rules.max_rooms


def encounter_foes(rules: Rules, elite: bool, count: int) -> tuple[str, ...]:
    """The monsters of an encounter, in the order fought (IT-05, IT-17).

    Ordinary monsters come first and the elite last: the draft leaves the order to the
    player, and the reference player takes the easier foes first.
    """
    elites = (count if rules.all_elite else 1) if elite else 0
    return (rules.normal.id,) * (count - elites) + (rules.elite.id,) * elites


def lair_foes(rules: Rules, minion_die: int) -> tuple[str, ...]:
    """The boss's minions (IT-25: ordinary monsters), then the boss (handled as an elite)."""
    minions = rules.minions_on_pass if rules.minion_check[minion_die] else rules.minions_on_fail
    return (rules.minion.id,) * minions + (rules.boss.id,)


def resolve_room(rules: Rules, fs: FloorState, roll: RoomRoll,
                 index: int = 0) -> RoomContent:
    """The content of the next new room of ``fs`` (rulings.md 1.3, canonical procedure).

    ``index`` overrides the room number (by default the room after those in the log), so
    that the odds can ask about room ``k`` of a floor described only by its event kinds.

    Raises:
        NeedMoreDice: IT-02 Alt needs another event roll, or the lair another treasure
            roll, than ``roll`` carries.
        ValueError: the floor has no new room left.
    """
    k = index or fs.explored + 1
    if fs.last or k > rules.max_rooms:
        raise ValueError(f"floor {fs.floor} has no new room {k}")
    # IT-18: once the stairs are known, each new room first rolls the dead-end check.
    dead_end = rules.dead_end_check[roll.dead_end] if fs.stairs_found else None
    last = bool(dead_end) or k == rules.max_rooms
    # The last possible room with no stairs yet is the stairs, and the boss lair (IT-18).
    if k == rules.max_rooms and not fs.stairs_found:
        if rules.forced_lair:
            return _lair(rules, k, roll, dead_end, stairs=True)
        return RoomContent(k, roll, RoomKind.STAIRS, True, True, dead_end, EventKind.STAIRS,
                           False, -1, False, (), None, NO_GAIN)
    # IT-18 Faithful: the dead-end room holds the boss lair instead of its content.
    if dead_end and rules.dead_end_lair:
        return _lair(rules, k, roll, dead_end, stairs=False)
    # IT-32 Alt: a floor's first room is always an encounter.
    if rules.first_room_encounter and k == 1:
        return _encounter(rules, k, roll, last, dead_end)
    # IT-01: a passed room check makes an event room, a failed one an encounter.
    if not rules.room_check[roll.event_check]:
        return _encounter(rules, k, roll, last, dead_end)
    rolled = rules.event_of[roll.event_roll]
    assert rolled is not None
    kind = rolled
    used = 0
    while kind in rules.once_per_floor and kind in fs.kinds:
        # IT-02 Faithful: a kind the floor already has makes the room an encounter.
        if not rules.repeat_rerolls or _nothing_new(rules, fs):
            return _encounter(rules, k, roll, last, dead_end, rolled)
        # IT-02 Alt: roll the event again until a kind the floor lacks comes up.
        if used == len(roll.rerolls):
            raise NeedMoreDice("rerolls")
        again = rules.event_of[roll.rerolls[used]]
        assert again is not None
        kind = again
        used += 1
    if kind is EventKind.TRAP:
        # IT-15: a passed trap gives treasure under the Faithful reading only.
        treasure = rules.treasure[roll.treasure] if rules.treasure_after_trap else None
        return RoomContent(k, roll, RoomKind.TRAP, False, last, dead_end, rolled, False,
                           rules.trap_attribute[roll.trap_kind], False, (), treasure, NO_GAIN)
    return RoomContent(k, roll, _ROOM_OF_EVENT[kind], kind is EventKind.STAIRS, last, dead_end,
                       rolled, False, -1, False, (), None, NO_GAIN)


def _nothing_new(rules: Rules, fs: FloorState) -> bool:
    """No face of the event roll could give a kind the floor may still get."""
    return all(k in rules.once_per_floor and k in fs.kinds for k in rules.event_of[1:] if k)


def _encounter(rules: Rules, k: int, roll: RoomRoll, last: bool, dead_end: bool | None,
               converted_from: EventKind | None = None) -> RoomContent:
    """An encounter (IT-04/05/06); ``converted_from`` is a repeated event kind (IT-02)."""
    elite = rules.elite_check[roll.elite]
    foes = encounter_foes(rules, elite, rules.monster_count[roll.count])
    treasure = rules.treasure[roll.treasure] if rules.treasure_after_encounter else None
    return RoomContent(k, roll, RoomKind.ENCOUNTER, False, last, dead_end, converted_from,
                       converted_from is not None, -1, elite, foes, treasure, NO_GAIN)


def _lair(rules: Rules, k: int, roll: RoomRoll, dead_end: bool | None, *,
          stairs: bool) -> RoomContent:
    """The boss lair (IT-25): minions by a check, fixed loot, maybe treasure rolls."""
    treasure: Gain | None = None
    if rules.lair_treasure_rolls > 0:
        extra = rules.lair_treasure_rolls - 1
        if len(roll.extra_treasure) < extra:
            raise NeedMoreDice("extra_treasure")
        treasure = rules.treasure[roll.treasure]
        for die in roll.extra_treasure[:extra]:
            treasure = treasure + rules.treasure[die]
    return RoomContent(k, roll, RoomKind.LAIR, stairs, True, dead_end,
                       EventKind.STAIRS if stairs else None, False, -1, False,
                       lair_foes(rules, roll.minions), treasure, rules.loot)


def draw_room_roll(rules: Rules, fs: FloorState, die: Die) -> RoomRoll:
    """Draw the fixed dice of a new room, then any extra dice its resolution needs."""
    # RoomRoll's first fields are ROOM_FIELDS, in order (a test checks it).
    d = [die() for _ in ROOM_FIELDS]
    return complete_roll(rules, fs, RoomRoll(d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7], d[8]),
                         die)


def complete_roll(rules: Rules, fs: FloorState, roll: RoomRoll, die: Die) -> RoomRoll:
    """``roll`` with the further dice its resolution asks for (IT-02 Alt, IT-25)."""
    while True:
        try:
            resolve_room(rules, fs, roll)
        except NeedMoreDice as short:
            if short.field == "rerolls":
                roll = replace(roll, rerolls=(*roll.rerolls, die()))
            else:
                roll = replace(roll, extra_treasure=(*roll.extra_treasure, die()))
            continue
        return roll


def draw_wander_roll(die: Die) -> WanderRoll:
    d = [die() for _ in WANDER_FIELDS]
    return WanderRoll(d[0], d[1], d[2], d[3])


def record_room(fs: FloorState, room: RoomContent) -> FloorState:
    """The floor's log after exploring ``room``; the character now stands in it."""
    kinds = fs.kinds
    event = EVENT_OF_ROOM.get(room.kind)
    if event is not None:
        kinds = kinds | {event}
    return FloorState(
        fs.floor,
        (*fs.rooms, room),
        kinds,
        room.index if room.stairs else fs.stairs_room,
        fs.last or room.last,
        room.index if room.kind is RoomKind.LAIR else fs.boss_room,
        room.index,
        fs.used,
    )


def wander_foes(rules: Rules, roll: WanderRoll) -> tuple[str, ...]:
    """The monsters a wandering check brings (IT-24: a full new encounter), or none."""
    if not rules.wandering_check[roll.check]:
        return ()
    return encounter_foes(rules, rules.elite_check[roll.elite], rules.monster_count[roll.count])


def wander_treasure(rules: Rules, roll: WanderRoll) -> Gain | None:
    """The treasure of a won wandering encounter (IT-15, IT-24)."""
    if rules.wandering_treasure and rules.treasure_after_encounter:
        return rules.treasure[roll.treasure]
    return None
