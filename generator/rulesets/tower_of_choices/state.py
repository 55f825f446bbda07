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

from collections.abc import Sequence
from dataclasses import dataclass, field

from generator.engine.rng import Rng
from generator.rulesets.tower_of_choices.entities import AbilityKind, Modifier
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
    ``wounds`` is only used under TC-18 Alt.  ``events`` is a play log when not None.
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
    events: list[tuple[str, ...]] | None = None

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

    def log(self, *event: str) -> None:
        if self.events is not None:
            self.events.append(event)


def starting_deck(rules: Rules, character: Character) -> list[Card]:
    """The new deck, unshuffled: the picked skills times the card count, plus the ability's
    extra cards (TC-14; ARCANE's Spellcraft card)."""
    per_skill = rules.data.character.cards_per_starting_skill
    deck = [skill for skill in character.skills for _ in range(per_skill)]
    for effect in rules.abilities[character.ability].effects:
        if effect.kind == AbilityKind.EXTRA_CARD:
            deck.extend([effect.skill] * effect.amount)
    return deck


def new_run_state(rules: Rules, character: Character, rng: Rng, *, log: bool = False) -> RunState:
    """A fresh character entering the trial: its deck shuffled into the draw pile."""
    deck = starting_deck(rules, character)
    shuffle(rng, deck)
    return RunState(
        character=character,
        pile=deck,
        items=list(character.items),
        starting_cards=len(deck),
        events=[] if log else None,
    )


def count(cards: Sequence[Card], name: Card) -> int:
    return sum(1 for card in cards if card == name)
