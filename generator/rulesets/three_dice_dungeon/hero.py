"""The character as played: attributes, hit points, XP, items, and the rules that change them.

:class:`Hero` is a small mutable record (``copy()`` takes a snapshot): the simulator
changes it in place for speed.  The functions below are the treasure, experience and
class rules of rulings.md section 2.1; each cites the rulings it implements.
:func:`record` writes a step of a played game's log with the character's state after it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from generator.engine import playlog
from generator.rulesets.three_dice_dungeon.dungeon import CharacterRoll
from generator.rulesets.three_dice_dungeon.effects import ATTRIBUTES, Effect, EffectKind, Stat
from generator.rulesets.three_dice_dungeon.entities import CharacterClass
from generator.rulesets.three_dice_dungeon.rules import Rules


class Hero:
    """The character: current and maximum attributes, HP, XP, coins and possessions.

    ``held`` counts single-use items (and the lasting ones, for the record); the lasting
    bonuses are kept summed (``roll_bonus``, ``attack_bonus``, ``damage_bonus``).
    """

    __slots__ = (
        "absorb",
        "absorb_left",
        "artifacts",
        "attack_bonus",
        "coins",
        "coins_next",
        "cur",
        "damage_bonus",
        "flee",
        "flights",
        "held",
        "hp",
        "klass",
        "level",
        "max_hp",
        "mind_tokens",
        "roll_bonus",
        "soul",
        "top",
        "xp",
    )

    def __init__(self, rules: Rules, character: CharacterRoll):
        spec = rules.data.character
        self.cur: dict[Stat, int] = {s: character.value(s) for s in ATTRIBUTES}
        self.top: dict[Stat, int] = dict(self.cur)
        self.hp = character.hp
        self.max_hp = character.hp
        self.xp = spec.start_xp
        self.level = spec.start_level
        self.coins = spec.start_coins
        self.klass: CharacterClass | None = None
        self.held: dict[str, int] = {}
        self.roll_bonus: dict[Stat, int] = dict.fromkeys(ATTRIBUTES, 0)
        self.attack_bonus = 0
        self.damage_bonus = 0
        self.soul: Effect | None = None
        self.absorb: Effect | None = None
        self.absorb_left = 0
        self.flee: Effect | None = None
        self.flights = 0  # Boots flights counted since the last reset (DD-26)
        self.coins_next = 0
        self.mind_tokens = 0
        self.artifacts = 0
        if character.klass:  # DD-02 Alt: the class is taken at creation and sets the HP
            chosen = next(c for c in rules.classes if c.name == character.klass)
            take_class(self, chosen, with_hp=False)

    def copy(self) -> Hero:
        """A snapshot (for push/pop searches and tests)."""
        other = Hero.__new__(Hero)
        for name in Hero.__slots__:
            value = getattr(self, name)
            setattr(other, name, dict(value) if isinstance(value, dict) else value)
        return other

    def has(self, item: str) -> bool:
        return self.held.get(item, 0) > 0


# -- the log of a played game ---------------------------------------------------------------


State = tuple[tuple[str, playlog.StateValue], ...]


def hero_state(hero: Hero, monster: tuple[int, int] | None = None) -> State:
    """What a step shows of the character (and, in a fight, of the monster's HP and Mind)."""
    values: dict[str, playlog.StateValue] = {"HP": hero.hp, "max HP": hero.max_hp}
    for stat in ATTRIBUTES:
        values[stat.value] = hero.cur[stat]
    values.update({"XP": hero.xp, "level": hero.level, "coins": hero.coins,
                   "class": hero.klass.name if hero.klass else "none", "items": held_text(hero)})
    if hero.absorb is not None:
        values["absorb left"] = hero.absorb_left
    if monster is not None:
        values["monster HP"], values["monster Mind"] = monster
    return playlog.state_of(values)


def held_text(hero: Hero) -> str:
    """The items held, in name order, with "x2" for copies ("none": nothing held)."""
    names = sorted(n for n, count in hero.held.items() if count > 0)
    return ", ".join(f"{n} x{hero.held[n]}" if hero.held[n] > 1 else n for n in names) or "none"


def record(log: list[playlog.Step], what: str, text: str, hero: Hero, *, dice: Sequence[int] = (),
           ruling: str = "", monster: tuple[int, int] | None = None) -> None:
    """Add a step to a played game's log, with the character's state after it."""
    log.append(playlog.Step(what, text, tuple(dice), ruling, hero_state(hero, monster)))


class LevelChoices(Protocol):
    """The choices a level-up asks of the player."""

    def choose_class(self, rules: Rules, hero: Hero) -> CharacterClass | None: ...

    def raise_stat(self, rules: Rules, hero: Hero) -> Stat: ...


# -- hit points and Mind ------------------------------------------------------------------


def heal(hero: Hero, amount: int) -> int:
    """Regain HP, never above the maximum; returns HP actually regained."""
    before = hero.hp
    hero.hp = min(hero.max_hp, hero.hp + amount)
    return hero.hp - before


def death_floor(rules: Rules, hero: Hero) -> int:
    """The HP at or below which the hero is dead: 0, or the Soul Stone's floor."""
    return hero.soul.floor if hero.soul is not None else rules.data.combat.death_at


def bleeding(rules: Rules, hero: Hero) -> int:
    """DD-23: the attack modifier while any attribute is down to the threshold (else 0)."""
    if not rules.bleeding:
        return 0
    combat = rules.data.combat
    if min(hero.cur.values()) <= combat.bleeding_attribute_at:
        return combat.bleeding_attack_modifier
    return 0


def restore_mind(hero: Hero) -> None:
    hero.cur[Stat.MIND] = hero.top[Stat.MIND]


def spend_mind(hero: Hero, amount: int) -> None:
    hero.cur[Stat.MIND] -= amount


# -- items ----------------------------------------------------------------------------------


def raise_max(hero: Hero, stat: Stat, amount: int) -> None:
    """Raise a maximum and the current value with it (items, stones, classes)."""
    if stat is Stat.HP:
        hero.max_hp += amount
        hero.hp += amount
    else:
        hero.top[stat] += amount
        hero.cur[stat] += amount


def gain_item(rules: Rules, hero: Hero, name: str) -> None:
    """Gain a treasure, chart item, stone, artifact or loot item (DD-15..18, DD-26).

    Permanent raises (potions of strength, stones, the fountain, the Alt tome) apply at
    once.  Lasting bonuses are summed; a second copy of a lasting item adds up only if
    it stacks, except a second Emerald, which adds its capacity (a spare stone).
    Single-use items are kept until used.  A Divine Rod pays out at the next fight won.
    """
    item = rules.items[name]
    effect = rules.effects[name]
    kind = effect.kind
    if kind is EffectKind.RAISE_MAX and effect.stat is not None:
        raise_max(hero, effect.stat, effect.amount)
        return
    if kind is EffectKind.COINS_NEXT_FIGHT:
        hero.coins_next += effect.amount
        return
    if kind is EffectKind.MIND_TOKEN:  # DD-17 Alt
        hero.mind_tokens += effect.amount
        return
    first = not hero.has(name)
    hero.held[name] = hero.held.get(name, 0) + 1
    if item.single_use:
        return
    if kind is EffectKind.ABSORB:
        hero.absorb = effect
        hero.absorb_left += effect.capacity
        return
    if not (first or item.stacks):
        return
    if kind is EffectKind.ROLL_BONUS and effect.stat is not None:
        hero.roll_bonus[effect.stat] += effect.amount
    elif kind is EffectKind.ATTACK_BONUS:
        hero.attack_bonus += effect.amount
    elif kind is EffectKind.DAMAGE_BONUS:
        hero.damage_bonus += effect.amount
    elif kind is EffectKind.SOUL_STONE:
        hero.soul = effect
    elif kind is EffectKind.FLEE:
        hero.flee = effect


def use_item(rules: Rules, hero: Hero, name: str) -> Effect:
    """Use up one single-use item and apply what it does at once (heal, restore).

    Roll bonuses, teleports, sleep, shields and portals are applied by the caller, which
    knows the situation; this only spends the item and returns its effect.

    Raises:
        ValueError: the hero does not hold the item.
    """
    if not hero.has(name):
        raise ValueError(f"the hero holds no {name}")
    hero.held[name] -= 1
    effect = rules.effects[name]
    if effect.kind is EffectKind.HEAL:
        heal(hero, effect.amount)
    elif effect.kind is EffectKind.RESTORE and effect.stat is not None:
        hero.cur[effect.stat] = min(hero.top[effect.stat], hero.cur[effect.stat] + effect.amount)
    return effect


def can_flee(hero: Hero) -> bool:
    """DD-26: Boots allow ``amount`` flights per character level, counted per dungeon
    level (Faithful; the count resets on a new level) or over the game (Alt)."""
    return hero.flee is not None and hero.flights < hero.flee.amount * hero.level


def items_with(rules: Rules, hero: Hero, kind: EffectKind) -> list[str]:
    """Held single-use items whose effect is of ``kind``, in name order."""
    held = hero.held
    return [n for n in rules.single_use[kind] if held.get(n, 0) > 0]


# -- classes, experience and levels ---------------------------------------------------------


def take_class(hero: Hero, klass: CharacterClass, *, with_hp: bool = True) -> None:
    """DD-19: a class's bonuses raise both the current and the maximum values."""
    hero.klass = klass
    if with_hp:
        raise_max(hero, Stat.HP, klass.hp)
    raise_max(hero, Stat.STR, klass.strength)
    raise_max(hero, Stat.DEX, klass.dexterity)
    raise_max(hero, Stat.MIND, klass.mind)


def gain_xp(rules: Rules, hero: Hero, amount: int, choices: LevelChoices,
            log: playlog.Log = None, why: tuple[str, str] = ("", "")) -> int:
    """Add XP and take every level it reaches (DD-19, DD-20); returns levels gained.

    Levels are never lost: the Soul Stone's XP loss lowers XP only.  ``why``: where the
    XP comes from and the ruling that says so, for the log.
    """
    hero.xp += amount
    if log is not None:
        record(log, "xp", f"{amount} XP: {why[0]}", hero, ruling=why[1])
    gained = 0
    exp = rules.data.experience
    while hero.xp >= exp.threshold(hero.level + 1):
        if rules.level_cap is not None and hero.level >= rules.level_cap:  # DD-20 Alt
            break
        hero.level += 1
        gained += 1
        level_up(rules, hero, choices, log)
    return gained


def level_up(rules: Rules, hero: Hero, choices: LevelChoices, log: playlog.Log = None) -> None:
    """DD-19 Faithful: restore every attribute, Mind included; HP is not an attribute.

    At the class level (the first level-up) a class may be taken (DD-27 Alt: none).
    DD-19 Alt also raises one attribute's maximum (after the restoring or before: the
    same).  DD-17 Alt tokens give back Mind.
    """
    recovery = rules.data.mind_recovery.level_up
    if recovery:
        for stat in ATTRIBUTES:
            hero.cur[stat] = hero.top[stat]
    if log is not None:
        restored = ": every attribute back to its maximum" if recovery else ""
        record(log, "level up", f"Level {hero.level} at {hero.xp} XP{restored}", hero,
               ruling="DD-19")
    if rules.raise_max_per_level:
        stat, amount = choices.raise_stat(rules, hero), rules.data.experience.alt_raise_max
        raise_max(hero, stat, amount)
        if log is not None:
            record(log, "level up", f"{stat.value}'s maximum +{amount}", hero, ruling="DD-19")
    if hero.level == rules.data.class_level and hero.klass is None and rules.classes:
        chosen = choices.choose_class(rules, hero)
        if chosen is not None:
            take_class(hero, chosen)
            if log is not None:
                record(log, "class", f"The {chosen.name}: {class_bonuses(chosen)}", hero,
                       ruling="DD-19")
    if hero.mind_tokens:
        hero.cur[Stat.MIND] += hero.mind_tokens
        if log is not None:
            record(log, "level up", f"{hero.mind_tokens} Mind back from spell scrolls", hero,
                   ruling="DD-17")
        hero.mind_tokens = 0


def class_bonuses(klass: CharacterClass) -> str:
    """A class's bonuses as a step shows them: "+18 HP, +2 STR, +1 Dex, +3 Mind"."""
    values = ((klass.hp, "HP"), (klass.strength, Stat.STR.value), (klass.dexterity,
              Stat.DEX.value), (klass.mind, Stat.MIND.value))
    return ", ".join(f"{v:+d} {name}" for v, name in values)
