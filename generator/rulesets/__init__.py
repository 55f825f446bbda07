"""The rulesets: one package per family, with the same module names in each.

:data:`FAMILIES` is the only registry: a fourth ruleset is its content folder, its
package here and one line below.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

from generator.engine.family import Family
from generator.model.loader import Content, load_tree
from generator.rulesets.inverted_tower.family import FAMILY as INVERTED_TOWER
from generator.rulesets.three_dice_dungeon.family import FAMILY as THREE_DICE_DUNGEON
from generator.rulesets.tower_of_choices.family import FAMILY as TOWER_OF_CHOICES

FAMILIES: Mapping[str, Family[Any]] = MappingProxyType({
    family.id: family for family in (INVERTED_TOWER, THREE_DICE_DUNGEON, TOWER_OF_CHOICES)
})


def load_content(root: Path | None = None) -> Content:
    """The content tree under ``root`` (the bundled one by default), read by the families
    of :data:`FAMILIES`; see :func:`generator.model.loader.load_tree`."""
    return load_tree(root, FAMILIES)
