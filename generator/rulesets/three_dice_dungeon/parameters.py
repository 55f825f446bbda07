"""Rule numbers of 3 Dice Dungeon (modified): character, XP, elites, combat, exploring.

Each dataclass holds the numbers of one tables file; the engine reads them and the
profile decides which reading of a ruling applies (the Alt numbers sit beside the faithful
ones, named ``alt_*`` and citing their ruling).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from generator.model.dice import DiceTable, load_dice_table
from generator.model.schema import Node, check_ref
from generator.rulesets.three_dice_dungeon.effects import (
    ATTRIBUTES,
    Dice,
    Stat,
    read_dice,
    read_enum,
    read_ruling_id,
)
from generator.rulesets.three_dice_dungeon.entities import MAX_HP

DIE = 6  # every table of this game is read with a six-sided die
# Levels: the sheet lists each up to the listed maximum, and the engine plays each one
# (the book's maximum is 11; a thousand overflowed the engine's recursion).
MAX_LEVEL = 30


def _faces(node: Node, key: str, *, proper: bool = True) -> tuple[int, ...]:
    """A list of die faces; ``proper``: it must leave at least one face (rerolls end)."""
    faces = node.int_list(key)
    if not faces:
        node.error(key, "expected at least one face")
    for i, face in enumerate(faces):
        if not 1 <= face <= DIE:
            node.error(f"{key}[{i}]", f"{face} is not a face of the d{DIE}")
    if len(set(faces)) != len(faces):
        node.error(key, "a face is listed twice")
    if proper and set(range(1, DIE + 1)) <= set(faces):
        node.error(key, "rerolling every face would never end")
    return faces


# -- character --------------------------------------------------------------------------


@dataclass(frozen=True)
class Attribute:
    """An attribute and the creation die that sets it (DD-01: in the order rolled)."""

    stat: Stat
    name: str
    die: int
    text: str


@dataclass(frozen=True)
class CharacterRules:
    dice: Dice
    reroll_if_total_at_most: int
    start_level: int
    start_xp: int
    start_coins: int
    hp_sum_of: tuple[Stat, ...]  # DD-02 Faithful: HP = the sum of these attributes
    attributes: tuple[Attribute, ...]  # in die order

    @property
    def min_hp(self) -> int:
        """The lowest possible starting HP, given the reroll (DD-02)."""
        return self.reroll_if_total_at_most + 1


def read_character(node: Node) -> CharacterRules:
    dice = read_dice(node.table("dice"))
    reroll = node.int("reroll_if_total_at_most", min=0)
    if dice.count and reroll >= dice.maximum:
        node.error("reroll_if_total_at_most", f"{reroll} would reroll every total of {dice}")
    attributes: list[Attribute] = []
    for a in node.tables("attributes", min_items=1):
        attributes.append(
            Attribute(read_enum(a, "id", Stat), a.str("name"), a.int("die", min=1), a.str("text"))
        )
        a.done()
    if sorted(a.die for a in attributes) != list(range(1, dice.count + 1)):
        node.error("attributes", f"expected one attribute for each of the {dice.count} dice")
    if sorted(a.stat for a in attributes) != sorted(ATTRIBUTES):
        node.error("attributes", f"expected the attributes {', '.join(ATTRIBUTES)}")
    hp = node.table("hit_points")
    sum_of = tuple(
        read_enum_value(hp, f"sum_of[{i}]", s) for i, s in enumerate(hp.str_list("sum_of"))
    )
    hp.done()
    rules = CharacterRules(
        dice=dice,
        reroll_if_total_at_most=reroll,
        start_level=node.int("start_level", min=1, max=MAX_LEVEL),
        start_xp=node.int("start_xp", min=0),
        start_coins=node.int("start_coins", min=0),
        hp_sum_of=sum_of,
        attributes=tuple(sorted(attributes, key=lambda a: a.die)),
    )
    node.done()
    return rules


def read_enum_value(node: Node, key: str, value: str) -> Stat:
    if check_ref(node, key, value, [s.value for s in ATTRIBUTES], "attribute"):
        return Stat(value)
    return Stat.STR


# -- experience and elites ----------------------------------------------------------------


@dataclass(frozen=True)
class Experience:
    """The XP ladder (DD-20 Faithful: cumulative, ``step`` per level, no cap)."""

    step: int
    listed_max_level: int
    alt_raise_max: int  # DD-19 Alt: raise one attribute's maximum by this per level-up

    def threshold(self, level: int) -> int:
        """Total XP needed to reach ``level`` (level 1 needs none)."""
        return self.step * (level - 1)

    def level_for(self, xp: int, cap: int | None = None) -> int:
        """The level a total of ``xp`` gives; ``cap`` = DD-20 Alt's highest level."""
        level = 1 + max(xp, 0) // self.step
        return min(level, cap) if cap is not None else level


def read_experience(node: Node) -> Experience:
    exp = Experience(
        step=node.int("step", min=1),
        listed_max_level=node.int("listed_max_level", min=2, max=MAX_LEVEL),
        alt_raise_max=node.int("alt_raise_max", min=1),
    )
    node.done()
    return exp


@dataclass(frozen=True)
class Elite:
    """Elite monsters (DD-13): the base monster's faces to reroll, stat and XP bonus."""

    reroll_faces: tuple[int, ...]
    stat_bonus: int
    xp_bonus: Dice


def read_elite(node: Node) -> Elite:
    elite = Elite(_faces(node, "reroll_faces"), node.int("stat_bonus", min=1),
                  read_dice(node.table("xp_bonus")))
    node.done()
    return elite


# -- combat -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Combat:
    crit_hit: int
    crit_miss: int
    damage_stat: Stat  # DD-06 Faithful
    monster_defeated_at: int  # DD-07
    death_at: int
    bleeding_attribute_at: int  # DD-23
    bleeding_attack_modifier: int


def read_combat(node: Node) -> Combat:
    crit_hit = node.int("crit_hit", min=1, max=DIE)
    crit_miss = node.int("crit_miss", min=1, max=DIE)
    if crit_hit == crit_miss:
        node.error("crit_miss", f"{crit_miss} is also the face that always hits")
    bleeding = node.table("bleeding_out")
    combat = Combat(
        crit_hit=crit_hit,
        crit_miss=crit_miss,
        damage_stat=read_enum_value(node, "damage_stat", node.str("damage_stat")),
        monster_defeated_at=node.int("monster_defeated_at", min=-MAX_HP, max=0),
        death_at=node.int("death_at", min=-MAX_HP, max=0),
        bleeding_attribute_at=bleeding.int("attribute_at", min=0),
        bleeding_attack_modifier=bleeding.int("attack_modifier", max=-1),
    )
    bleeding.done()
    node.done()
    return combat


# -- exploring --------------------------------------------------------------------------


@dataclass(frozen=True)
class Roaming:
    """Returning to danger (DD-21, DD-22). Table entries are monster names, "" for none."""

    table: DiceTable[str]
    elite: bool
    location_xp: bool
    alt_reroll: tuple[int, ...]  # DD-21 Alt: faces of the monster column to reroll
    alt_xp_per_pip: int  # DD-21 Alt: XP = the roaming die times this


@dataclass(frozen=True)
class Exploring:
    roaming: Roaming
    teleport_requires_cleared: bool
    teleport_roaming_check: bool
    descent_artifacts_required: int  # DD-31: found on the current level


def read_exploring(node: Node, monsters: Collection[str]) -> Exploring:
    roam = node.table("roaming")

    def read_row(row: Node) -> str:
        name = row.str("monster", "", nonempty=False)
        if name:
            check_ref(row, "monster", name, monsters, "monster")
        return name

    roaming = Roaming(
        table=load_dice_table(roam, "rows", DIE, read_row),
        elite=roam.bool("elite"),
        location_xp=roam.bool("location_xp"),
        alt_reroll=_faces(roam, "alt_reroll"),
        alt_xp_per_pip=roam.int("alt_xp_per_pip", min=1),
    )
    roam.done()
    temple = node.table("temple_teleport")
    descent = node.table("descent")
    exploring = Exploring(
        roaming=roaming,
        teleport_requires_cleared=temple.bool("requires_cleared"),
        teleport_roaming_check=temple.bool("roaming_check"),
        descent_artifacts_required=descent.int("artifacts_required", min=0),
    )
    temple.done()
    descent.done()
    node.done()
    return exploring


@dataclass(frozen=True)
class TrainingWheel:
    """In the ``location``-th location discovered, reroll these monster-die faces (DD-29);
    ``alt_reroll`` are those rerolled under the Alt reading of ``alt_ruling`` (DD-35)."""

    location: int
    reroll: tuple[int, ...]
    alt_reroll: tuple[int, ...] = ()
    alt_ruling: str = ""

    def reroll_for(self, alt: bool) -> tuple[int, ...]:
        return self.alt_reroll if alt and self.alt_ruling else self.reroll


def read_training_wheels(node: Node) -> tuple[TrainingWheel, ...]:
    wheels: list[TrainingWheel] = []
    for w in node.tables("locations", min_items=1):
        alt_reroll: tuple[int, ...] = ()
        ruling = ""
        if w.has("alt"):
            alt = w.table("alt")
            ruling = read_ruling_id(alt, "ruling")
            alt_reroll = _faces(alt, "reroll")
            alt.done()
        wheels.append(TrainingWheel(w.int("location", min=1), _faces(w, "reroll"), alt_reroll,
                                    ruling))
        w.done()
    seen: set[int] = set()
    for i, wheel in enumerate(wheels):
        if wheel.location in seen:
            node.error(f"locations[{i}].location", f"location {wheel.location} is listed twice")
        seen.add(wheel.location)
    node.done()
    return tuple(wheels)


# -- multiplayer and the d6 scale -----------------------------------------------------------


@dataclass(frozen=True)
class Multiplayer:
    monster_dice_per_player: int  # DD-24: extra dice add to the manual HP


def read_multiplayer(node: Node) -> Multiplayer:
    multi = Multiplayer(node.int("monster_dice_per_player", min=1))
    node.done()
    return multi


@dataclass(frozen=True)
class D6Scale:
    """DD-28 Alt (profile d6-scale): monster HP from the monster die, hits of fixed damage;
    DD-34 Alt: the armour from the die too."""

    hp_per_pip: int
    alt_armor_per_pip: int
    player_damage: int
    monster_damage: int
    monster_abilities: bool


def read_d6_scale(node: Node) -> D6Scale:
    scale = D6Scale(
        hp_per_pip=node.int("hp_per_pip", min=1),
        alt_armor_per_pip=node.int("alt_armor_per_pip", min=1),
        player_damage=node.int("player_damage", min=1),
        monster_damage=node.int("monster_damage", min=1),
        monster_abilities=node.bool("monster_abilities"),
    )
    node.done()
    return scale
