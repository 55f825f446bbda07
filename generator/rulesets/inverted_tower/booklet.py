"""Pre-rolled floors for a seeded solo booklet (rulings.md 1.4).

A floor's rooms depend only on their raw dice and on what the floor already holds, so the
whole floor is resolved at print time from the stream for (seed, ruleset, floor,
"content"). The combat tape and the wandering tape come from their own streams
("combat", "wandering"): a player who uses more combat dice never changes a room, and
floor ``f`` is the same whether it is generated alone or in a booklet of many floors
(design.md section 4). The profile changes what the dice mean, never the dice.
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.engine.rng import normalise_seed, stream
from generator.rulesets.inverted_tower.rooms import (
    draw_room_roll,
    draw_wander_roll,
    record_room,
    resolve_room,
    wander_foes,
    wander_treasure,
)
from generator.rulesets.inverted_tower.rules import Gain, Rules
from generator.rulesets.inverted_tower.state import (
    FloorState,
    RoomContent,
    RoomRoll,
    WanderRoll,
)

RULESET = "inverted-tower"
#: Booklet layout, not rules: how many combat dice and wandering entries a floor prints
#: (rulings.md 1.4 suggests 60 to 100 combat dice), and whether the printed fallback rule
#: (start again from the top of the tape) covers a tape that runs out.
COMBAT_DICE = 100
WANDER_ENTRIES = 24


@dataclass(frozen=True)
class WanderEntry:
    """One line of the wandering tape: the raw dice and what they bring."""

    roll: WanderRoll
    foes: tuple[str, ...]  # () when the check fails
    treasure: Gain | None


@dataclass(frozen=True)
class FloorContent:
    """One pre-rolled floor: its rooms up to the last, and its two tapes."""

    seed: str
    profile: str
    floor: int
    rooms: tuple[RoomContent, ...]
    combat_tape: tuple[int, ...]
    wandering: tuple[WanderEntry, ...]
    wraps: bool  # the booklet prints "when a tape runs out, start again from its top"

    def __repr__(self) -> str:
        return (f"generate_floor(rules, seed={self.seed!r}, floor={self.floor}) "
                f"# profile {self.profile!r}, {len(self.rooms)} rooms")

    @property
    def stairs_room(self) -> int:
        return next((r.index for r in self.rooms if r.stairs), 0)

    @property
    def monsters(self) -> int:
        """Monsters in the floor's rooms, the boss and its minions included."""
        return sum(r.monsters for r in self.rooms)


def floor_rolls(rules: Rules, seed: int | str, floor: int) -> tuple[RoomRoll, ...]:
    """The raw dice of the floor's rooms, first to last, from its content stream."""
    rng = stream(seed, RULESET, floor, purpose="content")
    fs = FloorState(floor)
    rolls: list[RoomRoll] = []
    while not fs.last and fs.explored < rules.max_rooms:
        roll = draw_room_roll(rules, fs, lambda: rng.die(rules.faces))
        rolls.append(roll)
        fs = record_room(fs, resolve_room(rules, fs, roll))
    return tuple(rolls)


def resolve_floor(rules: Rules, floor: int, rolls: tuple[RoomRoll, ...]) -> tuple[RoomContent, ...]:
    """The rooms the rolls make, each read against the log before it."""
    fs = FloorState(floor)
    rooms: list[RoomContent] = []
    for roll in rolls:
        room = resolve_room(rules, fs, roll)
        rooms.append(room)
        fs = record_room(fs, room)
    return tuple(rooms)


def generate_floor(rules: Rules, seed: int | str, floor: int, *,
                   combat_dice: int = COMBAT_DICE, wander_entries: int = WANDER_ENTRIES,
                   wraps: bool = True) -> FloorContent:
    """Pre-roll floor ``floor``: rooms from the content stream, then the two tapes."""
    canonical = normalise_seed(seed)
    rooms = resolve_floor(rules, floor, floor_rolls(rules, canonical, floor))
    combat = stream(canonical, RULESET, floor, purpose="combat")
    tape = tuple(combat.die(rules.faces) for _ in range(combat_dice))
    wander = stream(canonical, RULESET, floor, purpose="wandering")
    entries = []
    for _ in range(wander_entries):
        roll = draw_wander_roll(lambda: wander.die(rules.faces))
        foes = wander_foes(rules, roll)
        entries.append(WanderEntry(roll, foes, wander_treasure(rules, roll) if foes else None))
    return FloorContent(canonical, rules.profile.id, floor, rooms, tape, tuple(entries), wraps)


def generate_floors(rules: Rules, seed: int | str, floors: int, *,
                    combat_dice: int = COMBAT_DICE, wander_entries: int = WANDER_ENTRIES,
                    wraps: bool = True) -> tuple[FloorContent, ...]:
    """Floors ``first_floor`` .. ``first_floor + floors - 1`` of a booklet."""
    return tuple(generate_floor(rules, seed, rules.first_floor + i, combat_dice=combat_dice,
                                wander_entries=wander_entries, wraps=wraps)
                 for i in range(floors))


class BookletDice:
    """Plays pre-rolled floors: rooms from the booklet, dice from its tapes (wrapping)."""

    def __init__(self, floors: tuple[FloorContent, ...]):
        self.floors = {f.floor: f for f in floors}
        self.combat_used: dict[int, int] = {}
        self.wander_used: dict[int, int] = {}

    def room(self, rules: Rules, fs: FloorState) -> RoomRoll:
        return self.floors[fs.floor].rooms[fs.explored].roll

    def wander(self, floor: int) -> WanderRoll:
        entries = self.floors[floor].wandering
        used = self.wander_used.get(floor, 0)
        self.wander_used[floor] = used + 1
        return entries[used % len(entries)].roll

    def combat(self, floor: int) -> int:
        tape = self.floors[floor].combat_tape
        used = self.combat_used.get(floor, 0)
        self.combat_used[floor] = used + 1
        return tape[used % len(tape)]
