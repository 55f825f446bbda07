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

:class:`RulesIndex` precomputes the lookups the rules need from the typed data once per
simulation; every number it holds comes from the data.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from generator.rulesets.tower_of_choices.read import (
    Ability,
    AbilityEffect,
    AbilityKind,
    Item,
    ItemKind,
    Modifier,
    Setback,
    TowerOfChoices,
)

RULESET = "tower-of-choices"

Card = str  # a skill name, or the challenge label


class Rng(Protocol):
    """What the rules need from a random generator: a uniform integer in ``[0, n)``.

    :class:`generator.engine.rng.SplitMix64` fits; tests pass scripted generators.
    """

    def below(self, n: int) -> int: ...


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


@dataclass(frozen=True, eq=False)
class RulesIndex:
    """Lookups over the typed data, built once (see :func:`index`); hashed by identity,
    so that derived values can be cached per index."""

    data: TowerOfChoices
    items: dict[str, Item]
    mods: dict[str, dict[str, tuple[Modifier, ...]]]  # item -> skill -> its modifiers
    abilities: dict[str, Ability]
    setbacks: dict[str, Setback]
    challenge: Card
    equipment_draw_step: int  # the "Equipment" adjustment row's direction (decided_by item)
    restore_items: frozenset[str]  # items whose effect is restore_discard (energy drink)
    min_deck: int  # the smallest legal starting deck (rulings.md 3.5, invariant 4)

    def ability_effect(self, ability: str, kind: AbilityKind) -> AbilityEffect | None:
        return self.abilities[ability].effect(kind)


# The flags of checks.toml that describe the one deck economy this engine implements.
_REQUIRED_FLAGS = (
    "drawn_cards_to_discard",
    "exhausted_when_draw_pile_empty",
    "rest_shuffles_discard_with_draw_pile",
    "challenge_added_only_when_resting",
    "challenge_converted_after_draw",
)


def index(data: TowerOfChoices) -> RulesIndex:
    """Build the lookups; every value comes from ``data``.

    Raises:
        ValueError: a deck-economy flag of ``checks.toml`` is off: the engine implements
            only the economy that the original describes, and says so instead of ignoring it.
    """
    off = [flag for flag in _REQUIRED_FLAGS if not getattr(data.checks, flag)]
    if off:
        raise ValueError(f"the Tower of Choices engine needs checks flags {', '.join(off)} = true")
    steps = [
        a.direction
        for a in data.checks.adjustments
        if a.decided_by == "item" and a.changes == "draw"
    ]
    decks = [data.starting_deck_size(a) for a in data.abilities]
    return RulesIndex(
        data=data,
        items={i.name: i for i in data.items},
        mods={i.name: {s: i.modifiers_for(s) for s in data.skill_names} for i in data.items},
        abilities={a.name: a for a in data.abilities},
        setbacks={s.name: s for s in data.setbacks},
        challenge=data.checks.challenge_label,
        equipment_draw_step=steps[0] if steps else 0,
        restore_items=frozenset(
            i.name for i in data.items if ItemKind.RESTORE_DISCARD in i.effects
        ),
        min_deck=min(decks, default=data.starting_deck_size()),
    )


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


def starting_deck(ix: RulesIndex, character: Character) -> list[Card]:
    """The new deck, unshuffled: the picked skills times the card count, plus the ability's
    extra cards (TC-14; ARCANE's Spellcraft card)."""
    rules = ix.data.character
    deck = [skill for skill in character.skills for _ in range(rules.cards_per_starting_skill)]
    for effect in ix.abilities[character.ability].effects:
        if effect.kind == AbilityKind.EXTRA_CARD:
            deck.extend([effect.skill] * effect.amount)
    return deck


def new_run_state(ix: RulesIndex, character: Character, rng: Rng, *, log: bool = False) -> RunState:
    """A fresh character entering the trial: its deck shuffled into the draw pile."""
    deck = starting_deck(ix, character)
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
