"""A reference card cut into parts (card_split), on every reference card of the content."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from generator.model.card_split import row_weight, rows_of, split_tables
from generator.model.decks import Card
from generator.model.loader import Content


def reference_cards(content: Content) -> Iterator[Card]:
    for ruleset in content.rulesets.values():
        for deck in ruleset.decks.values():
            for card in dict.fromkeys(deck.cards(ruleset.data, ruleset.profile())):
                if rows_of(card) >= 2:
                    yield card


def test_every_row_is_on_one_part_in_order(content: Content) -> None:
    checked = 0
    for card in reference_cards(content):
        for count in range(2, min(rows_of(card), 5) + 1):
            parts = split_tables(card, count)
            assert [(p.part, p.parts) for p in parts] == [(i, count) for i in range(1, count + 1)]
            assert len({p.key for p in parts}) == count and card.key not in {p.key for p in parts}
            assert {(p.title, p.deck, p.deck_title) for p in parts} == {
                (card.title, card.deck, card.deck_title)}
            for table in card.tables:
                pieces = [t for p in parts for t in p.tables if t.name == table.name]
                assert [row for t in pieces for row in t.rows] == list(table.rows)
                assert all(t.rows and t.columns == table.columns and t.title == table.title
                           for t in pieces)
                # The note follows the table's last row, and only it.
                assert [t.note for t in pieces] == [""] * (len(pieces) - 1) + [table.note]
            checked += 1
    assert checked >= 20


def test_the_parts_hold_about_equal_shares(content: Content) -> None:
    for card in reference_cards(content):
        rows = [row for table in card.tables for row in table.rows]
        total, heaviest = sum(map(row_weight, rows)), max(map(row_weight, rows))
        for count in range(2, min(len(rows), 5) + 1):
            for part in split_tables(card, count):
                weight = sum(row_weight(row) for table in part.tables for row in table.rows)
                assert weight <= total / count + heaviest, (card.key, count)


def test_a_card_splits_into_two_to_as_many_parts_as_it_has_rows(content: Content) -> None:
    card = next(reference_cards(content))
    assert len(split_tables(card, rows_of(card))) == rows_of(card)
    for count in (1, rows_of(card) + 1):
        with pytest.raises(ValueError, match=f"into {count} cards"):
            split_tables(card, count)
