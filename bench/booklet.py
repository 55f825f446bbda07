"""Seeded booklets as JSON: making and checking one, its odds, and a print run.

Targets (the booklet issue): generate and check one 10-floor Inverted Tower booklet without
odds in under 100 ms; the odds of one booklet in under 2 s; 1,000 booklets of each ruleset
with ``towerpress booklet --count 1000`` (JSON, each then checked). Figures are the best of
a few runs in a warm process, wall clock; the print run is the command itself, in a
process of its own, so that it counts the start-up a user waits for.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from generator.engine.booklet import BookletRequest, check_document, make_booklet
from generator.engine.family import family_of
from generator.model.loader import Ruleset
from generator.rulesets import load_content

RULESETS = ("inverted-tower", "three-dice-dungeon", "tower-of-choices")
REPEATS = 5
ODDS_RUNS = 2500  # the booklet command's default
PRINT_RUN = 1000
SEED = 1234  # the README's booklet


def _best(call: Callable[[], object], repeats: int = REPEATS) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        best = min(best, time.perf_counter() - start)
    return best


def _one(ruleset: Ruleset, seed: int, odds: int) -> dict[str, object]:
    family = family_of(ruleset)
    profile = ruleset.profile(ruleset.info.booklet_profile)
    request = BookletRequest(str(seed), family.default_depth, odds)
    return make_booklet(ruleset, family, profile, request)


def _make_and_check(ruleset: Ruleset) -> None:
    found = check_document(_one(ruleset, SEED, 0), ruleset, family_of(ruleset))
    assert not found, found


def _print_run(ruleset: Ruleset, folder: Path) -> tuple[float, float]:
    """Seconds for ``towerpress booklet --count`` to write PRINT_RUN booklets, and for
    checking them all in this process."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "generator", "booklet", ruleset.id, "--seed", "1",
                    "--count", str(PRINT_RUN), "--odds", "0", "--format", "json",
                    "-o", str(folder)],
                   check=True, stdout=subprocess.DEVNULL)
    made = time.perf_counter() - start
    start = time.perf_counter()
    family = family_of(ruleset)
    for path in sorted(folder.glob(f"{ruleset.id}-*.json")):
        assert not check_document(json.loads(path.read_bytes()), ruleset, family), path
    return made, time.perf_counter() - start


def run() -> None:
    content = load_content()
    print(f"booklets: best of {REPEATS} (seconds); odds of {ODDS_RUNS:,} plays per profile; "
          f"print run of {PRINT_RUN:,} with --count")
    print(f"{'ruleset':<20}{'make+check':>11}{'odds':>8}{'print run':>11}{'check all':>11}")
    for ruleset_id in RULESETS:
        ruleset = content.ruleset(ruleset_id)
        one = _best(lambda: _make_and_check(ruleset))  # noqa: B023 - called at once
        odds = _best(lambda: _one(ruleset, SEED, ODDS_RUNS), 2)  # noqa: B023
        with tempfile.TemporaryDirectory() as folder:
            made, checked = _print_run(ruleset, Path(folder))
        print(f"{ruleset_id:<20}{one:>11.3f}{odds:>8.2f}{made:>11.1f}{checked:>11.1f}")


if __name__ == "__main__":
    run()
