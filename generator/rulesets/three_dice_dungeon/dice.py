"""Random sources for 3 Dice Dungeon: the stable streams and a fast local generator.

Booklets draw from :func:`generator.engine.rng.stream` (SplitMix64, published vectors).
The simulator may use :class:`FastRng`, a local ``random.Random`` seeded from a stable
stream (design.md section 4), so one seed always gives the same simulation on one Python.
:class:`Tape` replays a scripted list of dice, for tests and brute-force enumeration;
:class:`Recorder` keeps the dice a source gives, for a played game's log.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from generator.engine.rng import DiceRng, SplitMix64, stream
from generator.rulesets.three_dice_dungeon.rules import RULESET


class FastRng:
    """A fast die roller seeded from a stable stream; a local object, never the global one."""

    __slots__ = ("_random",)

    def __init__(self, seed: int):
        self._random = random.Random(seed)

    def die(self, faces: int = 6) -> int:
        return int(self._random.random() * faces) + 1

    def below(self, n: int) -> int:
        return int(self._random.random() * n)

    def shuffle(self, items: list[int]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


class TapeExhausted(Exception):
    """A :class:`Tape` was asked for more dice than it holds (used by enumeration)."""


class Tape:
    """Scripted dice: ``die()`` returns the next value, ``below(n)`` the next value - 1.

    With ``fill`` set, an exhausted tape goes on returning ``fill`` (capped at the faces).

    Raises:
        TapeExhausted: when the script runs out and there is no ``fill``.
        ValueError: a scripted value is not a face of the die asked for.
    """

    __slots__ = ("_values", "fill", "used")

    def __init__(self, values: Iterable[int], fill: int | None = None):
        self._values = list(values)
        self.fill = fill
        self.used = 0

    def die(self, faces: int = 6) -> int:
        if self.used >= len(self._values):
            if self.fill is None:
                raise TapeExhausted(self.used)
            self.used += 1
            return min(self.fill, faces)
        value = self._values[self.used]
        self.used += 1
        if not 1 <= value <= faces:
            raise ValueError(f"scripted die {value} is not a face of a d{faces}")
        return value

    def below(self, n: int) -> int:
        return self.die(n) - 1

    def shuffle(self, items: list[int]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


def stable(seed: str, *place: object, purpose: str) -> SplitMix64:
    """The stable stream of this ruleset for (seed, place, purpose)."""
    return stream(seed, RULESET, *place, purpose=purpose)


def fast(seed: str, *place: object, purpose: str) -> FastRng:
    """A fast generator seeded from the stable stream of (seed, place, purpose)."""
    return FastRng(stable(seed, *place, purpose=purpose).next())


class Recorder:
    """A random source that keeps the values it gives, for a played game's log.

    Every value is its source's: ``die`` as rolled, ``below(n)`` as the face of a die of
    ``n`` faces (value + 1); ``shuffle`` is the Fisher-Yates of :class:`FastRng` on
    ``below``, as every source's is, so the game is the one the bare source plays.
    """

    __slots__ = ("_given", "_rng")

    def __init__(self, rng: DiceRng):
        self._rng = rng
        self._given: list[int] = []

    def die(self, faces: int = 6) -> int:
        value = self._rng.die(faces)
        self._given.append(value)
        return value

    def below(self, n: int) -> int:
        value = self._rng.below(n)
        self._given.append(value + 1)
        return value

    def shuffle(self, items: list[int]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def take(self) -> tuple[int, ...]:
        """The values given since the last ``take``."""
        given = tuple(self._given)
        self._given.clear()
        return given
