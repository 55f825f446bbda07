"""The reference procedures of The Inverted Tower: one roll, one fight, one room.

Every function is pure: it takes the state and the dice and returns the next state.
Each cites the rulings (rulings.md section 1.3) it implements; every reading is decided by
the profile through :class:`~generator.rulesets.inverted_tower.rules.Rules`. These are
the reference the fast simulator is tested against, and the exact odds enumerate them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

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


def hurt(rules: Rules, hero: Hero, damage: int) -> tuple[Hero, bool]:
    """Lose HP; at 0 the character dies (IT-11), unless a potion is drunk by itself (Alt)."""
    hero = hero.with_hp(hero.hp - damage)
    if hero.hp > 0:
        return hero, False
    if rules.last_gasp and hero.potions > 0:
        return drink(hero), False
    return hero, True


def level_up(rules: Rules, policy: Policy, hero: Hero) -> Hero:
    """One level: Max HP up, a point to an attribute, current HP up under IT-13 Faithful."""
    attributes = list(hero.attributes)
    attributes[policy.level_up_attribute(rules, hero)] += rules.attribute_gain
    max_hp = hero.max_hp + rules.max_hp_gain
    return replace(hero, level=hero.level + 1, max_hp=max_hp,
                   hp=min(max_hp, hero.hp + rules.hp_gain), attributes=tuple(attributes))


def gain_xp(rules: Rules, policy: Policy, hero: Hero, xp: int) -> Hero:
    """XP and the level ladder (IT-12): a fresh count per level, or a running total."""
    hero = hero.with_xp(hero.xp + xp)
    while hero.xp >= rules.level_cost(hero.level):
        if not rules.xp_total:
            hero = hero.with_xp(hero.xp - rules.level_cost(hero.level))
        hero = level_up(rules, policy, hero)
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


def attack(rules: Rules, policy: Policy, fight: Fight, die: int) -> Fight:
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
        hero, drunk = drink(hero), drunk + 1
    index = fight.attribute if fight.attribute >= 0 else policy.fight_attribute(rules, hero)
    need = rules.daggers_needed(foe, hero.attributes[index], fight.floor, hero.level)
    if rules.daggers_kept:
        # IT-09 Alt: every dagger carried adds to every roll and none is spent.
        hit = need[die] <= hero.daggers
    elif rules.daggers_before_roll:
        declared = policy.declare_daggers(rules, hero, need, damage)
        hero, spent = hero.with_items(hero.daggers - declared, hero.potions), spent + declared
        hit = need[die] <= declared
    else:
        needed = need[die]
        hit = needed == 0
        if not hit and needed < NEVER and policy.spend_daggers(rules, hero, needed):
            hero = hero.with_items(hero.daggers - needed, hero.potions)
            spent, hit = spent + needed, True
    if hit:
        hero = gain_xp(rules, policy, hero, foe.xp)
        return Fight(hero, fight.floor, fight.foes[1:], fight.attribute, fight.taken, spent,
                     drunk)
    potions = hero.potions
    hero, dead = hurt(rules, hero, damage)
    drunk += potions - hero.potions
    return Fight(hero, fight.floor, fight.foes, fight.attribute, fight.taken + damage, spent,
                 drunk, foe.id if dead else "")


# -- rooms --------------------------------------------------------------------------------


def trap_check(rules: Rules, policy: Policy, hero: Hero, floor: int, attribute: int,
               die: int) -> tuple[Hero, bool, bool]:
    """A trap (IT-16): die plus the trap's attribute (minus the floor under Alt).

    Returns (hero, passed, dead). A failure costs HP (IT-11); no daggers unless the data
    allows them, in which case they follow the combat rules (IT-10).
    """
    damage = rules.trap_damage
    if rules.potions_between_rooms_only is False and policy.drink_before_roll(
            rules, hero, damage):
        hero = drink(hero)
    passes = rules.trap_passes(hero.attributes[attribute], floor)
    passed = passes[die]
    if not passed and rules.trap_daggers:
        for k in range(1, hero.daggers + 1):
            modifier = hero.attributes[attribute] - (
                rules.floor_term(floor) if rules.trap_subtracts_floor else 0)
            if rules.hits(die, k * rules.dagger_amount, modifier, rules.trap_target):
                if policy.spend_daggers(rules, hero, k):
                    hero, passed = replace(hero, daggers=hero.daggers - k), True
                break
    if passed:
        return hero, True, False
    hero, dead = hurt(rules, hero, damage)
    return hero, False, dead


def shop(rules: Rules, policy: Policy, hero: Hero) -> Hero:
    """The merchant (IT-21 Faithful): potions and daggers at the listed price each."""
    potions, daggers = policy.shopping(rules, hero)
    cost = potions * (rules.potion_price or 0) + daggers * (rules.dagger_price or 0)
    return replace(hero, gold=hero.gold - cost).gain(Gain(0, daggers, potions))


def bonfire(hero: Hero) -> Hero:
    """The bonfire heals to Max HP (IT-14)."""
    return replace(hero, hp=hero.max_hp)
