"""Small structured values of 3 Dice Dungeon (modified): dice, stats, effects and items.

An :class:`Effect` is what the engine applies when an item, stone, artifact or class power
is used; its ``kind`` says which of the optional fields matter (see ``EFFECT_PARAMS``).
The printed text always sits beside it in the data, never instead of it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from typing import TypeVar

from generator.model.schema import Node

E = TypeVar("E", bound=StrEnum)


def read_enum(node: Node, key: str, enum: type[E]) -> E:
    """A required choice among an enum's values; a bad value reads as the first member."""
    members = list(enum)
    value = node.choice(key, [m.value for m in members])
    return enum(value) if value in {m.value for m in members} else members[0]


class Stat(StrEnum):
    """The character's attributes, plus hit points for effects that raise a maximum."""

    STR = "STR"
    DEX = "Dex"
    MIND = "Mind"
    HP = "HP"


ATTRIBUTES: tuple[Stat, ...] = (Stat.STR, Stat.DEX, Stat.MIND)


class EffectKind(StrEnum):
    """What an effect does; each kind reads only the fields listed in ``EFFECT_PARAMS``."""

    HEAL = "heal"  # regain `amount` HP, capped at max
    RESTORE = "restore"  # regain `amount` of `stat`'s current value, capped at max (DD-18)
    RAISE_MAX = "raise_max"  # raise `stat`'s maximum and current value by `amount`
    ROLL_BONUS = "roll_bonus"  # +`amount` on attack rolls made with `stat`
    ATTACK_BONUS = "attack_bonus"  # +`amount` on attack rolls, whatever the attribute
    DAMAGE_BONUS = "damage_bonus"  # +`amount` damage on each hit (DD-26)
    BOOST = "boost"  # +`amount` to `stat` for the power's duration (Rage, DD-27)
    DAMAGE_FROM_STAT = "damage_from_stat"  # add `stat`'s current value to damage (Spell Fury)
    EXTRA_ATTACK = "extra_attack"  # `amount` more attack rolls this round (Fist of Fury)
    COINS_NEXT_FIGHT = "coins_next_fight"  # +`amount` coins from the next fight won
    LEAVE_DUNGEON = "leave_dungeon"  # end the run safely, score kept (DD-25)
    UNEARTH_ARTIFACT = "unearth_artifact"  # in a vault, roll on `chart`
    SOUL_STONE = "soul_stone"  # fight on down to `floor` HP, `xp_loss` XP per round below 0
    ABSORB = "absorb"  # absorb `amount` damage `per` fight or hit, `capacity` in all (DD-26)
    FLEE = "flee"  # flee `amount` fights per character level, counted until `reset` (DD-26)
    TELEPORT = "teleport"  # after clearing a location, go to any explored location
    SLEEP_MONSTER = "sleep_monster"  # a monster sleeps: no XP, awake on the next visit
    IGNORE_HIT = "ignore_hit"  # ignore `amount` hits against you
    MIND_TOKEN = "mind_token"  # give back `amount` Mind at the next level-up (DD-17 Alt)
    PICK_LOCK = "pick_lock"  # open a lock; none exist in the basic dungeon (DD-27)


#: The fields each effect kind needs; any other field is an unknown key.
EFFECT_PARAMS: dict[EffectKind, tuple[str, ...]] = {
    EffectKind.HEAL: ("amount",),
    EffectKind.RESTORE: ("stat", "amount"),
    EffectKind.RAISE_MAX: ("stat", "amount"),
    EffectKind.ROLL_BONUS: ("stat", "amount"),
    EffectKind.ATTACK_BONUS: ("amount",),
    EffectKind.DAMAGE_BONUS: ("amount",),
    EffectKind.BOOST: ("stat", "amount"),
    EffectKind.DAMAGE_FROM_STAT: ("stat",),
    EffectKind.EXTRA_ATTACK: ("amount",),
    EffectKind.COINS_NEXT_FIGHT: ("amount",),
    EffectKind.LEAVE_DUNGEON: (),
    EffectKind.UNEARTH_ARTIFACT: ("chart",),
    EffectKind.SOUL_STONE: ("floor", "xp_loss"),
    EffectKind.ABSORB: ("amount", "per", "capacity"),
    EffectKind.FLEE: ("amount", "reset"),
    EffectKind.TELEPORT: (),
    EffectKind.SLEEP_MONSTER: (),
    EffectKind.IGNORE_HIT: ("amount",),
    EffectKind.MIND_TOKEN: ("amount",),
    EffectKind.PICK_LOCK: (),
}

ABSORB_PER = ("fight", "hit")
FLEE_RESET = ("dungeon_level", "never")
#: The dice charts an effect or a table cell may send the player to (tables/<chart>.toml).
CHARTS = ("items", "stones", "artifacts")


@dataclass(frozen=True)
class Dice:
    """``count`` dice of ``faces`` faces plus ``plus``; ``count = 0`` is a fixed number."""

    count: int
    faces: int
    plus: int = 0

    @property
    def minimum(self) -> int:
        return self.count + self.plus

    @property
    def maximum(self) -> int:
        return self.count * self.faces + self.plus

    def __str__(self) -> str:
        if self.count == 0:
            return str(self.plus)
        text = f"{self.count}d{self.faces}"
        return f"{text}+{self.plus}" if self.plus else text


def read_dice(node: Node) -> Dice:
    """Read ``{ count, faces, plus }``; ``faces`` is needed only when ``count`` > 0."""
    count = node.int("count", 0, min=0, max=10)
    faces = node.int("faces", None if count else 0, min=2, max=20) if count else 0
    plus = node.int("plus", 0, min=0)
    if not count and node.has("faces"):
        node.error("faces", "faces needs a count of at least 1")
    node.done()
    return Dice(count, faces, plus)


@dataclass(frozen=True)
class Effect:
    """One structured effect; only the fields of ``EFFECT_PARAMS[kind]`` are meaningful."""

    kind: EffectKind
    amount: int = 0
    stat: Stat | None = None
    chart: str = ""
    per: str = ""
    capacity: int = 0
    floor: int = 0
    xp_loss: int = 0
    reset: str = ""


def read_effect(node: Node) -> Effect:
    """Read one effect table, checking that it has exactly the fields its kind needs."""
    kinds = [k.value for k in EffectKind]
    raw = node.data.get("kind")
    node.choice("kind", kinds)
    if raw not in kinds:
        # The bad or missing kind was reported; its other fields would only add noise.
        node._used.update(node.data)
        return Effect(EffectKind.LEAVE_DUNGEON)
    kind = EffectKind(raw)
    values: dict[str, object] = {}
    for param in EFFECT_PARAMS[kind]:
        if param == "amount":
            values[param] = node.int("amount", min=1)
        elif param == "stat":
            values[param] = read_enum(node, "stat", Stat)
        elif param == "chart":
            values[param] = node.choice("chart", CHARTS)
        elif param == "per":
            values[param] = node.choice("per", ABSORB_PER)
        elif param == "reset":
            values[param] = node.choice("reset", FLEE_RESET)
        elif param == "floor":
            values[param] = node.int("floor", max=0)
        else:  # capacity, xp_loss
            values[param] = node.int(param, min=1)
    node.done()
    return Effect(kind, **values)  # type: ignore[arg-type]


_RULING_ID = re.compile(r"^DD-\d{2}$")


def read_ruling_id(node: Node, key: str) -> str:
    """A ruling ID of this ruleset (``DD-nn``) that an Alt value belongs to."""
    value = node.str(key)
    if value and not _RULING_ID.match(value):
        node.error(key, f"{value!r} is not a ruling ID of the form DD-nn")
    return value


class ItemKind(StrEnum):
    TREASURE = "treasure"
    ITEM = "item"
    STONE = "stone"
    ARTIFACT = "artifact"


@dataclass(frozen=True)
class AltEffect:
    """The effect an item has instead when a profile takes the Alt reading of ``ruling``."""

    ruling: str
    text: str
    effect: Effect


@dataclass(frozen=True)
class Item:
    """Anything the character can gain: a treasure, a chart item, a stone or an artifact.

    ``uses`` is 1 for things used up when used and 0 for things that last; ``stacks``
    says whether several copies add up (Magic Sword, Elemental Weapon).
    """

    name: str
    kind: ItemKind
    text: str
    effect: Effect
    uses: int
    stacks: bool
    alt: AltEffect | None

    @property
    def single_use(self) -> bool:
        return self.uses == 1

    def effect_for(self, alt: bool) -> Effect:
        """The effect under a profile; ``alt`` = the profile takes this item's Alt ruling."""
        return self.alt.effect if alt and self.alt is not None else self.effect


def read_item(node: Node, kind: ItemKind) -> Item:
    """Read an item's fields (``name``, ``text``, ``effect``, ``uses``, ``stacks``, ``alt``)."""
    name = node.str("name")
    text = node.str("text")
    effect = read_effect(node.table("effect"))
    uses = node.int("uses", min=0, max=1)
    stacks = node.bool("stacks", False)
    alt: AltEffect | None = None
    if node.has("alt"):
        alt_node = node.table("alt")
        alt = AltEffect(
            ruling=read_ruling_id(alt_node, "ruling"),
            text=alt_node.str("text"),
            effect=read_effect(alt_node.table("effect")),
        )
        alt_node.done()
    return Item(name, kind, text, effect, uses, stacks, alt)
