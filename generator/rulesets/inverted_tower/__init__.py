"""The Inverted Tower (Draft 3): its content model and its rules engine.

House rules of this package: deterministic given (seed, profile, generator version);
exact arithmetic (``Fraction``) for every probability; immutable, hashable state; every
number read from the ruleset's data and every ambiguity decided by the profile
(rulings.md section 1.3), never typed into the code.

The modules every ruleset package has: ``family`` (the hooks the rest of the program
calls), ``data`` (the whole ruleset's typed data, and its loading), ``views`` (the
printable tables), ``sources`` (what sheets and decks name), ``rules`` (the data resolved
for a profile), ``state`` (the state model), ``policy`` (the reference player), ``game``
(one game by the reference rules), ``simulate`` (many games), ``odds`` (exact odds) and
``check`` (the booklet's checker).  Its own: ``entities`` and ``read`` (the typed objects
and their readers, one per tables file), ``rooms`` (what a room holds), ``procedures``
(rolls, fights, traps, the merchant), ``narrate`` (the steps of a game a reader follows,
``towerpress play``), ``fast`` (the game flattened for speed) and ``booklet`` (pre-rolled
floors).
"""
