"""Dice tables: rows keyed by die faces, checked to cover every face exactly once."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from generator.model.schema import Node, check_coverage

T = TypeVar("T")


@dataclass(frozen=True)
class DiceRow(Generic[T]):
    low: int
    high: int
    value: T

    def covers(self, face: int) -> bool:
        return self.low <= face <= self.high


@dataclass(frozen=True)
class DiceTable(Generic[T]):
    """A table read by rolling one die with ``faces`` faces."""

    faces: int
    rows: tuple[DiceRow[T], ...]

    def lookup(self, face: int) -> T:
        """The entry for ``face``.

        Raises:
            ValueError: ``face`` is not a face of the die.
        """
        for row in self.rows:
            if row.covers(face):
                return row.value
        raise ValueError(f"face {face} is not on this d{self.faces} table")

    def entries(self) -> tuple[T, ...]:
        """Each row's entry once, in table order (safe on a table that failed validation)."""
        return tuple(row.value for row in self.rows)

    def lookup_table(self) -> tuple[T, ...]:
        """Entries indexed by ``face - 1``, for fast paths in the engine."""
        return tuple(self.lookup(face) for face in range(1, self.faces + 1))


def load_dice_table(
    node: Node,
    key: str,
    faces: int,
    read: Callable[[Node], T],
    *,
    roll_key: str = "roll",
) -> DiceTable[T]:
    """Read ``[[key]]`` rows, each with a ``roll`` face or range and the rest read by ``read``.

    ``read`` must read every other key of the row; the row's unknown keys are reported.
    """
    rows: list[DiceRow[T]] = []
    for row in node.tables(key, min_items=1):
        low, high = row.roll(roll_key, faces)
        value = read(row)
        row.done()
        rows.append(DiceRow(low, high, value))
    check_coverage(node, key, [(r.low, r.high) for r in rows if r.low <= r.high], faces)
    return DiceTable(faces, tuple(rows))
