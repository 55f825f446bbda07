"""Worked examples, played by the engine, that a rulebook draws as figures (issue 28).

A rules chapter asks for one with ``{{ figure: NAME seed=SEED }}``
(:mod:`generator.model.prose`); its family makes it (``Family.examples``) from the seed,
by the rules of the book's profile, and the rulebook draws it
(``generator/products/rulebook/figures.py``).  Nothing here is typed by hand: every room,
die and card is one the engine played, so the example follows the rules it illustrates.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from generator.model.common import Profile


@dataclass(frozen=True)
class LevelExample:
    """A level of a pre-rolled dungeon, as the booklet's JSON holds it (``levels[]``)."""

    seed: str  # as the content gives it ("12"), for the caption
    level: Mapping[str, Any]


@dataclass(frozen=True)
class LogLine:
    """One line of a filled-in log: its number and, by the log sheet's column keys, what
    the player wrote (a ticked box is ``"yes"``)."""

    number: int
    cells: Mapping[str, str]


@dataclass(frozen=True)
class LogExample:
    """The first floor of a played game as its player logged it: the character line at
    the top of the page and the floor's lines; ``end`` says how the floor ended."""

    seed: str
    character: str
    floor: int
    lines: tuple[LogLine, ...]
    end: str


@dataclass(frozen=True)
class CheckExample:
    """One played check: the obstacle, the approach and its numbers, the reasons each
    number differs from the standard, the cards in the order drawn, and the result."""

    seed: str
    obstacle: str
    pile: int  # cards in the draw pile before the draw
    skill: str
    draw: int
    target: int
    reasons: tuple[str, ...]  # "+1 DRAW: Weapon: staff or axe"
    drawn: tuple[str, ...]
    challenge: str  # the name a challenge card bears
    needed: int  # the matches needed, challenge cards counted
    success: bool
    #: How many cards the player chose to draw (TC-04), when fewer than DRAW.
    committed: int

    @property
    def matches(self) -> int:
        return sum(1 for card in self.drawn if card == self.skill)


Example = LevelExample | LogExample | CheckExample
#: Makes one example from the family's data, the book's profile and a seed as written.
ExampleMaker = Callable[[Any, Profile, str], Example]
