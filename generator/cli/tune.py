"""``towerpress tune``: the survival each reading gives, beside the profile's own."""

from __future__ import annotations

from pathlib import Path

import click

from generator.cli.options import (
    SEED_HELP,
    PositiveInt,
    canonical_seed,
    content_option,
    engine_for,
    floors_option,
    profile_option,
)
from generator.engine.report import SimulationReport
from generator.engine.tune import Candidate, candidates, playable

MAX_TUNE_RUNS = 100_000  # games per reading; a ruleset has up to about 35 readings to try
SHOWN_DEPTHS = 10  # columns of survival: the first depths, and the last


@click.command()
@click.argument("ruleset_id", metavar="RULESET")
@click.option("--runs", type=PositiveInt(MAX_TUNE_RUNS), default=1000, show_default=True,
              help=f"Games for each reading (1 to {MAX_TUNE_RUNS:,}).")
@click.option("--seed", default="1", show_default=True, help=SEED_HELP)
@profile_option
@floors_option("a run goes down at most")
@content_option
def tune(ruleset_id: str, runs: int, seed: str, profile_id: str | None, depth: int | None,
         content_dir: Path | None) -> None:
    """For a profile and for each ruling read the other way, the share of games that
    reach each floor (level, room) and that win: why a profile is what it is."""
    canonical = canonical_seed(seed)
    ruleset, profile, family = engine_for(ruleset_id, content_dir, profile_id)
    depth = depth or family.default_depth
    shown = _shown_depths(depth)
    click.echo(f"{ruleset.title}, profile {profile.id}, seed {seed}: {runs} games for each "
               f"of {1 + len(playable(ruleset.rulings))} sets of readings, at most {depth} "
               f"{family.depth_name}s; the share that reaches each {family.depth_name}")
    click.echo(f"{'readings':<22}" + "".join(f"{d:>7}" for d in shown) + f"{'won':>8}"
               + f"{'change':>9}")
    base: SimulationReport | None = None
    for candidate in candidates(family, ruleset.data, ruleset.rulings, profile, runs,
                                canonical, depth):
        base = base or candidate.report
        click.echo(_row(candidate, shown, base))


def _shown_depths(depth: int) -> list[int]:
    if depth <= SHOWN_DEPTHS:
        return list(range(1, depth + 1))
    return [*range(1, SHOWN_DEPTHS), depth]


def _row(candidate: Candidate, shown: list[int], base: SimulationReport) -> str:
    report = candidate.report
    reached = {row.depth: row.reached for row in report.survival}
    name = ("the profile" if candidate.ruling is None
            else f"{candidate.ruling.id} {candidate.reading}")
    cells = "".join(f"{reached.get(d, 0.0):>7.1%}" for d in shown)
    won = report.won if report.won is not None else reached.get(shown[-1], 0.0)
    base_won = base.won if base.won is not None else _last(base, shown[-1])
    change = "" if candidate.ruling is None else f"{(won - base_won) * 100:>+8.1f}"
    return f"{name:<22}{cells}{won:>8.1%}{change:>9}"


def _last(report: SimulationReport, depth: int) -> float:
    return next((row.reached for row in report.survival if row.depth == depth), 0.0)
