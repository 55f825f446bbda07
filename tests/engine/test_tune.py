"""``towerpress tune``: the profile's survival, then each playable ruling read the other way."""

from __future__ import annotations

from generator.engine.family import family_of
from generator.engine.report import summarise
from generator.engine.tune import other_reading, playable
from generator.model.loader import Content
from tests.commands import run_here


def test_the_other_reading_changes_that_ruling_only(content: Content) -> None:
    ruleset = content.ruleset("inverted-tower")
    profile = ruleset.profile("as-written")
    ruling = ruleset.ruling("IT-07")
    varied = other_reading(profile, ruling)
    assert varied.reading("IT-07") == "alt"
    assert {k: v for k, v in varied.readings.items() if v != profile.readings[k]} == {
        "IT-07": "alt"}
    assert other_reading(varied, ruling).readings == profile.readings


def test_only_rulings_the_engine_plays_both_ways_are_tried(content: Content) -> None:
    for ruleset in content.rulesets.values():
        tried = playable(ruleset.rulings)
        assert tried, ruleset.id
        assert all(r.alt and not r.scope and not r.decided_by for r in tried)
        left = [r for r in ruleset.rulings if r not in tried]
        assert all(not r.alt or r.scope or r.decided_by for r in left)


def test_tune_prints_the_profile_then_one_row_a_reading(content: Content) -> None:
    result = run_here("tune", "inverted-tower", "--runs", "40", "--floors", "3", "--seed", "9")
    assert result.returncode == 0, result.stderr
    ruleset = content.ruleset("inverted-tower")
    head, columns, first, *rows = result.stdout.splitlines()
    assert "40 games for each" in head and columns.split()[:4] == ["readings", "1", "2", "3"]
    assert [row.split()[:2] for row in rows] == [
        [r.id, other_reading(ruleset.profile(), r).reading(r.id)]
        for r in playable(ruleset.rulings)]
    # The first row is what simulate reports for the profile, with the same seed.
    family = family_of(ruleset)
    report = summarise(
        family.simulate(ruleset.data, ruleset.profile(), 40, "int:9", 3, None),
        ruleset=ruleset.id, profile="as-written", seed="9", depth_name="floor",
        has_end=True)
    cells = [f"{row.reached:.1%}" for row in report.survival]
    assert first.split() == ["the", "profile", *cells, f"{report.won:.1%}"]


def test_tune_refuses_a_bad_seed_in_one_line() -> None:
    result = run_here("tune", "inverted-tower", "--seed", "")
    assert result.returncode == 2
    assert "--seed" in result.stderr and "Traceback" not in result.stderr
