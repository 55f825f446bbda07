"""What a sheet file may name from each ruleset's data: lists, numbers, ladders and tracks.

A sheet file (``sheets/*.toml``) writes ``source = "attributes"``; the family's sources
below turn that name into entries built from the typed data, so no name or number of the
rules is ever typed twice.  An unknown source is a finding that lists the known ones.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from generator.model.schema import Node, check_ref


@dataclass(frozen=True)
class Entry:
    """One thing of the data a sheet names: a slug for field names, what is printed."""

    slug: str
    label: str
    note: str = ""
    cells: tuple[str, ...] = ()  # for reference tables


@dataclass(frozen=True)
class LadderSource:
    """Levels and their XP numbers under both readings of ``ruling`` ("" when fixed)."""

    ruling: str
    faithful: tuple[tuple[int, int], ...]
    alt: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Track:
    """A row of boxes to tick, one per mark (the Emerald's absorbed damage)."""

    label: str
    note: str
    marks: tuple[str, ...]


@dataclass
class Sources:
    """The named sources of one ruleset; ``checked`` is False when the data had errors."""

    checked: bool = True
    lists: Mapping[str, tuple[Entry, ...]] = field(default_factory=dict)
    numbers: Mapping[str, int] = field(default_factory=dict)
    ladders: Mapping[str, LadderSource] = field(default_factory=dict)
    tracks: Mapping[str, Track] = field(default_factory=dict)

    def _pick(self, node: Node, key: str, known: Mapping[str, object], what: str) -> str | None:
        name = node.str(key)
        if not self.checked or not name:
            return None
        return name if check_ref(node, key, name, known, what) else None

    def entries(self, node: Node, key: str) -> tuple[Entry, ...]:
        name = self._pick(node, key, self.lists, "list source")
        return self.lists[name] if name else ()

    def number(self, node: Node, key: str) -> int:
        name = self._pick(node, key, self.numbers, "number source")
        return self.numbers[name] if name else 1

    def ladder(self, node: Node, key: str) -> LadderSource:
        name = self._pick(node, key, self.ladders, "ladder source")
        return self.ladders[name] if name else LadderSource("", (), ())

    def track(self, node: Node, key: str) -> Track:
        name = self._pick(node, key, self.tracks, "track source")
        return self.tracks[name] if name else Track("", "", ())


def slug(text: str) -> str:
    """A field-name word: ``"Map Fragment"`` -> ``map-fragment``."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "x"


def _named(names: list[str], notes: list[str] | None = None) -> tuple[Entry, ...]:
    notes = notes or [""] * len(names)
    unique = dict.fromkeys(zip(names, notes, strict=True))
    return tuple(Entry(slug(n), n, t) for n, t in unique)


# -- The Inverted Tower -----------------------------------------------------------------------


def _inverted_tower(data: object) -> Sources:
    from generator.rulesets.inverted_tower.data import InvertedTower
    from generator.rulesets.inverted_tower.entities import XpCounting

    assert isinstance(data, InvertedTower)
    lv, start = data.leveling, data.character.start

    def ladder(counting: XpCounting, first: int) -> tuple[tuple[int, int], ...]:
        # IT-12: a counter that starts again at each level (the XP this level costs), or one
        # running total (the total that reaches each level).
        rows: list[tuple[int, int]] = []
        total = 0
        for level in range(first, first + lv.ladder_rows):
            total += lv.cost(level)
            rows.append((level + 1, lv.cost(level) if counting is XpCounting.RESET else total))
        return tuple(rows)

    # Both values are read under IT-12; the starting level follows the counting's reading.
    xp = LadderSource(
        lv.counting.ruling,
        ladder(lv.counting.faithful, start.level.faithful),
        ladder(lv.counting.alt, start.level.alt),
    )
    return Sources(
        lists={
            "attributes": tuple(
                Entry(slug(a.code), a.name, a.code) for a in data.character.attributes
            ),
            "items": tuple(Entry(slug(i.id), i.plural, i.abbreviation) for i in data.items),
            "event-kinds": _named([r.value.name for r in data.events.table.rows]),
            "monsters": _named([m.name for m in data.monsters]),
        },
        numbers={"max-rooms": data.floor.max_rooms, "ladder-rows": lv.ladder_rows},
        ladders={"xp": xp},
    )


# -- 3 Dice Dungeon ---------------------------------------------------------------------------


def _three_dice_dungeon(data: object) -> Sources:
    from generator.rulesets.three_dice_dungeon.data import ThreeDiceDungeon
    from generator.rulesets.three_dice_dungeon.effects import EffectKind, Item

    assert isinstance(data, ThreeDiceDungeon)

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
            "location-kinds": _named([k.name for k in data.location_kinds.values()]),
            "classes": tuple(
                Entry(slug(c.name), c.name, c.power.text,
                      (c.name, c.power.name, c.power.cost_text, c.power.text))
                for c in data.classes
            ),
            "monsters": _named([m.name for m in data.monsters]),
        },
        ladders={"xp": LadderSource("", rows, rows)},
        tracks=tracks,
    )


# -- Tower of Choices -------------------------------------------------------------------------


def _tower_of_choices(data: object) -> Sources:
    from generator.rulesets.tower_of_choices.entities import AbilityKind, TowerOfChoices

    assert isinstance(data, TowerOfChoices)
    rules = data.character
    # An ability's extra card may be of a skill the character did not pick (ARCANE's
    # Spellcraft): the sheet needs a row for it.
    extra_skills = max(
        (
            len({e.skill for e in a.effects if e.kind == AbilityKind.EXTRA_CARD})
            for a in data.abilities
        ),
        default=0,
    )
    return Sources(
        lists={
            "skills": tuple(Entry(slug(s.name), s.name, s.covers) for s in data.skills),
            "abilities": tuple(Entry(slug(a.name), a.name, a.text) for a in data.abilities),
            "catalogue": tuple(
                Entry(slug(i.name), i.name, i.text, (i.name, str(i.cost))) for i in data.items
            ),
        },
        numbers={
            "carry-limit": rules.carry_limit,
            "starting-skills": rules.starting_skills,
            "skills-held": rules.starting_skills + extra_skills,
            "abilities": rules.abilities,
        },
    )


_FAMILIES: Mapping[str, Callable[[object], Sources]] = {
    "InvertedTower": _inverted_tower,
    "ThreeDiceDungeon": _three_dice_dungeon,
    "TowerOfChoices": _tower_of_choices,
}


def sources_for(data: object | None) -> Sources:
    """The sources of a ruleset's data; unchecked placeholders when the data had errors."""
    if data is None:
        return Sources(checked=False)
    build = _FAMILIES.get(type(data).__name__)
    return build(data) if build else Sources()
