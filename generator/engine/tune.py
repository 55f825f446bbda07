"""What each reading does to survival (``towerpress tune``): a profile, and the profile
with the other reading of one ruling, each played by the reference player from the same
seed, so that a designer sees why a profile takes the readings it takes."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from generator.engine.family import Family
from generator.engine.report import SimulationReport, summarise
from generator.model.common import Profile, Reading, Ruling


@dataclass(frozen=True)
class Candidate:
    """The survival one set of readings gives: the profile's own (``ruling`` None), or the
    profile with ``ruling`` read the other way."""

    ruling: Ruling | None
    reading: Reading | None
    report: SimulationReport


def playable(rulings: Sequence[Ruling]) -> list[Ruling]:
    """The rulings whose two readings the solo engine plays: not one with a single reading,
    nor one that only a game of several players meets or that another settles."""
    return [r for r in rulings if r.alt and not r.scope and not r.decided_by]


def other_reading(profile: Profile, ruling: Ruling) -> Profile:
    """``profile`` with the other reading of ``ruling``."""
    reading: Reading = "faithful" if profile.alt(ruling.id) else "alt"
    return replace(profile, id=f"{profile.id}, {ruling.id} {reading}",
                   readings={**profile.readings, ruling.id: reading})


def candidates(family: Family[Any], data: Any, rulings: Sequence[Ruling], profile: Profile,
               runs: int, seed: str, depth: int) -> Iterator[Candidate]:
    """The profile's own survival, then each playable ruling's other reading, one by one
    (each is ``runs`` games, so a caller can show them as they come)."""
    yield Candidate(None, None, _report(family, data, profile, runs, seed, depth))
    for ruling in playable(rulings):
        varied = other_reading(profile, ruling)
        yield Candidate(ruling, varied.reading(ruling.id),
                        _report(family, data, varied, runs, seed, depth))


def _report(family: Family[Any], data: Any, profile: Profile, runs: int, seed: str,
            depth: int) -> SimulationReport:
    outcomes = family.simulate(data, profile, runs, seed, depth, None)
    return summarise(outcomes, ruleset=family.id, profile=profile.id, seed=seed,
                     depth_name=family.depth_name, has_end=family.has_end)
