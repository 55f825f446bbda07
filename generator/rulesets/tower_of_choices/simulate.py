"""Many seeded runs of the reference player (design.md sections 4 and 5).

Run ``i`` of seed ``s`` draws from independent streams of (s, ruleset, "run", i, purpose):
``character`` builds a random legal character, ``content`` (per room) builds the trial and
``shuffle`` drives every shuffle and INDEFATIGABLE pick.  So the same seed gives the same
outcomes, and the play of one room never changes the content of the next; :func:`play` is
run 0, logged.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from generator.engine.family import Progress
from generator.engine.playlog import Log, PlayedGame, Step
from generator.engine.report import RunOutcome
from generator.engine.rng import stream
from generator.model.common import Profile
from generator.rulesets.tower_of_choices import narrate
from generator.rulesets.tower_of_choices.character import random_character
from generator.rulesets.tower_of_choices.data import TowerOfChoices
from generator.rulesets.tower_of_choices.game import play_trial
from generator.rulesets.tower_of_choices.logbook import Tape
from generator.rulesets.tower_of_choices.policy import Policy
from generator.rulesets.tower_of_choices.rules import Rules, require_economy, rules_for
from generator.rulesets.tower_of_choices.state import RULESET, starting_deck
from generator.rulesets.tower_of_choices.trial import Trial, generate_trial, place_rests

PROGRESS_EVERY = 2000


def run_once(
    rules: Rules, seed: str, run: int, depth: int, policy: Policy, log: Log = None
) -> RunOutcome:
    """Run number ``run`` of ``seed``: a random legal character climbs a fresh trial.

    ``log``, when given, gets every step of the game (:func:`play`); the same streams are
    drawn either way, so the outcome is the same.
    """
    place = ("run", str(run))
    built = stream(seed, RULESET, *place, purpose="character")
    tape = Tape(built) if log is not None else None
    character = random_character(rules, tape or built)
    if log is not None and tape is not None:
        log.append(narrate.character(rules, character, starting_deck(rules, character),
                                     tape.take()))
    trial = generate_trial(rules, seed, depth, place)
    outcome, _ = play_trial(
        rules, trial, character, stream(seed, RULESET, *place, purpose="shuffle"), policy,
        log=log,
    )
    return outcome


def play(data: object, profile: Profile, seed: str, depth: int) -> PlayedGame:
    """The ``Family.play`` of Tower of Choices: run 0 of :func:`simulate` for ``seed``,
    with every step logged.

    Raises:
        TypeError, ValueError: as :func:`simulate`.
    """
    rules = _rules(data, profile)
    steps: list[Step] = []
    outcome = run_once(rules, seed, 0, depth, Policy(), steps)
    return PlayedGame(outcome, tuple(steps))


def _rules(data: object, profile: Profile) -> Rules:
    if not isinstance(data, TowerOfChoices):
        raise TypeError(f"expected Tower of Choices data, got {type(data).__name__}")
    require_economy(data)
    return rules_for(data, profile)


def simulate(
    data: object,
    profile: Profile,
    runs: int,
    seed: str,
    depth: int,
    progress: Progress | None = None,
) -> Iterator[RunOutcome]:
    """The ``Engine.simulate`` of Tower of Choices: ``runs`` outcomes for ``seed``.

    Raises:
        TypeError: ``data`` is not Tower of Choices data.
        ValueError: its deck economy is not the one the engine plays
            (:func:`.rules.require_economy`).
    """
    rules = _rules(data, profile)
    policy = Policy()
    for run in range(runs):
        yield run_once(rules, seed, run, depth, policy)
        if progress is not None and (run + 1) % PROGRESS_EVERY == 0:
            progress(run + 1)
    if progress is not None:
        progress(runs)


def booklet_odds(data: object, profile: Profile, trial: Trial, runs: range, seed: str
                 ) -> Iterator[RunOutcome]:
    """The ``Family.booklet_odds`` of Tower of Choices: ``runs`` plays of a booklet's
    ``trial`` by the reference player, each a random legal character (as :func:`simulate`)
    with its shuffles from the stream of (seed, ruleset, run, "odds"), not the tapes.

    The rooms and their obstacles are the booklet's; the rests are where ``profile`` puts
    them (TC-20: rest spots, or floor ends under Alt), so that a booklet made under one
    profile can be played under another (its odds as written).

    Raises:
        TypeError, ValueError: as :func:`simulate`.
    """
    rules = _rules(data, profile)
    trial = replace(trial, profile=profile.id, rooms=tuple(place_rests(rules, list(trial.rooms))))
    policy = Policy()
    for run in runs:
        rng = stream(seed, RULESET, run, purpose="odds")
        character = random_character(rules, rng)
        yield play_trial(rules, trial, character, rng, policy)[0]
