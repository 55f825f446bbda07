"""The hero a booklet starts with, and its XP ladder, as the booklet's JSON holds them.

The printed booklet decides nothing (issue 26), so its hero page reads these keys, and
these read the profile's :class:`~generator.rulesets.inverted_tower.rules.Rules` (the
numbers :func:`~generator.rulesets.inverted_tower.procedures.new_hero` and
:func:`~generator.rulesets.inverted_tower.procedures.gain_xp` play with): nothing here is a
rules number of its own. ``towerpress check`` holds them to the rules by making the booklet
again and comparing the whole document.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from generator.rulesets.inverted_tower.document import stacks
from generator.rulesets.inverted_tower.entities import EffectKind, Item
from generator.rulesets.inverted_tower.policy import REFERENCE
from generator.rulesets.inverted_tower.procedures import gain_xp, new_hero
from generator.rulesets.inverted_tower.rules import SLOT_OF_EFFECT, Rules
from generator.words import listed

Json = dict[str, Any]


def character_json(rules: Rules) -> Json:
    """The hero as the profile starts them (rulings.md 1.1), before the free point is placed.

    ``kit`` holds the starting items but gold, which has a key of its own; ``carried`` is
    every item a hero can carry, gold included, with what the hero starts with and how it
    is used under the profile; ``level_up`` is what each level gives (IT-13 decides the
    current HP); ``crits`` are the natural dice that decide a roll whatever is added
    (IT-08, IT-30).
    """
    codes = [a.code for a in rules.data.character.attributes]
    return {
        "attributes": dict(zip(codes, rules.start_attributes, strict=True)),
        "points": rules.start_points,
        "hp": rules.start_hp,
        "max_hp": rules.start_hp,  # a new hero is unhurt
        "level": rules.start_level,  # IT-12
        "xp": rules.start_xp,
        "gold": rules.start_kit.gold,
        "kit": stacks(rules, replace(rules.start_kit, gold=0)) or [],
        "carried": [_carried(rules, item) for item in rules.data.items],
        "level_up": {"max_hp": rules.max_hp_gain, "hp": rules.hp_gain,
                     "points": rules.attribute_gain},
        "crits": {"hit": rules.crit_success, "miss": rules.crit_failure,
                  # IT-08 Alt: daggers that lift the die to the critical hit count as one.
                  "daggers_lift": rules.crit_on_total},
    }


def _carried(rules: Rules, item: Item) -> Json:
    """An item a hero carries: its name for a box (plural), how many the hero starts with."""
    start = getattr(rules.start_kit, SLOT_OF_EFFECT[item.effect.kind].value)
    return {"item": item.id, "name": item.plural, "start": start, "text": _use(rules, item)}


def _use(rules: Rules, item: Item) -> str:
    """How an item is used under the profile's readings, in a sentence or two."""
    kind = item.effect.kind
    if kind is EffectKind.CURRENCY:
        return _trade(rules)
    if kind is EffectKind.COMBAT_BONUS:
        return _dagger(rules, item.effect.amount)
    return _potion(rules)


def _trade(rules: Rules) -> str:
    """IT-21: the merchant sells (Faithful) or buys (Alt), at the data's prices."""
    gp = rules.data.currency.abbreviation
    prices = listed([f"{rules.data.item(o.item).plural.lower()} for {o.price} {gp}"
                     for o in rules.data.merchant.stock])
    if rules.merchant_sells:
        return f"Spend them at a merchant, who sells {prices} each (IT-21)."
    return f"A merchant buys your {prices} each (IT-21)."


def _dagger(rules: Rules, amount: int) -> str:
    """IT-09 (spent or kept), IT-10 (after or before the die), IT-16 (no help on traps)."""
    if rules.daggers_kept:
        text = (f"Every dagger you carry adds {amount} to every combat roll, and none is "
                "ever spent (IT-09).")
    elif rules.daggers_before_roll:
        text = (f"Before the die is read, say how many you spend: each adds {amount} to that "
                "combat roll and is crossed off (IT-09, IT-10).")
    else:
        text = (f"After seeing the die, spend as many as you like: each adds {amount} to that "
                "combat roll and is crossed off (IT-09, IT-10).")
    return text + ("" if rules.trap_daggers else " No help against a trap (IT-16).")


def _potion(rules: Rules) -> str:
    """IT-14 (never past Max HP), IT-10 (when to drink), IT-11 Alt (drunk by itself at 0)."""
    when = ("between rooms only" if rules.potions_between_rooms_only
            else "at any time but during a roll, even in a fight")
    text = f"Drink one to heal up to your Max HP (IT-14), {when} (IT-10), then cross it off."
    if rules.last_gasp:
        text += " When your HP reaches 0, a potion you still carry is drunk by itself (IT-11)."
    return text


def top_level(rules: Rules, xp: int) -> int:
    """The level a new hero reaches with ``xp`` XP (IT-12), as play counts it."""
    return gain_xp(rules, REFERENCE, new_hero(rules, REFERENCE), xp).level


def ladder_json(rules: Rules, most_xp: int) -> Json:
    """The XP ladder (IT-12) up to the level ``most_xp`` XP reaches (at least one step).

    Under IT-12 Faithful (``counting`` "reset") a step's ``xp`` is what that level costs,
    counted from 0 again after each level; under Alt ("total") it is the running total
    that reaches it. ``base`` and ``per_level`` give the cost of any level past the last
    step: going up from level L costs ``base + per_level * L`` XP.
    """
    first = rules.start_level
    last = max(top_level(rules, most_xp), first + 1)
    return {
        "counting": rules.data.leveling.counting.under(rules.profile).value,
        "base": rules.level_base,
        "per_level": rules.level_step,
        "most_xp": most_xp,
        "steps": [{"level": level + 1, "xp": rules.level_cost(level)}
                  for level in range(first, last)],
    }
