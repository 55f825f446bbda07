"""What a rulebook's cover draws: a motif, and the numbers it takes from the content.

``ruleset.toml``'s ``[cover]`` table names the motif and, for each of the motif's
parameters, where in the ruleset's files its number is (one source of truth: the drawing
never retypes a number of the game).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from generator.model.schema import Node

#: The motifs a cover can draw (generator/products/rulebook/cover.py) and their parameters:
#: one of kind "value" names an integer in the ruleset's files as ``FOLDER/FILE.key.path``
#: ("tables/floor.max_rooms", "sheets/log.sections[0].columns"); one of kind "deck" names a
#: deck of ``decks/``.
COVER_MOTIFS: Mapping[str, Mapping[str, str]] = {
    "tower": {"rooms": "value"},  # a tower seen from above going down: a ring a floor
    "dungeon": {"columns": "value", "rows": "value", "dice": "value"},  # a map on a grid
    "cards": {"deck": "deck"},  # a fan of the deck's cards
}

_PART = re.compile(r"^([^\[\]]+)((?:\[\d{1,3}\])*)$")
_LARGEST = 99  # a cover draws no more rings, squares or dice than this


@dataclass(frozen=True)
class Cover:
    """``[cover]``: the motif and a reference for each of its parameters."""

    motif: str
    params: tuple[tuple[str, str], ...]  # (parameter, reference), in COVER_MOTIFS' order

    def param(self, name: str) -> str:
        return dict(self.params)[name]


def load_cover(node: Node) -> Cover:
    """The motif must be one of :data:`COVER_MOTIFS`, each of its parameters given; the
    references are resolved once the files they name are read (:func:`cover_problems`)."""
    motif = node.str("motif")
    if motif and motif not in COVER_MOTIFS:
        node.error("motif", f"unknown cover motif {motif!r} "
                            f"(expected one of: {', '.join(sorted(COVER_MOTIFS))})")
        return Cover(motif, ())  # its parameters are not checked against no motif
    params = tuple((name, node.str(name)) for name in COVER_MOTIFS.get(motif, {}))
    node.done()
    return Cover(motif, params)


def cover_problems(cover: Cover, sources: Mapping[str, Any], decks: Mapping[str, Any]
                   ) -> list[tuple[str, str]]:
    """(key, message) for each reference of ``cover`` that does not resolve."""
    problems: list[tuple[str, str]] = []
    kinds = COVER_MOTIFS.get(cover.motif, {})
    for name, reference in cover.params:
        if kinds[name] == "deck":
            if reference not in decks:
                problems.append((f"cover.{name}", f"unknown deck {reference!r} (expected one "
                                                  f"of: {', '.join(sorted(decks))})"))
            continue
        try:
            cover_value(sources, reference)
        except KeyError as exc:
            problems.append((f"cover.{name}", str(exc.args[0])))
    return problems


def cover_value(sources: Mapping[str, Any], reference: str) -> int:
    """The integer ``reference`` names in ``sources`` (a ruleset's files as read, by their
    path in its folder): the Faithful reading of a value that depends on a ruling.

    Raises:
        KeyError: with a message saying what does not resolve.
    """
    file, _, path = reference.partition(".")
    current: Any = sources.get(f"{file}.toml")
    if not isinstance(current, Mapping) or not path:
        raise KeyError(f"{reference!r} names no file of the ruleset (expected "
                       'FOLDER/FILE.key.path, as in "tables/floor.max_rooms")')
    for part in path.split("."):
        m = _PART.match(part)
        if not m or not isinstance(current, Mapping) or m.group(1) not in current:
            raise KeyError(f"{reference!r}: {part!r} does not exist")
        current = current[m.group(1)]
        for index in re.findall(r"\[(\d+)\]", m.group(2)):
            if not isinstance(current, list) or int(index) >= len(current):
                raise KeyError(f"{reference!r}: [{index}] is out of range")
            current = current[int(index)]
    if isinstance(current, Mapping) and "faithful" in current and "ruling" in current:
        current = current["faithful"]
    if isinstance(current, bool) or not isinstance(current, int) or not 1 <= current <= _LARGEST:
        raise KeyError(f"{reference!r} is {current!r}, not a whole number from 1 to {_LARGEST}")
    return current
