"""A 3 Dice Dungeon booklet's tapes: per level a combat tape and a roaming tape, each from
its own stream, and how long the worst case of play needs them (rulings.md 2.5 #11)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import ceil

from generator.engine.rng import SplitMix64, stream_seed
from generator.engine.tapes import Tape, roll_tape
from generator.rulesets.three_dice_dungeon.document import roaming_foes
from generator.rulesets.three_dice_dungeon.dungeon import Dungeon
from generator.rulesets.three_dice_dungeon.effects import EffectKind, Stat
from generator.rulesets.three_dice_dungeon.entities import AbilityKind
from generator.rulesets.three_dice_dungeon.levels import Level
from generator.rulesets.three_dice_dungeon.rules import RULESET, Foe, Rules

#: The longest tapes printed, in entries: about a page of numbers for a level's fights,
#: a third of one for its returns (a layout choice; a longer worst case gets the
#: fallback rule).
COMBAT_PAGE = 600
ROAMING_PAGE = 200


def level_tapes(rules: Rules, dungeon: Dungeon, seed: str) -> tuple[Tape, ...]:
    """Each level's combat and roaming tapes, from streams of their own (rulings.md 4)."""
    tapes: list[Tape] = []
    for level, bound in zip(dungeon.levels, tape_bounds(rules, dungeon, seed), strict=True):
        place = f"level {level.number}"
        entries = roll_tape(seed, RULESET, ("level", level.number), "combat tape", ("die",),
                            min(bound.combat, COMBAT_PAGE))
        tapes.append(_tape("combat", place, ("die",), entries, bound.combat))
        parts = ("die", "monster") if rules.roaming_alt else ("die",)
        tapes.append(_tape("roaming", place, parts, bound.roaming_tape, bound.roaming))
    return tuple(tapes)


def _tape(name: str, place: str, parts: tuple[str, ...],
          entries: tuple[tuple[int, ...], ...], bound: int) -> Tape:
    fallback = ""
    if len(entries) < bound:
        fallback = (f"This tape holds {len(entries)} entries, fewer than the {bound} the "
                    "worst case could take. If you cross off its last entry, start again "
                    "from its first, crossing each off a second time.")
    return Tape(name, place, parts, entries, 1, 6, bound, fallback)


def roaming_entries(rules: Rules, seed: str, level: int, length: int
                    ) -> tuple[tuple[int, ...], ...]:
    """The roaming tape: one roaming die an entry; under DD-21 Alt each with the monster
    die it brings, already rolled again on the faces the rules reroll."""
    if not rules.roaming_alt:
        return roll_tape(seed, RULESET, ("level", level), "roaming tape", ("die",), length)
    reroll = rules.data.exploring.roaming.alt_reroll
    rng = SplitMix64(stream_seed(seed, RULESET, "level", level, purpose="roaming tape"))
    entries = []
    for _ in range(length):
        die, face = rng.die(), rng.die()
        while face in reroll:
            face = rng.die()
        entries.append((die, face))
    return tuple(entries)


@dataclass(frozen=True)
class Bounds:
    """The most entries a level's tapes can be asked for (:func:`tape_bounds`), and the
    roaming tape printed for its bound."""

    roaming: int
    combat: int
    roaming_tape: tuple[tuple[int, ...], ...]


def tape_bounds(rules: Rules, dungeon: Dungeon, seed: str) -> list[Bounds]:
    """Invariant 2.5.11: an upper bound on each level's tape entries.

    Roaming (DD-21, DD-22): an entry for each return into a cleared location.  The
    rules let a reader wander without end, so the bound is for a reader with a purpose:
    one who explores the level depth first (on into a new location while the one they
    are in has a door to one, else back the way they came: at most n - 1 returns for n
    locations), then walks the shortest way to a vault and to a Great Hall (at most n - 1
    returns each): 3(n - 1).  A temple's teleport or the Scroll of Teleportation only
    ever replaces a walk that costs at least one return.  Each Boots flight adds its
    landing (the way back leads into the location whose monster is still there: a
    fight, not a roaming entry); the flights are the Boots' allowance at the highest
    character level the dungeon's XP can give (DD-26).  Under DD-25 Alt each Town
    Portal of the dungeon can send the reader round once more.

    Combat: every attack roll hits or misses.  Hits: for each fight, the monster's HP
    and all it could regenerate (DD-08) over the least damage a hit does (DD-06,
    DD-28).  The fights are the level's locations; the roaming monsters that the
    roaming tape's entries within its bound bring (the tape is known: these are
    exactly the ones a reader can meet); and a fight again for every flight, Sleeping
    Salts and Town Portal, against the toughest.  Misses: each lets the monster hit for
    at least 1, so they are at most the hit points the hero could ever have to lose:
    the highest maximum (every raise found up to here, the best class), down to the
    Soul Stone's floor, every healing potion and all the Mind a Cleric could turn into
    HP, plus every hit a Shielding Charm or an Emerald takes (one a fight, DD-26).  Each
    flight also takes one entry for its door.  What is found counts over the locations
    up to this level (all of them under DD-25 Alt) and the roaming monsters' loot.
    """
    gains = _gains(rules, dungeon.levels)
    passes = 1 + _count(rules, gains, EffectKind.LEAVE_DUNGEON) if rules.portal_to_start else 1
    roaming: list[int] = []
    tapes: list[tuple[tuple[int, ...], ...]] = []
    met: list[list[Foe]] = []
    for k, level in enumerate(dungeon.levels, 1):
        worst = _Worst(rules, dungeon, dungeon.levels if passes > 1 else dungeon.levels[:k],
                       passes, [])
        roaming.append(worst.walk(level) + worst.flights())
        tapes.append(roaming_entries(rules, seed, level.number, min(roaming[-1], ROAMING_PAGE)))
        met.append(roamers_met(rules, level, tapes[-1], roaming[-1]))
    out = []
    for k, level in enumerate(dungeon.levels, 1):
        upto = len(dungeon.levels) if passes > 1 else k
        worst = _Worst(rules, dungeon, dungeon.levels[:upto], passes,
                       [foe for foes in met[:upto] for foe in foes])
        out.append(Bounds(roaming[k - 1], worst.combat(level, met[k - 1]), tapes[k - 1]))
    return out


def roamers_met(rules: Rules, level: Level, tape: Sequence[tuple[int, ...]], entries: int
                ) -> list[Foe]:
    """The roaming monsters the first ``entries`` entries of the level's roaming ``tape``
    bring (read round again past its end, as its fallback says)."""
    rows, column = roaming_foes(rules, level)
    table = rules.data.exploring.roaming.table
    met = []
    for i in range(entries if tape else 0):
        entry = tape[i % len(tape)]
        if table.lookup(entry[0]):
            met.append(column[entry[1]] if rules.roaming_alt else rows[entry[0]])
    return met


def _gains(rules: Rules, levels: Sequence[Level]) -> list[str]:
    """Every item the locations of ``levels`` give: treasure, loot, and vault artifacts."""
    found: list[str] = []
    for level in levels:
        for cell in level.cells:
            found += cell.gains
            if cell.artifact_die is not None:
                found.append(rules.data.artifacts.lookup(cell.artifact_die).name)
    return found


def _count(rules: Rules, names: Sequence[str], kind: EffectKind) -> int:
    return sum(1 for n in names if rules.effects[n].kind is kind)


def _total(rules: Rules, names: Sequence[str], kind: EffectKind, stat: Stat | None = None
           ) -> int:
    """The summed amounts (an Emerald: its capacity) of the effects of ``kind``."""
    return sum(rules.effects[n].capacity if kind is EffectKind.ABSORB else rules.effects[n].amount
               for n in names
               if rules.effects[n].kind is kind and stat in (None, rules.effects[n].stat))


class _Worst:
    """The worst case over the levels ``upto``, whose roaming monsters are ``met`` (the
    terms of :func:`tape_bounds`)."""

    def __init__(self, rules: Rules, dungeon: Dungeon, upto: Sequence[Level], passes: int,
                 met: Sequence[Foe]):
        self.rules = rules
        self.dungeon = dungeon
        self.upto = upto
        self.passes = passes
        self.gains = [*_gains(rules, upto), *(item for foe in met for item in foe.loot.items)]

    def walk(self, level: Level) -> int:
        return 3 * (len(level.cells) - 1) * self.passes

    def xp(self, levels: Sequence[Level]) -> int:
        """The most XP ``levels`` can give: every location, and under DD-21 Alt every
        roaming entry of the walk bringing the best roaming monster."""
        rules = self.rules
        roaming = rules.data.exploring.roaming
        xp = sum(c.xp for lv in levels for c in lv.cells)
        if rules.roaming_alt:  # DD-21 Alt: a roaming monster is worth its die's pips
            most = max(f for f in range(1, roaming.table.faces + 1) if roaming.table.lookup(f))
            xp += most * roaming.alt_xp_per_pip * sum(self.walk(lv) for lv in levels)
        return xp

    def top_level(self) -> int:
        """The highest character level the XP of ``upto`` can give (DD-19, DD-20)."""
        rules = self.rules
        xp = rules.data.character.start_xp + self.xp(self.upto)
        return rules.data.experience.level_for(xp, rules.level_cap)

    def flights(self) -> int:
        """Boots flights on a level (DD-26), on every pass (DD-25 Alt)."""
        boots = [self.rules.effects[n].amount for n in self.gains
                 if self.rules.effects[n].kind is EffectKind.FLEE]
        return max(boots) * self.top_level() * self.passes if boots else 0

    def hits(self, foe: Foe) -> int:
        """Hits that could be needed to beat ``foe`` (DD-07, DD-08)."""
        rules = self.rules
        regen = sum(ab.amount * (1 if rules.abilities_once else foe.mind // ab.mind_cost)
                    for ab in foe.abilities if ab.kind is AbilityKind.REGEN)
        return max(0, ceil((foe.hp + regen - rules.data.combat.monster_defeated_at)
                           / self.least_damage()))

    def least_damage(self) -> int:
        """The least damage one hit does: the d6 scale's (DD-28), the Str die (DD-06
        Faithful: Str never drops), or 1 (Alt: an attack with an attribute above 0)."""
        rules = self.rules
        if rules.scale is not None:
            return rules.scale.player_damage
        if rules.damage_from_attack_stat:
            return 1
        return max(1, self.dungeon.character.value(Stat(rules.data.combat.damage_stat)))

    def combat(self, level: Level, met: Sequence[Foe]) -> int:
        foes = [c.monster.foe for c in level.cells]
        again = (self.flights() + _count(self.rules, self.gains, EffectKind.SLEEP_MONSTER)
                 + self.passes - 1)
        hits = (sum(self.hits(f) for f in [*foes, *met])
                + again * max(self.hits(f) for f in [*foes, *met]))
        return hits + self.misses(level, len(foes) + len(met) + again) + self.flights()

    def misses(self, level: Level, fights: int) -> int:
        """Misses that could be survived: every HP to lose, and every hit a Shielding
        Charm or an Emerald takes (per fight, DD-26: at most one a fight)."""
        rules, gains = self.rules, self.gains
        most_hp = (self.dungeon.character.hp + _total(rules, gains, EffectKind.RAISE_MAX, Stat.HP)
                   + max((c.hp for c in rules.classes), default=0))
        souls = [rules.effects[n].floor for n in gains
                 if rules.effects[n].kind is EffectKind.SOUL_STONE]
        below = rules.data.combat.death_at - min(souls, default=rules.data.combat.death_at)
        absorbers = [rules.effects[n] for n in gains if rules.effects[n].kind is EffectKind.ABSORB]
        absorbed = _total(rules, gains, EffectKind.ABSORB)
        if all(e.per == "fight" for e in absorbers):
            absorbed = min(absorbed, fights)
        return (most_hp + below + _total(rules, gains, EffectKind.HEAL) + self.prayers(level)
                + _total(rules, gains, EffectKind.IGNORE_HIT) + absorbed)

    def prayers(self, level: Level) -> int:
        """The HP a healing class power (the Cleric's, DD-27) could give on ``level``: its
        highest Mind at every refill (coming down, each level-up the level's XP can
        bring, each elite killed there) plus what the tomes and scrolls give back."""
        rules, gains = self.rules, self.gains
        healers = [c.power for c in rules.classes
                   if any(e.kind is EffectKind.HEAL for e in c.power.effects)]
        if not healers:
            return 0
        levels = self.top_level() - 1
        top_mind = (self.dungeon.character.value(Stat.MIND)
                    + _total(rules, gains, EffectKind.RAISE_MAX, Stat.MIND)
                    + max(c.mind for c in rules.classes)
                    + (rules.data.experience.alt_raise_max * levels
                       if rules.raise_max_per_level else 0))
        recovery = rules.data.mind_recovery
        here = self.upto if self.passes > 1 else [level]
        elites = sum(c.monster.elite for lv in here for c in lv.cells)
        ups = min(levels, self.xp(here) // rules.data.experience.step + 1)
        refills = 1 + (ups if recovery.level_up else 0) + (elites if recovery.elite_kill else 0)
        mind = (top_mind * refills + _total(rules, gains, EffectKind.RESTORE, Stat.MIND)
                + _total(rules, gains, EffectKind.MIND_TOKEN))
        return max(sum(e.amount for e in p.effects if e.kind is EffectKind.HEAL) * mind
                   // p.mind_cost for p in healers)
