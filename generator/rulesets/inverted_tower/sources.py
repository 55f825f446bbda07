"""What The Inverted Tower's sheets name from its data (its decks need only its tables)."""

from __future__ import annotations

from generator.model.sheet_sources import Entry, LadderSource, Sources, named, slug
from generator.rulesets.inverted_tower.data import InvertedTower
from generator.rulesets.inverted_tower.entities import XpCounting


def sheet_sources(data: InvertedTower) -> Sources:
    """What the sheets may name: attributes, items, event kinds, monsters, the XP ladder."""
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
            "event-kinds": named([r.value.name for r in data.events.table.rows]),
            "monsters": named([m.name for m in data.monsters]),
        },
        numbers={"max-rooms": data.floor.max_rooms, "ladder-rows": lv.ladder_rows},
        ladders={"xp": xp},
    )
