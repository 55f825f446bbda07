"""Tower of Choices' worked examples for the rulebook's figures (issue 28).

``check``: the first check of the game ``towerpress play --seed`` plays (run 0 of the
seed, :func:`.simulate.run_once`): the same character, the same first obstacle, the same
shuffled pile, the reference player's declaration, and the check resolved by the rules
(:func:`.procedures.resolve_check`), with the reason for each step of its DRAW and TARGET
away from the standard obstacle.
"""

from __future__ import annotations

from collections.abc import Mapping

from generator.engine.examples import CheckExample, ExampleMaker
from generator.engine.rng import normalise_seed, stream
from generator.model.common import Profile
from generator.rulesets.tower_of_choices import policy as pol
from generator.rulesets.tower_of_choices.character import random_character
from generator.rulesets.tower_of_choices.data import TowerOfChoices
from generator.rulesets.tower_of_choices.procedures import (
    check_numbers,
    modifier_applies,
    resolve_check,
)
from generator.rulesets.tower_of_choices.rules import Rules, require_economy, rules_for
from generator.rulesets.tower_of_choices.state import RULESET, RunState, new_run_state
from generator.rulesets.tower_of_choices.trial import Approach, Obstacle, generate_trial

#: Run 0 of a seed is the game ``towerpress play`` logs (simulate.play).
_PLACE = ("run", "0")


def first_check(data: TowerOfChoices, profile: Profile, seed: str) -> CheckExample:
    """The first check of the played game of ``seed`` (as written in the content).

    Raises:
        ValueError: the data's deck economy is not the one the engine plays.
    """
    require_economy(data)
    rules = rules_for(data, profile)
    canonical = normalise_seed(seed)
    character = random_character(rules, stream(canonical, RULESET, *_PLACE,
                                               purpose="character"))
    room = generate_trial(rules, canonical, 1, _PLACE).rooms[0]
    st = new_run_state(rules, character,
                       stream(canonical, RULESET, *_PLACE, purpose="shuffle"))
    obstacle = room.obstacles[0]
    choice = pol.choose_attempt(rules, st, obstacle, pol.Policy())
    approach = obstacle.approach(choice.attempt.skill)
    assert approach is not None  # the policy chooses among the obstacle's approaches
    draw, target = check_numbers(rules, st, obstacle, approach)
    reasons = _reasons(rules, st, obstacle, approach)
    pile = len(st.pile)
    result = resolve_check(rules, st, obstacle, choice.attempt, pol.prefer(st, rules))
    per_card = rules.data.checks.challenge_target_per_card
    return CheckExample(
        seed=seed, obstacle=obstacle.name, pile=pile, skill=approach.skill, draw=draw,
        target=target, reasons=reasons, drawn=result.drawn, challenge=rules.challenge,
        needed=target + per_card * result.challenges, success=result.success,
        committed=choice.attempt.cards)


def _reasons(rules: Rules, st: RunState, obstacle: Obstacle, approach: Approach
             ) -> tuple[str, ...]:
    """Why DRAW and TARGET are what they are, step by step from the standard obstacle, in
    the order :func:`.procedures.check_numbers` adds them: the DM's adjustment, the items
    carried, an item the obstacle names as helping."""
    checks = rules.data.checks
    out = [f"Standard obstacle: DRAW {checks.standard_draw}, TARGET {checks.standard_target}"]
    moved = (approach.draw - checks.standard_draw, approach.target - checks.standard_target)
    if approach.applied:
        out.append(f"{'; '.join(approach.applied)}: {_steps(*moved)}")
    helps = (*obstacle.helps, *approach.helps)
    for name in st.items:
        for m in rules.mods[name][approach.skill]:
            if modifier_applies(rules, helps, name, m):
                out.append(f"{name}: {_steps(m.draw, m.target)}")
    for name in helps:
        if name in st.items and not any(m.condition for m in rules.items[name].modifiers):
            out.append(f"{name} helps here: {_steps(rules.equipment_draw_step, 0)}")
    return tuple(out)


def _steps(draw: int, target: int) -> str:
    """"+1 DRAW", "-1 TARGET", "+1 DRAW, +1 TARGET"."""
    parts = [f"{value:+d} {name}" for value, name in ((draw, "DRAW"), (target, "TARGET"))
             if value]
    return ", ".join(parts) or "no change"


EXAMPLES: Mapping[str, ExampleMaker] = {"check": first_check}
