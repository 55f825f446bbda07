"""Benchmark: how many cards per second the fitter checks (and shrinks) for a 200-card deck.

Run: ``.venv/bin/python -m bench.cards``.  The deck is every card of every bundled ruleset,
each made distinct (a numbered title) until there are 200, so nothing is measured twice.
"""

from __future__ import annotations

import dataclasses
import time

from generator.model.decks import Card
from generator.model.loader import load_content
from generator.render.card_fit import base_size, fit
from generator.render.cards import face_box
from generator.render.imposition import card_size

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
    """Print cards per second: fitting alone, and a whole 200-card PDF (fitting included)."""
    from generator.render.cards import CardOptions, DeckPrint, render_cards
    from generator.render.pdf import pdf_bytes

    content = load_content()
    ruleset = content.ruleset("three-dice-dungeon")
    cards = deck()
    size = card_size("poker")
    base = base_size(size.width)
    fit(cards[:5], face_box(size), base, ruleset.root)  # warm up fonts and caches
    start = time.perf_counter()
    sizes = fit(cards, face_box(size), base, ruleset.root)
    elapsed = time.perf_counter() - start
    shrunk = sum(1 for s in sizes.values() if s < base)
    print(f"fit alone: {len(cards)} cards in {elapsed:.2f} s: {len(cards) / elapsed:.0f} cards/s "
          f"({shrunk} shrunk)")
    printed = DeckPrint("bench", "Bench", "Bench", 1, tuple(cards))
    start = time.perf_counter()
    data = pdf_bytes(render_cards(ruleset, [printed], CardOptions()))
    elapsed = time.perf_counter() - start
    print(f"whole PDF (layout, fitting, re-layout of shrunk sheets, PDF): {len(cards)} cards "
          f"in {elapsed:.2f} s: {len(cards) / elapsed:.0f} cards/s ({len(data) // 1024} KiB)")


if __name__ == "__main__":
    run()
