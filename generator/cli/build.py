"""``towerpress build``: every product whose inputs changed, into the build folder."""

from __future__ import annotations

from pathlib import Path

import click

from generator.cli.options import content_option, load
from generator.pipeline import build_all
from generator.render.output import refuse_inputs


@click.command()
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
    content = load(content_dir)
    refuse_inputs(out_dir, content.folders)
    for line in build_all(content, out_dir, force=force):
        click.echo(line)
