"""The rulesets: one package per family, with the same module names in each.

:data:`FAMILIES` is the only registry: a fourth ruleset is its content folder, its
package here and one line below.  A family's module is imported when the family is first
asked for: a command about one ruleset does not import the engines of the others.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from generator.engine.family import Family
from generator.model.loader import Content, load_tree

# Each family's id, and the module that holds it as FAMILY.
_MODULES = {
    "inverted-tower": "generator.rulesets.inverted_tower.family",
    "three-dice-dungeon": "generator.rulesets.three_dice_dungeon.family",
    "tower-of-choices": "generator.rulesets.tower_of_choices.family",
}


class _Families(Mapping[str, Family[Any]]):
    """The families by id, each imported when first looked up."""

    def __getitem__(self, family_id: str) -> Family[Any]:
        family: Family[Any] = importlib.import_module(_MODULES[family_id]).FAMILY
        return family

    def __iter__(self) -> Iterator[str]:
        return iter(_MODULES)

    def __len__(self) -> int:
        return len(_MODULES)


FAMILIES: Mapping[str, Family[Any]] = _Families()


def load_content(root: Path | None = None) -> Content:
    """The content tree under ``root`` (the bundled one by default), read by the families
    of :data:`FAMILIES`; see :func:`generator.model.loader.load_tree`."""
    return load_tree(root, FAMILIES)
