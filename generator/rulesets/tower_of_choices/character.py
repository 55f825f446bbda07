"""Character creation: legality as a list of violations, and a seeded random legal build.

Violation codes map to rulings.md 3.5, invariant 5 (character legality) and invariant 1
(vocabulary).  ``character_violations`` reports every problem, never only the first
(style.md: validation reports all problems).
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.model.common import Profile
from generator.rulesets.tower_of_choices.procedures import carried_count
from generator.rulesets.tower_of_choices.read import AbilityKind
from generator.rulesets.tower_of_choices.state import Character, Rng, RulesIndex


@dataclass(frozen=True)
class Violation:
    """One broken invariant: a stable ``code``, the invariant number of rulings.md 3.5,
    where it is (``character``, ``Room 3``, ``Room 3/Obstacle 3.1``) and a message."""

    code: str
    invariant: int
    where: str
    message: str


def starting_coins(ix: RulesIndex, ability: str) -> int:
    """The coins to spend: ``character.starting_coins``, or RICH's amount (TC-15)."""
    effect = (
        ix.ability_effect(ability, AbilityKind.STARTING_COINS) if ability in ix.abilities else None
    )
    return effect.amount if effect else ix.data.character.starting_coins


def character_violations(ix: RulesIndex, profile: Profile, character: Character) -> list[Violation]:
    """Every way ``character`` breaks the creation rules (TC-14, TC-15, TC-16)."""
    rules = ix.data.character
    out: list[Violation] = []

    def bad(code: str, invariant: int, message: str) -> None:
        out.append(Violation(code, invariant, "character", message))

    names = ix.data.skill_names
    for skill in character.skills:
        if skill not in names:
            bad(
                "unknown-skill", 1, f"{skill!r} is not a skill (expected one of {', '.join(names)})"
            )
    if len(character.skills) != rules.starting_skills:
        bad(
            "skill-count",
            5,
            f"expected {rules.starting_skills} starting skills, got {len(character.skills)}",
        )
    distinct = rules.distinct_starting_skills and not profile.alt("TC-14")
    if distinct and len(set(character.skills)) != len(character.skills):
        bad("repeated-skill", 5, f"starting skills must differ (TC-14), got {character.skills!r}")
    if character.ability not in ix.abilities:
        bad("unknown-ability", 1, f"{character.ability!r} is not an ability")
    unknown = [name for name in character.items if name not in ix.items]
    for name in unknown:
        bad("unknown-item", 1, f"{name!r} is not in the item catalogue")
    known = [name for name in character.items if name in ix.items]
    limit = rules.max_starting_items
    if profile.alt("TC-15") and len(character.items) != limit:
        bad(
            "item-count",
            5,
            f"expected exactly {limit} starting items (TC-15 Alt), got {len(character.items)}",
        )
    elif len(character.items) > limit:
        bad(
            "item-count",
            5,
            f"expected at most {limit} starting items (TC-15), got {len(character.items)}",
        )
    coins = starting_coins(ix, character.ability)
    if character.coins != coins:
        bad("coins", 5, f"expected {coins} coins for {character.ability}, got {character.coins}")
    cost = sum(ix.items[name].cost for name in known)
    if cost > coins:
        bad("over-budget", 5, f"the starting items cost {cost} coins, more than {coins}")
    carried = carried_count(ix, profile, known)
    if carried > rules.carry_limit:
        bad(
            "carry-limit",
            5,
            f"the starting items count as {carried} items, more than {rules.carry_limit} (TC-16)",
        )
    return out


def random_character(ix: RulesIndex, profile: Profile, rng: Rng) -> Character:
    """A uniformly seeded legal character (under ``profile``).

    Skills: distinct (TC-14 Faithful) or with repeats (Alt).  Ability: uniform.  Items: one
    slot at a time up to ``max_starting_items``, uniform over the items that still fit the
    coins and the carry limit (TC-16); under TC-15 Alt ("exactly") only over the items
    after which every slot still to fill can be filled too, with the coins and the room
    left (two kits of five pieces fill a carry limit of ten under TC-16 Alt).
    """
    data = ix.data
    rules = data.character
    names = list(data.skill_names)
    if rules.distinct_starting_skills and not profile.alt("TC-14"):
        skills = []
        for _ in range(rules.starting_skills):
            skills.append(names.pop(rng.below(len(names))))
    else:
        skills = [names[rng.below(len(names))] for _ in range(rules.starting_skills)]
    ability = data.abilities[rng.below(len(data.abilities))].name
    coins = starting_coins(ix, ability)
    exact = profile.alt("TC-15")
    items: list[str] = []
    left = coins
    for slot in range(rules.max_starting_items):
        still = rules.max_starting_items - slot - 1 if exact else 0
        fits = [name for name in _affordable(ix, profile, items, left)
                if _can_fill(ix, profile, [*items, name], left - ix.items[name].cost, still)]
        if not fits:
            break
        choice = fits[rng.below(len(fits))]
        items.append(choice)
        left -= ix.items[choice].cost
    return Character(tuple(skills), ability, tuple(items), coins)


def _affordable(ix: RulesIndex, profile: Profile, items: list[str], left: int) -> list[str]:
    """The items, in catalogue order, that ``left`` coins buy and that fit beside ``items``
    under the carry limit (TC-16)."""
    limit = ix.data.character.carry_limit
    return [item.name for item in ix.data.items if item.cost <= left
            and carried_count(ix, profile, [*items, item.name]) <= limit]


def _can_fill(ix: RulesIndex, profile: Profile, items: list[str], left: int, slots: int) -> bool:
    """Whether ``slots`` more items can still be bought and carried beside ``items``."""
    return slots == 0 or any(
        _can_fill(ix, profile, [*items, name], left - ix.items[name].cost, slots - 1)
        for name in _affordable(ix, profile, items, left)
    )
