"""The engines of the three families, behind one interface the CLI and booklets use.

Each family package (``generator.rulesets.inverted_tower`` and so on) defines ``ENGINE``,
an :class:`Engine`.  Nothing here does I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from generator.engine.report import RunOutcome
from generator.model.common import Profile

Progress = Callable[[int], None]  # called with the number of runs finished so far


@dataclass(frozen=True)
class Param:
    """One integer parameter of an odds query: ``name=value`` on the command line."""

    name: str
    help: str
    default: int
    min: int
    max: int


@dataclass(frozen=True)
class OddsQuery:
    """An exact probability the engine can compute: ``towerpress odds RULESET NAME k=v ...``.

    ``compute`` returns labelled exact results; any float is only for display.
    """

    name: str
    help: str
    params: tuple[Param, ...]
    compute: Callable[[Any, Profile, Mapping[str, int]], list[tuple[str, Fraction]]]
    #: A parameter left out takes at least the value of another: {"max_hp": "hp"}.
    follow: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Engine:
    family: str
    depth_name: str  # what a survival row counts: "floor", "level" or "room"
    has_end: bool  # True when a run can be won (a booklet's last floor, a trial's top)
    default_depth: int  # floors/levels/rooms a simulated run goes down by default
    simulate: Callable[[Any, Profile, int, str, int, Progress | None], Iterable[RunOutcome]]
    odds: Mapping[str, OddsQuery]


def engines() -> dict[str, Engine]:
    from generator.rulesets.inverted_tower.family import ENGINE as IT
    from generator.rulesets.three_dice_dungeon.queries import ENGINE as DD
    from generator.rulesets.tower_of_choices.family import ENGINE as TC

    return {engine.family: engine for engine in (IT, DD, TC)}
