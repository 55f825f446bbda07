"""Combat of 3 Dice Dungeon (modified): the reference rules, round by round.

A round (rulings.md 2.1, DD-04..08, DD-23, DD-26, DD-27):

1. The monster's start-of-round abilities (regeneration), paid in Mind (DD-08).
2. The player's round-start choices: potions, healing, escape (Boots, Town Portal).
3. One attack roll, plus any bought with Fist of Fury.  A roll hits when it is the
   crit-hit face, or not the crit-miss face and die + modifier > the monster's armour
   (DD-04).  A hit takes the player's damage off the monster (DD-06); a miss lets the
   monster hit for its damage plus any on-hit ability it pays for (DD-05, DD-08).
4. A Soul Stone bearer below 0 HP loses XP at the end of the round.

The monster side is written as pure functions over ``(hp, mind, used)`` so the exact
odds (:mod:`.odds`) use the very same rules.  Handed a log (``play``), a fight writes a
step for each die and each thing that happens; the simulator hands it none.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Protocol

from generator.engine import playlog
from generator.engine.rng import DiceRng
from generator.rulesets.three_dice_dungeon.effects import EffectKind, Stat
from generator.rulesets.three_dice_dungeon.entities import AbilityKind
from generator.rulesets.three_dice_dungeon.hero import (
    Hero,
    bleeding,
    can_flee,
    death_floor,
    items_with,
    record,
    spend_mind,
)
from generator.rulesets.three_dice_dungeon.parameters import DIE
from generator.rulesets.three_dice_dungeon.rules import Foe, Rules

MonsterState = tuple[int, int, int]  # (hp, mind, abilities used: a bit per ability)


class Outcome(StrEnum):
    WON = "won"
    DIED = "died"
    SOUL_LOST = "soul lost"
    FLED = "fled"  # Boots of Swiftness
    SLEPT = "slept"  # Sleeping Salts
    LEFT = "left"  # Town Portal


# -- the monster ---------------------------------------------------------------------------


def _payable(rules: Rules, index: int, cost: int, mind: int, used: int) -> bool:
    """DD-08: an ability fires if the monster has the Mind; Alt: once a fight at most."""
    if mind < cost:
        return False
    return not (rules.abilities_once and used >> index & 1)


def monster_round_start(rules: Rules, foe: Foe, state: MonsterState) -> MonsterState:
    """DD-08 Faithful: regeneration fires at the start of each round while Mind lasts.

    A monster at full HP does not waste Mind on it; regeneration never goes above the
    monster's starting HP.
    """
    hp, mind, used = state
    for i, ab in enumerate(foe.abilities):
        if (
            ab.kind is AbilityKind.REGEN
            and hp < foe.hp
            and _payable(rules, i, ab.mind_cost, mind, used)
        ):
            hp = min(foe.hp, hp + ab.amount)
            mind -= ab.mind_cost
            used |= 1 << i
    return (hp, mind, used)


@dataclass(frozen=True)
class Strike:
    """What a monster's hit does: the damage of each hit, coins stolen, and its new state."""

    hits: tuple[int, ...]
    steals: bool
    state: MonsterState


def monster_strike(rules: Rules, foe: Foe, state: MonsterState) -> Strike:
    """The monster hits (the player missed): damage and the on-hit abilities it pays for.

    DD-05 sets the base damage (in :class:`Foe`).  DD-08 Faithful: each on-hit ability is
    paid for on every hit while the Mind lasts.  An extra-attack ability (Gnolls) adds a
    second hit of the same damage: this combat has no monster roll, so a monster's attack
    is its hit on a player's miss (the model lists it at round start; it is paid on the
    hit here so that Mind is never spent on a round the monster does not hit).
    """
    hp, mind, used = state
    damage = foe.damage
    extra = 0
    steals = False
    for i, ab in enumerate(foe.abilities):
        if ab.kind is AbilityKind.REGEN or not _payable(rules, i, ab.mind_cost, mind, used):
            continue
        mind -= ab.mind_cost
        used |= 1 << i
        if ab.kind is AbilityKind.DAMAGE_BONUS:
            damage += ab.amount
        elif ab.kind is AbilityKind.EXTRA_ATTACK:
            extra += ab.amount
        else:
            steals = True
    return Strike((damage,) * (1 + extra), steals, (hp, mind, used))


def max_strike(rules: Rules, foe: Foe, state: MonsterState) -> int:
    """The most damage the monster's next hit can do (for the player's caution)."""
    if not foe.abilities:
        return foe.damage
    return sum(monster_strike(rules, foe, state).hits)


# -- the player ------------------------------------------------------------------------------


def hits(rules: Rules, die: int, modifier: int, armour: int) -> bool:
    """DD-04: crits first (natural crit_hit hits, crit_miss misses), then die + mod > armour."""
    combat = rules.data.combat
    if die == combat.crit_miss:
        return False
    if die == combat.crit_hit:
        return True
    return die + modifier > armour


def hit_faces(rules: Rules, modifier: int, armour: int) -> int:
    """How many faces of the die hit: the exact chance is this over ``DIE``.

    Closed form (tested against :func:`hit_faces_by_enumeration`): the faces from
    ``armour - modifier + 1`` up hit on the total; then the crit faces are put right.
    """
    combat = rules.data.combat
    lowest = max(1, armour - modifier + 1)
    count = max(0, DIE - lowest + 1)
    if lowest <= combat.crit_miss <= DIE:
        count -= 1
    if not lowest <= combat.crit_hit <= DIE:
        count += 1
    return count


def hit_faces_by_enumeration(rules: Rules, modifier: int, armour: int) -> int:
    """The brute-force oracle of :func:`hit_faces`: try every face."""
    return sum(hits(rules, face, modifier, armour) for face in range(1, DIE + 1))


def to_hit_modifier(rules: Rules, hero: Hero, stat: Stat, boosts: dict[Stat, int]) -> int:
    """What is added to the die: the attribute (DD-04 Faithful only), bonuses, bleeding."""
    attribute = hero.cur[stat] + boosts.get(stat, 0) if rules.attribute_to_hit else 0
    return attribute + hero.roll_bonus[stat] + hero.attack_bonus + bleeding(rules, hero)


def player_damage(rules: Rules, hero: Hero, stat: Stat, boosts: dict[Stat, int]) -> int:
    """DD-06: Str (Alt: the attacking attribute) plus weapon bonuses; DD-28 Alt: fixed."""
    if rules.scale is not None:
        base = rules.scale.player_damage
    else:
        source = stat if rules.damage_from_attack_stat else rules.data.combat.damage_stat
        base = hero.cur[source] + boosts.get(source, 0)
    return base + hero.damage_bonus


# -- the fight ----------------------------------------------------------------------------------


@dataclass
class Fight:
    """One fight in progress: the monster's state and what the player has going."""

    foe: Foe
    state: MonsterState
    boosts: dict[Stat, int] = field(default_factory=dict)  # Rage, for the fight (DD-27)
    rounds: int = 0
    absorbed: bool = False  # the Emerald's once-a-fight absorption used (DD-26)
    log: playlog.Log = None  # where a played game writes the fight's steps

    @property
    def hp(self) -> int:
        return self.state[0]

    def note(self, what: str, text: str, hero: Hero, dice: tuple[int, ...] = (),
             ruling: str = "") -> None:
        """A step of the fight, with the monster's HP and Mind after it (when logged)."""
        if self.log is not None:
            record(self.log, what, text, hero, dice=dice, ruling=ruling,
                   monster=(self.state[0], self.state[1]))


class FightChoices(Protocol):
    """The decisions a fight asks of the player (the reference policy answers them)."""

    def use_salts(self, rules: Rules, hero: Hero, fight: Fight) -> bool: ...

    def fight_start(self, rules: Rules, hero: Hero, fight: Fight) -> None: ...

    def round_start(self, rules: Rules, hero: Hero, fight: Fight) -> Outcome | None: ...

    def extra_attacks(self, rules: Rules, hero: Hero, fight: Fight) -> int: ...

    def attack_stat(self, rules: Rules, hero: Hero, fight: Fight) -> Stat: ...

    def rescue(self, rules: Rules, hero: Hero, stat: Stat, shortfall: int) -> str | None: ...

    def fury(self, rules: Rules, hero: Hero, fight: Fight, damage: int) -> bool: ...

    def shield(self, rules: Rules, hero: Hero, fight: Fight, damage: int) -> str | None: ...


def pay_power(hero: Hero, times: int = 1) -> None:
    """Pay a class power's Mind cost ``times`` times (DD-27)."""
    assert hero.klass is not None
    spend_mind(hero, hero.klass.power.mind_cost * times)


def take_hit(rules: Rules, hero: Hero, fight: Fight, damage: int, choices: FightChoices) -> int:
    """A monster hit lands: Shielding Charm, then the Emerald (DD-26), then HP.

    Returns the damage taken.
    """
    charm = choices.shield(rules, hero, fight, damage)
    if charm is not None:
        hero.held[charm] -= 1
        return 0
    if hero.absorb is not None and hero.absorb_left > 0:
        per_hit = hero.absorb.per == "hit"
        if per_hit or not fight.absorbed:  # Faithful: once a fight; Alt: every hit
            soak = min(hero.absorb.amount, damage, hero.absorb_left)
            damage -= soak
            hero.absorb_left -= soak
            fight.absorbed = True
            if fight.log is not None and soak:
                fight.note("absorb", f"The Emerald absorbs {soak}", hero, ruling="DD-26")
    hero.hp -= damage
    return damage


def fight(
    rules: Rules,
    hero: Hero,
    foe: Foe,
    rng: DiceRng,
    choices: FightChoices,
    can_run: bool = True,
    log: playlog.Log = None,
) -> Outcome:
    """Fight ``foe`` to the end with the combat dice ``rng``; the hero changes in place.

    ``can_run``: there is a neighbouring location to flee to (Boots of Swiftness).
    ``log``: where a played game writes the fight's steps (None: no one reads them).
    """
    f = Fight(foe, (foe.hp, foe.mind, 0), log=log)
    if log is not None:
        f.note("fight", f"Fight {describe_foe(rules, foe)}", hero,
               ruling="DD-28" if rules.scale is not None else "")
    salts = items_with(rules, hero, EffectKind.SLEEP_MONSTER)
    if salts and choices.use_salts(rules, hero, f):
        hero.held[salts[0]] -= 1
        f.note("asleep", f"The {foe.name} fall asleep: no XP for this location", hero,
               ruling="DD-30")
        return Outcome.SLEPT
    choices.fight_start(rules, hero, f)
    while True:
        outcome = _round(rules, hero, f, rng, choices, can_run)
        if outcome is not None:
            return outcome


def describe_foe(rules: Rules, foe: Foe) -> str:
    """A monster's numbers as a fight's first step gives them."""
    elite = " (elite)" if foe.elite else ""
    abilities = "" if foe.abilities else ", no abilities"
    return (f"{foe.name}{elite}: HP {foe.hp}, armour {foe.armour}, damage {foe.damage}, "
            f"Mind {foe.mind}{abilities}")


def _round(
    rules: Rules, hero: Hero, f: Fight, rng: DiceRng, choices: FightChoices, can_run: bool
) -> Outcome | None:
    """One round, steps 1-4 of the module docstring; None: the fight goes on."""
    f.rounds += 1
    before = f.state[0]
    f.state = monster_round_start(rules, f.foe, f.state)
    if f.log is not None and f.state[0] != before:
        f.note("regenerate", f"Round {f.rounds}: the {f.foe.name} regenerate "
               f"{f.state[0] - before} HP", hero, ruling="DD-08")
    escape = _escape(rules, hero, f, choices, can_run)
    if escape is not None:
        return escape
    attacks = 1 + choices.extra_attacks(rules, hero, f)
    stat = choices.attack_stat(rules, hero, f)  # nothing changes it between the rolls
    for _ in range(attacks):
        outcome = _attack(rules, hero, f, rng.die(), stat, choices)
        if outcome is not None:
            return outcome
    return _soul_drain(rules, hero, f)


def _escape(
    rules: Rules, hero: Hero, f: Fight, choices: FightChoices, can_run: bool
) -> Outcome | None:
    """The player's round-start choices; an escape the hero can make ends the fight."""
    escape = choices.round_start(rules, hero, f)
    if escape is Outcome.FLED and can_run and can_flee(hero):
        hero.flights += 1
        f.note("flee", f"Run from the {f.foe.name} in the Boots of Swiftness", hero,
               ruling="DD-26")
        return escape
    portals = items_with(rules, hero, EffectKind.LEAVE_DUNGEON)
    if escape is Outcome.LEFT and portals:
        hero.held[portals[0]] -= 1
        f.note("leave", f"Leave through the {portals[0]}", hero, ruling="DD-25")
        return escape
    return None


def _attack(
    rules: Rules, hero: Hero, f: Fight, die: int, stat: Stat, choices: FightChoices
) -> Outcome | None:
    """One attack roll of ``die``: a hit wounds the monster, a miss lets it hit (DD-04)."""
    modifier = to_hit_modifier(rules, hero, stat, f.boosts)
    hit = hits(rules, die, modifier, f.foe.armour)
    if f.log is not None:
        f.note("attack", attack_text(rules, die, stat, modifier, f.foe.armour, hit), hero,
               dice=(die,), ruling="DD-04")
    if not hit and die != rules.data.combat.crit_miss:
        short = f.foe.armour + 1 - die - modifier
        item = choices.rescue(rules, hero, stat, short)
        if item is not None:  # a single-use roll bonus turns the miss into a hit
            hero.held[item] -= 1
            hit = True
            f.note("decision", f"Spend the {item}: the miss was {short} short, so it becomes "
                   "a hit", hero)
    if hit:
        return _player_hits(rules, hero, f, stat, choices)
    return _monster_hits(rules, hero, f, choices)


def attack_text(rules: Rules, die: int, stat: Stat, modifier: int, armour: int, hit: bool
                ) -> str:
    """An attack roll as a step gives it: the die, the modifier, the armour, hit or miss."""
    combat = rules.data.combat
    result = "hit" if hit else "miss"
    if die in (combat.crit_hit, combat.crit_miss):
        result = f"natural {die}, a {result}"
    return (f"Attack with {stat.value}: die {die} {modifier:+d} = {die + modifier} "
            f"against armour {armour}: {result}")


def _player_hits(
    rules: Rules, hero: Hero, f: Fight, stat: Stat, choices: FightChoices
) -> Outcome | None:
    """The player's damage (DD-06, Spell Fury DD-27) comes off the monster (DD-07)."""
    damage = player_damage(rules, hero, stat, f.boosts)
    if choices.fury(rules, hero, f, damage):
        pay_power(hero)
        damage += _fury_bonus(hero)
    hp, mind, used = f.state
    f.state = (hp - damage, mind, used)
    won = f.state[0] <= rules.data.combat.monster_defeated_at  # DD-07
    if f.log is not None:
        end = f": the {f.foe.name} are defeated" if won else ""
        f.note("damage", f"{damage} damage to the {f.foe.name}{end}", hero,
               ruling="DD-28" if rules.scale is not None else "DD-06")
    return Outcome.WON if won else None


def _monster_hits(rules: Rules, hero: Hero, f: Fight, choices: FightChoices) -> Outcome | None:
    """The monster hits (DD-05, DD-08), each hit through :func:`take_hit`."""
    paid = f.state[1]
    strike = monster_strike(rules, f.foe, f.state)
    f.state = strike.state
    paid -= f.state[1]  # the Mind paid for this strike's abilities, shown on its first hit
    floor = death_floor(rules, hero)
    for damage in strike.hits:
        taken = take_hit(rules, hero, f, damage, choices)
        if strike.steals:  # DD-26: the Robber steals coins equal to the damage
            hero.coins = max(0, hero.coins - taken)
        dead = hero.hp <= floor
        if f.log is not None:
            f.note("hurt", _hurt_text(f, damage, taken, paid, dead), hero,
                   ruling="DD-08" if paid else "DD-05")
            paid = 0
        if dead:
            return Outcome.DIED
    return None


def _hurt_text(f: Fight, damage: int, taken: int, paid: int, dead: bool) -> str:
    """A monster's hit as a step gives it: its damage, what it paid for, what got through."""
    paid_for = f" ({paid} Mind paid for its ability)" if paid else ""
    through = "" if taken == damage else f", {taken} of it taken"
    end = ": you are dead" if dead else ""
    return f"The {f.foe.name} hit for {damage}{paid_for}{through}{end}"


def _soul_drain(rules: Rules, hero: Hero, f: Fight) -> Outcome | None:
    """Soul Stone: each round spent below 0 HP costs XP; at 0 XP the soul is lost."""
    if hero.soul is not None and hero.hp < rules.data.combat.death_at:
        hero.xp -= hero.soul.xp_loss
        lost = hero.xp <= 0
        if f.log is not None:
            end = ": the soul is lost" if lost else ""
            f.note("soul", f"A round below {rules.data.combat.death_at} HP costs "
                   f"{hero.soul.xp_loss} XP{end}", hero)
        if lost:
            return Outcome.SOUL_LOST
    return None


def _fury_bonus(hero: Hero) -> int:
    """Spell Fury adds the current value of the stat its effect names (Mind)."""
    assert hero.klass is not None
    total = 0
    for effect in hero.klass.power.effects:
        if effect.kind is EffectKind.DAMAGE_FROM_STAT and effect.stat is not None:
            total += hero.cur[effect.stat]
    return total
