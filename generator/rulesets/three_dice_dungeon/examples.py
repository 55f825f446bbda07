"""3 Dice Dungeon's worked examples for the rulebook's figures (issue 28).

``level-map``: the first level of the dungeon pre-rolled for a seed, as the booklet's JSON
holds it (``levels[0]``: every square, kind, exit and mark the engine rolled), which the
rulebook draws with the booklet's own map (generator/products/booklet/maps.py).
"""

from __future__ import annotations

from collections.abc import Mapping

from generator.engine.examples import ExampleMaker, LevelExample
from generator.engine.rng import normalise_seed
from generator.model.common import Profile
from generator.rulesets.three_dice_dungeon.data import ThreeDiceDungeon
from generator.rulesets.three_dice_dungeon.dungeon import generate_dungeon
from generator.rulesets.three_dice_dungeon.gamebook import gamebook
from generator.rulesets.three_dice_dungeon.rules import rules_for


def first_level(data: ThreeDiceDungeon, profile: Profile, seed: str) -> LevelExample:
    """Level 1 of the one-level dungeon of ``seed`` (as the content writes it): the
    level a booklet of that seed and profile opens with (a level does not depend on the
    levels below it)."""
    rules = rules_for(data, profile)
    canonical = normalise_seed(seed)
    book = gamebook(rules, generate_dungeon(rules, canonical, 1), canonical)
    return LevelExample(seed, book.dungeon["levels"][0])


EXAMPLES: Mapping[str, ExampleMaker] = {"level-map": first_level}
