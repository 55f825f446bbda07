"""The reference player of 3 Dice Dungeon: the choices a sensible solo player makes.

Creation and levels
  - DD-01 Alt (free placement): the highest die goes to the damage attribute (STR), the
    others in the data's attribute order.  DD-02 Alt: the class with the most HP.
  - At the class level (the first level-up) take the class with the most HP (ties: the
    first listed, so the Fighter before the Cleric).  DD-19 Alt: raise the damage stat.
Fights (the rules make you attack whatever is there)
  - Attack with the attribute that gives the most hitting faces (DD-06 Alt: the most
    hitting faces times damage); ties go to the data's attribute order.
  - A single-use roll bonus (Jade Idol; Crystal Pendant or Spell Scroll on a Mind roll)
    is spent only when it turns a miss into a hit, the smallest that does.
  - At the start of each round, if the monster's next hit could kill: drink healing
    potions, then (Cleric) spend Mind on healing, until it could not or nothing is left.
    If it still could kill and no Shielding Charm is held: run with the Boots when they
    allow it; else use a Town Portal, but only when a round is more likely lost than won
    (fewer than half the faces hit).  The portal ends the run safely (DD-25), so it is
    kept for a desperate moment, not spent on a fair fight.
  - A Shielding Charm is spent on a hit that would kill.
  - Sleeping Salts are used on a location's monster when the expected damage of beating
    it (hits needed x misses per hit x its damage) reaches the HP left.
  - Class powers keep Mind above the bleeding-out threshold (DD-23): Rage at the start of
    every fight, Spell Fury on every hit, Fist of Fury when at least half the faces hit.
  - A Tome of Enlightenment (Faithful: restore Mind) is read when it wastes nothing.
Exploring
  - Go down as soon as the rules allow; spend a map fragment in the first unused vault
    reached; otherwise head for the nearest unexplored door, counting roaming checks
    first and steps second (temple teleports and the Scroll of Teleportation included);
    when every door is explored, go back for monsters left alive (fled from or asleep).

Handed a log (``play``), the player writes each of its decisions there with its reason.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from generator.engine import playlog
from generator.rulesets.three_dice_dungeon.combat import (
    Fight,
    Outcome,
    hit_faces,
    max_strike,
    pay_power,
    player_damage,
    to_hit_modifier,
)
from generator.rulesets.three_dice_dungeon.effects import ATTRIBUTES, EffectKind, Stat
from generator.rulesets.three_dice_dungeon.entities import CharacterClass
from generator.rulesets.three_dice_dungeon.explore import LevelState, Step, cheapest_paths
from generator.rulesets.three_dice_dungeon.hero import (
    Hero,
    can_flee,
    death_floor,
    heal,
    items_with,
    record,
    use_item,
)
from generator.rulesets.three_dice_dungeon.levels import Pos
from generator.rulesets.three_dice_dungeon.parameters import DIE
from generator.rulesets.three_dice_dungeon.rules import Rules


class Act(StrEnum):
    DESCEND = "descend"
    UNEARTH = "unearth"
    MOVE = "move"
    STUCK = "stuck"


@dataclass(frozen=True)
class Decision:
    """What the player does next, and why (one of the reasons below, for the log)."""

    act: Act
    step: Step | None = None
    reason: str = ""


# Why the player goes where it goes (the targets of ``decide``, in the order it tries them).
GO_DOWN = "an artifact found and a great hall to go down from"
DIG = "a map fragment to spend in this unused vault"
TO_DESCENT = "ready to go down: to the nearest great hall"
TO_VAULT = "a map fragment to spend: to the nearest unused vault"
TO_DOOR = "to the nearest unexplored door, fewest roaming rolls first"
TO_MONSTER = "every door explored: back to a monster left alive"
NO_WAY = "no way left to go"
#: The reasons of the creation choices the player makes (DD-01 Alt, DD-02 Alt).
ASSIGN_REASON = "the highest die to the damage attribute, the others in order"
CLASS_REASON = "the class with the most HP"


def descent_ready(rules: Rules, hero: Hero, state: LevelState) -> bool:
    """DD-31: enough artifacts found on this level (Alt: ever) to go down."""
    found = hero.artifacts if rules.artifacts_any_level else state.artifacts
    return found >= rules.data.exploring.descent_artifacts_required


def may_descend(rules: Rules, hero: Hero, state: LevelState, pos: Pos) -> bool:
    """Going down: only from a location that allows it (a Great Hall), once ready."""
    kind = rules.kinds[state.level.cell(pos).kind]
    return kind.allows_descent and descent_ready(rules, hero, state)


def may_unearth(rules: Rules, hero: Hero, state: LevelState, pos: Pos) -> bool:
    """In an unused vault (or crypt) holding a map fragment (one artifact per vault)."""
    kind = rules.kinds[state.level.cell(pos).kind]
    return (
        kind.is_vault
        and pos not in state.vaults_used
        and bool(items_with(rules, hero, EffectKind.UNEARTH_ARTIFACT))
    )


class ReferencePolicy:
    """The documented reference player (see the module docstring).

    ``log``: where a played game writes the player's decisions (None: no one reads them).
    """

    def __init__(self, log: playlog.Log = None):
        self.log = log

    def _note(self, text: str, hero: Hero, fight: Fight | None = None) -> None:
        """A decision, with its reason, into the log (callers check that there is one)."""
        if fight is not None:
            fight.note("decision", text, hero)
        elif self.log is not None:
            record(self.log, "decision", text, hero)

    # -- creation and levels -----------------------------------------------------------

    def assign(self, rules: Rules, dice: tuple[int, ...]) -> tuple[Stat, ...]:
        """DD-01 Alt: highest die to the damage stat, the rest in attribute order."""
        first = rules.data.combat.damage_stat
        stats = [first] + [s for s in ATTRIBUTES if s is not first]
        order = sorted(range(len(dice)), key=lambda i: (-dice[i], i))
        result: list[Stat] = [first] * len(dice)
        for stat, index in zip(stats, order, strict=False):
            result[index] = stat
        return tuple(result)

    def creation_class(self, rules: Rules, names: Sequence[str]) -> str:
        return self._most_hp([c for c in rules.classes if c.name in names]).name

    def choose_class(self, rules: Rules, hero: Hero) -> CharacterClass | None:
        chosen = self._most_hp(list(rules.classes)) if rules.classes else None
        if chosen is not None and self.log is not None:
            self._note(f"Take the {chosen.name} class: {CLASS_REASON} ({chosen.hp:+d})", hero)
        return chosen

    def raise_stat(self, rules: Rules, hero: Hero) -> Stat:
        stat = rules.data.combat.damage_stat
        if self.log is not None:
            self._note(f"Raise {stat.value}: the damage attribute", hero)
        return stat

    @staticmethod
    def _most_hp(classes: list[CharacterClass]) -> CharacterClass:
        best = max(c.hp for c in classes)
        return next(c for c in classes if c.hp == best)

    # -- fights -------------------------------------------------------------------------

    def _faces(self, rules: Rules, hero: Hero, fight: Fight, stat: Stat) -> int:
        return hit_faces(rules, to_hit_modifier(rules, hero, stat, fight.boosts), fight.foe.armour)

    def attack_stat(self, rules: Rules, hero: Hero, fight: Fight) -> Stat:
        best = ATTRIBUTES[0]
        best_key = (-1, -1)
        for stat in ATTRIBUTES:
            faces = self._faces(rules, hero, fight, stat)
            damage = player_damage(rules, hero, stat, fight.boosts)
            key = (faces * damage, faces) if rules.damage_from_attack_stat else (faces, 0)
            if key > best_key:
                best, best_key = stat, key
        return best

    def _spare_mind(self, rules: Rules, hero: Hero) -> bool:
        """Whether paying the class power keeps Mind above bleeding out (DD-23)."""
        if hero.klass is None:
            return False
        left = hero.cur[Stat.MIND] - hero.klass.power.mind_cost
        return left > rules.data.combat.bleeding_attribute_at

    def _power(self, hero: Hero, kind: EffectKind) -> bool:
        return hero.klass is not None and any(e.kind is kind for e in hero.klass.power.effects)

    def use_salts(self, rules: Rules, hero: Hero, fight: Fight) -> bool:
        stat = self.attack_stat(rules, hero, fight)
        faces = self._faces(rules, hero, fight, stat)
        damage = max(1, player_damage(rules, hero, stat, fight.boosts))
        needed = -(-fight.foe.hp // damage)
        left = hero.hp - death_floor(rules, hero)
        use = needed * (DIE - faces) * fight.foe.damage >= faces * left
        if use and self.log is not None:
            cost = (f"{needed} hits to land at {faces} in {DIE} would cost about "
                    f"{needed * (DIE - faces) * fight.foe.damage / faces:.0f} HP" if faces
                    else "no face of the die hits")
            self._note(f"Use the Sleeping Salts: {cost}, and {left} HP are left", hero, fight)
        return use

    def fight_start(self, rules: Rules, hero: Hero, fight: Fight) -> None:
        """Rage (a power lasting the fight) whenever Mind can spare it."""
        if not self._power(hero, EffectKind.BOOST) or not self._spare_mind(rules, hero):
            return
        assert hero.klass is not None
        pay_power(hero)
        for effect in hero.klass.power.effects:
            if effect.kind is EffectKind.BOOST and effect.stat is not None:
                fight.boosts[effect.stat] = fight.boosts.get(effect.stat, 0) + effect.amount
        if self.log is not None:
            boosts = ", ".join(f"{v:+d} {s.value}" for s, v in fight.boosts.items())
            self._note(f"{hero.klass.power.name} for this fight ({boosts}): Mind to spare",
                       hero, fight)

    def _lethal(self, rules: Rules, hero: Hero, fight: Fight) -> bool:
        return max_strike(rules, fight.foe, fight.state) >= hero.hp - death_floor(rules, hero)

    def round_start(self, rules: Rules, hero: Hero, fight: Fight) -> Outcome | None:
        self.tidy(rules, hero)
        if not self._lethal(rules, hero, fight):
            return None
        while self._lethal(rules, hero, fight) and hero.hp < hero.max_hp:
            before = hero.hp
            potions = items_with(rules, hero, EffectKind.HEAL)
            if potions:
                use_item(rules, hero, potions[0])
                what = f"Drink the {potions[0]}"
            elif self._power(hero, EffectKind.HEAL) and hero.cur[Stat.MIND] > 0:
                assert hero.klass is not None
                pay_power(hero)
                for effect in hero.klass.power.effects:
                    if effect.kind is EffectKind.HEAL:
                        heal(hero, effect.amount)
                what = f"{hero.klass.power.name} for {hero.klass.power.mind_cost} Mind"
            else:
                break
            if self.log is not None:
                self._note(f"{what}: at HP {before} the next hit (up to "
                           f"{max_strike(rules, fight.foe, fight.state)}) could kill", hero, fight)
        if not self._lethal(rules, hero, fight) or items_with(rules, hero, EffectKind.IGNORE_HIT):
            return None
        if can_flee(hero):
            if self.log is not None:
                self._note("Run in the Boots: the next hit could kill, and no Shielding Charm",
                           hero, fight)
            return Outcome.FLED
        stat = self.attack_stat(rules, hero, fight)
        faces = self._faces(rules, hero, fight, stat)
        if items_with(rules, hero, EffectKind.LEAVE_DUNGEON) and 2 * faces < DIE:
            if self.log is not None:
                self._note(f"Use the Town Portal: the next hit could kill, and only {faces} "
                           f"faces in {DIE} hit", hero, fight)
            return Outcome.LEFT
        return None

    def extra_attacks(self, rules: Rules, hero: Hero, fight: Fight) -> int:
        if not self._power(hero, EffectKind.EXTRA_ATTACK) or not self._spare_mind(rules, hero):
            return 0
        stat = self.attack_stat(rules, hero, fight)
        if 2 * self._faces(rules, hero, fight, stat) < DIE:
            return 0
        assert hero.klass is not None
        pay_power(hero)
        extra = sum(e.amount for e in hero.klass.power.effects if e.kind is EffectKind.EXTRA_ATTACK)
        if self.log is not None:
            self._note(f"{hero.klass.power.name}: {extra} more attack, at least half the faces "
                       "hit", hero, fight)
        return extra

    def rescue(self, rules: Rules, hero: Hero, stat: Stat, shortfall: int) -> str | None:
        best: tuple[int, str] | None = None
        for kind in (EffectKind.ATTACK_BONUS, EffectKind.ROLL_BONUS):
            for name in items_with(rules, hero, kind):
                effect = rules.effects[name]
                if kind is EffectKind.ROLL_BONUS and effect.stat is not stat:
                    continue
                if effect.amount >= shortfall and (best is None or (effect.amount, name) < best):
                    best = (effect.amount, name)
        return best[1] if best else None

    def fury(self, rules: Rules, hero: Hero, fight: Fight, damage: int) -> bool:
        use = self._power(hero, EffectKind.DAMAGE_FROM_STAT) and self._spare_mind(rules, hero)
        if use and self.log is not None:
            assert hero.klass is not None
            self._note(f"{hero.klass.power.name} on this hit: Mind to spare", hero, fight)
        return use

    def shield(self, rules: Rules, hero: Hero, fight: Fight, damage: int) -> str | None:
        charms = items_with(rules, hero, EffectKind.IGNORE_HIT)
        if charms and hero.hp - damage <= death_floor(rules, hero):
            if self.log is not None:
                self._note(f"Spend the {charms[0]}: the hit ({damage}) would kill at HP "
                           f"{hero.hp}", hero, fight)
            return charms[0]
        return None

    def tidy(self, rules: Rules, hero: Hero) -> None:
        """Read a Tome (Faithful: restores Mind) when it wastes nothing."""
        for name in items_with(rules, hero, EffectKind.RESTORE):
            effect = rules.effects[name]
            stat = effect.stat
            while (
                stat is not None
                and hero.has(name)
                and hero.cur[stat] + effect.amount <= hero.top[stat]
            ):
                use_item(rules, hero, name)
                if self.log is not None:
                    self._note(f"Read the {name}: {effect.amount:+d} {stat.value} wastes "
                               "nothing", hero)

    # -- exploring ----------------------------------------------------------------------

    def decide(self, rules: Rules, hero: Hero, state: LevelState, pos: Pos) -> Decision:
        if may_descend(rules, hero, state, pos):
            return Decision(Act.DESCEND, reason=GO_DOWN)
        if may_unearth(rules, hero, state, pos):
            return Decision(Act.UNEARTH, reason=DIG)
        groups: list[tuple[set[Pos], str]] = []
        level = state.level
        if descent_ready(rules, hero, state):
            groups.append(({p for p in level.descents if p in state.visited}, TO_DESCENT))
        if items_with(rules, hero, EffectKind.UNEARTH_ARTIFACT):
            vaults = {
                c.pos
                for c in level.cells
                if c.pos in state.visited
                and rules.kinds[c.kind].is_vault
                and c.pos not in state.vaults_used
            }
            groups.append((vaults, TO_VAULT))
        groups.append((state.frontier(), TO_DOOR))
        groups.append(({p for p in state.visited if state.live(p) and p != pos}, TO_MONSTER))
        scroll = bool(items_with(rules, hero, EffectKind.TELEPORT))
        for targets, reason in groups:
            path = cheapest_paths(rules, state, pos, targets, scroll)
            if path:
                return Decision(Act.MOVE, path[0], reason)
        return Decision(Act.STUCK, reason=NO_WAY)
