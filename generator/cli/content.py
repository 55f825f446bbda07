"""``towerpress list`` and ``towerpress validate``: what a content tree holds, and whether
it is sound."""

from __future__ import annotations

from pathlib import Path

import click

from generator.cli.options import content_option, load


@click.command("list")
@content_option
def list_command(content_dir: Path | None) -> None:
    """List the rulesets with their titles, profiles, card decks and sheets."""
    content = load(content_dir)
    for ruleset in content.rulesets.values():
        click.echo(f"{ruleset.id}: {ruleset.title}")
        for profile in ruleset.profiles.values():
            marks = [what for what, chosen in (("default", ruleset.info.default_profile),
                                               ("booklets", ruleset.info.booklet_profile))
                     if chosen == profile.id]
            shown = f" ({', '.join(marks)})" if marks else ""
            click.echo(f"  profile {profile.id}{shown}: {profile.title}")
        for deck in ruleset.decks.values():
            click.echo(f"  deck {deck.id}: {deck.title}")
        for sheet in ruleset.sheets.values():
            click.echo(f"  {sheet.kind}: {sheet.title} (towerpress {sheet.kind})")


@click.command()
@content_option
def validate(content_dir: Path | None) -> None:
    """Check the content: types, keys, dice coverage, references, profiles, prose."""
    # Here, not at the top: the render's checks import the products, which list has no use for.
    from generator.products.checks import check_renders

    content = load(content_dir)
    check_renders(content)
    for ruleset in content.rulesets.values():
        click.echo(
            f"{ruleset.id}: ok ({len(ruleset.tables())} tables, {len(ruleset.rulings)} rulings, "
            f"{len(ruleset.profiles)} profiles, {len(ruleset.chapters)} chapters)"
        )
