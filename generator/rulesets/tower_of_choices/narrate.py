"""The lines of a logged game (``towerpress play``): one :class:`~generator.engine.playlog.Step`
for each room, obstacle, decision of the reference player, check, rewritten challenge card,
setback, refresh, drink and rest, each with the ruling that decided it.

Only a logged game calls these (its :class:`.state.RunState` has a ``book``); the rules
and the policy hand them what happened, and they only word it.  Cards are listed in the
order they came: a draw in the order drawn, a pile top first.
"""

from __future__ import annotations

from generator.engine.playlog import Step, state_of
from generator.rulesets.tower_of_choices.logbook import cards_text, ordinal
from generator.rulesets.tower_of_choices.rules import Rules
from generator.rulesets.tower_of_choices.state import (
    Card,
    Character,
    RunState,
    deck_text,
    items_text,
    pile_text,
)
from generator.rulesets.tower_of_choices.trial import Approach, Obstacle, Room, Trial
from generator.words import plural


def character(rules: Rules, hero: Character, deck: list[Card], dice: tuple[int, ...]) -> Step:
    """The character the run's ``character`` stream built (its ``dice``)."""
    spent = sum(rules.items[name].cost for name in hero.items)
    text = (
        f"a new character: skills {', '.join(hero.skills)}; ability {hero.ability}; "
        f"{hero.coins} coins buy {plural(len(hero.items), 'item')} for {spent}"
    )
    state = {"deck": deck_text(deck), "items": items_text(hero.items)}
    return Step("character", text, dice, "", state_of(state))


def room(rules: Rules, st: RunState, trial: Trial, at: Room) -> None:
    """A room as the trial's ``content`` stream made it; its dice are its rolls."""
    parts = [plural(len(at.obstacles), "obstacle")]
    parts.append(f"loot {at.loot}" if at.loot else "no loot")
    if at.rest_spot:
        parts.append("a rest spot")
    if rules.floors and trial.floor_end(at):
        parts.append(f"floor {at.floor} ends here, with a rest")
    if rules.rest_anywhere:
        parts.append(f"resting here costs {at.rest_cost}")
    dice = tuple(roll.value for roll in at.rolls)
    st.note("room", f"{at.name}: {'; '.join(parts)}", "TC-20", dice)


def approach_text(approach: Approach) -> str:
    why = f" ({'; '.join(approach.applied)})" if approach.applied else ""
    return f"{approach.skill} DRAW {approach.draw}, TARGET {approach.target}{why}"


def obstacle(st: RunState, at: Obstacle) -> None:
    """An obstacle: the approaches it names, the items that help, its setback."""
    approaches = "; ".join(approach_text(a) for a in at.approaches)
    helps = f"; {', '.join(at.helps)} helps" if at.helps else ""
    st.note("obstacle", f"{at.name}: {approaches}{helps}; failure costs {at.failure}")


def check(
    rules: Rules,
    st: RunState,
    skill: str,
    committed: int,
    target: int,
    surplus: int,
) -> None:
    """A check's draw and its result (TC-01, TC-02, TC-04, TC-05, TC-06)."""
    drawn = st.hand
    per_card = rules.data.checks.challenge_target_per_card
    matches = drawn.count(skill)
    challenges = drawn.count(rules.challenge)
    need = target + per_card * challenges
    notes: list[tuple[str, str]] = []
    if surplus > matches - need:
        wild = rules.data.checks
        notes.append(("TC-06", f"{wild.wild_skill} counted as wild at TARGET "
                               f"+{wild.wild_target_increase}"))
    if target == 0:
        notes.append(("TC-05", "TARGET 0"))
    if challenges:
        verb = "raises" if challenges == 1 else "raise"
        notes.append(("TC-01", f"{plural(challenges, 'CHALLENGE card')} {verb} the need"))
    if len(drawn) < committed:
        stopped = rules.stop_early and surplus >= 0
        notes.append(("TC-04", "stopped at the first success") if stopped
                     else ("TC-02", "the pile held no more"))
    said = "".join(f"; {text}" for _, text in notes)
    result = "success" if surplus >= 0 else "failure"
    text = f"drew {cards_text(drawn)}: {matches} {skill} for {need} needed{said}: {result}"
    st.note("check", text, notes[0][0] if notes else "")


def exhausted(rules: Rules, st: RunState) -> None:
    """A check that the pile cannot start (TC-02, TC-03)."""
    if rules.full_draw_needed:
        st.note("exhausted", "fewer cards in the pile than DRAW: exhausted, the check "
                             "fails", "TC-02")
    elif rules.exhaustion_ends_trial:
        st.note("exhausted", "the draw pile is empty: exhausted, carried out", "TC-03")
    else:
        st.note("exhausted", "the draw pile is empty: exhausted, the check fails", "TC-03")


def burn(st: RunState, card: Card, chosen: bool) -> None:
    """DETERMINATION's burnt card (TC-12)."""
    how = "picked from the pile," if chosen else "the top card, unseen,"
    st.note("burn", f"DETERMINATION: {card}, {how} goes to the discard pile", "TC-12")


def conversion(st: RunState, text: str, ruling: str) -> None:
    """What became of one challenge card of a draw (TC-07, TC-08, TC-09)."""
    st.note("challenge", text, ruling)


def refresh(st: RunState, card: Card, place: str) -> None:
    """INDEFATIGABLE's card back into the pile (TC-11)."""
    st.note("refresh", f"INDEFATIGABLE: {card} from the discard pile back into the pile, "
                       f"{place}", "TC-11")


def place_in_pile(pile_size: int, index: int) -> str:
    """Where a card inserted at ``index`` of a pile of ``pile_size`` (after it) lies."""
    return f"{ordinal(pile_size - index)} from the top"


def setback(st: RunState, name: str, detail: str) -> None:
    """A failure's setback (TC-18)."""
    st.note("setback", f"setback {name}: {detail}", "TC-18")


def wound(rules: Rules, st: RunState) -> None:
    """A wound of the wounds track (TC-18 Alt)."""
    out_at = rules.data.wounds_alt.out_at
    st.note("wound", f"a wound: {st.wounds} of {out_at}", "TC-18")


def decision(st: RunState, text: str, ruling: str = "") -> None:
    """A choice of the reference player, with its reason."""
    st.note("decision", text, ruling)


def rest(st: RunState, text: str, ruling: str) -> None:
    """A rest: where, what was shuffled, and the new pile (TC-20, TC-21)."""
    st.note("rest", f"{text}; {pile_text(st.pile)}", ruling)


def drink(st: RunState, item: str, back: int) -> None:
    """An energy drink: the discard pile shuffled back without a rest."""
    text = f"{item} drunk: {plural(back, 'discarded card')} shuffled back; {pile_text(st.pile)}"
    st.note("drink", text)


def event(st: RunState, what: str, text: str, ruling: str = "") -> None:
    """Any other line: loot, a felled obstacle, an obstacle passed after a failure."""
    st.note(what, text, ruling)
