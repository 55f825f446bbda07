"""Games per second of The Inverted Tower simulator, on one core.

Target (the engine issue): at least 50,000 games per second under ``as-written`` in one
process. Each figure is the best of a few runs of ``simulate`` (the fast path, outcomes
included), in wall-clock time and in CPU time of this process: the CPU figure does not
count time the process waited while other programs had the core. The reference rules
(``game.play``) are timed too, for comparison.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial

from generator.engine.rng import normalise_seed
from generator.rulesets import load_content
from generator.rulesets.inverted_tower.policy import REFERENCE
from generator.rulesets.inverted_tower.rules import rules_for
from generator.rulesets.inverted_tower.simulate import DiceTape, reference_game, run_games, simulate

RUNS = 100_000
REFERENCE_RUNS = 2_000
REPEATS = 3
TARGET = 50_000


def _best(call: Callable[[], object], runs: int) -> tuple[float, float]:
    """Best games/sec over REPEATS runs: (wall clock, process CPU time)."""
    wall = cpu = 0.0
    for _ in range(REPEATS):
        t0, c0 = time.perf_counter(), time.process_time()
        call()
        t1, c1 = time.perf_counter(), time.process_time()
        wall = max(wall, runs / (t1 - t0))
        cpu = max(cpu, runs / max(c1 - c0, 1e-9))
    return wall, cpu


def run() -> None:
    ruleset = load_content().ruleset("inverted-tower")
    seed = normalise_seed(1)
    print(f"inverted-tower engine: games per second (best of {REPEATS}, {RUNS} games, "
          f"10 floors; target {TARGET:,} as-written)")
    print(f"{'profile':<12}{'path':<11}{'wall/s':>10}{'cpu/s':>10}")
    for profile_id in ("as-written", "draft-4.5"):
        profile = ruleset.profile(profile_id)
        wall, cpu = _best(partial(simulate, ruleset.data, profile, RUNS, seed, 10), RUNS)
        print(f"{profile_id:<12}{'fast':<11}{wall:>10,.0f}{cpu:>10,.0f}")
        rules = rules_for(ruleset.data, profile)
        game = reference_game(rules, REFERENCE, 10)
        tape = DiceTape(1, rules.faces)
        wall, cpu = _best(partial(run_games, game, tape, REFERENCE_RUNS), REFERENCE_RUNS)
        print(f"{profile_id:<12}{'reference':<11}{wall:>10,.0f}{cpu:>10,.0f}")


if __name__ == "__main__":
    run()
