"""A render past its time or memory is stopped with one line (exit 2), in the command's
own process and in a build's workers, and the file it would have replaced stays whole."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.commands import ROOT, run


def test_a_render_past_its_time_is_stopped_and_keeps_the_old_file(tmp_path: Path) -> None:
    out = tmp_path / "rules.pdf"
    out.write_bytes(b"the book printed yesterday")
    result = run("rulebook", "tower-of-choices", "--paper", "a5", "-o", str(out),
                 env={"TOWERPRESS_MAX_RENDER_SECONDS": "1"})
    assert result.returncode == 2
    assert result.stderr == (
        "towerpress: error: the render was stopped: it took more than the limit of 1 CPU "
        "seconds for one render (set TOWERPRESS_MAX_RENDER_SECONDS to raise it)\n")
    assert out.read_bytes() == b"the book printed yesterday"


def test_a_render_past_its_memory_is_stopped() -> None:
    """The bound itself, in a process of its own (this one holds memory freed by the tests
    before, which an allocation could take again without growing the process). Where a
    render's boxes pass it varies from run to run, and GLib ends the process where Pango
    cannot make a thread: a whole render is not a test that always gives the same end."""
    code = ("from generator.limits import render_bounds\n"
            "with render_bounds():\n"
            "    held = bytearray(200 * 2**20)\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=False, cwd=ROOT,
                            env={**os.environ, "TOWERPRESS_MAX_RENDER_MB": "20"})
    assert result.stderr.splitlines()[-1] == (
        "generator.errors.RenderError: the render was stopped: it needed more than the limit "
        "of 20 MB for the memory of one render (set TOWERPRESS_MAX_RENDER_MB to raise it)")


def test_a_build_worker_past_its_bound_is_one_line(tmp_path: Path) -> None:
    result = run("build", "--out", str(tmp_path / "build"),
                 env={"TOWERPRESS_MAX_RENDER_SECONDS": "1"})
    assert result.returncode == 2, result.stderr
    assert result.stderr.splitlines()[-1].startswith(
        "towerpress: error: the render was stopped: it took more than the limit of 1 CPU")
    assert "Traceback" not in result.stderr


def test_a_memory_error_wrapped_by_a_library_is_still_said_to_be_memory() -> None:
    """WeasyPrint's fetcher raises its own error from a MemoryError while it reads a font."""
    from weasyprint.urls import FatalURLFetchingError

    from generator.errors import RenderError
    from generator.limits import render_bounds

    with pytest.raises(RenderError, match="it needed more than the limit of"), render_bounds():
        try:
            raise MemoryError
        except MemoryError:
            raise FatalURLFetchingError("Error fetching a font") from None
