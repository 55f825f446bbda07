"""The Family protocol as the shared code meets it: every family of FAMILIES, through
family_of, never by its own module (what a fourth ruleset gets tested by for free)."""

from __future__ import annotations

import dataclasses

import pytest

from generator.engine.family import family_of
from generator.model.loader import Content
from generator.rulesets import FAMILIES


@pytest.mark.parametrize("ruleset_id", sorted(FAMILIES))
def test_each_family_is_found_by_its_rulesets_id(content: Content, ruleset_id: str) -> None:
    ruleset = content.ruleset(ruleset_id)
    assert family_of(ruleset) is FAMILIES[ruleset_id]
    assert family_of(ruleset).id == ruleset_id


@pytest.mark.parametrize("ruleset_id", sorted(FAMILIES))
def test_the_booklet_slot_generates_what_its_checker_passes(content: Content,
                                                            ruleset_id: str) -> None:
    """What each family's generator pre-rolls, its checker finds sound, and the same seed
    gives the same dungeon while another seed gives another one."""
    ruleset = content.ruleset(ruleset_id)
    family, profile = family_of(ruleset), ruleset.profile()
    dungeon = family.generate_booklet(ruleset.data, profile, "int:2026", 2)
    assert family.check_booklet(ruleset.data, profile, dungeon) == []
    assert family.generate_booklet(ruleset.data, profile, "int:2026", 2) == dungeon
    assert family.generate_booklet(ruleset.data, profile, "int:2027", 2) != dungeon


def test_a_checker_reached_through_the_slot_names_a_changed_die(content: Content) -> None:
    """The slot hands back the checker's findings, not a yes or no: a location die of 7
    is named for what it breaks."""
    ruleset = content.ruleset("three-dice-dungeon")
    family, profile = family_of(ruleset), ruleset.profile()
    dungeon = family.generate_booklet(ruleset.data, profile, "int:2026", 1)
    level = dungeon.levels[0]
    cells = (dataclasses.replace(level.cells[0], location_die=7), *level.cells[1:])
    broken = dataclasses.replace(level, cells=cells, index={}, links={})
    findings = family.check_booklet(ruleset.data, profile,
                                    dataclasses.replace(dungeon, levels=(broken,)))
    assert "dice-range" in {f.code for f in findings}
    assert all(f.message for f in findings)
