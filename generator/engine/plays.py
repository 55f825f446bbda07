"""A booklet's odds played on every core of the machine.

Play ``n`` of a booklet takes its dice from a stream of its own (``Family.booklet_odds``),
so the plays can be shared out in contiguous runs among worker processes and put back
together in order: the outcomes are those of one process, on any number of cores.  The
workers are forked, so what they play is inherited, never pickled (a family's rules hold
functions); only the runs and the outcomes cross between the processes.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterable, Sequence

from generator.engine.report import RunOutcome
from generator.workers import available_cpus, worker_pool

Plays = Callable[[range], Iterable[RunOutcome]]

#: The plays a worker is given at a time, and so the fewest a worker is started for:
#: under a second of play, much more than the cost of handing them over.
MIN_SHARE = 250

_INHERITED: Sequence[Plays] = ()  # what the forked workers play, set before they fork


def play_all(plays: Sequence[Plays], runs: int, workers: int | None = None
             ) -> list[list[RunOutcome]]:
    """The outcomes of ``runs`` plays of each of ``plays``, in order, shared out among
    ``workers`` processes (the machine's cores by default; one where fork is missing)."""
    count = min(workers or available_cpus(), max(1, runs * len(plays) // MIN_SHARE))
    if count < 2 or "fork" not in multiprocessing.get_all_start_methods():
        return [list(play(range(runs))) for play in plays]
    global _INHERITED
    _INHERITED = plays
    # Small shares: plays differ in length, and so do the profiles', so many shares keep
    # every worker busy to the end.  A stop ends the workers at once (worker_pool).
    share = MIN_SHARE
    jobs = [(i, range(start, min(start + share, runs)))
            for i in range(len(plays)) for start in range(0, runs, share)]
    try:
        with worker_pool(count, multiprocessing.get_context("fork")) as pool:
            futures = [pool.submit(_play, job) for job in jobs]
            parts = [future.result() for future in futures]
    finally:
        _INHERITED = ()
    outcomes: list[list[RunOutcome]] = [[] for _ in plays]
    for (i, _), part in zip(jobs, parts, strict=True):
        outcomes[i] += part
    return outcomes


def _play(job: tuple[int, range]) -> list[RunOutcome]:
    index, runs = job
    return list(_INHERITED[index](runs))
