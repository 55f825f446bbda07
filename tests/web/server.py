"""A ``towerpress serve`` of the tests' own: a process on a free loopback port, as a person
starts it, stopped (and checked to leave nothing behind) when its module is done."""

from __future__ import annotations

import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from tests.commands import ROOT

START_WAIT = 60.0  # seconds for the first line, on a machine busy with the other tests


@dataclass(frozen=True)
class Server:
    """A running server: its address, process, the temporary folder it was given and what
    it said."""

    url: str
    port: int
    process: subprocess.Popen[str]
    tmp: Path
    said: list[str]  # its lines on stderr so far

    def children(self) -> set[int]:
        """The server's worker processes (and theirs), by pid."""
        found: set[int] = set()
        todo = [self.process.pid]
        while todo:
            pid = todo.pop()
            for task in Path(f"/proc/{pid}/task").glob("*"):
                kids = {int(k) for k in (task / "children").read_text().split()} - found
                found |= kids
                todo += kids
        return found


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def serving(tmp: Path, *args: str) -> Iterator[Server]:
    """``towerpress serve`` on a free port, its temporary files in ``tmp``; stopped with
    SIGTERM after the block."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "generator", "serve", "--port", str(port), *args],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "TMPDIR": str(tmp)})
    said: list[str] = []
    line = _first_line(process, said)
    assert "serving on" in line, line
    try:
        yield Server(f"http://127.0.0.1:{port}", port, process, tmp, said)
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            process.wait(30)


def _first_line(process: subprocess.Popen[str], lines: list[str]) -> str:
    """The server's line saying where it serves; a thread goes on reading all it says into
    ``lines`` (a pipe nobody reads would stop the server once full)."""
    first: queue.Queue[str] = queue.Queue()

    def read() -> None:
        assert process.stderr is not None
        for line in process.stderr:
            lines.append(line)
            first.put(line)
        first.put("")

    threading.Thread(target=read, daemon=True).start()
    deadline = time.monotonic() + START_WAIT
    while (line := _next(first, deadline)) and not line.startswith("towerpress: serving on"):
        pass  # a warning first (another host than the loopback)
    return line or f"no line saying it serves in {START_WAIT:.0f} s: {''.join(lines)}"


def _next(lines: queue.Queue[str], deadline: float) -> str:
    try:
        return lines.get(timeout=max(0.0, deadline - time.monotonic()))
    except queue.Empty:
        return ""
