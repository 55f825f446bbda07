"""``towerpress sheet`` and ``towerpress log``: character sheets and logs, fillable on screen."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from generator.cli.options import content_option, load
from generator.errors import TowerpressError
from generator.products.sheets.product import SHEETS, SheetOptions, default_output
from generator.products.sheets.render import MAX_FLOORS, sheet_def, sheet_paper
from generator.render.output import refuse_inputs

FC = TypeVar("FC", bound=Callable[..., Any])

# Paper and floors are checked here rather than by click, so that a bad value is one line
# on stderr (exit 2) like every other user mistake.
PAPER_HELP = "Paper size: a4, letter or a5."


def _paper_option(func: FC) -> FC:
    option = click.option("--paper", default="a4", show_default=True, metavar="a4|letter|a5",
                          help=PAPER_HELP)
    return option(func)


def parse_floors(value: str | None) -> int | None:
    """``--floors``: a whole number from 1 to MAX_FLOORS, or None for the log's default."""
    if value is None:
        return None
    text = value.strip()
    # isdecimal, not isdigit: int() cannot read a superscript such as "¹".
    # At most 9 digits: int() refuses a number of thousands (and 9 is past any bound).
    if not text.isdecimal() or len(text) > 9 or not 1 <= int(text) <= MAX_FLOORS:
        raise TowerpressError(
            f"--floors expects a whole number from 1 to {MAX_FLOORS}, got {value!r}"
        )
    return int(text)


def _output_option(kind: str) -> Callable[[FC], FC]:
    return click.option(
        "-o",
        "--output",
        type=click.Path(path_type=Path, dir_okay=False),
        default=None,
        help=f"Output file (default: build/RULESET-{kind}-PAPER.pdf).",
    )


def _write(ruleset_id: str, options: SheetOptions, content_dir: Path | None,
           output: Path | None) -> None:
    sheet_paper(options.paper)  # an unknown paper fails before the content is read
    content = load(content_dir)
    ruleset = content.ruleset(ruleset_id)
    sheet_def(ruleset, options.kind)  # a ruleset without this sheet fails before any work
    out = output or default_output(ruleset.id, options)
    refuse_inputs(out, content.folders)
    click.echo(SHEETS.write(ruleset, options, out))


@click.command()
@click.argument("ruleset_id", metavar="RULESET")
@_paper_option
@content_option
@_output_option("sheet")
def sheet(ruleset_id: str, paper: str, content_dir: Path | None, output: Path | None) -> None:
    """Print a character sheet, with form fields to fill on screen."""
    _write(ruleset_id, SheetOptions("sheet", paper), content_dir, output)


@click.command()
@click.argument("ruleset_id", metavar="RULESET")
@_paper_option
@click.option(
    "--floors",
    default=None,
    metavar="N",
    help="Floors (dungeon levels, trial pages) to print, 1-99 (default: the log's own).",
)
@content_option
@_output_option("log")
def log(
    ruleset_id: str,
    paper: str,
    floors: str | None,
    content_dir: Path | None,
    output: Path | None,
) -> None:
    """Print a log (Dungeon Log, map sheet, trial log), with form fields to fill on screen."""
    _write(ruleset_id, SheetOptions("log", paper, parse_floors(floors)), content_dir, output)
