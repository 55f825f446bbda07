"""A Tower of Choices booklet as a gamebook: its sections, its tapes, its JSON read back, the
checker against a tampered booklet, and its odds (issue 25)."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator
from functools import cache
from itertools import product
from math import factorial
from typing import Any

import jsonschema
import pytest

from generator.engine.booklet import SHARED_SCHEMA, BookletRequest, check_document, make_booklet
from generator.engine.gamebook import Gamebook, Section, check_sections
from generator.engine.rng import stream
from generator.engine.tapes import check_tapes
from generator.errors import TowerpressError
from generator.model.common import Profile
from generator.rulesets.tower_of_choices.character import random_character
from generator.rulesets.tower_of_choices.family import FAMILY
from generator.rulesets.tower_of_choices.game import play_trial
from generator.rulesets.tower_of_choices.gamebook import (
    TAPE_HIGH,
    Book,
    refresh_bound,
    shuffle_bound,
)
from generator.rulesets.tower_of_choices.state import RULESET
from generator.rulesets.tower_of_choices.trial import Trial, place_rests
from tests.tower_of_choices.support import PROFILES, data, profile, rules, ruleset

SEEDS = range(30)
DEPTHS = (1, 2, 5, 8, 12, 25)  # 25: every room name of the catalogue, and the top


def _trial(prof: Profile, seed: int, depth: int = 8) -> Trial:
    trial: Trial = FAMILY.generate_booklet(data(), prof, f"int:{seed}", depth)
    return trial


def _book(prof: Profile, trial: Trial) -> Gamebook:
    return FAMILY.gamebook(data(), prof, trial, trial.seed)


def _document(prof: Profile, seed: int, depth: int = 8) -> dict[str, Any]:
    """The booklet's JSON, as a file holds it (no odds: they are tested below)."""
    made = make_booklet(ruleset(), FAMILY, prof, BookletRequest(str(seed), depth, 0))
    document: dict[str, Any] = json.loads(json.dumps(made))
    return document


@cache
def _validator() -> jsonschema.Draft202012Validator:
    schema = {"allOf": [SHARED_SCHEMA, FAMILY.booklet_schema()]}
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def _codes(prof: Profile, document: dict[str, Any]) -> set[str]:
    trial = FAMILY.read_dungeon(data(), prof, document)
    return {f.code for f in FAMILY.check_booklet(data(), prof, trial)}


# -- many booklets, every profile -------------------------------------------------------


@pytest.mark.parametrize("base", PROFILES)
def test_booklets_of_many_seeds_are_sound(base: str) -> None:
    """Sections a reader can follow, tapes in range and long enough, the JSON read back as
    the very trial, and the checker clean."""
    prof = profile(base)
    for seed in SEEDS:
        trial = _trial(prof, seed, DEPTHS[seed % len(DEPTHS)])
        book = _book(prof, trial)
        assert check_sections(book.sections) == [], seed
        assert check_tapes(book.tapes) == [], seed
        document = json.loads(json.dumps({"seed": str(seed), **book.dungeon}))
        again = FAMILY.read_dungeon(data(), prof, document)
        assert again == trial
        assert FAMILY.check_booklet(data(), prof, again) == [], seed


@pytest.mark.parametrize("base", PROFILES)
def test_booklets_validate_against_the_shared_schema_and_their_own(base: str) -> None:
    for seed in range(0, 200, 40):  # jsonschema takes some 80 ms a booklet
        document = _document(profile(base), seed, DEPTHS[seed % len(DEPTHS)])
        errors = [e.message for e in _validator().iter_errors(document)]
        assert errors == [], seed


def test_the_same_seed_gives_the_same_booklet_with_its_sections_shuffled() -> None:
    prof = profile("balanced")
    book = _book(prof, _trial(prof, 7))
    assert _book(prof, _trial(prof, 7)) == book
    firsts = {_book(prof, _trial(prof, seed)).dungeon["rooms"][0]["section"]
              for seed in range(20)}
    assert len(firsts) > 5  # room 1 is not always section 2
    assert book.sections[0].kind == "start" and book.sections[0].number == 1


def test_more_rooms_than_the_catalogue_names_is_an_error() -> None:
    with pytest.raises(TowerpressError, match="at most 25 rooms"):
        _trial(profile(), 1, 26)


# -- what the sections say --------------------------------------------------------------


def _by_key(prof: Profile, trial: Trial) -> tuple[dict[int, Section], dict[str, Any]]:
    book = _book(prof, trial)
    return {s.number: s for s in book.sections}, dict(book.dungeon)


def test_an_obstacle_leads_through_its_approaches_to_its_outcomes() -> None:
    """Each approach a way "Try SKILL (draw d, target t)" to its check, whose numbers are
    the approach's, and which leads to the obstacle's success and failure; a failure leads
    back to the obstacle as written (TC-25) and on under balanced (TC-25 Alt)."""
    for base in ("as-written", "balanced"):
        prof = profile(base)
        sections, dungeon = _by_key(prof, _trial(prof, 3))
        for room in dungeon["rooms"]:
            for obstacle in room["obstacles"]:
                shown = sections[obstacle["section"]]
                tries = shown.ways[:len(obstacle["approaches"])]
                for way, approach in zip(tries, obstacle["approaches"], strict=True):
                    assert way.text == (f"Try {approach['skill'].upper()} (draw "
                                        f"{approach['draw']}, target {approach['target']})")
                    check = sections[way.turn_to]
                    assert check.kind == "check" and approach["section"] == way.turn_to
                    assert f"Draw {approach['draw']} card" in check.text[0]
                    assert f"at least {approach['target']} {approach['skill'].upper()}" in \
                        " ".join(check.text)
                    assert [w.turn_to for w in check.ways] == [obstacle["success"],
                                                               obstacle["failure"]]
                assert shown.ways[-1].turn_to == dungeon["defeat"]
                failure = sections[obstacle["failure"]]
                back = [w.turn_to for w in failure.ways] == [obstacle["section"]]
                assert back == (base == "as-written")


def test_the_items_that_help_are_said_with_what_they_add() -> None:
    prof = profile()
    seen = 0
    for seed in range(30):
        sections, dungeon = _by_key(prof, _trial(prof, seed))
        for room in dungeon["rooms"]:
            for obstacle in room["obstacles"]:
                for approach in obstacle["approaches"]:
                    text = " ".join(sections[approach["section"]].text)
                    for help in approach["items"]:
                        # Tiers of one item are said together: "Misc supplies (tier 1 or
                        # tier 2)".
                        head, _, tail = help["item"].partition(", ")
                        assert head in text and tail in text
                        assert f"draw {help['draw']} more" in text
                        seen += 1
    assert seen > 20


def test_rests_are_where_the_rules_give_them() -> None:
    """A rest section after each rest spot (TC-20 Faithful) or floor end (Alt), and under
    TC-21 Alt one before each obstacle too, at the room's cost."""
    for base in PROFILES:
        prof = profile(base)
        trial = _trial(prof, 11, 12)
        sections, dungeon = _by_key(prof, trial)
        for room, data_room in zip(trial.rooms, dungeon["rooms"], strict=True):
            rests = trial.floor_end(room) if rules(prof).floors else room.rest_spot
            assert (data_room["rest"] is not None) == rests
            if rests:
                rest = sections[data_room["rest"]["section"]]
                assert rest.kind == "rest" and rest.ways[0].turn_to == \
                    dungeon["rooms"][room.number]["section"]
            for obstacle in data_room["obstacles"]:
                assert (obstacle["rest_before"] is not None) == rules(prof).rest_anywhere


_WAY = re.compile(
    r"Go in|Face what stands in your way|Face the next obstacle|Face the obstacle|Try again"
    r"|Try [A-Z ]+ \(draw \d, target \d\)|If you succeed|If you fail|If you are exhausted here.*"
    r"|Look round before you climb on|Climb to the next (room|floor)|Rest before you climb on"
    r"|Finish the trial|Rest here first, at a cost \([^)]+\), then face it"
    r"|QUICK DRAW, \d cards? of RANGED OFFENSE to spare: go past \d more obstacles?")


@pytest.mark.parametrize("base", PROFILES)
def test_a_way_on_tells_only_what_the_rules_let_the_reader_know(base: str) -> None:
    """Every way on is one of a few choices, none naming what lies behind it (an outcome,
    a setback, an obstacle or room not yet met, the loot)."""
    prof = profile(base)
    for seed in range(40):
        for section in _book(prof, _trial(prof, seed)).sections:
            for way in section.ways:
                assert _WAY.fullmatch(way.text), way.text


def test_the_start_says_how_to_shuffle_and_cross_off() -> None:
    start = _book(profile(), _trial(profile(), 1)).sections[0]
    text = " ".join(start.text)
    assert "tape S" in text and "cross it off" in text and "tape R" in text
    assert "(With 6 cards and the number 2520, 2520 divided by 6 leaves 0, so card 1 and " \
        "card 6 change places.)" in text


def _shuffled(cards: list[str], numbers: Iterator[int]) -> list[str]:
    """The shuffle as section 1 prints it: N from the count down to 2, the remainder of the
    next number divided by N, plus one, is the place whose card changes places with card N;
    card 1 is the top."""
    row = list(cards)
    for n in range(len(row), 1, -1):
        place = next(numbers) % n + 1
        row[place - 1], row[n - 1] = row[n - 1], row[place - 1]
    return row


@pytest.mark.parametrize("size", range(1, 7))
def test_the_printed_shuffle_gives_every_order_once_for_every_remainder(size: int) -> None:
    """A brute-force check of the printed Fisher-Yates (rulings.md 3.4 #4): over every
    sequence of remainders, each order of the cards comes out exactly once; and every pile
    up to 10 cards divides TAPE_HIGH, so each remainder is as likely as any other."""
    cards = [f"card {i}" for i in range(size)]
    orders = [tuple(_shuffled(cards, iter(rest)))
              for rest in product(*(range(n) for n in range(size, 1, -1)))]
    assert len(orders) == len(set(orders)) == factorial(size)
    assert all(TAPE_HIGH % n == 0 for n in range(1, 11))


# -- the tapes' bounds, against play -----------------------------------------------------


class _Counting:
    """A generator that counts the numbers drawn from it (one a tape entry)."""

    def __init__(self, seed: str, run: int):
        self.rng = stream(seed, RULESET, "count", run, purpose="odds")
        self.drawn = 0

    def below(self, n: int) -> int:
        self.drawn += 1
        return self.rng.below(n)


def test_tape_s_is_long_enough_for_every_play_where_its_bound_is_exact() -> None:
    """Under TC-10 Alt with TC-21 Faithful, the S bound is exact (no fallback): the
    reference player, shuffling only (no INDEFATIGABLE), never takes more entries."""
    prof = profile("as-written", ("TC-10", "TC-25"))
    r = rules(prof)
    for seed in range(25):
        trial = _trial(prof, seed, 8)
        bound, fallback = shuffle_bound(Book(r, trial))
        assert fallback == ""
        for run in range(20):
            character = random_character(r, stream("s", RULESET, seed, run, purpose="who"))
            if character.ability == "INDEFATIGABLE":
                continue
            counting = _Counting(f"int:{seed}", run)
            play_trial(r, trial, character, counting)
            assert counting.drawn <= bound


def test_tape_r_is_long_enough_where_its_bound_is_exact() -> None:
    """Under TC-25 Alt each obstacle takes one check, so INDEFATIGABLE refreshes (one
    entry of tape R a check) at most once an obstacle."""
    prof = profile("balanced")
    r = rules(prof)
    played = 0
    for seed in range(25):
        trial = _trial(prof, seed, 8)
        bound, fallback = refresh_bound(Book(r, trial))
        assert fallback == "" and bound == sum(len(room.obstacles) for room in trial.rooms)
        for run in range(40):
            character = random_character(r, stream("r", RULESET, seed, run, purpose="who"))
            if character.ability != "INDEFATIGABLE":
                continue
            _, state = play_trial(r, trial, character, stream("r", RULESET, run, purpose="x"))
            assert state.checks <= bound
            played += 1
    assert played > 20


def test_a_tape_that_play_can_outrun_carries_its_fallback() -> None:
    book = _book(profile(), _trial(profile(), 4))
    tapes = {t.name: t for t in book.tapes}
    assert set(tapes) == {"S", "R"}
    assert "shuffle by hand" in tapes["S"].fallback  # TC-10: any number of CHALLENGE cards
    assert tapes["R"].parts == ("card", "place") and tapes["R"].fallback  # TC-25 retries
    assert all(1 <= v <= TAPE_HIGH for t in book.tapes for e in t.entries for v in e)
    assert all(len(t.entries) == t.bound for t in book.tapes)


# -- a tampered booklet -------------------------------------------------------------------


def _tampered(base: str, change: Any, seed: int = 5) -> tuple[Profile, dict[str, Any]]:
    prof = profile(base)
    document = _document(prof, seed)
    broken = copy.deepcopy(document)
    change(broken)
    return prof, broken


def _first_obstacle(document: dict[str, Any]) -> dict[str, Any]:
    obstacle: dict[str, Any] = document["rooms"][0]["obstacles"][0]
    return obstacle


def test_a_changed_pick_is_caught() -> None:
    def change(d: dict[str, Any]) -> None:
        pick = d["rooms"][1]["picks"][0]  # the room's name
        pick["value"] = (pick["value"] + 1) % pick["bound"]

    assert "raw-dice" in _codes(*_tampered("as-written", change))

    def out_of_range(d: dict[str, Any]) -> None:
        d["rooms"][0]["picks"][1]["value"] = 99

    assert _codes(*_tampered("balanced", out_of_range)) == {"raw-dice"}


def test_a_changed_derived_field_is_caught() -> None:
    def draw(d: dict[str, Any]) -> None:
        _first_obstacle(d)["approaches"][0]["draw"] += 1

    assert _codes(*_tampered("as-written", draw)) == {"raw-dice"}

    def helps(d: dict[str, Any]) -> None:
        for room in d["rooms"]:
            for obstacle in room["obstacles"]:
                for approach in obstacle["approaches"]:
                    for item in approach["items"]:
                        item["draw"] = 2

    assert _codes(*_tampered("gentle", helps, seed=1)) == {"raw-dice"}

    def no_rest(d: dict[str, Any]) -> None:
        room = next(r for r in d["rooms"] if r["rest"] is not None)
        room["rest"] = None

    assert _codes(*_tampered("as-written", no_rest)) >= {"rests"}

    def renumbered(d: dict[str, Any]) -> None:
        d["rooms"][0]["number"] = 40

    assert _codes(*_tampered("as-written", renumbered)) == {"raw-dice"}


def test_an_obstacle_with_target_above_draw_is_caught() -> None:
    def change(d: dict[str, Any]) -> None:
        approach = _first_obstacle(d)["approaches"][0]
        approach["target"] = approach["draw"] + 1

    prof, broken = _tampered("balanced", change)
    trial = FAMILY.read_dungeon(data(), prof, broken)
    found = FAMILY.check_booklet(data(), prof, trial)
    limits = [f for f in found if f.code == "obstacle-limits"]
    assert len(limits) == 1 and "is above DRAW" in limits[0].message
    assert limits[0].where.startswith("Room 1/")


def test_an_obstacle_the_catalogue_does_not_have_is_refused_with_where() -> None:
    def change(d: dict[str, Any]) -> None:
        d["rooms"][2]["obstacles"][0]["name"] = "The dragon"

    prof, broken = _tampered("as-written", change)
    with pytest.raises(TowerpressError, match=r"rooms\[2\]\.obstacles\[0\]\.name: 'The dragon'"):
        FAMILY.read_dungeon(data(), prof, broken)


def test_check_document_finds_each_tampering_with_its_code() -> None:
    """Through the shared checker: the family's codes beside the sections', the tapes'
    and the regeneration's."""
    def tape(d: dict[str, Any]) -> None:
        d["tapes"][0]["entries"][0][0] = TAPE_HIGH + 1

    def dangling(d: dict[str, Any]) -> None:
        d["sections"][0]["turn_to"][0]["section"] = 9999

    def target(d: dict[str, Any]) -> None:
        _first_obstacle(d)["approaches"][0]["target"] = 9

    for change, code in ((tape, "tape-value"), (dangling, "turn-to"),
                         (target, "obstacle-limits")):
        _, broken = _tampered("balanced", change)
        codes = {f.code for f in check_document(broken, ruleset(), FAMILY)}
        assert code in codes and "regenerated" in codes
    assert check_document(_document(profile("balanced"), 5), ruleset(), FAMILY) == []


# -- the booklet's odds ------------------------------------------------------------------


def _won(base: str, trial: Trial, runs: int, seed: str = "int:1") -> float:
    outcomes = list(FAMILY.booklet_odds(data(), profile(base), trial, range(runs), seed))
    assert len(outcomes) == runs
    return sum(o.won for o in outcomes) / runs


def test_booklet_odds_are_repeatable_and_plausible() -> None:
    trial = _trial(profile("balanced"), 1)
    balanced = profile("balanced")
    first = list(FAMILY.booklet_odds(data(), balanced, trial, range(60), "int:1"))
    assert first == list(FAMILY.booklet_odds(data(), balanced, trial, range(60), "int:1"))
    assert first != list(FAMILY.booklet_odds(data(), balanced, trial, range(60), "int:2"))
    # The simulator's generic trials: 0% as written, 40% balanced, 92% gentle (README).
    won = {base: _won(base, trial, 150) for base in PROFILES}
    assert won["as-written"] < 0.05
    assert 0.2 < won["balanced"] < 0.75
    assert won["balanced"] < won["gentle"]


def test_booklet_odds_place_the_rests_as_the_profile_playing_them_does() -> None:
    """A booklet made under gentle (floors, TC-20 Alt) has no rest spots; played as
    written (its odds as written) it rests where as written puts them: the same plays as
    the as-written booklet of the same seed, whose rooms are the same."""
    gentle, written = _trial(profile("gentle"), 9), _trial(profile("as-written"), 9)
    assert [r.obstacles for r in gentle.rooms] == [r.obstacles for r in written.rooms]
    assert tuple(place_rests(rules(profile()), list(gentle.rooms))) == written.rooms
    assert list(FAMILY.booklet_odds(data(), profile(), gentle, range(40), "int:3")) == \
        list(FAMILY.booklet_odds(data(), profile(), written, range(40), "int:3"))
