"""3 Dice Dungeon booklets as data: the gamebook, its tapes, its JSON and its odds.

Over 30 seeds of every bundled profile: the sections and tapes pass the shared checks,
the JSON reads back to the very dungeon and passes the checker, and each door's way on
leads to the neighbour, whose door leads back.  Tampering with the JSON is found with
its code; the reference player stays within the tapes' bounds; a booklet's odds are
the simulator's in the mean.
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from collections.abc import Iterable
from functools import lru_cache
from importlib import resources
from typing import Any

import jsonschema
import pytest

from generator.engine.booklet import BookletRequest, make_booklet
from generator.engine.gamebook import Gamebook, Section, check_sections
from generator.engine.report import RunOutcome
from generator.engine.rng import DiceRng
from generator.engine.tapes import check_tapes
from generator.errors import TowerpressError
from generator.rulesets.three_dice_dungeon.dice import fast
from generator.rulesets.three_dice_dungeon.dungeon import Dungeon
from generator.rulesets.three_dice_dungeon.family import FAMILY
from generator.rulesets.three_dice_dungeon.hero import Hero
from generator.rulesets.three_dice_dungeon.levels import step
from generator.rulesets.three_dice_dungeon.policy import ReferencePolicy
from generator.rulesets.three_dice_dungeon.simulate import BookletGame, reread
from generator.rulesets.three_dice_dungeon.tapes import COMBAT_PAGE, tape_bounds
from tests.three_dice_dungeon.support import data, profile, rules, ruleset

SEEDS = 30
PROFILES = sorted(ruleset().profiles)
SIDES = {"N": 0, "E": 1, "S": 2, "W": 3}


@lru_cache(maxsize=64)
def booklet(profile_id: str, seed: int, depth: int = 3) -> tuple[Dungeon, Gamebook]:
    """The dungeon and gamebook of ``seed`` (typed as an integer)."""
    dungeon = FAMILY.generate_booklet(data(), profile(profile_id), f"int:{seed}", depth)
    return dungeon, FAMILY.gamebook(data(), profile(profile_id), dungeon, f"int:{seed}")


def document(profile_id: str, seed: int) -> dict[str, Any]:
    """What ``read_dungeon`` reads of a booklet: its seed and dungeon keys (a copy)."""
    _, book = booklet(profile_id, seed)
    result: dict[str, Any] = copy.deepcopy({"seed": str(seed), **book.dungeon})
    return result


def codes(profile_id: str, doc: dict[str, Any]) -> set[str]:
    dungeon = FAMILY.read_dungeon(data(), profile(profile_id), doc)
    return {f.code for f in FAMILY.check_booklet(data(), profile(profile_id), dungeon)}


def by_number(book: Gamebook) -> dict[int, Section]:
    return {s.number: s for s in book.sections}


# -- every booklet ------------------------------------------------------------------------------


@pytest.mark.parametrize("profile_id", PROFILES)
def test_every_booklet_of_30_seeds_passes_and_reads_back(profile_id: str) -> None:
    for seed in range(SEEDS):
        dungeon, book = booklet(profile_id, seed)
        where = f"{profile_id} seed {seed}"
        assert check_sections(book.sections) == [], where
        assert check_tapes(book.tapes) == [], where
        read = FAMILY.read_dungeon(data(), profile(profile_id), {"seed": str(seed),
                                                                 **book.dungeon})
        assert read == dungeon, where
        assert FAMILY.check_booklet(data(), profile(profile_id), read) == [], where
        _exits_agree(book)


def _exits_agree(book: Gamebook) -> None:
    """Each door is a way on to the neighbour's section, whose facing door leads back;
    the sections' numbers are the cells'."""
    sections = by_number(book)
    for level in book.dungeon["levels"]:
        cells = {(c["x"], c["y"]): c for c in level["cells"]}
        for cell in level["cells"]:
            section = sections[cell["section"]]
            assert section.where == f"Level {level['number']}, square {cell['label']}"
            ways = {w.text: w.turn_to for w in section.ways}
            for letter in cell["exits"]:
                side = SIDES[letter]
                other = cells[step((cell["x"], cell["y"]), side)]
                assert ways[("North", "East", "South", "West")[side]] == other["section"]
                back = {w.text: w.turn_to for w in sections[other["section"]].ways}
                assert back[("North", "East", "South", "West")[(side + 2) % 4]] == \
                    cell["section"]


@pytest.mark.parametrize("profile_id", PROFILES)
def test_the_json_is_plain_json(profile_id: str) -> None:
    """Lists, never tuples: a booklet read from its file compares equal to one made
    again (the check's regeneration)."""
    for seed in range(20):
        made = make_booklet(ruleset(), FAMILY, profile(profile_id),
                            BookletRequest(str(seed), 3, 0))
        assert json.loads(json.dumps(made)) == made


def test_the_shape_of_the_gamebook() -> None:
    """Section 1 sets out; every location can end in death; a Great Hall's stairs lead to
    the next level's start and from the last level to the victory; a vault's fragment
    leads to its artifact and back."""
    _, book = booklet("balanced", 3)
    sections = by_number(book)
    assert sections[1].kind == "start" and sections[1].ways[0].text == \
        "Climb down into the dungeon"
    death = next(s.number for s in book.sections if s.ending == "death")
    victory = next(s.number for s in book.sections if s.ending == "victory")
    levels = book.dungeon["levels"]
    starts = [next(c["section"] for c in lv["cells"] if c["entrance_above"]) for lv in levels]
    assert sections[1].ways[0].turn_to == starts[0]
    for k, level in enumerate(levels):
        for cell in level["cells"]:
            ways = {w.text: w.turn_to for w in sections[cell["section"]].ways}
            assert ways["If you fall in a fight"] == death
            if [cell["x"], cell["y"]] in level["descents"]:
                below = starts[k + 1] if k + 1 < len(levels) else victory
                assert ways["Take the stairs down"] == below
            else:
                assert "Take the stairs down" not in ways
            if cell["artifact"] is not None:
                found = sections[ways["Spend a map fragment here"]]
                assert found.kind == "artifact" and cell["artifact"]["item"] in found.text[0]
                assert found.ways[0].turn_to == cell["section"]
    assert {s.kind for s in book.sections} == {"start", "location", "artifact", "victory",
                                               "death"}


def test_a_section_shows_its_dice_beside_what_they_decided() -> None:
    dungeon, book = booklet("as-written", 5)
    cell = dungeon.levels[0].cells[0]
    json_cell = book.dungeon["levels"][0]["cells"][0]
    section = by_number(book)[json_cell["section"]]
    assert section.dice == json_cell["dice"]
    assert section.dice["location"] == cell.location_die
    assert f"(location die {cell.location_die})" in section.text[0]
    assert f"Score {cell.xp} XP" in section.text[2]
    assert "level 1 combat tape" in section.text[1] and "level 1 roaming tape" in \
        section.text[-1]
    start = by_number(book)[1]
    assert start.dice["character"] == list(dungeon.character.dice)
    assert f"= {dungeon.character.hp} (DD-02)" in start.text[0]


def coming_back(level: int, stop: str = "") -> str:
    return (f"Coming back here: if its monster is still here, fight it again at full strength; "
            f"if not{stop}, take the next entry of the level {level} roaming tape: your level "
            f"{level} map says what comes (DD-21).")


@pytest.mark.parametrize("profile_id", PROFILES)
def test_a_location_says_coming_back_in_one_sentence_and_keeps_its_own_dice(
        profile_id: str) -> None:
    """The roaming table is printed once, on the level's map page (the template's
    ``grids``): a section names only its level's tape, and no roaming monster's numbers;
    every number its own dice decided stays in it (DD-14's sum)."""
    for seed in range(3):
        dungeon, book = booklet(profile_id, seed)
        sections = by_number(book)
        for level, json_level in zip(dungeon.levels, book.dungeon["levels"], strict=True):
            for cell, json_cell in zip(level.cells, json_level["cells"], strict=True):
                text = sections[json_cell["section"]].text
                assert text[-1] == coming_back(level.number), (profile_id, seed)
                assert sum(paragraph.count("roaming") for paragraph in text) == 1
                m, t = cell.monster, cell.treasure
                tie = "\u00a0+\u00a0"  # the sum is kept on one line
                assert (f"Score {cell.xp} XP, its dice {cell.location_die}{tie}{m.die}{tie}"
                        f"{t.die}") in text[2]
                assert f"on the level {level.number} combat tape." in text[1]
        assert "printed under your map of the level" in sections[1].text[2]


def test_under_dd22_alt_coming_back_asks_whether_you_stop() -> None:
    read = profile("balanced", ("DD-22",))
    dungeon = FAMILY.generate_booklet(data(), read, "int:3", 2)
    book = FAMILY.gamebook(data(), read, dungeon, "int:3")
    stop = " and you stop here rather than pass through (DD-22)"
    last = {s.text[-1] for s in book.sections if s.kind == "location"}
    assert last == {coming_back(1, stop), coming_back(2, stop)}


def test_the_same_seed_gives_the_same_booklet_and_the_tapes_do_not_follow_the_content(
) -> None:
    a = FAMILY.gamebook(data(), profile("balanced"), booklet("balanced", 8)[0], "int:8")
    assert a == booklet("balanced", 8)[1]
    # The tapes' streams are their own: another profile's dungeon has the same dice there.
    mine = booklet("balanced", 8)[1].tapes[0]
    other = booklet("as-written", 8)[1].tapes[0]
    length = min(len(mine.entries), len(other.entries))
    assert mine.entries[:length] == other.entries[:length]


@pytest.mark.parametrize("profile_id", PROFILES)
def test_the_json_validates_against_the_shared_schema_and_the_rulesets(profile_id: str
                                                                       ) -> None:
    text = resources.files("generator.engine").joinpath("booklet.schema.json").read_text()
    schema = {"allOf": [json.loads(text), FAMILY.booklet_schema()]}
    jsonschema.Draft202012Validator.check_schema(FAMILY.booklet_schema())
    validator = jsonschema.Draft202012Validator(schema)
    for seed in range(3):
        made = make_booklet(ruleset(), FAMILY, profile(profile_id),
                            BookletRequest(str(seed), 2, 20))
        errors = list(validator.iter_errors(json.loads(json.dumps(made))))
        assert errors == [], [(list(e.path), e.message) for e in errors[:3]]
    broken = json.loads(json.dumps(made))
    broken["levels"][0]["cells"][0]["dice"]["location"] = 7
    broken["character"]["colour"] = "red"
    assert len(list(validator.iter_errors(broken))) == 2


# -- tampering ------------------------------------------------------------------------------------


def _at(doc: dict[str, Any], path: tuple[str | int, ...]) -> Any:
    found: Any = doc
    for key in path:
        found = found[key]
    return found


@pytest.mark.parametrize(("path", "expected"), [
    (("character", "dice", 0), {"character-derived", "character-reroll"}),
    (("levels", 1, "cells", 0, "dice", "location"), {"derived", "xp-sum"}),
    (("levels", 1, "cells", 0, "dice", "treasure"), {"derived", "xp-sum"}),
])
def test_a_changed_die_is_found(path: tuple[str | int, ...], expected: set[str]) -> None:
    doc = document("as-written", 11)
    parent = _at(doc, path[:-1])
    parent[path[-1]] = parent[path[-1]] % 6 + 1
    assert codes("as-written", doc) <= expected
    assert codes("as-written", doc) & expected


@pytest.mark.parametrize(("path", "expected"), [
    (("character", "hp"), {"character-derived"}),
    (("character", "attributes", "STR"), {"character-derived"}),
    (("levels", 1, "cells", 0, "xp"), {"xp-sum"}),
    (("levels", 1, "cells", 0, "monster", "hp"), {"derived"}),
    (("levels", 1, "cells", 0, "monster", "armour"), {"derived"}),
    (("levels", 1, "cells", 0, "exit_count"), {"exit-count"}),
])
def test_a_changed_derived_field_is_found(path: tuple[str | int, ...], expected: set[str]
                                          ) -> None:
    doc = document("as-written", 11)
    parent = _at(doc, path[:-1])
    parent[path[-1]] = parent[path[-1]] % 6 + 1
    assert codes("as-written", doc) == expected


def test_a_changed_treasure_is_found() -> None:
    doc = document("as-written", 11)
    cell = doc["levels"][1]["cells"][0]
    cell["treasure"]["item"] = "Jade Idol" if cell["treasure"]["item"] != "Jade Idol" else "Ruby"
    assert codes("as-written", doc) == {"derived"}


def test_a_one_sided_exit_is_found() -> None:
    """A door added where the neighbour has none facing it, and a door taken away while
    the neighbour keeps its own, on level 2 (no training wheels there: the distances a
    new door changes decide nothing else)."""
    doc, cell, letter = _a_wall_between_neighbours()
    cell["exits"] = sorted([*cell["exits"], letter], key=SIDES.__getitem__)
    assert codes("as-written", doc) == {"exit-asymmetric", "exit-count"}
    doc = document("as-written", 1)
    cell = next(c for c in doc["levels"][1]["cells"] if c["exits"])
    cell["exits"].pop()
    assert {"exit-asymmetric", "exit-count"} <= codes("as-written", doc)


def _a_wall_between_neighbours() -> tuple[dict[str, Any], dict[str, Any], str]:
    """A booklet, a level 2 location and a side where a neighbour has no door to it."""
    for seed in range(20):
        doc = document("as-written", seed)
        cells = {(c["x"], c["y"]): c for c in doc["levels"][1]["cells"]}
        for cell in cells.values():
            for letter, side in SIDES.items():
                if step((cell["x"], cell["y"]), side) in cells and letter not in cell["exits"]:
                    return doc, cell, letter
    raise AssertionError("no two neighbours without a door between them on a level 2")


@pytest.mark.parametrize(("path", "value", "named"), [
    (("monster", "base"), "Hydra", "level 1 / cell D4: 'Hydra' is not a monster"),
    (("location",), "pit", "level 1 / cell D4: 'pit' is not a kind of location"),
    (("treasure", "item"), "Holy Grail", "level 1 / cell D4: 'Holy Grail' is not an item"),
])
def test_a_name_the_content_does_not_have_is_named(path: tuple[str, ...], value: str,
                                                   named: str) -> None:
    doc = document("as-written", 4)
    target = doc["levels"][0]["cells"][0]
    assert target["label"] == "D4"
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    with pytest.raises(TowerpressError, match=named):
        FAMILY.read_dungeon(data(), profile("as-written"), doc)


# -- tapes -------------------------------------------------------------------------------------


def test_a_tape_as_long_as_its_bound_up_to_a_page_and_its_fallback_past_it() -> None:
    seen: Counter[str] = Counter()
    for seed in range(40):
        for tape in booklet("as-written", seed)[1].tapes:
            if tape.name != "combat":
                continue
            if tape.bound > COMBAT_PAGE:
                assert len(tape.entries) == COMBAT_PAGE and "start again" in tape.fallback
                seen["short"] += 1
            else:
                assert len(tape.entries) == tape.bound and not tape.fallback
                seen["long enough"] += 1
    assert seen["short"] and seen["long enough"]


def test_without_boots_the_roaming_bound_is_the_purposeful_walk() -> None:
    """3(n - 1) returns for n locations (tape_bounds), when no Boots are to be had."""
    r = rules("as-written")
    checked = 0
    for seed in range(30):
        dungeon, _ = booklet("as-written", seed)
        names = [n for lv in dungeon.levels for c in lv.cells for n in c.gains]
        names += [r.data.artifacts.lookup(c.artifact_die).name for lv in dungeon.levels
                  for c in lv.cells if c.artifact_die is not None]
        if "Boots of Swiftness" in names:
            continue
        bounds = tape_bounds(r, dungeon, f"int:{seed}")
        assert [b.roaming for b in bounds] == [3 * (len(lv.cells) - 1) for lv in dungeon.levels]
        checked += 1
    assert checked


class _Counting:
    """A random source that counts the dice it gives, by (level, purpose)."""

    def __init__(self, rng: DiceRng, key: tuple[object, str], used: Counter[Any]):
        self.rng, self.key, self.used = rng, key, used

    def die(self, faces: int = 6) -> int:
        self.used[self.key] += 1
        return self.rng.die(faces)

    def below(self, n: int) -> int:
        self.used[self.key] += 1
        return self.rng.below(n)

    def shuffle(self, items: list[int]) -> None:
        self.rng.shuffle(items)


@pytest.mark.parametrize("profile_id", PROFILES)
def test_the_reference_player_never_needs_more_than_the_bounds(profile_id: str) -> None:
    """The bounds against a second formulation: the dice the reference player takes when
    it plays the booklet's dungeon."""
    r = rules(profile_id)
    for seed in range(8):
        dungeon, _ = booklet(profile_id, seed)
        bounds = tape_bounds(r, dungeon, f"int:{seed}")
        for run in range(15):
            used: Counter[Any] = Counter()
            game = BookletGame(rules=r, policy=ReferencePolicy(),
                               streams=_counting(seed, run, used), depth=3,
                               grid=dungeon.levels[0].grid, hero=Hero(r, dungeon.character),
                               substitution=dict(dungeon.substitution), fixed=dungeon.levels)
            game.enter_level(1)
            while not game.over():
                game.turn()
            for (level, purpose), count in used.items():
                bound = bounds[level - 1]
                assert count <= (bound.combat if purpose == "combat" else bound.roaming)


def _counting(seed: int, run: int, used: Counter[Any]) -> Any:
    def streams(*place: object, purpose: str) -> DiceRng:
        rng = fast(f"int:{seed}", "count", run, *place, purpose=purpose)
        return _Counting(rng, (place[1], purpose), used)

    return streams


# -- odds ----------------------------------------------------------------------------------------


def _reached(outcomes: Iterable[RunOutcome], depth: int) -> float:
    runs = list(outcomes)
    return sum(o.depth >= depth for o in runs) / len(runs)


def test_the_same_seed_gives_the_same_odds() -> None:
    dungeon, _ = booklet("as-written", 2)
    a = list(FAMILY.booklet_odds(data(), profile("as-written"), dungeon, range(40), "int:2"))
    b = list(FAMILY.booklet_odds(data(), profile("as-written"), dungeon, range(40), "int:2"))
    c = list(FAMILY.booklet_odds(data(), profile("as-written"), dungeon, range(40), "int:3"))
    assert a == b and a != c
    assert len(set(a)) > 1  # fresh dice for each play


def test_the_odds_of_booklets_are_the_simulators_in_the_mean() -> None:
    """A hundred booklets of the balanced profile, five plays each, against 500 simulated
    games of fresh dungeons: the same share of heroes gets through the first level
    (about half, the profile's description says), within what chance allows."""
    plays: list[RunOutcome] = []
    for seed in range(100):
        dungeon = FAMILY.generate_booklet(data(), profile("balanced"), f"int:{seed}", 3)
        plays += FAMILY.booklet_odds(data(), profile("balanced"), dungeon, range(5), f"int:{seed}")
    simulated = _reached(FAMILY.simulate(data(), profile("balanced"), 500, "int:1", 3, None),
                         2)
    assert abs(_reached(plays, 2) - simulated) < 0.12
    assert 0.3 < simulated < 0.7


def test_as_written_a_balanced_booklet_is_far_harder() -> None:
    """The cover's second figure: the same dungeon under the rules as written (the manual's
    numbers, DD-28 Faithful) kills nearly every hero on the first level."""
    dungeon, _ = booklet("balanced", 6)
    as_written = rules("as-written")
    again = reread(as_written, dungeon, "int:6")
    assert again.profile == "as-written" and again.substitution == ()
    assert [c.kind for lv in again.levels for c in lv.cells] == \
        [c.kind for lv in dungeon.levels for c in lv.cells]
    assert reread(rules("balanced"), dungeon, "int:6") is dungeon
    odds = list(FAMILY.booklet_odds(data(), profile("as-written"), dungeon, range(200), "int:6"))
    assert _reached(odds, 2) < 0.15
    assert Counter(o.death for o in odds).most_common(1)[0][0] in {"monster", "elite"}
