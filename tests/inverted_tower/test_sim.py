"""The simulator: the fast path against the reference rules, determinism, the interface."""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.cli.main import cli
from generator.engine.playlog import Step
from generator.engine.rng import normalise_seed, stream
from generator.rulesets.inverted_tower.booklet import BookletDice, generate_floors
from generator.rulesets.inverted_tower.family import FAMILY
from generator.rulesets.inverted_tower.fast import (
    CAUSES,
    fast_supported,
    make_fast_batch,
    make_fast_game,
)
from generator.rulesets.inverted_tower.game import TapeDice, play
from generator.rulesets.inverted_tower.policy import REFERENCE, Policy
from generator.rulesets.inverted_tower.rules import Rules
from generator.rulesets.inverted_tower.simulate import (
    RULESET,
    DiceTape,
    reference_game,
    run_batches,
    simulate,
)
from generator.rulesets.inverted_tower.state import RoomKind
from tests.inverted_tower.support import PROFILES, data, profile, rules

#: Alt readings the fast path flattens (each alone, and some together).
FAST_ALTS: tuple[tuple[str, ...], ...] = (
    ("IT-03",), ("IT-05",), ("IT-08",), ("IT-11",), ("IT-12",), ("IT-13",), ("IT-16",),
    ("IT-18",), ("IT-21",), ("IT-22",), ("IT-24",), ("IT-26",), ("IT-27",), ("IT-28",),
    ("IT-29",), ("IT-32",), ("IT-11", "IT-18", "IT-26"), ("IT-04", "IT-05", "IT-07", "IT-25"),
)
#: Alt readings only the reference path plays.
SLOW_ALTS = (("IT-02",), ("IT-09",), ("IT-10",), ("IT-23",))


def _tape(seed: int, length: int = 6000) -> bytes:
    rng = random.Random(seed)
    return bytes(rng.randint(1, 6) for _ in range(length))


def _agree(r: Rules, seed: int, floors: int) -> None:
    """Same dice, same game: outcome and dice used, fast path and reference rules."""
    t = _tape(seed)
    dice = TapeDice(t)
    want = play(r, REFERENCE, dice, floors).outcome
    depth, cause, rooms, used = make_fast_game(r, REFERENCE, floors)(t, 0)
    got = (depth, cause == 0, CAUSES[cause], rooms, used)
    assert got == (want.depth, want.won, want.death, want.rooms, dice.pos), (r.profile.id, seed)


@pytest.mark.parametrize("profile_id", PROFILES)
def test_fast_path_agrees_with_the_reference_rules(profile_id: str) -> None:
    r = rules(profile_id)
    for seed in range(150):
        _agree(r, seed, 10 if seed % 10 == 0 else 3)


@settings(max_examples=60, deadline=None)
@given(alts=st.sampled_from(FAST_ALTS), base=st.sampled_from(PROFILES),
       seed=st.integers(0, 2**32))
def test_fast_path_agrees_under_other_readings(alts: tuple[str, ...], base: str,
                                               seed: int) -> None:
    r = rules(base, alts)
    assert fast_supported(r, REFERENCE)
    _agree(r, seed, 3)


def test_fast_path_covers_the_shipped_profiles_only_where_it_can() -> None:
    for profile_id in PROFILES:
        assert fast_supported(rules(profile_id), REFERENCE)
    for alts in SLOW_ALTS:
        assert not fast_supported(rules(alts=alts), REFERENCE), alts
    assert not fast_supported(rules(), Policy(trip_checks=0))
    with pytest.raises(ValueError, match="reference simulator"):
        make_fast_game(rules(alts=("IT-23",)), REFERENCE, 3)


@pytest.mark.parametrize("alts", SLOW_ALTS)
def test_other_readings_play_through_the_reference_rules(alts: tuple[str, ...]) -> None:
    r = rules(alts=alts)
    seed = normalise_seed(5)
    got = simulate(data(), profile(alts=alts), 60, seed, 3)
    tape = DiceTape(stream(seed, RULESET, purpose="simulate").next(), r.faces)
    buf = tape.fresh(1 << 20)
    game = reference_game(r, REFERENCE, 3)
    cursor = 0
    for outcome in got:
        want, cursor = game(buf, cursor)
        assert outcome == want


def test_batches_play_the_same_games_as_one_endless_tape() -> None:
    r = rules()
    seed = 99
    outcomes = run_batches(make_fast_batch(r, REFERENCE, 10), DiceTape(seed, r.faces), 3000)
    buf = DiceTape(seed, r.faces).fresh(1 << 21)
    game = make_fast_game(r, REFERENCE, 10)
    cursor = 0
    for outcome in outcomes:
        depth, cause, rooms, cursor = game(buf, cursor)
        assert (outcome.depth, outcome.death, outcome.rooms) == (depth, CAUSES[cause], rooms)


def test_same_seed_same_outcomes_and_prefixes_agree() -> None:
    p = profile()
    first = simulate(data(), p, 3000, normalise_seed(1), 10)
    assert first == simulate(data(), p, 3000, normalise_seed(1), 10)
    assert first[:1000] == simulate(data(), p, 1000, normalise_seed(1), 10)
    assert first != simulate(data(), p, 3000, normalise_seed(2), 10)


def test_engine_interface_and_progress() -> None:
    assert (FAMILY.id, FAMILY.depth_name, FAMILY.has_end, FAMILY.default_depth) == (
        "inverted-tower", "floor", True, 10)
    seen: list[int] = []
    outcomes = list(FAMILY.simulate(data(), profile(), 9000, normalise_seed("x"), 2,
                                    seen.append))
    assert len(outcomes) == 9000 and seen[-1] == 9000 and seen == sorted(seen)
    assert all(1 <= o.depth <= 2 and (o.won == (o.death is None)) for o in outcomes)
    assert {o.death for o in outcomes} <= set(CAUSES)


def test_as_written_is_as_lethal_as_the_rulings_measure() -> None:
    """rulings.md 1.2: about 69-83% of characters die on floor 1 as written."""
    outcomes = simulate(data(), profile(), 20000, normalise_seed(1), 10)
    died_on_1 = sum(1 for o in outcomes if o.depth == 1 and not o.won) / len(outcomes)
    assert 0.65 < died_on_1 < 0.83
    easier = simulate(data(), profile("draft-4.5"), 20000, normalise_seed(1), 10)
    assert sum(o.won for o in easier) > sum(o.won for o in outcomes)


def test_balanced_gives_the_survival_its_description_gives() -> None:
    """Issue 24, point 5: about half the heroes clear floor 1 and 5-15% reach floor 10,
    measured as ``simulate --runs 10000 --seed 1`` does; the description quotes both."""
    p = profile("balanced")
    outcomes = simulate(data(), p, 10000, normalise_seed(1), 10)
    cleared = sum(o.depth >= 2 for o in outcomes) / len(outcomes)
    deep = sum(o.depth >= 10 for o in outcomes) / len(outcomes)
    assert 0.45 <= cleared <= 0.55 and 0.05 <= deep <= 0.15, (cleared, deep)
    assert f"clear floor 1 ({cleared:.0%})" in p.description
    assert f"reaches floor 10 ({deep:.0%})" in p.description


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**9), base=st.sampled_from(PROFILES))
def test_a_booklet_plays_the_rooms_it_prints(seed: int, base: str) -> None:
    r = rules(base)
    floors = generate_floors(r, seed, 3)
    log: list[Step] = []
    result = play(r, REFERENCE, BookletDice(floors), 3, log)
    printed = {(f.floor, room.index): room for f in floors for room in f.rooms}
    played = [step for step in log if step.what == "room"]
    for step in played:
        index = int(step.text.split(":")[0].removeprefix("Room "))
        room = printed[(int(dict(step.state)["floor"]), index)]
        kind = "boss lair" if room.kind is RoomKind.LAIR else room.kind.value
        assert step.dice == room.roll.dice() and kind in step.text.split(";")[0]
    assert len(played) == result.outcome.rooms


def test_cli_simulate_json() -> None:
    out = CliRunner().invoke(cli, ["simulate", "inverted-tower", "--runs", "500", "--seed", "3",
                                   "--json", "--floors", "4"])
    assert out.exit_code == 0, out.output
    report = json.loads(out.stdout)
    assert report["depth_name"] == "floor" and report["runs"] == 500
    assert report["survival"][0]["reached"] == 1.0 and report["won"] is not None
