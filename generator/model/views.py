"""Neutral, printable views of the data: what a rulebook table or a card shows.

Views are built by each ruleset's model from the same objects the engine reads, so a
printed table can never disagree with what the engine rolls (design.md section 2).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TableView:
    """A titled table of text cells.

    ``roll_column`` marks the first column as die faces (``"1-3"``, ``"5"``), which the
    renderer draws as dice.  ``die`` names the die rolled on it (``"d6"``, ``"SR"``).
    """

    name: str
    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    note: str = ""
    roll_column: bool = False
    die: str = ""

    def __post_init__(self) -> None:
        for row in self.rows:
            if len(row) != len(self.columns):
                raise ValueError(
                    f"table {self.name!r}: row {row!r} does not match {self.columns!r}"
                )


def faces(low: int, high: int) -> str:
    """Faces as printed: ``5`` or ``1-3``."""
    return str(low) if low == high else f"{low}-{high}"


def signed(value: int) -> str:
    """A modifier as printed: ``+1``, ``-1`` (with a true minus sign), ``0``."""
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"\u2212{-value}"
    return "0"
