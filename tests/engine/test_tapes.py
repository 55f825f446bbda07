"""Tapes: pre-rolled numbers from streams of their own, checked for range and length."""

from __future__ import annotations

from dataclasses import replace

from generator.engine.tapes import Tape, check_tapes, roll_tape


def _tape(length: int = 30, bound: int = 20) -> Tape:
    entries = roll_tape("int:5", "test", (2,), "combat", ("die",), length)
    return Tape("combat", "floor 2", ("die",), entries, 1, 6, bound)


def test_a_tape_is_its_streams_dice_and_another_place_has_others() -> None:
    entries = roll_tape("int:5", "test", (2,), "wandering", ("dc", "elite"), 50)
    assert all(len(e) == 2 and all(1 <= v <= 6 for v in e) for e in entries)
    assert {v for e in entries for v in e} == set(range(1, 7))
    assert entries == roll_tape("int:5", "test", (2,), "wandering", ("dc", "elite"), 50)
    assert entries != roll_tape("int:5", "test", (3,), "wandering", ("dc", "elite"), 50)
    # A longer tape starts with the shorter one: its length never changes its dice.
    assert roll_tape("int:5", "test", (2,), "wandering", ("dc", "elite"), 80)[:50] == entries


def test_a_sound_tape_passes() -> None:
    assert check_tapes([_tape()]) == []


def test_a_value_out_of_range_a_broken_entry_and_a_short_tape_are_found() -> None:
    tape = _tape()
    seven = replace(tape, entries=((7,), *tape.entries[1:]))
    assert [(f.code, f.where) for f in check_tapes([seven])] == [
        ("tape-value", "floor 2/tape combat/entry 1")]
    broken = replace(tape, entries=((1, 2), *tape.entries[1:]))
    assert [f.code for f in check_tapes([broken])] == ["tape-entry"]
    short = _tape(length=10, bound=20)
    assert [f.code for f in check_tapes([short])] == ["tape-short"]
    assert check_tapes([replace(short, fallback="Read the tape again from its start.")]) == []
