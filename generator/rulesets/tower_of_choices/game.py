"""Playing one trial with the reference player (TC-19, TC-20, TC-21).

The loop, room by room:

1. Outside each obstacle, the player may drink, or rest anywhere at the room's rest cost
   (TC-21 Alt).
2. An obstacle blocks the way until a check against it succeeds.  A failure costs the
   obstacle's setback (TC-18; under TC-18 Alt also wounds) and the player tries again.
   An *exchange* is one check, or up to two Melee offense checks with WHIRLWIND (TC-19);
   a failed exchange costs one setback.  INDEFATIGABLE refreshes a card after each check
   (TC-11).  A Ranged offense success by QUICK DRAW fells one more obstacle of the room per
   surplus card (TC-19: the generic obstacles stand for enemies).
3. After the obstacles: the room's loot (unless its reward was lost), then a rest at its
   rest spot (TC-20 Faithful; also lost with the reward) or at a floor end (TC-20 Alt).

The run is lost ("exhausted") when the character is exhausted with no drink and no way out
(TC-03 Faithful; INDEFATIGABLE is a way out when it refreshes after failures), when
exhaustion ends the trial (TC-03 Alt), or when no future check against the obstacle could
succeed; under TC-18 Alt it can also end in "wounds".  Reaching the top and passing its
obstacles wins.
"""

from __future__ import annotations

from collections.abc import Callable

from generator.engine.report import RunOutcome
from generator.engine.rng import Rng
from generator.rulesets.tower_of_choices import policy as pol
from generator.rulesets.tower_of_choices.entities import AbilityKind, SetbackKind
from generator.rulesets.tower_of_choices.procedures import (
    actions_per_exchange,
    apply_setback,
    can_take,
    check_numbers,
    drink,
    exhausted,
    extra_fells,
    refresh,
    resolve_check,
    rest,
    wound,
)
from generator.rulesets.tower_of_choices.rules import Rules
from generator.rulesets.tower_of_choices.state import (
    Character,
    RunState,
    count,
    new_run_state,
)
from generator.rulesets.tower_of_choices.trial import Obstacle, Room, Trial

EXHAUSTED = "exhausted"
WOUNDS = "wounds"

#: Called after every check, setback and rest (for invariant tests), if given.
OnStep = Callable[[RunState], None] | None

# An engine safety valve, not a rule: a run that takes this many checks is a bug.
_STALL_GUARD = 100_000


class _Lost(Exception):
    """The trial is lost; ``cause`` is the death cause of the report."""

    def __init__(self, cause: str):
        super().__init__(cause)
        self.cause = cause


def _rests_ahead(rules: Rules, trial: Trial, room: Room) -> int:
    """Rests still to come after ``room`` (for the challenge-card choice)."""
    later = trial.rooms[room.number :]
    if rules.rest_anywhere and later:
        return len(later)
    return sum(1 for r in later if r.rest_spot or trial.floor_end(r))


def _hopeless(rules: Rules, st: RunState, obstacle: Obstacle) -> bool:
    """True when no later check against ``obstacle`` can succeed (INDEFATIGABLE's loop).

    With INDEFATIGABLE refreshing after failures, the pile grows only by failures that draw
    nothing, and not at all when the obstacle's Drained setback takes back each card; a check
    never sees more cards than the pile can reach, nor more than its DRAW (and
    DETERMINATION's burn).  An approach is hopeless when its TARGET (with the obstacle's own
    Hindered setback, which every retry carries) exceeds that, or the deck lacks the matching
    cards, or (TC-02 Alt) the pile can never reach its DRAW.
    """
    setback = rules.setbacks[obstacle.failure]
    retry = setback.amount if setback.kind == SetbackKind.TARGET_UP else 0
    burn = rules.ability_effect(st.character.ability, AbilityKind.BURN_TOP_CARD_FOR_EXTRA_DRAW)
    deck = st.pile + st.discard
    refresh = rules.ability_effect(st.character.ability, AbilityKind.REFRESH_RANDOM_CARD)
    drain = setback.amount if setback.kind == SetbackKind.DRAIN else 0
    # A failure that draws nothing brings a card back: the pile can grow to the whole deck,
    # unless the obstacle's Drained setback takes as many (a drink restores all at once).
    grows = refresh is not None and refresh.amount > min(drain, len(st.pile))
    reach = len(deck) if grows or pol.drink_item(rules, st) else max(len(st.pile), 1)
    saved = st.hindered
    st.hindered = retry
    try:
        for approach in obstacle.approaches:
            draw, target = check_numbers(rules, st, obstacle, approach)
            if rules.full_draw_needed and reach < draw:
                continue  # TC-02 Alt: the pile never reaches DRAW again
            if target <= 0:
                return False
            visible = min(reach, draw + (burn.amount if burn else 0))
            have = count(deck, approach.skill)
            if target <= min(visible, have):
                return False
            checks = rules.data.checks
            if rules.wild_cards and approach.skill != checks.wild_skill:
                wild = have + count(deck, checks.wild_skill)
                if target + checks.wild_target_increase <= min(visible, wild):
                    return False  # TC-06 Alt: wild cards at the higher TARGET
        return True
    finally:
        st.hindered = saved


def _fail(rules: Rules, st: RunState, obstacle: Obstacle) -> bool:
    """A failed exchange: the setback (TC-18) and, under TC-18 Alt, wounds.  Returns True
    when the room's reward is lost."""
    lost = apply_setback(
        rules, st, obstacle.failure, lambda items: pol.choose_loss(rules, st, items)
    )
    if wound(rules, st):
        raise _Lost(WOUNDS)
    return lost


def _pass_obstacle(
    rules: Rules,
    st: RunState,
    obstacle: Obstacle,
    rng: Rng,
    policy: pol.Policy,
    on_step: OnStep,
) -> tuple[bool, int]:
    """Attempt ``obstacle`` until it is beaten.  Returns (reward lost, extra fells)."""
    refreshing = rules.ability_effect(st.character.ability, AbilityKind.REFRESH_RANDOM_CARD)
    rescues = refreshing is not None and not rules.refresh_on_success_only
    reward_lost = False
    while True:
        if pol.wants_drink(rules, st, obstacle, policy):
            item = pol.drink_item(rules, st)
            assert item is not None
            drink(rules, st, item, rng)
        choice = pol.choose_attempt(rules, st, obstacle, policy)
        approach = obstacle.approach(choice.attempt.skill)
        assert approach is not None
        draw, _ = check_numbers(rules, st, obstacle, approach)
        # TC-03 Faithful: only a rest or a drink helps, and neither is here; the check
        # fails at once, which only INDEFATIGABLE (TC-11 Faithful) can turn around.
        rescued = rescues and any(c != rules.challenge for c in st.discard)
        if exhausted(rules, st, draw) and not rules.exhaustion_ends_trial and not rescued:
            raise _Lost(EXHAUSTED)
        if rescues and _hopeless(rules, st, obstacle):
            raise _Lost(EXHAUSTED)
        if st.checks > _STALL_GUARD:
            raise RuntimeError(f"a run took more than {_STALL_GUARD} checks: {st.character!r}")
        actions = actions_per_exchange(rules, st, choice.attempt.skill)
        while True:
            result = resolve_check(rules, st, obstacle, choice.attempt, pol.prefer(st, rules))
            if result.carried_out:
                raise _Lost(EXHAUSTED)  # TC-03 Alt
            actions -= 1
            more = False
            if not result.success and actions > 0:
                # WHIRLWIND (TC-19): another check of the same skill in this exchange.
                nxt = pol.choose_attempt(rules, st, obstacle, policy)
                more = nxt.attempt.skill == choice.attempt.skill and nxt.chance > 0
            if not result.success and not more:
                reward_lost |= _fail(rules, st, obstacle)
            # INDEFATIGABLE after the check and its setback (TC-11).
            refresh(rules, st, result.success, rng)
            if on_step is not None:
                on_step(st)
            if result.success:
                return reward_lost, extra_fells(rules, st, result)
            if not more:
                break
            choice = pol.choose_attempt(rules, st, obstacle, policy)


def play_trial(
    rules: Rules,
    trial: Trial,
    character: Character,
    rng: Rng,
    policy: pol.Policy | None = None,
    *,
    log: bool = False,
    on_step: OnStep = None,
    start: RunState | None = None,
) -> tuple[RunOutcome, RunState]:
    """Play ``trial`` with ``character``; returns the outcome and the final state.

    ``rng`` shuffles the deck and picks INDEFATIGABLE's card; ``on_step`` is called after
    every check, setback and rest (for invariant tests); ``start`` replaces the fresh
    state of ``character`` (a scripted scenario), and is changed in place.
    """
    policy = policy or pol.Policy()
    st = start if start is not None else new_run_state(rules, character, rng, log=log)
    cleared = 0
    room = trial.rooms[0]
    try:
        for room in trial.rooms:
            st.log("room", str(room.number))
            reward_lost = _pass_room(rules, trial, room, st, rng, policy, on_step)
            _leave_room(rules, trial, room, st, rng, reward_lost, on_step)
            cleared += 1
    except _Lost as lost:
        return RunOutcome(room.number, False, lost.cause, cleared), st
    return RunOutcome(len(trial.rooms), True, None, cleared), st


def _pass_room(
    rules: Rules,
    trial: Trial,
    room: Room,
    st: RunState,
    rng: Rng,
    policy: pol.Policy,
    on_step: OnStep,
) -> bool:
    """The room's obstacles in order, each perhaps after a rest anywhere (TC-21 Alt).
    Returns True when the room's reward is lost."""
    reward_lost = False
    skip = 0
    for obstacle in room.obstacles:
        if skip:
            skip -= 1  # felled by QUICK DRAW's surplus (TC-19)
            st.log("felled", obstacle.name)
            continue
        if rules.rest_anywhere and pol.wants_rest_anywhere(rules, st, obstacle, policy):
            _rest(rules, trial, room, st, rng)
            reward_lost |= _fail_rest(rules, st, room)
            if on_step is not None:
                on_step(st)
        lost, skip = _pass_obstacle(rules, st, obstacle, rng, policy, on_step)
        reward_lost |= lost
    return reward_lost


def _leave_room(
    rules: Rules,
    trial: Trial,
    room: Room,
    st: RunState,
    rng: Rng,
    reward_lost: bool,
    on_step: OnStep,
) -> None:
    """After the obstacles: the loot unless the reward was lost (TC-16: only if it fits),
    then a rest at the room's rest spot (TC-20 Faithful, also lost with the reward) or at a
    floor end (TC-20 Alt) when there is anything to shuffle back."""
    if room.loot and not reward_lost and can_take(rules, st, rules.items[room.loot]):
        st.items.append(room.loot)
        st.log("loot", room.loot)
    may_rest = trial.floor_end(room) if rules.floors else room.rest_spot and not reward_lost
    if may_rest and (st.discard or st.reserve):
        _rest(rules, trial, room, st, rng)
        if on_step is not None:
            on_step(st)


def _rest(rules: Rules, trial: Trial, room: Room, st: RunState, rng: Rng) -> None:
    """A rest in ``room``, adding the challenge cards the player wants (TC-10)."""
    rest(rules, st, pol.challenges_to_add(rules, st, _rests_ahead(rules, trial, room)), rng)


def _fail_rest(rules: Rules, st: RunState, room: Room) -> bool:
    """The cost of resting outside a rest spot (TC-21 Alt): the room's rest-cost setback."""
    return apply_setback(
        rules, st, room.rest_cost, lambda items: pol.choose_loss(rules, st, items)
    )
