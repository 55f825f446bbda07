"""The pre-made characters of a Tower of Choices booklet's character page (issue 26): legal,
apart from each other, made from the seed alone, in the JSON, and a tampered one found by
``check`` with its code."""

from __future__ import annotations

import copy
import json
from collections import Counter
from collections.abc import Callable
from functools import cache
from typing import Any

import pytest

from generator.engine.booklet import BookletRequest, check_document, make_booklet
from generator.rulesets.tower_of_choices.character import character_violations
from generator.rulesets.tower_of_choices.family import FAMILY
from generator.rulesets.tower_of_choices.premade import (
    PREMADE,
    creation_json,
    premade_characters,
    premade_violations,
)
from generator.rulesets.tower_of_choices.state import starting_deck
from generator.rulesets.tower_of_choices.trial import Premade
from tests.tower_of_choices.support import PROFILES, data, profile, rules, ruleset

SEEDS = range(60)

Json = dict[str, Any]


@cache
def _document(base: str, seed: str = "1234") -> Json:
    """The booklet's JSON as a file holds it (no odds, which the characters do not touch)."""
    made = make_booklet(ruleset(), FAMILY, profile(base), BookletRequest(seed, 8, 0))
    document: Json = json.loads(json.dumps(made))
    return document


def _tampered(change: Callable[[Json], None], base: str = "balanced") -> Json:
    document = copy.deepcopy(_document(base))
    change(document)
    return document


def _found(document: Json, base: str = "balanced") -> list[tuple[str, str]]:
    """The family's findings on ``document``, read back: (code, where)."""
    trial = FAMILY.read_dungeon(data(), profile(base), document)
    return [(f.code, f.where) for f in FAMILY.check_booklet(data(), profile(base), trial)]


# -- what the generator makes ---------------------------------------------------------------


@pytest.mark.parametrize("base", PROFILES)
def test_every_pre_made_character_is_legal_and_they_share_no_skill_nor_ability(base: str
                                                                               ) -> None:
    chosen = rules(profile(base))
    for seed in SEEDS:
        made = premade_characters(chosen, f"int:{seed}")
        assert len(made) == PREMADE, seed
        for each in made:
            assert character_violations(chosen, each.character) == [], (seed, each)
        skills = [skill for each in made for skill in set(each.character.skills)]
        assert len(skills) == len(set(skills)), (seed, made)
        assert len({each.character.ability for each in made}) == PREMADE, (seed, made)
        assert premade_violations(chosen, made) == [], seed


def test_a_deck_and_the_coins_left_follow_from_the_character() -> None:
    """The deck is the starting deck's cards counted (TC-14: ARCANE's extra card among
    them), and the coins left are the coins less what the items cost (TC-15)."""
    chosen = rules(profile("balanced"))
    arcane = 0
    for seed in SEEDS:
        for each in premade_characters(chosen, f"int:{seed}"):
            c = each.character
            assert dict(each.deck) == Counter(starting_deck(chosen, c)), (seed, c)
            assert [skill for skill, _ in each.deck][:len(c.skills)] == list(c.skills)
            assert each.coins_left == c.coins - sum(chosen.items[i].cost for i in c.items)
            if c.ability == "ARCANE":
                arcane += 1
                assert sum(n for _, n in each.deck) == data().starting_deck_size(
                    data().ability("ARCANE"))
    assert arcane, "no seed gave an ARCANE character: the extra card went untested"


def test_a_build_holds_together() -> None:
    """An ability the booklet plays, for a skill the character has; no item whose bonus is
    for skills it lacks; nothing bought twice but a drink; no kit beside one holding it."""
    chosen = rules(profile("balanced"))
    for seed in SEEDS:
        for each in premade_characters(chosen, f"int:{seed}"):
            c = each.character
            ability = chosen.abilities[c.ability]
            assert any(e.engine for e in ability.effects), c
            assert all(e.skill in c.skills for e in ability.effects
                       if e.engine and e.skill and e.kind != "extra_card"), c
            for name in c.items:
                item = chosen.items[name]
                assert not item.modifiers or {m.skill for m in item.modifiers} & set(c.skills)
                assert item.one_use or c.items.count(name) == 1, c
                assert item.includes not in c.items, c


def test_the_same_seed_gives_the_same_characters_and_another_seed_others() -> None:
    chosen = rules(profile("balanced"))
    first = premade_characters.__wrapped__(chosen, "int:7")  # not the cached one
    assert premade_characters.__wrapped__(chosen, "int:7") == first
    assert premade_characters(chosen, "int:8") != first
    assert len({premade_characters(chosen, f"int:{s}") for s in SEEDS}) == len(SEEDS)


def test_the_characters_come_from_their_own_stream() -> None:
    """The rooms and the tapes of a booklet are those the seed gave before the characters
    were added: the characters' stream is theirs alone (design.md 4)."""
    document = _document("balanced")
    trial = FAMILY.generate_booklet(data(), profile("balanced"), "int:1234", 8)
    assert trial.characters == premade_characters(rules(profile("balanced")), "int:1234")
    again = FAMILY.gamebook(data(), profile("balanced"), trial, "int:1234")
    assert [t.to_json() for t in again.tapes] == document["tapes"]


# -- the JSON -------------------------------------------------------------------------------


def test_the_json_holds_each_character_with_its_deck() -> None:
    document = _document("balanced")
    made = premade_characters(rules(profile("balanced")), "int:1234")
    assert [c["skills"] for c in document["characters"]] == [list(m.character.skills)
                                                              for m in made]
    for written, each in zip(document["characters"], made, strict=True):
        assert written == {
            "skills": list(each.character.skills), "ability": each.character.ability,
            "items": list(each.character.items), "coins": each.character.coins,
            "coins_left": each.coins_left,
            "deck": [{"skill": s, "cards": n} for s, n in each.deck]}
    trial = FAMILY.read_dungeon(data(), profile("balanced"), document)
    assert trial.characters == made


@pytest.mark.parametrize("base", PROFILES)
def test_the_worksheet_says_what_the_profile_asks(base: str) -> None:
    """``creation`` follows the readings: different skills (TC-14), up to or exactly so
    many items (TC-15), a kit as one item or as its pieces (TC-16)."""
    chosen = rules(profile(base))
    creation = _document(base)["creation"]
    assert creation == creation_json(chosen)
    assert creation["skills"]["different"] is chosen.distinct_skills
    assert creation["items"]["exactly"] is chosen.exact_item_count
    assert creation["items"]["kit_pieces_count"] is chosen.kit_pieces_count
    assert creation["skills"]["names"] == list(data().skill_names)
    played = {a["name"] for a in creation["abilities"]["list"] if a["in_play"]}
    assert {"ARCANE", "INDEFATIGABLE", "RICH"} <= played and "HEALER" not in played
    rich = next(a for a in creation["abilities"]["list"] if a["name"] == "RICH")
    assert rich["coins"] == data().ability("RICH").effects[0].amount
    book = next(i for i in creation["items"]["catalogue"] if i["name"] == "Reference book")
    waived = "on every Knowledge check" in book["bonus"][0]
    assert waived is ("TC-17" in chosen.waived_conditions)


# -- the checker ----------------------------------------------------------------------------


def test_a_booklet_as_made_has_no_finding() -> None:
    for base in PROFILES:
        assert check_document(_document(base), ruleset(), FAMILY) == [], base


def test_a_pre_made_character_that_breaks_the_creation_rules_is_found() -> None:
    def repeated(d: Json) -> None:  # TC-14 Faithful: three different skills
        c = d["characters"][1]
        c["skills"][1] = c["skills"][0]
        c["deck"] = [{"skill": c["skills"][0], "cards": 4}, *c["deck"][2:]]

    assert ("repeated-skill", "Character 2") in _found(_tampered(repeated))

    def four_items(d: Json) -> None:  # TC-15: up to 3 items, within the coins
        d["characters"][0]["items"] += ["Weapon: pistol"] * 2

    found = _found(_tampered(four_items))
    assert ("item-count", "Character 1") in found and ("over-budget", "Character 1") in found

    def unknown(d: Json) -> None:
        d["characters"][2]["ability"] = "FLIGHT"

    assert _found(_tampered(unknown)) == [("unknown-ability", "Character 3")]


def test_a_deck_or_coins_left_that_do_not_follow_are_found() -> None:
    def deck(d: Json) -> None:
        d["characters"][0]["deck"][0]["cards"] += 1

    assert _found(_tampered(deck)) == [("premade-derived", "Character 1")]

    def coins(d: Json) -> None:
        d["characters"][2]["coins_left"] += 5

    assert _found(_tampered(coins)) == [("premade-derived", "Character 3")]


def test_check_names_a_tampered_character_and_its_regeneration() -> None:
    """Through the shared checker: the family's finding, and the regeneration's (the seed
    made other characters)."""
    def swap(d: Json) -> None:
        d["characters"][0]["skills"] = ["Luck", "Luck", "Luck"]

    found = check_document(_tampered(swap), ruleset(), FAMILY)
    codes = {(f.code, f.where) for f in found}
    assert ("repeated-skill", "Character 1") in codes
    assert ("premade-derived", "Character 1") in codes
    assert ("regenerated", "characters[0]") in codes
    assert all(f.message for f in found)


def test_a_legal_swap_is_found_by_the_regeneration_only() -> None:
    """Another legal build is no rule broken, but it is not the seed's."""
    def other(d: Json) -> None:
        d["characters"][0], d["characters"][1] = d["characters"][1], d["characters"][0]

    found = check_document(_tampered(other), ruleset(), FAMILY)
    assert [(f.code, f.where) for f in found] == [("regenerated", "characters[0]")]


def test_premade_violations_report_every_character() -> None:
    chosen = rules(profile("balanced"))
    made = premade_characters(chosen, "int:3")
    broken = tuple(Premade(m.character, m.deck, m.coins_left + 1) for m in made)
    assert [(f.code, f.where) for f in premade_violations(chosen, broken)] == [
        ("premade-derived", f"Character {n}") for n in range(1, PREMADE + 1)]
