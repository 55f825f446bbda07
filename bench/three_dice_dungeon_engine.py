"""3 Dice Dungeon engine: games per second on one core, and a booklet's generate + check.

Each figure is the best of a few timed batches in one warm process (content loaded once).
"""

from __future__ import annotations

import time

from generator.rulesets import load_content
from generator.rulesets.three_dice_dungeon.check import check_dungeon
from generator.rulesets.three_dice_dungeon.data import ThreeDiceDungeon
from generator.rulesets.three_dice_dungeon.dungeon import generate_dungeon
from generator.rulesets.three_dice_dungeon.family import FAMILY
from generator.rulesets.three_dice_dungeon.rules import rules_for

GAMES = 500
REPEATS = 3
DEPTH = FAMILY.default_depth


def run() -> None:
    ruleset = load_content().ruleset("three-dice-dungeon")
    data = ruleset.data
    assert isinstance(data, ThreeDiceDungeon)
    print(f"three-dice-dungeon engine: games per second, {DEPTH} levels (best of {REPEATS})")
    for profile_id in sorted(ruleset.profiles):
        profile = ruleset.profile(profile_id)
        best = 0.0
        for repeat in range(REPEATS):
            t0 = time.perf_counter()
            for _ in FAMILY.simulate(data, profile, GAMES, f"int:{repeat}", DEPTH, None):
                pass
            best = max(best, GAMES / (time.perf_counter() - t0))
        print(f"  {profile_id:<12}{best:>10.0f} games/s")
    rules = rules_for(data, ruleset.profile())
    fastest = float("inf")
    for repeat in range(REPEATS * 5):
        t0 = time.perf_counter()
        dungeon = generate_dungeon(rules, f"int:{repeat}", DEPTH)
        assert check_dungeon(rules, dungeon) == []
        fastest = min(fastest, time.perf_counter() - t0)
    print(f"  booklet of {DEPTH} levels: generate + check in {fastest * 1000:.1f} ms")


if __name__ == "__main__":
    run()
