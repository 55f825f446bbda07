"""The server's renders: a queue in front of the worker pool (one render at a time a
worker), and the results kept by the hash of their inputs, so that asking again is
instant.  Each render writes into a folder of its own under the server's temporary folder;
a result pushed out of the cache takes its folder with it."""

from __future__ import annotations

import asyncio
import hashlib
import shutil
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from generator.cli.main import internal_line
from generator.web.renders import Outcome, Task, run

State = Literal["queued", "running", "done", "failed"]
KEEP = 48  # results kept; past that the oldest goes, with its files
MAX_WAITING = 16  # renders queued at once: past that a new one is refused, not queued
WORKER_LOST = ("towerpress: error: a worker process ended before its work was done (it was "
               "killed, or the system ran out of memory)")


@dataclass
class Job:
    """One render asked for: its key (the hash of its inputs), what it runs, where it is
    and, when done, what came of it (an :class:`Outcome`, or a page's view for a ruleset)."""

    key: str
    folder: Path
    work: Callable[..., Any]
    args: tuple[Any, ...]
    state: State = "queued"
    asked: float = field(default_factory=time.monotonic)
    started: float | None = None
    finished: float | None = None
    result: Any = None
    error: str = ""

    def seconds(self) -> float:
        """Seconds rendering so far (or in all, once done)."""
        if self.started is None:
            return 0.0
        return (self.finished or time.monotonic()) - self.started


class Jobs:
    """The queue and the cache.  ``pool`` runs the renders (its ``workers`` processes each
    take one at a time); ``folder`` holds their files; ``base`` is the hash of what every
    render is made from (the program, the templates and the content)."""

    def __init__(self, pool: Executor, workers: int, folder: Path, base: str) -> None:
        self.pool, self.folder, self.base = pool, folder, base
        self.slots = asyncio.Semaphore(workers)
        self.kept: OrderedDict[str, Job] = OrderedDict()
        self.waiting: list[str] = []  # the keys of the jobs queued, in their order
        self.tasks: set[asyncio.Task[None]] = set()

    def key(self, *parts: str) -> str:
        digest = hashlib.sha256(self.base.encode())
        for part in parts:
            digest.update(b"\0" + part.encode())
        return digest.hexdigest()[:32]

    def product(self, product: str, argv: Sequence[str], content_dir: str | None) -> Job:
        """The job rendering ``towerpress PRODUCT ARGV``: the one asked for before, if kept."""
        key = self.key(product, *argv)
        task = Task(product, tuple(argv), content_dir, str(self.folder / key))
        return self.submit(key, run, (task,))

    def submit(self, key: str, work: Callable[..., Any], args: tuple[Any, ...]) -> Job:
        """The job of ``key``, queued to run ``work(*args)`` in the pool unless it is kept."""
        job = self.kept.get(key)
        # A render the command refused is refused again: kept.  One whose worker was lost,
        # or that met a bug, is tried again.
        if job is not None and not job.error:
            self.kept.move_to_end(key)
            return job
        if len(self.waiting) >= MAX_WAITING:
            raise Busy(f"towerpress: error: {len(self.waiting)} renders are waiting already; "
                       "try again when they are done")
        job = Job(key, self.folder / key, work, args)
        shutil.rmtree(job.folder, ignore_errors=True)  # a failed try's files
        self.kept[key] = job
        self._forget_oldest()
        self.waiting.append(key)
        task = asyncio.get_running_loop().create_task(self._run(job))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return job

    def ahead(self, job: Job) -> int:
        """Renders queued before ``job`` (0 once it runs)."""
        return self.waiting.index(job.key) if job.key in self.waiting else 0

    async def _run(self, job: Job) -> None:
        async with self.slots:
            self.waiting.remove(job.key)
            job.state, job.started = "running", time.monotonic()
            try:
                job.result = await asyncio.get_running_loop().run_in_executor(
                    self.pool, job.work, *job.args)
            except Exception as exc:
                job.error = WORKER_LOST if _lost_worker(exc) else internal_line(
                    exc, "the options you chose")
            job.finished = time.monotonic()
            job.state = "failed" if job.error or _refused(job.result) else "done"

    def _forget_oldest(self) -> None:
        finished = [key for key, job in self.kept.items() if job.state in ("done", "failed")]
        for key in finished[:max(0, len(self.kept) - KEEP)]:
            shutil.rmtree(self.kept.pop(key).folder, ignore_errors=True)


class Busy(Exception):
    """Too many renders are queued to take another (HTTP 503), with the line saying so."""


def _refused(result: Any) -> bool:
    return isinstance(result, Outcome) and result.code != 0


def _lost_worker(exc: BaseException) -> bool:
    from concurrent.futures.process import BrokenProcessPool

    return isinstance(exc, BrokenProcessPool)
