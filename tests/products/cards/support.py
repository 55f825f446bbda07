"""Helpers of the card tests: printing decks, and finding the cards on a sheet."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from generator.products.cards.printing import CardOptions, DeckPrint, select_decks, write_cards
from generator.rulesets import load_content

MM = 72 / 25.4
TOL = 0.1  # mm


def white_rects(page: Any) -> list[tuple[float, float, float, float]]:
    """The cards' bleed boxes (white fills), in mm from the top left, sorted."""
    found = []
    for r in page.rects:
        if r.get("non_stroking_color") in ((1.0, 1.0, 1.0), (1, 1, 1), [1, 1, 1]) and r["fill"]:
            w, h = (r["x1"] - r["x0"]) / MM, (r["bottom"] - r["top"]) / MM
            if w > 20 and h > 20 and w < page.width / MM - 1:
                found.append((r["x0"] / MM, r["top"] / MM, w, h))
    return sorted(set((round(a, 3), round(b, 3), round(c, 3), round(d, 3)) for a, b, c, d in found),
                  key=lambda t: (t[1], t[0]))


def render(ruleset_id: str, out: Path, decks: list[DeckPrint] | None = None,
           workers: int | None = None, **options: Any) -> Path:
    """The decks (every deck of the ruleset by default) printed with ``options`` (those of
    :class:`CardOptions`) by ``workers`` processes (one per CPU by default)."""
    content = load_content()
    ruleset = content.ruleset(ruleset_id)
    decks = decks if decks is not None else select_decks(ruleset, None, ruleset.profile())
    printed = write_cards(ruleset, decks, CardOptions(**options), out, workers=workers)
    assert printed.warnings == ()  # from every process that laid out a piece
    return out
