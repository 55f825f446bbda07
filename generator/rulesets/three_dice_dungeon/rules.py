"""The rules of 3 Dice Dungeon (modified) under one profile, resolved once.

:func:`rules_for` reads the typed content model and the profile and returns a frozen
:class:`Rules`: every number the engine plays with comes from the content, and every
ambiguity of rulings.md section 2.3 is decided here by ``profile.alt(ID)``.  Other modules
read the flags and never look at the profile again.

It also builds a :class:`Foe` (a monster as fought: stats after the elite bonus, the
d6 scale and the DD-05 reading) from a level-table name and the monster die.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from generator.engine.rng import DiceRng
from generator.model.common import Profile
from generator.rulesets.three_dice_dungeon.data import ThreeDiceDungeon
from generator.rulesets.three_dice_dungeon.effects import Dice, Effect, EffectKind, Item
from generator.rulesets.three_dice_dungeon.entities import (
    Ability,
    CharacterClass,
    LevelRow,
    LevelTable,
    LocationKind,
    Loot,
    Monster,
)
from generator.rulesets.three_dice_dungeon.parameters import D6Scale

RULESET = "three-dice-dungeon"

#: Steps on the map grid for the four sides, in the order ``data.sides`` lists them
#: (north, east, south, west: clockwise from north).  Geometry, not a game number.
SIDE_STEPS: tuple[tuple[int, int], ...] = ((0, -1), (1, 0), (0, 1), (-1, 0))


def opposite(side: int) -> int:
    """The index of the side facing ``side`` (north <-> south, east <-> west)."""
    return (side + len(SIDE_STEPS) // 2) % len(SIDE_STEPS)


@dataclass(frozen=True)
class Foe:
    """A monster as fought: its stats after every rule that changes them.

    ``damage`` is what one hit does before abilities (DD-05), ``armour`` the number an
    attack must beat (the manual's Dex), ``dragon`` marks the unswappable kind (DD-09).
    """

    name: str
    base: str  # the manual monster whose stats and loot it uses
    hp: int
    damage: int
    armour: int
    mind: int
    abilities: tuple[Ability, ...]
    elite: bool
    loot: Loot
    dragon: bool


@dataclass(frozen=True)
class Rules:
    """Every rule and number of one (content, profile) pair, decided once."""

    data: ThreeDiceDungeon
    profile: Profile
    # Character creation.
    free_assignment: bool  # DD-01 Alt: the player places the three dice
    class_at_creation: bool  # DD-02 Alt: a class's HP is the starting HP
    # Combat.
    attribute_to_hit: bool  # DD-04 Faithful: die + attribute + bonuses > armour
    monster_damage_is_dex: bool  # DD-05 Alt
    damage_from_attack_stat: bool  # DD-06 Alt
    abilities_once: bool  # DD-08 Alt: each ability at most once a fight
    bleeding: bool  # DD-23 Faithful
    scale: D6Scale | None  # DD-28 Alt (profile d6-scale)
    die_armour: bool  # DD-34 Alt: on the d6 scale, the armour is the monster die too
    # The map.
    exit_dice: Mapping[str, Dice]  # by location kind id (DD-10)
    reroll_exit_count: bool  # DD-11 Alt
    stuck_fallback: bool  # DD-12 Faithful: add an exit when a level is stuck
    # Monsters.
    elite_rerolls_base: bool  # DD-13 Faithful
    substitute: bool  # DD-09 Alt: each dungeon swaps manual monsters from the seed
    # Experience.
    raise_max_per_level: bool  # DD-19 Alt
    level_cap: int | None  # DD-20 Alt
    classes: tuple[CharacterClass, ...]  # empty under DD-27 Alt
    # Exploring.
    roaming_alt: bool  # DD-21 Alt
    roam_destination_only: bool  # DD-22 Alt
    portal_to_start: bool  # DD-25 Alt
    artifacts_any_level: bool  # DD-31 Alt
    # Items, by name, with their profile's effect (DD-15..18, DD-26).
    effects: Mapping[str, Effect]
    items: Mapping[str, Item]
    single_use: Mapping[EffectKind, tuple[str, ...]]  # single-use items by effect, by name
    # Fast lookups: the level tables' rows by face - 1, and a cache of built foes.
    main_rows: tuple[LevelRow, ...]
    wheels: Mapping[int, tuple[int, ...]]  # training wheels: discovery number -> faces (DD-29)
    undead_rows: tuple[LevelRow, ...]
    _foes: dict[tuple[str, int, bool, tuple[tuple[str, str], ...]], Foe] = field(
        default_factory=dict, compare=False, repr=False
    )

    @property
    def kinds(self) -> Mapping[str, LocationKind]:
        return self.data.location_kinds

    def table(self, undead: bool) -> LevelTable:
        return self.data.undead_level if undead else self.data.main_level

    def row(self, undead: bool, face: int) -> LevelRow:
        return (self.undead_rows if undead else self.main_rows)[face - 1]

    def gain_alt(self, ruling: str) -> bool:
        """Whether a reward's Alt applies (treasures: DD-15 on the main level, DD-16 on the
        undead; the Dragons' loot: DD-33)."""
        return bool(ruling) and self.profile.alt(ruling)

    def effect(self, item: str) -> Effect:
        return self.effects[item]

    def manual(self, name: str) -> Monster:
        """The manual monster whose stats a level-table name uses (undead borrow, DD-09)."""
        base = self.data.undead_borrows.get(name, name)
        for monster in self.data.monsters:
            if monster.name == base:
                return monster
        raise KeyError(name)

    def loot(self, monster: Monster) -> Loot:
        """A monster's loot under the profile (DD-33 decides the Dragons' Special)."""
        return monster.loot.loot_for(self.gain_alt(monster.loot.alt_ruling))

    def signature_face(self) -> int:
        """The monster-column face of the unswappable monster (DD-13 Alt's elite)."""
        for row in self.data.main_level.rows.rows:
            if row.value.monster and not self.manual(row.value.monster).swappable:
                return row.low
        raise ValueError("the main level table has no unswappable monster")

    def foe(self, name: str, die: int, elite: bool, substitution: Mapping[str, str]) -> Foe:
        """The monster a level-table name and its monster die give (cached)."""
        key = (name, die, elite, tuple(sorted(substitution.items())) if substitution else ())
        found = self._foes.get(key)
        if found is None:
            found = self._foes[key] = self._build_foe(name, die, elite, substitution)
        return found

    def _build_foe(self, name: str, die: int, elite: bool, substitution: Mapping[str, str]) -> Foe:
        """The monster a level-table name and its monster die give.

        ``name`` is the table's (or roaming table's) name; ``substitution`` maps manual
        names to the dungeon's replacements (DD-09); undead names borrow the stats of
        their slot's manual monster, after substitution.  ``die`` is the monster die that
        set the d6-scale stats (the base die for an elite).
        """
        borrowed = self.data.undead_borrows.get(name, name)
        base_name = substitution.get(borrowed, borrowed)
        base = self.manual(base_name)
        bonus = self.data.elite.stat_bonus if elite else 0
        dragon = not self.manual(borrowed).swappable
        shown = name if name in self.data.undead_borrows else base_name
        if self.scale is not None:
            # DD-28 Alt: HP from the die, and every hit does the scale's damage.  DD-34
            # Faithful: the armour an attack must beat is still the manual's Dex; Alt: the
            # die too.  An elite adds its bonus to HP and armour (DD-13); the scale's
            # damage stays fixed.
            armour = die * self.scale.alt_armor_per_pip if self.die_armour else base.dexterity
            return Foe(
                name=shown,
                base=base.name,
                hp=die * self.scale.hp_per_pip + bonus,
                damage=self.scale.monster_damage,
                armour=armour + bonus,
                mind=base.mind + bonus,
                abilities=base.abilities if self.scale.monster_abilities else (),
                elite=elite,
                loot=self.loot(base),
                dragon=dragon,
            )
        # DD-05: the manual's Str/dmg column, or (Alt) its Dex.
        damage = base.dexterity if self.monster_damage_is_dex else base.strength
        return Foe(
            name=shown,
            base=base.name,
            hp=base.hp + bonus,
            damage=damage + bonus,
            armour=base.dexterity + bonus,
            mind=base.mind + bonus,
            abilities=base.abilities,
            elite=elite,
            loot=self.loot(base),
            dragon=dragon,
        )


def rules_for(data: ThreeDiceDungeon, profile: Profile) -> Rules:
    """Decide every ruling of rulings.md 2.3 for ``profile`` (see each field's comment)."""
    alt = profile.alt
    items = data.all_items()
    effects = {
        name: item.effect_for(item.alt is not None and alt(item.alt.ruling))
        for name, item in items.items()
    }
    return Rules(
        data=data,
        profile=profile,
        free_assignment=alt("DD-01"),
        class_at_creation=alt("DD-02"),
        attribute_to_hit=not alt("DD-04"),
        monster_damage_is_dex=alt("DD-05"),
        damage_from_attack_stat=alt("DD-06"),
        abilities_once=alt("DD-08"),
        bleeding=not alt("DD-23"),
        scale=data.d6_scale if alt("DD-28") else None,
        die_armour=alt("DD-34"),
        exit_dice={k: kind.exits_for(alt("DD-10")) for k, kind in data.location_kinds.items()},
        reroll_exit_count=alt("DD-11"),
        stuck_fallback=not alt("DD-12"),
        elite_rerolls_base=not alt("DD-13"),
        substitute=alt("DD-09"),
        raise_max_per_level=alt("DD-19"),
        level_cap=data.experience.listed_max_level if alt("DD-20") else None,
        classes=() if alt("DD-27") else data.classes,
        roaming_alt=alt("DD-21"),
        roam_destination_only=alt("DD-22"),
        portal_to_start=alt("DD-25"),
        artifacts_any_level=alt("DD-31"),
        effects=effects,
        items=items,
        single_use={
            kind: tuple(
                sorted(n for n, i in items.items() if i.single_use and effects[n].kind is kind)
            )
            for kind in EffectKind
        },
        main_rows=data.main_level.rows.lookup_table(),
        # DD-35 decides whether the wheels reroll the elite's face too.
        wheels={w.location: w.reroll_for(bool(w.alt_ruling) and alt(w.alt_ruling))
                for w in data.training_wheels},
        undead_rows=data.undead_level.rows.lookup_table(),
    )


def roll_dice(rng: DiceRng, dice: Dice) -> tuple[tuple[int, ...], int]:
    """Roll structured dice: the raw rolls and the total (``plus`` included)."""
    rolls = tuple(rng.die(dice.faces) for _ in range(dice.count))
    return rolls, sum(rolls) + dice.plus

