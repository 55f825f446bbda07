"""The fast simulator: many games with the reference player, one outcome each.

Game ``i`` draws every die from streams of (seed, "run", i, place, purpose) through
:class:`.dice.FastRng` (a local generator seeded from the stable stream), so a seed
always gives the same report and runs are independent of each other.  :func:`played` is
game 0 with its log: the game ``towerpress play`` shows.  :func:`booklet_odds` plays one
booklet's fixed dungeon the same way, with fresh dice from the seed's "odds" streams.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

from generator.engine import playlog
from generator.engine.family import Progress
from generator.engine.report import RunOutcome
from generator.engine.rng import DiceRng
from generator.model.common import Profile
from generator.rulesets.three_dice_dungeon.data import ThreeDiceDungeon
from generator.rulesets.three_dice_dungeon.dice import fast, stable
from generator.rulesets.three_dice_dungeon.dungeon import Dungeon, derive_hp, roll_substitution
from generator.rulesets.three_dice_dungeon.game import Game, Streams, play, play_out
from generator.rulesets.three_dice_dungeon.hero import Hero
from generator.rulesets.three_dice_dungeon.levels import (
    Cell,
    Level,
    TreasureRoll,
    roll_chart,
    roll_loot,
)
from generator.rulesets.three_dice_dungeon.policy import ReferencePolicy
from generator.rulesets.three_dice_dungeon.rules import Rules, rules_for

#: Report progress every this many games.
PROGRESS_EVERY = 1000


def run_streams(seed: str, run: int) -> Streams:
    """The random sources of game ``run``: one fast generator per (place, purpose)."""

    def streams(*place: object, purpose: str) -> DiceRng:
        return fast(seed, "run", run, *place, purpose=purpose)

    return streams


def played(data: ThreeDiceDungeon, profile: Profile, seed: str, depth: int
           ) -> playlog.PlayedGame:
    """Game 0 of ``simulate`` for ``seed``, with every die and decision logged."""
    log: list[playlog.Step] = []
    outcome, _ = play(rules_for(data, profile), ReferencePolicy(log), run_streams(seed, 0),
                      depth, log=log)
    return playlog.PlayedGame(outcome, tuple(log))


def simulate(
    data: Any,
    profile: Profile,
    runs: int,
    seed: str,
    depth: int,
    progress: Progress | None,
) -> Iterator[RunOutcome]:
    """Play ``runs`` games of ``depth`` levels; descending from the last level wins.

    Raises:
        TypeError: ``data`` is not 3 Dice Dungeon content.
    """
    if not isinstance(data, ThreeDiceDungeon):
        raise TypeError(f"expected 3 Dice Dungeon content, got {type(data).__name__}")
    rules = rules_for(data, profile)
    policy = ReferencePolicy()
    for run in range(runs):
        outcome, _ = play(rules, policy, run_streams(seed, run), depth)
        yield outcome
        if progress is not None and (run + 1) % PROGRESS_EVERY == 0:
            progress(run + 1)
    if progress is not None:
        progress(runs)


# -- a booklet's odds ---------------------------------------------------------------------


@dataclass
class BookletGame(Game):
    """A game on a booklet's fixed levels: each level is the booklet's, not built."""

    fixed: tuple[Level, ...] = ()

    def _build(self, number: int) -> Level:
        return self.fixed[number - 1]


def odds_streams(seed: str, run: int) -> Streams:
    """The dice of play ``run`` of a booklet's odds: from the seed's "odds" streams, never
    the booklet's tapes."""

    def streams(*place: object, purpose: str) -> DiceRng:
        return fast(seed, run, *place, purpose, purpose="odds")

    return streams


def booklet_odds(data: ThreeDiceDungeon, profile: Profile, dungeon: Dungeon, runs: range,
                 seed: str) -> Iterator[RunOutcome]:
    """``runs`` plays of the booklet's ``dungeon`` by the reference player, with fresh
    dice each time, under ``profile`` (the booklet's, or another: its dice read again)."""
    rules = rules_for(data, profile)
    dungeon = reread(rules, dungeon, seed)
    policy = ReferencePolicy()
    character = dungeon.character
    if rules.free_assignment:  # DD-01 Alt: the player places the printed dice
        character = replace(character, assignment=policy.assign(rules, character.dice))
    for run in runs:
        game = BookletGame(rules=rules, policy=policy, streams=odds_streams(seed, run),
                           depth=len(dungeon.levels), grid=dungeon.levels[0].grid,
                           hero=Hero(rules, character),
                           substitution=dict(dungeon.substitution), fixed=dungeon.levels)
        yield play_out(game)


def reread(rules: Rules, dungeon: Dungeon, seed: str) -> Dungeon:
    """The booklet's dungeon under ``rules`` when it was made under another profile: the
    same map and dice, read by these rules (the monsters, treasures and HP they give;
    DD-09 substitution as these rules have it).  A die these rules need and the booklet
    never rolled (a chart roll, an elite's base) comes from a stream of its own, the same
    for every play."""
    if dungeon.profile == rules.profile.id:
        return dungeon
    subst: dict[str, str] = {}
    if rules.substitute:
        subst = dict(dungeon.substitution) or roll_substitution(
            rules, stable(seed, "dungeon", purpose="substitution"))
    pairs = tuple(sorted(subst.items()))
    levels = tuple(
        replace(level, substitution=pairs, index={}, links={},
                cells=tuple(_reread_cell(rules, level, cell, subst, seed) for cell in level.cells))
        for level in dungeon.levels)
    c = dungeon.character
    character = replace(c, hp=derive_hp(rules, c.dice, c.assignment, c.klass))
    return replace(dungeon, profile=rules.profile.id, character=character,
                   substitution=pairs, levels=levels)


def _reread_cell(rules: Rules, level: Level, cell: Cell, subst: dict[str, str], seed: str
                 ) -> Cell:
    rng = stable(seed, "level", level.number, "cell", *cell.pos, purpose="odds content")
    m = cell.monster
    row = rules.row(level.undead, m.die)
    face = m.die
    if row.elite:  # DD-13: the booklet's base die, or one rolled as the rules say
        face = m.base_face
        if not rules.elite_rerolls_base:
            face = rules.signature_face()
        elif not m.elite_rolls:
            face = rng.die()
            while face in rules.data.elite.reroll_faces or rules.row(level.undead, face).elite:
                face = rng.die()
    foe = rules.foe(rules.row(level.undead, face).monster, face, row.elite, subst)
    monster = replace(m, base_face=face, name=foe.name, foe=foe)
    reward = rules.row(level.undead, cell.treasure.die).treasure
    gain = reward.gain_for(rules.gain_alt(reward.alt_ruling))
    treasure = cell.treasure
    if gain.item:
        treasure = TreasureRoll(treasure.die, (), gain.item)
    elif not treasure.chart_rolls or treasure.chart_rolls[0][0] != gain.chart:
        treasure = TreasureRoll(treasure.die, *roll_chart(rules, rng, gain.chart))
    loot = cell.loot
    if not foe.loot.chart:
        loot = None
    elif loot is None or loot.chart_rolls[0][0] != foe.loot.chart:
        loot = roll_loot(rules, rng, foe)
    return replace(cell, monster=monster, treasure=treasure, loot=loot)
