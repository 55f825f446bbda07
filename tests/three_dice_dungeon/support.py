"""Shared helpers of the 3 Dice Dungeon engine tests (no tests here).

The content is loaded once per test process; profiles are the bundled ones, or one of
them with some rulings switched to their Alt reading, to show each reading in play.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from generator.model.common import Profile
from generator.model.loader import Ruleset
from generator.rulesets import load_content
from generator.rulesets.three_dice_dungeon.data import ThreeDiceDungeon
from generator.rulesets.three_dice_dungeon.rules import Rules, rules_for

FOLDER = Path(__file__).resolve().parents[2] / "content" / "three-dice-dungeon"


@lru_cache(maxsize=1)
def ruleset() -> Ruleset:
    return load_content(FOLDER).ruleset("three-dice-dungeon")


def data() -> ThreeDiceDungeon:
    found = ruleset().data
    assert isinstance(found, ThreeDiceDungeon)
    return found


def profile(base: str = "as-written", alts: tuple[str, ...] = ()) -> Profile:
    """A bundled profile, with the rulings in ``alts`` read the Alt way."""
    found = ruleset().profile(base)
    if not alts:
        return found
    readings = dict(found.readings)
    for ruling in alts:
        readings[ruling] = "alt"
    return Profile(f"{base}+{'+'.join(alts)}", found.title, found.description, readings)


@lru_cache(maxsize=64)
def rules(base: str = "as-written", alts: tuple[str, ...] = ()) -> Rules:
    """The compiled rules of a profile (``alts``: rulings switched to Alt)."""
    return rules_for(data(), profile(base, alts))


def both(ruling: str, base: str = "as-written") -> tuple[Rules, Rules]:
    """The faithful and the Alt rules of one ruling."""
    return rules(base), rules(base, (ruling,))
