"""A booklet as a gamebook: numbered sections and the ways on between them (design.md 6).

A family writes its dungeon as :class:`Draft` sections, each named by a key of its own
(``("room", 3, 7)``) and leading on by keys.  :func:`numbering` gives them their printed
numbers, shuffled from the seed's own stream with the start as 1, as printed gamebooks
do, and :func:`numbered` turns the keys of the ways on into numbers.
:func:`check_sections` proves what a reader needs of the result: every way on leads
somewhere, every section can be reached from the start, only an ending has no way on,
and an ending can be reached.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from generator.engine.rng import SplitMix64, stream_seed
from generator.engine.tapes import Tape
from generator.findings import Finding

Key = Hashable  # a family's own name for a section, before it has a number
Dice = Mapping[str, Any]  # the raw dice of a section, by name: a die or a list of dice


@dataclass(frozen=True)
class Way:
    """A way on from a section, as the reader chooses it: ``text`` ("Take the stairs
    down"), leading to section ``turn_to``."""

    text: str
    turn_to: int

    def to_json(self) -> dict[str, Any]:
        return {"text": self.text, "section": self.turn_to}


@dataclass(frozen=True)
class Section:
    """A numbered section: ``where`` the reader is, what is there (``text``, with the raw
    ``dice`` that decided it), and the ``ways`` on.  ``ending`` is "victory" or "death"
    for a section that ends the game, and empty otherwise."""

    number: int
    kind: str
    where: str
    text: tuple[str, ...]
    dice: Dice = field(default_factory=dict)
    ways: tuple[Way, ...] = ()
    ending: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"number": self.number, "kind": self.kind, "where": self.where,
                "text": list(self.text), "dice": dict(self.dice),
                "turn_to": [way.to_json() for way in self.ways],
                "ending": self.ending or None}


@dataclass(frozen=True)
class Draft:
    """A section before it has a number; its ways on name sections by their keys."""

    key: Key
    kind: str
    where: str
    text: tuple[str, ...]
    dice: Dice = field(default_factory=dict)
    ways: tuple[tuple[str, Key], ...] = ()
    ending: str = ""


ENDINGS = ("victory", "death")


def numbering(drafts: Sequence[Draft], start: Key, seed: str, ruleset: str,
              renumbered: Sequence[int] = ()) -> dict[Key, int]:
    """The printed number of each draft's key: ``start`` is 1, the others 2..n shuffled
    from the seed's section stream (Fisher-Yates).  The family writes them in its dungeon
    (a room's ``section``) and hands them to :func:`numbered`.

    ``renumbered`` is the printed booklet's layout (design.md 6: the spread rule is met by
    reordering): the section the seed numbers ``k`` is printed as ``renumbered[k - 1]``.
    Empty, the seed's own numbers stand.

    Raises:
        ValueError: two drafts share a key, ``start`` is none of them (a bug of the
            family's builder, not of the reader's input), or ``renumbered`` is not a
            renumbering of these sections (:func:`renumbering_problem`).
    """
    keys = [draft.key for draft in drafts]
    if len(set(keys)) != len(keys):
        raise ValueError("two sections share a key")
    if start not in keys:
        raise ValueError(f"the start {start!r} is not a section")
    problem = renumbering_problem(renumbered, len(drafts)) if renumbered else ""
    if problem:
        raise ValueError(problem)
    rest = list(range(2, len(drafts) + 1))
    SplitMix64(stream_seed(seed, ruleset, purpose="sections")).shuffle(rest)
    others = iter(rest)
    seeded = {key: 1 if key == start else next(others) for key in keys}
    if not renumbered:
        return seeded
    return {key: renumbered[number - 1] for key, number in seeded.items()}


def renumbering_problem(renumbered: Sequence[int], count: int) -> str:
    """Why ``renumbered`` is not a renumbering of ``count`` sections that keeps the start
    as 1, or "" when it is one."""
    if len(renumbered) != count:
        return f"renumbers {len(renumbered)} sections; the booklet has {count}"
    if sorted(renumbered) != list(range(1, count + 1)):
        return f"is not a reordering of the numbers 1 to {count}"
    if renumbered[0] != 1:
        return "moves section 1, the start"
    return ""


def numbered(drafts: Sequence[Draft], numbers: Mapping[Key, int]) -> tuple[Section, ...]:
    """The sections of ``drafts`` under ``numbers`` (:func:`numbering`), in printed order,
    their ways on leading to numbers.

    Raises:
        ValueError: a way on names a key no draft has (a builder's bug).
    """
    sections = [
        Section(numbers[d.key], d.kind, d.where, d.text, d.dice,
                tuple(Way(text, _number(numbers, key)) for text, key in d.ways), d.ending)
        for d in drafts
    ]
    return tuple(sorted(sections, key=lambda s: s.number))


def _number(numbers: Mapping[Key, int], key: Key) -> int:
    if key not in numbers:
        raise ValueError(f"a way on leads to {key!r}, which is not a section")
    return numbers[key]


def check_sections(sections: Sequence[Section]) -> list[Finding]:
    """What a reader following the ways on needs: sections numbered 1..n in order, every
    ``turn_to`` a section, every section reachable from section 1, a way on from every
    section but an ending, and an ending that can be reached."""
    found = _numbering(sections)
    by_number = {s.number: s for s in sections}
    for s in sections:
        found += [Finding("turn-to", f"section {s.number}",
                          f"turns to {way.turn_to}, which is not a section")
                  for way in s.ways if way.turn_to not in by_number]
        if not s.ways and s.ending not in ENDINGS:
            found.append(Finding("no-way-on", f"section {s.number}",
                                 "has no way on and is not an ending"))
    reached = _reachable(by_number)
    found += [Finding("section-unreachable", f"section {n}",
                      "no way on from section 1 leads here")
              for n in sorted(by_number) if n not in reached]
    if not any(by_number[n].ending in ENDINGS for n in reached):
        found.append(Finding("no-ending", "section 1", "no ending can be reached from here"))
    return found


def _numbering(sections: Sequence[Section]) -> list[Finding]:
    numbers = [s.number for s in sections]
    if numbers == list(range(1, len(sections) + 1)):
        return []
    return [Finding("section-numbering", "sections",
                    f"expected sections numbered 1 to {len(sections)} in order")]


def _reachable(by_number: Mapping[int, Section]) -> set[int]:
    seen: set[int] = set()
    todo = [1] if 1 in by_number else []
    while todo:
        number = todo.pop()
        if number in seen:
            continue
        seen.add(number)
        todo += [w.turn_to for w in by_number[number].ways if w.turn_to in by_number]
    return seen


@dataclass(frozen=True)
class Gamebook:
    """What a family makes of one pre-rolled dungeon: its sections, its tapes, and the
    dungeon itself as the JSON holds it (``{"floors": [...]}``, ``{"levels": [...]}``...,
    with the character where the booklet pre-rolls one)."""

    sections: tuple[Section, ...]
    tapes: tuple[Tape, ...]
    dungeon: Mapping[str, Any]
