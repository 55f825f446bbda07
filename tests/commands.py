"""The command line run as a user runs it: ``python -m generator`` in a process of its own;
or, for the many one-line refusals, where a process's start-up would cost more than the
case, ``main`` in this one."""

from __future__ import annotations

import contextlib
import io
import os
import signal
import subprocess
import sys
from pathlib import Path

from generator import workers
from generator.cli.main import main

ROOT = Path(__file__).resolve().parents[1]


def run(
    *args: str, cwd: Path = ROOT, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "generator", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        check=False,
        env={**os.environ, **env} if env else None,
    )


def run_here(*args: str) -> subprocess.CompletedProcess[str]:
    """``towerpress ARGS`` as the entry point runs it, in this process: its exit code and
    what it printed.  The handlers ``main`` sets (SIGTERM, unraisable errors) are put back
    after, and the mark of a pool stopped at once, which makes ``main`` leave without
    waiting for its threads (``os._exit``: here, the test process's end)."""
    out, err = io.StringIO(), io.StringIO()
    before, hook = signal.getsignal(signal.SIGTERM), sys.unraisablehook
    code: int = 0
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            main(list(args))
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    finally:
        signal.signal(signal.SIGTERM, before)
        sys.unraisablehook = hook
        workers.stopped_a_pool = False
    return subprocess.CompletedProcess(["towerpress", *args], code, out.getvalue(),
                                       err.getvalue())
