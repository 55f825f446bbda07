"""The Inverted Tower (Draft 3): the rules engine.

House rules of this package: deterministic given (seed, profile, generator version);
exact arithmetic (``Fraction``) for every probability; immutable, hashable state; every
number read from the ruleset's data (``generator.rulesets.inverted_tower.data``) and every
ambiguity decided by the profile (rulings.md section 1.3), never typed into the code.

Modules: ``tables`` (the data resolved for a profile), ``state`` (the state model),
``content`` (what a room holds), ``rules`` (rolls, fights, traps, the merchant),
``policy`` (the reference player), ``game`` (one game by the reference rules), ``fast``
(the same game flattened for speed), ``simulate`` (many games), ``odds`` (exact odds),
``booklet`` (pre-rolled floors for a booklet) and ``check`` (their checker).
"""

from __future__ import annotations

from generator.engine.registry import Engine
from generator.rulesets.inverted_tower.odds import QUERIES
from generator.rulesets.inverted_tower.simulate import simulate

# IT-27: the tower itself is endless (Faithful); a run of N floors is won by descending
# from floor N, as a booklet of N pre-rolled floors is.
ENGINE = Engine(
    family="inverted-tower",
    depth_name="floor",
    has_end=True,
    default_depth=10,
    simulate=simulate,
    odds=QUERIES,
)
