"""The rules procedures of Tower of Choices (rulings.md 3.1 and 3.3).

Each function names the ruling IDs it implements; every ambiguity is decided by a flag of
:class:`.rules.Rules`, resolved once from the profile.  The functions change a
:class:`RunState` in place and take their randomness from an explicit ``rng``; the player's
choices come in as arguments or small callables (see :mod:`.policy` for the reference
player), so that tests can script both.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from generator.engine.rng import Rng
from generator.rulesets.tower_of_choices import narrate
from generator.rulesets.tower_of_choices.entities import AbilityKind, Item, Modifier, SetbackKind
from generator.rulesets.tower_of_choices.logbook import cards_text
from generator.rulesets.tower_of_choices.rules import Rules
from generator.rulesets.tower_of_choices.state import Card, RunState, count, shuffle
from generator.rulesets.tower_of_choices.trial import Approach, Obstacle

Prefer = Callable[[Sequence[Card]], list[Card]]  # other cards of a draw, best name first


def _keep_order(cards: Sequence[Card]) -> list[Card]:
    return list(cards)


@dataclass(frozen=True)
class Attempt:
    """The player's declaration before a draw (TC-04, TC-12).

    ``cards`` is how many to draw (from ``checks.draw.fewest`` up to the DRAW); ``burn``
    uses DETERMINATION; ``burn_card`` names the card to burn under TC-12 Alt (None: top).
    """

    skill: str
    cards: int
    burn: bool = False
    burn_card: Card | None = None


@dataclass(frozen=True)
class CheckResult:
    skill: str
    draw: int
    target: int
    drawn: tuple[Card, ...]
    matches: int
    challenges: int
    success: bool
    surplus: int  # matches beyond what success needed (QUICK DRAW, TC-19); < 0 on failure
    exhausted: bool = False
    carried_out: bool = False  # TC-03 Alt: exhaustion ended the trial


# -- the numbers of a check --------------------------------------------------------------


def modifier_applies(rules: Rules, helps: Sequence[str], item: str, modifier: Modifier) -> bool:
    """TC-17: a conditional modifier (the reference book's subject) applies only where the
    obstacle or the approach names the item as helping (``helps``; Faithful) or always
    (Alt)."""
    if not modifier.condition:
        return True
    if modifier.ruling in rules.waived_conditions:
        return True
    return item in helps


def check_numbers(
    rules: Rules, st: RunState, obstacle: Obstacle, approach: Approach
) -> tuple[int, int]:
    """DRAW and TARGET of ``approach`` for this character now.

    Items carried add their modifiers for the skill (TC-17 for conditional ones); modifiers
    kept from lost items still count (``kept_if_lost``); an item the obstacle names as
    helping adds the Equipment row's DRAW step unless its own modifier is conditional
    (then the obstacle only meets the condition); a Hindered setback raises TARGET; TARGET
    floors at ``target.floor`` (TC-05 Faithful) or ``target.floor_alt`` (TC-05 Alt).  An
    item that a catalogue obstacle names for one approach only (``approach.helps``) counts
    as the obstacle's own do, for that approach.
    """
    draw, target = approach.draw, approach.target
    skill = approach.skill
    helps = (*obstacle.helps, *approach.helps)
    for name in st.items:
        for m in rules.mods[name][skill]:
            if modifier_applies(rules, helps, name, m):
                draw, target = draw + m.draw, target + m.target
    for name, m in st.kept:
        if (
            name not in st.items
            and m.skill == skill
            and modifier_applies(rules, helps, name, m)
        ):
            draw, target = draw + m.draw, target + m.target
    for name in helps:
        if name in st.items and not any(m.condition for m in rules.items[name].modifiers):
            draw += rules.equipment_draw_step
    target += st.hindered
    return max(draw, 0), max(target, rules.target_floor)


def surplus(rules: Rules, skill: str, drawn: Sequence[Card], target: int) -> tuple[int, int, int]:
    """(matches, challenges, surplus) of a drawn hand; success is ``surplus >= 0``.

    TC-01: each challenge card drawn raises the matches needed by ``target_per_card``.
    TC-06 Faithful: only cards named ``skill`` match.  TC-06 Alt: wild cards (Luck) also
    count for another approach, at ``wild.target_increase`` more TARGET; the player counts
    them only when that is better.
    """
    checks = rules.data.checks
    matches = count(drawn, skill)
    challenges = count(drawn, rules.challenge)
    need = target + checks.challenge_target_per_card * challenges
    best = matches - need
    if rules.wild_cards and skill != checks.wild_skill:
        wild = count(drawn, checks.wild_skill)
        best = max(best, matches + wild - need - checks.wild_target_increase)
    return matches, challenges, best


def exhausted(rules: Rules, st: RunState, draw: int) -> bool:
    """TC-02 Faithful: exhausted only when the pile is empty as a draw begins.  TC-02 Alt: a
    check needs at least DRAW cards in the pile."""
    if rules.full_draw_needed:
        return len(st.pile) < max(draw, 1)
    return not st.pile


# -- the check -----------------------------------------------------------------------------


def resolve_check(
    rules: Rules,
    st: RunState,
    obstacle: Obstacle,
    attempt: Attempt,
    prefer: Prefer = _keep_order,
) -> CheckResult:
    """One skill check, from declaration to the discard pile (no setback, no refresh).

    Order: exhaustion (TC-02, TC-03), DETERMINATION's burn (TC-12), the draw (TC-02 partial
    pile, TC-04 commit or stop early), the test (TC-01, TC-05, TC-06), then each challenge
    card is rewritten or removed (TC-07, TC-08, TC-09) and the hand goes to discard.

    Raises:
        ValueError: the approach is not offered, or the card count is outside
            ``checks.draw.fewest`` .. DRAW (+ the burn), or the character cannot burn.
    """
    approach = obstacle.approach(attempt.skill)
    if approach is None:
        raise ValueError(f"{obstacle.name} has no {attempt.skill!r} approach")
    draw, target = check_numbers(rules, st, obstacle, approach)
    checks = rules.data.checks
    if not checks.fewest_draw <= attempt.cards <= draw:
        raise ValueError(f"cards must be {checks.fewest_draw}..{draw}, got {attempt.cards}")
    st.checks += 1
    st.hindered = 0  # a Hindered setback lasts for one check (TC-18)
    if exhausted(rules, st, draw):
        if st.book is not None:
            narrate.exhausted(rules, st)
        # TC-03 Faithful: every check fails at once; Alt: the trial is over.
        return CheckResult(
            attempt.skill,
            draw,
            target,
            (),
            0,
            0,
            False,
            -1 - target,
            True,
            carried_out=rules.exhaustion_ends_trial,
        )
    cards = attempt.cards + _burn(rules, st, attempt)
    _draw(rules, st, attempt.skill, cards, target)
    hand = st.hand
    matches, challenges, extra = surplus(rules, attempt.skill, hand, target)
    success = extra >= 0
    drawn = tuple(hand)
    if st.book is not None:
        narrate.check(rules, st, attempt.skill, cards, target, extra)
    _convert(rules, st, success, prefer)
    st.discard.extend(hand)
    hand.clear()
    return CheckResult(attempt.skill, draw, target, drawn, matches, challenges, success, extra)


def _burn(rules: Rules, st: RunState, attempt: Attempt) -> int:
    """DETERMINATION before the draw (TC-12), when ``attempt`` uses it: its cards go from
    the draw pile to the discard pile; returns how many more cards the check then draws.

    Raises:
        ValueError: the character's ability cannot burn cards.
    """
    if not attempt.burn:
        return 0
    burn = rules.ability_effect(st.character.ability, AbilityKind.BURN_TOP_CARD_FOR_EXTRA_DRAW)
    if burn is None:
        raise ValueError(f"{st.character.ability} cannot burn cards (TC-12)")
    for _ in range(burn.amount):
        if not st.pile:
            break
        picked = attempt.burn_card
        chosen = rules.chosen_burn and picked is not None and picked in st.pile
        if chosen and picked is not None:
            # TC-12 Alt: the player looks through the pile and picks the card.
            st.discard.append(st.pile.pop(st.pile.index(picked)))
        else:
            st.discard.append(st.pile.pop())  # TC-12 Faithful: the top card, unseen
        if st.book is not None:
            narrate.burn(st, st.discard[-1], chosen)
    return burn.amount


def _draw(rules: Rules, st: RunState, skill: str, cards: int, target: int) -> None:
    """Up to ``cards`` cards from the draw pile into the hand (TC-02, TC-04)."""
    hand = st.hand
    if rules.stop_early:
        # TC-04 Alt: one card at a time, stopping as soon as the check has succeeded.
        while len(hand) < cards and st.pile:
            if surplus(rules, skill, hand, target)[2] >= 0:
                break
            hand.append(st.pile.pop())
    else:
        # TC-04 Faithful: all the committed cards; TC-02 Faithful: what is left if fewer.
        for _ in range(min(cards, len(st.pile))):
            hand.append(st.pile.pop())


def _convert(rules: Rules, st: RunState, success: bool, prefer: Prefer) -> None:
    """Rewrite each challenge card of the hand (TC-07, TC-08, TC-09), in place.

    TC-07 Faithful: always; Alt: only after a success, otherwise it leaves the game.
    TC-08 Faithful: with no ordinary card to copy it leaves the game; Alt: it stays a
    challenge card and goes to the discard pile.  TC-09 Faithful: each copies any other
    card (the player's first preference); Alt: each copies a skill that no other challenge
    card of the draw copied, while the draw has one left, then the first preference.
    """
    hand = st.hand
    label = rules.challenge
    if label not in hand:
        return
    others = [card for card in hand if card != label]
    ranked = prefer(others) if others else []
    if sorted(ranked) != sorted(others):
        raise ValueError(f"prefer() must rank the other cards {others!r}, got {ranked!r}")
    names = list(dict.fromkeys(ranked))  # the skills of the draw, best first, once each
    several = hand.count(label) > 1
    used = 0
    at = 0  # the hand is rewritten in place, so that a logged step shows it as it is
    while at < len(hand):
        if hand[at] != label:
            at += 1
        elif rules.convert_on_success_only and not success:
            del hand[at]
            st.challenges_removed += 1
            _said(st, "the CHALLENGE card leaves the game: the check failed", "TC-07")
        elif not others and rules.keep_lone_challenge:
            at += 1
            _said(st, "the CHALLENGE card, with no skill card beside it, stays a CHALLENGE "
                      "card", "TC-08")
        elif not others:
            del hand[at]
            st.challenges_removed += 1
            _said(st, "the CHALLENGE card leaves the game: no skill card came with it", "TC-08")
        else:
            # TC-09 Alt: a skill no other challenge card of this draw took, while any is left.
            distinct = rules.distinct_conversions and used < len(names)
            hand[at] = names[used] if distinct else ranked[0]
            used += distinct
            st.challenges_converted += 1
            if st.book is not None:
                _said_conversion(st, hand[at], several, distinct, success)
            at += 1


def _said(st: RunState, text: str, ruling: str) -> None:
    if st.book is not None:
        narrate.conversion(st, text, ruling)


def _said_conversion(st: RunState, name: str, several: bool, distinct: bool,
                     success: bool) -> None:
    """The line of one rewritten challenge card, and the ruling that chose its name."""
    text = f"the CHALLENGE card is rewritten as {name}"
    if several and distinct:
        narrate.conversion(st, f"{text}, a skill no other CHALLENGE card of this draw took",
                           "TC-09")
    elif several:
        narrate.conversion(st, f"{text}, the player's pick, as another may be", "TC-09")
    elif not success:
        narrate.conversion(st, f"{text}, though the check failed", "TC-07")
    else:
        narrate.conversion(st, f"{text}, the player's pick", "")


# -- after a check ---------------------------------------------------------------------


def refresh(
    rules: Rules, st: RunState, success: bool, rng: Rng, *, top: bool = True
) -> Card | None:
    """INDEFATIGABLE after a resolved check (TC-11); returns the refreshed card.

    Faithful: after every check, one card picked at random from the discard pile is
    shuffled into the draw pile (a random position), which can rescue an empty pile.  Alt:
    nothing after a failure, and the card goes on the top (``top``) or the bottom.  Only
    skill cards are picked: a challenge card enters a deck only at a rest (checks.toml).
    """
    effect = rules.ability_effect(st.character.ability, AbilityKind.REFRESH_RANDOM_CARD)
    if effect is None or (rules.refresh_on_success_only and not success):
        return None
    card: Card | None = None
    for _ in range(effect.amount):
        spent = [i for i, c in enumerate(st.discard) if c != rules.challenge]
        if not spent:
            break
        card = st.discard.pop(spent[rng.below(len(spent))])
        if rules.refresh_on_success_only:
            index = len(st.pile) if top else 0
        else:
            index = rng.below(len(st.pile) + 1)
        st.pile.insert(index, card)
        if st.book is not None:
            narrate.refresh(st, card, narrate.place_in_pile(len(st.pile), index))
    return card


def apply_setback(
    rules: Rules,
    st: RunState,
    name: str,
    lose: Callable[[Sequence[str]], str] | None = None,
) -> bool:
    """A failure's setback (TC-18 Faithful); returns True when the room's reward is lost.

    Hindered raises the next check's TARGET; Drained moves cards from the top of the draw
    pile to the discard pile unseen; Lose an item drops items chosen by ``lose`` (the
    player's choice; modifiers ``kept_if_lost`` stay, TC-17); Lose the reward is the
    caller's to apply to the room.
    """
    setback = rules.setbacks[name]
    detail = ""
    match setback.kind:
        case SetbackKind.TARGET_UP:
            st.hindered += setback.amount
            detail = f"the next check's TARGET +{setback.amount}"
        case SetbackKind.DRAIN:
            drained = [st.pile.pop() for _ in range(min(setback.amount, len(st.pile)))]
            st.discard.extend(drained)
            detail = (f"{cards_text(drained)} from the top of the pile to the discard pile"
                      if drained else "the pile is already empty")
        case SetbackKind.LOSE_ITEM:
            lost = [_lose_item(rules, st, lose) for _ in range(min(setback.amount, len(st.items)))]
            detail = f"{cards_text(lost)} lost" if lost else "nothing left to lose"
        case SetbackKind.LOSE_REWARD:
            detail = "the room's loot and rest are lost"
    if st.book is not None:
        narrate.setback(st, name, detail)
    return setback.kind == SetbackKind.LOSE_REWARD


def _lose_item(rules: Rules, st: RunState, lose: Callable[[Sequence[str]], str] | None) -> str:
    """Drop the item ``lose`` picks (the last by default); its ``kept_if_lost`` modifiers
    stay (TC-17)."""
    choice = lose(st.items) if lose else st.items[-1]
    st.items.remove(choice)
    st.kept.extend((choice, m) for m in rules.items[choice].modifiers if m.kept_if_lost)
    return choice


def wound(rules: Rules, st: RunState) -> bool:
    """TC-18 Alt: a failed check marks wounds; True when the character is out."""
    if not rules.wounds_track:
        return False
    st.wounds += rules.data.wounds_alt.per_failure
    if st.book is not None:
        narrate.wound(rules, st)
    return st.wounds >= rules.data.wounds_alt.out_at


def extra_fells(rules: Rules, st: RunState, result: CheckResult) -> int:
    """QUICK DRAW (TC-19): one more enemy per matching card beyond what success needed."""
    effect = rules.ability_effect(st.character.ability, AbilityKind.EXTRA_FELL_PER_SURPLUS)
    if effect is None or not result.success or result.skill != effect.skill:
        return 0
    return max(result.surplus, 0) * effect.amount


def actions_per_exchange(rules: Rules, st: RunState, skill: str) -> int:
    """WHIRLWIND (TC-19): more checks of its skill in one exchange; otherwise one."""
    effect = rules.ability_effect(st.character.ability, AbilityKind.EXTRA_ACTION)
    if effect is None or effect.skill != skill:
        return 1
    return 1 + effect.amount


# -- recovering ---------------------------------------------------------------------------


def rest(rules: Rules, st: RunState, challenges: int, rng: Rng) -> None:
    """A rest: the discard pile and the undrawn cards are shuffled into a new draw pile,
    with ``challenges`` challenge cards added (TC-10: any number; Alt: at most
    ``challenge.max_per_rest_alt``).  Challenge cards kept in the discard pile (TC-08 Alt)
    are the first ones added; the others stay aside, out of the deck.

    Raises:
        ValueError: more challenge cards than the profile allows at one rest.
    """
    if challenges < 0 or (
        rules.capped_challenges and challenges > rules.data.checks.challenge_max_per_rest_alt
    ):
        raise ValueError(f"cannot add {challenges} challenge cards at one rest (TC-10)")
    label = rules.challenge
    st.reserve += count(st.discard, label)
    cards = [c for c in st.discard if c != label] + st.pile
    reuse = min(st.reserve, challenges)
    st.reserve -= reuse
    st.challenges_added += challenges - reuse
    cards.extend([label] * challenges)
    shuffle(rng, cards)
    st.pile = cards
    st.discard = []
    st.rests += 1


def drink(rules: Rules, st: RunState, item: str, rng: Rng) -> None:
    """An energy drink (an item with ``restore_discard``): the discard pile is shuffled
    into the draw pile without a rest; one use.  Challenge cards in the discard pile
    (TC-08 Alt) stay there: they enter a deck only at a rest.

    Raises:
        ValueError: the character does not carry ``item`` or it does not restore.
    """
    if item not in st.items or item not in rules.restore_items:
        raise ValueError(f"cannot drink {item!r}")
    if rules.items[item].one_use:
        st.items.remove(item)
    label = rules.challenge
    back = [c for c in st.discard if c != label]
    st.discard = [c for c in st.discard if c == label]
    cards = st.pile + back
    shuffle(rng, cards)
    st.pile = cards
    if st.book is not None:
        narrate.drink(st, item, len(back))


def carried_count(rules: Rules, items: Sequence[str]) -> int:
    """How many items ``items`` count as against the carry limit: a kit is one (TC-16
    Faithful) or all its pieces (Alt)."""
    if rules.kit_pieces_count:
        return sum(rules.data.kit_size(rules.items[name]) for name in items)
    return len(items)


def can_take(rules: Rules, st: RunState, item: Item) -> bool:
    """Whether ``item`` fits under the carry limit (TC-16)."""
    total = carried_count(rules, [*st.items, item.name])
    return total <= rules.data.character.carry_limit
