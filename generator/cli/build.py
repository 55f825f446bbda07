"""``towerpress build``: every product whose inputs changed, into the build folder; with
``--watch``, again whenever a file of the content or the templates changes."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from generator.cli.options import content_option, load
from generator.cli.progress import progress
from generator.cli.watch import Watcher
from generator.errors import TowerpressError
from generator.pipeline import Built, Plan, prepare
from generator.render.output import refuse_inputs
from generator.resources import BUNDLED_CONTENT, TEMPLATES
from generator.words import plural


class _Folder(click.Path):
    """A folder's path; an empty one is refused (``Path("")`` is the current folder, and
    ``--out ""`` built into it)."""

    def __init__(self) -> None:
        super().__init__(path_type=Path, file_okay=False)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None
                ) -> Any:
        if value == "":
            self.fail("expected a folder's path, got an empty one", param, ctx)
        return super().convert(value, param, ctx)


@dataclass(frozen=True)
class Request:
    """What to build: from which content (the bundled one: None), into which folder, which
    files (every one: no patterns)."""

    content_dir: Path | None
    out_dir: Path
    only: tuple[str, ...] = ()


@click.command()
@content_option
@click.option(
    "--out",
    "out_dir",
    type=_Folder(),
    default=Path("build"),
    show_default=True,
    help="Folder to write the products into.",
)
@click.option("--force", is_flag=True, help="Render every product, changed or not.")
@click.option("--only", "only", multiple=True, metavar="PATTERN",
              help="Only the files that match PATTERN, a path in the build folder with * "
                   "and ? (e.g. '*-sheet-a4.pdf'); repeatable.")
@click.option("--watch", is_flag=True,
              help="Then watch the content and the templates, and build again what a change "
                   "changes, until Ctrl-C.")
def build(content_dir: Path | None, out_dir: Path, force: bool, only: tuple[str, ...],
          watch: bool) -> None:
    """Validate the content and render every product whose inputs changed."""
    request = Request(content_dir, out_dir, only)
    if not watch:
        build_once(request, force)
        return
    try:
        _watch(request, force)
    except KeyboardInterrupt:
        # Ctrl-C is how watching ends: one line, and the shell's code for it.
        click.echo("towerpress: stopped watching", err=True)
        # Not click's Exit: out of standalone mode, click returns its code and main exits 0.
        sys.exit(130)


def build_once(request: Request, force: bool = False, unchanged_rows: bool = True) -> None:
    """Load, check and build, a bar on stderr while the products render and their table on
    stdout after (the unchanged ones in it too, with ``unchanged_rows``).

    Raises:
        ContentError: the content has problems (every one is listed).
        TowerpressError: the build folder is among the inputs or cannot be written; a
            product cannot be rendered.
    """
    start = time.monotonic()
    content = load(request.content_dir)
    refuse_inputs(request.out_dir, content.folders)
    plan = prepare(content, request.out_dir, force=force, only=request.only)
    click.echo(plan.headline)
    rendered = _rendered(plan)
    kept = {built.job.out: built for built in plan.unchanged()} if unchanged_rows else {}
    shown = [built for job in plan.jobs if (built := rendered.get(job.out) or kept.get(job.out))]
    for line in summary(shown, plan, time.monotonic() - start):
        click.echo(line)


def _rendered(plan: Plan) -> dict[Path, Built]:
    """Render what the plan has to do, a bar stepping as each product is finished."""
    done: dict[Path, Built] = {}
    if not plan.todo:
        return done
    with progress(len(plan.todo), "rendering", _file_name) as step:
        for built in plan.render():
            done[built.job.out] = built
            step(built)
    return done


def _file_name(built: Built) -> str:
    return built.job.out.name


def summary(built: Sequence[Built], plan: Plan, seconds: float) -> list[str]:
    """The table of what the build wrote or kept: a row per file (a booklet is three), its
    pages (``-``: not a PDF), the seconds its product took to render (on the product's
    main file) and whether it was rendered or unchanged; and a line of totals."""
    rows = [("file", "pages", "seconds", "")]
    for each in built:
        main = each.job.out.relative_to(plan.out_dir).as_posix()
        for output in each.outputs:
            timed = each.seconds is not None and output.name == main
            spent = f"{each.seconds:.1f}" if timed else ""
            rows.append((output.name, "-" if output.pages is None else str(output.pages),
                         spent, "rendered" if each.rendered else "unchanged"))
    made = sum(1 for each in built if each.rendered)
    total = (f"{plural(len(plan.jobs), 'product')}: {made} rendered, "
             f"{len(plan.jobs) - len(plan.todo)} unchanged, in {_duration(seconds)}")
    return [*(_aligned(rows) if len(rows) > 1 else []), total]


def _aligned(rows: Iterable[tuple[str, str, str, str]]) -> list[str]:
    table = list(rows)
    widths = [max(len(row[i]) for row in table) for i in range(3)]
    return [f"{name:<{widths[0]}}  {pages:>{widths[1]}}  {spent:>{widths[2]}}  {state}".rstrip()
            for name, pages, spent, state in table]


def _duration(seconds: float) -> str:
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes} min {rest} s"


def _watch(request: Request, force: bool) -> None:
    """Build, then build again after each change under the content or the templates, until
    Ctrl-C (KeyboardInterrupt).  A problem in the content or a render is shown and the
    watch goes on: the designer is in the middle of an edit.

    Raises:
        TowerpressError: the folders cannot be watched.
    """
    root = request.content_dir or BUNDLED_CONTENT
    with Watcher([root, TEMPLATES], ignored=request.out_dir) as watcher:
        _shown_errors(lambda: build_once(request, force))
        click.echo(f"watching {root} and {TEMPLATES} (Ctrl-C to stop)", err=True)
        for names in watcher.changes():
            more = f" and {len(names) - 5} more" if len(names) > 5 else ""
            click.echo(f"changed: {', '.join(names[:5])}{more}", err=True)
            _shown_errors(lambda: build_once(request, unchanged_rows=False))


def _shown_errors(build: Callable[[], None]) -> None:
    try:
        build()
    except TowerpressError as exc:  # the content's problems too, each on its line
        exc.show()
