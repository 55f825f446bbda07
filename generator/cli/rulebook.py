"""``towerpress rulebook``: one ruleset's rulebook, as PDF or as the HTML behind it."""

from __future__ import annotations

from pathlib import Path

import click

from generator.cli.options import PAPER, content_option, load
from generator.products.rulebook.product import RULEBOOK, RulebookOptions, default_output
from generator.render.output import refuse_inputs


@click.command()
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
    options = RulebookOptions(paper, profile_id, print_marks, fmt)  # type: ignore[arg-type]
    content = load(content_dir)
    ruleset = content.ruleset(ruleset_id)
    ruleset.profile(profile_id)  # an unknown profile fails before any work
    out = output or default_output(ruleset.id, options)
    refuse_inputs(out, content.folders)
    click.echo(RULEBOOK.write(ruleset, options, out))
