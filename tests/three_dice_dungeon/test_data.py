"""The 3 Dice Dungeon (modified) content loads, matches the seed, and bad data is reported."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from generator.errors import ContentError
from generator.model.loader import Ruleset
from generator.rulesets import load_content
from generator.rulesets.three_dice_dungeon.data import ThreeDiceDungeon
from generator.rulesets.three_dice_dungeon.effects import Dice, EffectKind, Stat
from generator.rulesets.three_dice_dungeon.entities import AbilityKind, Trigger

FOLDER = Path(__file__).resolve().parents[2] / "content" / "three-dice-dungeon"
RULESET = "three-dice-dungeon"


@pytest.fixture(scope="module")
def ruleset() -> Ruleset:
    return load_content(FOLDER).ruleset(RULESET)


@pytest.fixture(scope="module")
def data(ruleset: Ruleset) -> ThreeDiceDungeon:
    assert isinstance(ruleset.data, ThreeDiceDungeon)
    return ruleset.data


# -- the bundled content ----------------------------------------------------------------


def test_loads_with_every_table(ruleset: Ruleset) -> None:
    assert ruleset.info.family == RULESET
    assert ruleset.title == "3 Dice Dungeon (modified)"
    assert sorted(ruleset.tables()) == sorted([
        "attributes", "location-kinds", "main-level", "undead-level", "undead-monsters",
        "treasures", "items-chart", "stones", "artifacts", "xp-ladder", "classes",
        "monster-manual", "elite-monsters", "training-wheels", "roaming-monsters", "d6-scale",
    ])
    assert len(ruleset.chapters) == 12


def test_every_ruling_and_the_profiles(ruleset: Ruleset) -> None:
    ids = [r.id for r in ruleset.rulings]
    assert ids == [f"DD-{n:02d}" for n in range(1, 36)]
    assert sorted(ruleset.profiles) == ["as-written", "balanced", "d6-scale"]
    as_written = ruleset.profile("as-written")
    assert set(as_written.readings) == set(ids)
    assert set(as_written.readings.values()) == {"faithful"}
    d6 = ruleset.profile("d6-scale")
    assert [i for i in ids if d6.alt(i)] == ["DD-28"]
    assert ruleset.profile().id == "as-written"
    # The balanced profile changes only readings the solo engine plays both ways, and its
    # description says so, ruling by ruling.
    balanced = ruleset.profile("balanced")
    taken = [r for r in ruleset.rulings if balanced.alt(r.id)]
    assert len(taken) > 1 and all(r.alt and not r.scope and not r.decided_by for r in taken)
    assert "simulation" in balanced.description
    assert all(r.id in balanced.description for r in taken)


def test_every_ruling_is_marked_in_the_prose(ruleset: Ruleset) -> None:
    prose = "\n".join(c.source for c in ruleset.chapters)
    for ruling in ruleset.rulings:
        assert f"{{{{ ruling: {ruling.id} }}}}" in prose, ruling.id


def test_character_creation(data: ThreeDiceDungeon) -> None:
    ch = data.character
    assert ch.dice == Dice(3, 6)
    assert ch.reroll_if_total_at_most == 10
    assert [a.stat for a in ch.attributes] == [Stat.STR, Stat.DEX, Stat.MIND]  # DD-01
    assert ch.hp_sum_of == (Stat.STR, Stat.DEX, Stat.MIND)  # DD-02
    assert ch.min_hp == 11


def test_locations_and_level_tables(data: ThreeDiceDungeon) -> None:
    kinds = data.location_kinds
    assert str(kinds["corridor"].exits) == "2"  # DD-10 Faithful
    assert str(kinds["corridor"].exits_for(alt=True)) == "1d2"
    assert str(kinds["small-room"].exits) == "1d2"
    assert str(kinds["great-hall"].exits) == "1d3+1"
    assert (kinds["great-hall"].exits.minimum, kinds["great-hall"].exits.maximum) == (2, 4)
    assert kinds["vault"].is_vault and kinds["crypt"].is_vault
    assert kinds["temple"].is_temple and kinds["great-hall"].allows_descent

    main = data.main_level.rows.lookup_table()
    assert [r.monster for r in main[:5]] == ["Goblins", "Orcs", "Ogres", "Giants", "Dragons"]
    assert main[5].elite and main[5].monster == ""
    assert main[0].treasure.gain.chart == "items"
    assert main[5].treasure.gain.item == "Map Fragment"  # DD-15 Faithful
    assert main[5].treasure.gain_for(alt=True).chart == "artifacts"

    undead = data.undead_level.rows.lookup_table()
    assert [r.location for r in undead][3] == "crypt"
    assert undead[0].treasure.gain.item == "Map Fragment"
    assert data.undead_borrows["Lich"] == "Dragons"  # DD-09
    lich = data.monster("Lich")
    assert (lich.name, lich.hp, lich.strength, lich.dexterity, lich.mind) == ("Lich", 24, 9, 9, 13)


def test_items_stones_and_artifacts(data: ThreeDiceDungeon) -> None:
    potion = data.item("Healing Potion")
    assert (potion.effect.kind, potion.effect.amount, potion.single_use) == (
        EffectKind.HEAL, 2, True)
    sword = data.item("Magic Sword")
    assert sword.stacks and sword.effect.stat is Stat.DEX
    assert data.item("Tome of Enlightenment").effect_for(alt=True).kind is EffectKind.RAISE_MAX

    assert data.items.lookup(5).chart == "stones"
    weapon = data.items.lookup(1).item
    assert weapon is not None and weapon.stacks
    soul = data.stones.lookup(4).effect
    assert (soul.kind, soul.floor, soul.xp_loss) == (EffectKind.SOUL_STONE, -5, 5)
    emerald = data.stones.lookup(6)
    assert (emerald.effect.amount, emerald.effect.per, emerald.effect.capacity) == (1, "fight", 15)
    assert emerald.effect_for(alt=True).per == "hit"  # DD-26 Alt
    assert data.stones.lookup(2).name == "Malachite"

    names = [a.name for a in data.artifacts.lookup_table()]
    assert names == ["Jade Idol", "Crystal Pendant", "Boots of Swiftness",
                     "Scroll of Teleportation", "Sleeping Salts", "Shielding Charm"]
    single = {a.name for a in data.artifacts.lookup_table() if a.single_use}
    assert {"Jade Idol", "Crystal Pendant", "Shielding Charm"} <= single  # DD-26


def test_experience_and_classes(ruleset: Ruleset, data: ThreeDiceDungeon) -> None:
    exp = data.experience
    assert [exp.threshold(level) for level in range(2, 12)] == list(range(50, 501, 50))
    assert exp.threshold(12) == 550  # DD-20: the ladder goes on
    assert exp.level_for(149) == 3 and exp.level_for(1000, cap=11) == 11
    ladder = ruleset.tables()["xp-ladder"].rows
    assert ladder[0] == ("2", "50") and ladder[-1] == ("11", "500")

    classes = {c.name: c for c in data.classes}
    assert list(classes) == ["Fighter", "Rogue", "Magi", "Cleric", "Monk"]
    fighter = classes["Fighter"]
    assert (fighter.hp, fighter.strength, fighter.dexterity, fighter.mind) == (18, 2, 1, 3)
    assert [e.amount for e in fighter.power.effects] == [2, 2]
    assert classes["Magi"].power.name == "Spell Fury"
    assert classes["Monk"].power.name == "Fist of Fury"
    assert classes["Cleric"].power.scalable
    assert data.class_level == 2
    assert not data.mind_recovery.sleep_in_dungeon  # DD-27


def test_monster_manual(data: ThreeDiceDungeon) -> None:
    manual = {m.name: m for m in data.monsters}
    assert len(manual) == 11
    goblins = manual["Goblins"]
    assert (goblins.hp, goblins.strength, goblins.dexterity, goblins.mind) == (20, 8, 6, 9)
    assert goblins.loot.coins == 1
    elf = manual["Elf"]
    assert elf.loot.items == ("Malachite",)
    assert (elf.abilities[0].kind, elf.abilities[0].amount, elf.abilities[0].mind_cost) == (
        AbilityKind.REGEN, 3, 2)
    assert elf.abilities[0].trigger is Trigger.ROUND_START  # DD-08
    assert manual["Gnolls"].seed_name == "Knolls"
    assert manual["Centaur"].loot.coins == 2 and manual["Centaur"].loot.items == ("Emerald",)
    trolls = manual["Trolls"]
    assert [(a.kind, a.amount, a.mind_cost) for a in trolls.abilities] == [
        (AbilityKind.REGEN, 3, 1), (AbilityKind.DAMAGE_BONUS, 4, 1)]
    assert not manual["Dragons"].swappable
    assert all(m.swappable for m in data.monsters if m.name != "Dragons")
    assert data.ability_cost == 1


def test_rule_numbers(data: ThreeDiceDungeon) -> None:
    assert (data.combat.crit_hit, data.combat.crit_miss) == (6, 1)
    assert data.combat.bleeding_attack_modifier == -1
    assert data.combat.damage_stat is Stat.STR  # DD-06
    assert data.elite.stat_bonus == 1 and str(data.elite.xp_bonus) == "1d6"
    assert data.elite.reroll_faces == (6,)  # DD-13
    assert [(w.location, w.reroll) for w in data.training_wheels] == [(1, (4, 5)), (2, (5,))]
    roaming = data.exploring.roaming.table
    assert [roaming.lookup(f) for f in range(1, 7)] == ["Goblins", "Orcs", "", "", "", ""]
    assert data.exploring.descent_artifacts_required == 1
    assert data.exploring.teleport_requires_cleared
    assert data.multiplayer.monster_dice_per_player == 1
    scale = data.d6_scale
    assert (scale.hp_per_pip, scale.player_damage, scale.monster_damage) == (1, 1, 1)
    assert scale.alt_armor_per_pip == 1  # DD-34 Alt only
    assert not scale.monster_abilities
    assert [(w.alt_ruling, w.alt_reroll) for w in data.training_wheels] == [
        ("DD-35", (4, 5, 6)), ("DD-35", (5, 6))]
    dragons = data.monster("Dragons").loot
    assert (dragons.label, dragons.items, dragons.alt_ruling) == (
        "Special", ("Map Fragment",), "DD-33")
    assert dragons.alt is not None and (dragons.alt.items, dragons.alt.chart) == ((), "artifacts")


def test_views_are_built_from_the_data(ruleset: Ruleset, data: ThreeDiceDungeon) -> None:
    tables = ruleset.tables()
    manual = tables["monster-manual"]
    assert len(manual.rows) == 11
    assert manual.rows[4][:6] == ("Elf", "22", "4", "7", "10", "Malachite")
    assert "Knolls" in manual.note
    assert tables["main-level"].rows[5] == (
        "6", "Great hall (1d3+1 exits)", "Elite monster (roll again)", "Special: Map Fragment")
    assert tables["undead-monsters"].rows[0] == ("Skeletons", "Goblins", "20", "8", "6", "9")
    assert tables["classes"].rows[0][:6] == ("Fighter", "+18", "+2", "+1", "+3", "Rage")


def test_views_print_dd33_dd34_and_dd35_as_the_profile_reads_them(ruleset: Ruleset) -> None:
    def cells(printed: str | None) -> tuple[str, str, str]:
        tables = ruleset.tables(None if printed is None else ruleset.profile(printed))
        dragons = next(r for r in tables["monster-manual"].rows if r[0] == "Dragons")
        armour = next(r for r in tables["d6-scale"].rows if r[0].startswith("Monster armour"))
        return dragons[5], armour[2], tables["training-wheels"].rows[0][1]

    # A rulebook prints the faithful readings, and the other in the tables' notes.
    assert cells(None) == ("Special (Map Fragment)", "manual Dex", "4 or 5")
    book = ruleset.tables()
    assert "DD-33" in book["monster-manual"].note and "DD-34" in book["d6-scale"].note
    assert "DD-35" in book["training-wheels"].note
    # A card printed for a profile gives that profile's reading, marked with its ruling.
    assert cells("balanced") == ("Special (a roll on the Artifacts table\u00a0(DD-33))",
                                 "the monster die\u00a0(DD-34)", "4, 5 or 6\u00a0(DD-35)")


# -- bad data is reported with its file and key ------------------------------------------


def _corrupt(tmp_path: Path, file: str, old: str, new: str) -> Path:
    folder = tmp_path / RULESET
    shutil.copytree(FOLDER, folder)
    path = folder / "tables" / file
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} is not unique in {file}"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return folder


def _findings(folder: Path) -> list[str]:
    with pytest.raises(ContentError) as info:
        load_content(folder)
    return [str(f) for f in info.value.findings]


def test_coverage_gap_and_overlap(tmp_path: Path) -> None:
    folder = _corrupt(tmp_path, "stones.toml", "roll = 6", "roll = 5")
    assert _findings(folder) == [
        "three-dice-dungeon/tables/stones.toml: rows: faces 6 of the d6 are not covered by any row",
        "three-dice-dungeon/tables/stones.toml: rows[5].roll: face 5 is already covered by rows[4]",
    ]


def test_bad_loot_reference(tmp_path: Path, data: ThreeDiceDungeon) -> None:
    folder = _corrupt(tmp_path, "monsters.toml", 'items = ["Malachite"]', 'items = ["Malicite"]')
    known = ", ".join(sorted(data.all_items()))
    assert _findings(folder) == [
        "three-dice-dungeon/tables/monsters.toml: monsters[4].loot.items[0]: "
        f"unknown item 'Malicite' (expected one of: {known})"
    ]


def test_an_item_name_used_twice_is_reported_where_it_is(tmp_path: Path) -> None:
    # It was reported in items.toml, at the index of a list of every item, wherever it was.
    folder = _corrupt(tmp_path, "artifacts.toml", 'name = "Jade Idol"', 'name = "Ruby"')
    assert _findings(folder) == [
        "three-dice-dungeon/tables/artifacts.toml: rows[0].name: duplicate item name 'Ruby' "
        "(already at three-dice-dungeon/tables/stones.toml rows[2].name)"
    ]


def test_bad_undead_and_roaming_references(tmp_path: Path) -> None:
    folder = _corrupt(tmp_path, "undead_level.toml", 'borrows = "Orcs"', 'borrows = "Kobolds"')
    exploring = folder / "tables" / "exploring.toml"
    exploring.write_text(
        exploring.read_text(encoding="utf-8").replace('"Orcs"', '"Orks"'), encoding="utf-8"
    )
    manual = ("Centaur, Dragons, Elf, Giants, Gnolls, Goblins, Ogres, Orcs, Robber, Snotlings, "
              "Trolls")
    assert _findings(folder) == [
        "three-dice-dungeon/tables/exploring.toml: roaming.rows[1].monster: "
        f"unknown monster 'Orks' (expected one of: {manual})",
        "three-dice-dungeon/tables/undead_level.toml: monsters[1].borrows: "
        f"unknown manual monster 'Kobolds' (expected one of: {manual})",
    ]


def test_bad_effect_kind(tmp_path: Path) -> None:
    folder = _corrupt(tmp_path, "treasures.toml", 'kind = "heal"', 'kind = "heal_up"')
    kinds = ", ".join(k.value for k in EffectKind)
    assert _findings(folder) == [
        "three-dice-dungeon/tables/treasures.toml: treasures[1].effect.kind: "
        f"'heal_up' is not one of {kinds}"
    ]


def test_effect_fields_follow_the_kind(tmp_path: Path) -> None:
    folder = _corrupt(
        tmp_path, "artifacts.toml",
        'effect = { kind = "attack_bonus", amount = 2 }',
        'effect = { kind = "attack_bonus", stat = "Dex" }',
    )
    assert _findings(folder) == [
        "three-dice-dungeon/tables/artifacts.toml: rows[0].effect.amount: "
        "missing required key (expected an integer)",
        "three-dice-dungeon/tables/artifacts.toml: rows[0].effect.stat: unknown key",
    ]


def test_unknown_key(tmp_path: Path) -> None:
    folder = _corrupt(tmp_path, "classes.toml", 'name = "Rogue"', 'name = "Rogue"\ncolour = "red"')
    assert _findings(folder) == [
        "three-dice-dungeon/tables/classes.toml: classes[1].colour: unknown key"
    ]


def test_too_many_exits(tmp_path: Path) -> None:
    folder = _corrupt(
        tmp_path, "locations.toml",
        "exits = { count = 1, faces = 3, plus = 1 }", "exits = { count = 1, faces = 3, plus = 2 }",
    )
    assert _findings(folder) == [
        "three-dice-dungeon/tables/locations.toml: kinds.great-hall.exits: "
        "1d3+2 can give 5 exits; a location has only 4 sides"
    ]


def test_level_without_a_vault(tmp_path: Path) -> None:
    folder = _corrupt(tmp_path, "main_level.toml", 'location = "vault"', 'location = "large-room"')
    assert _findings(folder) == [
        "three-dice-dungeon/tables/main_level.toml: rows: "
        "no location on this table is a vault, so no artifact can be found"
    ]


def test_endless_reroll(tmp_path: Path) -> None:
    folder = _corrupt(tmp_path, "training_wheels.toml", "reroll = [4, 5]",
                      "reroll = [1, 2, 3, 4, 5, 6]")
    assert _findings(folder) == [
        "three-dice-dungeon/tables/training_wheels.toml: locations[0].reroll: "
        "rerolling every face would never end"
    ]
