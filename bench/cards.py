"""Benchmark: cards per second for a 200-card deck, fitting included.

Run: ``.venv/bin/python -m bench cards``.  Three decks, printed poker size on A4 with
long-edge duplex backs, like the build:

- play cards: every monster, item, stone, artifact, class, skill, challenge and ability card
  of the bundled rulesets (every card but the quick-reference tables), each made distinct (a
  numbered title) until there are 200, so no layout is reused; one in eight carries its text
  four times over, so that some must be shrunk;
- the worst case: the same with the quick-reference cards among them, in the share they
  have in the rulesets (14 of 102); each costs WeasyPrint about four play cards;
- a deck as printed for play: Tower of Choices' cards, five copies of each, cut at 200.

Then the play cards again with 0 to 26 of them swapped for quick-reference cards, to show
how many of those a 200-card deck can hold at 50 cards/s.
"""

from __future__ import annotations

import dataclasses
import time

from generator.model.decks import Card
from generator.render.parallel import available_cpus
from generator.rulesets import load_content

DECK_SIZE = 200


def every_card() -> list[Card]:
    """Each distinct card of every deck of every bundled ruleset."""
    content = load_content()
    found: list[Card] = []
    for ruleset in content.rulesets.values():
        for d in ruleset.decks.values():
            found.extend(dict.fromkeys(ruleset.cards(d, ruleset.profile())))
    return found


def distinct(found: list[Card]) -> list[Card]:
    """``found`` over and over, each copy made distinct by its title, until DECK_SIZE."""
    cards: list[Card] = []
    n = 0
    while len(cards) < DECK_SIZE:
        card = found[n % len(found)]
        copy = n // len(found)
        title = f"{card.title} {copy + 1}" if copy else card.title
        cards.append(dataclasses.replace(card, key=f"{card.key}#{copy}", title=title))
        n += 1
    return cards


LONG_EVERY = 8  # one play card in eight is a long homebrew card, so that fitting has
LONG_TIMES = 4  # cards to shrink: its text stands this many times over


def _long(card: Card) -> Card:
    return dataclasses.replace(card, fields=tuple(
        (label, " ".join([text] * LONG_TIMES)) for label, text in card.fields))


def play_cards() -> list[Card]:
    cards = distinct([card for card in every_card() if not card.tables])
    return [_long(card) if n % LONG_EVERY == 0 else card for n, card in enumerate(cards)]


def mixed() -> list[Card]:
    return distinct(every_card())


REFERENCE_COUNTS = (0, 4, 7, 10, 13, 26)


def with_reference(count: int) -> list[Card]:
    """The play cards, the last ``count`` of them swapped for quick-reference cards (each
    distinct, as in :func:`distinct`)."""
    reference = distinct([card for card in every_card() if card.tables])[:count]
    return play_cards()[:DECK_SIZE - count] + reference


def with_copies() -> list[Card]:
    """Every distinct card of Tower of Choices, as many copies as make 200 cards."""
    ruleset = load_content().ruleset("tower-of-choices")
    found = [c for d in ruleset.decks.values() for c in dict.fromkeys(
        ruleset.cards(d, ruleset.profile()))]
    copies = -(-DECK_SIZE // len(found))
    return [card for card in found for _ in range(copies)][:DECK_SIZE]


def run() -> None:
    """Print cards per second for the whole PDF, on every CPU and on one."""
    from generator.products.cards.printing import CardOptions, DeckPrint, render_cards

    content = load_content()
    decks = {
        "play cards": ("three-dice-dungeon", play_cards()),
        "with reference cards": ("three-dice-dungeon", mixed()),
        "copies": ("tower-of-choices", with_copies()),
    }
    warm = DeckPrint("warm", "Warm", "Warm", 1, tuple(mixed()[:3]))
    render_cards(content.ruleset("inverted-tower"), [warm], CardOptions(), workers=1)
    for name, (ruleset_id, cards) in decks.items():
        printed = DeckPrint("bench", "Bench", "Bench", 1, tuple(cards))
        ruleset = content.ruleset(ruleset_id)
        for workers in sorted({available_cpus(), 1}, reverse=True):
            start = time.perf_counter()
            out = render_cards(ruleset, [printed], CardOptions(), workers=workers)
            elapsed = time.perf_counter() - start
            sizes = out.pieces.sizes.values()
            shrunk = sum(1 for s in sizes if s < max(sizes))
            print(f"{name}, {workers} process(es): {len(cards)} cards "
                  f"({len(sizes)} distinct) in {elapsed:.2f} s: "
                  f"{len(cards) / elapsed:.0f} cards/s ({shrunk} shrunk, "
                  f"{out.pieces.layouts} front layouts, {out.pages} pages, "
                  f"{len(out.pdf) // 1024} KiB)")
    ruleset = content.ruleset("three-dice-dungeon")
    for count in REFERENCE_COUNTS:
        printed = DeckPrint("bench", "Bench", "Bench", 1, tuple(with_reference(count)))
        start = time.perf_counter()
        out = render_cards(ruleset, [printed], CardOptions())
        elapsed = time.perf_counter() - start
        print(f"play cards with {count} quick-reference cards among them, "
              f"{available_cpus()} process(es): {DECK_SIZE / elapsed:.0f} cards/s "
              f"({out.pieces.layouts} front layouts)")


if __name__ == "__main__":
    run()
