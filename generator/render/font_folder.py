"""The temporary folder where WeasyPrint keeps its copies of the project's fonts.

WeasyPrint copies each @font-face file into a folder of its own, made on first use and
removed only by its FontConfiguration's ``__del__``, which a stopped process never runs.
A stop (SIGTERM, Ctrl-C) may come at any moment, even between the making of a folder
and the recording of its name, which left the folder behind.  So this process chooses and
records the name first, and only then makes the folder: a removal from then on finds it,
and removing a folder not made yet does nothing.  WeasyPrint is given the folder through
``weasyprint_internals.set_font_folder`` (pdf.py), the one place that knows how.

A process killed outright (SIGKILL, a power cut) runs no removal at all. Each folder's
name carries the process it belongs to, and the first folder a process makes removes the
ones of this user whose process has ended.
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import tempfile
import threading
from multiprocessing.util import Finalize
from pathlib import Path

# pid -> the folders that process made.  A forked child inherits the mapping but finds
# none under its own pid, so it never removes the one its parent still reads.
_made: dict[int, list[Path]] = {}


PREFIX = "towerpress-fonts-"


def make() -> Path:
    """A new private folder for this process's copies of the fonts, removed at its exit."""
    temp = Path(tempfile.gettempdir())
    if not _made:
        remove_abandoned(temp)
    path = temp / f"{PREFIX}{os.getpid()}-{secrets.token_hex(8)}"
    _made.setdefault(os.getpid(), []).append(path)
    # multiprocessing runs this at the exit of the main process and of each worker it
    # started normally; a worker's registry starts empty, so none runs its parent's.
    Finalize(None, remove, exitpriority=0)
    path.mkdir(mode=0o700)
    return path


def remove() -> None:
    """Remove the folders this process made; a child leaves its parent's.

    The process is ending: from here a second stop (SIGTERM, Ctrl-C) is ignored, which
    would otherwise cut the removal short.
    """
    try:
        if threading.current_thread() is threading.main_thread():
            for signum in (signal.SIGTERM, signal.SIGINT):
                signal.signal(signum, signal.SIG_IGN)
    finally:
        for path in _made.get(os.getpid(), []):
            shutil.rmtree(path, ignore_errors=True)


def remove_abandoned(temp: Path) -> None:
    """Remove the font folders in ``temp`` of this user's processes that have ended."""
    try:
        entries = list(os.scandir(temp))
    except OSError:
        return
    for entry in entries:
        pid = _owner(entry.name)
        try:
            # lstat: a link is never followed, and another user's folder is left alone.
            mine = entry.is_dir(follow_symlinks=False) and entry.stat(
                follow_symlinks=False).st_uid == os.getuid()
        except OSError:
            continue
        if mine and pid is not None and not _running(pid):
            shutil.rmtree(entry.path, ignore_errors=True)


def _owner(name: str) -> int | None:
    """The process a font folder's name says made it; None for any other name."""
    pid, _, token = name.removeprefix(PREFIX).partition("-")
    if not name.startswith(PREFIX) or not pid.isdigit() or len(pid) > 9 or not token:
        return None
    return int(pid)


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: running
        return True
    return True
