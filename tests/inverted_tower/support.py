"""Shared helpers of The Inverted Tower engine tests (no tests here).

The content is loaded once per test process; profiles are the bundled ones, or one of
them with some rulings switched to the other reading, to show each reading in play.
"""

from __future__ import annotations

import random
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

from generator.model.common import Profile
from generator.model.loader import Ruleset
from generator.rulesets import load_content
from generator.rulesets.inverted_tower.data import InvertedTower
from generator.rulesets.inverted_tower.game import TapeDice
from generator.rulesets.inverted_tower.policy import REFERENCE
from generator.rulesets.inverted_tower.procedures import new_hero
from generator.rulesets.inverted_tower.rules import Rules, build_rules
from generator.rulesets.inverted_tower.state import Hero, RoomRoll

FOLDER = Path(__file__).resolve().parents[2] / "content" / "inverted-tower"
PROFILES = ("as-written", "draft-4.5", "balanced")


@lru_cache(maxsize=1)
def ruleset() -> Ruleset:
    return load_content(FOLDER).ruleset("inverted-tower")


def data() -> InvertedTower:
    found = ruleset().data
    assert isinstance(found, InvertedTower)
    return found


def profile(base: str = "as-written", alts: tuple[str, ...] = (),
            faithful: tuple[str, ...] = ()) -> Profile:
    """A bundled profile with the rulings in ``alts`` read Alt, those in ``faithful`` not."""
    found = ruleset().profile(base)
    if not alts and not faithful:
        return found
    readings = dict(found.readings)
    readings.update({r: "alt" for r in alts})
    readings.update({r: "faithful" for r in faithful})
    name = "+".join((base, *alts, *(f"-{r}" for r in faithful)))
    return Profile(name, found.title, found.description, readings)


@lru_cache(maxsize=128)
def rules(base: str = "as-written", alts: tuple[str, ...] = (),
          faithful: tuple[str, ...] = ()) -> Rules:
    """The rules of a profile (``alts``: rulings switched to Alt)."""
    return build_rules(data(), profile(base, alts, faithful))


def both(ruling: str) -> tuple[Rules, Rules]:
    """The as-written rules and the same with ``ruling`` read Alt."""
    return rules(), rules(alts=(ruling,))


def hero(r: Rules, **changes: object) -> Hero:
    """The reference player's new character, with some fields changed."""
    return replace(new_hero(r, REFERENCE), **changes)  # type: ignore[arg-type]


def tape(*dice: int) -> TapeDice:
    return TapeDice(list(dice))


def roll(*, dead_end: int = 1, event_check: int = 1, event_roll: int = 1, trap_kind: int = 1,
         trap_check: int = 1, elite: int = 1, count: int = 1, treasure: int = 1,
         minions: int = 1) -> RoomRoll:
    """A room roll whose dice are 1 unless given."""
    return RoomRoll(dead_end, event_check, event_roll, trap_kind, trap_check, elite, count,
                    treasure, minions)


def random_roll(rng: random.Random) -> RoomRoll:
    """A room roll of fair dice from a local generator."""
    d = [rng.randint(1, 6) for _ in range(9)]
    return RoomRoll(d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7], d[8])
