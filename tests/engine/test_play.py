"""``towerpress play``: one game die by die, the game ``simulate`` plays first for a seed."""

from __future__ import annotations

import json

import pytest

from generator.engine.family import family_of
from generator.model.loader import Content
from generator.rulesets import FAMILIES
from tests.commands import run_here

SEEDS = ("int:1", "int:2", "int:77", "str:tonight")


@pytest.mark.parametrize("ruleset_id", sorted(FAMILIES))
def test_a_played_game_is_the_first_game_simulate_plays(content: Content,
                                                        ruleset_id: str) -> None:
    ruleset = content.ruleset(ruleset_id)
    family = family_of(ruleset)
    for profile in ruleset.profiles.values():
        for seed in SEEDS:
            game = family.play(ruleset.data, profile, seed, family.default_depth)
            (first,) = family.simulate(ruleset.data, profile, 1, seed, family.default_depth,
                                       None)
            assert game.outcome == first, (profile.id, seed)
            assert game.steps, (profile.id, seed)
            assert all(step.text for step in game.steps)


@pytest.mark.parametrize("ruleset_id", sorted(FAMILIES))
def test_play_prints_a_line_a_step_and_the_same_game_as_json(ruleset_id: str) -> None:
    text = run_here("play", ruleset_id, "--seed", "5")
    as_json = run_here("play", ruleset_id, "--seed", "5", "--json")
    assert text.returncode == as_json.returncode == 0, text.stderr + as_json.stderr
    head, *lines, outcome = text.stdout.splitlines()
    assert head.endswith(f"at most {FAMILIES[ruleset_id].default_depth} "
                         f"{FAMILIES[ruleset_id].depth_name}s")
    game = json.loads(as_json.stdout)
    assert (game["ruleset"], game["seed"]) == (ruleset_id, "5")
    assert len(lines) == len(game["steps"])
    for number, (line, step) in enumerate(zip(lines, game["steps"], strict=True), 1):
        assert line.split(None, 1) == [str(number), line.split(None, 1)[1]]
        assert step["text"] in line
        if step["dice"]:
            assert f"[{' '.join(map(str, step['dice']))}]" in line
        if step["ruling"]:
            assert f"({step['ruling']})" in line
    won, death = game["outcome"]["won"], game["outcome"]["death"]
    assert outcome.startswith("Won" if won else "Died" if death else "Stopped")
    assert run_here("play", ruleset_id, "--seed", "5").stdout == text.stdout


def test_play_names_a_bad_ruleset_in_one_line() -> None:
    result = run_here("play", "no-such-ruleset", "--seed", "1")
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1
    assert "no-such-ruleset" in result.stderr
