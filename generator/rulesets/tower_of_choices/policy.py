"""The reference player: the choices a sensible player makes (design.md section 5).

The player knows the composition of its own deck (it built it and saw every card drawn)
but not the order of the draw pile.  It chooses by exact odds (:mod:`.odds`):

* **Approach and draw size.**  For every approach and every card count allowed (TC-04), with
  and without DETERMINATION's burn (TC-12), the exact chance of success given the draw pile.
  It keeps the best chance, then takes the option with the fewest cards whose chance is
  within ``tolerance`` of the best ("reduce the draw when it does not lower the odds much";
  under TC-04 Alt, where it stops at the first success anyway, simply the best chance).
  When nothing can succeed it still draws one card rather than none, so that every attempt
  spends something and a blocked obstacle cannot stall the trial; with INDEFATIGABLE
  refreshing after failures (TC-11 Faithful) it draws none, which spends nothing and brings
  a card back, and so it does where a failure lets the character past (TC-25 Alt).
* **Rest** at every rest spot or floor end where a card has been spent (resting costs
  nothing there, TC-21 Faithful).  Where resting anywhere costs a setback (TC-21 Alt), rest
  before an obstacle when the whole deck would give a chance at least ``tolerance`` better
  than the current pile.
* **Challenge cards** (TC-10): add them at a rest when they help growth and the deck is
  not thin: no challenge card is still waiting in the deck, a later rest is ahead (so the
  grown card will be drawn again), and as many as the deck's best skill can carry: enough
  of its cards to beat a standard TARGET with all of them drawn.  A fresh deck takes one;
  a strong deck (a skill grown to more cards) takes up to ``most_challenges``, where the
  profile allows it (TC-10 Alt: at most ``challenge.max_per_rest_alt`` a rest).
* **Energy drink** when exhausted, or when the pile can no longer succeed but the whole
  deck could.
* **Conversions** (TC-09) copy the skill the deck holds most of; **burned cards** (TC-12
  Alt) are challenge cards first, then cards that do not help; an item to **lose** is the
  least useful one; **loot** is taken when it fits (TC-16).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from generator.rulesets.tower_of_choices.entities import AbilityKind, ItemKind
from generator.rulesets.tower_of_choices.logbook import percent
from generator.rulesets.tower_of_choices.odds import NO_WILD, draw_odds
from generator.rulesets.tower_of_choices.procedures import (
    Attempt,
    Prefer,
    check_numbers,
    exhausted,
)
from generator.rulesets.tower_of_choices.rules import Rules
from generator.rulesets.tower_of_choices.state import Card, RunState, count
from generator.rulesets.tower_of_choices.trial import Approach, Obstacle
from generator.words import plural


@dataclass(frozen=True)
class Policy:
    """The reference player's taste (a player's preferences, not rule numbers):
    ``tolerance`` is how much chance it gives up to save cards, ``most_challenges`` the
    most challenge cards it adds at one rest."""

    tolerance: Fraction = Fraction(1, 20)
    most_challenges: int = 2


#: (size, matching, challenges, wild, wild_increase) of a pile for one approach skill.
PileCounts = tuple[int, int, int, int, int]


@dataclass(frozen=True)
class Choice:
    attempt: Attempt
    chance: Fraction
    cost: int  # cards committed, burn included


def _pile_counts(
    rules: Rules,
    cards: Sequence[Card],
    skill: str,
    tally: Mapping[Card, int] | None = None,
) -> PileCounts:
    """(size, matching, challenges, wild, wild_increase) of ``cards`` for ``skill``."""
    checks = rules.data.checks
    wild_on = rules.wild_cards and skill != checks.wild_skill
    t = Counter(cards) if tally is None else tally
    return (
        len(cards),
        t.get(skill, 0),
        t.get(rules.challenge, 0),
        t.get(checks.wild_skill, 0) if wild_on else 0,
        checks.wild_target_increase if wild_on else NO_WILD,
    )


def _burn_pick(rules: Rules, cards: Sequence[Card], skill: str) -> Card:
    """TC-12 Alt: the card to burn: a challenge card, else one that does not help."""
    wild = rules.data.checks.wild_skill if rules.wild_cards else None
    if rules.challenge in cards:
        return rules.challenge
    for card in cards:
        if card != skill and card != wild:
            return card
    return cards[-1]


def options(
    rules: Rules, st: RunState, obstacle: Obstacle, cards: Sequence[Card]
) -> list[Choice]:
    """Every declaration allowed against ``obstacle`` with its exact chance, for a pile of
    ``cards`` (the real pile, or the whole deck to judge a rest)."""
    if not cards:
        return []  # exhausted (TC-02)
    tally = Counter(cards)
    wild_on = rules.wild_cards and rules.data.checks.wild_skill in tally
    lowered = {m.skill for name in st.items for m in rules.items[name].modifiers if m.target < 0}
    lowered.update(m.skill for _, m in st.kept if m.target < 0)
    out: list[Choice] = []
    for approach in obstacle.approaches:
        skill = approach.skill
        if (
            skill not in tally
            and not wild_on
            and skill not in lowered
            and approach.target + st.hindered > rules.target_floor
        ):
            continue  # no card can help and nothing can lower TARGET: no chance
        out += _approach_options(rules, st, obstacle, approach, cards, tally)
    return out


def _approach_options(
    rules: Rules,
    st: RunState,
    obstacle: Obstacle,
    approach: Approach,
    cards: Sequence[Card],
    tally: Mapping[Card, int],
) -> list[Choice]:
    """The declarations for one approach: every card count allowed (TC-04), each also with
    DETERMINATION's burn (TC-12) when the character has it and the pile outlasts it."""
    checks = rules.data.checks
    burn = rules.ability_effect(st.character.ability, AbilityKind.BURN_TOP_CARD_FOR_EXTRA_DRAW)
    counts = _pile_counts(rules, cards, approach.skill, tally)
    size, m, c, w, inc = counts
    draw, target = check_numbers(rules, st, obstacle, approach)
    if rules.full_draw_needed and len(cards) < max(draw, 1):
        return []  # exhausted for this approach (TC-02 Alt)
    if m == 0 and w == 0 and target > 0:
        return []  # no chance at all; see choose_attempt for the fallback
    out: list[Choice] = []
    for k in range(checks.fewest_draw, draw + 1):
        p = draw_odds(
            rules.stop_early, size, m, c, k, target, checks.challenge_target_per_card, w, inc
        )
        out.append(Choice(Attempt(approach.skill, k), p, k))
        if burn is not None and size > burn.amount:
            out.append(_burn_choice(rules, cards, counts, approach.skill, k, burn.amount, target))
    return out


def _burn_choice(
    rules: Rules,
    cards: Sequence[Card],
    counts: PileCounts,
    skill: str,
    k: int,
    burned: int,
    target: int,
) -> Choice:
    """Drawing ``k`` cards after burning ``burned`` with DETERMINATION (TC-12); ``counts``
    are the :func:`_pile_counts` of ``cards`` for ``skill``."""
    checks = rules.data.checks
    size, m, c, w, inc = counts
    if rules.chosen_burn:
        # TC-12 Alt: the player picks the burned cards, so the pile left is known.
        gone = list(cards)
        for _ in range(burned):
            gone.remove(_burn_pick(rules, gone, skill))
        s2, m2, c2, w2, _ = _pile_counts(rules, gone, skill)
        pick = _burn_pick(rules, cards, skill)
        q = draw_odds(
            rules.stop_early,
            s2,
            m2,
            c2,
            k + burned,
            target,
            checks.challenge_target_per_card,
            w2,
            inc,
        )
        return Choice(Attempt(skill, k, True, pick), q, k + burned)
    # TC-12 Faithful: burning unseen cards leaves a uniform pile, so the chance is that of
    # seeing the extra cards from the same pile.
    seen = min(k + burned, size - burned)
    q = draw_odds(
        rules.stop_early, size, m, c, seen, target, checks.challenge_target_per_card, w, inc
    )
    return Choice(Attempt(skill, k, True), q, k + burned)


def best(choices: Sequence[Choice], tolerance: Fraction) -> Choice | None:
    """The best chance, then the fewest cards within ``tolerance`` of it (exact: the
    comparisons cross-multiply numerators and denominators)."""
    if not choices:
        return None
    top = max(choices, key=lambda c: c.chance).chance
    bar = top - tolerance
    bn, bd = bar.numerator, bar.denominator
    pick: Choice | None = None
    pn, pd = 0, 1
    for c in choices:
        cn, cd = c.chance.numerator, c.chance.denominator
        if cn * bd < bn * cd or (top and not cn):
            continue
        if (
            pick is None
            or c.cost < pick.cost
            or (
                c.cost == pick.cost
                and (
                    cn * pd > pn * cd
                    or (cn * pd == pn * cd and pick.attempt.burn and not c.attempt.burn)
                )
            )
        ):
            pick, pn, pd = c, cn, cd
    return pick


def best_chance(
    rules: Rules, st: RunState, obstacle: Obstacle, cards: Sequence[Card]
) -> Fraction:
    choice = best(options(rules, st, obstacle, cards), Fraction(0))
    return choice.chance if choice else Fraction(0)


def choose_attempt(rules: Rules, st: RunState, obstacle: Obstacle, policy: Policy) -> Choice:
    """The declaration for the next check against ``obstacle``.

    Under TC-04 Alt the player stops at the first success, so drawing more never spends a
    card that was not needed: the player then simply takes the best chance.
    """
    tolerance = Fraction(0) if rules.stop_early else policy.tolerance
    choice = best(options(rules, st, obstacle, st.pile), tolerance)
    if choice is not None and choice.chance > 0:
        return choice
    # Nothing can succeed from this pile: spend one card on the cheapest approach that can
    # still be attempted (it clears a Hindered setback and moves the pile on).  A character
    # whom INDEFATIGABLE refreshes after failures (TC-11 Faithful) draws none instead: the
    # failure costs no card and brings one back; and so does one whom a failure lets past
    # (TC-25 Alt): the setback is then all it costs.
    checks = rules.data.checks
    fewest = checks.fewest_draw if _free_failure(rules, st) else 1
    deck = st.pile + st.discard
    fallback = []
    for approach in obstacle.approaches:
        draw, _ = check_numbers(rules, st, obstacle, approach)
        k = min(max(checks.fewest_draw, fewest), draw)
        own = -count(deck, approach.skill)  # its own skills first: they may come back
        fallback.append((exhausted(rules, st, draw), k, own, approach.skill))
    _, k, _, skill = min(fallback)
    return Choice(Attempt(skill, k), Fraction(0), k)


def _free_failure(rules: Rules, st: RunState) -> bool:
    """Whether a failed check that draws nothing costs the character no card: TC-25 Alt
    lets it past, or INDEFATIGABLE brings a card back after it (TC-11 Faithful)."""
    if rules.failure_passes:
        return True
    refreshes = rules.ability_effect(st.character.ability, AbilityKind.REFRESH_RANDOM_CARD)
    return refreshes is not None and not rules.refresh_on_success_only


def attempt_reason(
    rules: Rules, st: RunState, obstacle: Obstacle, choice: Choice, policy: Policy
) -> tuple[str, str]:
    """Why :func:`choose_attempt` took ``choice``, and the ruling it leans on (a logged
    game's line; the choice itself never reads this)."""
    attempt = choice.attempt
    approach = obstacle.approach(attempt.skill)
    assert approach is not None
    draw, target = check_numbers(rules, st, obstacle, approach)
    fewer = "TC-12" if attempt.burn else ("TC-04" if attempt.cards < draw else "")
    if target == 0 and not attempt.cards and not attempt.burn:
        return "TARGET 0 succeeds without drawing", "TC-05"
    if choice.chance == 0:
        if rules.failure_passes:
            return "no approach can succeed from this pile: take the setback and go on", "TC-25"
        if _free_failure(rules, st):
            return ("no approach can succeed from this pile: draw none, and INDEFATIGABLE "
                    "brings a card back", "TC-11")
        return "no approach can succeed from this pile: spend a card to move it on", ""
    top = best_chance(rules, st, obstacle, st.pile)
    chance = percent(choice.chance)
    if choice.chance == top:
        if attempt.cards < draw and not attempt.burn:
            return f"{chance} to succeed, as good as drawing more", fewer
        return f"{chance} to succeed, the best chance", fewer
    given = percent(Fraction(0) if rules.stop_early else policy.tolerance)
    return f"{chance} to succeed, within {given} of the best {percent(top)}, for fewer cards", fewer


def drink_item(rules: Rules, st: RunState) -> str | None:
    """A carried energy drink (an item that restores the discard pile), if any."""
    return next((name for name in st.items if name in rules.restore_items), None)


def wants_drink(rules: Rules, st: RunState, obstacle: Obstacle, policy: Policy) -> bool:
    """Drink when exhausted for every approach, or when the pile cannot succeed but the
    pile and discard pile together could."""
    if drink_item(rules, st) is None or not any(c != rules.challenge for c in st.discard):
        return False
    if all(
        exhausted(rules, st, check_numbers(rules, st, obstacle, a)[0])
        for a in obstacle.approaches
    ):
        return True
    if best_chance(rules, st, obstacle, st.pile) > 0:
        return False
    return best_chance(rules, st, obstacle, st.pile + st.discard) > 0


def drink_reason(rules: Rules, st: RunState, obstacle: Obstacle) -> str:
    """Why :func:`wants_drink` drinks (a logged game's line)."""
    if all(exhausted(rules, st, check_numbers(rules, st, obstacle, a)[0])
           for a in obstacle.approaches):
        return "exhausted for every approach"
    return "the pile cannot succeed, the whole deck could"


def wants_rest_anywhere(rules: Rules, st: RunState, obstacle: Obstacle, policy: Policy) -> bool:
    """TC-21 Alt: rest before ``obstacle`` when the whole deck is clearly better."""
    if not any(c != rules.challenge for c in st.discard):
        return False
    if not st.pile:
        return True
    now = best_chance(rules, st, obstacle, st.pile)
    rested = best_chance(rules, st, obstacle, st.pile + st.discard)
    return rested - now >= policy.tolerance


def rest_reason(rules: Rules, st: RunState, obstacle: Obstacle) -> str:
    """Why :func:`wants_rest_anywhere` rests (a logged game's line)."""
    if not st.pile:
        return "the pile is empty"
    now = best_chance(rules, st, obstacle, st.pile)
    rested = best_chance(rules, st, obstacle, st.pile + st.discard)
    return f"the whole deck gives {percent(rested)}, the pile {percent(now)}"


def challenges_to_add(rules: Rules, st: RunState, rests_ahead: int, policy: Policy) -> int:
    """TC-10: how many challenge cards to shuffle in at this rest (see the module's
    docstring); at most ``challenge.max_per_rest_alt`` under TC-10 Alt."""
    deck = st.pile + st.discard
    if rests_ahead <= 0 or rules.challenge in deck:
        return 0
    wanted = _challenges_carried(rules, deck, policy)
    if rules.capped_challenges:
        return min(wanted, rules.data.checks.challenge_max_per_rest_alt)
    return wanted


def _best_skill(deck: Sequence[Card]) -> tuple[str, int]:
    """The card the deck holds most of, and how many (ties: the first name)."""
    tally = Counter(deck)
    return min(tally.items(), key=lambda kv: (-kv[1], kv[0]), default=("", 0))


def _challenges_carried(rules: Rules, deck: Sequence[Card], policy: Policy) -> int:
    """The challenge cards the deck's best skill can carry: a hand holding c of them needs
    the standard TARGET plus ``target_per_card`` for each, in cards of that skill."""
    checks = rules.data.checks
    _, most = _best_skill(deck)
    carried = (most - checks.standard_target) // checks.challenge_target_per_card
    return max(0, min(carried, policy.most_challenges))


def challenge_reason(
    rules: Rules, st: RunState, rests_ahead: int, added: int, policy: Policy
) -> str:
    """Why :func:`challenges_to_add` added ``added`` cards (a logged game's line)."""
    deck = st.pile + st.discard
    if rests_ahead <= 0:
        return "add no CHALLENGE card: no later rest would bring a grown card back"
    if rules.challenge in deck:
        return "add no CHALLENGE card: one still waits in the deck"
    skill, most = _best_skill(deck)
    wanted = _challenges_carried(rules, deck, policy)
    target = rules.data.checks.standard_target
    if not wanted:
        return f"add no CHALLENGE card: {most} {skill} cannot beat TARGET {target} with one drawn"
    text = (f"add {plural(added, 'CHALLENGE card')}: {most} {skill} can beat TARGET {target} "
            f"with {wanted} drawn")
    if added < wanted:
        text += f", but at most {plural(added, 'card')} may go in at a rest"
    return text


def prefer(st: RunState, rules: Rules) -> Prefer:
    """The ranking of conversion names: the skill the deck holds most of first (TC-09)."""
    deck = st.pile + st.discard + st.hand
    order = {name: i for i, name in enumerate(rules.data.skill_names)}

    def rank(cards: Sequence[Card]) -> list[Card]:
        return sorted(cards, key=lambda c: (-count(deck, c), order.get(c, len(order))))

    return rank


def item_value(rules: Rules, st: RunState, name: str) -> int:
    """How much the player wants to keep an item: a restore effect, then bonuses for its
    own skills, then anything else."""
    item = rules.items[name]
    if ItemKind.RESTORE_DISCARD in item.effects:
        return 2
    deck = set(st.pile + st.discard)
    return 1 if any(m.skill in deck for m in item.modifiers) else 0


def choose_loss(rules: Rules, st: RunState, items: Sequence[str]) -> str:
    """The item to give up to a Lose-an-item setback: the least useful."""
    return min(items, key=lambda name: item_value(rules, st, name))
