"""Run independent renders side by side in forked processes (design.md section 9).

A forked child starts with WeasyPrint imported and the fonts registered, so it costs
milliseconds, not the second a fresh interpreter needs.  Results come back in task order,
so what is made never depends on how many processes made it.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")


def available_cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def run_tasks(
    function: Callable[[T], R], tasks: Sequence[T], workers: int,
    before_fork: Callable[[], object] | None = None,
) -> list[R]:
    """``function`` over ``tasks``; the first runs here, the others in up to ``workers - 1``
    forked processes.  Without fork (or with one worker) everything runs here, in order.

    ``before_fork`` prepares what the children should inherit instead of each making its
    own (the fonts: a child's copies would be left in the temporary folder).
    """
    workers = min(workers, len(tasks))
    if workers <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        return [function(task) for task in tasks]
    if before_fork is not None:
        before_fork()
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=workers - 1, mp_context=context) as pool:
        futures = [pool.submit(function, task) for task in tasks[1:]]
        first = function(tasks[0])
        return [first, *(future.result() for future in futures)]
