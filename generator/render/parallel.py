"""Run independent renders side by side in forked processes (design.md section 9).

A forked child starts with WeasyPrint imported and the fonts registered, so it costs
milliseconds, not the second a fresh interpreter needs.  Results come back in task order,
so what is made never depends on how many processes made it.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import AbstractContextManager
from multiprocessing.context import BaseContext
from typing import TypeVar

from generator import workers as shared
from generator.render.pdf import discard_fonts
from generator.workers import available_cpus as available_cpus

T = TypeVar("T")
R = TypeVar("R")


def follow_parent(parent: int) -> None:
    """A render worker's initializer: it leaves when ``parent`` does, its copies of the
    fonts removed first."""
    shared.follow_parent(parent, discard_fonts)


def worker_pool(count: int, context: BaseContext | None = None, *, wait: bool = True
                ) -> AbstractContextManager[ProcessPoolExecutor]:
    """A pool of render workers (:func:`generator.workers.worker_pool`), each removing
    its copies of the fonts as it stops."""
    return shared.worker_pool(count, context, discard_fonts, wait=wait)


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
    with worker_pool(workers - 1, context) as pool:
        futures = [pool.submit(function, task) for task in tasks[1:]]
        first = function(tasks[0])
        return [first, *(future.result() for future in futures)]
