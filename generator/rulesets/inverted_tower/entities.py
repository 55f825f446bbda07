"""Typed data of The Inverted Tower: what the engine reads and the rulebook prints.

Every object is immutable. A value that a ruling decides is a :class:`Varies`, which holds
both readings so that the engine picks by profile and no rules number lives in code
(rulings.md section 1.3).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Generic, TypeVar

from generator.model.common import Profile, Reading
from generator.model.dice import DiceTable

T = TypeVar("T")


@dataclass(frozen=True)
class Varies(Generic[T]):
    """A value with a Faithful and an Alt reading, decided by ``ruling``.

    A value that no ruling decides has ``ruling == ""`` and the same value twice.
    """

    faithful: T
    alt: T
    ruling: str = ""

    @property
    def fixed(self) -> bool:
        """True when no ruling changes this value."""
        return not self.ruling

    def get(self, reading: Reading) -> T:
        return self.alt if reading == "alt" else self.faithful

    def under(self, profile: Profile) -> T:
        """The value under ``profile``.

        Raises:
            KeyError: the profile has no reading for this value's ruling.
        """
        if self.fixed:
            return self.faithful
        return self.get(profile.reading(self.ruling))


# -- enumerations (the structured kinds the engine switches on) ---------------------------


class CritBasis(StrEnum):
    """IT-08: what a critical result reads."""

    NATURAL = "natural"
    TOTAL = "total"


class EffectKind(StrEnum):
    # The first member is what a misspelt kind reads as while loading goes on; heal_to_max
    # needs nothing else, so one typo gives one finding.
    HEAL_TO_MAX = "heal_to_max"
    COMBAT_BONUS = "combat_bonus"
    CURRENCY = "currency"


class ItemUse(StrEnum):
    """IT-09: whether an item is discarded after use."""

    SPENT = "spent"
    KEPT = "kept"


class EventKind(StrEnum):
    TRAP = "trap"
    MERCHANT = "merchant"
    BONFIRE = "bonfire"
    STAIRS = "stairs"


class RepeatRule(StrEnum):
    """IT-02: what a room becomes when its event kind is already on the floor."""

    ENCOUNTER = "encounter"
    REROLL = "reroll"


class EliteCount(StrEnum):
    """IT-05: how many monsters are elite when the elite check passes."""

    ONE = "one"
    ALL = "all"


class TermSource(StrEnum):
    """A modifier of a combat roll."""

    ATTRIBUTE = "attribute"
    FLOOR = "floor"
    LEVEL = "level"
    DAGGERS = "daggers"


class AttributeChoice(StrEnum):
    """IT-29: the attribute is chosen per roll or per fight."""

    ROLL = "roll"
    FIGHT = "fight"


class MustBeat(StrEnum):
    """IT-26: when the boss must fall before descending."""

    ON_STAIRS = "on_stairs"
    ALWAYS = "always"


class TreasureAfter(StrEnum):
    """IT-15: the room outcomes that give a treasure roll."""

    ENCOUNTER_WON = "encounter_won"
    TRAP_PASSED = "trap_passed"


class WanderingChecks(StrEnum):
    """IT-23: one wandering check per move back, or per room walked through."""

    PER_MOVE = "per_move"
    PER_ROOM = "per_room"


class Trade(StrEnum):
    """IT-21: the merchant sells to the character, or buys from the character."""

    SELLS = "sells"
    BUYS = "buys"


class XpCounting(StrEnum):
    """IT-12: XP starts again at each level, or is one running total."""

    RESET = "reset"
    TOTAL = "total"


class ScoreKey(StrEnum):
    FLOOR = "floor"
    LEVEL = "level"
    GOLD = "gold"


# -- rolls -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Crits:
    success: int
    failure: int
    text: str
    applies_to: Varies[CritBasis]


@dataclass(frozen=True)
class Lookup:
    """DR: roll and read a table."""

    code: str
    name: str
    text: str


@dataclass(frozen=True)
class Check:
    """A pass-or-fail roll: passes when the die plus modifiers reaches ``target``."""

    code: str
    name: str
    target: int
    text: str


@dataclass(frozen=True)
class SplitOption:
    option: int  # 1-based position of the option in SR(a, b, c)
    name: str


@dataclass(frozen=True)
class Split:
    """SR: picks one of three options by a range of faces."""

    code: str
    name: str
    text: str
    table: DiceTable[SplitOption]


@dataclass(frozen=True)
class Rolls:
    faces: int
    crits: Crits
    lookup: Lookup
    checks: tuple[Check, ...]
    split: Split

    def check(self, code: str) -> Check:
        """Raises KeyError for a code that is not a check (the loader validates references)."""
        for check in self.checks:
            if check.code == code:
                return check
        raise KeyError(code)


# -- character and items -------------------------------------------------------------------


@dataclass(frozen=True)
class Attribute:
    code: str
    name: str
    text: str


@dataclass(frozen=True)
class Stack:
    """A quantity of one item (gold included)."""

    item: str
    quantity: int


@dataclass(frozen=True)
class Start:
    attribute_points: int
    attribute_value: int
    max_hp: int
    xp: int
    gold: int
    level: Varies[int]  # IT-12


@dataclass(frozen=True)
class Character:
    attributes: tuple[Attribute, ...]
    start: Start
    kit: tuple[Stack, ...]


@dataclass(frozen=True)
class Effect:
    kind: EffectKind
    amount: int  # the bonus of a combat_bonus, 0 otherwise
    use: Varies[ItemUse]  # IT-09 for daggers


@dataclass(frozen=True)
class Item:
    id: str
    name: str
    plural: str
    abbreviation: str
    effect: Effect
    text: str


# -- rooms ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Event:
    name: str
    kind: EventKind
    effect: Effect | None
    text: str


@dataclass(frozen=True)
class Events:
    room_check: str  # a check code: pass = event room, fail = encounter (IT-01)
    roll: str  # the lookup code
    table: DiceTable[Event]
    once_per_floor: Varies[tuple[EventKind, ...]]  # IT-03
    on_repeat: Varies[RepeatRule]  # IT-02


@dataclass(frozen=True)
class TrapKind:
    attribute: str
    name: str
    text: str


@dataclass(frozen=True)
class Traps:
    roll: str  # the split code
    check: str
    subtract_floor: Varies[bool]  # IT-16
    daggers_allowed: bool
    fail_damage: int
    fail_treasure: bool
    fail_text: str
    table: DiceTable[TrapKind]


@dataclass(frozen=True)
class Encounters:
    elite_check: Varies[str]  # a check code (IT-04, IT-20)
    elites: Varies[EliteCount]  # IT-05
    count_roll: str  # the split code
    count: DiceTable[int]


@dataclass(frozen=True)
class Term:
    """One modifier of a combat roll: ``sign`` times the value of ``source``."""

    source: TermSource
    sign: int
    text: str


@dataclass(frozen=True)
class Monster:
    id: str
    name: str
    text: str
    xp: Varies[int]  # IT-25
    to_hit: Varies[tuple[Term, ...]]  # IT-07; copied from ``fights_as`` when that is set
    fights_as: str  # another monster's id, or ""


@dataclass(frozen=True)
class Combat:
    check: str
    fail_damage: int
    floor_offset: Varies[int]  # IT-28
    attribute_choice: Varies[AttributeChoice]  # IT-29


@dataclass(frozen=True)
class Bosses:
    monster: str
    minion: str
    minion_check: str
    minions_on_pass: int
    minions_on_fail: int
    loot: tuple[Stack, ...]
    lair_treasure_rolls: Varies[int]  # IT-25
    must_beat: Varies[MustBeat]  # IT-26


@dataclass(frozen=True)
class Treasure:
    roll: str
    after: Varies[tuple[TreasureAfter, ...]]  # IT-15
    table: DiceTable[Stack]


@dataclass(frozen=True)
class Floor:
    first_floor: int
    max_rooms: int
    dead_end_check: str
    dead_end_lair: Varies[bool]  # IT-18
    forced_stairs_lair: bool
    wandering_check: str
    wandering_treasure: Varies[bool]  # IT-24
    wandering_checks: Varies[WanderingChecks]  # IT-23
    win_floor: Varies[int]  # IT-27; 0 = an endless tower
    score: tuple[ScoreKey, ...]


@dataclass(frozen=True)
class Offer:
    item: str
    price: int  # in gold pieces


@dataclass(frozen=True)
class Merchant:
    trade: Varies[Trade]  # IT-21
    stock: tuple[Offer, ...]


@dataclass(frozen=True)
class Leveling:
    base: int
    per_level: int
    counting: Varies[XpCounting]  # IT-12
    max_hp_gain: int
    attribute_points: int
    hp_gain: Varies[int]  # IT-13
    ladder_rows: int

    def cost(self, level: int) -> int:
        """XP needed to go from ``level`` to the next one (IT-12 faithful: a fresh count)."""
        return self.base + self.per_level * level
