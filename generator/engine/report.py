"""What a simulation reports: survival by depth with 95% intervals, wins, deaths.

Every family's simulator plays runs and hands back :class:`RunOutcome` values; this
module turns them into one :class:`SimulationReport`, the same shape for all rulesets.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

Z95 = 1.959963984540054


@dataclass(frozen=True, slots=True)
class RunOutcome:
    """One simulated game.

    ``depth`` is the deepest floor, level or room reached (1 = the first);
    ``death`` names the cause, or is None when the character lived (won or stopped).
    """

    depth: int
    won: bool
    death: str | None
    rooms: int


def wilson(successes: int, trials: int) -> tuple[float, float]:
    """Wilson score interval for a proportion at 95%: sound near 0 and 1."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + Z95 * Z95 / trials
    centre = (p + Z95 * Z95 / (2 * trials)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / trials + Z95 * Z95 / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class SurvivalRow:
    depth: int
    reached: float
    ci95: tuple[float, float]
    count: int


@dataclass(frozen=True)
class SimulationReport:
    ruleset: str
    profile: str
    seed: str
    runs: int
    depth_name: str  # "floor", "level" or "room"
    survival: tuple[SurvivalRow, ...]
    won: float | None  # None when a run has no end
    mean_depth: float
    mean_rooms: float
    deaths: dict[str, int]

    def to_json(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset,
            "profile": self.profile,
            "seed": self.seed,
            "runs": self.runs,
            "depth_name": self.depth_name,
            "survival": [
                {
                    "depth": row.depth,
                    "reached": round(row.reached, 6),
                    "ci95": [round(row.ci95[0], 6), round(row.ci95[1], 6)],
                }
                for row in self.survival
            ],
            "won": None if self.won is None else round(self.won, 6),
            "mean_depth": round(self.mean_depth, 6),
            "mean_rooms": round(self.mean_rooms, 6),
            "deaths": dict(sorted(self.deaths.items())),
        }


def summarise(
    outcomes: Iterable[RunOutcome],
    *,
    ruleset: str,
    profile: str,
    seed: str,
    depth_name: str,
    has_end: bool,
) -> SimulationReport:
    runs = 0
    depth_counts: Counter[int] = Counter()
    deaths: Counter[str] = Counter()
    wins = 0
    total_depth = 0
    total_rooms = 0
    for outcome in outcomes:
        runs += 1
        depth_counts[outcome.depth] += 1
        total_depth += outcome.depth
        total_rooms += outcome.rooms
        wins += outcome.won
        if outcome.death is not None:
            deaths[outcome.death] += 1
    if runs == 0:
        raise ValueError("a simulation needs at least one run")
    deepest = max(depth_counts)
    survival = []
    at_least = runs
    for depth in range(1, deepest + 1):
        survival.append(SurvivalRow(depth, at_least / runs, wilson(at_least, runs), at_least))
        at_least -= depth_counts[depth]
    return SimulationReport(
        ruleset=ruleset,
        profile=profile,
        seed=seed,
        runs=runs,
        depth_name=depth_name,
        survival=tuple(survival),
        won=wins / runs if has_end else None,
        mean_depth=total_depth / runs,
        mean_rooms=total_rooms / runs,
        deaths=dict(deaths),
    )
