"""Neutral, printable views of the data: what a rulebook table or a card shows.

Views are built by each ruleset's model from the same objects the engine reads, so a
printed table can never disagree with what the engine rolls (design.md section 2).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

# The readings a table printed now is for: None for a rulebook, whose chapters give the
# as-written value with the other reading beside it; a profile's choice for a card deck,
# which a player lays on the table to play by one profile (set by printed_for).
_PRINTED_FOR: ContextVar[Callable[[str], bool] | None] = ContextVar("printed_for", default=None)


@contextmanager
def printed_for(alt: Callable[[str], bool] | None) -> Iterator[None]:
    """Within the block, views print only the reading that ``alt`` (a profile's
    :meth:`~generator.model.common.Profile.alt`) takes for each ruling."""
    token = _PRINTED_FOR.set(alt)
    try:
        yield
    finally:
        _PRINTED_FOR.reset(token)


def chosen_reading(ruling: str) -> bool | None:
    """Whether the views print the Alt reading of ``ruling`` (True), the Faithful one
    (False), or both (None: no profile was chosen, see :func:`printed_for`)."""
    alt = _PRINTED_FOR.get()
    return None if alt is None else alt(ruling)


def reading(ruling: str, faithful: str, alt: str) -> str:
    """Text that a ruling decides: ``faithful`` in a rulebook (whose chapter or table note
    gives the other reading), or the chosen profile's reading marked with the ruling."""
    chosen = chosen_reading(ruling) if ruling else None
    if chosen is None:
        return faithful
    text = alt if chosen else faithful
    # The mark belongs to the sentence it qualifies, like a footnote's number: "...Mind (DD-18).",
    # and never starts a line of its own (a no-break space).
    if text.endswith("."):
        return f"{text[:-1]}\u00a0({ruling})."
    return f"{text}\u00a0({ruling})"


def both_readings(ruling: str) -> bool:
    """Whether a table note should give the Alt reading of ``ruling`` beside the value
    printed: in a rulebook, not on a card printed for one profile."""
    return chosen_reading(ruling) is None


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
