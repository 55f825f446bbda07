"""A Tower of Choices character's starting skill deck (``cards --build``).

Every number comes from the model's character creation data: how many skills, how many
cards of each, whether they must differ (TC-14, by profile), the ability's extra cards.
The cards are those of the ruleset's ``skills`` and ``challenges`` decks.
"""

from __future__ import annotations

from generator.errors import TowerpressError
from generator.model.common import Profile
from generator.model.decks import Card
from generator.model.loader import Ruleset
from generator.products.cards.printing import DeckPrint, deck_print
from generator.rulesets.tower_of_choices.read import AbilityKind, TowerOfChoices

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
) -> DeckPrint:
    """The skill cards of one new character, with ``challenges`` challenge cards.

    Raises:
        TowerpressError: not a Tower of Choices ruleset, an unknown skill or ability, the
            wrong number of skills, or a repeated one where the profile forbids it.
    """
    data = ruleset.data
    if not isinstance(data, TowerOfChoices):
        raise TowerpressError(f"--build makes a Tower of Choices starting deck, not a "
                              f"{ruleset.id} one")
    for needed in (SKILL_DECK, CHALLENGE_DECK):
        if needed not in ruleset.decks:
            raise TowerpressError(f"--build needs a {needed!r} deck in {ruleset.id}/decks")
    names = {s.casefold(): s for s in data.skill_names}
    names.update({a.written.casefold(): a.skill for a in data.aliases})
    options = list(data.skill_names)
    chosen = [_named(s, names, "skill", options) for s in skills_text.split(",") if s.strip()]
    rules = data.character
    if len(chosen) != rules.starting_skills:
        raise TowerpressError(f"--build takes {rules.starting_skills} skills separated by commas, "
                              f"got {len(chosen)} (skills: {', '.join(options)})")
    distinct = rules.distinct_starting_skills and not profile.alt("TC-14")
    if distinct and len(set(chosen)) != len(chosen):
        raise TowerpressError(f"--build: the {rules.starting_skills} starting skills must all "
                              f"differ under profile {profile.id} (TC-14)")
    counts = {skill: 0 for skill in chosen}
    for skill in chosen:
        counts[skill] += rules.cards_per_starting_skill
    if ability_name is not None:
        abilities = {a.name.casefold(): a.name for a in data.abilities}
        ability = data.ability(_named(ability_name, abilities, "ability",
                                      [a.name for a in data.abilities]))
        for effect in ability.effects:
            if effect.kind is AbilityKind.EXTRA_CARD:
                counts[effect.skill] = counts.get(effect.skill, 0) + effect.amount
    skill_deck = ruleset.decks[SKILL_DECK]
    by_name = {c.title: c for c in skill_deck.cards(data, profile)}
    cards: list[Card] = []
    for skill, count in counts.items():
        if skill not in by_name:
            raise TowerpressError(f"the {SKILL_DECK!r} deck has no card for {skill!r}")
        cards.extend([by_name[skill]] * count)
    challenge = ruleset.decks[CHALLENGE_DECK].cards(data, profile)[:1]
    cards.extend(list(challenge) * challenges)
    return deck_print(ruleset, skill_deck, cards, id="starting-deck")
