"""Games per second of the Tower of Choices simulator, on one core.

Each profile plays ``RUNS`` seeded games of the default depth with the reference player
(the same work as ``towerpress simulate tower-of-choices``), after a short warm-up that
fills the odds caches as a long simulation would.
"""

from __future__ import annotations

import time

from generator.rulesets import load_content
from generator.rulesets.tower_of_choices.family import FAMILY

RUNS = 2000
WARM_UP = 200


def run() -> None:
    ruleset = load_content().ruleset("tower-of-choices")
    print(
        f"tower-of-choices engine: games per second ({RUNS} games of {FAMILY.default_depth} rooms)"
    )
    for profile_id in ruleset.profiles:
        profile = ruleset.profile(profile_id)
        list(
            FAMILY.simulate(
                ruleset.data, profile, WARM_UP, "str:warm-up", FAMILY.default_depth, None
            )
        )
        start = time.perf_counter()
        outcomes = list(
            FAMILY.simulate(ruleset.data, profile, RUNS, "str:bench", FAMILY.default_depth, None)
        )
        seconds = time.perf_counter() - start
        won = sum(o.won for o in outcomes) / len(outcomes)
        print(f"  {profile_id:<12}{RUNS / seconds:>10.0f} games/s   (won {won:.1%})")


if __name__ == "__main__":
    run()
