"""Card decks as a product: options, their files in a build, and the writing."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from generator.engine.family import family_of
from generator.errors import TowerpressError
from generator.model.loader import Content, Ruleset
from generator.model.paper import CARD_PAPERS
from generator.products.base import Job, Product
from generator.products.cards.imposition import card_size
from generator.products.cards.printing import (
    CardOptions,
    DeckPrint,
    deck_print,
    select_decks,
    sheet_summary,
    write_cards,
)
from generator.words import plural


@dataclass(frozen=True)
class StartingDeck:
    """One character's starting deck (``cards --build``), for a family that has them."""

    skills: str  # "Grace,Stealth,Luck"
    ability: str | None = None
    challenges: int = 0  # challenge cards to shuffle in


@dataclass(frozen=True)
class CardsOptions:
    layout: CardOptions = field(default_factory=CardOptions)
    deck: str | None = None  # one deck by id; every deck when None
    profile: str | None = None  # the ruleset's default profile when None
    starting_deck: StartingDeck | None = None  # instead of the decks
    # Processes that fit the cards (None: one per CPU); the bytes do not depend on it.
    workers: int | None = None


class Cards(Product[CardsOptions]):
    """Print-and-play sheets: fronts, the backs behind them, crop marks."""

    name = "cards"

    def plan(self, content: Content, out_dir: Path) -> list[Job[CardsOptions]]:
        """Every deck of every ruleset that has decks, poker size, long-edge duplex; one
        process a product, since the build runs a product per CPU already."""
        poker = card_size("poker")
        return [self.job(ruleset_id, out_dir / f"{ruleset_id}-cards-{paper}-{poker.name}.pdf",
                         CardsOptions(CardOptions(paper=paper, size=poker), workers=1))
                for ruleset_id, ruleset in content.rulesets.items() if ruleset.decks
                for paper in CARD_PAPERS]

    def decks(self, ruleset: Ruleset, options: CardsOptions) -> list[DeckPrint]:
        """The decks the options choose, printed for their profile.

        Raises:
            TowerpressError: an unknown deck or profile; a starting deck the family cannot
                make, or asked for together with a deck.
        """
        profile = ruleset.profile(options.profile)
        start = options.starting_deck
        family = family_of(ruleset)
        if start is None:
            # Ready to play: as many of each card as a game can need (the family says).
            return select_decks(ruleset, options.deck, profile,
                                lambda deck: family.ready_cards(ruleset, deck, profile))
        if options.deck is not None:
            raise TowerpressError("--build prints one character's deck; leave out --deck")
        deck, cards = family.starting_deck(
            ruleset, start.skills, start.ability, start.challenges, profile)
        return [deck_print(ruleset, deck, cards, id="starting-deck")]

    def write(self, ruleset: Ruleset, options: CardsOptions, out: Path) -> str:
        printed = write_cards(ruleset, self.decks(ruleset, options), options.layout, out,
                              workers=options.workers)
        return (f"wrote {out} ({printed.count} cards, {plural(printed.pages, 'page')}, "
                f"{sheet_summary(printed.layout)})")


def default_output(ruleset_id: str, options: CardsOptions) -> Path:
    name = "starting-deck" if options.starting_deck else options.deck
    part = f"-{name}" if name else ""
    layout = options.layout
    return Path("build") / f"{ruleset_id}-cards{part}-{layout.paper}-{layout.size.name}.pdf"


CARDS = Cards()
