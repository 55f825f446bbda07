"""Hostile content: files a stranger's ruleset could hold to hang, exhaust or crash the
loader, each refused with one line naming the file, the key and the bound (issue 27).

Attacks that would take the machine's memory or hang if their bound regressed run in a
process of their own, under a memory limit and a timeout, so that a regression fails the
test instead of the machine.
"""

from __future__ import annotations

import os
import re
import resource
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from generator.limits import LIMITS
from tests.commands import ROOT, run_here
from tests.content import edit

TABLES = Path("inverted-tower") / "tables"


def run_bounded(*args: str, env: dict[str, str] | None = None
                ) -> subprocess.CompletedProcess[str]:
    """``towerpress ARGS`` in a process of its own, with 1 GB of data memory and 60 s."""
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_DATA, (2**30, 2**30))

    return subprocess.run([sys.executable, "-m", "generator", *args], capture_output=True,
                          text=True, cwd=ROOT, check=False, timeout=60, preexec_fn=limit,
                          env={**os.environ, **(env or {})})


def one_line(result: subprocess.CompletedProcess[str]) -> str:
    """The one error line of a refused command (exit 2, no traceback)."""
    assert result.returncode == 2, result.stderr[-2000:]
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, lines[:5]
    return lines[0]


def append(path: Path, text: str) -> None:
    path.write_text(path.read_text(encoding="utf-8") + "\n" + text + "\n", encoding="utf-8")


def test_a_dotted_key_of_100000_parts_is_refused_before_it_is_parsed(
        content_copy: Path) -> None:
    """tomllib took 24 GB for this 200 KB line before the kernel killed validate."""
    append(content_copy / TABLES / "rolls.toml", "deep" + ".a" * 100_000 + " = 1")
    line = one_line(run_bounded("validate", "--content", str(content_copy)))
    assert "tables/rolls.toml: refused: a dotted key has more than the limit of 32 parts" in line
    assert "TOWERPRESS_MAX_KEY_PARTS" in line


def test_a_dotted_key_of_1000_parts_is_a_finding_not_a_recursion_error(
        content_copy: Path) -> None:
    append(content_copy / TABLES / "rolls.toml", "deep" + ".a" * 1000 + " = 1")
    assert "a dotted key has more than" in one_line(
        run_here("validate", "--content", str(content_copy)))


def test_dots_inside_strings_and_comments_are_not_key_parts(content_copy: Path) -> None:
    dots = "." * 100
    edit(content_copy / TABLES / "traps.toml", 'text = "The room then gives no treasure."',
         f'text = """\n{dots}\n""" # {dots}')
    edit(content_copy / TABLES / "traps.toml", 'name = "Crushing trap"',
         f"name = 'Crushing trap{dots}'")
    assert run_here("validate", "--content", str(content_copy)).returncode == 0


def test_arrays_nested_past_the_limit_are_refused(content_copy: Path) -> None:
    append(content_copy / TABLES / "rolls.toml", "nest = " + "[" * 40 + "]" * 40)
    assert "arrays or tables are nested more than the limit of 32 levels" in one_line(
        run_here("validate", "--content", str(content_copy)))


def test_the_parse_runs_under_a_memory_bound(content_copy: Path) -> None:
    """What the shape checks let through still cannot take more than the bound: 100,000
    numbers take some 5 MB to read, past a bound set to 1 MB."""
    append(content_copy / TABLES / "rolls.toml",
           "many = [" + ",".join(str(10_000 + i) for i in range(60_000)) + "]")
    line = one_line(run_bounded("validate", "--content", str(content_copy),
                                env={"TOWERPRESS_MAX_PARSE_MB": "1"}))
    assert "tables/rolls.toml: refused: reading it took more than the limit of 1 MB" in line


@pytest.mark.parametrize("command", ["validate", "list"])
def test_a_fifo_in_the_rules_is_refused_not_read(content_copy: Path, command: str) -> None:
    """Reading a pipe waited for a writer forever: validate, list and build hung."""
    os.mkfifo(content_copy / "inverted-tower" / "rules" / "02-x.md")
    line = one_line(run_bounded(command, "--content", str(content_copy)))
    assert "rules/02-x.md: refused: it is not a regular file (a pipe" in line


def test_a_device_node_in_the_tables_is_refused_not_read(content_copy: Path) -> None:
    """A copy of /dev/zero's node read forever, filling the memory."""
    try:
        os.mknod(content_copy / TABLES / "zero.toml", stat.S_IFCHR | 0o600, os.makedev(1, 5))
    except PermissionError:
        pytest.skip("making a device node needs root (CI runs as root)")
    line = one_line(run_bounded("validate", "--content", str(content_copy)))
    assert "tables/zero.toml: refused: it is not a regular file" in line


def test_a_file_over_the_size_bound_is_refused_unread(content_copy: Path) -> None:
    notes = content_copy / "inverted-tower" / "rules" / "02-notes.md"
    notes.write_text("# Notes\n\n" + "A line of prose.\n" * 40_000, encoding="utf-8")
    line = one_line(run_bounded("validate", "--content", str(content_copy)))
    assert ("rules/02-notes.md: refused: 664 KB, more than the limit of 512 KB for one "
            "content file (set TOWERPRESS_MAX_FILE_KB to raise it)") in line


def test_the_size_bound_is_a_setting(content_copy: Path,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOWERPRESS_MAX_FILE_KB", "16")
    result = run_here("validate", "--content", str(content_copy))
    assert "tower-of-choices/tables/catalogue.toml: refused: 30 KB, more than the limit " \
           "of 16 KB" in result.stderr
    monkeypatch.setenv("TOWERPRESS_MAX_FILE_KB", "lots")
    assert one_line(run_here("validate", "--content", str(content_copy))) == (
        "towerpress: error: TOWERPRESS_MAX_FILE_KB is 'lots'; expected a whole number of KB, "
        "at least 1 (default 512)")


def test_a_ruleset_over_the_total_bound_is_refused(content_copy: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOWERPRESS_MAX_RULESET_KB", "80")
    result = run_here("validate", "--content", str(content_copy))
    assert result.returncode == 2
    # Its size changes with every edit of its prose: only that it is over the bound counts.
    found = re.search(r"towerpress: error: content/tower-of-choices: refused: (\d+) KB, more "
                      r"than the limit of 80 KB for the text of one ruleset", result.stderr)
    assert found and int(found[1]) > 80, result.stderr


def test_a_table_of_too_many_rows_is_refused(content_copy: Path) -> None:
    """100,000 rows validated in seconds and laid out for minutes."""
    append(content_copy / TABLES / "rolls.toml", '[[spare]]\nroll = 1\n' * 2001)
    assert ("tables/rolls.toml: spare: refused: 2,001 rows, more than the limit of 2,000 "
            "rows for one table") in one_line(run_here("validate", "--content",
                                                       str(content_copy)))


def test_a_markdown_table_of_too_many_rows_is_refused(content_copy: Path) -> None:
    append(content_copy / "inverted-tower" / "rules" / "01-introduction.md",
           "| a | b |\n|---|---|\n" + "| 1 | 2 |\n" * 2001)
    assert "rules/01-introduction.md: refused: a table has more than the limit of 2,000 rows" \
        in one_line(run_here("validate", "--content", str(content_copy)))


def test_an_integer_of_5000_digits_is_a_finding(content_copy: Path) -> None:
    """int() refuses more than 4,300 digits with a ValueError that tomllib lets through:
    validate stopped as a bug (exit 1)."""
    append(content_copy / TABLES / "rolls.toml", "big = " + "9" * 5000)
    assert "tables/rolls.toml: malformed TOML: a number of thousands of digits" in one_line(
        run_here("validate", "--content", str(content_copy)))


def test_a_roll_of_5000_digits_is_a_finding(content_copy: Path) -> None:
    edit(content_copy / TABLES / "traps.toml", 'roll = "1-2"', f'roll = "1-{"9" * 5000}"')
    result = run_here("validate", "--content", str(content_copy))
    assert result.returncode == 2 and "internal error" not in result.stderr
    assert "tables/traps.toml: rows[0].roll: expected a face or range like" in result.stderr


def test_an_index_of_5000_digits_is_a_finding(content_copy: Path) -> None:
    append(content_copy / "inverted-tower" / "rules" / "01-introduction.md",
           f"{{{{ value: rolls.split.options[{'9' * 5000}].name }}}}")
    assert "rules/01-introduction.md" in one_line(
        run_here("validate", "--content", str(content_copy)))


def test_floors_of_5000_digits_is_one_line() -> None:
    assert one_line(run_here("log", "inverted-tower", "--floors", "9" * 5000)).startswith(
        "towerpress: error: --floors expects a whole number from 1 to")


def test_a_die_of_9999_faces_gives_short_lines(content_copy: Path) -> None:
    """Each uncovered face was listed: five lines of 59 KB."""
    edit(content_copy / TABLES / "rolls.toml", "faces = 6", "faces = 9999")
    result = run_here("validate", "--content", str(content_copy))
    assert result.returncode == 2
    assert "rows: faces 7-9999 of the d9999 are not covered by any row" in result.stderr
    assert max(map(len, result.stderr.splitlines())) < 200


def test_a_long_value_is_cut_in_its_line(content_copy: Path) -> None:
    edit(content_copy / TABLES / "traps.toml", 'roll = "1-2"', f'roll = "{"x" * 100_000}"')
    result = run_here("validate", "--content", str(content_copy))
    (line,) = (line for line in result.stderr.splitlines() if "rows[0].roll" in line)
    assert len(line) < 1100 and "characters ...]" in line
    assert line.endswith("'")  # the end of the value, after what was left out


def test_a_utf8_byte_order_mark_is_read_as_utf8(content_copy: Path) -> None:
    """A BOM made tomllib say 'Invalid statement (at line 1, column 1)'."""
    for name in (TABLES / "rolls.toml", Path("inverted-tower") / "rules" / "01-introduction.md"):
        path = content_copy / name
        path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    assert run_here("validate", "--content", str(content_copy)).returncode == 0


def test_a_file_that_is_not_utf8_says_where(content_copy: Path) -> None:
    path = content_copy / TABLES / "rolls.toml"
    path.write_bytes(path.read_bytes() + b"\n# caf\xe9\n")
    assert one_line(run_here("validate", "--content", str(content_copy))).endswith(
        "tables/rolls.toml: not UTF-8 text (byte " f"{path.stat().st_size - 2:,} is 0xe9)")


def test_every_bound_is_documented_in_the_readme() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for limit in LIMITS:
        assert f"`{limit.variable}`" in readme, limit.variable
        assert f"{limit.default:,}" in readme, limit.variable
