"""Pre-rolled floors: the invariants of rulings.md 1.5 over many seeds, and the checker."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.rulesets.inverted_tower.booklet import (
    FloorContent,
    floor_rolls,
    generate_floor,
    generate_floors,
)
from generator.rulesets.inverted_tower.check import INVARIANT, check_floor
from generator.rulesets.inverted_tower.entities import EventKind
from generator.rulesets.inverted_tower.rules import Gain
from generator.rulesets.inverted_tower.state import RoomKind
from tests.inverted_tower.support import PROFILES, rules

OTHER = (("IT-02",), ("IT-03",), ("IT-18",), ("IT-32",), ("IT-02", "IT-03", "IT-05"))
seeds = st.one_of(st.integers(-(10**12), 10**12), st.text(min_size=1, max_size=12).filter(
    lambda s: s.strip() != ""))


@settings(max_examples=40, deadline=None)
@given(seed=seeds, base=st.sampled_from(PROFILES), floor=st.integers(1, 12))
def test_generated_floors_keep_every_invariant(seed: int | str, base: str, floor: int) -> None:
    r = rules(base)
    content = generate_floor(r, seed, floor)
    assert check_floor(r, content) == []
    rooms = content.rooms
    # 2, 3: rooms 1..n, at most the limit, exactly one stairs room
    assert [room.index for room in rooms] == list(range(1, len(rooms) + 1))
    assert len(rooms) <= r.max_rooms
    assert sum(room.stairs for room in rooms) == 1
    # 4: each once-per-floor kind at most once
    for kind in (RoomKind.MERCHANT, RoomKind.BONFIRE, RoomKind.STAIRS):
        assert sum(room.kind is kind for room in rooms) <= 1
    # 5, 7: monsters only where they belong; lairs hold the boss and 2 or 4 minions
    for room in rooms:
        if room.kind is RoomKind.ENCOUNTER:
            assert 1 <= room.monsters <= 3 and room.foes.count("elite") <= 1
        elif room.kind is RoomKind.LAIR:
            assert room.monsters - 1 in (2, 4) and room.loot == Gain(1, 1, 1)
        else:
            assert room.monsters == 0
    # 1, 10: raw dice in range, and the same seed gives the same floor
    assert all(1 <= d <= 6 for room in rooms for d in room.roll.dice())
    assert generate_floor(r, seed, floor) == content


@settings(max_examples=25, deadline=None)
@given(seed=seeds, alts=st.sampled_from(OTHER))
def test_other_readings_keep_the_invariants(seed: int | str, alts: tuple[str, ...]) -> None:
    r = rules(alts=alts)
    for content in generate_floors(r, seed, 2):
        assert check_floor(r, content) == []


@settings(max_examples=20, deadline=None)
@given(seed=seeds, floor=st.integers(1, 6))
def test_floors_are_independent_of_tapes_profiles_and_neighbours(seed: int | str,
                                                                  floor: int) -> None:
    faithful, alt = rules(), rules("draft-4.5")
    alone = generate_floor(faithful, seed, floor)
    # 12: the rooms do not depend on how long the tapes are, nor on other floors
    short = generate_floor(faithful, seed, floor, combat_dice=5, wander_entries=1)
    assert short.rooms == alone.rooms and short.combat_tape == alone.combat_tape[:5]
    assert generate_floors(faithful, seed, floor)[-1] == alone
    # a profile changes what the dice mean, never the dice (IT-02 Faithful in both)
    assert floor_rolls(faithful, seed, floor) == floor_rolls(alt, seed, floor)


def test_integer_and_text_seeds_match() -> None:
    r = rules()
    assert generate_floor(r, 42, 1) == generate_floor(r, "42", 1)
    assert generate_floor(r, "42", 1) != generate_floor(r, "forty-two", 1)


def test_every_code_maps_to_an_invariant() -> None:
    assert set(INVARIANT.values()) <= set(range(1, 17))


# -- the checker finds tampering ----------------------------------------------------------


def _floor() -> FloorContent:
    """A floor with a trap, a stairs room and rooms after it (seed found by search)."""
    r = rules()
    for seed in range(500):
        content = generate_floor(r, seed, 1)
        kinds = [room.kind for room in content.rooms]
        if (RoomKind.TRAP in kinds and RoomKind.STAIRS in kinds
                and kinds.index(RoomKind.STAIRS) < len(kinds) - 2):
            return content
    raise AssertionError("no suitable seed")


def _codes(content: FloorContent) -> set[str]:
    return {v.code for v in check_floor(rules(), content)}


def _with_room(content: FloorContent, i: int, **changes: object) -> FloorContent:
    rooms = list(content.rooms)
    rooms[i] = replace(rooms[i], **changes)  # type: ignore[arg-type]
    return replace(content, rooms=tuple(rooms))


def test_the_checker_accepts_the_generated_floor() -> None:
    assert check_floor(rules(), _floor()) == []


def test_bad_dice_and_derived_fields() -> None:
    content = _floor()
    bad_die = _with_room(content, 0, roll=replace(content.rooms[0].roll, count=7))
    assert "die-range" in _codes(bad_die)
    assert "die-range" in _codes(replace(content, combat_tape=(0, *content.combat_tape)))
    # Issue 24: a die 0 (or -1, which Python would read from the end of a table) is
    # reported, never resolved: the checker used to stop on an AssertionError.
    for field in ("event_check", "event_roll", "elite", "trap_kind"):
        for die in (0, -1):
            changes: dict[str, Any] = {field: die}
            rooms = [replace(room, roll=replace(room.roll, **changes)) for room in content.rooms]
            found = check_floor(rules(), replace(content, rooms=tuple(rooms)))
            assert "die-range" in {f.code for f in found}, (field, die)
    relabelled = _with_room(content, 0, foes=("normal",) * 5)
    assert {"derived-mismatch", "encounter-size"} <= _codes(relabelled)


def test_structure_violations() -> None:
    content = _floor()
    rooms = content.rooms
    assert "room-numbering" in _codes(_with_room(content, 0, index=9))
    long = replace(content, rooms=rooms + tuple(
        replace(rooms[0], index=len(rooms) + 1 + i) for i in range(rules().max_rooms)))
    assert {"too-many-rooms", "after-last"} <= _codes(long)
    stairs = next(i for i, room in enumerate(rooms) if room.stairs)
    assert "stairs-count" in _codes(_with_room(content, stairs, stairs=False))
    trap = next(i for i, room in enumerate(rooms) if room.kind is RoomKind.TRAP)
    repeat = _with_room(content, trap, kind=RoomKind.STAIRS, stairs=True, treasure=None,
                        event=EventKind.STAIRS)
    assert {"event-repeat", "stairs-count"} <= _codes(repeat)
    assert "event-monsters" in _codes(_with_room(content, trap, foes=("normal",)))
    assert "trap-kind" in _codes(_with_room(content, trap, trap_attribute=5))
    assert "treasure" in _codes(_with_room(content, trap, treasure=None))


def test_dead_end_lair_and_tape_violations() -> None:
    content = _floor()
    assert "dead-end" in _codes(_with_room(content, 0, dead_end=False))
    last = len(content.rooms) - 1
    lair = content.rooms[last]
    if lair.kind is RoomKind.LAIR:
        assert "boss-lair" in _codes(_with_room(content, last, foes=lair.foes[1:]))
        assert "boss-lair" in _codes(_with_room(content, last, loot=Gain()))
    assert "boss-lair" in _codes(_with_room(content, 0, loot=Gain(gold=1)))
    short = replace(content, combat_tape=content.combat_tape[:1], wraps=False)
    assert "tape-short" in _codes(short)
    assert "tape-short" not in _codes(replace(short, wraps=True))


def test_forced_stairs_violation() -> None:
    r = rules()
    for seed in range(2000):
        content = generate_floor(r, seed, 1)
        if len(content.rooms) == r.max_rooms and content.rooms[-1].kind is RoomKind.LAIR \
                and content.stairs_room == r.max_rooms:
            broken = _with_room(content, r.max_rooms - 1, kind=RoomKind.ENCOUNTER, stairs=False)
            assert {"forced-stairs", "stairs-count"} <= _codes(broken)
            return
    pytest.fail("no floor with a forced stairs room in 2000 seeds")
