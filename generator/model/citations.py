"""Ruling IDs cited by a ruleset's tables and by its family's code.

A profile answers for the rulings of ``rulings.toml`` only, so a value whose reading
depends on a ruling not defined there could not be read by any profile: the engine and
the cards would fail on it.  The loader reports each such citation instead.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from generator.model.schema import join_key


def cited_rulings(raw: Any, path: str = "") -> Iterator[tuple[str, str]]:
    """Every ``ruling = "ID"`` of a parsed TOML file, as (key path, ID)."""
    if isinstance(raw, dict):
        for key, value in raw.items():
            at = join_key(path, key)
            if key == "ruling" and isinstance(value, str):
                yield at, value
            else:
                yield from cited_rulings(value, at)
    elif isinstance(raw, list):
        for index, value in enumerate(raw):
            yield from cited_rulings(value, join_key(path, index))
