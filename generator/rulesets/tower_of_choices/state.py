"""The state model of Tower of Choices: a character, its deck and what it carries.

A deck is three places (rulings.md 3.1): the draw pile, the hand of the current draw and the
discard pile.  A card is a string: a skill name, or the challenge label of ``checks.toml``
(``CHALLENGE``).  In a :class:`RunState` the top of the draw pile is the *last* element of
``pile`` (so a draw is ``list.pop()``); :class:`DeckState` is a frozen, hashable snapshot of
it for tests and logs.

Cards are conserved: every card a character ever owned is in the pile, the hand or the
discard pile, or is a challenge card set aside at a rest (TC-08 Alt keeps them), except
challenge cards removed from the game (TC-07 Alt, TC-08 Faithful).  So
``len(pile) + len(hand) + len(discard) + reserve == starting + added - removed`` at every
step (:meth:`RunState.card_total`).

The lookups and readings the rules need live in :class:`.rules.Rules`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from generator.engine.playlog import StateValue, Step, state_of
from generator.engine.rng import Rng
from generator.rulesets.tower_of_choices.entities import AbilityKind, Modifier
from generator.rulesets.tower_of_choices.logbook import Logbook, cards_text
from generator.rulesets.tower_of_choices.rules import Rules

RULESET = "tower-of-choices"

Card = str  # a skill name, or the challenge label


def shuffle(rng: Rng, cards: list[Card]) -> None:
    """Fisher-Yates in place, from the last position down (the order SplitMix64 uses)."""
    for i in range(len(cards) - 1, 0, -1):
        j = rng.below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]


@dataclass(frozen=True)
class Character:
    """A character as built (rulings.md 3.1, character creation).

    ``skills`` are the picked starting skills (distinct under TC-14 Faithful); the deck holds
    ``cards_per_starting_skill`` of each, plus any ``extra_card`` of the ability (ARCANE).
    ``coins`` is what the character had to spend; ``items`` what it bought.
    """

    skills: tuple[str, ...]
    ability: str
    items: tuple[str, ...]
    coins: int

    def __repr__(self) -> str:
        return (
            f"Character(skills={self.skills!r}, ability={self.ability!r}, "
            f"items={self.items!r}, coins={self.coins!r})"
        )


@dataclass(frozen=True)
class DeckState:
    """A frozen snapshot of a deck: ``pile[-1]`` is the top card."""

    pile: tuple[Card, ...]
    discard: tuple[Card, ...]
    reserve: int
    challenges_added: int
    challenges_removed: int


@dataclass
class RunState:
    """The mutable state of one character during a trial.

    The rules functions change it in place; :meth:`snapshot` gives a frozen copy.
    ``hindered`` is the TARGET increase waiting for the next check (the Hindered setback,
    TC-18); ``kept`` holds modifiers of lost items that stay (``kept_if_lost``, TC-17);
    ``wounds`` is only used under TC-18 Alt.  ``book`` is the game's log when it is
    logged (``towerpress play``), None otherwise.
    """

    character: Character
    pile: list[Card]
    discard: list[Card] = field(default_factory=list)
    hand: list[Card] = field(default_factory=list)
    items: list[str] = field(default_factory=list)
    kept: list[tuple[str, Modifier]] = field(default_factory=list)  # (item, modifier)
    reserve: int = 0  # challenge cards kept aside, out of the deck (TC-08 Alt)
    hindered: int = 0
    wounds: int = 0
    starting_cards: int = 0
    challenges_added: int = 0
    challenges_removed: int = 0
    challenges_converted: int = 0
    checks: int = 0
    felled: int = 0  # extra enemies felled by QUICK DRAW (TC-19)
    rests: int = 0
    book: Logbook | None = None

    def card_total(self) -> int:
        """The cards the conservation invariant expects in pile + hand + discard + reserve."""
        return self.starting_cards + self.challenges_added - self.challenges_removed

    def snapshot(self) -> DeckState:
        return DeckState(
            tuple(self.pile),
            tuple(self.discard),
            self.reserve,
            self.challenges_added,
            self.challenges_removed,
        )

    def note(
        self, what: str, text: str, ruling: str = "", dice: tuple[int, ...] | None = None
    ) -> None:
        """Log a step (only when there is a ``book``; callers test for it, so that an
        unlogged game builds no text): its ``dice`` (by default those the tape gave since
        the last step) and the state after it."""
        book = self.book
        assert book is not None
        rolled = book.tape.take() if dice is None else dice
        book.steps.append(Step(what, text, rolled, ruling, state_of(self.shown(book))))

    def shown(self, book: Logbook) -> dict[str, StateValue]:
        """The state a step shows: the piles' sizes (the hand of a draw counts as
        discarded: it goes there once its challenge cards are rewritten), the deck by card,
        the items, a Hindered setback waiting, and wounds where a wounds track counts them."""
        out: dict[str, StateValue] = {
            "pile": len(self.pile),
            "discard": len(self.discard) + len(self.hand),
            "deck": deck_text(self.pile + self.hand + self.discard),
            "items": items_text(self.items),
            "hindered": self.hindered,
        }
        if book.wounds:
            out["wounds"] = self.wounds
        return out


def starting_deck(rules: Rules, character: Character) -> list[Card]:
    """The new deck, unshuffled: the picked skills times the card count, plus the ability's
    extra cards (TC-14; ARCANE's Spellcraft card)."""
    per_skill = rules.data.character.cards_per_starting_skill
    deck = [skill for skill in character.skills for _ in range(per_skill)]
    for effect in rules.abilities[character.ability].effects:
        if effect.kind == AbilityKind.EXTRA_CARD:
            deck.extend([effect.skill] * effect.amount)
    return deck


def new_run_state(
    rules: Rules, character: Character, rng: Rng, book: Logbook | None = None
) -> RunState:
    """A fresh character entering the trial: its deck shuffled into the draw pile."""
    deck = starting_deck(rules, character)
    shuffle(rng, deck)
    st = RunState(
        character=character,
        pile=deck,
        items=list(character.items),
        starting_cards=len(deck),
        book=book,
    )
    if book is not None:
        st.note("shuffle", f"shuffle the {len(deck)}-card deck: {pile_text(st.pile)}")
    return st


def deck_text(cards: Sequence[Card]) -> str:
    """A deck as a logged game's state shows it: each card with its count, by name."""
    return ", ".join(f"{card} {n}" for card, n in sorted(Counter(cards).items()))


def items_text(items: Sequence[str]) -> str:
    """Items as a logged game shows them: "; " between them, as a name may hold a comma."""
    return "; ".join(items) or "none"


def pile_text(pile: Sequence[Card]) -> str:
    """A draw pile as a logged game shows it after a shuffle: top first."""
    return f"the pile, top first: {cards_text(pile[::-1])}"


def count(cards: Sequence[Card], name: Card) -> int:
    return sum(1 for card in cards if card == name)
