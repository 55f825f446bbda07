"""3 Dice Dungeon (modified): its content model and its rules engine.

House rules (style.md):
  - Deterministic: a (seed, profile, generator version) fixes every pre-rolled level and
    every simulated game; content, combat and roaming dice come from independent streams
    of (seed, place, purpose) (design.md section 4).
  - Exact: probabilities and expectations are ``Fraction``s (``odds``); floats only for
    display.
  - Immutable content: levels and cells are frozen dataclasses recording the raw dice
    beside every derived value, checked by ``check.check_dungeon``.
  - Every number comes from the content model; every ambiguity of rulings.md 2.3 is
    decided once, in ``rules.rules_for``, from the profile.

The modules every ruleset package has: ``family`` (the hooks the rest of the program
calls), ``data`` (the whole ruleset's typed data, and its loading), ``views`` (the
printable tables), ``sources`` (what sheets and decks name), ``rules`` (the data resolved
for a profile), ``policy`` (the reference player), ``game`` (one game), ``simulate``
(many games), ``odds`` (exact odds) and ``check`` (the checker of invariants 2.5).  Its
own: ``effects``, ``entities`` and ``parameters`` (the typed objects with their readers:
items, locations and monsters, the rule numbers), ``levels`` (Mode A levels),
``dungeon`` (the character and a whole pre-rolled dungeon), ``hero`` (the character as
played), ``combat`` (fights), ``explore`` (what the player knows of a level), ``dice``
(its random sources), ``narrate`` (what a played game's log says of the dice it finds)
and ``queries`` (the ``odds`` command's queries).
"""
