"""A reference card too long for its size, cut into cards that follow one another
(``towerpress cards --split-tables``).

A mini card cannot hold some tables of The Inverted Tower's whole, even at the smallest
text a card is set in; each still fits on two or three mini cards.  The rows stay in order
and each part gets about an equal share of the text (a table's title, heads and note
counted with its first and last rows).  Each part repeats the title and column heads of
the tables it continues, and a table's note goes with its last rows.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from itertools import accumulate, pairwise

from generator.model.decks import Card
from generator.model.views import TableView

ROW_SPACE = 12  # a row's padding and rule, in characters of text (a rough width)
TITLE_LINES = 2  # a table's title above it, with its margins, in lines of the table's text
#: How many lines a table's head and each of its rows take, at the widths every part sets
#: (generator.products.cards.columns.row_lines), or None when they cannot be told.
Lines = Callable[[TableView], tuple[int, tuple[int, ...]] | None]


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


def measured_rows(card: Card, lines: Lines,
                  line_chars: int) -> tuple[list[tuple[int, int]], list[int]] | None:
    """Each of ``card``'s table rows as (its table, the lines it takes at the parts' widths,
    its tallest cell's; a table's last row with its note, at about ``line_chars``
    characters a line), and each table's title and head in lines: every part that holds
    rows of a table repeats them.  None when a table's lines cannot be told."""
    rows: list[tuple[int, int]] = []
    heads: list[int] = []
    for t, table in enumerate(card.tables):
        found = lines(table)
        if found is None:
            return None
        head, counts = found
        heads.append(head + TITLE_LINES)
        rows.extend((t, n) for n in counts)
        if counts and table.note:
            rows[-1] = (t, rows[-1][1] + -(-len(table.note) // max(1, line_chars)))
    return rows, heads


def _balanced_cuts(rows: list[tuple[int, int]], heads: list[int], parts: int) -> list[int]:
    """Where to cut ``rows`` into ``parts`` runs whose tallest is as short as can be, each
    run counting the title and head of every table it holds rows of (a dynamic program
    over the cuts): the index each run after the first starts at."""
    n = len(rows)

    def cost(i: int, j: int) -> int:  # rows i to j - 1 on one card
        tables = {t for t, _ in rows[i:j]}
        return sum(lines for _, lines in rows[i:j]) + sum(heads[t] for t in tables)

    # best[k][j]: for rows 0..j-1 in k runs, the least tallest run, then the least sum of
    # the runs' squares (of two ways as tall, the more even), and the last cut.
    best: list[dict[int, tuple[int, int, int]]] = [{0: (0, 0, 0)}]
    for k in range(1, parts + 1):
        layer: dict[int, tuple[int, int, int]] = {}
        for j in range(k, n - (parts - k) + 1):
            layer[j] = min((max(best[k - 1][i][0], cost(i, j)),
                            best[k - 1][i][1] + cost(i, j) ** 2, i)
                           for i in best[k - 1] if i < j)
        best.append(layer)
    cuts, j = [], n
    for k in range(parts, 1, -1):
        j = best[k][j][2]
        cuts.append(j)
    return cuts[::-1]


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


def split_tables(card: Card, parts: int, lines: Lines | None = None,
                 line_chars: int = 40) -> tuple[Card, ...]:
    """``card``'s table rows shared out over ``parts`` cards, in order: by the lines each
    row takes (``lines``), or else by its characters.  Every part keeps the tables whole
    too (``Card.whole``), to set its columns as wide as theirs.

    Raises:
        ValueError: ``card`` has fewer rows than ``parts``, or ``parts`` is under 2.
    """
    rows = [(t, r) for t, table in enumerate(card.tables) for r in range(len(table.rows))]
    if not 2 <= parts <= len(rows):
        raise ValueError(f"{card.key!r}: cannot split {len(rows)} rows into {parts} cards")
    measured = measured_rows(card, lines, line_chars) if lines is not None else None
    cuts = _balanced_cuts(*measured, parts) if measured else _cuts(weights(card), parts)
    bounds = [0, *cuts, len(rows)]
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
                           part=part, parts=parts, whole=card.tables))
    return tuple(out)
