"""Hostile build folders (issue 27, findings 3, 6 and 10): links left in ``build/`` and
``build/.inputs/`` by a downloaded repository, outputs truncated or edited after a build,
stamps garbled, and an empty ``--out``.

Each build renders one sheet of The Inverted Tower (``--only``: the quickest product); the
module's good build is made once and copied.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pypdf
import pytest

from generator.model.loader import BUNDLED_CONTENT
from generator.pipeline import Stamp
from generator.render.output import read_regular, sha256_of, write_atomic
from tests.commands import run, run_here

SHEET = "inverted-tower-sheet-a4.pdf"
STAMP = f".inputs/{SHEET}.sha256"


@pytest.fixture(scope="module")
def ruleset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of The Inverted Tower alone."""
    target = tmp_path_factory.mktemp("content") / "inverted-tower"
    shutil.copytree(BUNDLED_CONTENT / "inverted-tower", target)
    return target


def build(ruleset: Path, out: Path) -> subprocess.CompletedProcess[str]:
    return run_here("build", "--content", str(ruleset), "--out", str(out), "--only", SHEET)


@pytest.fixture(scope="module")
def good(ruleset: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A build folder as a build leaves it."""
    out = tmp_path_factory.mktemp("good") / "build"
    result = build(ruleset, out)
    assert result.returncode == 0, result.stderr
    return out


def copy_of(good: Path, tmp_path: Path) -> Path:
    out = tmp_path / "build"
    shutil.copytree(good, out, symlinks=True)
    return out


def headline(result: subprocess.CompletedProcess[str]) -> str:
    return result.stdout.splitlines()[0]


def sheet_row(result: subprocess.CompletedProcess[str]) -> str:
    return next(line for line in result.stdout.splitlines() if line.startswith(SHEET))


def test_links_to_outside_in_place_of_an_output_and_its_stamp_are_replaced_not_followed(
        ruleset: Path, tmp_path: Path) -> None:
    """It wrote the PDF into the file the link led to, and the stamp likewise."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "notes.txt").write_bytes(b"keep me")
    (outside / "stamp.txt").write_bytes(b"keep me too")
    out = tmp_path / "build"
    (out / ".inputs").mkdir(parents=True)
    (out / SHEET).symlink_to(outside / "notes.txt")
    (out / STAMP).symlink_to(outside / "stamp.txt")
    result = build(ruleset, out)
    assert result.returncode == 0, result.stderr
    assert (outside / "notes.txt").read_bytes() == b"keep me"
    assert (outside / "stamp.txt").read_bytes() == b"keep me too"
    assert not (out / SHEET).is_symlink() and (out / SHEET).is_file()
    assert len(pypdf.PdfReader(out / SHEET).pages) == 1
    assert not (out / STAMP).is_symlink()
    assert (out / STAMP).read_bytes().startswith(b"towerpress stamp 1\ninputs ")


def test_a_link_in_place_of_the_stamps_folder_is_replaced_not_written_into(
        ruleset: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / f"{SHEET}.sha256").write_bytes(b"keep me")
    out = tmp_path / "build"
    out.mkdir()
    (out / ".inputs").symlink_to(outside, target_is_directory=True)
    result = build(ruleset, out)
    assert result.returncode == 0, result.stderr
    assert [p.name for p in outside.iterdir()] == [f"{SHEET}.sha256"]
    assert (outside / f"{SHEET}.sha256").read_bytes() == b"keep me"
    assert not (out / ".inputs").is_symlink() and (out / STAMP).is_file()


def test_an_output_link_outside_the_build_is_replaced_by_write_atomic(tmp_path: Path) -> None:
    """The rule for every output (``-o`` too), links that lead nowhere or to each other."""
    target = tmp_path / "target"
    target.write_bytes(b"keep me")
    for name, leads_to in (("a.pdf", target), ("b.pdf", tmp_path / "nowhere"),
                           ("c.pdf", tmp_path / "c.pdf")):
        (tmp_path / name).symlink_to(leads_to)
        write_atomic(tmp_path / name, b"%PDF-new")
        assert not (tmp_path / name).is_symlink()
        assert (tmp_path / name).read_bytes() == b"%PDF-new"
    assert target.read_bytes() == b"keep me"
    assert not (tmp_path / "nowhere").exists()


@pytest.mark.parametrize("damage", ["truncated", "one byte changed"])
def test_a_damaged_output_is_rendered_again_not_taken_as_unchanged(
        good: Path, ruleset: Path, tmp_path: Path, damage: str) -> None:
    """Its stamp hashed the inputs only: a PDF cut short by a full disk, or edited, was
    kept as it was."""
    out = copy_of(good, tmp_path)
    whole = (out / SHEET).read_bytes()
    if damage == "truncated":
        (out / SHEET).write_bytes(whole[: len(whole) // 2])
    else:
        middle = len(whole) // 2
        (out / SHEET).write_bytes(whole[:middle] + bytes([whole[middle] ^ 1]) + whole[middle + 1:])
    result = build(ruleset, out)
    assert result.returncode == 0, result.stderr
    assert headline(result).endswith("1 of 1 products to render (the others are unchanged)")
    assert re.fullmatch(rf"{re.escape(SHEET)}  +1  +\d+\.\d  rendered", sheet_row(result))
    assert (out / SHEET).read_bytes() == whole


def test_a_stamp_that_is_not_utf8_means_render_again(
        good: Path, ruleset: Path, tmp_path: Path) -> None:
    """It was an internal error (exit 1) at every later build, until the stamp was deleted."""
    out = copy_of(good, tmp_path)
    (out / STAMP).write_bytes(b"\xff\xfe")
    result = build(ruleset, out)
    assert (result.returncode, result.stderr) == (0, "")
    assert headline(result).endswith("1 of 1 products to render (the others are unchanged)")
    assert (out / STAMP).read_bytes() == (good / STAMP).read_bytes()


def test_an_intact_output_is_kept_and_said_unchanged(
        good: Path, ruleset: Path, tmp_path: Path) -> None:
    """The stamp's output hash does not make every build render again."""
    out = copy_of(good, tmp_path)
    written = (out / SHEET).stat().st_mtime_ns
    result = build(ruleset, out)
    assert (result.returncode, result.stderr) == (0, "")
    assert headline(result).endswith("0 of 1 products to render (the others are unchanged)")
    assert re.fullmatch(rf"{re.escape(SHEET)}  +1  +unchanged", sheet_row(result))
    assert result.stdout.splitlines()[-1].startswith("1 product: 0 rendered, 1 unchanged, in ")
    assert (out / SHEET).stat().st_mtime_ns == written


@pytest.mark.parametrize("text", [
    b"", b"\xff\xfe", b"towerpress stamp 1\n", b"towerpress stamp 1\ninputs zz\n",
    b"towerpress stamp 1\ninputs " + b"0" * 64 + b"\n" + b"0" * 64 + b" 1 ../../etc/passwd\n",
    b"towerpress stamp 1\ninputs " + b"0" * 64 + b"\n" + b"0" * 64 + b" 1 /etc/passwd\n",
    b"towerpress stamp 1\ninputs " + b"0" * 64 + b"\n" + b"0" * 64 + b" " + b"9" * 5000 + b" a\n",
    b"towerpress stamp 1\ninputs " + b"0" * 64 + b"\n" * 100_000,
])
def test_a_garbled_stamp_is_no_stamp(tmp_path: Path, text: bytes) -> None:
    """Not UTF-8, cut short, a name outside the build folder, a number too long to read,
    more than a stamp holds: each means "render again", never an error."""
    (tmp_path / "x.sha256").write_bytes(text)
    assert Stamp.read(tmp_path / "x.sha256") is None


def test_a_pipe_or_a_device_in_place_of_a_stamp_or_output_is_not_read(tmp_path: Path) -> None:
    """Reading one would hang the build (a pipe) or never end (``/dev/zero``)."""
    os.mkfifo(tmp_path / "pipe")
    (tmp_path / "zero").symlink_to("/dev/zero")
    for name in ("pipe", "zero"):
        assert Stamp.read(tmp_path / name) is None
        assert read_regular(tmp_path / name, 100) is None
        assert sha256_of(tmp_path / name) is None
    assert sha256_of(Path("/dev/zero")) is None


def test_an_empty_out_folder_is_refused_not_the_current_folder(tmp_path: Path) -> None:
    """``Path("")`` is the current folder: ``build --out ""`` built into it."""
    result = run("build", "--out", "", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr == ("towerpress: error: Invalid value for '--out': expected a "
                             "folder's path, got an empty one (see 'towerpress build --help')\n")
    assert list(tmp_path.iterdir()) == []
