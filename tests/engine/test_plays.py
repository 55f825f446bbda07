"""A booklet's plays shared out among processes give the outcomes of one process."""

from __future__ import annotations

import os
from collections.abc import Iterable

from generator.engine.plays import MIN_SHARE, Plays, play_all
from generator.engine.report import RunOutcome


def _plays(offset: int) -> Plays:
    """Plays that say which process played them, to show that several did."""
    def play(runs: range) -> Iterable[RunOutcome]:
        return [RunOutcome(depth=(n + offset) % 7, won=n % 3 == 0, death=str(os.getpid()),
                           rooms=n) for n in runs]
    return play


def test_shared_plays_come_back_in_order_from_several_processes() -> None:
    runs = 8 * MIN_SHARE + 17
    alone = play_all([_plays(0), _plays(3)], runs, workers=1)
    shared = play_all([_plays(0), _plays(3)], runs, workers=2)
    assert [[(o.depth, o.won, o.rooms) for o in part] for part in shared] == \
        [[(o.depth, o.won, o.rooms) for o in part] for part in alone]
    assert [o.rooms for o in shared[1]] == list(range(runs))
    assert {o.death for o in alone[0]} == {str(os.getpid())}
    assert len({o.death for part in shared for o in part}) == 2, "one process played all"


def test_a_few_plays_are_not_worth_a_process() -> None:
    (part,) = play_all([_plays(0)], MIN_SHARE, workers=2)
    assert {o.death for o in part} == {str(os.getpid())}
