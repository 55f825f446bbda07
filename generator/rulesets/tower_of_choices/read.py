"""Load and validate the Tower of Choices tables into the typed model.

Reads ``tables/{skills,abilities,items,character,checks,setbacks,catalogue}.toml``; every
problem is a finding with its file and key path (design.md section 2).  The typed objects
are defined in ``entities``; ``data.load`` reads each file with the readers at the end of
this module.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from enum import StrEnum
from fractions import Fraction
from math import comb
from typing import TypeVar

from generator.model.schema import Node, check_ref, check_unique
from generator.rulesets.tower_of_choices.entities import (
    ABILITY_KINDS,
    Ability,
    AbilityEffect,
    AbilityKind,
    Adjustment,
    Catalogue,
    CatalogueApproach,
    CatalogueObstacle,
    CharacterRules,
    CheckRules,
    Item,
    ItemKind,
    Loot,
    Modifier,
    Place,
    Setback,
    SetbackKind,
    Skill,
    SkillAlias,
    TrialTexts,
    WoundsRules,
)

_RULING = re.compile(r"^TC-\d{2}$")
# A starting deck's copies of a skill (2 in the book; the simulation's draws grow with the
# square of the deck) and the items carried (10; each is a line of the sheet).
MAX_COPIES = 6
MAX_CARRIED = 30
# What the booklets' catalogue must hold (issue 25): enough obstacles that a trial rarely
# meets one twice, every skill the best approach of a few of them, and rooms to name.
MIN_OBSTACLES = 36
MIN_BEST_PER_SKILL = 3
MIN_ROOMS = 16


E = TypeVar("E", bound=StrEnum)


def _kind(node: Node, kinds: type[E]) -> E | None:
    """Read ``kind`` as one of ``kinds``; a bad value is a finding and gives None."""
    value = node.str("kind")
    for kind in kinds:
        if kind.value == value:
            return kind
    if value:
        node.error("kind", f"{value!r} is not one of {', '.join(k.value for k in kinds)}")
    return None


def _lenient(node: Node, *keys: str) -> None:
    """Mark ``keys`` as read without checking them: their kind is already reported bad."""
    for key in keys:
        if node.has(key):
            node._used.add(key)


def _ruling(node: Node, key: str = "ruling") -> str:
    value = node.str(key, "")
    if value and not _RULING.match(value):
        node.error(key, f"{value!r} is not a ruling ID of the form TC-nn")
    return value


def _skill_ref(node: Node, key: str, skills: tuple[str, ...]) -> str:
    value = node.str(key)
    if value:
        check_ref(node, key, value, skills, "skill")
    return value


def _takes(node: Node, key: str, wanted: bool, kind: str) -> bool:
    """Whether to read ``key``; reports it when the kind takes no such parameter."""
    if wanted:
        return True
    if node.has(key):
        node.error(key, f"kind {kind!r} takes no {key}")
        node._used.add(key)
    return False


def _ability_effect(node: Node, skills: tuple[str, ...]) -> AbilityEffect:
    kind = _kind(node, AbilityKind)
    if kind is None:
        _lenient(node, "skill", "amount", "words")
        kind = AbilityKind.CRAFT_TRAPS  # a placeholder; the load fails anyway
    spec = ABILITY_KINDS[kind]
    skill = (
        _skill_ref(node, "skill", skills) if _takes(node, "skill", spec.skill, kind.value) else ""
    )
    amount = node.int("amount", min=1) if _takes(node, "amount", spec.amount, kind.value) else 0
    words = node.int("words", min=1) if _takes(node, "words", spec.words, kind.value) else 0
    effect = AbilityEffect(kind, skill, amount, words, _ruling(node))
    node.done()
    return effect


def _ability(node: Node, skills: tuple[str, ...]) -> Ability:
    ability = Ability(
        name=node.str("name"),
        text=node.str("text"),
        effects=tuple(_ability_effect(e, skills) for e in node.tables("effects", min_items=1)),
    )
    node.done()
    return ability


def _modifier(node: Node, skills: tuple[str, ...]) -> Modifier:
    skill = _skill_ref(node, "skill", skills)
    draw = node.int("draw", 0)
    target = node.int("target", 0)
    if (draw == 0) == (target == 0):
        node.error_here("expected exactly one non-zero change: draw or target")
    modifier = Modifier(
        skill=skill,
        draw=draw,
        target=target,
        condition=node.str("condition", ""),
        ruling=_ruling(node),
        kept_if_lost=node.bool("kept_if_lost", False),
    )
    node.done()
    return modifier


def _item_kind(node: Node) -> ItemKind:
    kind = _kind(node, ItemKind)
    node.done()
    return kind or ItemKind.WIDER_CRAFTING  # a placeholder when the kind is bad


def _item(node: Node, skills: tuple[str, ...]) -> Item:
    item = Item(
        name=node.str("name"),
        cost=node.int("cost", min=0),
        text=node.str("text"),
        one_use=node.bool("one_use", False),
        tier=node.int("tier", 0, min=0),
        includes=node.str("includes", ""),
        contents=node.str_list("contents", ()),
        modifiers=tuple(_modifier(m, skills) for m in node.tables("modifiers", required=False)),
        effects=tuple(_item_kind(e) for e in node.tables("effects", required=False)),
    )
    node.done()
    return item


def _check_includes(node: Node, items: list[Item]) -> None:
    """``includes`` must name another item, and kits must not include each other in a loop."""
    by_name = {item.name: item for item in items}
    for index, item in enumerate(items):
        if not item.includes:
            continue
        key = f"items[{index}].includes"
        if not check_ref(node, key, item.includes, by_name, "item"):
            continue
        # Follow the chain; a loop that does not come back to this item is reported by
        # the items inside it.
        chain = [item.name]
        current: Item | None = by_name[item.includes]
        while current is not None and current.name not in chain:
            chain.append(current.name)
            current = by_name.get(current.includes) if current.includes else None
        if current is not None and current.name == item.name:
            node.error(key, f"{item.name!r} includes itself: {' -> '.join([*chain, item.name])}")


def _character(node: Node) -> CharacterRules:
    rules = CharacterRules(
        starting_skills=node.int("starting_skills", min=1),
        cards_per_starting_skill=node.int("cards_per_starting_skill", min=1, max=MAX_COPIES),
        distinct_starting_skills=node.bool("distinct_starting_skills"),
        abilities=node.int("abilities", min=0),
        starting_coins=node.int("starting_coins", min=0),
        max_starting_items=node.int("max_starting_items", min=0),
        unspent_coins_kept=node.bool("unspent_coins_kept"),
        carry_limit=node.int("carry_limit", min=1, max=MAX_CARRIED),
    )
    if rules.carry_limit < rules.max_starting_items:
        node.error(
            "carry_limit",
            f"{rules.carry_limit} is below max_starting_items {rules.max_starting_items}",
        )
    node.done()
    return rules


def _adjustment(node: Node) -> Adjustment:
    direction = node.int("direction")
    if direction not in (-1, 1):
        node.error("direction", f"expected 1 or -1, got {direction}")
    adjustment = Adjustment(
        source=node.str("source"),
        changes=node.choice("changes", ("draw", "target")),
        direction=direction,
        decided_by=node.choice("decided_by", ("item", "dm")),
    )
    node.done()
    return adjustment


def _checks(node: Node, skills: tuple[str, ...]) -> CheckRules:
    standard, target, draw = (
        node.table("standard_obstacle"),
        node.table("target"),
        node.table("draw"),
    )
    deck, challenge, wild = node.table("deck"), node.table("challenge"), node.table("wild")
    limits = node.table("obstacle_limits")
    rules = CheckRules(
        standard_draw=standard.int("draw", min=1),
        standard_target=standard.int("target", min=1),
        target_floor=target.int("floor", min=0),
        target_floor_alt=target.int("floor_alt", min=0),
        fewest_draw=draw.int("fewest", min=0),
        drawn_cards_to_discard=deck.bool("drawn_cards_to_discard"),
        exhausted_when_draw_pile_empty=deck.bool("exhausted_when_draw_pile_empty"),
        rest_shuffles_discard_with_draw_pile=deck.bool("rest_shuffles_discard_with_draw_pile"),
        challenge_label=challenge.str("label"),
        challenge_target_per_card=challenge.int("target_per_card", min=1),
        challenge_added_only_when_resting=challenge.bool("added_only_when_resting"),
        challenge_converted_after_draw=challenge.bool("converted_after_draw"),
        challenge_max_per_rest_alt=challenge.int("max_per_rest_alt", min=1),
        wild_skill=_skill_ref(wild, "skill", skills),
        wild_target_increase=wild.int("target_increase", min=0),
        adjustments=tuple(_adjustment(a) for a in node.tables("adjustments", min_items=1)),
        obstacle_min_draw=limits.int("min_draw", min=1),
        obstacle_min_target=limits.int("min_target", min=0),
        obstacle_target_at_most_draw=limits.bool("target_at_most_draw"),
        obstacle_fewest_approaches=limits.int("fewest_approaches", min=1),
        obstacle_most_approaches=limits.int("most_approaches", min=1, max=len(skills)),
    )
    if rules.standard_target > rules.standard_draw:
        standard.error("target", f"{rules.standard_target} is above draw {rules.standard_draw}")
    if rules.fewest_draw > rules.standard_draw:
        draw.error(
            "fewest", f"{rules.fewest_draw} is above the standard draw {rules.standard_draw}"
        )
    if rules.target_floor_alt < rules.target_floor:
        target.error("floor_alt", f"{rules.target_floor_alt} is below floor {rules.target_floor}")
    if rules.obstacle_most_approaches < rules.obstacle_fewest_approaches:
        limits.error(
            "most_approaches",
            f"{rules.obstacle_most_approaches} is below fewest_approaches "
            f"{rules.obstacle_fewest_approaches}",
        )
    for part in (standard, target, draw, deck, challenge, wild, limits, node):
        part.done()
    return rules


def _setback(node: Node) -> Setback:
    kind = _kind(node, SetbackKind)
    if kind is None:
        _lenient(node, "amount")
        kind = SetbackKind.LOSE_REWARD  # a placeholder; the load fails anyway
    wants_amount = kind != SetbackKind.LOSE_REWARD
    amount = node.int("amount", min=1) if _takes(node, "amount", wants_amount, kind.value) else 0
    setback = Setback(name=node.str("name"), kind=kind, amount=amount, text=node.str("text"))
    node.done()
    return setback


# -- one reader per tables file, in the order data.load reads them ------------------------------


def read_skills(node: Node) -> tuple[tuple[Skill, ...], tuple[SkillAlias, ...]]:
    """``skills.toml``: the skills and the other names the original writes them by."""
    skills = []
    for s in node.tables("skills", min_items=1):
        skills.append(Skill(name=s.str("name"), covers=s.str("covers")))
        s.done()
    check_unique(node, "skills", [s.name for s in skills], "skill")
    names = tuple(s.name for s in skills)
    aliases = []
    for a in node.tables("aliases", required=False):
        alias = SkillAlias(written=a.str("written"), skill=_skill_ref(a, "skill", names))
        if alias.written in names:
            a.error("written", f"{alias.written!r} is already a skill name")
        aliases.append(alias)
        a.done()
    check_unique(node, "aliases", [a.written for a in aliases], "alias")
    node.done()
    return tuple(skills), tuple(aliases)


def read_abilities(node: Node, skills: tuple[str, ...]) -> tuple[Ability, ...]:
    abilities = [_ability(a, skills) for a in node.tables("abilities", min_items=1)]
    check_unique(node, "abilities", [a.name for a in abilities], "ability")
    node.done()
    return tuple(abilities)


def read_items(node: Node, skills: tuple[str, ...]) -> tuple[Item, ...]:
    items = [_item(i, skills) for i in node.tables("items", min_items=1)]
    check_unique(node, "items", [i.name for i in items], "item")
    _check_includes(node, items)
    node.done()
    return tuple(items)


def read_character(node: Node, abilities: int, skills: int) -> CharacterRules:
    """``character.toml``, checked against how many abilities and skills there are."""
    character = _character(node)
    if character.abilities > abilities:
        node.error("abilities", f"{character.abilities} is more than the {abilities} abilities")
    if character.distinct_starting_skills and character.starting_skills > skills:
        node.error("starting_skills",
                   f"{character.starting_skills} is more than the {skills} skills")
    return character


def read_checks(node: Node, skills: tuple[str, ...]) -> CheckRules:
    return _checks(node, skills)


def read_setbacks(node: Node) -> tuple[tuple[Setback, ...], WoundsRules]:
    """``setbacks.toml``: the setbacks, and the wounds track of TC-18's Alt reading."""
    setbacks = [_setback(s) for s in node.tables("setbacks", min_items=1)]
    check_unique(node, "setbacks", [s.name for s in setbacks], "setback")
    wounds_node = node.table("wounds_alt")
    wounds = WoundsRules(
        per_failure=wounds_node.int("per_failure", min=1), out_at=wounds_node.int("out_at", min=1)
    )
    wounds_node.done()
    node.done()
    return tuple(setbacks), wounds


# -- the obstacle catalogue (catalogue.toml) ---------------------------------------------


def _place(node: Node) -> Place:
    place = Place(name=node.str("name"), text=node.str("text"))
    node.done()
    return place


def _places(node: Node, key: str, what: str, fewest: int = 1) -> tuple[Place, ...]:
    places = [_place(p) for p in node.tables(key, min_items=fewest)]
    check_unique(node, key, [p.name for p in places], what)
    return tuple(places)


def _texts(node: Node) -> TrialTexts:
    texts = TrialTexts(node.str("notice"), node.str("threshold"), node.str("victory"),
                       node.str("defeat"))
    node.done()
    return texts


def _loot(node: Node, items: Sequence[Item]) -> Loot:
    loot = Loot(item=node.str("item"), text=node.str("text"))
    if loot.item:
        check_ref(node, "item", loot.item, [i.name for i in items], "item")
    node.done()
    return loot


def _helps(node: Node, skill: str, items: Sequence[Item], step: int) -> tuple[str, ...]:
    """An approach's helping items: known ones, each adding something to ``skill`` that its
    own modifiers do not already add to every such check (:meth:`.entities.Item.help_for`)."""
    by_name = {i.name: i for i in items}
    named = node.str_list("items", ())
    for index, name in enumerate(named):
        key = f"items[{index}]"
        if not check_ref(node, key, name, by_name, "item") or not skill:
            continue
        if by_name[name].help_for(skill, step) is None:
            node.error(key, f"{name!r} adds nothing to a {skill} approach named here: its "
                       "own modifiers already help every such check, or help another skill")
    check_unique(node, "items", named, "item")
    return named


def _approach_in_catalogue(node: Node, skills: tuple[str, ...], items: Sequence[Item],
                           checks: CheckRules, step: int) -> CatalogueApproach:
    skill = _skill_ref(node, "skill", skills)
    draw = node.int("draw", min=checks.obstacle_min_draw)
    target = node.int("target", min=checks.obstacle_min_target)
    if checks.obstacle_target_at_most_draw and target > draw:
        # rulings.md 3.5, invariant 2: every approach winnable in principle.
        node.error("target", f"{target} is above draw {draw} (expected TARGET at most DRAW)")
    approach = CatalogueApproach(skill, draw, target, _helps(node, skill, items, step))
    node.done()
    return approach


def chance(deck: int, copies: int, draw: int, target: int) -> Fraction:
    """The chance that ``draw`` cards from a ``deck`` holding ``copies`` of the approach's
    skill show at least ``target`` of them (no challenge card, no item): how the catalogue
    ranks an obstacle's approaches (rulings.md 3.2)."""
    draw = min(draw, deck)
    hits = sum(comb(copies, k) * comb(deck - copies, draw - k)
               for k in range(target, min(copies, draw) + 1))
    return Fraction(hits, comb(deck, draw))


def best_approach(obstacle: CatalogueObstacle, character: CharacterRules
                  ) -> tuple[CatalogueApproach, ...]:
    """The approaches of ``obstacle`` likeliest to succeed for a starting deck with its
    skill's cards (``character``): one, unless several tie."""
    deck = character.starting_skills * character.cards_per_starting_skill
    copies = character.cards_per_starting_skill
    odds = {a: chance(deck, copies, a.draw, a.target) for a in obstacle.approaches}
    top = max(odds.values(), default=Fraction(0))
    return tuple(a for a in obstacle.approaches if odds[a] == top)


def _obstacle_entry(node: Node, known: _Known) -> CatalogueObstacle:
    checks = known.checks
    fewest, most = checks.obstacle_fewest_approaches, checks.obstacle_most_approaches
    nodes = node.tables("approaches", min_items=fewest)
    if len(nodes) > most:
        node.error("approaches", f"expected at most {most} entries, got {len(nodes)}")
    approaches = tuple(_approach_in_catalogue(a, known.skills, known.items, checks, known.step)
                       for a in nodes)
    check_unique(node, "approaches", [a.skill for a in approaches], "approach skill")
    obstacle = CatalogueObstacle(
        name=node.str("name"), text=node.str("text"), approaches=approaches,
        success=node.str("success"), failure=node.str("failure"), setback=node.str("setback"))
    if obstacle.setback:
        check_ref(node, "setback", obstacle.setback, known.setbacks, "setback")
    tied = best_approach(obstacle, known.character)
    if len(tied) > 1:
        node.error("approaches", f"{' and '.join(a.skill for a in tied)} tie for the best "
                   "approach (expected one likeliest to succeed)")
    node.done()
    return obstacle


def _best_counts(node: Node, obstacles: Sequence[CatalogueObstacle], known: _Known) -> None:
    """Every skill the best approach of at least MIN_BEST_PER_SKILL obstacles."""
    counts = dict.fromkeys(known.skills, 0)
    for obstacle in obstacles:
        tied = best_approach(obstacle, known.character)
        if len(tied) == 1 and tied[0].skill in counts:
            counts[tied[0].skill] += 1
    for skill, count in counts.items():
        if count < MIN_BEST_PER_SKILL:
            node.error("obstacles", f"{skill} is the best approach of {count} obstacles, "
                       f"expected at least {MIN_BEST_PER_SKILL}")


class _Known:
    """What a catalogue may name, from the tables read before it."""

    def __init__(self, skills: tuple[str, ...], items: Sequence[Item], checks: CheckRules,
                 setbacks: Sequence[Setback], character: CharacterRules):
        self.skills, self.items, self.checks, self.character = skills, items, checks, character
        self.setbacks = [s.name for s in setbacks]
        # The Equipment row's DRAW step: what a named item adds (as .rules.build_rules).
        steps = [a.direction for a in checks.adjustments
                 if a.decided_by == "item" and a.changes == "draw"]
        self.step = steps[0] if steps else 0


def read_catalogue(node: Node, skills: tuple[str, ...], items: Sequence[Item],
                   checks: CheckRules, setbacks: Sequence[Setback],
                   character: CharacterRules) -> Catalogue:
    """``catalogue.toml``: the booklets' rooms, rest spots, loot and obstacles, checked
    against the skills, items, checks limits and setbacks read before it."""
    known = _Known(skills, items, checks, setbacks, character)
    top = _place(node.table("top"))
    rooms = _places(node, "rooms", "room", MIN_ROOMS)
    for index, room in enumerate(rooms):
        if room.name == top.name:
            node.error(f"rooms[{index}].name", f"{room.name!r} is the name of the top room")
    obstacles = [_obstacle_entry(o, known) for o in node.tables("obstacles")]
    if len(obstacles) < MIN_OBSTACLES:
        node.error("obstacles", f"expected at least {MIN_OBSTACLES} entries, got {len(obstacles)}")
    check_unique(node, "obstacles", [o.name for o in obstacles], "obstacle")
    _best_counts(node, obstacles, known)
    catalogue = Catalogue(
        texts=_texts(node.table("trial")), top=top, rooms=rooms,
        rest_spots=_places(node, "rest_spots", "rest spot"),
        loot=tuple(_loot(n, items) for n in node.tables("loot", min_items=1)),
        obstacles=tuple(obstacles))
    node.done()
    return catalogue
