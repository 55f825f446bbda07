"""The content model of 3 Dice Dungeon (modified): every table, number and entity, typed.

``load`` reads ``content/three-dice-dungeon/tables/*.toml`` and checks types, ranges, dice
coverage, unique names, references between entities (level tables -> location kinds,
monsters and items; monster loot -> items; undead monsters -> the manual; roaming
monsters -> the manual) and that every level can be finished (a vault, a great hall and
a map fragment source on each level table, rulings.md section 2.5).  Rulings are cited
as DD-nn; the Alt numbers a profile may select sit beside the faithful ones.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from generator.model.dice import DiceTable, load_dice_table
from generator.model.schema import Node, check_ref, check_unique
from generator.model.table_files import TableFiles
from generator.rulesets.three_dice_dungeon.effects import EffectKind, Item, ItemKind, read_item
from generator.rulesets.three_dice_dungeon.entities import (
    CharacterClass,
    LevelTable,
    LocationKind,
    MindRecovery,
    Monster,
    read_classes,
    read_level_table,
    read_locations,
    read_monsters,
)
from generator.rulesets.three_dice_dungeon.parameters import (
    DIE,
    CharacterRules,
    Combat,
    D6Scale,
    Elite,
    Experience,
    Exploring,
    Multiplayer,
    TrainingWheel,
    read_character,
    read_combat,
    read_d6_scale,
    read_elite,
    read_experience,
    read_exploring,
    read_multiplayer,
    read_training_wheels,
)


@dataclass(frozen=True)
class ChartEntry:
    """A face of the items chart: an item, or a roll on another chart (``chart``)."""

    item: Item | None
    chart: str = ""


@dataclass(frozen=True)
class ThreeDiceDungeon:
    """Everything the rulebook prints and the engine plays for 3 Dice Dungeon (modified)."""

    character: CharacterRules
    sides: tuple[str, ...]
    location_kinds: Mapping[str, LocationKind]
    main_level: LevelTable
    undead_level: LevelTable
    undead_borrows: Mapping[str, str]  # undead monster -> manual monster (DD-09)
    treasures: tuple[Item, ...]
    items: DiceTable[ChartEntry]
    stones: DiceTable[Item]
    artifacts: DiceTable[Item]
    experience: Experience
    class_level: int  # the level at which a class may be taken
    mind_recovery: MindRecovery
    classes: tuple[CharacterClass, ...]
    ability_cost: int  # Mind per monster ability use, unless an ability says otherwise
    monsters: tuple[Monster, ...]
    elite: Elite
    combat: Combat
    exploring: Exploring
    training_wheels: tuple[TrainingWheel, ...]
    multiplayer: Multiplayer
    d6_scale: D6Scale

    def monster(self, name: str) -> Monster:
        """A manual monster, or an undead one with the stats it borrows (DD-09).

        Raises:
            KeyError: no monster of that name.
        """
        base = self.undead_borrows.get(name, name)
        for monster in self.monsters:
            if monster.name == base:
                if base == name:
                    return monster
                return dataclasses.replace(monster, name=name, seed_name="", swappable=True)
        raise KeyError(name)

    def all_items(self) -> dict[str, Item]:
        """Every item by name: treasures, chart items, stones and artifacts."""
        found = list(self.treasures)
        found += [e.item for e in self.items.entries() if e.item is not None]
        found += list(self.stones.entries()) + list(self.artifacts.entries())
        return {item.name: item for item in found}

    def item(self, name: str) -> Item:
        """Raises KeyError for an unknown name."""
        return self.all_items()[name]


def _read_chart_entry(row: Node) -> ChartEntry:
    if row.has("chart"):
        chart = row.choice("chart", ("stones", "artifacts"))
        return ChartEntry(None, chart)
    return ChartEntry(read_item(row, ItemKind.ITEM))


def _check_level(
    node: Node, level: LevelTable, kinds: Mapping[str, LocationKind], fragments: Collection[str]
) -> None:
    """A level must offer a vault, a way down and a map fragment (rulings.md 2.5 #5).

    ``fragments`` are the items that unearth an artifact.
    """
    rows = [r.value for r in level.rows.rows]
    found = [kinds[r.location] for r in rows if r.location in kinds]
    if not any(k.is_vault for k in found):
        node.error("rows", "no location on this table is a vault, so no artifact can be found")
    if not any(k.allows_descent for k in found):
        node.error("rows", "no location on this table allows descent")
    if not any(r.treasure.gain.item in fragments for r in rows):
        node.error("rows", "no treasure on this table unearths an artifact (a map fragment)")


def _check_item_names(places: Sequence[tuple[Node, str, Item]]) -> None:
    first: dict[str, tuple[Node, str]] = {}
    for node, key, item in places:
        if item.name in first:
            where, at = first[item.name]
            place = at if where.file == node.file else f"{where.file} {at}"
            node.error(key, f"duplicate item name {item.name!r} (already at {place})")
        else:
            first[item.name] = (node, key)


def load(files: TableFiles) -> ThreeDiceDungeon:
    """Read and check every tables file of the ruleset; problems become findings."""
    # Items first: level tables and monster loot refer to them.
    items = _load_items(files)
    monsters_node = files.file("monsters")
    ability_cost, monsters = read_monsters(monsters_node, items.names)
    manual = [m.name for m in monsters]
    sides, kinds = read_locations(files.file("locations"))
    main_level = _load_level(files.file("main_level"), kinds, manual, items)
    _check_unswappable(monsters_node, monsters, main_level)
    undead_node = files.file("undead_level")
    borrows = _read_borrows(undead_node, manual)
    undead_level = _load_level(undead_node, kinds, borrows, items)
    class_level, recovery, classes = read_classes(files.file("classes"))
    # One resolved field a line, in the order the files are read (their findings' order).
    return ThreeDiceDungeon(
        character=read_character(files.file("character")),
        sides=sides,
        location_kinds=kinds,
        main_level=main_level,
        undead_level=undead_level,
        undead_borrows=borrows,
        treasures=items.treasures,
        items=items.items,
        stones=items.stones,
        artifacts=items.artifacts,
        experience=read_experience(files.file("experience")),
        class_level=class_level,
        mind_recovery=recovery,
        classes=classes,
        ability_cost=ability_cost,
        monsters=monsters,
        elite=read_elite(files.file("elite")),
        combat=read_combat(files.file("combat")),
        exploring=read_exploring(files.file("exploring"), manual),
        training_wheels=read_training_wheels(files.file("training_wheels")),
        multiplayer=read_multiplayer(files.file("multiplayer")),
        d6_scale=read_d6_scale(files.file("d6_scale")),
    )


@dataclass(frozen=True)
class _Items:
    """The treasures and the three charts, and what the other files check against them."""

    treasures: tuple[Item, ...]
    items: DiceTable[ChartEntry]
    stones: DiceTable[Item]
    artifacts: DiceTable[Item]
    names: frozenset[str]  # every item's name
    fragments: frozenset[str]  # the items that unearth an artifact (map fragments)


def _load_items(files: TableFiles) -> _Items:
    """Read ``treasures.toml`` and the charts; an item name may be used once across them."""
    treasures_node = files.file("treasures")
    treasures = _read_treasures(treasures_node)
    charts: dict[str, Node] = {n: files.file(n) for n in ("items", "stones", "artifacts")}
    items = load_dice_table(charts["items"], "rows", DIE, _read_chart_entry)
    stones = load_dice_table(charts["stones"], "rows", DIE, lambda r: read_item(r, ItemKind.STONE))
    artifacts = load_dice_table(
        charts["artifacts"], "rows", DIE, lambda r: read_item(r, ItemKind.ARTIFACT)
    )
    for chart in charts.values():
        chart.str("title")
        chart.done()
    # Every item, where it is defined: a name used twice is reported at its second place.
    places: list[tuple[Node, str, Item]] = [
        (treasures_node, f"treasures[{i}].name", t) for i, t in enumerate(treasures)
    ]
    places += [(charts["items"], f"rows[{i}].name", r.value.item)
               for i, r in enumerate(items.rows) if r.value.item is not None]
    places += [(charts["stones"], f"rows[{i}].name", r.value) for i, r in enumerate(stones.rows)]
    places += [(charts["artifacts"], f"rows[{i}].name", r.value)
               for i, r in enumerate(artifacts.rows)]
    _check_item_names(places)
    every_item = [item for _, _, item in places]
    return _Items(
        treasures=treasures,
        items=items,
        stones=stones,
        artifacts=artifacts,
        names=frozenset(i.name for i in every_item),
        fragments=frozenset(
            i.name for i in every_item if i.effect.kind is EffectKind.UNEARTH_ARTIFACT
        ),
    )


def _read_treasures(node: Node) -> tuple[Item, ...]:
    treasures: list[Item] = []
    for t in node.tables("treasures", min_items=1):
        treasures.append(read_item(t, ItemKind.TREASURE))
        t.done()
    node.done()
    return tuple(treasures)


def _load_level(
    node: Node, kinds: Mapping[str, LocationKind], monsters: Collection[str], items: _Items
) -> LevelTable:
    """A level table, then what every level must offer (:func:`_check_level`)."""
    level = read_level_table(node, kinds, monsters, items.names)
    node.done()
    _check_level(node, level, kinds, items.fragments)
    return level


def _check_unswappable(node: Node, monsters: tuple[Monster, ...], main_level: LevelTable) -> None:
    """A monster that may not be swapped out (the dragons, DD-09) must be rolled somewhere."""
    rolled = {r.value.monster for r in main_level.rows.rows}
    for i, m in enumerate(monsters):
        if not m.swappable and m.name not in rolled:
            node.error(
                f"monsters[{i}].swappable",
                f"{m.name} may not be swapped out but the main level never rolls them",
            )


def _read_borrows(node: Node, manual: list[str]) -> dict[str, str]:
    """The undead monsters of ``undead_level.toml``: each borrows a manual monster (DD-09)."""
    borrows: dict[str, str] = {}
    undead_names: list[str] = []
    for u in node.tables("monsters", min_items=1):
        name, base = u.str("name"), u.str("borrows")
        check_ref(u, "borrows", base, manual, "manual monster")
        if name in manual:
            u.error("name", f"{name!r} is already a monster of the manual")
        borrows[name] = base
        undead_names.append(name)
        u.done()
    check_unique(node, "monsters", undead_names)
    return borrows
