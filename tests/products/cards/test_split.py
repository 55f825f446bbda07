"""A reference card cut into parts (card_split), on every reference card of the content."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest

from generator.model.decks import Card
from generator.model.loader import Content
from generator.products.cards.split import row_weight, rows_of, split_tables, weights


def reference_cards(content: Content) -> Iterator[Card]:
    for ruleset in content.rulesets.values():
        for deck in ruleset.decks.values():
            for card in dict.fromkeys(ruleset.cards(deck, ruleset.profile())):
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
        room = weights(card)
        assert len(room) == rows_of(card) and all(w >= row_weight(()) for w in room)
        for count in range(2, min(len(room), 5) + 1):
            start = 0
            for part in split_tables(card, count):
                end = start + rows_of(part)
                assert sum(room[start:end]) <= sum(room) / count + max(room), (card.key, count)
                start = end
            assert start == len(room)


def test_a_table_without_rows_is_kept_in_its_place(content: Content) -> None:
    card = next(c for c in reference_cards(content) if len(c.tables) >= 2)
    empty = replace(card.tables[0], name="empty", rows=())
    for at in range(len(card.tables) + 1):
        tables = (*card.tables[:at], empty, *card.tables[at:])
        whole = replace(card, tables=tables)
        for count in range(2, rows_of(card) + 1):
            names = [t.name for p in split_tables(whole, count) for t in p.tables]
            assert names.count("empty") == 1
            assert list(dict.fromkeys(names)) == [t.name for t in tables]


def test_a_card_splits_into_two_to_as_many_parts_as_it_has_rows(content: Content) -> None:
    card = next(reference_cards(content))
    assert len(split_tables(card, rows_of(card))) == rows_of(card)
    for count in (1, rows_of(card) + 1):
        with pytest.raises(ValueError, match=f"into {count} cards"):
            split_tables(card, count)
