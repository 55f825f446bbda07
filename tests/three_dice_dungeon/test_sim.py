"""3 Dice Dungeon simulation: determinism, stream independence, location odds, profiles."""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.engine.report import summarise
from generator.rulesets.three_dice_dungeon.dice import FastRng, Tape, TapeExhausted
from generator.rulesets.three_dice_dungeon.dungeon import build_level
from generator.rulesets.three_dice_dungeon.family import FAMILY
from generator.rulesets.three_dice_dungeon.game import play
from generator.rulesets.three_dice_dungeon.levels import (
    generate_level,
    roll_monster,
    roll_treasure,
)
from generator.rulesets.three_dice_dungeon.odds import location_odds
from generator.rulesets.three_dice_dungeon.policy import ReferencePolicy
from generator.rulesets.three_dice_dungeon.simulate import run_streams
from tests.three_dice_dungeon.support import data, profile, rules


def test_the_engine_describes_itself() -> None:
    assert FAMILY.id == "three-dice-dungeon"
    assert FAMILY.depth_name == "level" and FAMILY.has_end and FAMILY.default_depth >= 1
    assert set(FAMILY.odds) == {"hit", "fight", "kill", "location"}


def test_same_seed_same_games() -> None:
    a = list(FAMILY.simulate(data(), profile("d6-scale"), 15, "int:9", 2, None))
    b = list(FAMILY.simulate(data(), profile("d6-scale"), 15, "int:9", 2, None))
    c = list(FAMILY.simulate(data(), profile("d6-scale"), 15, "int:10", 2, None))
    assert a == b and a != c


def test_progress_is_reported() -> None:
    seen: list[int] = []
    list(FAMILY.simulate(data(), profile(), 5, "int:1", 1, seen.append))
    assert seen[-1] == 5


def test_play_does_not_change_the_content() -> None:
    # The level a game plays is the level its content stream alone gives.
    r = rules("d6-scale")
    streams = run_streams("int:3", 0)
    _, game = play(r, ReferencePolicy(), streams, 2)
    fresh = build_level(
        r, lambda n, a: streams("level", n, "attempt", a, purpose="content"), 1, 2, {}, False
    )
    assert game.levels[1].level == fresh


def test_as_written_is_lethal_and_d6_scale_is_not() -> None:
    reports = {}
    for name in ("as-written", "d6-scale"):
        outcomes = FAMILY.simulate(data(), profile(name), 120, "int:1", 2, None)
        reports[name] = summarise(
            outcomes,
            ruleset="three-dice-dungeon",
            profile=name,
            seed="1",
            depth_name="level",
            has_end=True,
        )
    written, scaled = reports["as-written"], reports["d6-scale"]
    assert written.won is not None and scaled.won is not None
    assert written.won < 0.2 < scaled.won
    assert sum(written.deaths.values()) > sum(scaled.deaths.values())


def test_the_balanced_profile_is_far_from_lethal_and_no_walk() -> None:
    # Chosen by simulation: about half clear level 1, and some finish three levels.
    reports = {
        name: summarise(FAMILY.simulate(data(), profile(name), 300, "int:1", 3, None),
                        ruleset="three-dice-dungeon", profile=name, seed="1",
                        depth_name="level", has_end=True)
        for name in ("as-written", "balanced")
    }
    won = {name: report.won or 0.0 for name, report in reports.items()}
    assert won["as-written"] < won["balanced"]
    assert 0.3 < reports["balanced"].survival[1].reached < 0.6
    assert 0.05 < won["balanced"] < 0.3


ALTS = [
    "DD-01",
    "DD-02",
    "DD-04",
    "DD-05",
    "DD-06",
    "DD-08",
    "DD-09",
    "DD-10",
    "DD-11",
    "DD-12",
    "DD-13",
    "DD-15",
    "DD-16",
    "DD-17",
    "DD-18",
    "DD-19",
    "DD-20",
    "DD-21",
    "DD-22",
    "DD-23",
    "DD-25",
    "DD-26",
    "DD-27",
    "DD-31",
    "DD-33",
    "DD-34",
    "DD-35",
]


@settings(max_examples=20, deadline=None)
@given(
    alts=st.lists(st.sampled_from(ALTS), min_size=1, max_size=5, unique=True),
    base=st.sampled_from(["as-written", "d6-scale"]),
    seed=st.integers(min_value=0, max_value=1000),
)
def test_every_reading_plays_to_an_end(alts: list[str], base: str, seed: int) -> None:
    r = rules(base, tuple(sorted(alts)))
    outcome, game = play(r, ReferencePolicy(), run_streams(f"int:{seed}", 0), 2)
    assert 1 <= outcome.depth <= 2
    assert outcome.won or outcome.death is not None or game.stopped
    assert game.hero.hp <= game.hero.max_hp


# -- the location table: exact odds against brute force and Monte Carlo ----------------------


def enumerate_outcomes(roll: object, depth: int) -> tuple[dict[str, Fraction], Fraction]:
    """Every die sequence up to ``depth`` through a roll function; returns the outcome
    probabilities and the mass left unexplored (long reroll chains)."""
    found: dict[str, Fraction] = Counter()  # type: ignore[assignment]
    lost = Fraction(0)

    def walk(prefix: list[int], mass: Fraction) -> None:
        nonlocal lost
        try:
            name = roll(Tape(prefix))  # type: ignore[operator]
        except TapeExhausted:
            if len(prefix) >= depth:
                lost += mass
                return
            for face in range(1, 7):
                walk([*prefix, face], mass / 6)
            return
        found[name] += mass

    walk([], Fraction(1))
    return dict(found), lost


@pytest.mark.parametrize(("undead", "wheel"), [(False, 0), (False, 1), (False, 2), (True, 0)])
def test_location_odds_match_brute_force(undead: bool, wheel: int) -> None:
    r = rules()
    exact = dict(location_odds(r, undead, wheel))
    faces = r.wheels.get(wheel, ())

    def monster(tape: Tape) -> str:
        m = roll_monster(r, tape, undead, faces, {})
        return ("elite " if m.elite else "") + m.name

    found, lost = enumerate_outcomes(monster, 7)
    for name, prob in found.items():
        assert abs(exact[f"monster {name}"] - prob) <= lost
    treasures, lost = enumerate_outcomes(lambda t: roll_treasure(r, t, undead).item, 4)
    assert lost == 0
    for item, prob in treasures.items():
        assert exact[f"treasure {item}"] == prob
    assert sum(p for k, p in exact.items() if k.startswith("location ")) == 1
    assert sum(p for k, p in exact.items() if k.startswith("exits rolled ")) == 1


def test_location_odds_agree_with_generated_levels() -> None:
    r = rules()
    exact = dict(location_odds(r, False, 0))
    xp: list[int] = []
    kinds: Counter[str] = Counter()
    for seed in range(150):
        level = generate_level(r, FastRng(seed), 1, False, {})
        # Squares two doors or more from the start: no training wheels, no selection on dice.
        for cell in level.cells:
            if cell.distance >= 2:
                xp.append(cell.xp)
                kinds[cell.kind] += 1
    n = len(xp)
    mean = sum(xp) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in xp) / (n - 1))
    assert abs(mean - float(exact["mean XP"])) < 4 * sd / math.sqrt(n)
    p = float(exact["location Great hall"])
    assert abs(kinds["great-hall"] / n - p) < 4 * math.sqrt(p * (1 - p) / n)
