"""Fuzzing: the bundled content's own files, mutated, and the command line's arguments,
drawn from values that have broken programs before. No input may give a traceback, an
internal error (exit 1) or a hang: a user's mistake is one line and exit 2.

Hypothesis runs derandomized, so that each run tries the same inputs and a failure is
seen every time; a failure prints the input that gave it.
"""

from __future__ import annotations

import shutil
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import click
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.cli.main import cli
from tests.commands import run_here
from tests.content import RULESETS

BUNDLED = Path(__file__).resolve().parents[2] / "content"
RULESET = BUNDLED / "inverted-tower"
FILES = sorted(str(p.relative_to(RULESET)) for p in RULESET.rglob("*") if p.is_file())

# What a mutation writes into a file: the characters TOML and Markdown give a meaning to,
# controls, marks that reorder text, and the values that broke the loader before.
PIECES = st.sampled_from([
    "[", "]", "[[", "]]", "{", "}", ".", "=", ",", '"', "'", '"""', "'''", "#", "\\", "\n",
    "|", "{{", "}}", "{{ value: ", "{{ table: ", "{{ ruling: ", "![x](", ")", "<svg>", "`",
    "\x00", "\x1b", "\ufeff", "\u202e", "\ud7ff", "é", "9" * 5000, "-1", "1e999", "nan",
    "inf", "true", "1979-05-27", "a" + ".a" * 40, "[" * 40, "| a |\n" * 3,
])
TEXT = st.lists(PIECES | st.text(max_size=8), min_size=1, max_size=6).map("".join)


@st.composite
def mutation(draw: st.DrawFn, original: bytes) -> bytes:
    """``original`` with a slice replaced, cut off, repeated or turned into bad bytes."""
    size = len(original)
    start = draw(st.integers(0, size))
    end = draw(st.integers(start, min(size, start + 200)))
    kind = draw(st.sampled_from(["replace", "truncate", "repeat", "bytes"]))
    if kind == "truncate":
        return original[:start]
    if kind == "repeat":
        return original[:end] + original[start:end] * draw(st.integers(2, 50)) + original[end:]
    if kind == "bytes":
        return original[:start] + draw(st.binary(min_size=1, max_size=8)) + original[end:]
    return original[:start] + draw(TEXT).encode("utf-8", "surrogatepass") + original[end:]


@pytest.fixture(scope="module")
def ruleset_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("fuzz") / "inverted-tower"
    shutil.copytree(RULESET, root)
    return root


def validated(root: Path) -> None:
    """``validate`` of ``root``: exit 0 or 2, one line per problem, no internal error."""
    result = run_here("validate", "--content", str(root))
    assert result.returncode in (0, 2), result.stderr[-3000:]
    assert "internal error" not in result.stderr and "Traceback" not in result.stderr


@settings(max_examples=60, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data(), name=st.sampled_from(FILES))
def test_mutated_content_files_are_findings_never_crashes(
        ruleset_copy: Path, data: st.DataObject, name: str) -> None:
    path = ruleset_copy / name
    original = (RULESET / name).read_bytes()
    path.write_bytes(data.draw(mutation(original)))
    try:
        validated(ruleset_copy)
    finally:
        path.write_bytes(original)


# --- The command line -------------------------------------------------------------------

# Values for options and arguments. No absolute path a command could write to: the
# commands run in a folder of their own, and a path here names something in it or a
# thing that cannot be written.
VALUES = st.sampled_from([
    "", " ", "-", "--", "0", "-1", "1", "3", "9" * 5000, "1e309", "nan", "inf", "1.5",
    "0x10", "1_000", "\x00", "\x1b[2J", "é", "\u202e", "a" * 300, "/dev/zero", "/dev/null",
    "missing/x.json", "x.json", "out", "inverted-tower", "tower-of-choices", "a5", "a4",
    "letter", "long", "short", "pdf", "json", "html", "both", "saddle", "as-written", "1234",
]) | st.text(max_size=12)
SKIPPED = {"--watch", "--help", "-h", "--version"}  # --watch waits for edits by design
SECONDS = 1.5  # a command still at work after this has taken its arguments
REPEAT = 0.05  # seconds between the alarms after the first (at_most)


class AtWork(BaseException):
    """The command was still at work (rendering, playing games) when its time was up.
    Not an Exception, so that the command's own handlers let it through."""


@contextmanager
def at_most(seconds: float) -> Iterator[None]:
    """Raise :class:`AtWork` after ``seconds`` of wall time: a build waits on its
    workers, spending none of this process's CPU time."""
    def up(_signum: int, _frame: object) -> None:
        raise AtWork

    previous = signal.signal(signal.SIGALRM, up)
    # Again every REPEAT seconds: an alarm that comes while Python runs a garbage
    # collector's or a finaliser's callback is swallowed there ("Exception ignored in").
    signal.setitimer(signal.ITIMER_REAL, seconds, REPEAT)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _options(name: str) -> tuple[list[tuple[str, bool]], int]:
    """A command's options (each with whether it is a flag) and how many arguments."""
    with click.Context(cli) as ctx:
        command = cli.get_command(ctx, name)
    assert command is not None
    options, arguments = [], 0
    for param in command.params:
        if isinstance(param, click.Option):
            options += [(o, param.is_flag) for o in param.opts if o not in SKIPPED]
        else:
            arguments += 1
    return options, arguments


@st.composite
def command_line(draw: st.DrawFn) -> list[str]:
    with click.Context(cli) as ctx:
        name = draw(st.sampled_from(cli.list_commands(ctx)))
    options, arguments = _options(name)
    argv = [name] + [draw(st.sampled_from(RULESETS) | VALUES) for _ in range(arguments)]
    for option, flag in draw(st.lists(st.sampled_from(options), max_size=5)) if options else []:
        argv += [option] if flag else [option, draw(VALUES)]
    return argv


@pytest.fixture
def own_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.json").write_text('{"ruleset": "inverted-tower"}', encoding="utf-8")
    yield tmp_path


@settings(max_examples=50, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(argv=command_line())
@pytest.mark.usefixtures("own_folder")
def test_command_lines_are_one_line_never_crashes(argv: list[str]) -> None:
    try:
        with at_most(SECONDS):
            result = run_here(*argv)
    except AtWork:
        return  # its arguments were taken: it is rendering, or playing games
    if f"{AtWork.__module__}.AtWork" in result.stderr:
        return  # the same, the first alarm swallowed by a callback (at_most) and printed
    assert result.returncode in (0, 2), (argv, result.stderr[-3000:])
    assert "internal error" not in result.stderr and "Traceback" not in result.stderr, argv
