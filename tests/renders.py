"""Products that several tests read, made once per test session.

A rendered PDF is kept in a folder that every process of the session shares (both xdist
workers, or the one pytest process), under its name: the first process to ask for it makes
it, holding its lock, and every other one waits for that lock and reads the same file.  The
renders are reproducible (the tests of "two renders are identical" show it), so what a test
reads does not depend on which process made it, nor on the order the tests run in.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import TypeVar

import pytest
from filelock import FileLock, Timeout

K = TypeVar("K")
Make = Callable[[Path], object]  # writes the product to the path it is given


class Renders:
    """The session's products, by file name, in ``folder``."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def many(self, wanted: Mapping[K, tuple[str, Make]]) -> dict[K, Path]:
        """The products ``wanted`` (by key: each one's name and how it is made), each made
        unless it already was: first those that no other process is making, then the rest
        once their makers are done (so that two processes that want the same products make
        them side by side)."""
        found: dict[K, Path] = {}
        for blocking in (False, True):
            for key, (name, make) in wanted.items():
                if key in found:
                    continue
                with self._lock(name, blocking=blocking) as locked:
                    if locked:
                        found[key] = self._made(name, make)
        return {key: found[key] for key in wanted}

    @contextlib.contextmanager
    def _lock(self, name: str, *, blocking: bool) -> Iterator[bool]:
        lock = FileLock(self.folder / f"{name}.lock")
        try:
            lock.acquire(blocking=blocking)
        except Timeout:
            yield False
            return
        try:
            yield True
        finally:
            lock.release()

    def _made(self, name: str, make: Make) -> Path:
        out = self.folder / name
        if not out.exists():
            try:
                make(out)
            except BaseException:
                out.unlink(missing_ok=True)
                raise
            assert out.exists(), f"{make} did not write {out}"
        return out


def session_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of this test session that all its processes share: an xdist worker's
    temporary folder is its own, in the session's."""
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if "PYTEST_XDIST_WORKER" in os.environ else base
    folder = shared / "renders"
    folder.mkdir(exist_ok=True)
    return folder
