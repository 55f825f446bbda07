"""Where card decks get their cards: entities of the model, as named fields of text.

A *source* is a list of entities (a monster, a skill, an item) whose fields are printed
text built by the model itself.  Every printable table of a ruleset is a source: one
entity per row, named by its first column (the second when the first is a die roll), its
other columns being the fields.  A family may add sources of its own where a card needs
more than a table row (its family's ``deck_sources`` hook): 3 Dice Dungeon's ``monsters``
(the manual and the undead, as the profile reads them) and Tower of Choices' ``challenge``
card.  A user's ruleset gets the
table sources for free, so its decks need no code.

Names and field labels do not depend on the profile (decks are validated once, at load);
only the text of the fields may.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from generator.model.common import Profile
from generator.model.views import TableView


@dataclass(frozen=True)
class Entity:
    """One thing a card can show: its name and its fields, as (label, text) pairs."""

    name: str
    fields: tuple[tuple[str, str], ...]
    roll: str = ""  # the die faces that give it ("1-3"), for rows of a dice table

    def field(self, label: str) -> str:
        return next((text for key, text in self.fields if key == label), "")


@dataclass(frozen=True)
class Source:
    """A named list of entities; ``entities`` builds their text for a profile."""

    name: str
    title: str
    labels: tuple[str, ...]  # every field label an entity may have
    names: tuple[str, ...]
    entities: Callable[[Profile | None], tuple[Entity, ...]]


def _name_column(table: TableView) -> int:
    return 1 if table.roll_column and len(table.columns) > 1 else 0


def table_entities(table: TableView) -> tuple[Entity, ...]:
    """One entity per row: named by the name column, the other cells as fields."""
    at = _name_column(table)
    skip = {at, 0} if at else {at}
    return tuple(
        Entity(
            row[at],
            tuple((table.columns[i], cell) for i, cell in enumerate(row) if i not in skip and cell),
            row[0] if at else "",
        )
        for row in table.rows
    )


def _table_source(table: TableView) -> Source:
    at = _name_column(table)
    found = table_entities(table)
    return Source(
        name=table.name,
        title=table.title,
        labels=tuple(c for i, c in enumerate(table.columns) if i > at),
        names=tuple(e.name for e in found),
        entities=lambda profile: found,
    )


def table_sources(tables: Mapping[str, TableView]) -> dict[str, Source]:
    """One source per printable table: one entity per row."""
    return {name: _table_source(table) for name, table in tables.items()}
