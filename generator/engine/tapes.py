"""Tapes: the pre-rolled numbers a booklet is played with instead of dice (design.md 6).

A tape is a list of entries read in order, each one number or a few named ones (a
wandering check's DC die with the encounter it would bring), every number within the
tape's range.  Each tape comes from a stream of its own (:func:`roll_tape`): a fight that
takes more dice never changes a room.  A family bounds how many entries the worst case
could take (rulings.md 1.5 #11, 2.5 #11, 3.5 #7); a tape shorter than its bound carries
the fallback rule that the booklet prints.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from generator.engine.rng import SplitMix64, stream_seed
from generator.findings import Finding


@dataclass(frozen=True)
class Tape:
    """A named tape of ``place`` ("floor 3"): ``entries`` of ``len(parts)`` numbers each,
    every one in ``low..high``; ``bound`` entries suffice for the worst case, and
    ``fallback`` says what to do past the end (empty when the tape is long enough)."""

    name: str
    place: str
    parts: tuple[str, ...]
    entries: tuple[tuple[int, ...], ...]
    low: int
    high: int
    bound: int
    fallback: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "place": self.place, "parts": list(self.parts),
                "entries": [list(e) for e in self.entries], "low": self.low,
                "high": self.high, "bound": self.bound, "fallback": self.fallback or None}


def roll_tape(seed: str, ruleset: str, place: Sequence[object], purpose: str,
              parts: Sequence[str], length: int, faces: int = 6) -> tuple[tuple[int, ...], ...]:
    """``length`` entries of d``faces`` rolls, one per part, from the stream of
    (seed, ruleset, place, purpose)."""
    rng = SplitMix64(stream_seed(seed, ruleset, *place, purpose=purpose))
    return tuple(tuple(rng.die(faces) for _ in parts) for _ in range(length))


def check_tapes(tapes: Sequence[Tape]) -> list[Finding]:
    """Every number within its tape's range, every entry whole, and every tape as long as
    its bound or carrying its fallback."""
    found: list[Finding] = []
    for tape in tapes:
        where = f"{tape.place}/tape {tape.name}"
        for i, entry in enumerate(tape.entries, 1):
            if len(entry) != len(tape.parts):
                found.append(Finding("tape-entry", f"{where}/entry {i}",
                                     f"expected {len(tape.parts)} numbers, got {len(entry)}"))
            found += [Finding("tape-value", f"{where}/entry {i}",
                              f"{value} is outside {tape.low}..{tape.high}")
                      for value in entry if not tape.low <= value <= tape.high]
        if len(tape.entries) < tape.bound and not tape.fallback:
            found.append(Finding("tape-short", where,
                                 f"{len(tape.entries)} entries, the worst case needs "
                                 f"{tape.bound}, and no fallback rule"))
    return found
