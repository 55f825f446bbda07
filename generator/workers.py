"""Worker processes that leave with the process that started them, and a pool of them
that stops at once when its block is left by an error, Ctrl-C or SIGTERM.

The build renders in such workers (generator/render/parallel.py) and a booklet plays its
odds in them (generator/engine/plays.py); what a worker must clean up as it stops (the
renderer's copies of the fonts) is handed in as ``cleanup``.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from multiprocessing.context import BaseContext
from types import FrameType

Cleanup = Callable[[], object]

_cleanup: Cleanup | None = None  # what this worker removes as it stops
#: Whether a pool of this process was stopped at once (:func:`_stop`): its manager thread
#: may then wait for ever, and the process must leave without waiting for its threads.
stopped_a_pool = False


def available_cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


PARENT_POLL = 0.5  # seconds between a worker's looks at its parent


def follow_parent(parent: int, cleanup: Cleanup | None = None) -> None:
    """A pool worker's initializer: the worker leaves when ``parent`` does.

    A worker whose parent was killed (``kill``, ``timeout``, a cancelled CI job) would
    otherwise wait on the pool's queue forever, since its sibling holds the queue open.
    SIGTERM (from :func:`_stop`, or from the watch on the parent) ends the worker at once,
    ``cleanup`` run first (the renderer's: :func:`generator.render.pdf.discard_fonts`).
    Ctrl-C reaches every process of the terminal's group; only the parent acts on it,
    and it ends its workers this way.
    """
    global _cleanup
    _cleanup = cleanup
    signal.signal(signal.SIGTERM, _exit_on_signal)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_watch, args=(parent,), daemon=True).start()


def _exit_on_signal(signum: int, _frame: FrameType | None) -> None:
    # This worker's own workers render with its copies of the fonts: were they still
    # running, one could copy a font back into the folder while it is being removed.
    end_children()
    if _cleanup is not None:
        _cleanup()
    # Not sys.exit: the pool's worker loop would take SystemExit for a failed task and go
    # on to the next one.
    os._exit(128 + signum)


CHILD_EXIT_WAIT = 5.0  # seconds; a worker told to stop ends at its next Python step


def end_children() -> None:
    """Stop this process's worker processes and wait until they have ended.

    A worker forked while another thread of this process held a lock can wait on it
    forever, its Python never running again to take SIGTERM; it would outlive this
    process, holding its output open (a test waiting on the stop's one line waited 60 s).
    What has not ended in :data:`CHILD_EXIT_WAIT` seconds is killed."""
    children = multiprocessing.active_children()
    for child in children:
        child.terminate()
    deadline = time.monotonic() + CHILD_EXIT_WAIT
    for child in children:
        child.join(max(0.0, deadline - time.monotonic()))
    for child in children:
        if child.is_alive():
            child.kill()
            child.join(CHILD_EXIT_WAIT)


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_POLL)
    os.kill(os.getpid(), signal.SIGTERM)


@contextmanager
def worker_pool(workers: int, context: BaseContext | None = None,
                cleanup: Cleanup | None = None, *, wait: bool = True
                ) -> Iterator[ProcessPoolExecutor]:
    """A process pool whose workers follow this process (:func:`follow_parent`), and
    which stops at once if the block is left by an error, Ctrl-C or SIGTERM; or, not
    ``wait``ing for the tasks left (a server's), however the block is left."""
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=context,
                               initializer=follow_parent, initargs=(os.getpid(), cleanup))
    try:
        yield pool
    except BaseException:
        _stop(pool)
        raise
    if wait:
        pool.shutdown(wait=True)
    else:
        _stop(pool)


LOCK_WAIT = 1.0  # seconds: the pool holds its lock for microseconds at a time


def _stop(pool: ProcessPoolExecutor) -> None:
    """Cancel the tasks not started and end the workers, which clean up as they go.
    Waiting, as leaving a ``with`` block of the pool does, would run every task queued.

    The pool is shut down only if its lock is free: a stop is
    an exception raised by a signal handler, which can come between a ``with`` statement
    taking a lock and the block that would give it back (CPython bpo-29988: the pool's
    ``submit`` and a future's ``result`` take theirs many times a second).  The pool's
    shutdown then waited on that lock for ever, its workers still at work (a stopped
    booklet's odds, once in a few hundred stops on a busy machine)."""
    global stopped_a_pool
    stopped_a_pool = True
    lock = getattr(pool, "_shutdown_lock", None)  # the standard library's own (3.11)
    if lock is None or lock.acquire(timeout=LOCK_WAIT):
        if lock is not None:
            lock.release()
        pool.shutdown(wait=False, cancel_futures=True)
    _keep_wakeup_open(pool)
    end_children()


def _keep_wakeup_open(pool: ProcessPoolExecutor) -> None:
    """Leave the pool's wake-up pipe open until the process ends.  Once its workers are
    ended, the pool's thread closes that pipe while the interpreter's exit handler writes
    to it; Python 3.11 does not lock the two apart, and a stopped command then printed
    "Exception ignored ... Bad file descriptor" under its one line (one run in six, on a
    busy machine).  The pipe is already woken (``shutdown``); marked closed, neither side
    touches it again.  ``_executor_manager_thread_wakeup`` and ``_closed`` are the
    standard library's own (3.11), read again on a newer Python."""
    wakeup = getattr(pool, "_executor_manager_thread_wakeup", None)
    if wakeup is not None and hasattr(wakeup, "_closed"):
        wakeup._closed = True
