"""A reference card too long for its size, cut into cards that follow one another
(``towerpress cards --split-tables``).

A mini card cannot hold some tables of The Inverted Tower's whole, even at the smallest
text a card is set in; each still fits on two or three mini cards.  The rows stay in order
and each part gets about an equal share of the text (a table's title, heads and note
counted with its first and last rows).  Each part repeats the title and column heads of
the tables it continues, and a table's note goes with its last rows.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import accumulate, pairwise

from generator.model.decks import Card
from generator.model.views import TableView

ROW_SPACE = 12  # a row's padding and rule, in characters of text (a rough width)


def rows_of(card: Card) -> int:
    """How many table rows ``card`` holds: it splits into at most that many parts."""
    return sum(len(table.rows) for table in card.tables)


def row_weight(row: tuple[str, ...]) -> int:
    """About how much room a table row takes, for sharing rows out evenly."""
    return ROW_SPACE + sum(len(cell) for cell in row)


def weights(card: Card) -> list[int]:
    """The room each of ``card``'s table rows takes, in order; a table's first row carries
    its title and heads, and its last row its note."""
    out: list[int] = []
    for table in card.tables:
        start = len(out)
        out.extend(row_weight(row) for row in table.rows)
        if table.rows:
            out[start] += row_weight((table.title, *table.columns))
            out[-1] += len(table.note)
    return out


def _cuts(weights: list[int], parts: int) -> list[int]:
    """Where to cut ``weights`` into ``parts`` runs of about equal weight: the index each
    run after the first starts at.  Each run keeps at least one item."""
    total = sum(weights)
    ends = list(accumulate(weights))
    cuts: list[int] = []
    for k in range(1, parts):
        target = total * k / parts
        low = (cuts[-1] if cuts else 0) + 1
        high = len(weights) - (parts - k)  # room for one item in each run still to come
        # The run ends after the item whose running total comes nearest the target.
        best = min(range(low, high + 1), key=lambda i: (abs(ends[i - 1] - target), i))
        cuts.append(best)
    return cuts


def split_tables(card: Card, parts: int) -> tuple[Card, ...]:
    """``card``'s table rows shared out over ``parts`` cards, in order.

    Raises:
        ValueError: ``card`` has fewer rows than ``parts``, or ``parts`` is under 2.
    """
    rows = [(t, r) for t, table in enumerate(card.tables) for r in range(len(table.rows))]
    if not 2 <= parts <= len(rows):
        raise ValueError(f"{card.key!r}: cannot split {len(rows)} rows into {parts} cards")
    bounds = [0, *_cuts(weights(card), parts), len(rows)]
    # A table without rows goes with the part that holds the row after it.
    before = [sum(len(t.rows) for t in card.tables[:i]) for i in range(len(card.tables))]
    out: list[Card] = []
    for part, (start, end) in enumerate(pairwise(bounds), start=1):
        tables: list[TableView] = []
        for t, table in enumerate(card.tables):
            kept = [r for tt, r in rows[start:end] if tt == t]
            if not table.rows and (start <= before[t] < end or before[t] == end == len(rows)):
                tables.append(table)
            if not kept:
                continue
            last = kept[-1] == len(table.rows) - 1
            tables.append(replace(table, rows=tuple(table.rows[r] for r in kept),
                                  note=table.note if last else ""))
        out.append(replace(card, key=f"{card.key} ({part} of {parts})", tables=tuple(tables),
                           part=part, parts=parts))
    return tuple(out)
