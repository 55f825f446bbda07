"""``towerpress play``: one game by the reference player, die by die."""

from __future__ import annotations

import json
from pathlib import Path

import click

from generator.cli.options import (
    SEED_HELP,
    canonical_seed,
    content_option,
    engine_for,
    floors_option,
    profile_option,
)
from generator.engine.playlog import PlayedGame, StateValue, Step
from generator.engine.report import RunOutcome


@click.command()
@click.argument("ruleset_id", metavar="RULESET")
@click.option("--seed", required=True, help=SEED_HELP)
@profile_option
@floors_option("the game goes down at most")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object on stdout.")
@content_option
def play(
    ruleset_id: str,
    seed: str,
    profile_id: str | None,
    depth: int | None,
    as_json: bool,
    content_dir: Path | None,
) -> None:
    """Play one game with the reference player and print every die and decision: the
    first game of `simulate --runs 1` with the same seed."""
    canonical = canonical_seed(seed)
    ruleset, profile, family = engine_for(ruleset_id, content_dir, profile_id)
    depth = depth or family.default_depth
    game = family.play(ruleset.data, profile, canonical, depth)
    if as_json:
        head = {"ruleset": ruleset.id, "profile": profile.id, "seed": seed, "depth": depth}
        click.echo(json.dumps({**head, **game.to_json()}))
        return
    click.echo(f"{ruleset.title}, profile {profile.id}, seed {seed}: one game, "
               f"at most {depth} {family.depth_name}s")
    _echo_game(game, family.depth_name)


def _echo_game(game: PlayedGame, depth_name: str) -> None:
    width = len(str(len(game.steps)))
    before: tuple[tuple[str, StateValue], ...] = ()
    for number, step in enumerate(game.steps, 1):
        click.echo(f"{number:>{width}}  {step_line(step, before)}")
        before = step.state or before
    click.echo(outcome_line(game.outcome, depth_name))


def step_line(step: Step, before: tuple[tuple[str, StateValue], ...] = ()) -> str:
    """A step as one line: what happened, [the dice], (the ruling), | what of the state
    changed since ``before`` (all of it on the first line; the JSON has it all on each)."""
    parts = [step.text]
    if step.dice:
        parts.append(f"[{' '.join(map(str, step.dice))}]")
    if step.ruling:
        parts.append(f"({step.ruling})")
    changed = [(name, value) for name, value in step.state if (name, value) not in before]
    if changed:
        parts.append("| " + ", ".join(f"{name} {value}" for name, value in changed))
    return "  ".join(parts)


def outcome_line(outcome: RunOutcome, depth_name: str) -> str:
    where = f"{depth_name} {outcome.depth}, after {outcome.rooms} rooms"
    if outcome.won:
        return f"Won: reached {where}."
    if outcome.death is not None:
        return f"Died on {where}: {outcome.death}."
    return f"Stopped on {where}."
