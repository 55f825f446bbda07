"""The generic model: every kind of problem is reported with its exact message."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from generator.errors import ContentError, TowerpressError
from generator.model.loader import Content
from generator.rulesets import load_content
from tests.content import RULESETS, edit


def messages(root: Path) -> list[str]:
    with pytest.raises(ContentError) as info:
        load_content(root)
    return [str(f) for f in info.value.findings]


def test_bundled_content_loads(content: Content) -> None:
    assert tuple(content.rulesets) == RULESETS
    for ruleset in content.rulesets.values():
        assert ruleset.tables(), ruleset.id
        assert ruleset.chapters, ruleset.id
        assert ruleset.quick_reference is not None, ruleset.id
        assert "as-written" in ruleset.profiles
        assert len(ruleset.profiles) >= 2


def test_as_written_names_every_ruling_faithfully(content: Content) -> None:
    expected_counts = {"inverted-tower": 34, "three-dice-dungeon": 35, "tower-of-choices": 25}
    for ruleset in content.rulesets.values():
        ids = [r.id for r in ruleset.rulings]
        prefix = ids[0].split("-")[0]
        count = expected_counts[ruleset.id]
        assert ids == [f"{prefix}-{n:02d}" for n in range(1, count + 1)]
        profile = ruleset.profile("as-written")
        assert set(profile.readings) == set(ids)
        assert set(profile.readings.values()) == {"faithful"}


def test_second_profiles_differ_from_as_written(content: Content) -> None:
    for ruleset in content.rulesets.values():
        others = [p for p in ruleset.profiles.values() if p.id != "as-written"]
        assert others
        for profile in others:
            assert any(profile.alt(r.id) for r in ruleset.rulings), profile.id


def test_malformed_toml(content_copy: Path) -> None:
    path = content_copy / "inverted-tower" / "ruleset.toml"
    path.write_text('title = "unterminated\n', encoding="utf-8")
    (found,) = messages(content_copy)
    assert found.startswith("content/inverted-tower/ruleset.toml: malformed TOML: ")


def test_a_broken_tables_file_is_reported_once(content_copy: Path) -> None:
    # Not again as a missing file, nor by every value of the prose that reads it.
    path = content_copy / "inverted-tower" / "tables" / "events.toml"
    path.write_text(path.read_text(encoding="utf-8") + "this is = = broken\n", encoding="utf-8")
    (found,) = messages(content_copy)
    assert found.startswith("content/inverted-tower/tables/events.toml: malformed TOML: ")


def test_wrong_type_missing_and_unknown_keys(content_copy: Path) -> None:
    path = content_copy / "tower-of-choices" / "ruleset.toml"
    text = path.read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if not line.startswith("subtitle")]
    text = "\n".join(lines).replace('language = "en"', 'language = 3\ncolour = "red"')
    path.write_text(text + "\n", encoding="utf-8")
    assert messages(content_copy) == [
        "content/tower-of-choices/ruleset.toml: colour: unknown key",
        "content/tower-of-choices/ruleset.toml: language: expected a string, got an integer 3",
        "content/tower-of-choices/ruleset.toml: subtitle: missing required key (expected a string)",
    ]


def test_unknown_family(content_copy: Path) -> None:
    edit(
        content_copy / "inverted-tower" / "ruleset.toml",
        'family = "inverted-tower"',
        'family = "chess"',
    )
    assert messages(content_copy) == [
        "content/inverted-tower/ruleset.toml: family: 'chess' is not one of "
        "inverted-tower, three-dice-dungeon, tower-of-choices",
    ]


def test_profile_problems(content_copy: Path) -> None:
    path = content_copy / "inverted-tower" / "profiles" / "as-written.toml"
    edit(path, '"IT-05" = "faithful"\n', "")
    edit(path, '"IT-06" = "faithful"', '"IT-06" = "sometimes"')
    edit(path, "[readings]", '[readings]\n"IT-99" = "faithful"')
    assert messages(content_copy) == [
        "content/inverted-tower/profiles/as-written.toml: readings.IT-05: "
        "missing: every ruling ID needs a reading",
        "content/inverted-tower/profiles/as-written.toml: readings.IT-06: "
        'expected "faithful" or "alt", got \'sometimes\'',
        "content/inverted-tower/profiles/as-written.toml: readings.IT-99: "
        "unknown ruling ID 'IT-99' (not in rulings.toml)",
    ]


def test_alt_reading_needs_an_alt(content_copy: Path) -> None:
    # IT-31 (typos) has no Alt reading.
    edit(
        content_copy / "inverted-tower" / "profiles" / "as-written.toml",
        '"IT-31" = "faithful"',
        '"IT-31" = "alt"',
    )
    assert messages(content_copy) == [
        "content/inverted-tower/profiles/as-written.toml: readings.IT-31: "
        'IT-31 has no Alt reading; expected "faithful"',
    ]


def test_default_profile_must_exist(content_copy: Path) -> None:
    edit(
        content_copy / "three-dice-dungeon" / "ruleset.toml",
        'default_profile = "as-written"',
        'default_profile = "easy"',
    )
    assert messages(content_copy) == [
        "content/three-dice-dungeon/ruleset.toml: default_profile: unknown profile 'easy' "
        "(expected one of: as-written, balanced, d6-scale)",
    ]


@pytest.mark.parametrize(
    ("value", "message"),
    [('"six"', "expected an integer, got a string 'six'"), ("1", "1 is below the minimum 2")],
)
def test_a_wrong_die_size_is_one_finding(content_copy: Path, value: str, message: str) -> None:
    # Checked against a made-up size, every roll of every table was reported too (19 lines,
    # the first of them blaming encounters.toml).
    edit(content_copy / "inverted-tower" / "tables" / "rolls.toml", "\nfaces = 6\n",
         f"\nfaces = {value}\n")
    assert messages(content_copy) == [f"content/inverted-tower/tables/rolls.toml: faces: {message}"]


def test_a_broken_rulings_file_is_not_checked_against(content_copy: Path) -> None:
    # A typo in its table name added a "missing ruling" line for each ruling the engine
    # reads, and an "unknown ruling ID" for each citation of the tables.
    edit(content_copy / "three-dice-dungeon" / "rulings.toml", "[[rulings]]", "[[rules]]")
    found = messages(content_copy)
    assert "content/three-dice-dungeon/rulings.toml: rules: unknown key" in found
    assert not [m for m in found if "missing ruling" in m or "tables/" in m], found


def test_a_table_may_cite_only_a_defined_ruling(content_copy: Path) -> None:
    # Passed validate, then failed every card and simulation with an internal KeyError.
    edit(content_copy / "tower-of-choices" / "tables" / "abilities.toml",
         'ruling = "TC-12"', 'ruling = "TC-98"')
    edit(content_copy / "three-dice-dungeon" / "tables" / "artifacts.toml",
         'ruling = "DD-26"', 'ruling = "DD-97"')
    found = messages(content_copy)
    assert found == [
        "content/three-dice-dungeon/tables/artifacts.toml: rows[2].alt.ruling: "
        "unknown ruling ID 'DD-97' (not in rulings.toml)",
        "content/tower-of-choices/tables/abilities.toml: abilities[3].effects[0].ruling: "
        "unknown ruling ID 'TC-98' (not in rulings.toml)",
    ]


def test_a_ruling_the_engine_reads_must_be_defined(content_copy: Path) -> None:
    folder = content_copy / "tower-of-choices"
    rulings = folder / "rulings.toml"
    text = rulings.read_text(encoding="utf-8")
    start = text.index('id = "TC-07"')
    start = text.rindex("[[rulings]]", 0, start)
    end = text.index("[[rulings]]", start + 1)
    rulings.write_text(text[:start] + text[end:], encoding="utf-8")
    for profile in (folder / "profiles").glob("*.toml"):
        edit(profile, '"TC-07" = "faithful"\n', "")
    for prose in [folder / "quick-reference.md", *(folder / "rules").glob("*.md")]:
        text = prose.read_text(encoding="utf-8")
        prose.write_text(text.replace("{{ ruling: TC-07 }}", ""), encoding="utf-8")
    assert messages(content_copy) == [
        "content/tower-of-choices/rulings.toml: rulings: missing ruling TC-07 (the "
        'tower-of-choices engine reads it; expected a [[rulings]] entry with id = "TC-07")',
    ]


def test_prose_directives_must_resolve(content_copy: Path) -> None:
    chapter = sorted((content_copy / "inverted-tower" / "rules").glob("*.md"))[0]
    text = chapter.read_text(encoding="utf-8")
    chapter.write_text(
        text + "\n{{ table: no-such-table }}\n\nSee {{ value: character.nope }} and "
        "{{ ruling: IT-77 }} and {{ dice: 3 }}.\n",
        encoding="utf-8",
    )
    lines = len(text.splitlines())
    found = messages(content_copy)
    shown = f"content/inverted-tower/rules/{chapter.name}"
    assert found[0].startswith(
        f"{shown}: line {lines + 2}: unknown table 'no-such-table' (expected one of: "
    )
    assert found[1:] == [
        f"{shown}: line {lines + 4}: unknown directive 'dice' "
        "(expected one of: table, value, ruling, figure)",
        f"{shown}: line {lines + 4}: unknown ruling ID 'IT-77'",
        f"{shown}: line {lines + 4}: value 'character.nope' does not resolve: "
        "'nope' does not exist",
    ]


def test_ruling_ids_have_the_family_prefix(content_copy: Path) -> None:
    edit(content_copy / "tower-of-choices" / "rulings.toml", 'id = "TC-01"', 'id = "IT-01"')
    found = messages(content_copy)
    assert (
        "content/tower-of-choices/rulings.toml: rulings[0].id: 'IT-01' is not a ruling ID "
        "of the form TC-nn" in found
    )


def test_unknown_tables_file(content_copy: Path) -> None:
    (content_copy / "inverted-tower" / "tables" / "extra.toml").write_text("a = 1\n")
    (found,) = messages(content_copy)
    assert found.startswith("content/inverted-tower/tables/extra.toml: unknown tables file")


def test_all_problems_reported_together(content_copy: Path) -> None:
    edit(content_copy / "inverted-tower" / "ruleset.toml", 'language = "en"', "language = 1")
    edit(content_copy / "tower-of-choices" / "ruleset.toml", 'language = "en"', "language = 2")
    found = messages(content_copy)
    assert len(found) == 2
    assert found[0].startswith("content/inverted-tower/")
    assert found[1].startswith("content/tower-of-choices/")


def test_a_single_ruleset_folder_loads(content_copy: Path) -> None:
    loaded = load_content(content_copy / "tower-of-choices")
    assert list(loaded.rulesets) == ["tower-of-choices"]


def test_a_users_own_ruleset_loads(content_copy: Path, tmp_path: Path) -> None:
    """A new ruleset written in the same format: a renamed, retitled copy."""
    mine = tmp_path / "mine"
    mine.mkdir()
    (content_copy / "inverted-tower").rename(mine / "my-tower")
    edit(mine / "my-tower" / "ruleset.toml", 'title = "The Inverted Tower"', 'title = "My Tower"')
    loaded = load_content(mine)
    ruleset = loaded.ruleset("my-tower")
    assert ruleset.title == "My Tower"
    assert ruleset.info.family == "inverted-tower"


def test_missing_folder_and_empty_folder(tmp_path: Path) -> None:
    with pytest.raises(TowerpressError, match="does not exist"):
        load_content(tmp_path / "nope")
    with pytest.raises(
        TowerpressError, match=r"no ruleset in .* \(expected folders holding a ruleset.toml\)"
    ):
        load_content(tmp_path)


def test_links_out_of_the_content_folder_are_refused(content_copy: Path, tmp_path: Path) -> None:
    # A link inside the content folder must not bring an outside file into a product.
    secret = tmp_path / "secret"
    secret.mkdir()
    (secret / "notes.md").write_text("# Secret\n\nNot for print.\n", encoding="utf-8")
    (secret / "table.toml").write_text("a = 1\n", encoding="utf-8")
    shutil.copytree(content_copy / "tower-of-choices", secret / "tower")
    tc = content_copy / "tower-of-choices"
    (tc / "rules" / "99-leak.md").symlink_to(secret / "notes.md")
    (tc / "tables" / "leak.toml").symlink_to(secret / "table.toml")
    (content_copy / "elsewhere").symlink_to(secret / "tower", target_is_directory=True)
    found = messages(content_copy)
    assert found == [
        f"content/elsewhere: refused: it links to {str(secret / 'tower')!r}, outside the "
        "content folder (expected something inside it)",
        f"content/tower-of-choices/rules/99-leak.md: refused: it links to "
        f"{str(secret / 'notes.md')!r}, outside the content folder (expected something inside "
        "it)",
        f"content/tower-of-choices/tables/leak.toml: refused: it links to "
        f"{str(secret / 'table.toml')!r}, outside the content folder (expected something "
        "inside it)",
    ]
    # A linked folder of a ruleset: not even the names of its files are read.
    (secret / "private-name.toml").write_text("a = 1\n", encoding="utf-8")
    (tc / "decks").rename(tmp_path / "decks")
    (tc / "decks").symlink_to(secret, target_is_directory=True)
    found = messages(content_copy)
    assert (f"content/tower-of-choices/decks: refused: it links to {str(secret)!r}, outside "
            "the content folder (expected something inside it)") in found
    assert not [line for line in found if "private-name" in line]
    (tc / "decks").unlink()
    (tmp_path / "decks").rename(tc / "decks")
    # A link that stays inside the folder is read as the file it leads to.
    for link in (tc / "rules" / "99-leak.md", tc / "tables" / "leak.toml",
                 content_copy / "elsewhere"):
        link.unlink()
    (tc / "rules" / "99-again.md").symlink_to(tc / "rules" / "01-introduction.md")
    assert len(load_content(content_copy).ruleset("tower-of-choices").chapters) > 1


@pytest.mark.parametrize(
    ("file", "old", "new", "expected"),
    [
        # Each of these was accepted, then stalled or crashed the engine or the checks.
        ("inverted-tower/tables/merchant.toml", "price = 5", "price = 0",
         "stock[0].price: 0 is below the minimum 1"),
        ("inverted-tower/tables/combat.toml", "fail_damage = 1", "fail_damage = 0",
         "fail_damage: 0 is below the minimum 1"),
        ("three-dice-dungeon/tables/training_wheels.toml", "reroll = [4, 5]", "reroll = []",
         "locations[0].reroll: expected at least one face"),
        ("three-dice-dungeon/sheets/log.toml", "columns = 10", "columns = 1000000",
         "sections[0].columns: 1000000 is above the maximum 26"),
        ("inverted-tower/tables/bosses.toml", "quantity = 1", "quantity = 1000000000",
         "loot[0].quantity: 1000000000 is above the maximum 9999"),
        # These passed and then ran out of memory, ran for minutes or overflowed recursion.
        ("inverted-tower/tables/floor.toml", "max_rooms = 12", "max_rooms = 9999",
         "max_rooms: 9999 is above the maximum 50"),
        ("three-dice-dungeon/tables/monsters.toml", "hp = 13", "hp = 9999",
         "monsters[0].hp: 9999 is above the maximum 200"),
        ("three-dice-dungeon/tables/combat.toml", "monster_defeated_at = 0",
         "monster_defeated_at = -9999", "monster_defeated_at: -9999 is below the minimum -200"),
        ("three-dice-dungeon/tables/combat.toml", "death_at = 0", "death_at = -9999",
         "death_at: -9999 is below the minimum -200"),
        ("three-dice-dungeon/tables/character.toml", "start_level = 1", "start_level = 1000",
         "start_level: 1000 is above the maximum 30"),
        ("tower-of-choices/tables/character.toml", "cards_per_starting_skill = 2",
         "cards_per_starting_skill = 9999",
         "cards_per_starting_skill: 9999 is above the maximum 6"),
        ("tower-of-choices/tables/character.toml", "carry_limit = 10", "carry_limit = 9999",
         "carry_limit: 9999 is above the maximum 30"),
        # Printed a log of overlapping headers, with exit 0.
        ("inverted-tower/sheets/log.toml", 'label = "Kind", width = 2.2',
         'label = "Kind", width = nan',
         "sections[0].columns[0].width: expected a number above 0 and at most 100, got nan"),
    ],
)
def test_values_that_would_stall_the_engine_are_refused(
    content_copy: Path, file: str, old: str, new: str, expected: str
) -> None:
    edit(content_copy / file, old, new)
    (found,) = messages(content_copy)
    assert found == f"content/{file}: {expected}"


def test_a_folder_that_cannot_be_listed_is_reported(
    content_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Its decks were quietly missing: glob finds nothing in a folder it may not list.
    # (Faked: the tests may run as root, who may list anything.)
    real = os.access
    monkeypatch.setattr("generator.model.reading.os.access", lambda path, mode: real(
        path, mode) and not (Path(path).name in ("decks", "profiles")
                             and Path(path).parent.name == "tower-of-choices"))
    # Once each: not again as a folder with no profiles.
    assert messages(content_copy) == [
        "content/tower-of-choices/decks: cannot be read: permission denied",
        "content/tower-of-choices/profiles: cannot be read: permission denied"]


def test_a_loop_of_links_is_one_line(content_copy: Path) -> None:
    rules = content_copy / "inverted-tower" / "rules"
    (rules / "98-a.md").symlink_to(rules / "99-b.md")
    (rules / "99-b.md").symlink_to(rules / "98-a.md")
    assert messages(content_copy) == [
        "content/inverted-tower/rules/98-a.md: cannot be read: a loop of symbolic links",
        "content/inverted-tower/rules/99-b.md: cannot be read: a loop of symbolic links"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("zz = " + "[" * 5000 + "]" * 5000, "refused: arrays or tables are nested more than"),
        ("x = [1, 2", "malformed TOML: Unclosed array"),
    ],
)
def test_an_unreadable_tables_file_is_the_only_problem(
    content_copy: Path, text: str, message: str
) -> None:
    """Every other file that refers to it used to be blamed too (28 lines, the first of
    them naming bosses.toml), or tomllib's recursion stopped validate as a bug."""
    rolls = content_copy / "inverted-tower" / "tables" / "rolls.toml"
    rolls.write_text(rolls.read_text(encoding="utf-8") + f"\n{text}\n", encoding="utf-8")
    (found,) = messages(content_copy)
    assert found.startswith(f"content/inverted-tower/tables/rolls.toml: {message}")


def test_a_content_folder_that_is_a_loop_of_links(tmp_path: Path) -> None:
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    with pytest.raises(TowerpressError, match="is a loop of symbolic links"):
        load_content(tmp_path / "a")


@pytest.mark.parametrize("text", [
    "Roll {{ foo }} now.", "Roll {{ Value: character.start.max_hp }} now.",
    "Roll {{ value: character.start.max_hp now.", "Roll }} now.",
])
def test_braces_that_are_no_directive_are_reported(content_copy: Path, text: str) -> None:
    """They passed validate and were printed, braces and all."""
    chapter = content_copy / "inverted-tower" / "rules" / "02-character.md"
    lines = chapter.read_text(encoding="utf-8").splitlines()
    chapter.write_text("\n".join([*lines, text]) + "\n", encoding="utf-8")
    (found,) = messages(content_copy)
    assert found.startswith(f"content/inverted-tower/rules/02-character.md: line {len(lines) + 1}"
                            ": 'Roll ")
    assert found.endswith("is not a directive (expected {{ kind: name }} with a kind of table, "
                          "value, ruling, figure)")


def test_a_ruling_may_only_declare_a_known_scope_or_another_rulings_decision(
    content_copy: Path,
) -> None:
    path = content_copy / "inverted-tower" / "rulings.toml"
    edit(path, 'id = "IT-02"\n', 'id = "IT-02"\nscope = "solo"\n')
    edit(path, 'id = "IT-03"\n', 'id = "IT-03"\ndecided_by = "IT-99"\n')
    edit(path, 'id = "IT-05"\n', 'id = "IT-05"\ndecided_by = "IT-31"\n')  # one reading only
    edit(path, 'id = "IT-06"\n', 'id = "IT-06"\nscope = "multiplayer"\ndecided_by = "IT-04"\n')
    edit(path, 'id = "IT-09"\n', 'id = "IT-09"\ndecided_by = "IT-09"\n')
    shown = "content/inverted-tower/rulings.toml"
    assert messages(content_copy) == [
        f"{shown}: rulings[1].scope: 'solo' is not one of multiplayer",
        f"{shown}: rulings[2].decided_by: 'IT-99' is not another ruling ID of this file",
        f"{shown}: rulings[4].decided_by: IT-31 must have two readings that the engine plays",
        f"{shown}: rulings[5].decided_by: a ruling has a scope or is decided by another, "
        "not both",
        f"{shown}: rulings[8].decided_by: 'IT-09' is not another ruling ID of this file",
    ]


def test_a_declared_ruling_loads_with_its_declaration(content_copy: Path) -> None:
    edit(content_copy / "three-dice-dungeon" / "rulings.toml", 'id = "DD-03"\n',
         'id = "DD-03"\nscope = "multiplayer"\n')
    ruling = load_content(content_copy).ruleset("three-dice-dungeon").ruling("DD-03")
    assert (ruling.scope, ruling.decided_by) == ("multiplayer", "")
