"""Playing one trial with the reference player (TC-19, TC-20, TC-21, TC-25).

The loop, room by room:

1. Outside each obstacle, the player may drink, or rest anywhere at the room's rest cost
   (TC-21 Alt).
2. An obstacle blocks the way until a check against it succeeds (TC-25 Faithful).  A
   failure costs the obstacle's setback (TC-18; under TC-18 Alt also wounds) and the player
   tries again; under TC-25 Alt the setback is all it costs, and the player goes on.
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

A logged game (``log``, ``towerpress play``) writes every room, obstacle, decision, check
and rest as a step (:mod:`.narrate`), its dice drawn through a :class:`.logbook.Tape`; the
same seed plays the same game with or without it.
"""

from __future__ import annotations

from collections.abc import Callable

from generator.engine.playlog import Log
from generator.engine.report import RunOutcome
from generator.engine.rng import Rng
from generator.rulesets.tower_of_choices import narrate
from generator.rulesets.tower_of_choices import policy as pol
from generator.rulesets.tower_of_choices.entities import AbilityKind, SetbackKind
from generator.rulesets.tower_of_choices.logbook import Logbook, Tape
from generator.rulesets.tower_of_choices.procedures import (
    CheckResult,
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
from generator.words import plural

EXHAUSTED = "exhausted"
WOUNDS = "wounds"

#: Called after every check, setback and rest (for invariant tests), if given.
OnStep = Callable[[RunState], None] | None

# An engine safety valve, not a rule: a run that takes this many checks is a bug.
_STALL_GUARD = 100_000


class _Lost(Exception):
    """The trial is lost; ``cause`` is the death cause of the report, ``why`` and
    ``ruling`` what a logged game says of it."""

    def __init__(self, cause: str, why: str, ruling: str):
        super().__init__(cause)
        self.cause, self.why, self.ruling = cause, why, ruling


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
        raise _Lost(WOUNDS, f"{st.wounds} wounds put the character out", "TC-18")
    return lost


def _pass_obstacle(
    rules: Rules,
    st: RunState,
    obstacle: Obstacle,
    rng: Rng,
    policy: pol.Policy,
    on_step: OnStep,
) -> tuple[bool, int]:
    """Attempt ``obstacle`` until it is beaten, or once under TC-25 Alt.  Returns (reward
    lost, extra fells)."""
    if st.book is not None:
        narrate.obstacle(st, obstacle)
    reward_lost = False
    while True:
        if pol.wants_drink(rules, st, obstacle, policy):
            _drink(rules, st, obstacle, rng)
        choice = pol.choose_attempt(rules, st, obstacle, policy)
        _check_not_lost(rules, st, obstacle, choice)
        result, lost = _exchange(rules, st, obstacle, choice, rng, policy, on_step)
        reward_lost |= lost
        if result.success:
            return reward_lost, extra_fells(rules, st, result)
        if rules.failure_passes:
            # TC-25 Alt: set back, not stopped.
            if st.book is not None:
                narrate.event(st, "passed", f"past {obstacle.name}, set back", "TC-25")
            return reward_lost, 0


def _drink(rules: Rules, st: RunState, obstacle: Obstacle, rng: Rng) -> None:
    item = pol.drink_item(rules, st)
    assert item is not None
    if st.book is not None:
        narrate.decision(st, f"drink {item}: {pol.drink_reason(rules, st, obstacle)}")
    drink(rules, st, item, rng)


def _check_not_lost(rules: Rules, st: RunState, obstacle: Obstacle, choice: pol.Choice) -> None:
    """End the run when the check about to be made cannot start and nothing can help (TC-03
    Faithful: only a rest or a drink helps, and neither is here, so the check fails at once,
    which only INDEFATIGABLE, TC-11 Faithful, can turn around), or when no later check can
    beat the obstacle (:func:`_hopeless`)."""
    refreshing = rules.ability_effect(st.character.ability, AbilityKind.REFRESH_RANDOM_CARD)
    rescues = refreshing is not None and not rules.refresh_on_success_only
    approach = obstacle.approach(choice.attempt.skill)
    assert approach is not None
    draw, _ = check_numbers(rules, st, obstacle, approach)
    rescued = rescues and any(c != rules.challenge for c in st.discard)
    if exhausted(rules, st, draw) and not rules.exhaustion_ends_trial and not rescued:
        raise _Lost(EXHAUSTED, "the pile is spent, with no rest and no drink here", "TC-03")
    if rescues and _hopeless(rules, st, obstacle):
        why = f"no later check can beat {obstacle.name}, whatever INDEFATIGABLE brings back"
        raise _Lost(EXHAUSTED, why, "TC-11")
    if st.checks > _STALL_GUARD:
        raise RuntimeError(f"a run took more than {_STALL_GUARD} checks: {st.character!r}")


def _exchange(
    rules: Rules,
    st: RunState,
    obstacle: Obstacle,
    choice: pol.Choice,
    rng: Rng,
    policy: pol.Policy,
    on_step: OnStep,
) -> tuple[CheckResult, bool]:
    """One exchange: a check, or up to two Melee offense checks with WHIRLWIND (TC-19); a
    failed exchange costs one setback.  Returns its last check and whether the room's
    reward is lost."""
    actions = actions_per_exchange(rules, st, choice.attempt.skill)
    again = ""
    while True:
        if st.book is not None:
            _say_attempt(rules, st, obstacle, choice, policy, again)
        result = resolve_check(rules, st, obstacle, choice.attempt, pol.prefer(st, rules))
        if result.carried_out:
            raise _Lost(EXHAUSTED, "exhaustion ends the trial: carried out", "TC-03")
        actions -= 1
        more = False
        if not result.success and actions > 0:
            # WHIRLWIND (TC-19): another check of the same skill in this exchange.
            nxt = pol.choose_attempt(rules, st, obstacle, policy)
            more = nxt.attempt.skill == choice.attempt.skill and nxt.chance > 0
        lost = not result.success and not more and _fail(rules, st, obstacle)
        # INDEFATIGABLE after the check and its setback (TC-11).
        refresh(rules, st, result.success, rng)
        if on_step is not None:
            on_step(st)
        if result.success or not more:
            return result, lost
        choice = pol.choose_attempt(rules, st, obstacle, policy)
        again = "WHIRLWIND, a second check before the setback: "


def _say_attempt(
    rules: Rules,
    st: RunState,
    obstacle: Obstacle,
    choice: pol.Choice,
    policy: pol.Policy,
    again: str,
) -> None:
    """The line of a declaration: the approach, its numbers now, the cards, the reason."""
    attempt = choice.attempt
    approach = obstacle.approach(attempt.skill)
    assert approach is not None
    draw, target = check_numbers(rules, st, obstacle, approach)
    reason, ruling = pol.attempt_reason(rules, st, obstacle, choice, policy)
    burn = " after burning a card (DETERMINATION)" if attempt.burn else ""
    text = f"{attempt.skill} (DRAW {draw}, TARGET {target}): draw {attempt.cards}{burn}; {reason}"
    narrate.decision(st, again + text, "TC-19" if again else ruling)


def play_trial(
    rules: Rules,
    trial: Trial,
    character: Character,
    rng: Rng,
    policy: pol.Policy | None = None,
    *,
    log: Log = None,
    on_step: OnStep = None,
    start: RunState | None = None,
) -> tuple[RunOutcome, RunState]:
    """Play ``trial`` with ``character``; returns the outcome and the final state.

    ``rng`` shuffles the deck and picks INDEFATIGABLE's card; ``log``, when given, gets a
    step for everything that happens (``towerpress play``); ``on_step`` is called after
    every check, setback and rest (for invariant tests); ``start`` replaces the fresh
    state of ``character`` (a scripted scenario), and is changed in place.
    """
    policy = policy or pol.Policy()
    book = None
    if log is not None:
        rng = Tape(rng)
        book = Logbook(rng, rules.wounds_track, log)
    if start is None:
        st = new_run_state(rules, character, rng, book)
    else:
        st = start
        st.book = book or st.book
    cleared = 0
    room = trial.rooms[0]
    try:
        for room in trial.rooms:
            if st.book is not None:
                narrate.room(rules, st, trial, room)
            reward_lost = _pass_room(rules, trial, room, st, rng, policy, on_step)
            _leave_room(rules, trial, room, st, rng, policy, reward_lost, on_step)
            cleared += 1
    except _Lost as lost:
        if st.book is not None:
            text = f"lost in {room.name} ({lost.cause}): {lost.why}"
            narrate.event(st, "outcome", text, lost.ruling)
        return RunOutcome(room.number, False, lost.cause, cleared), st
    if st.book is not None:
        narrate.event(st, "outcome", f"won: past the obstacles of {room.name}, the top")
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
            if st.book is not None:
                narrate.event(st, "felled", f"QUICK DRAW fells {obstacle.name}", "TC-19")
            continue
        if rules.rest_anywhere and pol.wants_rest_anywhere(rules, st, obstacle, policy):
            if st.book is not None:
                reason = pol.rest_reason(rules, st, obstacle)
                narrate.decision(st, f"rest before {obstacle.name}: {reason}", "TC-21")
            _rest(rules, trial, room, st, rng, policy, ("here", "TC-21"))
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
    policy: pol.Policy,
    reward_lost: bool,
    on_step: OnStep,
) -> None:
    """After the obstacles: the loot unless the reward was lost (TC-16: only if it fits),
    then a rest at the room's rest spot (TC-20 Faithful, also lost with the reward) or at a
    floor end (TC-20 Alt) when there is anything to shuffle back."""
    if room.loot:
        _loot(rules, st, room.loot, reward_lost)
    may_rest = trial.floor_end(room) if rules.floors else room.rest_spot and not reward_lost
    if st.book is not None and room.rest_spot and reward_lost and not rules.floors:
        narrate.event(st, "rest-lost", "no rest: the rest spot is lost with the reward",
                      "TC-18")
    if may_rest and (st.discard or st.reserve):
        where = f"at the end of floor {room.floor}" if rules.floors else "at the rest spot"
        _rest(rules, trial, room, st, rng, policy, (where, "TC-20"))
        if on_step is not None:
            on_step(st)


def _loot(rules: Rules, st: RunState, loot: str, reward_lost: bool) -> None:
    """The room's loot: lost with the reward, left when it does not fit (TC-16), or taken."""
    if reward_lost:
        if st.book is not None:
            narrate.event(st, "loot", f"the loot, {loot}, is lost with the reward", "TC-18")
    elif can_take(rules, st, rules.items[loot]):
        st.items.append(loot)
        if st.book is not None:
            narrate.event(st, "loot", f"take the loot: {loot}")
    elif st.book is not None:
        narrate.event(st, "loot", f"no room to carry the loot, {loot}", "TC-16")


def _rest(
    rules: Rules,
    trial: Trial,
    room: Room,
    st: RunState,
    rng: Rng,
    policy: pol.Policy,
    where: tuple[str, str],
) -> None:
    """A rest in ``room`` (``where``: the place, and the ruling that allows it), adding the
    challenge cards the player wants (TC-10)."""
    ahead = _rests_ahead(rules, trial, room)
    added = pol.challenges_to_add(rules, st, ahead, policy)
    if st.book is not None:
        narrate.decision(st, pol.challenge_reason(rules, st, ahead, added, policy), "TC-10")
    spent = sum(1 for c in st.discard if c != rules.challenge)
    undrawn = len(st.pile)
    rest(rules, st, added, rng)
    if st.book is not None:
        place, ruling = where
        extra = f" with {plural(added, 'CHALLENGE card')}" if added else ""
        text = (f"rest {place}: {plural(spent, 'discarded card')} and {undrawn} undrawn "
                f"shuffled{extra}")
        narrate.rest(st, text, ruling)


def _fail_rest(rules: Rules, st: RunState, room: Room) -> bool:
    """The cost of resting outside a rest spot (TC-21 Alt): the room's rest-cost setback."""
    return apply_setback(
        rules, st, room.rest_cost, lambda items: pol.choose_loss(rules, st, items)
    )
