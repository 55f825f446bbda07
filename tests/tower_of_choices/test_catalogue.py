"""The obstacle catalogue of the booklets (tables/catalogue.toml): what it holds, and the
exact line the loader gives for each way it can be wrong (issue 25)."""

from __future__ import annotations

import shutil
from collections import Counter
from fractions import Fraction
from itertools import combinations
from pathlib import Path

import pytest

from generator.errors import ContentError
from generator.model.loader import BUNDLED_CONTENT
from generator.rulesets import load_content
from generator.rulesets.tower_of_choices.procedures import check_numbers
from generator.rulesets.tower_of_choices.read import (
    MIN_BEST_PER_SKILL,
    MIN_OBSTACLES,
    MIN_ROOMS,
    best_approach,
    chance,
)
from generator.rulesets.tower_of_choices.trial import catalogue_obstacle
from tests.tower_of_choices.support import data, rules, state

FOLDER = BUNDLED_CONTENT / "tower-of-choices"
CATALOGUE = "tower-of-choices/tables/catalogue.toml"
SKILLS = ", ".join(sorted(s.name for s in data().skills))
ITEMS = ", ".join(sorted(i.name for i in data().items))
AUTOMATON = '''    { skill = "Melee offense", draw = 3, target = 1 },
    { skill = "Defense", draw = 2, target = 1 },'''  # obstacles[0], approaches 0 and 1


# -- what the bundled catalogue holds ------------------------------------------------------


def test_the_catalogue_holds_what_the_issue_asks() -> None:
    catalogue, checks = data().catalogue, data().checks
    assert len(catalogue.obstacles) >= MIN_OBSTACLES == 36
    assert len(catalogue.rooms) >= MIN_ROOMS == 16
    assert catalogue.rest_spots and catalogue.loot
    best = Counter(best_approach(o, data().character)[0].skill for o in catalogue.obstacles)
    assert set(best) == set(data().skill_names)
    assert min(best.values()) >= MIN_BEST_PER_SKILL == 3
    setbacks = {s.name for s in data().setbacks}
    for obstacle in catalogue.obstacles:
        assert 2 == checks.obstacle_fewest_approaches <= len(obstacle.approaches) <= 4
        assert all(1 <= a.target <= a.draw for a in obstacle.approaches)
        assert len(best_approach(obstacle, data().character)) == 1
        assert obstacle.setback in setbacks and obstacle.text and obstacle.success
        assert obstacle.failure
    names = [p.name for p in catalogue.rooms]
    assert len(set(names)) == len(names) and catalogue.top.name not in names
    assert all(p.text for p in (*catalogue.rooms, *catalogue.rest_spots))


def test_every_setback_is_a_failure_of_several_obstacles() -> None:
    counts = Counter(o.setback for o in data().catalogue.obstacles)
    assert set(counts) == {s.name for s in data().setbacks}
    assert min(counts.values()) >= 5  # a trial meets each kind of setback


@pytest.mark.parametrize("draw", range(1, 7))
def test_the_chance_that_ranks_approaches_counts_every_hand(draw: int) -> None:
    """The exact hypergeometric chance against an enumeration of every hand of a deck of
    six cards, two of them the approach's skill (rulings.md 3.2)."""
    deck = ["S", "S", "a", "b", "c", "d"]
    hands = list(combinations(range(6), draw))
    for target in range(4):
        hits = sum(1 for hand in hands if sum(deck[i] == "S" for i in hand) >= target)
        assert chance(6, 2, draw, target) == Fraction(hits, len(hands))
    assert chance(6, 2, 2, 1) == Fraction(3, 5)  # rulings.md 3.2: the standard obstacle


def test_what_the_catalogue_says_an_item_adds_is_what_the_engine_plays() -> None:
    """Two formulations agree: each helping item's (DRAW, TARGET) change as the booklet
    prints it (Item.help_for) and the engine's check_numbers for a character carrying only
    that item (a weapon's own modifier aside, which helps every check of its skill)."""
    r = rules()
    seen = 0
    for entry in data().catalogue.obstacles:
        obstacle = catalogue_obstacle(r, entry)
        for approach in obstacle.approaches:
            for item, (draw, target) in zip(approach.helps, approach.help_steps, strict=True):
                own = [m for m in r.items[item].modifiers if m.skill == approach.skill
                       and not m.condition]
                assert not own  # the loader refuses an item named where it counts twice
                st = state([], items=[item])
                assert check_numbers(r, st, obstacle, approach) == (
                    approach.draw + draw, max(approach.target + target, r.target_floor))
                seen += 1
    assert seen >= 25


# -- validation: corrupt a copy and read the exact findings -----------------------------


def _findings(tmp_path: Path, old: str, new: str, *, cut: bool = False) -> list[str]:
    """The findings of a copy of the content whose catalogue has ``old`` replaced by
    ``new`` (or, with ``cut``, everything from ``old`` on)."""
    folder = tmp_path / "tower-of-choices"
    shutil.copytree(FOLDER, folder)
    path = folder / "tables" / "catalogue.toml"
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    text = text[: text.index(old)] + new if cut else text.replace(old, new, 1)
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ContentError) as caught:
        load_content(folder)
    return [str(f) for f in caught.value.findings]


def test_a_target_above_draw(tmp_path: Path) -> None:
    found = _findings(tmp_path, AUTOMATON, AUTOMATON.replace("draw = 3, target = 1",
                                                             "draw = 3, target = 4"))
    assert found == [
        f"{CATALOGUE}: obstacles: Melee offense is the best approach of 2 obstacles, "
        "expected at least 3",
        f"{CATALOGUE}: obstacles[0].approaches[0].target: 4 is above draw 3 "
        "(expected TARGET at most DRAW)",
    ]


def test_a_draw_below_the_limit(tmp_path: Path) -> None:
    found = _findings(tmp_path, AUTOMATON, AUTOMATON.replace("draw = 2, target = 1",
                                                             "draw = 0, target = 1"))
    assert found == [f"{CATALOGUE}: obstacles[0].approaches[1].draw: 0 is below the minimum 1"]


def test_an_unknown_skill(tmp_path: Path) -> None:
    found = _findings(tmp_path, AUTOMATON, AUTOMATON.replace('"Defense"', '"Fencing"'))
    assert found == [
        f"{CATALOGUE}: obstacles[0].approaches[1].skill: unknown skill 'Fencing' "
        f"(expected one of: {SKILLS})"
    ]


def test_an_unknown_item(tmp_path: Path) -> None:
    found = _findings(tmp_path, 'items = ["Climbing supplies"] }', 'items = ["Rope"] }')
    assert found == [
        f"{CATALOGUE}: obstacles[4].approaches[1].items[0]: unknown item 'Rope' "
        f"(expected one of: {ITEMS})"
    ]


def test_an_item_that_adds_nothing_where_it_is_named(tmp_path: Path) -> None:
    """A weapon already helps every Melee offense check; the reference book helps only
    Knowledge (TC-17)."""
    found = _findings(tmp_path, AUTOMATON, AUTOMATON.replace(
        "draw = 3, target = 1 }", 'draw = 3, target = 1, items = ["Weapon: staff or axe"] }'
    ).replace("draw = 2, target = 1 }", 'draw = 2, target = 1, items = ["Reference book"] }'))
    why = "its own modifiers already help every such check, or help another skill"
    assert found == [
        f"{CATALOGUE}: obstacles[0].approaches[0].items[0]: 'Weapon: staff or axe' adds "
        f"nothing to a Melee offense approach named here: {why}",
        f"{CATALOGUE}: obstacles[0].approaches[1].items[0]: 'Reference book' adds nothing to "
        f"a Defense approach named here: {why}",
    ]


def test_two_approaches_tie_for_the_best(tmp_path: Path) -> None:
    found = _findings(tmp_path, AUTOMATON, AUTOMATON.replace("draw = 2, target = 1",
                                                             "draw = 3, target = 1"))
    assert found == [
        f"{CATALOGUE}: obstacles: Melee offense is the best approach of 2 obstacles, "
        "expected at least 3",
        f"{CATALOGUE}: obstacles[0].approaches: Melee offense and Defense tie for the best "
        "approach (expected one likeliest to succeed)",
    ]


def test_too_many_approaches(tmp_path: Path) -> None:
    hound = '    { skill = "Luck", draw = 1, target = 1 },\n]'
    found = _findings(tmp_path, hound,
                      hound.replace("\n]", '\n    { skill = "Grace", draw = 1, target = 1 },\n]'))
    assert found == [f"{CATALOGUE}: obstacles[1].approaches: expected at most 4 entries, got 5"]


def test_an_unknown_setback(tmp_path: Path) -> None:
    found = _findings(tmp_path, 'setback = "Drained"', 'setback = "Bruised"')
    assert found == [
        f"{CATALOGUE}: obstacles[0].setback: unknown setback 'Bruised' (expected one of: "
        "Drained, Hindered, Lose an item, Lose the reward)"
    ]


def test_a_misspelt_key(tmp_path: Path) -> None:
    found = _findings(tmp_path, "success = ", "succes = ")
    assert found == [
        f"{CATALOGUE}: obstacles[0].succes: unknown key",
        f"{CATALOGUE}: obstacles[0].success: missing required key (expected a string)",
    ]


def test_too_few_obstacles_and_skills_left_without_three(tmp_path: Path) -> None:
    found = _findings(tmp_path, "# -- obstacles: Crafting", "", cut=True)
    assert found == [
        f"{CATALOGUE}: obstacles: Crafting is the best approach of 0 obstacles, expected at "
        "least 3",
        f"{CATALOGUE}: obstacles: Spellcraft is the best approach of 0 obstacles, expected at "
        "least 3",
        f"{CATALOGUE}: obstacles: expected at least 36 entries, got 34",
    ]


def test_rooms_named_twice_or_like_the_top(tmp_path: Path) -> None:
    found = _findings(tmp_path, 'name = "The Lantern Stair"', 'name = "The Crown"')
    assert found == [f"{CATALOGUE}: rooms[1].name: 'The Crown' is the name of the top room"]
    found = _findings(tmp_path / "again", 'name = "The Lantern Stair"',
                      'name = "The Antechamber of Names"')
    assert found == [f"{CATALOGUE}: rooms[1]: duplicate room 'The Antechamber of Names'"]


def test_too_few_rooms(tmp_path: Path) -> None:
    found = _findings(tmp_path, "[[rooms]]\nname = \"The Orrery\"", "", cut=True)
    # Cut from the fifth room on: the rest of the file (rest spots, loot, obstacles) too.
    assert f"{CATALOGUE}: rooms: expected at least 16 entries, got 4" in found


def test_loot_that_is_not_an_item(tmp_path: Path) -> None:
    found = _findings(tmp_path, 'item = "Notebook"', 'item = "Quill"')
    assert found == [
        f"{CATALOGUE}: loot[9].item: unknown item 'Quill' (expected one of: {ITEMS})"
    ]
