"""Character creation: legality as a list of violations, and a seeded random legal build.

Finding codes map to rulings.md 3.5, invariant 5 (character legality) and invariant 1
(vocabulary): ``check.INVARIANT``.  ``character_violations`` reports every problem, never
only the first (style.md: validation reports all problems).
"""

from __future__ import annotations

from generator.engine.rng import Rng
from generator.findings import Finding
from generator.rulesets.tower_of_choices.entities import AbilityKind
from generator.rulesets.tower_of_choices.procedures import carried_count
from generator.rulesets.tower_of_choices.rules import Rules
from generator.rulesets.tower_of_choices.state import Character


def starting_coins(rules: Rules, ability: str) -> int:
    """The coins to spend: ``character.starting_coins``, or RICH's amount (TC-15)."""
    effect = (
        rules.ability_effect(ability, AbilityKind.STARTING_COINS)
        if ability in rules.abilities
        else None
    )
    return effect.amount if effect else rules.data.character.starting_coins


def character_violations(rules: Rules, character: Character) -> list[Finding]:
    """Every way ``character`` breaks the creation rules (TC-14, TC-15, TC-16)."""
    creation = rules.data.character
    out: list[Finding] = []

    def bad(code: str, message: str) -> None:
        out.append(Finding(code, "character", message))

    names = rules.data.skill_names
    for skill in character.skills:
        if skill not in names:
            bad(
                "unknown-skill", f"{skill!r} is not a skill (expected one of {', '.join(names)})"
            )
    if len(character.skills) != creation.starting_skills:
        bad(
            "skill-count",
            f"expected {creation.starting_skills} starting skills, got {len(character.skills)}",
        )
    if rules.distinct_skills and len(set(character.skills)) != len(character.skills):
        bad("repeated-skill", f"starting skills must differ (TC-14), got {character.skills!r}")
    if character.ability not in rules.abilities:
        bad("unknown-ability", f"{character.ability!r} is not an ability")
    unknown = [name for name in character.items if name not in rules.items]
    for name in unknown:
        bad("unknown-item", f"{name!r} is not in the item catalogue")
    known = [name for name in character.items if name in rules.items]
    limit = creation.max_starting_items
    if rules.exact_item_count and len(character.items) != limit:
        bad(
            "item-count",
            f"expected exactly {limit} starting items (TC-15 Alt), got {len(character.items)}",
        )
    elif len(character.items) > limit:
        bad(
            "item-count",
            f"expected at most {limit} starting items (TC-15), got {len(character.items)}",
        )
    coins = starting_coins(rules, character.ability)
    if character.coins != coins:
        bad("coins", f"expected {coins} coins for {character.ability}, got {character.coins}")
    cost = sum(rules.items[name].cost for name in known)
    if cost > coins:
        bad("over-budget", f"the starting items cost {cost} coins, more than {coins}")
    carried = carried_count(rules, known)
    if carried > creation.carry_limit:
        bad(
            "carry-limit",
            f"the starting items count as {carried} items, more than {creation.carry_limit} "
            "(TC-16)",
        )
    return out


def random_character(rules: Rules, rng: Rng) -> Character:
    """A uniformly seeded legal character (under ``rules``).

    Skills: distinct (TC-14 Faithful) or with repeats (Alt).  Ability: uniform.  Items: one
    slot at a time up to ``max_starting_items``, uniform over the items that still fit the
    coins and the carry limit (TC-16); under TC-15 Alt ("exactly") only over the items
    after which every slot still to fill can be filled too, with the coins and the room
    left (two kits of five pieces fill a carry limit of ten under TC-16 Alt).
    """
    data = rules.data
    creation = data.character
    names = list(data.skill_names)
    if rules.distinct_skills:
        skills = []
        for _ in range(creation.starting_skills):
            skills.append(names.pop(rng.below(len(names))))
    else:
        skills = [names[rng.below(len(names))] for _ in range(creation.starting_skills)]
    ability = data.abilities[rng.below(len(data.abilities))].name
    coins = starting_coins(rules, ability)
    items: list[str] = []
    left = coins
    for slot in range(creation.max_starting_items):
        still = creation.max_starting_items - slot - 1 if rules.exact_item_count else 0
        fits = [name for name in _affordable(rules, items, left)
                if _can_fill(rules, [*items, name], left - rules.items[name].cost, still)]
        if not fits:
            break
        choice = fits[rng.below(len(fits))]
        items.append(choice)
        left -= rules.items[choice].cost
    return Character(tuple(skills), ability, tuple(items), coins)


def _affordable(rules: Rules, items: list[str], left: int) -> list[str]:
    """The items, in catalogue order, that ``left`` coins buy and that fit beside ``items``
    under the carry limit (TC-16)."""
    limit = rules.data.character.carry_limit
    return [item.name for item in rules.data.items if item.cost <= left
            and carried_count(rules, [*items, item.name]) <= limit]


def _can_fill(rules: Rules, items: list[str], left: int, slots: int) -> bool:
    """Whether ``slots`` more items can still be bought and carried beside ``items``."""
    return slots == 0 or any(
        _can_fill(rules, [*items, name], left - rules.items[name].cost, slots - 1)
        for name in _affordable(rules, items, left)
    )
