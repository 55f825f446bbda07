"""The seeded trial of Tower of Choices: determinism, the raw rolls, and the checker."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.rulesets.tower_of_choices.check import INVARIANT, check_trial
from generator.rulesets.tower_of_choices.trial import (
    Approach,
    Roll,
    Trial,
    dm_rows,
    generate_trial,
)
from tests.tower_of_choices.support import PROFILES, data, profile, rules


def make(seed: str = "s", rooms: int = 8, base: str = "as-written") -> Trial:
    return generate_trial(rules(profile(base)), seed, rooms)


def codes(trial: Trial, base: str = "as-written") -> list[str]:
    return sorted({v.code for v in check_trial(rules(profile(base)), trial)})


def test_same_seed_same_trial_and_rooms_do_not_depend_on_depth() -> None:
    assert make("a") == make("a")
    assert make("a") != make("b")
    short, long = make("a", 5), make("a", 12)
    for a, b in zip(short.rooms, long.rooms, strict=False):
        assert (a.obstacles, a.loot, a.rest_cost, a.rolls) == (
            b.obstacles,
            b.loot,
            b.rest_cost,
            b.rolls,
        )
    # Rest spots are placed looking one room ahead, so all but the last agree.
    assert [r.rest_spot for r in short.rooms[:-1]] == [r.rest_spot for r in long.rooms[:4]]
    assert repr(short) == "Trial(seed='a', profile='as-written', place=(), rooms=5)"


def test_generation_refuses_an_empty_trial() -> None:
    with pytest.raises(ValueError, match="a trial needs at least one room, got 0"):
        make(rooms=0)


@settings(max_examples=25, deadline=None)
@given(seed=st.text(min_size=1, max_size=8).filter(str.strip), rooms=st.integers(1, 14))
def test_generated_trials_pass_the_checker(seed: str, rooms: int) -> None:
    for base in PROFILES:
        trial = make(seed, rooms, base)
        assert check_trial(rules(profile(base)), trial) == []
        assert [r.number for r in trial.rooms] == list(range(1, rooms + 1))
        assert not trial.rooms[-1].rest_spot  # the top needs no rest


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**9))
def test_every_approach_is_standard_or_one_dm_adjustment(seed: int) -> None:
    checks = data().checks
    sources = {row.source for row in dm_rows(rules())}
    for room in make(str(seed)).rooms:
        assert 1 <= len(room.obstacles) <= rules().min_deck // checks.standard_draw
        for obstacle in room.obstacles:
            # Issue 24: a few distinct skills, in table order, as the DM names them.
            named = [a.skill for a in obstacle.approaches]
            fewest, most = checks.obstacle_fewest_approaches, checks.obstacle_most_approaches
            assert fewest <= len(named) <= most < len(data().skill_names)
            assert named == [s for s in data().skill_names if s in named]
            for a in obstacle.approaches:
                assert len(a.applied) <= 1 and set(a.applied) <= sources
                assert checks.obstacle_min_target <= a.target <= a.draw
                moved = (a.draw - checks.standard_draw, a.target - checks.standard_target)
                assert moved in {(0, 0), (1, 0), (0, 1), (-1, 0), (0, -1)}
                assert (moved == (0, 0)) == (not a.applied)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**9))
def test_tc20_rest_spots_or_floors_keep_within_the_smallest_deck(seed: int) -> None:
    faithful, floors = make(str(seed), 10), make(str(seed), 10, "gentle")
    assert [r.floor for r in faithful.rooms] == [r.floor for r in floors.rooms]
    assert not any(r.rest_spot for r in floors.rooms)
    ends = [r.number for r in floors.rooms if floors.floor_end(r)]
    assert ends == [r.number for r in faithful.rooms if r.rest_spot]
    spent = 0
    for room in faithful.rooms:
        spent += room.cards_needed
        assert spent <= rules().min_deck
        if room.rest_spot:
            spent = 0


def test_the_rolls_are_recorded_beside_the_results() -> None:
    room = make().rooms[0]
    assert all(isinstance(r, Roll) and 0 <= r.value < r.bound for r in room.rolls)
    count_roll = room.rolls[0]
    assert count_roll.value + 1 == len(room.obstacles)


def _corrupt_room(trial: Trial, index: int, **changes: object) -> Trial:
    rooms = list(trial.rooms)
    rooms[index] = replace(rooms[index], **changes)  # type: ignore[arg-type]
    return replace(trial, rooms=tuple(rooms))


def test_the_checker_reports_each_kind_of_problem() -> None:
    trial = make("corrupt", 8)
    first = trial.rooms[0]
    assert codes(_corrupt_room(trial, 1, name=first.name)) == ["raw-dice", "room-names"]
    assert codes(_corrupt_room(trial, 0, name=" ")) == ["raw-dice", "room-names"]
    assert codes(_corrupt_room(trial, 0, loot="Rope")) == ["raw-dice", "vocabulary"]
    assert codes(_corrupt_room(trial, 0, rest_cost="Cursed")) == ["raw-dice", "vocabulary"]
    bad_roll = (Roll(2, 5), *first.rolls[1:])
    assert codes(_corrupt_room(trial, 0, rolls=bad_roll)) == ["raw-dice"]
    short = first.rolls[:-1]
    assert codes(_corrupt_room(trial, 0, rolls=short)) == ["raw-dice"]
    obstacle = first.obstacles[0]
    hard = replace(obstacle, approaches=(Approach("Grace", 1, 2), Approach("Juggling", 2, 1)))
    assert codes(_corrupt_room(trial, 0, obstacles=(hard,))) == [
        "obstacle-limits", "raw-dice", "vocabulary",
    ]  # fmt: skip
    named = replace(obstacle, name="MELEE ATTACK of the guard", failure="")
    assert codes(_corrupt_room(trial, 0, obstacles=(named,))) == [
        "naming", "outcomes", "raw-dice",
    ]  # fmt: skip
    assert codes(_corrupt_room(trial, 0, obstacles=())) == ["obstacle-limits", "raw-dice"]
    one = replace(obstacle, approaches=obstacle.approaches[:1])
    assert codes(_corrupt_room(trial, 0, obstacles=(one,))) == ["obstacle-limits", "raw-dice"]
    rested = next(i for i, r in enumerate(trial.rooms) if r.rest_spot)
    assert codes(_corrupt_room(trial, rested, rest_spot=False)) == ["endurance", "rests"]


def test_an_obstacle_without_approaches_is_a_finding_not_a_crash() -> None:
    # Issue 24: the rests and endurance checks took min() of the approaches' DRAWs.
    trial = make("corrupt", 8)
    first = trial.rooms[0]
    bare = replace(first.obstacles[0], approaches=())
    found = check_trial(rules(), _corrupt_room(trial, 0, obstacles=(bare, *first.obstacles[1:])))
    limits = [(v.where, v.message) for v in found if v.code == "obstacle-limits"]
    assert limits == [(f"Room 1/{bare.name}", "the obstacle has no approach")]


def test_the_checker_messages_say_where() -> None:
    trial = make("corrupt", 8)
    found = check_trial(rules(profile()), _corrupt_room(trial, 2, loot="Rope"))
    vocab = [v for v in found if v.code == "vocabulary"]
    assert [(v.where, INVARIANT[v.code], v.message) for v in vocab] == [
        ("Room 3", 1, "loot 'Rope' is not in the item catalogue")
    ]


def test_an_energy_drink_on_the_way_satisfies_endurance() -> None:
    trial = make("corrupt", 8)
    rested = next(i for i, r in enumerate(trial.rooms) if r.rest_spot)
    start = max((i + 1 for i, r in enumerate(trial.rooms[:rested]) if r.rest_spot), default=0)
    drink = next(iter(rules().restore_items))
    broken = _corrupt_room(trial, rested, rest_spot=False)
    mended = _corrupt_room(broken, start, loot=drink)
    assert "endurance" not in codes(mended)
