"""The character page of a Tower of Choices booklet (issue 26): what its build worksheet
prints, and 3 pre-made characters made from the seed.

:func:`premade_characters` draws legal characters (:func:`.character.random_character`) from
the seed's own stream, (seed, "characters"), so that they change neither the rooms nor the
tapes.  It keeps a character only when its build holds together (:func:`_fits`: an ability
the booklet plays, for a skill the character has, and no item whose bonus is for skills it
lacks) and it shares no skill and no ability with those kept before it (:func:`_apart`):
three builds a reader can really choose between.  Each is a :class:`.trial.Premade`, the
character with its deck (cards of each skill, TC-14) and the coins it has left (TC-15),
which the booklet's JSON holds under ``characters``. :func:`creation_json` is the
worksheet's part, ``creation``: how many skills, abilities and items to pick under the
booklet's profile (TC-14, TC-15, TC-16), and the lists to pick from.
:func:`premade_violations` is the checker's part.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import lru_cache
from typing import Any

from generator.engine.rng import stream
from generator.errors import TowerpressError
from generator.findings import Finding
from generator.rulesets.tower_of_choices.character import character_violations, random_character
from generator.rulesets.tower_of_choices.entities import (
    Ability,
    AbilityKind,
    Item,
    ItemKind,
    Modifier,
)
from generator.rulesets.tower_of_choices.procedures import carried_count
from generator.rulesets.tower_of_choices.rules import Rules
from generator.rulesets.tower_of_choices.state import RULESET, Character, starting_deck
from generator.rulesets.tower_of_choices.trial import Premade, Trial
from generator.rulesets.tower_of_choices.views import describe_modifier

#: Pre-made characters on a booklet's character page (issue 26).
PREMADE = 3
#: Characters drawn at most to find PREMADE that fit and are apart.  With the content's
#: 12 skills, 12 abilities and 18 items the three are found after some 220 draws (the
#: third, sharing no skill with six others, is the rare one).
MAX_DRAWS = 10_000

#: The item effects a booklet plays: the drink's, as the engine does, and the maps', which
#: name each room (gamebook.py); the others are the DM's.
PLAYED_ITEM_EFFECTS = frozenset({ItemKind.RESTORE_DISCARD, ItemKind.REVEAL_ROOM_NAMES})

Json = dict[str, Any]


def with_characters(rules: Rules, trial: Trial) -> Trial:
    """``trial`` (a booklet's) with the pre-made characters of its seed."""
    return replace(trial, characters=premade_characters(rules, trial.seed))


@lru_cache(maxsize=64)
def premade_characters(rules: Rules, seed: str) -> tuple[Premade, ...]:
    """PREMADE legal characters that fit (:func:`_fits`), each apart from those before it
    (:func:`_apart`), drawn from the stream of (``seed``, "characters").  Kept for the
    last few (rules, seed): the draws take some 10 ms, and a booklet is made again to be
    checked and to be laid out.

    Raises:
        TowerpressError: MAX_DRAWS characters gave fewer (content whose builds cannot:
            no ability the booklet plays, say).
    """
    rng = stream(seed, RULESET, purpose="characters")
    kept: list[Character] = []
    for _ in range(MAX_DRAWS):
        candidate = random_character(rules, rng)
        if _fits(rules, candidate) and all(_apart(rules, candidate, o) for o in kept):
            kept.append(candidate)
        if len(kept) == PREMADE:
            return tuple(premade(rules, character) for character in kept)
    raise TowerpressError(f"a Tower of Choices booklet needs {PREMADE} pre-made characters "
                          f"whose builds hold together and differ; {MAX_DRAWS:,} random "
                          f"characters of this content gave {len(kept)}")


def _fits(rules: Rules, character: Character) -> bool:
    """Whether a build holds together in a booklet: its ability has an effect the booklet
    plays (not only the DM's, narrative), each such effect that names a skill names one
    of the character's (QUICK DRAW's Ranged offense; ARCANE's extra card brings its own);
    each item with a bonus has one for a skill of the character's (no pistol without
    Ranged offense); and no item is bought twice but one to use up, nor beside a kit that
    holds it already (Misc supplies, tier 3 holds tier 2 and tier 1)."""
    skills = set(character.skills)
    effects = [e for e in rules.abilities[character.ability].effects if e.engine]
    if not effects or any(e.skill and e.skill not in skills for e in effects
                          if e.kind is not AbilityKind.EXTRA_CARD):
        return False
    items = [rules.items[name] for name in character.items]
    if not all(any(m.skill in skills for m in i.modifiers) for i in items if i.modifiers):
        return False
    kept = [i.name for i in items if not i.one_use]
    held = {name for i in items for name in _inside(rules, i)}
    return len(set(kept)) == len(kept) and not held & set(character.items)


def _inside(rules: Rules, kit: Item) -> list[str]:
    """The kits ``kit`` holds, however deep (``includes``: tier 3 holds tier 2, and so tier
    1).  The loader refuses a kit that holds itself."""
    inside: list[str] = []
    while kit.includes:
        inside.append(kit.includes)
        kit = rules.items[kit.includes]
    return inside


def _apart(rules: Rules, one: Character, other: Character) -> bool:
    """Whether two builds leave the reader a real choice: no skill in common, where the
    data has skills for PREMADE characters that share none (other skills, where it has
    not), and another ability, where it has PREMADE abilities."""
    data = rules.data
    if len(data.skill_names) >= PREMADE * data.character.starting_skills:
        skills_apart = not set(one.skills) & set(other.skills)
    else:
        skills_apart = sorted(one.skills) != sorted(other.skills)
    return skills_apart and (one.ability != other.ability or len(data.abilities) < PREMADE)


def premade(rules: Rules, character: Character) -> Premade:
    """``character`` (a legal one) with its deck and the coins it has left."""
    return Premade(character, deck_of(rules, character), coins_left(rules, character))


def coins_left(rules: Rules, character: Character) -> int:
    """The coins ``character`` (whose items are all of the catalogue) has after buying its
    items (TC-15)."""
    return character.coins - sum(rules.items[name].cost for name in character.items)


def deck_of(rules: Rules, character: Character) -> tuple[tuple[str, int], ...]:
    """The cards of each skill in ``character``'s starting deck (TC-14 and ARCANE's extra
    card: :func:`.state.starting_deck`), in the order the skills first come."""
    return tuple(Counter(starting_deck(rules, character)).items())


# -- the JSON -------------------------------------------------------------------------------


def characters_json(characters: Sequence[Premade]) -> list[Json]:
    """The booklet's ``characters``."""
    return [{"skills": list(made.character.skills), "ability": made.character.ability,
             "items": list(made.character.items), "coins": made.character.coins,
             "coins_left": made.coins_left,
             "deck": [{"skill": skill, "cards": cards} for skill, cards in made.deck]}
            for made in characters]


def read_characters(characters: Sequence[Mapping[str, Any]]) -> tuple[Premade, ...]:
    """The pre-made characters of a booklet's ``characters`` (schema-valid), as written."""
    return tuple(Premade(Character(tuple(c["skills"]), c["ability"], tuple(c["items"]),
                                   c["coins"]),
                         tuple((d["skill"], d["cards"]) for d in c["deck"]), c["coins_left"])
                 for c in characters)


def creation_json(rules: Rules) -> Json:
    """The booklet's ``creation``: what its build worksheet asks for under the booklet's
    readings (TC-14, TC-15, TC-16), and the skills, abilities and items to choose from."""
    data, creation = rules.data, rules.data.character
    return {
        "skills": {"pick": creation.starting_skills, "different": rules.distinct_skills,
                   "cards_each": creation.cards_per_starting_skill,
                   "names": list(data.skill_names)},
        "abilities": {"pick": creation.abilities,
                      "list": [_ability_json(rules, a) for a in data.abilities]},
        "items": {"coins": creation.starting_coins, "most": creation.max_starting_items,
                  "exactly": rules.exact_item_count, "carry": creation.carry_limit,
                  "kit_pieces_count": rules.kit_pieces_count,
                  "catalogue": [_item_json(rules, item) for item in data.items]},
    }


def _ability_json(rules: Rules, ability: Ability) -> Json:
    """An ability as the worksheet lists it: whether the booklet plays any of its effects
    (the others are the DM's, narrative), and what it changes in the build."""
    coins = ability.effect(AbilityKind.STARTING_COINS)
    return {
        "name": ability.name, "text": ability.text,
        "in_play": any(effect.engine for effect in ability.effects),
        "coins": coins.amount if coins is not None else None,  # RICH (TC-15)
        "extra_cards": [{"skill": e.skill, "cards": e.amount} for e in ability.effects
                        if e.kind is AbilityKind.EXTRA_CARD],  # ARCANE (TC-14)
    }


def _item_json(rules: Rules, item: Item) -> Json:
    """An item as the worksheet lists it: its cost, its bonuses, whether the booklet plays
    an effect of it besides, and what it counts as against the carry limit (TC-16)."""
    return {"name": item.name, "cost": item.cost, "text": item.text,
            "bonus": [_bonus(rules, m) for m in item.modifiers],
            "in_play": bool(PLAYED_ITEM_EFFECTS & set(item.effects)), "one_use": item.one_use,
            "counts_as": carried_count(rules, [item.name])}


def _bonus(rules: Rules, modifier: Modifier) -> str:
    """``+1 Knowledge DRAW: only on ...``, as the rulebook's catalogue prints it, under the
    booklet's reading of a condition: TC-17 Alt waives the reference book's."""
    if modifier.condition and modifier.ruling in rules.waived_conditions:
        modifier = replace(modifier, condition=f"on every {modifier.skill} check")
    return describe_modifier(None, modifier)


# -- the checker's part ---------------------------------------------------------------------


def premade_violations(rules: Rules, characters: Sequence[Premade]) -> list[Finding]:
    """Every way a booklet's pre-made characters break the creation rules
    (:func:`.character.character_violations`: TC-14, TC-15, TC-16), and each deck or
    coins left that does not follow from the character (``premade-derived``)."""
    out: list[Finding] = []
    for number, made in enumerate(characters, 1):
        where = f"Character {number}"
        out += [replace(f, where=where) for f in character_violations(rules, made.character)]
        out += _derived(rules, where, made)
    return out


def _derived(rules: Rules, where: str, made: Premade) -> list[Finding]:
    character, out = made.character, list[Finding]()
    # An unknown ability or item is character_violations' finding; nothing to recompute.
    if character.ability in rules.abilities and made.deck != deck_of(rules, character):
        out.append(Finding("premade-derived", where, f"expected the deck "
                           f"{_deck_text(deck_of(rules, character))} for "
                           f"{', '.join(character.skills)} and {character.ability} (TC-14), "
                           f"got {_deck_text(made.deck)}"))
    if all(name in rules.items for name in character.items):
        left = coins_left(rules, character)
        if made.coins_left != left:
            out.append(Finding("premade-derived", where, f"expected {left} coins left of "
                               f"{character.coins} (TC-15), got {made.coins_left}"))
    return out


def _deck_text(deck: Sequence[tuple[str, int]]) -> str:
    return ", ".join(f"{skill} {cards}" for skill, cards in deck) or "no cards"
