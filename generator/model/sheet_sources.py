"""What a sheet file may name from each ruleset's data: lists, numbers, ladders and tracks.

A sheet file (``sheets/*.toml``) writes ``source = "attributes"``; the family's
``sheet_sources`` hook turns that name into entries built from the typed data, so no name
or number of the rules is ever typed twice.  An unknown source is a finding that lists
the known ones.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from generator.model.schema import Node, check_ref


@dataclass(frozen=True)
class Entry:
    """One thing of the data a sheet names: a slug for field names, what is printed."""

    slug: str
    label: str
    note: str = ""
    cells: tuple[str, ...] = ()  # for reference tables


@dataclass(frozen=True)
class LadderSource:
    """Levels and their XP numbers under both readings of ``ruling`` ("" when fixed)."""

    ruling: str
    faithful: tuple[tuple[int, int], ...]
    alt: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Track:
    """A row of boxes to tick, one per mark (the Emerald's absorbed damage)."""

    label: str
    note: str
    marks: tuple[str, ...]


@dataclass
class Sources:
    """The named sources of one ruleset; ``checked`` is False when the data had errors."""

    checked: bool = True
    lists: Mapping[str, tuple[Entry, ...]] = field(default_factory=dict)
    numbers: Mapping[str, int] = field(default_factory=dict)
    ladders: Mapping[str, LadderSource] = field(default_factory=dict)
    tracks: Mapping[str, Track] = field(default_factory=dict)

    def _pick(self, node: Node, key: str, known: Mapping[str, object], what: str) -> str | None:
        name = node.str(key)
        if not self.checked or not name:
            return None
        return name if check_ref(node, key, name, known, what) else None

    def entries(self, node: Node, key: str) -> tuple[Entry, ...]:
        name = self._pick(node, key, self.lists, "list source")
        return self.lists[name] if name else ()

    def number(self, node: Node, key: str) -> int:
        name = self._pick(node, key, self.numbers, "number source")
        return self.numbers[name] if name else 1

    def ladder(self, node: Node, key: str) -> LadderSource:
        name = self._pick(node, key, self.ladders, "ladder source")
        return self.ladders[name] if name else LadderSource("", (), ())

    def track(self, node: Node, key: str) -> Track:
        name = self._pick(node, key, self.tracks, "track source")
        return self.tracks[name] if name else Track("", "", ())


def slug(text: str) -> str:
    """A field-name word: ``"Map Fragment"`` -> ``map-fragment``."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "x"


def named(names: list[str], notes: list[str] | None = None) -> tuple[Entry, ...]:
    notes = notes or [""] * len(names)
    unique = dict.fromkeys(zip(names, notes, strict=True))
    return tuple(Entry(slug(n), n, t) for n, t in unique)
