"""The typed objects of Tower of Choices: skills, abilities, items and the rules of checks.

Tower of Choices has no dice: a character is a deck of skill cards, and a check draws from
it (rulings.md section 3).  Skill names are normalised (TC-13), item and ability effects
are small typed records, and the numbers a ruling's Alt reading needs sit beside the
Faithful ones, so that a profile only switches readings.  Loading and validation live in
:mod:`generator.rulesets.tower_of_choices.read`, the printable views in
:mod:`generator.rulesets.tower_of_choices.views`.  All objects are immutable.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum


class AbilityKind(StrEnum):
    """What an ability's effect does; see :data:`ABILITY_KINDS` for its parameters."""

    EXTRA_CARD = "extra_card"
    BURN_TOP_CARD_FOR_EXTRA_DRAW = "burn_top_card_for_extra_draw"
    REFRESH_RANDOM_CARD = "refresh_random_card"
    STARTING_COINS = "starting_coins"
    EXTRA_FELL_PER_SURPLUS = "extra_fell_per_surplus"
    EXTRA_ACTION = "extra_action"
    LEARN_MAGIC = "learn_magic"
    FIRST_ATTACK_HITS = "first_attack_hits"
    DEFEND_ALLIES = "defend_allies"
    HEAL_OTHERS = "heal_others"
    MAGIC_ITEM = "magic_item"
    TOPIC_BRIEFS = "topic_briefs"
    CRAFT_TRAPS = "craft_traps"


@dataclass(frozen=True)
class KindSpec:
    """Which parameters an effect kind takes, and whether the engine applies it."""

    engine: bool
    skill: bool = False
    amount: bool = False
    words: bool = False


ABILITY_KINDS: Mapping[AbilityKind, KindSpec] = {
    AbilityKind.EXTRA_CARD: KindSpec(engine=True, skill=True, amount=True),
    AbilityKind.BURN_TOP_CARD_FOR_EXTRA_DRAW: KindSpec(engine=True, amount=True),
    AbilityKind.REFRESH_RANDOM_CARD: KindSpec(engine=True, amount=True),
    AbilityKind.STARTING_COINS: KindSpec(engine=True, amount=True),
    AbilityKind.EXTRA_FELL_PER_SURPLUS: KindSpec(engine=True, skill=True, amount=True),
    AbilityKind.EXTRA_ACTION: KindSpec(engine=True, skill=True, amount=True),
    AbilityKind.LEARN_MAGIC: KindSpec(engine=False, skill=True),
    AbilityKind.FIRST_ATTACK_HITS: KindSpec(engine=False),
    AbilityKind.DEFEND_ALLIES: KindSpec(engine=False, skill=True),
    AbilityKind.HEAL_OTHERS: KindSpec(engine=False),
    AbilityKind.MAGIC_ITEM: KindSpec(engine=False),
    AbilityKind.TOPIC_BRIEFS: KindSpec(engine=False, amount=True, words=True),
    AbilityKind.CRAFT_TRAPS: KindSpec(engine=False),
}


class ItemKind(StrEnum):
    """What an item does beyond its DRAW and TARGET modifiers.

    Only RESTORE_DISCARD is applied by the engine (:attr:`.rules.Rules.restore_items`);
    ``items.toml`` leaves REVEAL_ROOM_NAMES to the booklet and the others to the DM, so
    those are read by their value and validated, and stay part of the data model.
    """

    RESTORE_DISCARD = "restore_discard"
    REVEAL_ROOM_NAMES = "reveal_room_names"
    RECHARGE_MAGIC_ITEM = "recharge_magic_item"
    PERFECT_MEMORY = "perfect_memory"
    POISON_WEAPON = "poison_weapon"
    WIDER_CRAFTING = "wider_crafting"
    DEFEND_SPECIAL_ATTACKS = "defend_special_attacks"


class SetbackKind(StrEnum):
    """The setbacks of TC-18 (Faithful); all but LOSE_REWARD take an amount."""

    TARGET_UP = "target_up"
    DRAIN = "drain"
    LOSE_ITEM = "lose_item"
    LOSE_REWARD = "lose_reward"


@dataclass(frozen=True)
class Skill:
    name: str
    covers: str


@dataclass(frozen=True)
class SkillAlias:
    """Another name the original text uses for a skill (TC-13)."""

    written: str
    skill: str


@dataclass(frozen=True)
class AbilityEffect:
    """One effect of an ability. ``skill``, ``amount`` and ``words`` are set only when the
    kind takes them (0 or "" otherwise); ``ruling`` names the ruling that reads it."""

    kind: AbilityKind
    skill: str = ""
    amount: int = 0
    words: int = 0
    ruling: str = ""

    @property
    def engine(self) -> bool:
        """True when the engine applies the effect; False when it is narrative."""
        return ABILITY_KINDS[self.kind].engine


@dataclass(frozen=True)
class Ability:
    name: str
    text: str
    effects: tuple[AbilityEffect, ...]

    def effect(self, kind: AbilityKind) -> AbilityEffect | None:
        """The ability's effect of ``kind``, if it has one."""
        return next((e for e in self.effects if e.kind == kind), None)


@dataclass(frozen=True)
class Modifier:
    """A change to a check whose approach is ``skill``: exactly one of ``draw`` (added to
    DRAW) and ``target`` (added to TARGET) is non-zero.  ``condition`` limits it in words
    and ``ruling`` names the ruling that decides whether the condition applies (TC-17)."""

    skill: str
    draw: int = 0
    target: int = 0
    condition: str = ""
    ruling: str = ""
    kept_if_lost: bool = False


@dataclass(frozen=True)
class Item:
    name: str
    cost: int
    text: str
    one_use: bool = False
    tier: int = 0  # 0 = not one of a tiered family
    includes: str = ""  # a smaller kit whose contents come with this one
    contents: tuple[str, ...] = ()
    modifiers: tuple[Modifier, ...] = ()
    effects: tuple[ItemKind, ...] = ()

    def modifiers_for(self, skill: str) -> tuple[Modifier, ...]:
        return tuple(m for m in self.modifiers if m.skill == skill)

    def help_for(self, skill: str, step: int) -> tuple[int, int] | None:
        """The (DRAW, TARGET) change this item gives an approach of ``skill`` that names it
        as helping (the catalogue's ``items``), as :func:`.procedures.check_numbers` plays it:
        the Equipment row's DRAW ``step``, or, for an item whose own modifier has a
        condition (the reference book, TC-17), that modifier, its condition met.  None
        where naming it adds nothing or counts twice: the conditional modifier is for
        another skill, or the item's own modifier already helps every check of ``skill``.
        """
        if any(m.condition for m in self.modifiers):
            met = [m for m in self.modifiers if m.skill == skill and m.condition]
            if not met:
                return None
            return sum(m.draw for m in met), sum(m.target for m in met)
        if self.modifiers_for(skill):
            return None
        return step, 0


@dataclass(frozen=True)
class CharacterRules:
    starting_skills: int
    cards_per_starting_skill: int
    distinct_starting_skills: bool  # TC-14 Faithful
    abilities: int
    starting_coins: int
    max_starting_items: int  # TC-15
    unspent_coins_kept: bool
    carry_limit: int  # TC-16


@dataclass(frozen=True)
class Adjustment:
    """Who may change a check, and which way; the amount is the item's or the DM's."""

    source: str
    changes: str  # "draw" or "target"
    direction: int  # +1 or -1
    decided_by: str  # "item" or "dm"


@dataclass(frozen=True)
class CheckRules:
    standard_draw: int
    standard_target: int
    target_floor: int  # TC-05 Faithful
    target_floor_alt: int  # TC-05 Alt
    fewest_draw: int  # TC-04
    drawn_cards_to_discard: bool
    exhausted_when_draw_pile_empty: bool  # TC-02, TC-03
    rest_shuffles_discard_with_draw_pile: bool
    challenge_label: str
    challenge_target_per_card: int  # TC-01
    challenge_added_only_when_resting: bool
    challenge_converted_after_draw: bool  # TC-07..TC-09
    challenge_max_per_rest_alt: int  # TC-10 Alt (Faithful: no limit)
    wild_skill: str  # TC-06 Alt
    wild_target_increase: int
    adjustments: tuple[Adjustment, ...]
    obstacle_min_draw: int
    obstacle_min_target: int
    obstacle_target_at_most_draw: bool
    obstacle_fewest_approaches: int  # the approaches an obstacle names, at least
    obstacle_most_approaches: int  # and at most


@dataclass(frozen=True)
class Setback:
    name: str
    kind: SetbackKind
    amount: int  # 0 for LOSE_REWARD
    text: str


@dataclass(frozen=True)
class WoundsRules:
    """The wounds track of TC-18 Alt."""

    per_failure: int
    out_at: int


# -- the obstacle catalogue of the booklets (tables/catalogue.toml) ---------------------------


@dataclass(frozen=True)
class CatalogueApproach:
    """One approach a catalogue obstacle allows: ``skill`` at ``draw`` and ``target``, and
    the ``items`` that help it (:meth:`Item.help_for` says how)."""

    skill: str
    draw: int
    target: int
    items: tuple[str, ...] = ()


@dataclass(frozen=True)
class CatalogueObstacle:
    """An obstacle as the booklet's DM describes it: what the reader sees (``text``), the
    approaches allowed, what success and failure look like, and the failure's ``setback``
    (a name of setbacks.toml, TC-18)."""

    name: str
    text: str
    approaches: tuple[CatalogueApproach, ...]
    success: str
    failure: str
    setback: str


@dataclass(frozen=True)
class Place:
    """A named place with a line of description: a room or a rest spot."""

    name: str
    text: str


@dataclass(frozen=True)
class Loot:
    """Something a room may hold: an item of the catalogue, and how it is found."""

    item: str
    text: str


@dataclass(frozen=True)
class TrialTexts:
    """The words of a booklet's trial as a whole: the note on what the booklet is, the way
    in, and its two endings (TC-20)."""

    notice: str
    threshold: str
    victory: str
    defeat: str


@dataclass(frozen=True)
class Catalogue:
    """What a booklet's trial is built from: ``rooms`` to name the rooms (the last is always
    ``top``), ``rest_spots``, ``loot`` and ``obstacles``."""

    texts: TrialTexts
    top: Place
    rooms: tuple[Place, ...]
    rest_spots: tuple[Place, ...]
    loot: tuple[Loot, ...]
    obstacles: tuple[CatalogueObstacle, ...]

    def obstacle(self, name: str) -> CatalogueObstacle:
        """Raises KeyError for a name the catalogue does not have."""
        for obstacle in self.obstacles:
            if obstacle.name == name:
                return obstacle
        raise KeyError(name)
