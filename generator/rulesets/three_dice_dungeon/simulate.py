"""The fast simulator: many games with the reference player, one outcome each.

Game ``i`` draws every die from streams of (seed, "run", i, place, purpose) through
:class:`.dice.FastRng` (a local generator seeded from the stable stream), so a seed
always gives the same report and runs are independent of each other.  :func:`played` is
game 0 with its log: the game ``towerpress play`` shows.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from generator.engine import playlog
from generator.engine.family import Progress
from generator.engine.report import RunOutcome
from generator.engine.rng import DiceRng
from generator.model.common import Profile
from generator.rulesets.three_dice_dungeon.data import ThreeDiceDungeon
from generator.rulesets.three_dice_dungeon.dice import fast
from generator.rulesets.three_dice_dungeon.game import Streams, play
from generator.rulesets.three_dice_dungeon.policy import ReferencePolicy
from generator.rulesets.three_dice_dungeon.rules import rules_for

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
