"""What a logged game of Tower of Choices writes down (``towerpress play``, issue 24).

Tower of Choices rolls no dice: its randomness is the shuffles of the deck and
INDEFATIGABLE's picks, each a run of ``below(n)`` values.  A logged game draws them through
a :class:`Tape`, which hands each step the values drawn since the step before, so that a
step's ``dice`` are exactly what decided it; a game that is not logged has no tape and no
:class:`Logbook`, and costs nothing more (:func:`.simulate.simulate`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from generator.engine.playlog import Step
from generator.engine.rng import Rng


class Tape:
    """An :class:`~generator.engine.rng.Rng` that keeps every value it gives."""

    def __init__(self, rng: Rng):
        self.rng = rng
        self.values: list[int] = []

    def below(self, n: int) -> int:
        value = self.rng.below(n)
        self.values.append(value)
        return value

    def take(self) -> tuple[int, ...]:
        """The values given since the last call."""
        taken = tuple(self.values)
        self.values.clear()
        return taken


@dataclass
class Logbook:
    """The steps of a logged game, the tape its dice come from, and whether its state
    shows wounds (only a wounds track has them, TC-18 Alt)."""

    tape: Tape
    wounds: bool
    steps: list[Step] = field(default_factory=list)


def cards_text(cards: Sequence[str]) -> str:
    """Cards as a reader lists them; ``cards`` in the order meant (top first, drawn...)."""
    return ", ".join(cards) if cards else "no card"


def percent(chance: Fraction) -> str:
    """An exact chance as a whole percent, for reading only (the engine compares Fractions)."""
    return f"{round(chance * 100)}%"


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th... for a card's place in the pile."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
