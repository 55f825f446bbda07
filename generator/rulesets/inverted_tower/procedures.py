"""The reference procedures of The Inverted Tower: one roll, one fight, one room.

Every function is pure: it takes the state and the dice and returns the next state.
Each cites the rulings (rulings.md section 1.3) it implements; every reading is decided by
the profile through :class:`~generator.rulesets.inverted_tower.rules.Rules`. These are
the reference the fast simulator is tested against, and the exact odds enumerate them.
Handed a ``log`` (``towerpress play``), they also write a step for each die and each
decision of the player (``narrate.py``); the simulator and the odds hand them none.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from generator.engine.playlog import Log
from generator.rulesets.inverted_tower import narrate
from generator.rulesets.inverted_tower.policy import Policy
from generator.rulesets.inverted_tower.rules import NEVER, Gain, Rules
from generator.rulesets.inverted_tower.state import Hero

# Coarse, stable causes of death for the deaths table.
MONSTER, ELITE, BOSS, TRAP, WANDERING = "monster", "elite", "boss", "trap", "wandering monster"


def new_hero(rules: Rules, policy: Policy) -> Hero:
    """A new character (rulings.md 1.1; IT-12 for the starting level)."""
    attributes = list(rules.start_attributes)
    attributes[policy.starting_attribute(rules)] += rules.start_points
    kit = rules.start_kit
    return Hero(hp=rules.start_hp, max_hp=rules.start_hp, attributes=tuple(attributes),
                level=rules.start_level, xp=rules.start_xp, gold=kit.gold,
                daggers=kit.daggers, potions=kit.potions)


def drink(hero: Hero) -> Hero:
    """A potion: recover to Max HP, never past it (IT-14), then it is gone."""
    return Hero(hero.max_hp, hero.max_hp, hero.attributes, hero.level, hero.xp, hero.gold,
                hero.daggers, hero.potions - 1)


def _drink(rules: Rules, hero: Hero, floor: int, coming: str, log: Log) -> Hero:
    """A potion the reference player chooses to drink (IT-10), ``coming`` saying why."""
    after = drink(hero)
    if log is not None:
        log.append(narrate.drink(rules, hero, after, floor, coming))
    return after


def hurt(rules: Rules, hero: Hero, damage: int, log: Log = None,
         floor: int = 0) -> tuple[Hero, bool]:
    """Lose HP; at 0 the character dies (IT-11), unless a potion is drunk by itself (Alt)."""
    hero = hero.with_hp(hero.hp - damage)
    if hero.hp > 0:
        return hero, False
    if rules.last_gasp and hero.potions > 0:
        hero = drink(hero)
        if log is not None:
            log.append(narrate.last_gasp(rules, hero, floor))
        return hero, False
    return hero, True


def level_up(rules: Rules, hero: Hero, index: int) -> Hero:
    """One level: Max HP up, a point to attribute ``index``, current HP up under IT-13
    Faithful."""
    attributes = list(hero.attributes)
    attributes[index] += rules.attribute_gain
    max_hp = hero.max_hp + rules.max_hp_gain
    return replace(hero, level=hero.level + 1, max_hp=max_hp,
                   hp=min(max_hp, hero.hp + rules.hp_gain), attributes=tuple(attributes))


def gain_xp(rules: Rules, policy: Policy, hero: Hero, xp: int, log: Log = None,
            floor: int = 0) -> Hero:
    """XP and the level ladder (IT-12): a fresh count per level, or a running total."""
    hero = hero.with_xp(hero.xp + xp)
    while hero.xp >= rules.level_cost(hero.level):
        before, index = hero, policy.level_up_attribute(rules, hero)
        if not rules.xp_total:
            hero = hero.with_xp(hero.xp - rules.level_cost(hero.level))
        hero = level_up(rules, hero, index)
        if log is not None:
            log.extend(narrate.level_up(rules, before, hero, floor, index))
    return hero


# -- combat -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Fight:
    """A fight in progress (IT-17): foes are fought one at a time, the first is current.

    ``attribute`` is the attribute chosen for the whole fight under IT-29 Alt (-1 when it
    is chosen per roll). ``taken``, ``spent`` and ``drunk`` count damage, daggers and
    potions so far; ``killer`` names the foe that killed the character.
    """

    hero: Hero
    floor: int
    foes: tuple[str, ...]
    attribute: int = -1
    taken: int = 0
    spent: int = 0
    drunk: int = 0
    killer: str = ""

    @property
    def dead(self) -> bool:
        return bool(self.killer)

    @property
    def over(self) -> bool:
        return self.dead or not self.foes


def start_fight(rules: Rules, policy: Policy, hero: Hero, floor: int,
                foes: tuple[str, ...]) -> Fight:
    """IT-29: under Alt the attribute is chosen once, when the fight starts."""
    attribute = policy.fight_attribute(rules, hero) if rules.per_fight_attribute else -1
    return Fight(hero, floor, foes, attribute)


def attack(rules: Rules, policy: Policy, fight: Fight, die: int, log: Log = None) -> Fight:
    """One combat roll against the current foe with the natural ``die``.

    IT-10: a potion may be drunk before the roll (Faithful); daggers are declared before
    the die (Alt) or spent after seeing it (Faithful), and (IT-09) discarded unless kept.
    IT-07/08/28/29: the modifiers and the crit rule are in the foe's dagger table.
    IT-17: a hit kills the foe and gives its XP (IT-25), a miss costs HP and the same foe
    stays.
    """
    hero = fight.hero
    foe = rules.foe(fight.foes[0])
    damage = rules.combat_damage
    drunk, spent = fight.drunk, fight.spent
    if policy.drink_before_roll(rules, hero, damage):
        hero, drunk = _drink(rules, hero, fight.floor, "a combat roll to come", log), drunk + 1
    index = fight.attribute if fight.attribute >= 0 else policy.fight_attribute(rules, hero)
    need = rules.daggers_needed(foe, hero.attributes[index], fight.floor, hero.level)
    # The three dagger readings inline: this is the reference simulator's inner loop.
    if rules.daggers_kept:
        # IT-09 Alt: every dagger carried adds to every roll and none is spent.
        used = hero.daggers
        hit = need[die] <= used
    elif rules.daggers_before_roll:
        used = policy.declare_daggers(rules, hero, need, damage)
        hero, spent = hero.with_items(hero.daggers - used, hero.potions), spent + used
        if log is not None and used:
            log.append(narrate.daggers(rules, hero, fight.floor, used, None))
        hit = need[die] <= used
    else:
        needed = need[die]
        hit, used = needed == 0, 0
        if not hit and needed < NEVER and policy.spend_daggers(rules, hero, needed):
            hero = hero.with_items(hero.daggers - needed, hero.potions)
            spent, hit, used = spent + needed, True, needed
            if log is not None:
                log.append(narrate.daggers(rules, hero, fight.floor, used, die))
    if log is not None:
        after = hero.with_xp(hero.xp + foe.xp) if hit else hero.with_hp(hero.hp - damage)
        log.append(narrate.attack(rules, after, fight.floor, foe.id, len(fight.foes), die,
                                  index, hero.attributes[index], hero.level, used))
    if hit:
        hero = gain_xp(rules, policy, hero, foe.xp, log, fight.floor)
        return Fight(hero, fight.floor, fight.foes[1:], fight.attribute, fight.taken, spent,
                     drunk)
    potions = hero.potions
    hero, dead = hurt(rules, hero, damage, log, fight.floor)
    drunk += potions - hero.potions
    return Fight(hero, fight.floor, fight.foes, fight.attribute, fight.taken + damage, spent,
                 drunk, foe.id if dead else "")


# -- rooms --------------------------------------------------------------------------------


def trap_check(rules: Rules, policy: Policy, hero: Hero, floor: int, attribute: int,
               die: int, log: Log = None) -> tuple[Hero, bool, bool]:
    """A trap (IT-16): die plus the trap's attribute (minus the floor under Alt).

    Returns (hero, passed, dead). A failure costs HP (IT-11); no daggers unless the data
    allows them, in which case they follow the combat rules (IT-10).
    """
    damage = rules.trap_damage
    if policy.drink_before_roll(rules, hero, damage):  # IT-10 Faithful only
        hero = _drink(rules, hero, floor, "a trap check to come", log)
    value = hero.attributes[attribute]
    passed, spent = rules.trap_passes(value, floor)[die], 0
    if not passed and rules.trap_daggers:
        hero, spent, passed = _trap_daggers(rules, policy, hero, floor, value, die)
    if log is not None:
        after = hero if passed else hero.with_hp(hero.hp - damage)
        log.append(narrate.trap(rules, after, floor, attribute, value, die, passed, spent))
    if passed:
        return hero, True, False
    hero, dead = hurt(rules, hero, damage, log, floor)
    return hero, False, dead


def _trap_daggers(rules: Rules, policy: Policy, hero: Hero, floor: int, value: int,
                  die: int) -> tuple[Hero, int, bool]:
    """Daggers on a failed trap check, where the data allows them (IT-16): as in combat."""
    modifier = value - (rules.floor_term(floor) if rules.trap_subtracts_floor else 0)
    for k in range(1, hero.daggers + 1):
        if rules.hits(die, k * rules.dagger_amount, modifier, rules.trap_target):
            if policy.spend_daggers(rules, hero, k):
                return replace(hero, daggers=hero.daggers - k), k, True
            break
    return hero, 0, False


def shop(rules: Rules, policy: Policy, hero: Hero, log: Log = None, floor: int = 0) -> Hero:
    """The merchant (IT-21 Faithful): potions and daggers at the listed price each."""
    potions, daggers = policy.shopping(rules, hero)
    cost = potions * (rules.potion_price or 0) + daggers * (rules.dagger_price or 0)
    after = replace(hero, gold=hero.gold - cost).gain(Gain(0, daggers, potions))
    if log is not None:
        log.append(narrate.shop(rules, policy, hero, after, floor))
    return after


def bonfire(hero: Hero) -> Hero:
    """The bonfire heals to Max HP (IT-14)."""
    return replace(hero, hp=hero.max_hp)
