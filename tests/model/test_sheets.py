"""Sheet and log definitions: resolved from the data, never retyped; problems are findings."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.errors import ContentError
from generator.model.loader import Content
from generator.model.schema import Findings, Node
from generator.model.sheet_sources import Sources
from generator.model.sheets import (
    BoxesSection,
    LadderSection,
    LinesSection,
    ReferenceSection,
    SheetDef,
    TrackSection,
    field_names,
    load_sheet,
    load_sheets,
)
from generator.rulesets import load_content
from generator.rulesets.inverted_tower.data import InvertedTower
from generator.rulesets.inverted_tower.entities import XpCounting
from generator.rulesets.three_dice_dungeon.data import ThreeDiceDungeon
from generator.rulesets.three_dice_dungeon.effects import EffectKind
from generator.rulesets.tower_of_choices.data import TowerOfChoices
from generator.rulesets.tower_of_choices.entities import AbilityKind
from tests.content import RULESETS, edit


def sections(sheet: SheetDef, kind: type) -> list:  # type: ignore[type-arg]
    return [s for s in sheet.sections if isinstance(s, kind)]


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_every_ruleset_has_a_sheet_and_a_log(content: Content, ruleset_id: str) -> None:
    sheets = content.ruleset(ruleset_id).sheets
    assert sheets["sheet"].kind == "sheet" and sheets["sheet"].repeat is None
    assert sheets["log"].kind == "log" and sheets["log"].repeat is not None
    for sheet in sheets.values():
        names = field_names(sheet, 1)
        assert len(names) == len(set(names))


def test_inverted_tower_ladder_follows_it12(content: Content) -> None:
    ruleset = content.ruleset("inverted-tower")
    data = ruleset.data
    assert isinstance(data, InvertedTower)
    lv, start = data.leveling, data.character.start
    (ladder,) = sections(ruleset.sheets["sheet"], LadderSection)
    assert ladder.ruling == lv.counting.ruling == "IT-12"
    # Faithful: a counter that starts again; the row for level L+1 costs base + per_level * L.
    assert lv.counting.faithful is XpCounting.RESET
    first = start.level.faithful
    levels = range(first, first + lv.ladder_rows)
    expected = [(level + 1, lv.base + lv.per_level * level) for level in levels]
    assert list(ladder.faithful.rows) == expected
    # Alt: one running total from level 0 (rulings.md: 10, 21, 33, ...).
    total, running = 0, []
    for level in range(start.level.alt, start.level.alt + lv.ladder_rows):
        total += lv.base + lv.per_level * level
        running.append((level + 1, total))
    assert list(ladder.alt.rows) == running
    assert ladder.under(ruleset.profile("as-written")) is ladder.faithful


def test_three_dice_dungeon_sheet_reads_the_data(content: Content) -> None:
    ruleset = content.ruleset("three-dice-dungeon")
    data = ruleset.data
    assert isinstance(data, ThreeDiceDungeon)
    sheet = ruleset.sheets["sheet"]
    (ladder,) = sections(sheet, LadderSection)
    exp = data.experience
    levels = range(data.character.start_level + 1, exp.listed_max_level + 1)
    assert list(ladder.faithful.rows) == [(lv, exp.step * (lv - 1)) for lv in levels]
    boxes = sections(sheet, BoxesSection)
    labels = [b.label for s in boxes for b in s.boxes]
    for attribute in data.character.attributes:
        assert attribute.name in labels
    held = set(labels)
    assert {i.name for i in data.all_items().values()} <= held
    tracks = {s.track.label: s for s in sections(sheet, TrackSection)}
    emerald = next(i for i in data.all_items().values() if i.effect.kind is EffectKind.ABSORB)
    assert len(tracks[emerald.name].track.marks) == emerald.effect.capacity
    soul = next(i for i in data.all_items().values() if i.effect.kind is EffectKind.SOUL_STONE)
    assert len(tracks[soul.name].track.marks) == -soul.effect.floor
    (classes,) = sections(sheet, ReferenceSection)
    assert [r[:3] for r in classes.rows] == [
        (c.name, c.power.name, c.power.cost_text) for c in data.classes
    ]


def test_tower_of_choices_sheet_reads_the_data(content: Content) -> None:
    ruleset = content.ruleset("tower-of-choices")
    data = ruleset.data
    assert isinstance(data, TowerOfChoices)
    sheet = ruleset.sheets["sheet"]
    (items,) = sections(sheet, LinesSection)
    assert items.rows == data.character.carry_limit
    (catalogue,) = sections(sheet, ReferenceSection)
    assert list(catalogue.rows) == [(i.name, str(i.cost)) for i in data.items]
    skills = sections(sheet, BoxesSection)[1]
    # A row per starting skill, and one for ARCANE's Spellcraft when it was not picked.
    extra = [a.name for a in data.abilities if a.effect(AbilityKind.EXTRA_CARD)]
    assert extra == ["ARCANE"]
    assert len(skills.boxes) == data.character.starting_skills + 1
    assert skills.legend is not None and skills.legend.names == data.skill_names


def test_inverted_tower_log_has_a_line_per_room(content: Content) -> None:
    ruleset = content.ruleset("inverted-tower")
    assert isinstance(ruleset.data, InvertedTower)
    (rooms,) = sections(ruleset.sheets["log"], LinesSection)
    assert rooms.rows == ruleset.data.floor.max_rooms
    assert "floor1.room03.kind" in field_names(ruleset.sheets["log"], 1)
    assert rooms.legend is not None
    assert set(rooms.legend.names) >= {r.value.name for r in ruleset.data.events.table.rows}


def test_editing_the_data_changes_the_sheets(content_copy: Path) -> None:
    folder = content_copy / "inverted-tower" / "tables"
    edit(folder / "leveling.toml", "base = 10", "base = 20")
    edit(folder / "floor.toml", "max_rooms = 12", "max_rooms = 9")
    ruleset = load_content(content_copy).ruleset("inverted-tower")
    (ladder,) = sections(ruleset.sheets["sheet"], LadderSection)
    assert ladder.faithful.rows[0] == (2, 21)
    (rooms,) = sections(ruleset.sheets["log"], LinesSection)
    assert rooms.rows == 9


def _findings(
    content_copy: Path, ruleset_id: str, old: str, new: str, file: str = "sheet"
) -> list[str]:
    edit(content_copy / ruleset_id / "sheets" / f"{file}.toml", old, new)
    with pytest.raises(ContentError) as info:
        load_content(content_copy)
    return [str(f) for f in info.value.findings]


def test_unknown_source_names_the_file_key_and_choices(content_copy: Path) -> None:
    found = _findings(
        content_copy, "inverted-tower", 'source = "attributes"', 'source = "atributes"'
    )
    assert found == [
        "content/inverted-tower/sheets/sheet.toml: sections[1].source: "
        "unknown list source 'atributes' "
        "(expected one of: attributes, event-kinds, items, monsters)"
    ]


def test_unknown_key_is_a_finding(content_copy: Path) -> None:
    found = _findings(
        content_copy, "tower-of-choices", 'kind = "lines"', 'kind = "lines"\ncolour = 1', "log"
    )
    assert found == ["content/tower-of-choices/sheets/log.toml: sections[0].colour: unknown key"]


def test_duplicate_and_group_field_names_are_findings(content_copy: Path) -> None:
    found = _findings(content_copy, "inverted-tower", 'name = "room"', 'name = "hp"')
    assert any("form field 'hp' also names a group" in f for f in found)
    found2 = _findings(content_copy, "tower-of-choices", 'name = "rests"', 'name = "coins"')
    assert any("duplicate form field name 'coins'" in f for f in found2)


def test_notes_fill_a_page_only_where_each_copy_has_its_own(content_copy: Path) -> None:
    found = _findings(content_copy, "three-dice-dungeon", "new_page = true", "new_page = false",
                      "log")
    assert found == [
        "content/three-dice-dungeon/sheets/log.toml: sections: notes 'notes' cannot fill the "
        "page: the copies share their pages (set repeat.new_page = true)"
    ]


def test_only_one_notes_section_fills_the_page(content_copy: Path) -> None:
    found = _findings(content_copy, "inverted-tower", "fill = true\n",
                      'fill = true\n\n[[sections]]\nkind = "notes"\ntitle = "More"\n'
                      'name = "more"\nlines = 2\nfill = true\n')
    assert found == [
        "content/inverted-tower/sheets/sheet.toml: sections: 2 notes sections fill the page "
        "('notes', 'more'): only one of a sheet may (fill = true)"
    ]


def test_sheets_are_read_without_checks_when_the_data_is_broken() -> None:
    findings = Findings()
    boxes = {"kind": "boxes", "title": "A", "source": "x", "prefix": "a"}
    raw = {"kind": "sheet", "title": "T", "sections": [boxes]}
    node = Node(raw, "s.toml", "", findings)
    sheets = load_sheets({"sheet": node}, Sources(checked=False))
    assert findings.items == [] and sheets["sheet"].title == "T"
    # With data, the same file is checked.
    notes = {"kind": "notes", "title": "N", "name": "Bad Name", "lines": 2}
    raw2 = {"kind": "sheet", "title": "T", "sections": [notes]}
    load_sheet("sheet", Node(raw2, "s.toml", "", findings), Sources(checked=False))
    assert [f.where for f in findings.items] == ["s.toml: sections[0].name"]
