"""``towerpress build --watch``: a designer edits a table beside the open PDF, and the PDF
follows; a half-made edit says what is wrong and the watch goes on; Ctrl-C ends it.

One sheet of The Inverted Tower (``--only``), the quickest product of the smallest
ruleset to render (measured: 1.1 s, against 2.2 s and 2.4 s for the others' sheets).
"""

from __future__ import annotations

import queue
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO

import pypdf

from generator.model.loader import BUNDLED_CONTENT
from tests.commands import ROOT

SHEET = "inverted-tower-sheet-a4.pdf"
WAIT = 60.0  # seconds for each step; a render of the sheet takes a few
# The command as a terminal starts it, Ctrl-C's signal heard: a test run started in the
# background of a script inherits it ignored, and Python then leaves it so.
AS_IN_A_TERMINAL = ("import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler);"
                    " from generator.cli.main import main; main(sys.argv[1:])")


def lines_of(stream: IO[str]) -> tuple[queue.Queue[str], threading.Thread]:
    """The stream's lines as they come, read by a thread (a pipe's readline would block),
    which ends at the end of the stream."""
    lines: queue.Queue[str] = queue.Queue()

    def read() -> None:
        for line in stream:
            lines.put(line.rstrip("\n"))

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    return lines, reader


def wait_for(lines: queue.Queue[str], start: str, seen: list[str]) -> str:
    deadline = time.monotonic() + WAIT
    while True:
        line = lines.get(timeout=max(0.1, deadline - time.monotonic()))
        seen.append(line)
        if line.startswith(start):
            return line


def test_watch_rebuilds_after_an_edit_survives_a_broken_one_and_stops_on_ctrl_c(
        tmp_path: Path) -> None:
    ruleset = tmp_path / "inverted-tower"
    shutil.copytree(BUNDLED_CONTENT / "inverted-tower", ruleset)
    leveling = ruleset / "tables" / "leveling.toml"
    text = leveling.read_text(encoding="utf-8")
    assert "\nbase = 10\n" in text
    out = tmp_path / "build"
    watch = subprocess.Popen(
        [sys.executable, "-c", AS_IN_A_TERMINAL, "build", "--watch", "--content", str(ruleset),
         "--out", str(out), "--only", SHEET],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert watch.stdout is not None and watch.stderr is not None
    (stdout, out_reader), (stderr, err_reader) = lines_of(watch.stdout), lines_of(watch.stderr)
    said: list[str] = []
    try:
        wait_for(stdout, "1 product: 1 rendered", said)
        first = (out / SHEET).read_bytes()
        wait_for(stderr, "watching ", said)

        leveling.write_text(text + "\n[broken\n", encoding="utf-8")  # half-way through
        error = wait_for(stderr, "towerpress: error: ", said)
        assert "tables/leveling.toml" in error and "TOML" in error

        leveling.write_text(text.replace("\nbase = 10\n", "\nbase = 20\n"), encoding="utf-8")
        deadline = time.monotonic() + WAIT
        while (out / SHEET).read_bytes() == first:
            assert time.monotonic() < deadline, said
            time.sleep(0.2)
        ladder = pypdf.PdfReader(out / SHEET).pages[0].extract_text()
        assert "XP needed 21 22 23" in ladder  # base 20, plus 1 a level, from level 1
        wait_for(stdout, "1 product: 1 rendered", said)
    finally:
        watch.send_signal(signal.SIGINT)
        watch.wait(timeout=WAIT)
    out_reader.join(WAIT)
    err_reader.join(WAIT)
    last = [stderr.get() for _ in range(stderr.qsize())]
    assert watch.returncode == 130, said + last
    assert not any("Traceback" in line for line in said + last), said + last
    assert last[-1:] == ["towerpress: stopped watching"]
