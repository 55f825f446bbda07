"""The ``towerpress`` command line: thin commands that parse, call one function, report."""

from __future__ import annotations

import os
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from generator import __version__
from generator.errors import ContentError, TowerpressError
from generator.model.loader import Content, load_content

F = TypeVar("F", bound=Callable[..., Any])

REPORT_URL = "the TowerPress issue tracker"


def content_option(func: F) -> F:
    """``--content DIR``: load a content tree other than the bundled one."""
    option = click.option(
        "--content",
        "content_dir",
        type=click.Path(path_type=Path, file_okay=False),
        default=None,
        metavar="DIR",
        help="Content folder (a folder of rulesets, or one ruleset) instead of the bundled one.",
    )
    return option(func)


def _load(content_dir: Path | None) -> Content:
    return load_content(content_dir)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="towerpress", message="%(prog)s %(version)s")
def cli() -> None:
    """Print rulebooks, cards, sheets and seeded solo dungeon booklets."""


@cli.command("list")
@content_option
def list_command(content_dir: Path | None) -> None:
    """List the rulesets with their titles and profiles."""
    content = _load(content_dir)
    for ruleset in content.rulesets.values():
        click.echo(f"{ruleset.id}: {ruleset.title}")
        for profile in ruleset.profiles.values():
            default = " (default)" if profile.id == ruleset.info.default_profile else ""
            click.echo(f"  profile {profile.id}{default}: {profile.title}")


@cli.command()
@content_option
def validate(content_dir: Path | None) -> None:
    """Check the content: types, keys, dice coverage, references, profiles."""
    content = _load(content_dir)
    for ruleset in content.rulesets.values():
        click.echo(
            f"{ruleset.id}: ok ({len(ruleset.tables())} tables, {len(ruleset.rulings)} rulings, "
            f"{len(ruleset.profiles)} profiles, {len(ruleset.chapters)} chapters)"
        )


PAPER = click.Choice(["a4", "letter", "a5"])


@cli.command()
@click.argument("ruleset_id", metavar="RULESET")
@click.option("--paper", type=PAPER, default="a4", show_default=True, help="Paper size.")
@click.option("--profile", "profile_id", default=None, help="Rules profile (default: the ruleset's).")
@click.option("--print-marks", is_flag=True, help="Add 3 mm bleed and crop marks.")
@click.option(
    "--format", "fmt", type=click.Choice(["pdf", "html"]), default="pdf", show_default=True,
    help="pdf, or the HTML that goes into WeasyPrint (for a browser preview).",
)
@content_option
@click.option("-o", "--output", type=click.Path(path_type=Path, dir_okay=False), default=None,
              help="Output file (default: build/RULESET-rulebook-PAPER.pdf).")
def rulebook(
    ruleset_id: str, paper: str, profile_id: str | None, print_marks: bool, fmt: str,
    content_dir: Path | None, output: Path | None,
) -> None:
    """Print a rulebook: cover, contents, chapters, tables, rulings, quick reference."""
    from generator.render.products import write_rulebook
    from generator.render.rulebook import default_output

    ruleset = _load(content_dir).ruleset(ruleset_id)
    ruleset.profile(profile_id)  # an unknown profile fails before any work
    out = output or default_output(ruleset.id, paper, fmt)
    pages = write_rulebook(
        ruleset, out, paper=paper, profile_id=profile_id, print_marks=print_marks, fmt=fmt
    )
    click.echo(f"wrote {out}" + (f" ({pages} pages)" if pages else ""))


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
def build(content_dir: Path | None, out_dir: Path) -> None:
    """Validate the content and render every product into the build folder."""
    from generator.build import build_all

    content = _load(content_dir)
    for line in build_all(content, out_dir):
        click.echo(line)


def main(argv: list[str] | None = None) -> None:
    """Entry point: user errors exit 2 with one line per problem; bugs say how to report."""
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
    except click.ClickException as exc:
        # Usage errors (bad option, unknown command) exit 2 with click's own message.
        exc.show()
        sys.exit(exc.exit_code)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except KeyboardInterrupt:
        sys.exit(130)
    except Exception as exc:  # an internal failure: say so, and how to report it
        if os.environ.get("TOWERPRESS_DEBUG"):
            traceback.print_exc()
        click.echo(
            f"towerpress: internal error: {type(exc).__name__}: {exc}. This is a bug; please "
            f"report it to {REPORT_URL} with the command you ran "
            "(set TOWERPRESS_DEBUG=1 for the traceback).",
            err=True,
        )
        sys.exit(1)
    sys.exit(0)
