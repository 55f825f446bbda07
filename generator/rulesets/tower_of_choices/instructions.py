"""The rules a Tower of Choices booklet prints for its reader, every number from the data:
the way in and the character, the shuffle with tape S, a check, a setback, a rest
(rulings.md 3.4)."""

from __future__ import annotations

from generator.rulesets.tower_of_choices.entities import AbilityEffect, SetbackKind
from generator.rulesets.tower_of_choices.rules import Rules
from generator.rulesets.tower_of_choices.trial import Approach
from generator.words import either, plural


def start_lines(rules: Rules) -> list[str]:
    """What the booklet is (rulings.md 3.4 #1), the way in, and the character to make."""
    texts, creation = rules.data.catalogue.texts, rules.data.character
    character = (
        f"Make your character as the rulebook says: {plural(creation.starting_skills, 'skill')}"
        f" with {plural(creation.cards_per_starting_skill, 'card')} of each in your deck, "
        f"{plural(creation.abilities, 'ability', 'abilities')}, and up to "
        f"{plural(creation.max_starting_items, 'item')} bought with your "
        f"{plural(creation.starting_coins, 'coin')}. You may carry "
        f"{plural(creation.carry_limit, 'item')}.")
    return [texts.notice, texts.threshold, character]


def shuffle_rule(rules: Rules, high: int) -> str:
    """The shuffle with tape S: Fisher-Yates from the last place down (rulings.md 3.4 #4),
    as :func:`.state.shuffle` plays it, with a worked example from the data."""
    deck = rules.data.starting_deck_size()
    return (
        "Shuffle with tape S, now and each time you rest or drink: lay your cards face down "
        "in a row and count them; call the count N. Take the next number of tape S, cross it "
        "off, and divide it by N: the remainder plus one is a place in the row, and the card "
        "there changes places with card N. Then make N one smaller and do it again, until N "
        f"is 1. Card 1 is the top of your draw pile. (With {deck} cards and the number "
        f"{high}, {high} divided by {deck} leaves {high % deck}, so card {high % deck + 1} "
        f"and card {deck} change places.)")


def refresh_rule(rules: Rules, ability: str) -> str:
    """INDEFATIGABLE's pick with tape R (TC-11)."""
    label = rules.challenge
    if rules.refresh_on_success_only:  # TC-11 Alt
        return (f"With {ability}, after every check that succeeds take the next number of "
                "tape R and cross it off: divide it by the number of cards in your discard "
                f"pile that are not {label} cards, and the remainder plus one, counted from "
                "the top, is the card that goes back on top of your draw pile.")
    return (f"With {ability}, after every check take the next entry of tape R and cross it "
            "off. Divide its first number by the number of cards in your discard pile that "
            f"are not {label} cards: the remainder plus one, counted from the top, is the "
            "card that comes back. Divide its second number by the number of cards in your "
            "draw pile plus one: the remainder plus one, counted from the top, is the place "
            "it goes. It works when you are exhausted too: a check that fails for want of "
            "cards still brings one back.")  # TC-11 Faithful


def checks_rules(rules: Rules, burn: tuple[str, AbilityEffect] | None) -> list[str]:
    """The rules of every check: items, TARGET's floor, CHALLENGE cards, exhaustion and
    drinks, DETERMINATION, and what to keep in the log."""
    lines = [
        "At each obstacle, choose one way to try it and turn to it. Your items' own bonuses "
        "(a weapon's extra DRAW, a shield's lower TARGET) count on every check of their "
        "skill; a way to try names the items that help it besides. " + _floor_rule(rules),
        _challenge_rule(rules), _exhaustion_rule(rules)]
    if burn is not None:
        lines.append(_burn_rule(rules, *burn))
    wounds = ", your wounds" if rules.wounds_track else ""
    lines.append("Keep a log as you go: the rooms you clear, a TARGET that a setback has "
                 f"raised, any room whose reward is lost{wounds}.")
    return lines


def _floor_rule(rules: Rules) -> str:
    if rules.raised_target_floor:  # TC-05 Alt
        return f"No TARGET falls below {rules.target_floor}."
    return f"A TARGET brought down to {rules.target_floor} succeeds without a draw."


def _challenge_rule(rules: Rules) -> str:
    """CHALLENGE cards: added at a rest only, counted against a check, then rewritten
    (TC-01, TC-07, TC-08)."""
    label = rules.challenge
    when = ("after a check that succeeds; after a failure it leaves the game"
            if rules.convert_on_success_only else "after the check")  # TC-07
    alone = ("it stays a CHALLENGE card and goes on your discard pile"
             if rules.keep_lone_challenge else "it leaves the game")  # TC-08
    return (f"{label} cards join your deck only when you rest, as many as you choose to add. "
            f"Drawn, each one counts against you. {when[0].upper()}{when[1:]}, cross out "
            f"{label} on each and write on it the name of another card of that draw; it goes "
            f"on your discard pile as that skill. With no other skill card beside it, {alone}.")


def _exhaustion_rule(rules: Rules) -> str:
    """Exhaustion (TC-02, TC-03) and the drinks that undo it."""
    pile = ("holds fewer cards than the check's DRAW" if rules.full_draw_needed
            else "is empty")  # TC-02
    # TC-03; TC-20 Faithful: exhaustion with no way out ends the trial.
    then = ("you are carried out of the tower, and the trial ends" if rules.exhaustion_ends_trial
            else "you can do nothing but rest, where the rules let you, or drink; at an "
            "obstacle with neither, you cannot get past, and your trial ends")
    text = f"If your draw pile {pile} when you come to draw, you are exhausted: {then}."
    drinks = sorted(rules.restore_items)
    if drinks:
        text += (f" Before any check you may use your {' or '.join(drinks)}: shuffle your "
                 "discard pile into your draw pile with tape S.")
    return text


def _burn_rule(rules: Rules, ability: str, effect: AbilityEffect) -> str:
    which = ("a card of your choice from your draw pile" if rules.chosen_burn
             else f"{_top(effect.amount)} of your draw pile, unseen,")  # TC-12
    return (f"With {ability}, before a check you may put {which} on your discard pile to "
            f"draw {effect.amount} more.")


def _top(amount: int) -> str:
    return "the top card" if amount == 1 else f"the top {amount} cards"


def check_lines(rules: Rules, approach: Approach, extra: tuple[str, AbilityEffect] | None,
                refresh: tuple[str, AbilityEffect] | None) -> list[str]:
    """A check section: what to draw (TC-04), the items, what succeeds (TC-01, TC-06),
    WHIRLWIND (TC-19), and what follows."""
    skill, checks = approach.skill.upper(), rules.data.checks
    lines = [_draw_words(rules, approach)]
    lines += _help_words(approach)
    success = (f"You succeed if you draw at least {plural(approach.target, skill + ' card')}, "
               f"and {checks.challenge_target_per_card} more for each {rules.challenge} card "
               "you draw; a TARGET that a setback raised is that much higher.")
    if rules.wild_cards and approach.skill != checks.wild_skill:  # TC-06 Alt
        success += (f" {checks.wild_skill.upper()} cards count as {skill} too, if you then "
                    f"need {checks.wild_target_increase} more.")
    lines.append(success)
    if extra is not None and extra[1].skill == approach.skill:  # WHIRLWIND, TC-19
        lines.append(f"With {extra[0]}, a check here that fails may be followed by "
                     f"{plural(extra[1].amount, 'more check')} of {skill} before the setback.")
    after = (f"Then put the cards you drew on your discard pile, each {rules.challenge} card "
             "rewritten or gone as section 1 says.")
    if refresh is not None:
        after += f" With {refresh[0]}, bring a card back with tape R."
    lines.append(after)
    return lines


def _draw_words(rules: Rules, approach: Approach) -> str:
    cards = plural(approach.draw, "card")
    if rules.stop_early:  # TC-04 Alt
        text = (f"Draw up to {cards} from your draw pile, one at a time; you may stop as soon "
                "as you have succeeded.")
    else:  # TC-04 Faithful
        text = (f"Draw {cards} from your draw pile. You may decide to draw fewer, but only "
                "before you start.")
    if rules.full_draw_needed:  # TC-02 Alt
        text += (" With fewer cards in your draw pile than this check's DRAW, you are "
                 "exhausted for it.")
    return text


def _help_words(approach: Approach) -> list[str]:
    """One line per change the approach's items make, the items that make the same one
    together."""
    by_step: dict[tuple[int, int], list[str]] = {}
    for item, step in zip(approach.helps, approach.help_steps, strict=True):
        by_step.setdefault(step, []).append(item)
    lines = []
    for (draw, target), items in by_step.items():
        change = []
        if draw:
            change.append(f"draw {draw} more" if draw > 0 else f"draw {-draw} fewer")
        if target:
            change.append(f"the TARGET is {abs(target)} {'lower' if target < 0 else 'higher'}")
        each = " for each you carry" if len(items) > 1 else ""
        lines.append(f"With {either(items)}: {' and '.join(change)}{each}.")
    return lines


def setback_lines(rules: Rules, name: str) -> list[str]:
    """A setback (TC-18) as the reader applies it, its amount from setbacks.toml."""
    setback = rules.setbacks[name]
    amount = setback.amount
    match setback.kind:
        case SetbackKind.TARGET_UP:
            effect = f"the TARGET of your next check is {amount} higher."
        case SetbackKind.DRAIN:
            effect = (f"move {_top(amount)} of your draw pile to your discard pile without "
                      "looking.")
        case SetbackKind.LOSE_ITEM:
            effect = f"cross {plural(amount, 'item')} off your list, whichever you choose."
        case SetbackKind.LOSE_REWARD:
            rest = "" if rules.floors else ", nor rest at its rest spot"  # TC-20
            effect = ("note on your log that this room's reward is lost; you take no loot "
                      f"here{rest}.")
    return [f"Setback, {name}: {effect}"]


def rest_lines(rules: Rules) -> list[str]:
    """A rest: the discard pile and the undrawn cards shuffled together (TC-10)."""
    label = rules.challenge
    most = (f"at most {rules.data.checks.challenge_max_per_rest_alt}"
            if rules.capped_challenges else "as many as you like")  # TC-10
    return [f"Gather your discard pile and the cards left in your draw pile. You may add {label} "
            f"cards, {most}. Shuffle them all with tape S: they are your new draw pile."]
