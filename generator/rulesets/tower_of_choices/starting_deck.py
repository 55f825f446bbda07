"""A Tower of Choices character's starting skill deck (``cards --build``), and the skill
cards a ready-to-play print holds (``cards`` without ``--build``).

Every number comes from the model's character creation data: how many skills, how many
cards of each, whether they must differ (TC-14, by profile), the ability's extra cards.
The cards are those of the ruleset's ``skills`` and ``challenges`` decks.
"""

from __future__ import annotations

from generator.errors import TowerpressError
from generator.model.common import Profile
from generator.model.decks import Card, Deck
from generator.model.loader import Ruleset
from generator.rulesets.tower_of_choices.data import TowerOfChoices
from generator.rulesets.tower_of_choices.entities import AbilityKind
from generator.rulesets.tower_of_choices.rules import rules_for

SKILL_DECK = "skills"
CHALLENGE_DECK = "challenges"


def _named(wanted: str, names: dict[str, str], what: str, options: list[str]) -> str:
    key = wanted.strip().casefold()
    if key not in names:
        raise TowerpressError(f"unknown {what} {wanted.strip()!r} "
                              f"(expected one of: {', '.join(options)})")
    return names[key]


def starting_deck(
    ruleset: Ruleset, skills_text: str, ability_name: str | None, challenges: int,
    profile: Profile,
) -> tuple[Deck, list[Card]]:
    """The skill cards of one new character, with ``challenges`` challenge cards, and the
    skills deck, whose back they take.

    Raises:
        TowerpressError: an unknown skill or ability, the wrong number of skills, a
            repeated one where the profile forbids it, or a deck the build needs missing.
    """
    for needed in (SKILL_DECK, CHALLENGE_DECK):
        if needed not in ruleset.decks:
            raise TowerpressError(f"--build needs a {needed!r} deck in {ruleset.id}/decks")
    data: TowerOfChoices = ruleset.data
    counts = _card_counts(data, _chosen_skills(data, skills_text, profile), ability_name)
    skill_deck = ruleset.decks[SKILL_DECK]
    by_name = {c.title: c for c in ruleset.cards(skill_deck, profile)}
    cards: list[Card] = []
    for skill, count in counts.items():
        if skill not in by_name:
            raise TowerpressError(f"the {SKILL_DECK!r} deck has no card for {skill!r}")
        cards.extend([by_name[skill]] * count)
    challenge = ruleset.cards(ruleset.decks[CHALLENGE_DECK], profile)[:1]
    cards.extend(list(challenge) * challenges)
    return skill_deck, cards


def ready_cards(ruleset: Ruleset, deck: Deck, profile: Profile) -> tuple[Card, ...]:
    """The cards of ``deck`` that a ready-to-play print holds: of the skills deck, as many
    of each skill as one new character can start with (TC-14: two of each of three
    different skills, and an ability's extra card of its skill), so that any character can
    be dealt from it; every other deck as its file lists it."""
    cards = ruleset.cards(deck, profile)
    if deck.id != SKILL_DECK:
        return cards
    data: TowerOfChoices = ruleset.data
    return tuple(card for card in cards
                 for _ in range(most_cards_of(data, card.title, profile)))


def most_cards_of(data: TowerOfChoices, skill: str, profile: Profile) -> int:
    """The most cards of ``skill`` a new character's deck can hold under ``profile``."""
    creation = data.character
    picks = 1 if rules_for(data, profile).distinct_skills else creation.starting_skills
    extras = sorted((sum(e.amount for e in a.effects
                         if e.kind is AbilityKind.EXTRA_CARD and e.skill == skill)
                     for a in data.abilities), reverse=True)
    return picks * creation.cards_per_starting_skill + sum(extras[:creation.abilities])


def _chosen_skills(data: TowerOfChoices, skills_text: str, profile: Profile) -> list[str]:
    """The starting skills ``--build`` names, by their own names or aliases."""
    names = {s.casefold(): s for s in data.skill_names}
    names.update({a.written.casefold(): a.skill for a in data.aliases})
    options = list(data.skill_names)
    chosen = [_named(s, names, "skill", options) for s in skills_text.split(",") if s.strip()]
    creation = data.character
    if len(chosen) != creation.starting_skills:
        raise TowerpressError(f"--build takes {creation.starting_skills} skills separated by "
                              f"commas, got {len(chosen)} (skills: {', '.join(options)})")
    if rules_for(data, profile).distinct_skills and len(set(chosen)) != len(chosen):
        raise TowerpressError(f"--build: the {creation.starting_skills} starting skills must "
                              f"all differ under profile {profile.id} (TC-14)")
    return chosen


def _card_counts(data: TowerOfChoices, chosen: list[str], ability_name: str | None
                 ) -> dict[str, int]:
    """How many cards of each skill the deck holds: the starting skills', then the
    ability's extra cards."""
    counts = {skill: 0 for skill in chosen}
    for skill in chosen:
        counts[skill] += data.character.cards_per_starting_skill
    if ability_name is not None:
        abilities = {a.name.casefold(): a.name for a in data.abilities}
        ability = data.ability(_named(ability_name, abilities, "ability",
                                      [a.name for a in data.abilities]))
        for effect in ability.effects:
            if effect.kind is AbilityKind.EXTRA_CARD:
                counts[effect.skill] = counts.get(effect.skill, 0) + effect.amount
    return counts
