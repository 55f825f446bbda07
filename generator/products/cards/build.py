"""Cards in ``towerpress build``: every deck of every ruleset, A4 and Letter, poker, duplex."""

from __future__ import annotations

from pathlib import Path

from generator.model.loader import Content, Ruleset
from generator.pipeline import Job
from generator.words import plural

PAPERS = ("a4", "letter")
SIZE = "poker"


def plan(content: Content, out_dir: Path) -> list[Job]:
    return [
        Job(__name__, ruleset_id, out_dir / f"{ruleset_id}-cards-{paper}-{SIZE}.pdf",
            (("paper", paper), ("size", SIZE)))
        for ruleset_id, ruleset in content.rulesets.items()
        if ruleset.decks
        for paper in PAPERS
    ]


def run(ruleset: Ruleset, job: Job) -> str:
    from generator.products.cards.imposition import card_size
    from generator.products.cards.printing import CardOptions, select_decks, write_cards

    opts = CardOptions(paper=job.option("paper"), size=card_size(job.option("size")))
    decks = select_decks(ruleset, None, ruleset.profile())
    # The build already runs a product per CPU: one process per product is enough here.
    printed = write_cards(ruleset, decks, opts, job.out, workers=1)
    return f"wrote {job.out} ({printed.count} cards, {plural(printed.pages, 'page')})"
