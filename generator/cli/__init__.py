"""The ``towerpress`` command line: thin commands that parse, call one function, report."""

from __future__ import annotations

import errno
import os
import signal
import sys
import traceback
from pathlib import Path
from typing import Any

import click

from generator import __version__
from generator.cli.options import (
    MAX_DEPTH,
    MAX_RUNS,
    PAPER,
    PositiveInt,
    content_option,
    load,
)
from generator.errors import ContentError, TowerpressError, printable
from generator.model.loader import Content
from generator.render.output import refuse_inputs
from generator.words import plural

REPORT_URL = "the TowerPress issue tracker"


def _load(content_dir: Path | None) -> Content:
    return load(content_dir)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="towerpress", message="%(prog)s %(version)s")
def cli() -> None:
    """Print rulebooks, card decks, character sheets and play logs; check the rules with
    exact odds and simulated games."""


@cli.command("list")
@content_option
def list_command(content_dir: Path | None) -> None:
    """List the rulesets with their titles, profiles, card decks and sheets."""
    content = _load(content_dir)
    for ruleset in content.rulesets.values():
        click.echo(f"{ruleset.id}: {ruleset.title}")
        for profile in ruleset.profiles.values():
            default = " (default)" if profile.id == ruleset.info.default_profile else ""
            click.echo(f"  profile {profile.id}{default}: {profile.title}")
        for deck in ruleset.decks.values():
            click.echo(f"  deck {deck.id}: {deck.title}")
        for sheet in ruleset.sheets.values():
            click.echo(f"  {sheet.kind}: {sheet.title} (towerpress {sheet.kind})")


@cli.command()
@content_option
def validate(content_dir: Path | None) -> None:
    """Check the content: types, keys, dice coverage, references, profiles, prose."""
    from generator.products.checks import check_renders

    content = _load(content_dir)
    check_renders(content)
    for ruleset in content.rulesets.values():
        click.echo(
            f"{ruleset.id}: ok ({len(ruleset.tables())} tables, {len(ruleset.rulings)} rulings, "
            f"{len(ruleset.profiles)} profiles, {len(ruleset.chapters)} chapters)"
        )


@cli.command()
@click.argument("ruleset_id", metavar="RULESET")
@click.option("--paper", type=PAPER, default="a4", show_default=True, help="Paper size.")
@click.option(
    "--profile", "profile_id", default=None, help="Rules profile (default: the ruleset's)."
)
@click.option("--print-marks", is_flag=True, help="Add 3 mm bleed and crop marks.")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["pdf", "html"]),
    default="pdf",
    show_default=True,
    help="pdf, or the HTML that goes into WeasyPrint (for a browser preview).",
)
@content_option
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="Output file (default: build/RULESET-rulebook-PAPER.pdf).",
)
def rulebook(
    ruleset_id: str,
    paper: str,
    profile_id: str | None,
    print_marks: bool,
    fmt: str,
    content_dir: Path | None,
    output: Path | None,
) -> None:
    """Print a rulebook: cover, contents, chapters, tables, rulings, quick reference."""
    from generator.products.rulebook.html import default_output
    from generator.products.rulebook.write import write_rulebook

    content = _load(content_dir)
    ruleset = content.ruleset(ruleset_id)
    ruleset.profile(profile_id)  # an unknown profile fails before any work
    out = output or default_output(ruleset.id, paper, fmt)
    refuse_inputs(out, content.folders)
    pages = write_rulebook(
        ruleset, out, paper=paper, profile_id=profile_id, print_marks=print_marks, fmt=fmt
    )
    click.echo(f"wrote {out}" + (f" ({plural(pages, 'page')})" if pages else ""))


def _engine_for(ruleset_id: str, content_dir: Path | None, profile_id: str | None) -> Any:
    from generator.engine.registry import engines

    ruleset = _load(content_dir).ruleset(ruleset_id)
    profile = ruleset.profile(profile_id)
    return ruleset, profile, engines()[ruleset.info.family]


@cli.command()
@click.argument("ruleset_id", metavar="RULESET")
@click.option(
    "--runs",
    type=PositiveInt(MAX_RUNS),
    default=10000,
    show_default=True,
    help=f"Games to play (1 to {MAX_RUNS:,}).",
)
@click.option("--seed", required=True,
              help="Seed (an integer or any non-empty text, at most 200 characters).")
@click.option(
    "--profile", "profile_id", default=None, help="Rules profile (default: the ruleset's)."
)
@click.option(
    "--floors",
    "depth",
    type=PositiveInt(MAX_DEPTH),
    default=None,
    help=f"Floors (levels, rooms) a run goes down at most, 1 to {MAX_DEPTH}; reaching the "
    "last is a win.",
)
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
    import json

    from generator.engine.report import summarise
    from generator.engine.rng import check_seed, normalise_seed

    try:
        check_seed(seed)
        canonical = normalise_seed(seed)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="'--seed'") from None
    ruleset, profile, engine = _engine_for(ruleset_id, content_dir, profile_id)
    depth = depth or engine.default_depth
    # A progress bar on stderr when a person watches; nothing when stderr is a file or pipe.
    show = sys.stderr.isatty() and runs >= 2000
    with click.progressbar(
        length=runs, label="simulating", file=sys.stderr, hidden=not show
    ) as bar:
        done = 0

        def progress(finished: int) -> None:
            nonlocal done
            bar.update(finished - done)
            done = finished

        outcomes = list(engine.simulate(ruleset.data, profile, runs, canonical, depth, progress))
    report = summarise(
        outcomes,
        ruleset=ruleset.id,
        profile=profile.id,
        seed=seed,
        depth_name=engine.depth_name,
        has_end=engine.has_end,
    )
    if as_json:
        click.echo(json.dumps(report.to_json(), sort_keys=False))
        return
    click.echo(
        f"{ruleset.title}, profile {profile.id}, seed {seed}: {runs} runs, "
        f"at most {depth} {engine.depth_name}s"
    )
    click.echo(f"{engine.depth_name:>6}  {'reached':>8}  95% interval")
    for row in report.survival:
        click.echo(f"{row.depth:>6}  {row.reached:>8.2%}  {row.ci95[0]:.2%} - {row.ci95[1]:.2%}")
    if report.won is not None:
        click.echo(f"won: {report.won:.2%}")
    click.echo(
        f"mean {engine.depth_name} reached: {report.mean_depth:.2f}; "
        f"mean rooms explored: {report.mean_rooms:.2f}"
    )
    for cause, count in sorted(report.deaths.items(), key=lambda kv: (-kv[1], kv[0])):
        click.echo(f"died: {cause}: {count} ({count / runs:.2%})")


def _indented(text: str, hang: str = "") -> str:
    """``text`` wrapped to 79 columns under a four-space indent, ``hang`` more after line 1."""
    return click.wrap_text(
        text, width=79, initial_indent="    ", subsequent_indent="    " + hang
    )


@cli.command(context_settings={"ignore_unknown_options": True})
@click.argument("ruleset_id", metavar="RULESET")
@click.argument("query", required=False)
@click.argument("params", nargs=-1, metavar="[NAME=VALUE]...")
@click.option(
    "--profile", "profile_id", default=None, help="Rules profile (default: the ruleset's)."
)
@content_option
def odds(
    ruleset_id: str,
    query: str | None,
    params: tuple[str, ...],
    profile_id: str | None,
    content_dir: Path | None,
) -> None:
    """Exact odds, as fractions: `towerpress odds RULESET` lists the queries."""
    ruleset, profile, engine = _engine_for(ruleset_id, content_dir, profile_id)
    if query is None:
        for q in engine.odds.values():
            args = " ".join(f"{p.name}={p.default}" for p in q.params)
            click.echo(f"{q.name} {args}".rstrip())
            click.echo(_indented(q.help))
            for p in q.params:
                click.echo(
                    _indented(
                        f"{p.name}: {p.help} ({p.min} to {p.max}, default {p.default})",
                        hang="  ",
                    )
                )
        return
    if query not in engine.odds:
        raise TowerpressError(
            f"unknown odds query {query!r} for {ruleset.id} "
            f"(expected one of: {', '.join(engine.odds)})"
        )
    spec = engine.odds[query]
    known = {p.name: p for p in spec.params}
    values = {p.name: p.default for p in spec.params}
    given: set[str] = set()
    for item in params:
        name, sep, text = item.partition("=")
        if not sep or name not in known:
            raise TowerpressError(
                f"odds {query}: {item!r} is not NAME=VALUE "
                f"with NAME one of: {', '.join(known) or 'none'}"
            )
        if name in given:
            raise TowerpressError(f"odds {query}: {name} is given twice (give it once)")
        given.add(name)
        p = known[name]
        try:
            value = int(text)
        except ValueError:
            raise TowerpressError(
                f"odds {query}: {name} must be an integer, got {text!r}"
            ) from None
        if not p.min <= value <= p.max:
            raise TowerpressError(
                f"odds {query}: {name} must be between {p.min} and {p.max}, got {value}"
            )
        values[name] = value
    for name, other in spec.follow.items():
        if name not in given:  # a default never contradicts what was typed: hp=8 alone
            values[name] = max(values[name], values[other])
    try:
        results = spec.compute(ruleset.data, profile, values)
    except ValueError as exc:  # a combination of values the query cannot take
        raise TowerpressError(f"odds {query}: {exc}") from None
    shown = " ".join(f"{k}={v}" for k, v in values.items())
    click.echo(f"{ruleset.title}, profile {profile.id}: {query} {shown}".rstrip())
    for label, value in results:
        # str() of a whole Fraction is "3", not "3/1"
        click.echo(f"  {label}: {value} = {float(value):.6f}")


@cli.command()
@content_option
@click.option(
    "--out",
    "out_dir",
    type=click.Path(path_type=Path, file_okay=False),
    default=Path("build"),
    show_default=True,
    help="Folder to write the products into.",
)
@click.option("--force", is_flag=True, help="Render every product, changed or not.")
def build(content_dir: Path | None, out_dir: Path, force: bool) -> None:
    """Validate the content and render every product whose inputs changed."""
    from generator.pipeline import build_all

    content = _load(content_dir)
    refuse_inputs(out_dir, content.folders)
    for line in build_all(content, out_dir, force=force):
        click.echo(line)


class Terminated(BaseException):
    """SIGTERM (``kill``, ``timeout``): stop as Ctrl-C does, so that temporary files go.
    Not an Exception, so that no handler of errors takes it for one."""


def _terminate(_signum: int, _frame: object) -> None:
    raise Terminated


def _quiet_after_stop(unraisable: Any) -> None:
    """At exit, concurrent.futures wakes each pool's manager through a pipe; a pool stopped
    at once (worker_pool) may have closed it already, and the write fails with EBADF after
    the one line that says the build was terminated.  That is the only failure let go."""
    exc = unraisable.exc_value
    if isinstance(exc, OSError) and exc.errno == errno.EBADF:
        return
    sys.__unraisablehook__(unraisable)


def main(argv: list[str] | None = None) -> None:
    """Entry point: user errors exit 2 with one line per problem; bugs say how to report."""
    signal.signal(signal.SIGTERM, _terminate)
    try:
        cli.main(args=argv, prog_name="towerpress", standalone_mode=False)
    except ContentError as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except TowerpressError as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except click.exceptions.Abort:
        click.echo("towerpress: aborted", err=True)
        sys.exit(130)
    except click.UsageError as exc:
        # One line, like every other user error: what is wrong and where to look.
        command = exc.ctx.command_path if exc.ctx is not None else "towerpress"
        message = printable(exc.format_message())
        click.echo(f"towerpress: error: {message} (see '{command} --help')", err=True)
        sys.exit(exc.exit_code)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except KeyboardInterrupt:
        sys.exit(130)
    except Terminated:
        click.echo("towerpress: terminated", err=True)
        sys.unraisablehook = _quiet_after_stop
        sys.exit(143)
    except Exception as exc:  # an internal failure: say so, and how to report it
        if os.environ.get("TOWERPRESS_DEBUG"):
            traceback.print_exc()
        click.echo(
            f"towerpress: internal error: {type(exc).__name__}: {printable(str(exc))}. "
            "This is a bug; please "
            f"report it to {REPORT_URL} with the command you ran "
            "(set TOWERPRESS_DEBUG=1 for the traceback).",
            err=True,
        )
        sys.exit(1)
    sys.exit(0)


def _register_more() -> None:
    from generator.cli.commands import register_all

    register_all(cli)


_register_more()
