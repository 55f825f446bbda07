"""Shared helpers of the Tower of Choices engine tests (no tests here).

The content is loaded once per test process.  Profiles are the bundled ones, or
``as-written`` with some rulings switched to Alt, to show each reading in play.  A
:class:`Script` is a generator that returns scripted values, so that shuffles and
INDEFATIGABLE's pick can be fixed; :func:`state` builds a run state with a known pile.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from pathlib import Path

from generator.model.common import Profile
from generator.model.loader import Ruleset
from generator.rulesets import load_content
from generator.rulesets.tower_of_choices.data import TowerOfChoices
from generator.rulesets.tower_of_choices.rules import Rules, rules_for
from generator.rulesets.tower_of_choices.state import Character, RunState
from generator.rulesets.tower_of_choices.trial import Approach, Obstacle

FOLDER = Path(__file__).resolve().parents[2] / "content" / "tower-of-choices"
PROFILES = ("as-written", "gentle", "balanced")


@lru_cache(maxsize=1)
def ruleset() -> Ruleset:
    return load_content(FOLDER).ruleset("tower-of-choices")


def data() -> TowerOfChoices:
    found = ruleset().data
    assert isinstance(found, TowerOfChoices)
    return found


def rules(prof: Profile | None = None) -> Rules:
    """The rules under ``prof`` (``as-written`` by default); the lookups are the same
    under every profile."""
    return rules_for(data(), prof or profile())


def profile(base: str = "as-written", alts: tuple[str, ...] = ()) -> Profile:
    """A bundled profile, with the rulings in ``alts`` read the Alt way."""
    found = ruleset().profile(base)
    if not alts:
        return found
    readings = dict(found.readings)
    for ruling in alts:
        readings[ruling] = "alt"
    return Profile(f"{base}+{'+'.join(alts)}", found.title, found.description, readings)


class Script:
    """A generator that returns the scripted values (each checked against its bound), then
    zeros: with zeros, Fisher-Yates rotates, so tests script only what they look at."""

    def __init__(self, values: Iterable[int] = ()):
        self.values = list(values)
        self.calls: list[int] = []

    def below(self, n: int) -> int:
        self.calls.append(n)
        value = self.values.pop(0) if self.values else 0
        assert 0 <= value < n, f"scripted {value} is not below {n}"
        return value


def script_for(cards: Sequence[str], pile: Sequence[str]) -> list[int]:
    """The values that make the engine's Fisher-Yates shuffle (:func:`.state.shuffle`)
    turn ``cards`` into ``pile`` (both as lists, the top card last)."""
    order = list(cards)
    values = []
    for i in range(len(order) - 1, 0, -1):
        j = order.index(pile[i], 0, i + 1)
        values.append(j)
        order[i], order[j] = order[j], order[i]
    assert order == list(pile), f"{pile!r} is not a shuffle of {cards!r}"
    return values


def character(
    skills: Sequence[str] = ("Grace", "Strength", "Perception"),
    ability: str = "TRAPS",
    items: Sequence[str] = (),
) -> Character:
    return Character(tuple(skills), ability, tuple(items), data().character.starting_coins)


def state(
    pile: Sequence[str],
    *,
    discard: Sequence[str] = (),
    ability: str = "TRAPS",
    items: Sequence[str] = (),
    skills: Sequence[str] = ("Grace", "Strength", "Perception"),
) -> RunState:
    """A run state whose pile lists the cards top first (the first card is drawn first)."""
    st = RunState(
        character=character(skills, ability, items),
        pile=list(reversed(pile)),
        discard=list(discard),
        items=list(items),
    )
    st.starting_cards = len(pile) + len(discard)
    return st


def obstacle(
    *approaches: tuple[str, int, int], helps: Sequence[str] = (), failure: str = ""
) -> Obstacle:
    """An obstacle with the given (skill, DRAW, TARGET) approaches."""
    fail = failure or data().setbacks[0].name
    return Obstacle(
        name="Test obstacle",
        approaches=tuple(Approach(s, d, t) for s, d, t in approaches),
        helps=tuple(helps),
        failure=fail,
    )


def standard(skill: str = "Grace", helps: Sequence[str] = (), failure: str = "") -> Obstacle:
    """The standard obstacle (checks.toml) with one approach."""
    checks = data().checks
    return obstacle(
        (skill, checks.standard_draw, checks.standard_target), helps=helps, failure=failure
    )
