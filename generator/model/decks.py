"""Card decks (content/<ruleset>/decks/*.toml): not yet defined; no ruleset has decks."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from generator.model.schema import Node


def load_decks(ruleset_id: str, nodes: Mapping[str, Node], data: Any) -> Mapping[str, Any]:
    """Typed decks by deck id, from the ``decks/*.toml`` nodes (by file stem) and the data."""
    for node in nodes.values():
        node.done()
    return {}
