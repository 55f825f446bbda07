"""A build that is stopped (``kill``, ``timeout``, a cancelled CI job) stops: no worker
process is left waiting forever, no copy of the fonts is left in the temporary folder,
and no half-written product."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

TOWERPRESS = Path(sys.executable).with_name("towerpress")


def stat(pid: int | str) -> list[str] | None:
    """A process's state and parent, then the rest of /proc/PID/stat; None once it ended."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def children(pid: int) -> list[int]:
    found = []
    for folder in Path("/proc").glob("[0-9]*"):
        fields = stat(folder.name)
        if fields is not None and int(fields[1]) == pid and fields[0] != "Z":
            found.append(int(folder.name))
    return found


def running(pids: list[int]) -> list[int]:
    return [pid for pid in pids if (fields := stat(pid)) is not None and fields[0] != "Z"]


def started_build(tmp_path: Path) -> tuple[subprocess.Popen[str], list[int], Path]:
    """A ``towerpress build --force`` whose two workers are rendering, with its own
    temporary folder, where the workers' WeasyPrint copies the fonts.  WeasyPrint itself
    is imported by the build before they fork: a worker that imported it would leave
    behind, when stopped, the files that finding its libraries makes there."""
    temp = tmp_path / "tmp"
    temp.mkdir()
    build = subprocess.Popen(
        [str(TOWERPRESS), "build", "--force", "--out", str(tmp_path / "build")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "TMPDIR": str(temp)}, start_new_session=True)
    assert build.stdout is not None
    assert "content ok" in build.stdout.readline()
    deadline = time.monotonic() + 30
    while len(children(build.pid)) < 2 or not list(temp.glob("towerpress-fonts-*")):
        assert time.monotonic() < deadline, "the workers did not start"
        time.sleep(0.1)
    return build, children(build.pid), temp


def gone(pids: list[int], within: float) -> bool:
    deadline = time.monotonic() + within
    while running(pids):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_sigterm_stops_a_build_and_its_workers_at_once(tmp_path: Path) -> None:
    build, workers, temp = started_build(tmp_path)
    start = time.monotonic()
    build.send_signal(signal.SIGTERM)
    _, err = build.communicate(timeout=60)
    assert time.monotonic() - start < 5  # not after the products still queued
    assert build.returncode == 143 and err.strip() == "towerpress: terminated"
    assert gone(workers, within=5)
    assert list(temp.iterdir()) == []
    assert [p.name for p in (tmp_path / "build").iterdir() if p.name.startswith(".")] == []


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_workers_leave_when_their_build_is_killed(tmp_path: Path) -> None:
    build, workers, temp = started_build(tmp_path)
    build.kill()  # SIGKILL: the build cannot tell its workers
    build.communicate(timeout=60)
    assert gone(workers, within=10)
    assert list(temp.iterdir()) == []


# Run before the code under test: the stop comes the moment a folder is made in the
# temporary folder.  That is when a build's worker was stopped in CI, and WeasyPrint's
# copies of the fonts were left behind: the folder was made, but its name not yet kept.
STOP_AS_A_FOLDER_IS_MADE = """
import os, signal, sys
real_mkdir = os.mkdir
def mkdir(path, *args, **kwargs):
    real_mkdir(path, *args, **kwargs)
    if os.fspath(path).startswith(os.environ["TMPDIR"] + os.sep):
        os.kill(os.getpid(), signal.SIGTERM)
os.mkdir = mkdir
"""


# Sends the stop from inside the removal of the fonts, as the job ends.
STOP_AS_THE_FONTS_ARE_REMOVED = """
import os, shutil, signal, sys
real_rmtree = shutil.rmtree
def rmtree(path, *args, **kwargs):
    os.kill(os.getpid(), signal.SIGTERM)
    real_rmtree(path, *args, **kwargs)
shutil.rmtree = rmtree
"""

PRINT_CARDS = ("from generator.cli.main import main\n"
               "main(['cards', 'inverted-tower', '--deck', 'items', '-o', sys.argv[1]])\n")


def stopped(tmp_path: Path, stop: str, code: str) -> tuple[subprocess.CompletedProcess[str], Path]:
    """``code`` run after ``stop`` in a fresh Python, with its own temporary folder; the
    path ``tmp_path/cards.pdf`` is its first argument."""
    temp = tmp_path / "tmp"
    temp.mkdir()
    run = subprocess.run(
        [sys.executable, "-c", stop + code, str(tmp_path / "cards.pdf")],
        capture_output=True, text=True, timeout=120,
        env={**os.environ, "TMPDIR": str(temp), "PYTHONDONTWRITEBYTECODE": "1"})
    return run, temp


def test_a_worker_stopped_as_it_makes_its_font_folder_removes_it(tmp_path: Path) -> None:
    run, temp = stopped(tmp_path, STOP_AS_A_FOLDER_IS_MADE, (
        "from generator.render.parallel import follow_parent\n"
        "follow_parent(os.getppid())\n"
        "from generator.render.pdf import register_fonts\n"
        "register_fonts()\n"
        "sys.exit('the worker was not stopped')\n"))
    assert run.returncode == 143, run.stderr
    assert list(temp.iterdir()) == []


def test_towerpress_stopped_as_it_makes_its_font_folder_removes_it(tmp_path: Path) -> None:
    run, temp = stopped(tmp_path, STOP_AS_A_FOLDER_IS_MADE, PRINT_CARDS)
    assert (run.returncode, run.stderr.strip()) == (143, "towerpress: terminated")
    assert list(temp.iterdir()) == []
    assert not (tmp_path / "cards.pdf").exists()


def test_a_stop_while_the_fonts_are_removed_does_not_cut_it_short(tmp_path: Path) -> None:
    """A stop that comes as the job ends, while the exit handlers remove the fonts (here
    sent by the removal itself), is ignored: the folder goes, and the job's exit stands."""
    run, temp = stopped(tmp_path, STOP_AS_THE_FONTS_ARE_REMOVED, PRINT_CARDS)
    assert (run.returncode, run.stderr) == (0, ""), run.stderr
    assert run.stdout.startswith("wrote ")
    assert list(temp.iterdir()) == []


def ended(command: subprocess.Popen[str]) -> tuple[str, str]:
    """``command``'s output once it and every process holding its output have ended; if
    they have not within 60 s, which of its session are left, and in what state."""
    try:
        return command.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        left = subprocess.run(["ps", "-o", "pid,ppid,stat,wchan:20,args", "-s",
                               str(command.pid)], capture_output=True, text=True).stdout
        os.killpg(command.pid, signal.SIGKILL)
        command.communicate()
        raise AssertionError(f"still running after 60 s:\n{left}") from None


def started_booklet(tmp_path: Path) -> tuple[subprocess.Popen[str], list[int]]:
    """``towerpress booklet`` with a million plays for its odds, once its two workers play."""
    booklet = subprocess.Popen(
        [str(TOWERPRESS), "booklet", "inverted-tower", "--seed", "1", "--odds", "1000000",
         "--format", "json", "-o", str(tmp_path / "booklets")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.monotonic() + 30
    while len(children(booklet.pid)) < 2:
        assert time.monotonic() < deadline, "the odds' workers did not start"
        time.sleep(0.1)
    return booklet, children(booklet.pid)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
@pytest.mark.parametrize(("stop", "code", "said"), [(signal.SIGTERM, 143, "terminated"),
                                                   (signal.SIGINT, 130, "aborted")])
def test_a_stop_during_a_booklets_odds_stops_its_workers_and_writes_nothing(
        tmp_path: Path, stop: signal.Signals, code: int, said: str) -> None:
    booklet, workers = started_booklet(tmp_path)
    start = time.monotonic()
    booklet.send_signal(stop)
    _, err = ended(booklet)
    assert time.monotonic() - start < 5  # not after the plays still queued
    # The one line alone: click put a blank line before "aborted" (issue 27).
    assert booklet.returncode == code and err == f"towerpress: {said}\n", err
    assert gone(workers, within=5)
    assert not (tmp_path / "booklets").exists()


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_a_worker_killed_from_outside_is_one_line_not_an_internal_error(
        tmp_path: Path) -> None:
    """As the kernel's out-of-memory killer ends a process: the pool breaks, and said
    so as a bug (BrokenProcessPool, exit 1)."""
    booklet, workers = started_booklet(tmp_path)
    os.kill(workers[0], signal.SIGKILL)
    _, err = ended(booklet)
    assert booklet.returncode == 2, err
    assert err == ("towerpress: error: a worker process ended before its work was done "
                   "(it was killed, or the system ran out of memory)\n")
    assert gone(workers, within=10)
    assert not (tmp_path / "booklets").exists()


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_the_odds_workers_leave_when_their_booklet_is_killed(tmp_path: Path) -> None:
    booklet, workers = started_booklet(tmp_path)
    booklet.kill()
    booklet.communicate(timeout=60)
    assert gone(workers, within=10)


ORPHANED_LOCK = """
import multiprocessing, os, time
from generator.workers import worker_pool
try:
    with worker_pool(2, multiprocessing.get_context("fork")) as pool:
        pool.submit(time.sleep, 600)
        while len(multiprocessing.active_children()) < 2:
            time.sleep(0.05)
        # What a stop leaves when it comes between a `with` taking the pool's lock and
        # the block that gives it back (workers._stop): the lock taken, and no owner.
        pool._shutdown_lock.acquire()
        raise KeyboardInterrupt
except KeyboardInterrupt:
    print("stopped, workers left:", len(multiprocessing.active_children()), flush=True)
os._exit(0)  # as the command leaves (cli/main.py leave): the pool's thread waits on
"""


def test_a_stop_that_leaves_the_pools_lock_taken_still_ends_its_workers() -> None:
    """The shutdown waited on the lock for ever, its workers still at work."""
    run = subprocess.run([sys.executable, "-c", ORPHANED_LOCK], capture_output=True,
                         text=True, timeout=60)
    assert run.stdout.strip() == "stopped, workers left: 0", run.stderr
