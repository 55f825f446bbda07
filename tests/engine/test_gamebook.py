"""Numbered sections and the ways on between them: what every family's booklet shares."""

from __future__ import annotations

from dataclasses import replace

import pytest

from generator.engine.gamebook import (
    Draft,
    Section,
    Way,
    check_sections,
    numbered,
    numbering,
)

# A small gamebook: a hall with two doors, one to a treasure room that leads back, one to
# the stairs down (the victory); a trap room kills.
DRAFTS = (
    Draft("hall", "room", "The hall", ("Two doors.",), {"room": 3},
          (("Left", "treasure"), ("Right", "stairs"), ("Down the hole", "trap"))),
    Draft("treasure", "room", "The treasure room", ("Gold.",), ways=(("Back", "hall"),)),
    Draft("stairs", "victory", "The stairs", ("You win.",), ending="victory"),
    Draft("trap", "death", "The pit", ("You fall.",), ending="death"),
)


def _book(seed: str, drafts: tuple[Draft, ...] = DRAFTS, start: str = "hall"
          ) -> tuple[Section, ...]:
    return numbered(drafts, numbering(drafts, start, seed, "test"))


def _codes(sections: tuple[Section, ...] | list[Section]) -> set[str]:
    return {f.code for f in check_sections(sections)}


def test_the_start_is_one_and_the_others_are_shuffled_by_the_seed() -> None:
    sections = _book("int:1")
    assert [s.number for s in sections] == [1, 2, 3, 4]
    assert sections[0].where == "The hall"
    orders = {tuple(s.where for s in _book(f"int:{seed}"))
              for seed in range(40)}
    assert len(orders) == 6  # every order of the three others comes up
    assert _book("int:7") == _book("int:7")


def test_ways_on_lead_to_the_numbers_their_keys_were_given() -> None:
    sections = _book("int:3")
    by_where = {s.where: s for s in sections}
    left, right, hole = by_where["The hall"].ways
    assert (left.text, by_where["The treasure room"].number) == ("Left", left.turn_to)
    assert by_where["The stairs"].number == right.turn_to
    assert by_where["The pit"].number == hole.turn_to
    assert check_sections(sections) == []


def test_a_builders_mistake_is_an_error_not_a_booklet() -> None:
    with pytest.raises(ValueError, match="not a section"):
        _book("int:1", (*DRAFTS, Draft("x", "room", "X", (), ways=(("On", "nowhere"),))))
    with pytest.raises(ValueError, match="share a key"):
        _book("int:1", (*DRAFTS, DRAFTS[0]))
    with pytest.raises(ValueError, match="start"):
        _book("int:1", start="cellar")


def test_every_way_the_reader_could_be_lost_is_found() -> None:
    good = _book("int:3")
    hall, *rest = good
    dangling = replace(hall, ways=(*hall.ways, Way("Up", 99)))
    assert _codes([dangling, *rest]) == {"turn-to"}
    # Cut the way to the pit: it can no longer be reached.
    pit = next(s for s in good if s.where == "The pit")
    cut = replace(hall, ways=tuple(w for w in hall.ways if w.turn_to != pit.number))
    assert _codes([cut, *rest]) == {"section-unreachable"}
    # A room with no way on that is not an ending.
    treasure = next(s for s in good if s.where == "The treasure room")
    stuck = [replace(s, ways=()) if s is treasure else s for s in good]
    assert _codes(stuck) == {"no-way-on"}
    # No ending left to reach, and numbers out of order.
    only_rooms = [hall, treasure]
    assert "no-ending" in _codes([replace(hall, ways=(hall.ways[0],)), treasure])
    assert _codes(list(reversed(only_rooms))) >= {"section-numbering"}


def test_a_section_reads_as_json_with_its_ways_on() -> None:
    section = _book("int:3")[0]
    data = section.to_json()
    assert data["number"] == 1 and data["dice"] == {"room": 3}
    assert [w["text"] for w in data["turn_to"]] == ["Left", "Right", "Down the hole"]
    assert data["ending"] is None
