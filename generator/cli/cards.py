"""``towerpress cards RULESET`` and ``towerpress cards calibrate``."""

from __future__ import annotations

from pathlib import Path

import click
from click.core import ParameterSource

from generator.cli.click_internals import set_protected_args
from generator.cli.options import content_option, load
from generator.cli.progress import progress
from generator.errors import TowerpressError
from generator.model.paper import CARD_PAPERS
from generator.products.cards.calibration import write_calibration
from generator.products.cards.imposition import DUPLEX, ImpositionError, card_size, parse_offset
from generator.products.cards.png import write_tts_sheets
from generator.products.cards.printing import CardOptions, DeckPrint
from generator.products.cards.product import CARDS, CardsOptions, StartingDeck, default_output
from generator.render.output import refuse_inputs

_PAPER = click.Choice(list(CARD_PAPERS))


def _mm(value: float, name: str) -> float:
    if not 0 <= value <= 20:
        raise TowerpressError(f"{name} must be between 0 and 20 mm, got {value:g}")
    return value


class CardsGroup(click.Group):
    """``cards calibrate`` runs the subcommand; ``cards RULESET ...`` the group itself."""

    allow_interspersed_args = True

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args and args[0] in self.commands:
            click.Command.parse_args(self, ctx, [])  # the group's own options keep defaults
            set_protected_args(ctx, args[:1])
            ctx.args = args[1:]
            return ctx.args
        click.Command.parse_args(self, ctx, args)
        if ctx.args:
            raise click.UsageError(f"unexpected extra argument {ctx.args[0]!r}", ctx)
        set_protected_args(ctx, [])
        return []


class _RulesetArgument(click.Argument):
    """RULESET is the group's own argument: it has no place in ``cards calibrate``'s usage."""

    def get_usage_pieces(self, ctx: click.Context) -> list[str]:
        return super().get_usage_pieces(ctx) if isinstance(ctx.command, CardsGroup) else []


@click.group(
    "cards", cls=CardsGroup, invoke_without_command=True,
    subcommand_metavar="| calibrate [OPTIONS]",
)
@click.argument("ruleset_id", metavar="RULESET", required=False, cls=_RulesetArgument)
@click.option("--deck", "deck_id", default=None, help="One deck (default: every deck).")
@click.option("--size", "size_text", default="poker", show_default=True,
              help="poker, bridge, mini, tarot or WxHmm (e.g. 63x88mm).")
@click.option("--paper", type=_PAPER, default="a4", show_default=True, help="Paper size.")
@click.option("--bleed", type=float, default=0.0, show_default=True, help="Bleed in mm (e.g. 3).")
@click.option("--gutter", type=float, default=0.0, show_default=True, help="Gap between cards, mm.")
@click.option("--duplex", type=click.Choice(list(DUPLEX)), default="long", show_default=True,
              help="Backs after each sheet, for a long- or short-edge flip; none: no backs.")
@click.option("--back-offset", "offset_text", default="0,0", show_default=True,
              help="X,Y in mm to shift the backs by (measure it with `cards calibrate`).")
@click.option("--fold", is_flag=True, help="Fronts and backs side by side, to fold and glue.")
@click.option("--split-tables", "split", is_flag=True,
              help="Print a reference card too long even at 6 pt as numbered parts.")
@click.option("--build", "build_skills", default=None, metavar='"SKILL,SKILL,SKILL"',
              help="Tower of Choices: one character's starting skill deck.")
@click.option("--ability", default=None, help="With --build: the character's ability.")
@click.option("--challenges", type=click.IntRange(min=0, max=60), default=0, show_default=True,
              help="With --build: challenge cards to add.")
@click.option("--png", "png_dir", type=click.Path(path_type=Path, file_okay=False), default=None,
              metavar="DIR", help="Write Tabletop Simulator sheets (10 x 7 cards) into DIR.")
@click.option("--profile", "profile_id", default=None,
              help="Rules profile (default: the ruleset's).")
@content_option
@click.option("-o", "--output", type=click.Path(path_type=Path, dir_okay=False), default=None,
              help="Output PDF (default: build/RULESET-cards[-DECK]-PAPER-SIZE.pdf).")
@click.pass_context
def cards(
    ctx: click.Context, ruleset_id: str | None, deck_id: str | None, size_text: str, paper: str,
    bleed: float, gutter: float, duplex: str, offset_text: str, fold: bool, split: bool,
    build_skills: str | None, ability: str | None, challenges: int, png_dir: Path | None,
    profile_id: str | None, content_dir: Path | None, output: Path | None,
) -> None:
    """Print card decks with crop marks and backs that line up (or `cards calibrate`)."""
    if ctx.invoked_subcommand is not None:
        return
    if ruleset_id is None:
        raise TowerpressError("missing RULESET (or `calibrate`); see towerpress cards --help")
    if png_dir is not None:
        # Tabletop Simulator sheets are a grid of card faces: no paper, bleed or backs.
        unused = [flag for flag, name in _SHEET_ONLY
                  if ctx.get_parameter_source(name) is ParameterSource.COMMANDLINE]
        if unused:
            verb = "does" if len(unused) == 1 else "do"
            raise TowerpressError(f"--png writes Tabletop Simulator sheets into its folder; "
                                  f"{', '.join(unused)} {verb} not apply to them (leave "
                                  f"{'it' if len(unused) == 1 else 'them'} out)")
    try:
        size = card_size(size_text)
        offset = parse_offset(offset_text)
    except ImpositionError as exc:
        raise TowerpressError(str(exc)) from None
    layout = CardOptions(paper, size, _mm(bleed, "--bleed"), _mm(gutter, "--gutter"),
                         duplex, offset, fold, split)  # type: ignore[arg-type]
    content = load(content_dir)
    ruleset = content.ruleset(ruleset_id)
    if build_skills is None and (ability is not None or challenges):
        raise TowerpressError("--ability and --challenges go with --build")
    start = None if build_skills is None else StartingDeck(build_skills, ability, challenges)
    options = CardsOptions(layout, deck_id, profile_id, start)
    if png_dir is not None:
        decks = CARDS.decks(ruleset, options)
        refuse_inputs(png_dir, content.folders)
        written: list[Path] = []
        # A step a deck: each is laid out and drawn on its own (the PDF's decks are fitted
        # together, in processes that say nothing until all are done, so it has no bar).
        with progress(len(decks), "drawing decks", _deck_id) as step:
            for deck in decks:
                written += write_tts_sheets(ruleset, [deck], layout, png_dir)
                step(deck)
        for path in written:
            click.echo(f"wrote {path}")
        return
    out = output or default_output(ruleset.id, options)
    refuse_inputs(out, content.folders)
    click.echo(CARDS.write(ruleset, options, out))


def _deck_id(deck: DeckPrint) -> str:
    return deck.id


# The options of a printed sheet, which --png has no use for: (flag, parameter name).
_SHEET_ONLY = (("--paper", "paper"), ("--bleed", "bleed"), ("--gutter", "gutter"),
               ("--duplex", "duplex"), ("--back-offset", "offset_text"), ("--fold", "fold"),
               ("-o/--output", "output"))


@cards.command("calibrate")
@click.option("--paper", type=_PAPER, default="a4", show_default=True, help="Paper size.")
@click.option("--duplex", type=click.Choice(["long", "short"]), default="long", show_default=True,
              help="How your printer turns the sheet.")
@click.option("-o", "--output", type=click.Path(path_type=Path, dir_okay=False), default=None,
              help="Output PDF (default: build/cards-calibration-PAPER.pdf).")
def calibrate(paper: str, duplex: str, output: Path | None) -> None:
    """A two-sided sheet to measure the --back-offset your printer needs."""
    out = output or Path("build") / f"cards-calibration-{paper}.pdf"
    refuse_inputs(out)  # the templates and the program; it reads no content
    write_calibration(paper, duplex, out)
    click.echo(f"wrote {out}: print it two-sided, hold it to the light and read the "
               "scales where the lines meet; pass them as --back-offset X,Y")
