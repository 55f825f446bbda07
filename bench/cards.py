"""Benchmark: cards per second for a 200-card deck, fitting included.

Run: ``.venv/bin/python -m bench cards``.  The deck is every card of every bundled ruleset,
each made distinct (a numbered title) until there are 200, so no layout is reused: the
worst case.  It is printed poker size on A4 with long-edge duplex backs, like the build.
"""

from __future__ import annotations

import dataclasses
import time

from generator.model.decks import Card
from generator.model.loader import load_content
from generator.render.parallel import available_cpus

DECK_SIZE = 200


def deck() -> list[Card]:
    content = load_content()
    found: list[Card] = []
    for ruleset in content.rulesets.values():
        for d in ruleset.decks.values():
            found.extend(dict.fromkeys(d.cards(ruleset.data, ruleset.profile())))
    cards: list[Card] = []
    n = 0
    while len(cards) < DECK_SIZE:
        card = found[n % len(found)]
        copy = n // len(found)
        title = f"{card.title} {copy + 1}" if copy else card.title
        cards.append(dataclasses.replace(card, key=f"{card.key}#{copy}", title=title))
        n += 1
    return cards


def run() -> None:
    """Print cards per second for the whole PDF, on every CPU and on one."""
    from generator.render.cards import CardOptions, DeckPrint, render_cards

    content = load_content()
    ruleset = content.ruleset("three-dice-dungeon")
    printed = DeckPrint("bench", "Bench", "Bench", 1, tuple(deck()))
    warm = DeckPrint("warm", "Warm", "Warm", 1, printed.cards[:3])
    render_cards(ruleset, [warm], CardOptions(), workers=1)  # fonts and caches
    for workers in sorted({available_cpus(), 1}, reverse=True):
        start = time.perf_counter()
        out = render_cards(ruleset, [printed], CardOptions(), workers=workers)
        elapsed = time.perf_counter() - start
        shrunk = sum(1 for s in out.pieces.sizes.values() if s < max(out.pieces.sizes.values()))
        print(f"cards, {workers} process(es): {len(printed.cards)} cards in {elapsed:.2f} s: "
              f"{len(printed.cards) / elapsed:.0f} cards/s ({shrunk} shrunk, "
              f"{out.pieces.layouts} front layouts, {out.pages} pages, "
              f"{len(out.pdf) // 1024} KiB)")


if __name__ == "__main__":
    run()
