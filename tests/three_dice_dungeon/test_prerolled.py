"""Pre-rolled 3 Dice Dungeon levels (Mode A) and the checker of rulings.md 2.5."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.rulesets.three_dice_dungeon.check import check_dungeon, check_level
from generator.rulesets.three_dice_dungeon.dice import FastRng, stable
from generator.rulesets.three_dice_dungeon.dungeon import (
    Dungeon,
    generate_dungeon,
    has_dragon,
    undead_level,
)
from generator.rulesets.three_dice_dungeon.game import play
from generator.rulesets.three_dice_dungeon.levels import (
    Cell,
    Grid,
    Level,
    generate_level,
    step,
)
from generator.rulesets.three_dice_dungeon.policy import ReferencePolicy
from generator.rulesets.three_dice_dungeon.rules import opposite
from generator.rulesets.three_dice_dungeon.simulate import run_streams
from tests.three_dice_dungeon.support import data, rules

SEEDS = st.one_of(st.integers(min_value=0, max_value=10**9), st.text(min_size=1, max_size=8))
VARIANTS = [
    ("as-written", ()),
    ("d6-scale", ()),
    ("as-written", ("DD-10",)),
    ("as-written", ("DD-11",)),
    ("as-written", ("DD-13",)),
    ("as-written", ("DD-09",)),
    ("as-written", ("DD-15", "DD-16")),
    ("as-written", ("DD-33",)),
    ("as-written", ("DD-35",)),
    ("d6-scale", ("DD-34",)),
    ("balanced", ()),
]


def _seed(value: int | str) -> str:
    return f"int:{value}" if isinstance(value, int) else f"str:{value}"


@settings(max_examples=25, deadline=None)
@given(seed=SEEDS, variant=st.sampled_from(VARIANTS))
def test_generated_dungeons_pass_the_checker(
    seed: int | str, variant: tuple[str, tuple[str, ...]]
) -> None:
    r = rules(*variant)
    dungeon = generate_dungeon(r, _seed(seed), 3)
    assert check_dungeon(r, dungeon) == []


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**63))
def test_exits_are_symmetric_on_the_grid_and_every_cell_is_reachable(seed: int) -> None:
    r = rules()
    level = generate_level(r, FastRng(seed), 1, False, {})
    cells = {c.pos: c for c in level.cells}
    for cell in level.cells:
        for side in cell.exits:
            other = step(cell.pos, side)
            assert level.grid.inside(other)
            assert opposite(side) in cells[other].exits
    seen = {level.start}
    todo = [level.start]
    while todo:
        for nxt in level.neighbours(todo.pop()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    assert seen == set(cells)


def test_same_seed_same_dungeon_and_another_seed_another() -> None:
    r = rules()
    a = generate_dungeon(r, "int:7", 3)
    assert a == generate_dungeon(r, "int:7", 3)
    assert a != generate_dungeon(r, "int:8", 3)


def test_a_level_does_not_depend_on_the_levels_after_it() -> None:
    # Level 1's stream is its own: a longer dungeon has the same first level.
    r = rules()
    assert generate_dungeon(r, "int:3", 2).levels[0] == generate_dungeon(r, "int:3", 4).levels[0]


def test_training_wheels_cover_the_start_and_its_neighbours() -> None:
    r = rules()
    first = r.wheels[1]
    second = r.wheels[2]
    for seed in range(150):
        level = generate_level(r, FastRng(seed), 1, False, {})
        start = level.cell(level.start)
        assert start.monster.die not in first
        for pos in level.neighbours(level.start):
            assert level.cell(pos).monster.die not in second


@pytest.fixture(scope="module")
def dungeons() -> list[Dungeon]:
    """300 three-level dungeons as written."""
    return [generate_dungeon(rules(), f"int:{seed}", 3) for seed in range(300)]


def test_training_wheels_turn_on_the_first_level_only(dungeons: list[Dungeon]) -> None:
    # DD-29: the first and second locations discovered are on the first level; deeper
    # levels roll their monsters as they come, so their starts show every face.
    r = rules()
    wheeled = set(r.wheels[1]) | set(r.wheels[2])
    deeper_starts = []
    for dungeon in dungeons:
        first = dungeon.levels[0]
        assert first.cell(first.start).monster.die not in r.wheels[1]
        for level in dungeon.levels[1:]:
            assert all(len(c.monster.rolls) == 1 for c in level.cells)  # nothing rerolled
            deeper_starts.append(level.cell(level.start).monster.die)
        assert check_dungeon(r, dungeon) == []
    assert wheeled <= set(deeper_starts)


def test_a_training_wheel_reroll_on_a_later_level_is_flagged(dungeons: list[Dungeon]) -> None:
    r = rules()
    level = dungeons[0].levels[1]
    start = level.cells[0]
    assert start.pos == level.start
    rerolled = replace(start.monster, rolls=(r.wheels[1][0], *start.monster.rolls))
    broken = _with_cell(level, 0, replace(start, monster=rerolled))
    assert check_level(r, level) == []
    assert _codes(broken) == {"training-wheels"}


def test_simulated_games_turn_the_wheels_on_the_first_level_only() -> None:
    # The levels a game plays are laid out by the same rule as a booklet's.
    r = rules("d6-scale")
    deeper = 0
    for seed in range(40):
        _, game = play(r, ReferencePolicy(), run_streams(f"int:{seed}", 0), 3)
        for number, state in game.levels.items():
            assert check_level(r, state.level) == []
            if number > 1:
                deeper += 1
                assert all(len(c.monster.rolls) == 1 for c in state.level.cells)
    assert deeper > 0


def test_the_last_level_of_several_is_the_undead_level() -> None:
    assert [undead_level(n, 3) for n in (1, 2, 3)] == [False, False, True]
    assert not undead_level(1, 1)
    r = rules()
    dungeon = generate_dungeon(r, "int:11", 2)
    undead = dungeon.levels[-1]
    assert undead.undead
    names = {c.monster.name for c in undead.cells}
    assert names <= set(data().undead_borrows)
    crypts = [c for c in undead.cells if c.kind == "crypt"]
    assert all(c.artifact_die is not None for c in crypts)  # a crypt acts as a vault


def test_every_dungeon_has_a_dragon() -> None:
    r = rules()
    for seed in range(40):
        dungeon = generate_dungeon(r, f"int:{seed}", 1)
        assert has_dragon(dungeon.levels[0])


def test_the_dd12_fallback_keeps_levels_finishable() -> None:
    r = rules()
    used = 0
    for seed in range(60):
        level = generate_level(r, FastRng(seed), 1, False, {})
        used += sum(len(c.fallback) for c in level.cells)
        assert check_level(r, level) == []
    assert used > 0  # the fallback does happen, and its levels still check


# -- the checker finds what is wrong -------------------------------------------------------


@pytest.fixture(scope="module")
def dungeon() -> Dungeon:
    return generate_dungeon(rules(), "int:5", 3)


def _codes(level: Level) -> set[str]:
    return {v.code for v in check_level(rules(), level)}


def _with_cell(level: Level, index: int, cell: Cell) -> Level:
    cells = list(level.cells)
    cells[index] = cell
    return replace(level, cells=tuple(cells), index={}, links={})


def test_a_one_sided_door_is_asymmetric(dungeon: Dungeon) -> None:
    level = dungeon.levels[0]
    start = level.cells[0]
    assert start.exits
    broken = _with_cell(level, 0, replace(start, exits=start.exits[1:]))
    assert {"exit-asymmetric", "exit-count"} <= _codes(broken)


def test_a_door_off_the_grid_is_found() -> None:
    level = generate_level(rules(), FastRng(4), 1, False, {}, Grid(1, 1, (0, 0)))
    start = level.cells[0]
    broken = _with_cell(level, 0, replace(start, exits=(0,)))
    assert "exit-off-grid" in _codes(broken)


def test_derived_values_must_recompute(dungeon: Dungeon) -> None:
    level = dungeon.levels[0]
    cell = level.cells[1]
    assert "xp-sum" in _codes(_with_cell(level, 1, replace(cell, xp=cell.xp + 1)))
    other_kind = "great-hall" if cell.kind != "great-hall" else "corridor"
    assert "derived" in _codes(_with_cell(level, 1, replace(cell, kind=other_kind)))
    treasure = replace(cell.treasure, item="Nothing at all")
    assert "derived" in _codes(_with_cell(level, 1, replace(cell, treasure=treasure)))
    assert "dice-range" in _codes(_with_cell(level, 1, replace(cell, location_die=7)))


def test_training_wheels_are_checked(dungeon: Dungeon) -> None:
    level = dungeon.levels[0]
    start = level.cells[0]
    monster = replace(start.monster, rolls=(4,))
    assert "training-wheels" in _codes(_with_cell(level, 0, replace(start, monster=monster)))


def test_lists_of_temples_and_descents_are_checked(dungeon: Dungeon) -> None:
    level = dungeon.levels[0]
    plain = next(c for c in level.cells if c.kind == "corridor")
    assert "temple-list" in _codes(replace(level, temples=(*level.temples, plain.pos)))
    assert "descent-list" in _codes(replace(level, descents=(plain.pos,)))


def test_elite_bases_are_checked() -> None:
    r = rules()
    for seed in range(200):
        level = generate_level(r, FastRng(seed), 1, False, {})
        for i, cell in enumerate(level.cells):
            if cell.monster.elite:
                bad = replace(cell.monster, elite_rolls=(6,), base_face=6)
                assert "elite-base" in _codes(_with_cell(level, i, replace(cell, monster=bad)))
                return
    pytest.fail("no elite in 200 levels")


def test_an_unreachable_or_unfinishable_level_is_found(dungeon: Dungeon) -> None:
    level = dungeon.levels[0]
    start = level.cells[0]
    cut = _with_cell(level, 0, replace(start, exits=()))
    codes = _codes(cut)
    assert "unreachable" in codes and "incompletable" in codes


def test_the_dungeon_checks_character_dragon_and_ladder(dungeon: Dungeon) -> None:
    r = rules()
    character = replace(dungeon.character, rejected=((6, 6, 6),))
    bad = replace(dungeon, character=character, ladder=((2, 49),))
    codes = {v.code for v in check_dungeon(r, bad)}
    assert {"character-reroll", "ladder"} <= codes
    no_dragon = []
    for level in dungeon.levels:
        cells = tuple(
            replace(c, monster=replace(c.monster, foe=replace(c.monster.foe, dragon=False)))
            for c in level.cells
        )
        no_dragon.append(replace(level, cells=cells, index={}, links={}))
    codes = {v.code for v in check_dungeon(r, replace(dungeon, levels=tuple(no_dragon)))}
    assert "dragon-missing" in codes


def test_a_substitution_may_not_swap_the_dragons(dungeon: Dungeon) -> None:
    level = replace(dungeon.levels[0], substitution=(("Dragons", "Goblins"),))
    assert "dragon-substituted" in _codes(level)


def test_content_streams_are_stable_for_a_booklet() -> None:
    # The booklet's streams are SplitMix64 streams of (seed, place, purpose).
    a = stable("int:1", "level", 1, "attempt", 0, purpose="content").next()
    b = stable("int:1", "level", 1, "attempt", 0, purpose="combat").next()
    assert a != b
