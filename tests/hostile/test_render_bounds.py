"""A render past its time or memory is stopped with one line (exit 2), in the command's
own process and in a build's workers, and the file it would have replaced stays whole."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.commands import run


@pytest.mark.parametrize(("variable", "words"), [
    ("TOWERPRESS_MAX_RENDER_SECONDS", "it took more than the limit of 1 CPU seconds for one "
                                      "render (set TOWERPRESS_MAX_RENDER_SECONDS to raise it)"),
    ("TOWERPRESS_MAX_RENDER_MB", "it needed more than the limit of 20 MB for the memory of one "
                                 "render (set TOWERPRESS_MAX_RENDER_MB to raise it)"),
])
def test_a_render_past_its_bound_is_stopped_and_keeps_the_old_file(
        tmp_path: Path, variable: str, words: str) -> None:
    out = tmp_path / "rules.pdf"
    out.write_bytes(b"the book printed yesterday")
    # In a process of its own: this one holds memory freed by the tests before, which
    # a render could take again without growing the process.
    # 20 MB: a page's boxes, past the fonts' set-up (a bound of 1 MB may run out as a
    # font file is read, which the test of the wrapped error below covers).
    result = run("rulebook", "tower-of-choices", "--paper", "a5", "-o", str(out),
                 env={variable: "20" if variable.endswith("_MB") else "1"})
    assert result.returncode == 2
    assert result.stderr == f"towerpress: error: the render was stopped: {words}\n"
    assert out.read_bytes() == b"the book printed yesterday"


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
