"""One game, step by step (``towerpress play``): what a reader needs to follow it die by die.

A family's game writes a :class:`Step` for each die it rolls and each decision its
reference player takes, into a list it is handed; :func:`simulate` hands it none, so the
games it plays cost nothing more.  The same seed plays the same game either way.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from generator.engine.report import RunOutcome

StateValue = int | str


@dataclass(frozen=True, slots=True)
class Step:
    """One line of a game.

    ``what`` is the kind of step ("room", "attack", "damage", "decision"...), ``text`` the
    line as a reader follows it, ``dice`` the raw dice that decided it in the order rolled,
    ``ruling`` the ruling ID that decided it (empty when none did), and ``state`` what the
    character has after it (HP, items...), by name.
    """

    what: str
    text: str
    dice: tuple[int, ...] = ()
    ruling: str = ""
    state: tuple[tuple[str, StateValue], ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        return {"what": self.what, "text": self.text, "dice": list(self.dice),
                "ruling": self.ruling or None, "state": dict(self.state)}


def state_of(values: Mapping[str, StateValue]) -> tuple[tuple[str, StateValue], ...]:
    """A step's ``state`` from a mapping, in the mapping's order."""
    return tuple(values.items())


#: Where a game writes its steps; None when no one reads them (simulate).
Log = list[Step] | None


@dataclass(frozen=True)
class PlayedGame:
    """A whole game: its steps, and the outcome ``simulate --runs 1`` reports for it."""

    outcome: RunOutcome
    steps: tuple[Step, ...]

    def to_json(self) -> dict[str, Any]:
        o = self.outcome
        return {"outcome": {"depth": o.depth, "won": o.won, "death": o.death,
                            "rooms": o.rooms},
                "steps": [step.to_json() for step in self.steps]}
