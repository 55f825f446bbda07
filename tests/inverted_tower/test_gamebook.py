"""The Inverted Tower's booklet as data: sections a reader can follow, tapes with their
worst case, the JSON dungeon read back as written, tampering found, and the odds."""

from __future__ import annotations

import copy
import json
import re
from collections import Counter
from functools import lru_cache
from importlib import resources
from typing import Any

import jsonschema
import pytest
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from generator.engine.booklet import BookletRequest, check_document, make_booklet
from generator.engine.family import family_of
from generator.engine.gamebook import Section, Way, check_sections
from generator.engine.report import summarise
from generator.engine.rng import normalise_seed
from generator.engine.tapes import Tape, check_tapes
from generator.errors import TowerpressError
from generator.model.common import Profile
from generator.rulesets.inverted_tower.booklet import FloorContent
from generator.rulesets.inverted_tower.game import play
from generator.rulesets.inverted_tower.gamebook import Haul, combat_bound, wander_bound
from generator.rulesets.inverted_tower.policy import REFERENCE
from generator.rulesets.inverted_tower.procedures import gain_xp, level_up, new_hero
from generator.rulesets.inverted_tower.rules import Rules
from generator.rulesets.inverted_tower.simulate import (
    BookletOddsDice,
    booklet_odds,
    booklet_rooms,
    simulate,
)
from generator.rulesets.inverted_tower.sources import sheet_sources
from generator.rulesets.inverted_tower.state import FloorState, RoomKind, RoomRoll, WanderRoll
from tests.inverted_tower.support import PROFILES, data, profile, rules, ruleset

FAMILY = family_of(ruleset())
SEEDS = 30
Document = dict[str, Any]


def _booklet(seed: int | str, base: str | Profile = "balanced", depth: int = 2) -> Document:
    """The booklet of ``seed`` as ``towerpress booklet`` writes it (no odds), read back
    from its JSON text."""
    chosen = base if isinstance(base, Profile) else profile(base)
    request = BookletRequest(str(seed), depth, 0)
    document = make_booklet(ruleset(), FAMILY, chosen, request)
    loaded: Document = json.loads(json.dumps(document))
    return loaded


def _sections(document: Document) -> list[Section]:
    return [Section(s["number"], s["kind"], s["where"], tuple(s["text"]), s["dice"],
                    tuple(Way(w["text"], w["section"]) for w in s["turn_to"]),
                    s["ending"] or "") for s in document["sections"]]


def _tapes(document: Document) -> list[Tape]:
    return [Tape(t["name"], t["place"], tuple(t["parts"]),
                 tuple(tuple(e) for e in t["entries"]), t["low"], t["high"], t["bound"],
                 t["fallback"] or "") for t in document["tapes"]]


def _dungeon(seed: int | str, base: str | Profile = "balanced",
             depth: int = 2) -> tuple[FloorContent, ...]:
    chosen = base if isinstance(base, Profile) else profile(base)
    dungeon: tuple[FloorContent, ...] = FAMILY.generate_booklet(
        data(), chosen, normalise_seed(str(seed)), depth)
    return dungeon


def _read(document: Document, base: str | Profile = "balanced") -> tuple[FloorContent, ...]:
    chosen = base if isinstance(base, Profile) else profile(base)
    floors: tuple[FloorContent, ...] = FAMILY.read_dungeon(data(), chosen, document)
    return floors


def _codes(document: Document, base: str = "balanced") -> set[str]:
    return {f.code for f in FAMILY.check_booklet(data(), profile(base), _read(document, base))}


@lru_cache(maxsize=1)
def _validator() -> jsonschema.Draft202012Validator:
    """The shared schema and the family's together (allOf), their resources crawled once:
    left to the validator, every $ref of a schema with its own $id is looked up again,
    which doubles the time of a validation."""
    text = resources.files("generator.engine").joinpath("booklet.schema.json").read_text()
    schemas = [json.loads(text), dict(FAMILY.booklet_schema())]
    registry: Registry[Any] = Registry().with_resources(
        (s["$id"], DRAFT202012.create_resource(s)) for s in schemas).crawl()
    return jsonschema.Draft202012Validator({"allOf": [{"$ref": s["$id"]} for s in schemas]},
                                           registry=registry)


# -- every booklet made is sound ----------------------------------------------------------------


@pytest.mark.parametrize("base", PROFILES)
def test_booklets_of_30_seeds_are_sound_and_read_back_as_made(base: str) -> None:
    for seed in range(SEEDS):
        document = _booklet(seed, base)
        assert check_sections(_sections(document)) == [], seed
        assert check_tapes(_tapes(document)) == [], seed
        floors = _read(document, base)
        assert floors == _dungeon(seed, base), seed  # read_dungeon(gamebook(d)) == d
        assert FAMILY.check_booklet(data(), profile(base), floors) == [], seed
        if seed % 20 == 0:
            assert list(_validator().iter_errors(document)) == [], seed


@pytest.mark.parametrize("base", PROFILES)
def test_ten_floor_booklets_validate_against_both_schemas(base: str) -> None:
    for seed in (1, "ten floors", 77):
        document = _booklet(seed, base, depth=10)
        assert list(_validator().iter_errors(document)) == []
        assert check_sections(_sections(document)) == []
        assert _read(document, base) == _dungeon(seed, base, 10)
        assert document == _booklet(seed, base, depth=10)  # the same seed, the same JSON


@pytest.mark.parametrize("alts", [("IT-02", "IT-03", "IT-05"), ("IT-22", "IT-23", "IT-26"),
                                  ("IT-18", "IT-27", "IT-32"), ("IT-09", "IT-16", "IT-21",
                                                                "IT-25", "IT-28")])
def test_other_readings_make_sound_booklets(alts: tuple[str, ...]) -> None:
    chosen = profile("as-written", alts)
    for seed in range(4):
        document = _booklet(seed, chosen, depth=11)
        assert check_sections(_sections(document)) == []
        assert check_tapes(_tapes(document)) == []
        floors = _read(document, chosen)
        assert floors == _dungeon(seed, chosen, 11)
        assert FAMILY.check_booklet(data(), chosen, floors) == []
        assert list(_validator().iter_errors(document)) == []


def test_a_win_floor_above_the_last_leaves_the_floors_below_it_out() -> None:
    """IT-27 Alt wins on floor 10: floor 10's stairs are the victory, and floors 11 and 12
    are in the dungeon but have no sections."""
    document = _booklet(3, profile("as-written", ("IT-27",)), depth=12)
    floors = document["floors"]
    assert [r["section"] for f in floors[10:] for r in f["rooms"]] == \
        [None] * sum(len(f["rooms"]) for f in floors[10:])
    victory = next(s for s in document["sections"] if s["ending"] == "victory")
    assert victory["where"] == "Below floor 10"


# -- the sections a reader follows ----------------------------------------------------------


def test_the_start_is_floor_1_room_1_and_each_room_is_its_section() -> None:
    document = _booklet(5, depth=3)
    sections = {s["number"]: s for s in document["sections"]}
    assert sections[1]["where"] == "Floor 1, room 1"
    for floor in document["floors"]:
        for room in floor["rooms"]:
            section = sections[room["section"]]
            assert section["where"] == f"Floor {floor['number']}, room {room['number']}"
            assert section["dice"] == room["dice"]
        assert sections[floor["wandering"]["section"]]["kind"] == "wandering"


def test_stairs_lead_down_and_the_last_stairs_to_the_victory() -> None:
    document = _booklet(11, depth=3)
    sections = {s["number"]: s for s in document["sections"]}
    for floor in document["floors"]:
        stairs = [r for r in floor["rooms"] if r["stairs"]]
        assert len(stairs) == 1
        down = [w for w in sections[stairs[0]["section"]]["turn_to"]
                if w["text"] == "Take the stairs down"]
        target = sections[down[0]["section"]]
        if floor["number"] == 3:
            assert (target["kind"], target["ending"]) == ("victory", "victory")
        else:
            assert target["where"] == f"Floor {floor['number'] + 1}, room 1"


def test_every_fight_trap_and_way_back_can_lead_to_the_one_death() -> None:
    document = _booklet(8, depth=3)
    deaths = [s for s in document["sections"] if s["ending"] == "death"]
    assert len(deaths) == 1
    assert deaths[0]["text"][0] == "Your climb ends here: write your score."
    sections = {s["number"]: s for s in document["sections"]}
    for floor in document["floors"]:
        for room in floor["rooms"]:
            ways = {w["section"] for w in sections[room["section"]]["turn_to"]}
            dangerous = room["monsters"] or room["kind"] == "trap"
            assert (deaths[0]["number"] in ways) == bool(dangerous), room
        back = sections[floor["wandering"]["section"]]["turn_to"]
        assert back[-1]["section"] == deaths[0]["number"]


def test_the_way_back_lists_every_room_number_so_it_never_tells_the_floors_length() -> None:
    """A floor of 5 rooms and one of 12 offer the same list: a number past the floor's
    last room leads to a section that says the log cannot have it."""
    document = _booklet(2, depth=3)
    sections = {s["number"]: s for s in document["sections"]}
    max_rooms = rules("balanced").max_rooms
    for floor in document["floors"]:
        ways = sections[floor["wandering"]["section"]]["turn_to"]
        assert [w["text"] for w in ways[:-1]] == [f"Room {k}" for k in range(1, max_rooms + 1)]
        rooms = {r["number"]: r["section"] for r in floor["rooms"]}
        for k, way in enumerate(ways[:-1], 1):
            target = sections[way["section"]]
            if k in rooms:
                assert way["section"] == rooms[k]
            else:
                assert (target["kind"], target["turn_to"][0]["section"]) == \
                    ("no room", floor["wandering"]["section"])


#: The words of every way on, numbers left out: none tells what lies behind it.
WAYS = {"Go on to room #, if it is not in your log yet",
        "Go on to a new room, if your log has room # already",
        "Go back to another room in your log", "Take the stairs down", "If you fall",
        "Room #", "If you fall to wandering monsters", "Back to the list of rooms"}


def test_ways_on_read_as_choices_and_spoil_nothing_and_texts_are_plain() -> None:
    for seed in range(20):
        document = _booklet(seed, depth=2)
        for s in document["sections"]:
            assert {re.sub(r"\d+", "#", w["text"]) for w in s["turn_to"]} <= WAYS
            assert s["where"] and s["text"]
            assert not any(re.search(r"[*_#`\[\]]", para) for para in s["text"]), s["text"]


def test_a_room_says_what_its_dice_made_and_which_tape_to_use() -> None:
    document = _booklet(4, depth=2)
    sections = {s["number"]: s for s in document["sections"]}
    first = sections[1]
    assert "cross off each die or entry as you use it" in first["text"][0].lower()
    for floor in document["floors"]:
        for room in floor["rooms"]:
            text = " ".join(sections[room["section"]]["text"])
            if room["kind"] in ("encounter", "boss"):
                assert f"next die of floor {floor['number']}'s combat tape" in text
                assert f"minus {floor['number']} (the floor number)" in text  # IT-28
            if room["kind"] == "trap":
                assert room["trap"]["name"] in text and room["trap"]["attribute"] in text
            if room["treasure"]:
                assert all(item["name"].lower() in text.lower() or
                           item["item"] == "gold" for item in room["treasure"])
        back = " ".join(sections[floor["wandering"]["section"]]["text"])
        assert f"floor {floor['number']}'s wandering tape" in back


# -- tapes ----------------------------------------------------------------------------------


def test_each_floor_has_its_two_tapes_from_its_own_streams() -> None:
    document = _booklet(6, depth=3)
    floors = _dungeon(6, depth=3)
    tapes = {(t["place"], t["name"]): t for t in document["tapes"]}
    assert len(tapes) == 2 * len(floors)
    for floor in floors:
        combat = tapes[(f"floor {floor.floor}", "combat")]
        wander = tapes[(f"floor {floor.floor}", "wandering")]
        assert [e[0] for e in combat["entries"]] == list(floor.combat_tape)
        assert [tuple(e) for e in wander["entries"]] == [
            (w.roll.check, w.roll.elite, w.roll.count, w.roll.treasure) for w in floor.wandering]
        assert combat["fallback"] and wander["fallback"]  # the rules set no limit on moves back
    assert tapes[("floor 1", "combat")]["entries"] != tapes[("floor 2", "combat")]["entries"]


class _Counting(BookletOddsDice):
    """Fresh dice, counted per floor: combat dice and trap checks, wandering entries."""

    __slots__ = ("combat_used", "traps", "wander_used")

    def __init__(self, floors: tuple[FloorContent, ...], r: Rules, run: int):
        super().__init__({f.floor: booklet_rooms(r, f) for f in floors}, "int:9", run,
                         r.faces)
        self.traps = {f.floor: {room.index - 1 for room in f.rooms if room.kind is RoomKind.TRAP}
                      for f in floors}
        self.combat_used: Counter[int] = Counter()
        self.wander_used: Counter[int] = Counter()

    def room(self, rules: Rules, fs: FloorState) -> RoomRoll:
        self.combat_used[fs.floor] += fs.explored in self.traps[fs.floor]
        return super().room(rules, fs)

    def wander(self, floor: int) -> WanderRoll:
        self.wander_used[floor] += 1
        return super().wander(floor)

    def combat(self, floor: int) -> int:
        self.combat_used[floor] += 1
        return super().combat(floor)


def test_no_play_within_the_bounded_moves_back_takes_more_dice_than_the_bound() -> None:
    """The bound as an oracle checks it: the dice real plays take (the reference player,
    fresh dice), on every floor whose moves back stayed within the wandering bound."""
    checked = 0
    for base in PROFILES:
        r = rules(base)
        for seed in range(60):
            floors = _dungeon(seed, base, 3)
            bounds = []
            haul = Haul()
            for floor in floors:
                combat, haul = combat_bound(r, floor, haul)
                bounds.append((combat, wander_bound(r, floor)[1]))
            for run in range(6):
                dice = _Counting(floors, r, run)
                play(r, REFERENCE, dice, len(floors))
                for floor, (combat, entries) in zip(floors, bounds, strict=True):
                    if dice.wander_used[floor.floor] <= entries:
                        assert dice.combat_used[floor.floor] <= combat
                        checked += dice.combat_used[floor.floor] > 0
    assert checked > 500


def test_the_wandering_bound_counts_returns_worth_making() -> None:
    """After each new room, one move back to each earlier room worth it: the stairs, and
    the bonfire and the merchant while IT-22 lets them serve again."""
    floors = _dungeon(14, "as-written", 6)
    for floor in floors:
        worth = [room.index for room in floor.rooms
                 if room.stairs or room.kind in (RoomKind.BONFIRE, RoomKind.MERCHANT)]
        expected = sum(sum(1 for w in worth if w < room.index) for room in floor.rooms)
        assert wander_bound(rules(), floor) == (expected, expected)
        per_room = rules(alts=("IT-23",))
        entries = sum((room.index - 1) * sum(1 for w in worth if w < room.index)
                      for room in floor.rooms)
        assert wander_bound(per_room, floor) == (expected, entries)
        stairs_only = sum(1 for room in floor.rooms if room.index > floor.stairs_room)
        assert wander_bound(rules(alts=("IT-22",)), floor)[0] == stairs_only


# -- the hero and the ladder the hero page prints ---------------------------------------------


@pytest.mark.parametrize("base", PROFILES)
def test_the_character_is_the_hero_the_engine_starts_with(base: str) -> None:
    r = rules(base)
    start = _booklet(1, base)["character"]
    hero = new_hero(r, REFERENCE)  # the reference player's, with the free points placed
    assert sum(start["attributes"].values()) + start["points"] == sum(hero.attributes)
    assert list(start["attributes"]) == [a.code for a in data().character.attributes]
    assert (start["hp"], start["max_hp"], start["level"], start["xp"], start["gold"]) == (
        hero.hp, hero.max_hp, hero.level, hero.xp, hero.gold)
    held = {"dagger": hero.daggers, "potion": hero.potions, "gold": hero.gold}
    assert {s["item"]: s["quantity"] for s in start["kit"]} == {
        k: v for k, v in held.items() if k != "gold" and v}
    assert {c["item"]: c["start"] for c in start["carried"]} == held
    one_up = level_up(r, hero, 0)
    assert start["level_up"] == {"max_hp": one_up.max_hp - hero.max_hp,
                                 "hp": one_up.hp - hero.hp,
                                 "points": sum(one_up.attributes) - sum(hero.attributes)}


def test_the_character_says_what_the_readings_make_of_items_and_crits() -> None:
    def said(chosen: Profile) -> dict[str, str]:
        start = _booklet(1, chosen)["character"]
        return {c["item"]: c["text"] for c in start["carried"]} | {
            "lift": str(start["crits"]["daggers_lift"])}
    written = said(profile("as-written"))
    assert "After seeing the die" in written["dagger"] and written["lift"] == "False"
    assert "drunk by itself" not in written["potion"]
    assert "drunk by itself (IT-11)" in said(profile("as-written", ("IT-11",)))["potion"]
    assert "every combat roll" in said(profile("as-written", ("IT-09",)))["dagger"]
    before = said(profile("as-written", ("IT-10",)))
    assert "Before the die" in before["dagger"] and "between rooms only" in before["potion"]
    assert said(profile("as-written", ("IT-08",)))["lift"] == "True"
    assert "buys" in said(profile("as-written", ("IT-21",)))["gold"]


@pytest.mark.parametrize("base", PROFILES)
def test_the_ladder_reaches_as_far_as_the_booklets_xp_and_reads_as_the_sheets(
        base: str) -> None:
    """Each step as IT-12 reads it, held against the sheets' ladder (made from the data, not
    the rules); the last step is the level the most XP reaches, and the next is out of reach."""
    r = rules(base)
    ladder = _booklet(1, base, depth=10)["ladder"]
    assert ladder["counting"] == ("total" if r.xp_total else "reset")
    source = sheet_sources(data()).ladders["xp"]
    sheet = source.alt if profile(base).alt(source.ruling) else source.faithful
    steps = [(s["level"], s["xp"]) for s in ladder["steps"]]
    assert steps[:len(sheet)] == list(sheet[:len(steps)])
    assert [s["level"] for s in ladder["steps"]] == list(
        range(r.start_level + 1, r.start_level + 1 + len(steps)))
    top = gain_xp(r, REFERENCE, new_hero(r, REFERENCE), ladder["most_xp"])
    assert top.level == steps[-1][0]
    # The XP that reaches the level after the last step: a total, or every cost up to it.
    beyond = r.level_cost(top.level) if r.xp_total else sum(
        r.level_cost(level) for level in range(r.start_level, top.level + 1))
    assert ladder["most_xp"] < beyond
    rooms = sum(r.foe(foe).xp for floor in _dungeon(1, base, 10) for room in floor.rooms
                for foe in room.foes)
    assert ladder["most_xp"] >= rooms  # and the wandering monsters the tapes count


def test_the_ladder_counts_no_floor_below_the_win_floor() -> None:
    """IT-27 Alt wins below floor 10: floors 11 and 12 give no XP to the ladder."""
    chosen = profile("as-written", ("IT-27",))
    assert _booklet(3, chosen, depth=12)["ladder"] == _booklet(3, chosen, depth=10)["ladder"]
    assert _booklet(3, depth=12)["ladder"] != _booklet(3, depth=10)["ladder"]


def test_a_changed_hero_is_found_by_the_regeneration() -> None:
    document = copy.deepcopy(_booklet(1))
    document["character"]["max_hp"] += 1
    document["ladder"]["steps"][2]["xp"] -= 1
    document["bestiary"]["boss"]["target"] = 4
    found = check_document(document, ruleset(), FAMILY)
    assert {(f.code, f.where) for f in found} == {
        ("regenerated", "character"), ("regenerated", "ladder"),
        ("regenerated", "bestiary")}
    del document["ladder"]
    assert [(f.code, f.where) for f in check_document(document, ruleset(), FAMILY)] == [
        ("schema", "document")]


# -- the checker finds tampering ------------------------------------------------------------


def _room(document: Document, kind: str) -> Document:
    return next(r for f in document["floors"] for r in f["rooms"] if r["kind"] == kind)


def test_a_changed_die_is_found() -> None:
    """A room's die two faces on moves its split roll to the next third: the room the dice
    make is not the room written. A wandering entry whose failed check now passes brings
    monsters the tape's line does not list."""
    document = copy.deepcopy(_booklet(1))
    room = _room(document, "encounter")
    room["dice"]["mobs"] = (room["dice"]["mobs"] + 1) % 6 + 1
    found = FAMILY.check_booklet(data(), profile("balanced"), _read(document))
    assert [(f.code, f.where) for f in found][:1] == [
        ("derived-mismatch", f"floor 1/room {room['number']}")]
    document = copy.deepcopy(_booklet(1))
    entry = next(i for i, e in enumerate(document["floors"][0]["wandering"]["entries"])
                 if not e["monsters"])
    tape = next(t for t in document["tapes"] if (t["place"], t["name"]) == ("floor 1",
                                                                            "wandering"))
    tape["entries"][entry][0] = rules("balanced").faces
    found = FAMILY.check_booklet(data(), profile("balanced"), _read(document))
    assert [(f.code, f.where) for f in found] == [
        ("derived-mismatch", f"floor 1/wandering[{entry}]")]


def test_a_changed_derived_field_is_found() -> None:
    for change in ("monsters", "kind", "treasure", "elite"):
        document = copy.deepcopy(_booklet(1))
        room = _room(document, "encounter")
        if change == "monsters":
            room["monsters"].append("normal")
        elif change == "kind":
            room.update(kind="bonfire", monsters=[], treasure=None)
        elif change == "treasure":
            room["treasure"] = [{"item": "potion", "name": "Potion", "quantity": 3}]
        else:
            room["elite"] = not room["elite"]
        assert "derived-mismatch" in _codes(document), change
    wandering = copy.deepcopy(_booklet(1))
    entries = wandering["floors"][0]["wandering"]["entries"]
    entries[0]["monsters"] = entries[0]["monsters"] + ["elite"]
    assert "derived-mismatch" in _codes(wandering)


def test_a_second_stairs_room_is_found() -> None:
    document = copy.deepcopy(_booklet(1))
    room = _room(document, "encounter")
    room.update(kind="stairs", stairs=True, monsters=[], elite=False, event="stairs",
                treasure=None)
    found = FAMILY.check_booklet(data(), profile("balanced"), _read(document))
    assert ("stairs-count", "floor 1") in {(f.code, f.where) for f in found}


def test_an_unused_die_decides_nothing() -> None:
    document = copy.deepcopy(_booklet(1))
    room = _room(document, "encounter")
    room["unused_dice"]["trap_check"] = room["unused_dice"]["trap_check"] % 6 + 1
    assert _codes(document) == set()  # the regeneration compare still sees it
    assert document != _booklet(1)


def test_a_name_the_data_does_not_have_is_an_error_that_says_where() -> None:
    document = copy.deepcopy(_booklet(1))
    room = _room(document, "encounter")
    room["monsters"][0] = "dragon"
    with pytest.raises(TowerpressError, match=rf"floor 1/room {room['number']}: expected a "
                                              r"monster of the data .*got 'dragon'"):
        _read(document)
    document = copy.deepcopy(_booklet(1))
    _room(document, "encounter")["treasure"] = [{"item": "ruby", "name": "Ruby",
                                                 "quantity": 1}]
    with pytest.raises(TowerpressError, match="expected an item of the data"):
        _read(document)


def test_the_schema_is_strict() -> None:
    FAMILY_SCHEMA = FAMILY.booklet_schema()
    jsonschema.Draft202012Validator.check_schema(FAMILY_SCHEMA)
    document = copy.deepcopy(_booklet(1))
    room = _room(document, "encounter")
    room["dice"]["mobs"] = 7
    room["colour"] = "red"
    document["floors"][0]["wandering"]["entries"][0]["treasure"] = "gold"
    errors = {tuple(e.absolute_path)[-1] for e in _validator().iter_errors(document)}
    assert errors >= {"mobs", "treasure"}
    assert any("colour" in e.message for e in _validator().iter_errors(document))
    del document["bestiary"]
    assert any("bestiary" in e.message for e in _validator().iter_errors(document))


def test_a_tape_value_of_7_is_found_by_the_tapes_and_the_floor() -> None:
    document = copy.deepcopy(_booklet(1))
    combat = next(t for t in document["tapes"] if t["name"] == "combat")
    combat["entries"][0][0] = 7
    assert "tape-value" in {f.code for f in check_tapes(_tapes(document))}
    assert "die-range" in _codes(document)


def test_a_tape_without_its_fallback_is_short() -> None:
    document = copy.deepcopy(_booklet(1))
    combat = next(t for t in document["tapes"] if t["name"] == "combat" and
                  t["bound"] > len(t["entries"]))
    combat["fallback"] = None
    assert "tape-short" in {f.code for f in check_tapes(_tapes(document))}


# -- the odds of this very booklet ------------------------------------------------------------


def test_the_same_seed_gives_the_same_odds_and_another_seed_other_dice() -> None:
    floors = _dungeon(21, depth=3)
    first = FAMILY.booklet_odds(data(), profile("balanced"), floors, range(300), "int:21")
    assert list(first) == list(FAMILY.booklet_odds(data(), profile("balanced"), floors, range(300),
                                                   "int:21"))
    assert list(first) != list(FAMILY.booklet_odds(data(), profile("balanced"), floors, range(300),
                                                   "int:22"))


@pytest.mark.parametrize(("base", "tolerance"), [("as-written", 0.06), ("balanced", 0.07)])
def test_booklet_odds_over_many_booklets_agree_with_the_simulator(base: str,
                                                                  tolerance: float) -> None:
    """The odds of a booklet are those of its floors; over many booklets they are the
    simulator's, which draws new floors every game (seed 1, 4,000 runs)."""
    r = rules(base)
    outcomes = []
    for seed in range(250):
        floors = _dungeon(seed, base, 1)
        outcomes += booklet_odds(r, floors, range(4), normalise_seed(str(seed)))
    booklets = sum(o.won for o in outcomes) / len(outcomes)
    simulated = summarise(simulate(data(), profile(base), 4000, "int:1", 1), ruleset="it",
                          profile=base, seed="1", depth_name="floor", has_end=True).won
    assert simulated is not None
    assert abs(booklets - simulated) < tolerance, (booklets, simulated)


def test_odds_under_another_profile_read_the_same_dice() -> None:
    """A draft-4.5 booklet played as written: the same dice make the as-written floors
    (no reading that differs moves a room), so its odds are those of the as-written
    booklet of the same seed."""
    written = booklet_odds(rules("as-written"), _dungeon(1, "as-written", 3), range(200), "int:1")
    assert booklet_odds(rules("as-written"), _dungeon(1, "draft-4.5", 3), range(200),
                        "int:1") == written
    assert booklet_odds(rules("draft-4.5"), _dungeon(1, "draft-4.5", 3), range(200),
                        "int:1") != written
