"""``towerpress simulate`` and ``towerpress odds``: the engine, asked about a ruleset."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import click

from generator.cli.options import (
    MAX_RUNS,
    SEED_HELP,
    PositiveInt,
    canonical_seed,
    content_option,
    engine_for,
    floors_option,
    profile_option,
)
from generator.engine.family import Family, OddsQuery, Param
from generator.engine.report import RunOutcome, SimulationReport, summarise
from generator.errors import TowerpressError
from generator.model.common import Profile
from generator.model.loader import Ruleset


@click.command()
@click.argument("ruleset_id", metavar="RULESET")
@click.option(
    "--runs",
    type=PositiveInt(MAX_RUNS),
    default=10000,
    show_default=True,
    help=f"Games to play (1 to {MAX_RUNS:,}).",
)
@click.option("--seed", required=True,
              help=SEED_HELP)
@profile_option
@floors_option("a run goes down at most (reaching the last wins)")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object on stdout.")
@content_option
def simulate(
    ruleset_id: str,
    runs: int,
    seed: str,
    profile_id: str | None,
    depth: int | None,
    as_json: bool,
    content_dir: Path | None,
) -> None:
    """Play many games with the reference player and report survival and deaths."""
    canonical = canonical_seed(seed)
    ruleset, profile, family = engine_for(ruleset_id, content_dir, profile_id)
    depth = depth or family.default_depth
    outcomes = _played(family, ruleset, profile, runs, canonical, depth)
    report = summarise(outcomes, ruleset=ruleset.id, profile=profile.id, seed=seed,
                       depth_name=family.depth_name, has_end=family.has_end)
    if as_json:
        click.echo(json.dumps(report.to_json(), sort_keys=False))
        return
    click.echo(
        f"{ruleset.title}, profile {profile.id}, seed {seed}: {runs} runs, "
        f"at most {depth} {family.depth_name}s"
    )
    _echo_report(report, family.depth_name, runs)


def _played(family: Family[Any], ruleset: Ruleset, profile: Profile, runs: int, seed: str,
            depth: int) -> list[RunOutcome]:
    """The games, with a progress bar on stderr when a person watches (nothing when
    stderr is a file or a pipe)."""
    show = sys.stderr.isatty() and runs >= 2000
    with click.progressbar(
        length=runs, label="simulating", file=sys.stderr, hidden=not show
    ) as bar:
        done = 0

        def progress(finished: int) -> None:
            nonlocal done
            bar.update(finished - done)
            done = finished

        return list(family.simulate(ruleset.data, profile, runs, seed, depth, progress))


def _echo_report(report: SimulationReport, depth_name: str, runs: int) -> None:
    click.echo(f"{depth_name:>6}  {'reached':>8}  95% interval")
    for row in report.survival:
        click.echo(f"{row.depth:>6}  {row.reached:>8.2%}  {row.ci95[0]:.2%} - {row.ci95[1]:.2%}")
    if report.won is not None:
        click.echo(f"won: {report.won:.2%}")
    click.echo(
        f"mean {depth_name} reached: {report.mean_depth:.2f}; "
        f"mean rooms explored: {report.mean_rooms:.2f}"
    )
    for cause, count in sorted(report.deaths.items(), key=lambda kv: (-kv[1], kv[0])):
        click.echo(f"died: {cause}: {count} ({count / runs:.2%})")


def _indented(text: str, hang: str = "") -> str:
    """``text`` wrapped to 79 columns under a four-space indent, ``hang`` more after line 1."""
    return click.wrap_text(
        text, width=79, initial_indent="    ", subsequent_indent="    " + hang
    )


@click.command(context_settings={"ignore_unknown_options": True})
@click.argument("ruleset_id", metavar="RULESET")
@click.argument("query", required=False)
@click.argument("params", nargs=-1, metavar="[NAME=VALUE]...")
@profile_option
@content_option
def odds(
    ruleset_id: str,
    query: str | None,
    params: tuple[str, ...],
    profile_id: str | None,
    content_dir: Path | None,
) -> None:
    """Exact odds, as fractions: `towerpress odds RULESET` lists the queries."""
    ruleset, profile, family = engine_for(ruleset_id, content_dir, profile_id)
    if query is None:
        _echo_queries(family.odds.values())
        return
    if query not in family.odds:
        raise TowerpressError(
            f"unknown odds query {query!r} for {ruleset.id} "
            f"(expected one of: {', '.join(family.odds)})"
        )
    spec = family.odds[query]
    values = _values(spec, params)
    try:
        results = spec.compute(ruleset.data, profile, values)
    except ValueError as exc:  # a combination of values the query cannot take
        raise TowerpressError(f"odds {query}: {exc}") from None
    shown = " ".join(f"{k}={v}" for k, v in values.items())
    click.echo(f"{ruleset.title}, profile {profile.id}: {query} {shown}".rstrip())
    for label, result in results:
        # str() of a whole Fraction is "3", not "3/1"
        click.echo(f"  {label}: {result} = {float(result):.6f}")


def _echo_queries(queries: Iterable[OddsQuery]) -> None:
    for q in queries:
        args = " ".join(f"{p.name}={p.default}" for p in q.params)
        click.echo(f"{q.name} {args}".rstrip())
        click.echo(_indented(q.help))
        for p in q.params:
            click.echo(_indented(
                f"{p.name}: {p.help} ({p.min} to {p.max}, default {p.default})", hang="  "))


def _values(spec: OddsQuery, params: tuple[str, ...]) -> Mapping[str, int]:
    """Every parameter's value: its default unless ``params`` gives it as NAME=VALUE.

    Raises:
        TowerpressError: a malformed, unknown, repeated or out-of-range parameter.
    """
    known = {p.name: p for p in spec.params}
    values = {p.name: p.default for p in spec.params}
    given: set[str] = set()
    for item in params:
        name, sep, text = item.partition("=")
        if not sep or name not in known:
            raise TowerpressError(
                f"odds {spec.name}: {item!r} is not NAME=VALUE "
                f"with NAME one of: {', '.join(known) or 'none'}"
            )
        if name in given:
            raise TowerpressError(f"odds {spec.name}: {name} is given twice (give it once)")
        given.add(name)
        values[name] = _value(spec, known[name], text)
    for name, other in spec.follow.items():
        if name not in given:  # a default never contradicts what was typed: hp=8 alone
            values[name] = max(values[name], values[other])
    return values


def _value(spec: OddsQuery, param: Param, text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise TowerpressError(
            f"odds {spec.name}: {param.name} must be an integer, got {text!r}") from None
    if not param.min <= value <= param.max:
        raise TowerpressError(
            f"odds {spec.name}: {param.name} must be between {param.min} and {param.max}, "
            f"got {value}")
    return value
