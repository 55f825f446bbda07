"""The Inverted Tower (Draft 3): load and validate ``content/inverted-tower/tables``.

One file per concern; every number lives in the data once, and the engine picks the values a
ruling decides by profile (:class:`~generator.rulesets.inverted_tower.entities.Varies`). The readers
are in :mod:`generator.rulesets.inverted_tower.read`, the printable tables in
:mod:`generator.rulesets.inverted_tower.views`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from generator.model.schema import Node
from generator.model.table_files import TableFiles
from generator.rulesets.inverted_tower.entities import (
    Bosses,
    Character,
    Combat,
    EffectKind,
    Encounters,
    Events,
    Floor,
    Item,
    Leveling,
    Merchant,
    Monster,
    Rolls,
    Traps,
    Treasure,
)
from generator.rulesets.inverted_tower.read import (
    check_split_rows,
    load_bosses,
    load_character,
    load_combat,
    load_encounters,
    load_events,
    load_floor,
    load_items,
    load_leveling,
    load_merchant,
    load_monsters,
    load_rolls,
    load_traps,
    load_treasure,
    ref,
)


@dataclass(frozen=True)
class InvertedTower:
    """All the data of the ruleset, as the engine and the rulebook read it."""

    rolls: Rolls
    character: Character
    items: tuple[Item, ...]
    events: Events
    traps: Traps
    encounters: Encounters
    monsters: tuple[Monster, ...]
    combat: Combat
    bosses: Bosses
    treasure: Treasure
    floor: Floor
    merchant: Merchant
    leveling: Leveling

    def item(self, item_id: str) -> Item:
        """Raises KeyError for an unknown id (the loader validates every reference)."""
        for item in self.items:
            if item.id == item_id:
                return item
        raise KeyError(item_id)

    @property
    def currency(self) -> Item:
        """The one item that is money (the loader checks there is exactly one)."""
        return next(i for i in self.items if i.effect.kind is EffectKind.CURRENCY)

    def monster(self, monster_id: str) -> Monster:
        """Raises KeyError for an unknown id (the loader validates every reference)."""
        for monster in self.monsters:
            if monster.id == monster_id:
                return monster
        raise KeyError(monster_id)



# -- the whole ruleset --------------------------------------------------------------------------


def load(files: TableFiles) -> InvertedTower:
    """Read every tables file, then check every reference between them."""
    rolls = load_rolls(files.file("rolls"))
    faces = rolls.faces
    nodes = {stem: files.file(stem) for stem in (
        "character", "items", "events", "traps", "encounters", "monsters", "combat",
        "bosses", "treasure", "floor", "merchant", "leveling",
    )}
    data = InvertedTower(
        rolls=rolls,
        character=load_character(nodes["character"]),
        items=load_items(nodes["items"]),
        events=load_events(nodes["events"], faces),
        traps=load_traps(nodes["traps"], faces),
        encounters=load_encounters(nodes["encounters"], faces),
        monsters=load_monsters(nodes["monsters"]),
        combat=load_combat(nodes["combat"]),
        bosses=load_bosses(nodes["bosses"]),
        treasure=load_treasure(nodes["treasure"], faces),
        floor=load_floor(nodes["floor"]),
        merchant=load_merchant(nodes["merchant"]),
        leveling=load_leveling(nodes["leveling"]),
    )
    _check_references(data, nodes)
    return data


def _check_references(data: InvertedTower, n: Mapping[str, Node]) -> None:
    checks = [c.code for c in data.rolls.checks]
    lookup, split = [data.rolls.lookup.code], [data.rolls.split.code]
    items = [i.id for i in data.items]
    goods = [i.id for i in data.items if i.effect.kind is not EffectKind.CURRENCY]
    monsters = [m.id for m in data.monsters]
    attributes = [a.code for a in data.character.attributes]

    roll_refs: list[tuple[str, str, str, list[str], str]] = [
        ("events", "room_check", data.events.room_check, checks, "check"),
        ("events", "roll", data.events.roll, lookup, "table roll"),
        ("traps", "roll", data.traps.roll, split, "split roll"),
        ("traps", "check", data.traps.check, checks, "check"),
        ("encounters", "elite_check.faithful", data.encounters.elite_check.faithful, checks,
         "check"),
        ("encounters", "elite_check.alt", data.encounters.elite_check.alt, checks, "check"),
        ("encounters", "count.roll", data.encounters.count_roll, split, "split roll"),
        ("combat", "check", data.combat.check, checks, "check"),
        ("bosses", "minions.check", data.bosses.minion_check, checks, "check"),
        ("bosses", "monster", data.bosses.monster, monsters, "monster"),
        ("bosses", "minion", data.bosses.minion, monsters, "monster"),
        ("treasure", "roll", data.treasure.roll, lookup, "table roll"),
        ("floor", "dead_end.check", data.floor.dead_end_check, checks, "check"),
        ("floor", "wandering.check", data.floor.wandering_check, checks, "check"),
    ]
    for stem, key, value, known, what in roll_refs:
        ref(n[stem], key, value, known, what)

    for key, stacks in (("kit", data.character.kit), ("loot", data.bosses.loot)):
        node = n["character"] if key == "kit" else n["bosses"]
        for i, stack in enumerate(stacks):
            ref(node, f"{key}[{i}].item", stack.item, items, "item")
    for i, row in enumerate(data.treasure.table.rows):
        ref(n["treasure"], f"rows[{i}].item", row.value.item, items, "item")
    for i, offer in enumerate(data.merchant.stock):
        ref(n["merchant"], f"stock[{i}].item", offer.item, goods, "item for sale")
    for i, trap_row in enumerate(data.traps.table.rows):
        ref(n["traps"], f"rows[{i}].attribute", trap_row.value.attribute, attributes, "attribute")

    check_split_rows(n["traps"], "rows", data.traps.table, data.rolls.split)
    check_split_rows(n["encounters"], "count.rows", data.encounters.count, data.rolls.split)


# The rulings that the engine and the views read by ID (a test checks this list
# against the code).
