"""The bounds on what a content tree may hold and on what a render may cost (design.md
section 8): content may come from a stranger, and anything ``validate`` accepts must
render in bounded time and memory.

Each bound is a setting: the environment variable ``TOWERPRESS_<NAME>`` (a whole number)
replaces its default, for a ruleset larger than any bundled one (the README lists them).
The defaults leave the bundled content far inside every bound.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import FrameType

from generator.errors import RenderError, TowerpressError

try:
    import resource
except ImportError:  # not on a Unix
    resource = None  # type: ignore[assignment]


@dataclass(frozen=True)
class Limit:
    """One bound: ``TOWERPRESS_<name>`` overrides ``default`` (in ``unit``)."""

    name: str
    default: int
    unit: str
    what: str  # what is bounded, as an error message names it

    @property
    def variable(self) -> str:
        return f"TOWERPRESS_{self.name}"

    @property
    def value(self) -> int:
        """The bound in force.

        Raises:
            TowerpressError: the variable is set to something other than a whole number
                of at least 1.
        """
        raw = os.environ.get(self.variable)
        if raw is None:
            return self.default
        text = raw.strip()
        if not (text.isascii() and text.isdigit()) or len(text) > 12 or int(text) < 1:
            shown = raw if len(raw) <= 20 else raw[:20] + "..."
            raise TowerpressError(f"{self.variable} is {shown!r}; expected a whole number of "
                                  f"{self.unit}, at least 1 (default {self.default:,})")
        return int(text)

    def exceeded(self, amount: int | str) -> str:
        """The end of a message saying that ``amount`` passed this bound."""
        return f"{amount} {self.unit}, {self.passed()}"

    def passed(self) -> str:
        """The end of a message saying that this bound was passed."""
        return (f"more than the limit of {self.value:,} {self.unit} for {self.what} "
                f"(set {self.variable} to raise it)")


FILE_KB = Limit("MAX_FILE_KB", 512, "KB", "one content file")
KEY_PARTS = Limit("MAX_KEY_PARTS", 32, "parts", "a dotted key")
NESTING = Limit("MAX_NESTING", 32, "levels", "nesting in a TOML file")
PARSE_MB = Limit("MAX_PARSE_MB", 512, "MB", "the memory that reading one file may take")
TABLE_ROWS = Limit("MAX_TABLE_ROWS", 2_000, "rows", "one table")
RULESET_KB = Limit("MAX_RULESET_KB", 2_048, "KB", "the text of one ruleset")
SVG_ELEMENTS = Limit("MAX_SVG_ELEMENTS", 20_000, "elements",
                     "an SVG picture, each <use> counted as what it draws")
RENDER_MB = Limit("MAX_RENDER_MB", 4_096, "MB", "the memory of one render")
RENDER_SECONDS = Limit("MAX_RENDER_SECONDS", 900, "CPU seconds", "one render")

LIMITS = (FILE_KB, KEY_PARTS, NESTING, PARSE_MB, TABLE_ROWS, RULESET_KB, SVG_ELEMENTS,
          RENDER_MB, RENDER_SECONDS)


def _data_bytes() -> int | None:
    """The process's data memory now (Linux: VmData), or None where it cannot be read."""
    try:
        with open("/proc/self/status", encoding="ascii", errors="replace") as status:
            for line in status:
                if line.startswith("VmData:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


@contextmanager
def memory_bound(megabytes: int) -> Iterator[None]:
    """Within the block, allocating more than ``megabytes`` beyond what the process holds
    now raises MemoryError instead of taking the machine's memory (RLIMIT_DATA, which
    counts the heap and private mappings, where Python's objects live). Nowhere else
    than Linux, the block runs unbounded; an outer, tighter bound stays in force."""
    used = _data_bytes()
    if resource is None or used is None:
        yield
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_DATA)
    bound = used + megabytes * 2**20
    for ceiling in (soft, hard):
        if ceiling != resource.RLIM_INFINITY:
            bound = min(bound, ceiling)
    resource.setrlimit(resource.RLIMIT_DATA, (bound, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_DATA, (soft, hard))


class OverTime(BaseException):
    """A block ran past its CPU time (:func:`cpu_time_bound`). Not an Exception, so that
    no library's handler of errors takes it for a failure of its own and goes on."""


_timed = False  # whether a cpu_time_bound is running: the outermost one counts


def _over_time(_signum: int, _frame: FrameType | None) -> None:
    raise OverTime


@contextmanager
def cpu_time_bound(seconds: int) -> Iterator[bool]:
    """Within the block, raise :class:`OverTime` once the process has spent ``seconds``
    of CPU time in it (ITIMER_PROF); yields whether this bound is the one timing. Only
    the main thread can take the signal; elsewhere, and inside a bound already running,
    the block runs as it is (and the bound outside it, if any, counts)."""
    global _timed
    if _timed or threading.current_thread() is not threading.main_thread():
        yield False
        return
    previous = signal.signal(signal.SIGPROF, _over_time)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    _timed = True
    try:
        yield True
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)
        _timed = False


@contextmanager
def render_bounds() -> Iterator[None]:
    """Bound a render's memory (:data:`RENDER_MB`) and CPU time (:data:`RENDER_SECONDS`).

    Raises:
        RenderError: the render passed either bound.
    """
    timing = False
    try:
        with memory_bound(RENDER_MB.value), cpu_time_bound(RENDER_SECONDS.value) as timing:
            yield
    except OverTime:
        if not timing:  # an outer bound's time is up: its owner says so
            raise
        raise RenderError(f"the render was stopped: it took {RENDER_SECONDS.passed()}"
                          ) from None
    except BaseException as exc:
        # A library may wrap the MemoryError in an error of its own (WeasyPrint's fetcher
        # does, in one that is not an Exception): what ran out is still the memory.
        if not _out_of_memory(exc):
            raise
        raise RenderError(f"the render was stopped: it needed {RENDER_MB.passed()}"
                          ) from None


def _out_of_memory(exc: BaseException | None) -> bool:
    """Whether ``exc`` is a MemoryError, or was raised while handling or because of one.
    A SystemError counts: a C library's call that could not allocate returns no result
    and sets no error (cffi then raises "error return without exception set")."""
    seen = 0
    while exc is not None and seen < 20:
        if isinstance(exc, MemoryError | SystemError):
            return True
        exc, seen = exc.__cause__ or exc.__context__, seen + 1
    return False
