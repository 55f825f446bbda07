"""Where 3 Dice Dungeon's cards and sheets get their entries, beyond its tables."""

from __future__ import annotations

from collections.abc import Mapping

from generator.model.common import Profile
from generator.model.deck_sources import Entity, Source, table_entities
from generator.model.sheet_sources import Entry, LadderSource, Sources, Track, named, slug
from generator.model.views import TableView
from generator.rulesets.three_dice_dungeon.data import ThreeDiceDungeon
from generator.rulesets.three_dice_dungeon.effects import EffectKind, Item


def _die_times(pips: int) -> str:
    """DD-28 Alt: a monster stat that is the monster die's value, ``pips`` times over."""
    if pips == 1:
        return "die"
    return f"{pips}\u00d7die" if pips else "0"


def monsters(data: ThreeDiceDungeon, tables: Mapping[str, TableView]) -> Source:
    """The monster manual and the undead (with the stats they borrow, DD-09).

    Under the Alt reading of DD-28 (the d6 scale) HP and damage are those of the scale,
    and the armour too under DD-34's Alt.
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
        damage = scale["Damage of monster hits"].field(scale_column)
        abilities = scale["Monster abilities"].field(scale_column)
        swap = {"HP": hp, "Str/dmg": damage}
        if profile.alt("DD-34"):  # the armour is the monster die too
            swap["Dex/armour"] = _die_times(data.d6_scale.alt_armor_per_pip)
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


def sheet_sources(data: ThreeDiceDungeon) -> Sources:
    """What the sheets may name: attributes, items by chart, kinds, classes, tracks, XP."""
    def items(found: list[Item]) -> tuple[Entry, ...]:
        return tuple(Entry(slug(i.name), i.name, i.text) for i in found)

    chart = [e.item for e in data.items.entries() if e.item is not None]
    stones = list(data.stones.entries())
    artifacts = list(data.artifacts.entries())
    every = list(data.treasures) + chart + stones + artifacts
    tracks: dict[str, Track] = {}
    for item in every:
        effect = item.effect
        if effect.kind is EffectKind.ABSORB:
            marks = tuple(str(n) for n in range(1, effect.capacity + 1))
            tracks["absorb"] = Track(item.name, item.text, marks)
        elif effect.kind is EffectKind.SOUL_STONE:
            marks = tuple(f"\u2212{n}" for n in range(1, -effect.floor + 1))
            tracks["soul-stone"] = Track(item.name, item.text, marks)
    exp, char = data.experience, data.character
    levels = range(char.start_level + 1, exp.listed_max_level + 1)
    rows = tuple((level, exp.threshold(level)) for level in levels)
    return Sources(
        lists={
            "attributes": tuple(
                Entry(slug(a.stat.value), a.name, a.stat.value) for a in char.attributes
            ),
            "treasures": items(list(data.treasures)),
            "chart-items": items(chart),
            "stones": items(stones),
            "artifacts": items(artifacts),
            "location-kinds": named([k.name for k in data.location_kinds.values()]),
            "classes": tuple(
                Entry(slug(c.name), c.name, c.power.text,
                      (c.name, c.power.name, c.power.cost_text, c.power.text))
                for c in data.classes
            ),
            "monsters": named([m.name for m in data.monsters]),
        },
        ladders={"xp": LadderSource("", rows, rows)},
        tracks=tracks,
    )
