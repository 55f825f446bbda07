"""``check`` on tampered booklets: every way of tampering with one that the issue names
fails with its own code (each ruleset's own cases are in its tests, with the many seeds
that pass: tests/<ruleset>/test_booklet_seeds.py)."""

from __future__ import annotations

from typing import Any

import pytest

from generator.engine.booklet import check_document
from generator.engine.family import family_of
from generator.model.loader import Content
from tests.content import RULESETS
from tests.products.booklet.support import booklet, codes, edited


def _first(document: dict[str, Any], kind: str | None = None) -> dict[str, Any]:
    """The first section with a way on (of ``kind``, when given)."""
    return next(s for s in document["sections"]
                if s["turn_to"] and (kind is None or s["kind"] == kind))


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_a_dangling_turn_to_is_found(content: Content, ruleset_id: str) -> None:
    document = edited(booklet(content, ruleset_id))
    _first(document)["turn_to"][0]["section"] = len(document["sections"]) + 5
    assert "turn-to" in codes(content, document)


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_an_unreachable_section_is_found(content: Content, ruleset_id: str) -> None:
    document = edited(booklet(content, ruleset_id))
    target = document["sections"][-1]["number"]
    for section in document["sections"]:
        section["turn_to"] = [w for w in section["turn_to"] if w["section"] != target]
    assert "section-unreachable" in codes(content, document)


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_a_tape_value_out_of_range_is_found(content: Content, ruleset_id: str) -> None:
    """A 7 on a d6 tape (Tower of Choices' shuffle tape runs to 2520)."""
    document = edited(booklet(content, ruleset_id))
    tape = next(t for t in document["tapes"] if t["entries"])
    tape["entries"][0][0] = tape["high"] + 1
    assert ruleset_id == "tower-of-choices" or tape["high"] + 1 == 7
    assert "tape-value" in codes(content, document)


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_a_changed_text_is_found_by_making_the_booklet_again(content: Content,
                                                             ruleset_id: str) -> None:
    document = edited(booklet(content, ruleset_id))
    _first(document)["text"].append("And a chest of gold no one rolled for.")
    assert codes(content, document) == {"regenerated"}


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_a_document_of_another_shape_breaks_the_schema(content: Content,
                                                       ruleset_id: str) -> None:
    document = edited(booklet(content, ruleset_id))
    document["sections"][0]["number"] = "one"
    del document["tapes"]
    found = check_document(document, content.ruleset(ruleset_id),
                           family_of(content.ruleset(ruleset_id)))
    assert {f.code for f in found} == {"schema"}
    assert {f.where for f in found} >= {"sections[0].number", "document"}


def test_an_unknown_profile_is_named(content: Content) -> None:
    document = edited(booklet(content, "inverted-tower"))
    document["profile"]["id"] = "easy"
    assert codes(content, document) == {"profile"}


def test_a_booklet_of_another_generator_is_not_made_again(content: Content) -> None:
    document = edited(booklet(content, "inverted-tower"))
    document["generator"] = "0.0.1"
    assert codes(content, document) == {"generator"}


def test_a_changed_die_is_named_for_what_it_breaks(content: Content) -> None:
    """A raw die changed by hand: each ruleset's checker names the derived value that no
    longer follows from it (and making the booklet again differs too)."""
    made = booklet(content, "inverted-tower")
    room = made["floors"][0]["rooms"][0]
    found = []
    for name, die in room["dice"].items():
        for value in set(range(1, 7)) - {die}:
            tower = edited(made)
            tower["floors"][0]["rooms"][0]["dice"][name] = value
            found.append(codes(content, tower))
    assert all("regenerated" in each for each in found)
    assert any("derived-mismatch" in each for each in found)
    dungeon = edited(booklet(content, "three-dice-dungeon"))
    cell = dungeon["levels"][0]["cells"][0]["dice"]
    cell["location"] = cell["location"] % 6 + 1
    assert {"derived", "regenerated"} <= codes(content, dungeon)
    trial = edited(booklet(content, "tower-of-choices"))
    pick = trial["rooms"][0]["picks"][0]
    pick["value"] = (pick["value"] + 1) % pick["bound"]
    assert {"raw-dice", "regenerated"} <= codes(content, trial)


def test_a_derived_field_changed_by_hand_is_found(content: Content) -> None:
    tower = edited(booklet(content, "inverted-tower"))
    room = tower["floors"][0]["rooms"][0]
    room["elite"] = not room["elite"]
    assert "derived-mismatch" in codes(content, tower)
    dungeon = edited(booklet(content, "three-dice-dungeon"))
    dungeon["character"]["hp"] += 1
    assert "character-derived" in codes(content, dungeon)


def test_a_second_stairs_room_is_found(content: Content) -> None:
    tower = edited(booklet(content, "inverted-tower"))
    rooms = tower["floors"][0]["rooms"]
    other = next(r for r in rooms if not r["stairs"])
    other["stairs"] = True
    assert "stairs-count" in codes(content, tower)


def test_a_one_sided_exit_is_found(content: Content) -> None:
    """A door taken off one side only: its neighbour still has a door back."""
    dungeon = edited(booklet(content, "three-dice-dungeon"))
    level = dungeon["levels"][0]
    at = {(c["x"], c["y"]) for c in level["cells"]}
    step = {"N": (0, -1), "S": (0, 1), "E": (1, 0), "W": (-1, 0)}
    cell, side = next((c, s) for c in level["cells"] for s in c["exits"]
                      if (c["x"] + step[s][0], c["y"] + step[s][1]) in at)
    cell["exits"].remove(side)
    assert "exit-asymmetric" in codes(content, dungeon)


def test_an_obstacle_with_target_above_draw_is_found(content: Content) -> None:
    trial = edited(booklet(content, "tower-of-choices"))
    approach = trial["rooms"][0]["obstacles"][0]["approaches"][0]
    approach["target"] = approach["draw"] + 1
    assert "obstacle-limits" in codes(content, trial)
