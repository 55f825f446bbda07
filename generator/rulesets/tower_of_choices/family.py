"""The Tower of Choices engine (rulings.md section 3).

House rules of this package (style.md):

* **Deterministic.**  Every random choice comes from an explicit generator: streams of
  :func:`generator.engine.rng.stream` per (seed, ruleset, place, purpose), so the same
  (seed, generator version, profile) gives the same characters, trials and outcomes.
* **Exact.**  Odds are :class:`fractions.Fraction`; floats appear only in reports.
* **Data-driven.**  Every number comes from the typed data of
  :mod:`generator.rulesets.tower_of_choices.read`; every ambiguity is read through
  ``profile.alt("TC-nn")``.
* **Immutable where it is shared.**  Characters, trials, rooms, obstacles and snapshots are
  frozen dataclasses; only a run's own :class:`~.state.RunState` changes.

Modules: :mod:`.state` (cards, decks, the character), :mod:`.rules` (the procedures),
:mod:`.character` (legality and random builds), :mod:`.trial` (the seeded trial),
:mod:`.checks` (the trial checker), :mod:`.odds` (exact odds), :mod:`.policy` (the
reference player), :mod:`.play` (one trial) and :mod:`.simulate` (many runs).
"""

from __future__ import annotations

from generator.engine.registry import Engine
from generator.rulesets.tower_of_choices.odds import ODDS
from generator.rulesets.tower_of_choices.simulate import simulate

ENGINE = Engine(
    family="tower-of-choices",
    depth_name="room",
    has_end=True,  # reaching the top of the trial (TC-20)
    default_depth=8,
    simulate=simulate,
    odds=ODDS,
)

__all__ = ["ENGINE"]
