"""The Inverted Tower model: the bundled content, its numbers, profiles and validations."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from generator.errors import ContentError
from generator.model.loader import Ruleset
from generator.rulesets import load_content
from generator.rulesets.inverted_tower.data import InvertedTower
from generator.rulesets.inverted_tower.entities import (
    CritBasis,
    EffectKind,
    EliteCount,
    EventKind,
    TermSource,
    TreasureAfter,
    Varies,
)

FOLDER = Path(__file__).resolve().parents[2] / "content" / "inverted-tower"
RULING_IDS = [f"IT-{n:02d}" for n in range(1, 35)]
DRAFT_45_ALTS = {"IT-04", "IT-07", "IT-15", "IT-20", "IT-25"}
#: The balanced profile (issue 24), chosen by simulation: the forgiving reading of three.
BALANCED_ALTS = {"IT-08", "IT-11", "IT-12"}


@pytest.fixture(scope="module")
def ruleset() -> Ruleset:
    return load_content(FOLDER).ruleset("inverted-tower")


@pytest.fixture(scope="module")
def data(ruleset: Ruleset) -> InvertedTower:
    assert isinstance(ruleset.data, InvertedTower)
    return ruleset.data


def corrupt(tmp_path: Path, stem: str, old: str, new: str) -> list[str]:
    """Copy the ruleset, replace ``old`` by ``new`` once in tables/<stem>.toml, load it."""
    root = tmp_path / "inverted-tower"
    shutil.copytree(FOLDER, root)
    path = root / "tables" / f"{stem}.toml"
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path.name}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(ContentError) as info:
        load_content(root)
    return [str(f) for f in info.value.findings]


# -- the bundled content -------------------------------------------------------------------


def test_loads_with_every_table(ruleset: Ruleset) -> None:
    names = set(ruleset.tables())
    assert names == {
        "roll-kinds", "split-roll", "critical-rolls", "attributes", "starting-character",
        "starting-kit", "items", "events", "traps", "floor", "merchant", "monster-count",
        "monsters", "treasure", "boss-minions", "boss-loot", "level-ladder", "level-up",
        "ruling-values",
    }
    for name, view in ruleset.tables().items():
        assert re.fullmatch(r"[a-z]+(-[a-z]+)*", name)
        assert view.name == name and view.title and view.rows


def test_rolls_match_the_seed(data: InvertedTower) -> None:
    rolls = data.rolls
    assert rolls.faces == 6
    assert rolls.check("DC").target == 5
    assert rolls.check("EC").target == 6
    assert [o.option for o in rolls.split.table.lookup_table()] == [1, 1, 2, 2, 3, 3]
    assert (rolls.crits.success, rolls.crits.failure) == (6, 1)
    assert rolls.crits.applies_to == Varies(CritBasis.NATURAL, CritBasis.TOTAL, "IT-08")


def test_character_matches_the_seed(data: InvertedTower) -> None:
    character = data.character
    assert [a.code for a in character.attributes] == ["STR", "DEX", "INT"]
    start = character.start
    assert (start.attribute_points, start.attribute_value, start.max_hp) == (1, 0, 5)
    assert (start.xp, start.gold, start.level.faithful) == (0, 0, 1)
    assert [(k.item, k.quantity) for k in character.kit] == [("dagger", 1), ("potion", 1)]
    dagger, potion = data.item("dagger"), data.item("potion")
    assert (dagger.effect.kind, dagger.effect.amount) == (EffectKind.COMBAT_BONUS, 1)
    assert potion.effect.kind is EffectKind.HEAL_TO_MAX


def test_room_tables_match_the_seed(data: InvertedTower) -> None:
    events = data.events.table.lookup_table()
    assert [e.kind for e in events] == [EventKind.TRAP] * 3 + [
        EventKind.MERCHANT, EventKind.BONFIRE, EventKind.STAIRS,
    ]
    assert [t.attribute for t in data.traps.table.lookup_table()] == [
        "STR", "STR", "DEX", "DEX", "INT", "INT",
    ]
    assert (data.traps.fail_damage, data.traps.fail_treasure) == (1, False)
    assert data.encounters.count.lookup_table() == (1, 1, 2, 2, 3, 3)
    treasure = [(s.item, s.quantity) for s in data.treasure.table.lookup_table()]
    assert treasure == [("gold", 1)] * 4 + [("dagger", 1), ("potion", 1)]
    assert [(o.item, o.price) for o in data.merchant.stock] == [("dagger", 5), ("potion", 5)]


def test_fights_match_the_seed(data: InvertedTower) -> None:
    assert data.combat.check == "DC" and data.combat.fail_damage == 1
    assert data.monster("normal").xp.faithful == 1
    normal = [(t.source, t.sign) for t in data.monster("normal").to_hit.faithful]
    assert normal == [(TermSource.ATTRIBUTE, 1), (TermSource.FLOOR, -1), (TermSource.DAGGERS, 1)]
    elite = data.monster("elite").to_hit
    assert (TermSource.LEVEL, -1) in [(t.source, t.sign) for t in elite.faithful]
    assert [t.source for t in elite.alt] == [TermSource.DAGGERS]
    assert data.monster("boss").to_hit == elite  # "handle it as an elite"
    bosses = data.bosses
    assert (bosses.minion_check, bosses.minions_on_pass, bosses.minions_on_fail) == ("DC", 4, 2)
    assert sorted((s.item, s.quantity) for s in bosses.loot) == [
        ("dagger", 1), ("gold", 1), ("potion", 1),
    ]


def test_floor_and_levels_match_the_seed(data: InvertedTower) -> None:
    assert (data.floor.first_floor, data.floor.max_rooms) == (1, 12)
    assert data.floor.dead_end_check == data.floor.wandering_check == "DC"
    leveling = data.leveling
    assert [leveling.cost(level) for level in (1, 2, 3)] == [11, 12, 13]
    assert (leveling.max_hp_gain, leveling.attribute_points, leveling.hp_gain.faithful) == (1, 1, 1)


# -- rulings and profiles ------------------------------------------------------------------------


def test_every_ruling_is_present(ruleset: Ruleset) -> None:
    assert [r.id for r in ruleset.rulings] == RULING_IDS
    for profile in ruleset.profiles.values():
        assert sorted(profile.readings) == RULING_IDS
    assert set(ruleset.profile("as-written").readings.values()) == {"faithful"}
    for profile_id, alts in (("draft-4.5", DRAFT_45_ALTS), ("balanced", BALANCED_ALTS)):
        readings = ruleset.profile(profile_id).readings
        assert {i for i, reading in readings.items() if reading == "alt"} == alts


def test_every_ruling_is_marked_in_the_rules(ruleset: Ruleset) -> None:
    marked = set()
    for chapter in ruleset.chapters:
        marked |= set(re.findall(r"\{\{\s*ruling:\s*(IT-\d\d)\s*\}\}", chapter.source))
    assert sorted(marked) == RULING_IDS


def test_profiles_pick_the_values(ruleset: Ruleset, data: InvertedTower) -> None:
    written, draft = ruleset.profile("as-written"), ruleset.profile("draft-4.5")
    assert data.encounters.elite_check.under(written) == "DC"
    assert data.encounters.elite_check.under(draft) == "EC"
    assert data.encounters.elites.under(draft) is EliteCount.ONE
    for monster in ("elite", "boss"):
        assert data.monster(monster).xp.under(written) == 1
        assert data.monster(monster).xp.under(draft) == 2
    assert data.monster("normal").xp.under(draft) == 1
    assert data.treasure.after.under(written) == (
        TreasureAfter.ENCOUNTER_WON, TreasureAfter.TRAP_PASSED,
    )
    assert data.treasure.after.under(draft) == (TreasureAfter.ENCOUNTER_WON,)
    assert data.bosses.lair_treasure_rolls.under(draft) == 1
    assert data.item("dagger").effect.use.under(draft).value == "spent"  # IT-09 already faithful


def test_reference_tables_say_what_a_roll_means(ruleset: Ruleset) -> None:
    # A player at the table reads these on the cards and the quick reference (play-test).
    tables = ruleset.tables()
    assert tables["traps"].note.startswith(
        "Check: DC + the trap's attribute, without the floor (IT-16 Alt: minus the floor)."
    )
    floor = {row[0]: row[1] for row in tables["floor"].rows}
    assert floor["A dead-end room holds"] == "the boss's lair (IT-18 Alt: what it rolls)"
    assert floor["Wandering-monster check (each move back; a pass is a new encounter)"] == "DC"


def test_one_source_of_truth(tmp_path: Path) -> None:
    root = tmp_path / "inverted-tower"
    shutil.copytree(FOLDER, root)
    path = root / "tables" / "merchant.toml"
    path.write_text(path.read_text().replace("price = 5", "price = 7", 1))
    ruleset = load_content(root).ruleset("inverted-tower")
    assert ruleset.tables()["merchant"].rows[0] == ("Dagger", "7 gp")
    assert ruleset.data.merchant.stock[0].price == 7


# -- validation: exact findings ----------------------------------------------------------------


def test_roll_outside_the_die(tmp_path: Path) -> None:
    assert corrupt(tmp_path, "treasure", "roll = 6", 'roll = "6-7"') == [
        "inverted-tower/tables/treasure.toml: rows: faces 6 of the d6 are not covered by any row",
        "inverted-tower/tables/treasure.toml: rows[2].roll: 6-7 is outside 1-6",
    ]


def test_coverage_gap(tmp_path: Path) -> None:
    assert corrupt(tmp_path, "treasure", 'roll = "1-4"', 'roll = "1-3"') == [
        "inverted-tower/tables/treasure.toml: rows: faces 4 of the d6 are not covered by any row",
    ]


def test_coverage_overlap(tmp_path: Path) -> None:
    assert corrupt(tmp_path, "events", "roll = 4", 'roll = "3-4"') == [
        "inverted-tower/tables/events.toml: rows[1].roll: face 3 is already covered by rows[0]",
    ]


def test_split_roll_rows_use_its_ranges(tmp_path: Path) -> None:
    old, new = 'roll = "1-2"\nmonsters = 1', 'roll = "1-3"\nmonsters = 1'
    found = corrupt(tmp_path, "encounters", old, new)
    assert found == [
        "inverted-tower/tables/encounters.toml: count.rows[0].roll: 1-3 is not a range of the "
        "SR options",
        # check_coverage names the other row relative to the table it was given.
        "inverted-tower/tables/encounters.toml: count.rows[1].roll: face 3 is already covered by "
        "rows[0]",
    ]


def test_unknown_item(tmp_path: Path) -> None:
    assert corrupt(tmp_path, "bosses", 'item = "potion"', 'item = "sword"') == [
        "inverted-tower/tables/bosses.toml: loot[0].item: unknown item 'sword' "
        "(expected one of: dagger, gold, potion)",
    ]


def test_gold_is_not_for_sale(tmp_path: Path) -> None:
    assert corrupt(tmp_path, "merchant", 'item = "potion"', 'item = "gold"') == [
        "inverted-tower/tables/merchant.toml: stock[1].item: unknown item for sale 'gold' "
        "(expected one of: dagger, potion)",
    ]


def test_unknown_check(tmp_path: Path) -> None:
    assert corrupt(tmp_path, "encounters", 'alt = "EC"', 'alt = "XC"') == [
        "inverted-tower/tables/encounters.toml: elite_check.alt: unknown check 'XC' "
        "(expected one of: DC, EC)",
    ]


def test_unknown_monster(tmp_path: Path) -> None:
    assert corrupt(tmp_path, "monsters", 'fights_as = "elite"', 'fights_as = "dragon"') == [
        "inverted-tower/tables/monsters.toml: monsters[2].fights_as: unknown monster 'dragon' "
        "(expected one of: boss, elite, normal)",
    ]


def test_bad_effect_kind(tmp_path: Path) -> None:
    found = corrupt(tmp_path, "items", '{ kind = "heal_to_max", use', '{ kind = "teleport", use')
    assert found == [
        "inverted-tower/tables/items.toml: items[2].effect.kind: 'teleport' is not one of "
        "heal_to_max, combat_bonus, currency",
    ]


def test_bad_term_source(tmp_path: Path) -> None:
    assert corrupt(tmp_path, "monsters", 'source = "floor"', 'source = "luck"') == [
        "inverted-tower/tables/monsters.toml: monsters[0].to_hit[1].source: 'luck' is not one of "
        "attribute, floor, level, daggers",
    ]


def test_bad_ruling_id(tmp_path: Path) -> None:
    assert corrupt(tmp_path, "combat", 'ruling = "IT-28"', 'ruling = "IT-2B"') == [
        "inverted-tower/tables/combat.toml: floor_offset.ruling: 'IT-2B' is not a ruling ID of "
        "the form IT-nn",
    ]


def test_unknown_key(tmp_path: Path) -> None:
    assert corrupt(tmp_path, "combat", "fail_damage = 1", "fail_damage = 1\ncrit_damage = 2") == [
        "inverted-tower/tables/combat.toml: crit_damage: unknown key",
    ]


def test_wrong_type(tmp_path: Path) -> None:
    assert corrupt(tmp_path, "floor", "max_rooms = 12", 'max_rooms = "twelve"') == [
        "inverted-tower/tables/floor.toml: max_rooms: expected an integer, got a string 'twelve'",
    ]


def test_missing_file(tmp_path: Path) -> None:
    root = tmp_path / "inverted-tower"
    shutil.copytree(FOLDER, root)
    (root / "tables" / "leveling.toml").unlink()
    with pytest.raises(ContentError) as info:
        load_content(root)
    found = [str(f) for f in info.value.findings]
    assert "inverted-tower/tables/leveling.toml: missing file (expected a tables file of this " \
        "name)" in found


def test_exactly_one_currency(tmp_path: Path) -> None:
    assert corrupt(tmp_path, "items", '{ kind = "currency" }', '{ kind = "heal_to_max" }') == [
        "inverted-tower/tables/items.toml: items: expected exactly one item with a currency "
        "effect, got 0",
    ]
