"""Entities of 3 Dice Dungeon (modified): locations, level tables, monsters and classes.

Each ``read_*`` function reads one part of the tables folder with :class:`Node` accessors
and reports problems as findings; cross-references (monster names, item names) are
checked by the caller once everything is read, in ``three_dice_dungeon.load``.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from enum import StrEnum

from generator.model.dice import DiceTable, load_dice_table
from generator.model.schema import Node, check_ref, check_unique
from generator.rulesets.three_dice_dungeon.effects import (
    CHARTS,
    Dice,
    Effect,
    read_dice,
    read_effect,
    read_enum,
    read_ruling_id,
)

MAX_SIDES = 4  # a map square has four sides, so no location can have more exits
# Hit points: the exact odds of a fight recurse on them, and the book's are 10 to 25.
MAX_HP = 200


# -- locations --------------------------------------------------------------------------


@dataclass(frozen=True)
class LocationKind:
    """A kind of location: its exits (including the way in) and what it allows.

    ``exits_alt`` is the exit roll under the Alt reading of DD-10 (corridors only).
    """

    id: str
    name: str
    text: str
    exits: Dice
    exits_alt: Dice | None
    is_vault: bool
    is_temple: bool
    allows_descent: bool

    def exits_for(self, alt: bool) -> Dice:
        """The exit roll; ``alt`` = the profile takes DD-10's Alt reading."""
        return self.exits_alt if alt and self.exits_alt is not None else self.exits


def _read_exits(node: Node, key: str) -> Dice:
    dice = read_dice(node.table(key))
    if dice.minimum < 1:
        node.error(key, f"{dice} can give {dice.minimum} exits; a location needs at least 1")
    if dice.maximum > MAX_SIDES:
        node.error(
            key, f"{dice} can give {dice.maximum} exits; a location has only {MAX_SIDES} sides"
        )
    return dice


def read_locations(node: Node) -> tuple[tuple[str, ...], dict[str, LocationKind]]:
    """Read ``locations.toml``: the map sides and the location kinds by id."""
    sides = node.str_list("sides")
    if len(sides) != MAX_SIDES:
        node.error("sides", f"expected {MAX_SIDES} sides, got {len(sides)}")
    kinds_node = node.table("kinds")
    kinds: dict[str, LocationKind] = {}
    for kind_id in kinds_node.data:
        kind = kinds_node.table(kind_id)
        kinds[kind_id] = LocationKind(
            id=kind_id,
            name=kind.str("name"),
            text=kind.str("text"),
            exits=_read_exits(kind, "exits"),
            exits_alt=_read_exits(kind, "exits_alt") if kind.has("exits_alt") else None,
            is_vault=kind.bool("is_vault", False),
            is_temple=kind.bool("is_temple", False),
            allows_descent=kind.bool("allows_descent", False),
        )
        kind.done()
    check_unique(kinds_node, "kinds", [k.name for k in kinds.values()])
    node.done()
    return sides, kinds


# -- level tables -------------------------------------------------------------------------


@dataclass(frozen=True)
class Gain:
    """What a treasure cell gives: one named item, or a roll on one chart."""

    item: str = ""
    chart: str = ""


@dataclass(frozen=True)
class Reward:
    """The treasure column's cell. ``alt`` replaces ``gain`` under ``alt_ruling``'s Alt."""

    label: str
    gain: Gain
    alt: Gain | None = None
    alt_ruling: str = ""

    def gain_for(self, alt: bool) -> Gain:
        return self.alt if alt and self.alt is not None else self.gain


def _read_gain(node: Node, items: Collection[str]) -> Gain:
    if node.has("item") == node.has("chart"):
        node.error_here("expected exactly one of item or chart")
    item = node.str("item", "", nonempty=False)
    if item:
        check_ref(node, "item", item, items, "item")
    chart = node.choice("chart", CHARTS, "") if node.has("chart") else ""
    return Gain(item, chart)


def _read_reward(node: Node, items: Collection[str]) -> Reward:
    gain = _read_gain(node, items)
    label = node.str("label", "", nonempty=False)
    alt: Gain | None = None
    ruling = ""
    if node.has("alt"):
        alt_node = node.table("alt")
        ruling = read_ruling_id(alt_node, "ruling")
        alt = _read_gain(alt_node, items)
        alt_node.done()
    node.done()
    return Reward(label, gain, alt, ruling)


@dataclass(frozen=True)
class LevelRow:
    """One face of a level table: the location kind, the monster slot and the treasure.

    ``elite`` = the monster column says "elite monster": reroll for the base (DD-13).
    """

    location: str
    monster: str
    elite: bool
    treasure: Reward


@dataclass(frozen=True)
class LevelTable:
    """A level's location table (three d6 columns read with one die each)."""

    title: str
    rows: DiceTable[LevelRow]


def read_level_table(
    node: Node,
    kinds: Collection[str],
    monsters: Collection[str],
    items: Collection[str],
) -> LevelTable:
    """Read a level file's title and rows (its other keys are read by the caller).

    Location kinds, monster names and treasure items must be among those given.
    """

    def read_row(row: Node) -> LevelRow:
        location = row.str("location")
        check_ref(row, "location", location, kinds, "location kind")
        elite = row.bool("elite", False)
        monster = row.str("monster", "", nonempty=False)
        if elite == bool(monster):
            row.error_here("expected exactly one of monster or elite = true")
        if monster:
            check_ref(row, "monster", monster, monsters, "monster")
        treasure = _read_reward(row.table("treasure"), items)
        return LevelRow(location, monster, elite, treasure)

    return LevelTable(node.str("title"), load_dice_table(node, "rows", 6, read_row))


# -- monsters ---------------------------------------------------------------------------


class AbilityKind(StrEnum):
    DAMAGE_BONUS = "damage_bonus"  # +amount damage on the hit it pays for
    REGEN = "regen"  # +amount HP at the start of a round (DD-08)
    STEAL_COINS = "steal_coins"  # coins lost equal to the damage dealt (DD-26)
    EXTRA_ATTACK = "extra_attack"  # amount more attacks this round


class Trigger(StrEnum):
    ON_HIT = "on_hit"
    ROUND_START = "round_start"


# DD-08 Faithful: bonuses are paid for on each hit, regeneration at the start of a round.
ABILITY_TRIGGERS: dict[AbilityKind, Trigger] = {
    AbilityKind.DAMAGE_BONUS: Trigger.ON_HIT,
    AbilityKind.STEAL_COINS: Trigger.ON_HIT,
    AbilityKind.REGEN: Trigger.ROUND_START,
    AbilityKind.EXTRA_ATTACK: Trigger.ROUND_START,
}


@dataclass(frozen=True)
class Ability:
    """A monster's special ability, paid for with ``mind_cost`` Mind per use."""

    kind: AbilityKind
    amount: int  # 0 for steal_coins, whose amount is the damage dealt
    mind_cost: int

    @property
    def trigger(self) -> Trigger:
        return ABILITY_TRIGGERS[self.kind]


@dataclass(frozen=True)
class Loot:
    """A monster's own loot, gained on top of the location's treasure.

    ``chart`` names a chart rolled on when the monster falls ("" for none).  ``alt`` is
    the loot under the Alt reading of ``alt_ruling`` (the Dragons' Special, DD-33).
    """

    coins: int
    items: tuple[str, ...]
    label: str  # printed instead of the items when the fan text names it so ("Special")
    chart: str = ""
    alt: Loot | None = None
    alt_ruling: str = ""

    def loot_for(self, alt: bool) -> Loot:
        """The loot under a profile; ``alt`` = the profile takes ``alt_ruling``'s Alt."""
        chosen = self.alt if alt and self.alt is not None else self
        return Loot(self.coins, chosen.items, self.label, chosen.chart)


@dataclass(frozen=True)
class Monster:
    """A monster of the manual. ``strength`` is its damage, ``dexterity`` its armour."""

    name: str
    hp: int
    strength: int
    dexterity: int
    mind: int
    loot: Loot
    note: str
    abilities: tuple[Ability, ...]
    seed_name: str  # the fan text's spelling when it differs (Knolls), else ""
    swappable: bool  # False for Dragons: every dungeon keeps them (DD-09)


def _read_ability(node: Node, default_cost: int) -> Ability:
    kind = read_enum(node, "kind", AbilityKind)
    if kind is AbilityKind.STEAL_COINS:
        amount = node.int("amount", 0, min=0)
    else:
        amount = node.int("amount", min=1)
    cost = node.int("mind_cost", default_cost, min=1)
    node.done()
    return Ability(kind, amount, cost)


def _read_loot_items(node: Node, known: Collection[str]) -> tuple[tuple[str, ...], str]:
    """A loot's items and the chart it rolls on ("" for none)."""
    items = node.str_list("items", ())
    for i, item in enumerate(items):
        check_ref(node, f"items[{i}]", item, known, "item")
    chart = node.choice("chart", CHARTS, "") if node.has("chart") else ""
    return items, chart


def _read_loot(node: Node, known: Collection[str]) -> Loot:
    coins = node.int("coins", 0, min=0)
    items, chart = _read_loot_items(node, known)
    label = node.str("label", "", nonempty=False)
    if not coins and not items and not chart:
        node.error_here("expected coins, items, a chart or some of them")
    alt: Loot | None = None
    ruling = ""
    if node.has("alt"):
        alt_node = node.table("alt")
        ruling = read_ruling_id(alt_node, "ruling")
        alt_items, alt_chart = _read_loot_items(alt_node, known)
        if not alt_items and not alt_chart:
            alt_node.error_here("expected items, a chart or both")
        alt_node.done()
        alt = Loot(coins, alt_items, label, alt_chart)
    node.done()
    return Loot(coins, items, label, chart, alt, ruling)


def read_monsters(node: Node, items: Collection[str]) -> tuple[int, tuple[Monster, ...]]:
    """Read ``monsters.toml``: the default ability cost and the manual.

    Loot must name items among ``items``.
    """
    default_cost = node.int("ability_cost", min=1)
    monsters: list[Monster] = []
    for m in node.tables("monsters", min_items=1):
        monsters.append(
            Monster(
                name=m.str("name"),
                hp=m.int("hp", min=1, max=MAX_HP),
                strength=m.int("str", min=0),
                dexterity=m.int("dex", min=0),
                mind=m.int("mind", min=0),
                loot=_read_loot(m.table("loot"), items),
                note=m.str("note"),
                abilities=tuple(
                    _read_ability(a, default_cost) for a in m.tables("abilities", min_items=1)
                ),
                seed_name=m.str("seed_name", "", nonempty=False),
                swappable=m.bool("swappable", True),
            )
        )
        m.done()
    check_unique(node, "monsters", [m.name for m in monsters])
    node.done()
    return default_cost, tuple(monsters)


# -- classes ----------------------------------------------------------------------------


DURATIONS = ("instant", "attack", "round", "fight")


@dataclass(frozen=True)
class Power:
    """A class power. ``scalable``: pay ``mind_cost`` any number of times for as many effects."""

    name: str
    mind_cost: int
    scalable: bool
    duration: str
    text: str
    effects: tuple[Effect, ...]

    @property
    def cost_text(self) -> str:
        """The Mind cost as a table prints it: "1", or "1 per point" for a scalable power."""
        return f"{self.mind_cost} per point" if self.scalable else str(self.mind_cost)


@dataclass(frozen=True)
class CharacterClass:
    """A class: bonuses added to current and maximum values (DD-19) and one power."""

    name: str
    hp: int
    strength: int
    dexterity: int
    mind: int
    power: Power


@dataclass(frozen=True)
class MindRecovery:
    """How spent Mind comes back (DD-27: no sleep inside the dungeon)."""

    level_up: bool
    elite_kill: bool
    sleep_hours: int
    sleep_in_dungeon: bool


def _read_power(node: Node) -> Power:
    power = Power(
        name=node.str("name"),
        mind_cost=node.int("mind_cost", min=1),
        scalable=node.bool("scalable", False),
        duration=node.choice("duration", DURATIONS),
        text=node.str("text"),
        effects=tuple(read_effect(e) for e in node.tables("effects", min_items=1)),
    )
    node.done()
    return power


def read_classes(node: Node) -> tuple[int, MindRecovery, tuple[CharacterClass, ...]]:
    """Read ``classes.toml``: the level classes are offered at, Mind recovery, classes."""
    offered_at = node.int("offered_at_level", min=2)
    rec = node.table("mind_recovery")
    recovery = MindRecovery(
        level_up=rec.bool("level_up"),
        elite_kill=rec.bool("elite_kill"),
        sleep_hours=rec.int("sleep_hours", min=1),
        sleep_in_dungeon=rec.bool("sleep_in_dungeon"),
    )
    rec.done()
    classes: list[CharacterClass] = []
    for c in node.tables("classes", min_items=1):
        classes.append(
            CharacterClass(
                name=c.str("name"),
                hp=c.int("hp", min=0, max=MAX_HP),
                strength=c.int("str", min=0),
                dexterity=c.int("dex", min=0),
                mind=c.int("mind", min=0),
                power=_read_power(c.table("power")),
            )
        )
        c.done()
    check_unique(node, "classes", [c.name for c in classes])
    check_unique(node, "classes", [c.power.name for c in classes], "power name")
    node.done()
    return offered_at, recovery, tuple(classes)
