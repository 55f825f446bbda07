"""The state model of The Inverted Tower: hashable, immutable values.

A :class:`Hero` is the character sheet; a :class:`RoomRoll` holds the raw dice of one new
room and a :class:`RoomContent` what they make of it (rulings.md 1.4: the raw dice are
kept beside every derived result); a :class:`FloorState` is what the Dungeon Log of the
current floor says. Transitions return new objects (``dataclasses.replace``), so equal
states compare and hash equal and the exact odds can memoise over them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from generator.rulesets.inverted_tower.entities import EventKind
from generator.rulesets.inverted_tower.rules import Gain


@dataclass(frozen=True, slots=True)
class Hero:
    """The character sheet (rulings.md 1.1)."""

    hp: int
    max_hp: int
    attributes: tuple[int, ...]
    level: int
    xp: int
    gold: int
    daggers: int
    potions: int

    @property
    def best(self) -> int:
        """Index of the highest attribute (the first of equals)."""
        return self.attributes.index(max(self.attributes))

    def with_hp(self, hp: int) -> Hero:
        """This sheet with other current HP (a plain constructor: the engine's hot path)."""
        return Hero(hp, self.max_hp, self.attributes, self.level, self.xp, self.gold,
                    self.daggers, self.potions)

    def with_items(self, daggers: int, potions: int) -> Hero:
        return Hero(self.hp, self.max_hp, self.attributes, self.level, self.xp, self.gold,
                    daggers, potions)

    def with_xp(self, xp: int) -> Hero:
        return Hero(self.hp, self.max_hp, self.attributes, self.level, xp, self.gold,
                    self.daggers, self.potions)

    def gain(self, gain: Gain) -> Hero:
        return Hero(self.hp, self.max_hp, self.attributes, self.level, self.xp,
                    self.gold + gain.gold, self.daggers + gain.daggers,
                    self.potions + gain.potions)


class RoomKind(StrEnum):
    ENCOUNTER = "encounter"
    TRAP = "trap"
    MERCHANT = "merchant"
    BONFIRE = "bonfire"
    STAIRS = "stairs"
    LAIR = "lair"  # the floor boss and its minions (IT-18, IT-25)


#: The fixed dice of a new room, in the order they are drawn from a tape. Every new room
#: draws all of them, used or not, so that a room's content never depends on which
#: were consulted (rulings.md 1.4); the fast path reads them at these offsets.
ROOM_FIELDS = (
    "dead_end", "event_check", "event_roll", "trap_kind", "trap_check",
    "elite", "count", "treasure", "minions",
)
#: The dice of one wandering-monster check (IT-22/23/24), drawn together.
WANDER_FIELDS = ("check", "elite", "count", "treasure")


@dataclass(frozen=True, slots=True)
class RoomRoll:
    """The raw dice of one new room.

    ``rerolls`` are the extra event rolls of IT-02 Alt; ``extra_treasure`` the lair's
    treasure rolls after the first when the data gives it more than one (IT-25).
    """

    dead_end: int
    event_check: int
    event_roll: int
    trap_kind: int
    trap_check: int
    elite: int
    count: int
    treasure: int
    minions: int
    rerolls: tuple[int, ...] = ()
    extra_treasure: tuple[int, ...] = ()

    def dice(self) -> tuple[int, ...]:
        """Every die of the room, fixed ones first (the order of a tape)."""
        fixed = tuple(int(getattr(self, name)) for name in ROOM_FIELDS)
        return fixed + self.rerolls + self.extra_treasure


@dataclass(frozen=True, slots=True)
class WanderRoll:
    """The raw dice of one wandering-monster check and the encounter it may bring."""

    check: int
    elite: int
    count: int
    treasure: int


@dataclass(frozen=True, slots=True)
class RoomContent:
    """What a new room holds, derived from its :class:`RoomRoll` (rulings.md 1.3).

    ``treasure`` is the treasure the room gives when it is won or passed (None when the
    profile grants none there, IT-15); ``foes`` lists monster ids in the order fought.
    """

    index: int
    roll: RoomRoll
    kind: RoomKind
    stairs: bool  # the stairs are here (a Stairs event, or the forced room, IT-18)
    last: bool  # no new room follows on this floor
    dead_end: bool | None  # None: the dead-end die was not consulted (before the stairs)
    event: EventKind | None  # the event rolled, also when a repeat became an encounter
    converted: bool  # a repeated event kind turned into an encounter (IT-02)
    trap_attribute: int  # attribute index of a trap, -1 otherwise
    elite: bool  # the elite check passed (encounters)
    foes: tuple[str, ...]
    treasure: Gain | None
    loot: Gain  # the boss's fixed loot (lairs), empty otherwise

    @property
    def monsters(self) -> int:
        return len(self.foes)


@dataclass(frozen=True, slots=True)
class FloorState:
    """The Dungeon Log of the current floor plus where the character stands.

    ``rooms`` are the rooms explored so far (room ``k`` is ``rooms[k - 1]``); ``kinds``
    the event kinds already on the floor (IT-02/03); ``used`` the rooms whose event was
    used (IT-22 Alt); ``position`` the room the character is in (0 before the first).
    """

    floor: int
    rooms: tuple[RoomContent, ...] = ()
    kinds: frozenset[EventKind] = frozenset()
    stairs_room: int = 0
    last: bool = False
    boss_room: int = 0
    position: int = 0
    used: frozenset[int] = frozenset()

    @property
    def explored(self) -> int:
        return len(self.rooms)

    @property
    def stairs_found(self) -> bool:
        return self.stairs_room > 0

    def room_of(self, kind: RoomKind) -> int:
        """The first room of ``kind`` on the floor, 0 when there is none."""
        for room in self.rooms:
            if room.kind is kind:
                return room.index
        return 0
