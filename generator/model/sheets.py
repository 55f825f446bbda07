"""Sheet and log definitions (content/<ruleset>/sheets/*.toml): not yet defined."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from generator.model.schema import Node


def load_sheets(ruleset_id: str, nodes: Mapping[str, Node], data: Any) -> Mapping[str, Any]:
    """Typed sheet definitions by id, from the ``sheets/*.toml`` nodes and the data."""
    for node in nodes.values():
        node.done()
    return {}
