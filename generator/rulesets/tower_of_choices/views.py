"""Printable views of the Tower of Choices data, built from the typed objects.

Every number in these tables comes from the model (never retyped), so the rulebook, the
quick reference and the engine cannot disagree (design.md section 2).
"""

from __future__ import annotations

from collections.abc import Mapping

from generator.model.common import Profile
from generator.model.views import TableView, reading, signed
from generator.rulesets.tower_of_choices.data import TowerOfChoices
from generator.rulesets.tower_of_choices.entities import (
    AbilityEffect,
    AbilityKind,
    Item,
    Modifier,
    Setback,
    SetbackKind,
)


def _plural(count: int, word: str, plural: str = "") -> str:
    return f"{count} {word}" if count == 1 else f"{count} {plural or word + 's'}"


def _top(count: int) -> str:
    return "the top card" if count == 1 else f"the top {count} cards"


def describe_effect(printed: Profile | None, effect: AbilityEffect, data: TowerOfChoices) -> str:
    """One ability effect in words, from its structured form."""
    skill, amount = effect.skill, effect.amount
    match effect.kind:
        case AbilityKind.EXTRA_CARD:
            return f"Your starting deck gets {_plural(amount, 'extra ' + skill + ' card')}."
        case AbilityKind.BURN_TOP_CARD_FOR_EXTRA_DRAW:
            # TC-12: the card given up is the top one, unseen (Faithful) or one the
            # player picks from the draw pile (Alt).
            burned = reading(
                printed,
                effect.ruling,
                f"{_top(amount)} of your draw pile unseen",
                f"{_plural(amount, 'card')} of your choice from your draw pile",
            )
            return f"Before a draw you may discard {burned} for DRAW {signed(amount)}."
        case AbilityKind.REFRESH_RANDOM_CARD:
            # TC-11: after every check into a random place (Faithful), or after a
            # success only, onto the top or the bottom (Alt).
            return reading(
                printed,
                effect.ruling,
                f"After each check, {_plural(amount, 'card')} picked at random from your "
                "discard pile is shuffled back into your draw pile.",
                f"After each successful check, {_plural(amount, 'card')} picked at random "
                "from your discard pile goes on the top or the bottom of your draw pile.",
            )
        case AbilityKind.STARTING_COINS:
            return (
                f"You start with {amount} coins instead of {data.character.starting_coins}; "
                f"you still take at most {data.character.max_starting_items} starting items."
            )
        case AbilityKind.EXTRA_FELL_PER_SURPLUS:
            felled = _plural(amount, "more enemy", "more enemies")
            return (
                f"When a {skill} check succeeds, fell {felled} "
                "for each matching card beyond those you needed."
            )
        case AbilityKind.EXTRA_ACTION:
            return f"Up to {1 + amount} {skill} checks in one exchange."
        case AbilityKind.LEARN_MAGIC:
            return (
                f"Narrative: learn magic you meet with a {skill} check; "
                "in the first trial it cannot be cast."
            )
        case AbilityKind.FIRST_ATTACK_HITS:
            return "Narrative: your first attack on an unaware target succeeds without a draw."
        case AbilityKind.DEFEND_ALLIES:
            return f"Narrative: you may draw for an ally's {skill} check."
        case AbilityKind.HEAL_OTHERS:
            return "Narrative: you can undo a drain setback for others, less well for yourself."
        case AbilityKind.MAGIC_ITEM:
            return "Narrative: you start with a magic item that the DM or booklet describes."
        case AbilityKind.TOPIC_BRIEFS:
            return (
                f"Narrative: {_plural(amount, 'topic')}, about {effect.words} words on each, "
                "written for you before the trial."
            )
        case AbilityKind.CRAFT_TRAPS:
            return "Narrative: you can build traps; the DM or booklet sets the check."


def describe_modifier(printed: Profile | None, modifier: Modifier) -> str:
    """``+1 Knowledge DRAW: only on ...; the bonus stays if the item is lost``.

    The notes follow a colon, not brackets: a ruling's reading ends in its ID in brackets.
    """
    if modifier.draw:
        text = f"{signed(modifier.draw)} {modifier.skill} DRAW"
    else:
        text = f"{signed(modifier.target)} {modifier.skill} TARGET"
    notes = []
    if modifier.condition:
        # TC-17: the condition holds (Faithful) or the bonus applies to every check of
        # the skill (Alt); a ruling-free condition always holds.
        notes.append(
            reading(printed, modifier.ruling, modifier.condition,
                    f"on every {modifier.skill} check")
            if modifier.ruling
            else modifier.condition
        )
    if modifier.kept_if_lost:
        notes.append("the bonus stays if the item is lost")
    return f"{text}: {'; '.join(notes)}" if notes else text


def describe_item(printed: Profile | None, item: Item) -> str:
    """An item's text with its modifiers and contents, as the catalogue prints it."""
    parts = [item.text]
    if item.modifiers:
        parts.append(", ".join(describe_modifier(printed, m) for m in item.modifiers) + ".")
    if item.includes and item.contents:
        parts.append(f"Everything in {item.includes}, plus: {', '.join(item.contents)}.")
    elif item.includes:
        parts.append(f"Includes everything in {item.includes}.")
    elif item.contents:
        parts.append(f"Contains: {', '.join(item.contents)}.")
    return " ".join(parts)


def describe_setback(setback: Setback) -> str:
    amount = setback.amount
    match setback.kind:
        case SetbackKind.TARGET_UP:
            extra = f"TARGET {signed(amount)} on the next check."
        case SetbackKind.DRAIN:
            extra = f"Drain {_plural(amount, 'card')}."
        case SetbackKind.LOSE_ITEM:
            extra = f"Lose {_plural(amount, 'item')}."
        case SetbackKind.LOSE_REWARD:
            extra = ""
    return f"{setback.text} {extra}".strip()


def _character_rows(data: TowerOfChoices) -> list[tuple[str, str]]:
    rules = data.character
    extra = [a.name for a in data.abilities if a.effect(AbilityKind.EXTRA_CARD) is not None]
    deck = _plural(data.starting_deck_size(), "card")
    for name in extra:
        deck += f" ({data.starting_deck_size(data.ability(name))} with {name})"
    coins = str(rules.starting_coins)
    for ability in data.abilities:
        rich = ability.effect(AbilityKind.STARTING_COINS)
        if rich is not None:
            coins += f" ({rich.amount} with {ability.name})"
    skills = str(rules.starting_skills)
    if rules.distinct_starting_skills:
        skills += ", all different"
    return [
        ("Starting skills", skills),
        ("Cards of each starting skill", str(rules.cards_per_starting_skill)),
        ("Starting deck", deck),
        ("Special abilities", str(rules.abilities)),
        ("Coins", coins),
        ("Starting items", f"up to {rules.max_starting_items}, paid for with your coins"),
        ("Unspent coins", "kept" if rules.unspent_coins_kept else "lost"),
        ("Items carried at once", f"up to {rules.carry_limit}; a kit counts as one"),
    ]


def _adding_challenges(printed: Profile | None, data: TowerOfChoices) -> str:
    """When challenge cards go in; TC-10 Alt caps them per rest."""
    c = data.checks
    when = "only when resting" if c.challenge_added_only_when_resting else "at any time"
    cap = _plural(c.challenge_max_per_rest_alt, c.challenge_label + " card")
    return reading(printed, "TC-10", when, f"{when}, at most {cap} per rest")


def _after_challenge(printed: Profile | None, data: TowerOfChoices) -> str:
    """What becomes of a drawn challenge card: TC-01 and TC-07, it counts as a challenge in
    its own check and only then takes the name of another card of that draw (Alt: only
    after a success); TC-08, one with no other card to copy."""
    c = data.checks
    if not c.challenge_converted_after_draw:
        return "remove it from the game"
    rewrite = "rewrite it as another skill card of that draw"
    after = reading(
        printed,
        "TC-07", rewrite, f"after a success, {rewrite}; after a failure, remove it from the game"
    )
    alone = reading(
        printed,
        "TC-08",
        "with none to copy, remove it from the game",
        f"with none to copy, it stays a {c.challenge_label} card and goes to the discard pile",
    )
    return f"{after}; {alone}"


def _check_rows(printed: Profile | None, data: TowerOfChoices) -> list[tuple[str, str]]:
    c = data.checks
    label = c.challenge_label
    per_card = _plural(c.challenge_target_per_card, "more match", "more matches")
    return [
        ("Standard obstacle", f"DRAW {c.standard_draw}, TARGET {c.standard_target}"),
        (
            "Success",
            f"at least TARGET cards of the approach skill, plus {per_card} per {label} card",
        ),
        ("Lowest TARGET", f"{c.target_floor}; a TARGET of 0 succeeds without drawing"),
        ("Drawing fewer cards", f"choose {c.fewest_draw} up to DRAW before the first card"),
        (
            "Drawn cards",
            "go to the discard pile" if c.drawn_cards_to_discard else "return to the draw pile",
        ),
        (
            "Empty draw pile",
            "you are exhausted" if c.exhausted_when_draw_pile_empty else "rest at once",
        ),
        (
            "Resting",
            "shuffle the discard pile and the draw pile together"
            if c.rest_shuffles_discard_with_draw_pile
            else "shuffle the discard pile into a new draw pile",
        ),
        (f"Adding {label} cards", _adding_challenges(printed, data)),
        (f"After a check that drew a {label} card", _after_challenge(printed, data)),
        ("Standard obstacles per fresh deck", str(data.standard_checks_per_deck())),
    ]


def build_tables(data: TowerOfChoices, printed: Profile | None) -> Mapping[str, TableView]:
    """Every printable table of the ruleset, by the name prose embeds it with."""
    views = [
        *_skill_tables(data),
        *_character_tables(printed, data),
        *_check_tables(printed, data),
        _setbacks_table(data),
        _alt_numbers_table(data),
    ]
    return {view.name: view for view in views}


def _skill_tables(data: TowerOfChoices) -> list[TableView]:
    """The skills, and the other names the original gives them (TC-13)."""
    return [
        TableView(
            "skills",
            "Skills",
            ("Skill", "What it covers"),
            tuple((s.name, s.covers) for s in data.skills),
        ),
        TableView(
            "skill-aliases",
            "Other names for skills",
            ("Written in the original", "Read as"),
            tuple((a.written, a.skill) for a in data.aliases),
        ),
    ]


def _character_tables(printed: Profile | None, data: TowerOfChoices) -> list[TableView]:
    """What a character is made of: abilities, items and the creation rules."""
    return [
        TableView(
            "abilities",
            "Special abilities",
            ("Ability", "What it is", "In play"),
            tuple(
                (a.name, a.text, " ".join(describe_effect(printed, e, data) for e in a.effects))
                for a in data.abilities
            ),
        ),
        TableView(
            "items",
            "Items",
            ("Item", "Cost", "What it does", "One use"),
            tuple(
                (i.name, str(i.cost), describe_item(printed, i), "yes" if i.one_use else "no")
                for i in data.items
            ),
            note="Costs are in coins.",
        ),
        TableView(
            "character-creation",
            "Character creation",
            ("Rule", "Value"),
            tuple(_character_rows(data)),
        ),
    ]


def _check_tables(printed: Profile | None, data: TowerOfChoices) -> list[TableView]:
    """How a check works, what changes it, and the limits for writing obstacles."""
    c = data.checks
    return [
        TableView(
            "check-rules", "Checks and the skill deck", ("Rule", "Value"),
            tuple(_check_rows(printed, data)),
        ),
        TableView(
            "check-adjustments",
            "What changes a check",
            ("Source", "Changes", "Decided by"),
            tuple(
                (
                    a.source,
                    f"{a.changes.upper()} {'up' if a.direction > 0 else 'down'}",
                    "the item" if a.decided_by == "item" else "the DM",
                )
                for a in c.adjustments
            ),
        ),
        TableView(
            "obstacle-limits",
            "Limits for writing obstacles",
            ("Limit", "Value"),
            (
                ("Smallest DRAW of an approach", str(c.obstacle_min_draw)),
                ("Smallest TARGET, before items", str(c.obstacle_min_target)),
                ("TARGET no greater than DRAW", "yes" if c.obstacle_target_at_most_draw else "no"),
                (
                    "Approaches an obstacle names",
                    f"{c.obstacle_fewest_approaches} to {c.obstacle_most_approaches}",
                ),
            ),
        ),
    ]


def _setbacks_table(data: TowerOfChoices) -> TableView:
    """The setbacks of a failed check (TC-18 Faithful)."""
    return TableView(
        "setbacks",
        "Setbacks",
        ("Setback", "What happens"),
        tuple((s.name, describe_setback(s)) for s in data.setbacks),
    )


def _alt_numbers_table(data: TowerOfChoices) -> TableView:
    """The numbers that only an Alt reading uses (TC-05, TC-06, TC-10, TC-18)."""
    c = data.checks
    return TableView(
        "alt-numbers",
        "Numbers used only by Alt readings",
        ("Ruling", "Under its Alt reading"),
        (
            ("TC-05", f"the TARGET never drops below {c.target_floor_alt}"),
            (
                "TC-06",
                f"{c.wild_skill} cards match any approach, at TARGET "
                f"{signed(c.wild_target_increase)}",
            ),
            (
                "TC-10",
                f"at most {_plural(c.challenge_max_per_rest_alt, c.challenge_label + ' card')}"
                " per rest",
            ),
            (
                "TC-18",
                f"{_plural(data.wounds_alt.per_failure, 'wound')} per failed check; "
                f"out of the trial at {data.wounds_alt.out_at}",
            ),
        ),
    )
