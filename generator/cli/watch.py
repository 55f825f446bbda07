"""Watching folders for changes (``towerpress build --watch``), with the ``watchfiles``
package.

The watch runs in a thread of its own from before the first build, so that an edit saved
while a build renders is seen too; the command's own thread builds, and takes Ctrl-C and
SIGTERM as every command does.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from generator.errors import TowerpressError

READY_WAIT = 30.0  # seconds for the watch to start: a few milliseconds, on a busy machine more
TICK_MS = 500  # how often the watch's thread says it is alive (and looks for its stop)


class Watcher:
    """The changes under ``roots``, those under ``ignored`` (the build's own writes) left
    out, as lists of the files they touched (:meth:`changes`)."""

    def __init__(self, roots: Sequence[Path], ignored: Path) -> None:
        self.roots = [root.resolve() for root in roots]
        self.ignored = ignored.resolve()
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._inbox: queue.Queue[set[tuple[Any, str]] | BaseException] = queue.Queue()
        self._thread = threading.Thread(target=self._watch, daemon=True)

    def __enter__(self) -> Watcher:
        """Raises TowerpressError: the folders cannot be watched."""
        for root in self.roots:
            if not root.is_dir():
                raise TowerpressError(f"cannot watch {root}: no such folder")
        self._thread.start()
        self._ready.wait(READY_WAIT)
        if not self._inbox.empty():
            self._raise(self._inbox.get())
        return self

    def __exit__(self, *_exc: object) -> None:
        self._stop.set()
        self._thread.join(READY_WAIT)

    def changes(self) -> Iterator[list[str]]:
        """Each change as it comes (the changes made meanwhile merged into one): the files
        it touched, by their paths under the roots, an editor's temporary file left out.
        Blocks until there is one; Ctrl-C interrupts it.

        Raises:
            TowerpressError: the watch failed (a folder removed, too many files to watch).
        """
        while True:
            batch = self._raise(self._inbox.get())
            while not self._inbox.empty():
                batch = batch | self._raise(self._inbox.get_nowait())
            names = self._names(batch)
            if names:
                yield names

    def _watch(self) -> None:
        import watchfiles  # only a watch needs it

        default = watchfiles.DefaultFilter()

        def wanted(change: watchfiles.Change, path: str) -> bool:
            return default(change, path) and not Path(path).is_relative_to(self.ignored)

        try:
            # Off the main thread the watch cannot see signals: the stop event ends it.
            for batch in watchfiles.watch(*self.roots, watch_filter=wanted,
                                          stop_event=self._stop, rust_timeout=TICK_MS,
                                          yield_on_timeout=True, raise_interrupt=False):
                self._ready.set()  # the first tick: the watch has begun
                if batch:
                    self._inbox.put(batch)
        except Exception as exc:  # given to the command's thread, which says it
            self._inbox.put(exc)
        finally:
            self._ready.set()

    def _raise(self, item: set[tuple[Any, str]] | BaseException) -> set[tuple[Any, str]]:
        if isinstance(item, BaseException):
            raise TowerpressError(f"cannot watch {' and '.join(map(str, self.roots))}: "
                                  f"{item}") from None
        return item

    def _names(self, batch: set[tuple[Any, str]]) -> list[str]:
        from watchfiles import Change

        made = {path for change, path in batch if change == Change.added}
        return sorted({self._relative(Path(path)) for _, path in batch
                       if path not in made or Path(path).exists()})

    def _relative(self, path: Path) -> str:
        for root in self.roots:
            if path.is_relative_to(root):
                return f"{root.name}/{path.relative_to(root).as_posix()}"
        return str(path)
