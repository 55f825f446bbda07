"""Neutral, printable views of the data: what a rulebook table or a card shows.

Views are built by each ruleset's model from the same objects the engine reads, so a
printed table can never disagree with what the engine rolls (design.md section 2).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from generator.model.common import Profile


def chosen_reading(printed_for: Profile | None, ruling: str) -> bool | None:
    """Whether a view prints the Alt reading of ``ruling`` (True), the Faithful one
    (False), or both (None: a rulebook, printed for no one profile; a card deck is
    printed for the profile a player lays it on the table to play by)."""
    return None if printed_for is None else printed_for.alt(ruling)


def reading(printed_for: Profile | None, ruling: str, faithful: str, alt: str) -> str:
    """Text that a ruling decides: ``faithful`` in a rulebook (whose chapter or table note
    gives the other reading), or the chosen profile's reading marked with the ruling."""
    chosen = chosen_reading(printed_for, ruling) if ruling else None
    if chosen is None:
        return faithful
    text = alt if chosen else faithful
    # The mark belongs to the sentence it qualifies, like a footnote's number: "...Mind (DD-18).",
    # and never starts a line of its own (a no-break space).
    if text.endswith("."):
        return f"{text[:-1]}\u00a0({ruling})."
    return f"{text}\u00a0({ruling})"


def both_readings(printed_for: Profile | None) -> bool:
    """Whether a table note should give the Alt reading beside the value printed: in a
    rulebook, not on a card printed for one profile."""
    return printed_for is None


@dataclass(frozen=True)
class TableView:
    """A titled table of text cells.

    ``roll_column`` marks the first column as die faces (:func:`faces`), which the
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


# A range of numbers is printed with an en dash, and a word joiner after it: a line may
# break after an en dash, and a range cut after it ("5–" over "6") is easily misread.
RANGE_DASH = "\u2013\u2060"
_RANGE = re.compile(r"^(\d+)-(\d+)$")


def faces(low: int, high: int) -> str:
    """Faces as printed: ``5`` or ``1–3`` (see :data:`RANGE_DASH`)."""
    return str(low) if low == high else f"{low}{RANGE_DASH}{high}"


def printed_range(text: str) -> str:
    """``text`` as printed: a range as the content writes it (``"1-3"``) gets the printed
    dash of :func:`faces`; any other text is left as it is."""
    return _RANGE.sub(rf"\1{RANGE_DASH}\2", text)


def signed(value: int) -> str:
    """A modifier as printed: ``+1``, ``-1`` (with a true minus sign), ``0``."""
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"\u2212{-value}"
    return "0"
