"""Where card decks get their cards: entities of the model, as named fields of text.

A *source* is a list of entities (a monster, a skill, an item) whose fields are printed
text built by the model itself.  Every printable table of a ruleset is a source: one
entity per row, named by its first column (the second when the first is a die roll), its
other columns being the fields.  A family may add sources of its own where a card needs
more than a table row: 3 Dice Dungeon's ``monsters`` (the manual and the undead, as the
profile reads them) and Tower of Choices' ``challenge`` card.  A user's ruleset gets the
table sources for free, so its decks need no code.

Names and field labels do not depend on the profile (decks are validated once, at load);
only the text of the fields may.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

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


def _die_times(pips: int) -> str:
    """DD-28 Alt: a monster stat that is the monster die's value, ``pips`` times over."""
    if pips == 1:
        return "die"
    return f"{pips}\u00d7die" if pips else "0"


def _three_dice_monsters(data: Any, tables: Mapping[str, TableView]) -> Source:
    """The monster manual and the undead (with the stats they borrow, DD-09).

    Under the Alt reading of DD-28 (the d6 scale) the stats are those of the scale.
    """
    manual = {e.name: e for e in table_entities(tables["monster-manual"])}
    undead = tables["undead-monsters"]
    borrows_label = undead.columns[1]
    scale = {e.name: e for e in table_entities(tables["d6-scale"])}
    scale_column = tables["d6-scale"].columns[-1]

    def build(profile: Profile | None) -> tuple[Entity, ...]:
        rows = list(manual.values())
        for name, base in data.undead_borrows.items():
            fields = ((borrows_label, base), *manual[base].fields)
            rows.append(Entity(name, fields))
        if profile is None or not profile.alt("DD-28"):
            return tuple(rows)
        # A stat box holds a number or a short word: "die" for the table's "the monster die".
        hp = _die_times(data.d6_scale.hp_per_pip)
        armour = _die_times(data.d6_scale.armor_per_pip)
        damage = scale["Damage of monster hits"].field(scale_column)
        abilities = scale["Monster abilities"].field(scale_column)
        swap = {"HP": hp, "Str/dmg": damage, "Dex/armour": armour}
        out = []
        for entity in rows:
            fields = tuple(
                (label, swap.get(label, f"{text} ({abilities})" if label == "Ability" else text))
                for label, text in entity.fields
                if label != "Mind" or data.d6_scale.monster_abilities
            )
            out.append(Entity(entity.name, fields))
        return tuple(out)

    first = build(None)
    labels = tuple(dict.fromkeys(label for e in first for label, _ in e.fields))
    return Source("monsters", "Monsters", labels, tuple(e.name for e in first), build)


def _challenge(data: Any, tables: Mapping[str, TableView]) -> Source:
    """The CHALLENGE card: the rules of the check-rules table that speak of it."""
    label = data.checks.challenge_label
    rules = table_entities(tables["check-rules"])
    column = tables["check-rules"].columns[-1]
    wanted = [e for e in rules if label in e.name or label in e.field(column)]
    entity = Entity(label, tuple((e.name, e.field(column)) for e in wanted))
    labels = tuple(name for name, _ in entity.fields)
    return Source("challenge", label, labels, (label,), lambda profile: (entity,))


def sources(data: Any) -> dict[str, Source]:
    """Every source of a ruleset's data, by name: its tables, then its family's own."""
    tables: Mapping[str, TableView] = data.tables()
    found = {name: _table_source(table) for name, table in tables.items()}
    # Imported here: the family modules import the loader, which imports this package.
    from generator.rulesets.three_dice_dungeon.data import ThreeDiceDungeon
    from generator.rulesets.tower_of_choices.read import TowerOfChoices

    if isinstance(data, ThreeDiceDungeon):
        found["monsters"] = _three_dice_monsters(data, tables)
    if isinstance(data, TowerOfChoices):
        found["challenge"] = _challenge(data, tables)
    return found
