"""The Tower of Choices model: bundled content, key numbers, and exact validation messages."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from generator.errors import ContentError
from generator.model.loader import BUNDLED_CONTENT, Ruleset
from generator.rulesets import load_content
from generator.rulesets.tower_of_choices.data import TowerOfChoices
from generator.rulesets.tower_of_choices.entities import AbilityKind, ItemKind, SetbackKind

FOLDER = BUNDLED_CONTENT / "tower-of-choices"
SKILLS = [
    "Melee offense", "Ranged offense", "Defense", "Knowledge", "Perception", "Luck",
    "Strength", "Grace", "Stealth", "Speech", "Crafting", "Spellcraft",
]  # fmt: skip
KNOWN_SKILLS = ", ".join(sorted(SKILLS))


@pytest.fixture(scope="module")
def ruleset() -> Ruleset:
    return load_content(FOLDER).ruleset("tower-of-choices")


@pytest.fixture(scope="module")
def data(ruleset: Ruleset) -> TowerOfChoices:
    assert isinstance(ruleset.data, TowerOfChoices)
    return ruleset.data


# -- the bundled content ---------------------------------------------------------------


def test_tables_are_all_there(ruleset: Ruleset) -> None:
    assert list(ruleset.tables()) == [
        "skills",
        "skill-aliases",
        "abilities",
        "items",
        "character-creation",
        "check-rules",
        "check-adjustments",
        "obstacle-limits",
        "setbacks",
        "alt-numbers",
    ]


def test_every_table_is_embedded_in_the_rules(ruleset: Ruleset) -> None:
    prose = "\n".join(chapter.source for chapter in ruleset.chapters)
    embedded = set(re.findall(r"\{\{ table: ([a-z-]+) \}\}", prose))
    assert embedded == set(ruleset.tables())


def test_every_ruling_is_marked_in_the_rules(ruleset: Ruleset) -> None:
    prose = "\n".join(chapter.source for chapter in ruleset.chapters)
    marked = set(re.findall(r"\{\{ ruling: (TC-\d\d) \}\}", prose))
    assert marked == {f"TC-{n:02d}" for n in range(1, 26)}


def test_rulings_and_profiles(ruleset: Ruleset) -> None:
    ids = [f"TC-{n:02d}" for n in range(1, 26)]
    assert [r.id for r in ruleset.rulings] == ids
    single = {r.id for r in ruleset.rulings if not r.alt}
    assert single == {"TC-01", "TC-13", "TC-19", "TC-22", "TC-23", "TC-24"}
    assert set(ruleset.profiles) == {"as-written", "gentle", "balanced"}
    as_written = ruleset.profile()
    assert as_written.id == "as-written"
    assert dict(as_written.readings) == dict.fromkeys(ids, "faithful")
    gentle = ruleset.profile("gentle")
    assert {i for i in ids if gentle.alt(i)} == {
        "TC-04",
        "TC-08",
        "TC-12",
        "TC-17",
        "TC-20",
        "TC-21",
        "TC-25",
    }
    balanced = ruleset.profile("balanced")
    assert {i for i in ids if balanced.alt(i)} == {"TC-02", "TC-25"}
    assert "chosen by simulation" in balanced.description


def test_skills(data: TowerOfChoices) -> None:
    assert list(data.skill_names) == SKILLS
    assert data.skill_named("MELEE ATTACK") == "Melee offense"  # TC-13
    assert data.skill_named("RANGED ATTACK") == "Ranged offense"
    assert data.skill_named("Grace") == "Grace"
    with pytest.raises(KeyError):
        data.skill_named("Stealth offense")


def test_character_numbers(data: TowerOfChoices) -> None:
    c = data.character
    assert (c.starting_skills, c.cards_per_starting_skill, c.abilities) == (3, 2, 1)
    assert (c.starting_coins, c.max_starting_items, c.carry_limit) == (3, 3, 10)
    assert c.distinct_starting_skills and c.unspent_coins_kept
    # rulings.md 3.2: a 6-card deck (7 with ARCANE) pays for 3 standard obstacles.
    assert data.starting_deck_size() == 6
    assert data.starting_deck_size(data.ability("ARCANE")) == 7
    assert data.standard_checks_per_deck() == 3


def test_check_numbers(data: TowerOfChoices) -> None:
    c = data.checks
    assert (c.standard_draw, c.standard_target) == (2, 1)
    assert (c.target_floor, c.target_floor_alt, c.fewest_draw) == (0, 1, 0)  # TC-05, TC-04
    assert c.exhausted_when_draw_pile_empty and c.rest_shuffles_discard_with_draw_pile
    assert (c.challenge_label, c.challenge_target_per_card) == ("CHALLENGE", 1)
    assert c.challenge_added_only_when_resting and c.challenge_converted_after_draw
    assert (c.wild_skill, c.wild_target_increase, c.challenge_max_per_rest_alt) == ("Luck", 1, 1)
    assert (c.obstacle_min_draw, c.obstacle_min_target) == (1, 1)
    assert [s.kind for s in data.setbacks] == list(SetbackKind)
    assert (data.wounds_alt.per_failure, data.wounds_alt.out_at) == (1, 3)


def test_abilities(data: TowerOfChoices) -> None:
    assert [a.name for a in data.abilities] == [
        "ARCANE", "ASSASSIN", "DEFENDER", "DETERMINATION", "HEALER", "HEIRLOOM",
        "INDEFATIGABLE", "QUICK DRAW", "RICH", "STUDIED", "TRAPS", "WHIRLWIND",
    ]  # fmt: skip
    engine = {
        (a.name, e.kind, e.skill, e.amount) for a in data.abilities for e in a.effects if e.engine
    }
    assert engine == {
        ("ARCANE", AbilityKind.EXTRA_CARD, "Spellcraft", 1),
        ("DETERMINATION", AbilityKind.BURN_TOP_CARD_FOR_EXTRA_DRAW, "", 1),
        ("INDEFATIGABLE", AbilityKind.REFRESH_RANDOM_CARD, "", 1),
        ("RICH", AbilityKind.STARTING_COINS, "", 100),
        ("QUICK DRAW", AbilityKind.EXTRA_FELL_PER_SURPLUS, "Ranged offense", 1),
        ("WHIRLWIND", AbilityKind.EXTRA_ACTION, "Melee offense", 1),
    }
    narrative = {a.name for a in data.abilities if not any(e.engine for e in a.effects)}
    assert narrative == {"ASSASSIN", "DEFENDER", "HEALER", "HEIRLOOM", "STUDIED", "TRAPS"}
    studied = data.ability("STUDIED").effect(AbilityKind.TOPIC_BRIEFS)
    assert studied is not None and (studied.amount, studied.words) == (5, 300)
    with pytest.raises(KeyError):
        data.ability("FLIGHT")


def test_items(data: TowerOfChoices) -> None:
    costs = {i.name: i.cost for i in data.items}
    assert costs == {
        "Climbing supplies": 1, "Crafting supplies": 1, "Drink, energy": 1,
        "Healer's case": 1, "Misc supplies, tier 1": 1, "Misc supplies, tier 2": 2,
        "Misc supplies, tier 3": 3, "Mana crystal, small": 1, "Maps, incomplete": 2,
        "Notebook": 1, "Poison": 1, "Reference book": 1, "Shield, wooden": 1,
        "Shield, steel": 2, "Weapon: staff or axe": 1, "Weapon: bow or darts": 1,
        "Weapon: dueling cane": 2, "Weapon: pistol": 3,
    }  # fmt: skip
    assert {i.name for i in data.items if i.one_use} == {"Drink, energy", "Mana crystal, small"}
    assert data.item("Drink, energy").effects == (ItemKind.RESTORE_DISCARD,)
    assert [(m.skill, m.draw, m.target) for m in data.item("Shield, steel").modifiers] == [
        ("Defense", 0, -1),
        ("Defense", 1, 0),
    ]
    assert [(m.skill, m.draw) for m in data.item("Weapon: dueling cane").modifiers] == [
        ("Melee offense", 1),
        ("Ranged offense", 1),
    ]
    assert data.item("Weapon: pistol").modifiers_for("Ranged offense")[0].draw == 2
    (book,) = data.item("Reference book").modifiers
    assert (book.skill, book.draw, book.ruling, book.kept_if_lost) == (
        "Knowledge",
        1,
        "TC-17",
        True,
    )
    assert "subject" in book.condition
    assert [data.item(f"Misc supplies, tier {t}").tier for t in (1, 2, 3)] == [1, 2, 3]
    # TC-16 Alt counts the pieces of a kit; tier 2 holds tier 1's four and nine more.
    assert data.kit_size(data.item("Misc supplies, tier 2")) == 13
    assert data.kit_size(data.item("Notebook")) == 1
    with pytest.raises(KeyError):
        data.item("Sword")


def test_views_print_the_data(ruleset: Ruleset) -> None:
    tables = ruleset.tables()
    items = {row[0]: row for row in tables["items"].rows}
    assert items["Weapon: pistol"][1:] == ("3", "A pistol. +2 Ranged offense DRAW.", "no")
    checks = {row[0]: row[1] for row in tables["check-rules"].rows}
    assert checks["Standard obstacle"] == "DRAW 2, TARGET 1"
    assert checks["Standard obstacles per fresh deck"] == "3"
    creation = {row[0]: row[1] for row in tables["character-creation"].rows}
    assert creation["Starting deck"] == "6 cards (7 with ARCANE)"
    assert creation["Coins"] == "3 (100 with RICH)"


# -- validation: corrupt a copy and read the exact finding --------------------------------


def _findings(tmp_path: Path, file: str, old: str, new: str) -> list[str]:
    folder = tmp_path / "tower-of-choices"
    shutil.copytree(FOLDER, folder)
    path = folder / file
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(ContentError) as caught:
        load_content(folder)
    return [str(f) for f in caught.value.findings]


ITEMS = "tower-of-choices/tables/items.toml"
ABILITIES = "tower-of-choices/tables/abilities.toml"


def test_alias_instead_of_skill_name(tmp_path: Path) -> None:
    found = _findings(
        tmp_path, "tables/items.toml",
        '[{ skill = "Ranged offense", draw = 2 }]', '[{ skill = "RANGED ATTACK", draw = 2 }]',
    )  # fmt: skip
    assert found == [
        f"{ITEMS}: items[17].modifiers[0].skill: unknown skill 'RANGED ATTACK' "
        f"(expected one of: {KNOWN_SKILLS})"
    ]


def test_bad_ability_effect_kind(tmp_path: Path) -> None:
    found = _findings(
        tmp_path, "tables/abilities.toml", '{ kind = "craft_traps" }', '{ kind = "build_traps" }'
    )
    assert found == [
        f"{ABILITIES}: abilities[10].effects[0].kind: 'build_traps' is not one of "
        + ", ".join(k.value for k in AbilityKind)
    ]


def test_parameter_the_kind_does_not_take(tmp_path: Path) -> None:
    found = _findings(
        tmp_path, "tables/abilities.toml",
        '{ kind = "magic_item" }', '{ kind = "magic_item", skill = "Spellcraft" }',
    )  # fmt: skip
    assert found == [
        f"{ABILITIES}: abilities[5].effects[0].skill: kind 'magic_item' takes no skill"
    ]


def test_missing_parameter(tmp_path: Path) -> None:
    found = _findings(
        tmp_path,
        "tables/abilities.toml",
        'kind = "starting_coins", amount = 100',
        'kind = "starting_coins"',
    )
    assert found == [
        f"{ABILITIES}: abilities[8].effects[0].amount: missing required key (expected an integer)"
    ]


def test_modifier_with_two_changes(tmp_path: Path) -> None:
    found = _findings(
        tmp_path, "tables/items.toml",
        '[{ skill = "Defense", target = -1 }]', '[{ skill = "Defense", target = -1, draw = 1 }]',
    )  # fmt: skip
    assert found == [
        f"{ITEMS}: items[12].modifiers[0]: expected exactly one non-zero change: draw or target"
    ]


def test_unknown_key(tmp_path: Path) -> None:
    found = _findings(tmp_path, "tables/items.toml", "one_use = true", "single_use = true")
    assert found == [f"{ITEMS}: items[2].single_use: unknown key"]


def test_duplicate_item(tmp_path: Path) -> None:
    found = _findings(tmp_path, "tables/items.toml", 'name = "Poison"', 'name = "Notebook"')
    assert found == [f"{ITEMS}: items[10]: duplicate item 'Notebook'"]


def test_kits_that_include_each_other(tmp_path: Path) -> None:
    found = _findings(
        tmp_path, "tables/items.toml",
        'text = "The small things a traveller is glad to have."',
        'text = "The small things."\nincludes = "Misc supplies, tier 3"',
    )  # fmt: skip

    def loop(*tiers: int) -> str:
        return " -> ".join(f"Misc supplies, tier {t}" for t in tiers)

    assert found == [  # every kit in the loop is reported
        f"{ITEMS}: items[4].includes: 'Misc supplies, tier 1' includes itself: {loop(1, 3, 2, 1)}",
        f"{ITEMS}: items[5].includes: 'Misc supplies, tier 2' includes itself: {loop(2, 1, 3, 2)}",
        f"{ITEMS}: items[6].includes: 'Misc supplies, tier 3' includes itself: {loop(3, 2, 1, 3)}",
    ]


def test_unknown_included_kit(tmp_path: Path) -> None:
    found = _findings(
        tmp_path, "tables/items.toml",
        'includes = "Misc supplies, tier 1"', 'includes = "Misc supplies, tier 0"',
    )  # fmt: skip
    assert len(found) == 1
    assert found[0].startswith(
        f"{ITEMS}: items[5].includes: unknown item 'Misc supplies, tier 0' (expected one of: "
    )


def test_setback_without_amount(tmp_path: Path) -> None:
    found = _findings(
        tmp_path, "tables/setbacks.toml", 'kind = "drain"\namount = 1\n', 'kind = "drain"\n'
    )
    assert found == [
        "tower-of-choices/tables/setbacks.toml: setbacks[1].amount: "
        "missing required key (expected an integer)"
    ]


def test_wild_skill_must_resolve(tmp_path: Path) -> None:
    found = _findings(tmp_path, "tables/checks.toml", 'skill = "Luck"', 'skill = "Fortune"')
    assert found == [
        "tower-of-choices/tables/checks.toml: wild.skill: unknown skill 'Fortune' "
        f"(expected one of: {KNOWN_SKILLS})"
    ]


def test_carry_limit_below_starting_items(tmp_path: Path) -> None:
    found = _findings(tmp_path, "tables/character.toml", "carry_limit = 10", "carry_limit = 2")
    assert found == [
        "tower-of-choices/tables/character.toml: carry_limit: 2 is below max_starting_items 3"
    ]


def test_missing_tables_file(tmp_path: Path) -> None:
    folder = tmp_path / "tower-of-choices"
    shutil.copytree(FOLDER, folder)
    (folder / "tables" / "setbacks.toml").unlink()
    with pytest.raises(ContentError) as caught:
        load_content(folder)
    found = [str(f) for f in caught.value.findings]
    assert (
        "tower-of-choices/tables/setbacks.toml: missing file (expected a tables file of this name)"
        in found
    )


def test_bad_item_effect_kind(tmp_path: Path) -> None:
    found = _findings(
        tmp_path, "tables/items.toml", '{ kind = "restore_discard" }', '{ kind = "restore_all" }'
    )
    assert found == [
        f"{ITEMS}: items[2].effects[0].kind: 'restore_all' is not one of "
        + ", ".join(k.value for k in ItemKind)
    ]


def test_ruling_reference_format(tmp_path: Path) -> None:
    found = _findings(tmp_path, "tables/abilities.toml", 'ruling = "TC-12"', 'ruling = "TC12"')
    assert found == [
        f"{ABILITIES}: abilities[3].effects[0].ruling: 'TC12' is not a ruling ID of the form TC-nn"
    ]
