"""The command line: exit codes and whole outputs, through its entry point (``main``); the
version and the README's commands in a process of their own, as a user runs them."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from generator import __version__
from tests.commands import ROOT, run, run_here
from tests.content import edit


def test_version() -> None:
    result = run("--version")  # the entry point itself, in a process of its own
    assert result.returncode == 0
    assert result.stdout == f"towerpress {__version__}\n"


def test_list_shows_rulesets_and_profiles() -> None:
    result = run_here("list")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "inverted-tower: The Inverted Tower"
    assert "  profile as-written (default): As written" in lines
    assert "  profile draft-4.5: Draft 4.5" in lines
    assert any(line.startswith("three-dice-dungeon: ") for line in lines)
    assert any(line.startswith("tower-of-choices: Tower of Choices") for line in lines)
    assert "  profile d6-scale: d6 scale" in lines


def test_validate_bundled() -> None:
    result = run_here("validate")
    assert result.returncode == 0, result.stderr
    assert [line.split(":")[0] for line in result.stdout.splitlines()] == [
        "inverted-tower",
        "three-dice-dungeon",
        "tower-of-choices",
    ]
    assert all(": ok (" in line for line in result.stdout.splitlines())
    assert result.stderr == ""


def test_validate_reports_every_problem_and_exits_2(content_copy: Path) -> None:
    edit(content_copy / "inverted-tower" / "ruleset.toml", 'language = "en"', "language = 1")
    edit(content_copy / "tower-of-choices" / "ruleset.toml", 'language = "en"', "language = 2")
    result = run_here("validate", "--content", str(content_copy))
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        "towerpress: error: content/inverted-tower/ruleset.toml: language: "
        "expected a string, got an integer 1",
        "towerpress: error: content/tower-of-choices/ruleset.toml: language: "
        "expected a string, got an integer 2",
        "towerpress: 2 problems in the content",
    ]
    assert "Traceback" not in result.stderr


def test_validate_checks_the_prose_as_the_rulebook_will(content_copy: Path) -> None:
    # It said ok, and the rulebook then failed on these.
    rolls = content_copy / "inverted-tower" / "rules" / "03-rolls.md"
    rolls.write_text(rolls.read_text(encoding="utf-8") + "\n\n<b>bold</b>\n", encoding="utf-8")
    intro = content_copy / "tower-of-choices" / "rules" / "01-introduction.md"
    intro.write_text(intro.read_text(encoding="utf-8") + "\n\n![x](/etc/passwd)\n",
                     encoding="utf-8")
    # A picture inside the folder that is no picture: the rulebook names it after layout.
    quick = content_copy / "three-dice-dungeon" / "quick-reference.md"
    quick.write_text(quick.read_text(encoding="utf-8") + "\n\n![map](rules/01-introduction.md)\n",
                     encoding="utf-8")
    result = run_here("validate", "--content", str(content_copy))
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        "towerpress: error: content/inverted-tower/rules/03-rolls.md: raw HTML is not allowed "
        "in rules prose: '<b>'",
        "towerpress: error: content/three-dice-dungeon/quick-reference.md: cannot use image "
        "'rules/01-introduction.md': it is not a picture that can be read (expected PNG, JPEG, "
        "GIF, WebP or SVG)",
        "towerpress: error: content/tower-of-choices/rules/01-introduction.md: refused image "
        "'/etc/passwd': not a file inside the content folder",
        "towerpress: 3 problems in the content",
    ]


def test_validate_missing_folder(tmp_path: Path) -> None:
    result = run_here("validate", "--content", str(tmp_path / "none"))
    assert result.returncode == 2
    assert (
        result.stderr == f"towerpress: error: content folder '{tmp_path / 'none'}' does not exist\n"
    )


def test_unknown_ruleset_and_profile() -> None:
    result = run_here("rulebook", "chess")
    assert result.returncode == 2
    assert result.stderr == (
        "towerpress: error: unknown ruleset 'chess' (expected one of: inverted-tower, "
        "three-dice-dungeon, tower-of-choices)\n"
    )
    result = run_here("rulebook", "inverted-tower", "--profile", "easy")
    assert result.returncode == 2
    assert result.stderr == (
        "towerpress: error: unknown profile 'easy' for inverted-tower "
        "(expected one of: as-written, balanced, draft-4.5)\n"
    )


def test_usage_errors_exit_2() -> None:
    result = run_here("rulebook", "inverted-tower", "--paper", "b5")
    assert result.returncode == 2
    assert "Invalid value for '--paper': 'b5' is not one of 'a4', 'letter', 'a5'." in result.stderr
    assert "Traceback" not in result.stderr
    assert run_here("frobnicate").returncode == 2


@pytest.mark.parametrize("args", [["list"], ["validate"]])
def test_commands_do_not_touch_the_build_folder(args: list[str], tmp_path: Path) -> None:
    result = run(*args, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("args", "target"),
    [
        (["cards", "inverted-tower", "--deck", "items", "-o", "{f}/x.pdf"], "{f}/x.pdf"),
        (["cards", "inverted-tower", "--deck", "items", "--png", "{f}/png"],
         "{f}/png/inverted-tower-items-1.png"),
        (["cards", "calibrate", "-o", "{f}/calibrate.pdf"], "{f}/calibrate.pdf"),
        (["build", "--out", "{f}/build"], "{f}/build"),
    ],
)
def test_an_output_that_cannot_be_written_gets_one_line(
    args: list[str], target: str, tmp_path: Path
) -> None:
    in_the_way = tmp_path / "notes.txt"  # where the output's folder should be
    in_the_way.write_text("keep me")
    result = run_here(*(a.format(f=in_the_way) for a in args))
    assert result.returncode == 2
    assert result.stderr == (f"towerpress: error: cannot write {target.format(f=in_the_way)}: "
                             f"{in_the_way} is a file, not a folder\n")
    assert result.stdout == ""
    assert in_the_way.read_text() == "keep me"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


def test_an_output_link_is_replaced_not_written_through_and_a_device_is_refused(
        tmp_path: Path) -> None:
    """A link is replaced by the file, the file it led to left as it was: written through,
    a link a downloaded repository left in build/ overwrote anything (issue 27)."""
    target = tmp_path / "kept" / "sheet.pdf"
    target.parent.mkdir()
    target.write_bytes(b"old")
    link = tmp_path / "sheet.pdf"
    link.symlink_to(target)
    result = run_here("sheet", "inverted-tower", "-o", str(link))
    assert result.returncode == 0, result.stderr
    assert not link.is_symlink() and link.read_bytes().startswith(b"%PDF")
    assert target.read_bytes() == b"old"
    result = run_here("sheet", "inverted-tower", "-o", "/dev/null")
    assert result.returncode == 2
    assert result.stderr == ("towerpress: error: cannot write /dev/null: it is not a regular "
                             "file (a device or a pipe); expected a file's path\n")


RUNS = "Invalid value for '--runs': expected a positive integer up to 1,000,000"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--runs", "0"], f"{RUNS}, got '0'"),
        (["--runs", "x"], f"{RUNS}, got 'x'"),
        (["--runs", "2.5"], f"{RUNS}, got '2.5'"),
        (["--seed", ""], "Invalid value for '--seed': expected an integer or non-empty text"),
        (["--seed", "   "], "Invalid value for '--seed': expected an integer or non-empty text"),
        (["--seed", "9" * 5000],
         "Invalid value for '--seed': expected at most 200 characters, got 5000"),
        (["--runs", "2000000"], f"{RUNS}, got '2000000'"),
        (["--floors", "100000000"],
         "Invalid value for '--floors': expected a positive integer up to 999, got "),
        (
            ["--profile", "easy"],
            "unknown profile 'easy' for inverted-tower (expected one of: as-written, balanced, "
            "draft-4.5)",
        ),
    ],
)
def test_simulate_bad_arguments_one_line(args: list[str], message: str) -> None:
    base = {"--runs": "10", "--seed": "1"}
    for key, value in zip(args[::2], args[1::2], strict=True):
        base[key] = value
    flat = [item for pair in base.items() for item in pair]
    result = run_here("simulate", "inverted-tower", *flat)
    assert result.returncode == 2
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1, result.stderr
    assert result.stderr.startswith("towerpress: error: ")
    assert message in result.stderr


@pytest.mark.parametrize("ruleset_id", ["inverted-tower", "three-dice-dungeon", "tower-of-choices"])
def test_simulate_json_is_one_object_and_repeatable(ruleset_id: str) -> None:
    import json

    args = ("simulate", ruleset_id, "--runs", "40", "--seed", "abc", "--floors", "2", "--json")
    first = run_here(*args)
    assert first.returncode == 0, first.stderr
    report = json.loads(first.stdout)
    assert {"ruleset", "profile", "seed", "runs", "survival", "won", "mean_depth", "deaths"} <= set(
        report
    )
    assert report["ruleset"] == ruleset_id and report["runs"] == 40 and report["seed"] == "abc"
    assert report["survival"][0] == {
        "depth": 1,
        "reached": 1.0,
        "ci95": report["survival"][0]["ci95"],
    }
    reached = [row["reached"] for row in report["survival"]]
    assert reached == sorted(reached, reverse=True)
    assert sum(report["deaths"].values()) <= 40
    assert run_here(*args).stdout == first.stdout


def test_odds_prints_exact_fractions_and_rejects_bad_values() -> None:
    result = run_here("odds", "inverted-tower", "hit", "attr=1", "floor=1", "daggers=0")
    assert result.returncode == 0, result.stderr
    assert "P(hit) without daggers: 1/3 = 0.333333" in result.stdout
    bad = run_here("odds", "inverted-tower", "hit", "attr=x")
    assert bad.returncode == 2
    assert bad.stderr == "towerpress: error: odds hit: attr must be an integer, got 'x'\n"
    whole = run_here("odds", "tower-of-choices", "key-numbers")
    assert whole.returncode == 0, whole.stderr
    assert whole.stdout.startswith("Tower of Choices, profile as-written: key-numbers\n")
    assert "approach skill with no cards in the deck: 0 = 0.000000\n" in whole.stdout
    listing = run_here("odds", "tower-of-choices")
    assert "(-1 to 60, default -1)" in listing.stdout
    unknown = run_here("odds", "inverted-tower", "nope")
    assert unknown.returncode == 2
    assert unknown.stderr.startswith(
        "towerpress: error: unknown odds query 'nope' for inverted-tower"
    )
    # Values that do not go together, or one given twice, are refused, not quietly changed.
    for args, message in (
        (["fight", "hp=10", "max_hp=5"], "fight: max_hp must be at least hp, got hp=10 and "
                                         "max_hp=5"),
        (["fight", "elites=3", "monsters=2"], "fight: elites must be at most monsters"),
        (["hit", "attr=1", "attr=2"], "hit: attr is given twice (give it once)"),
    ):
        refused = run_here("odds", "inverted-tower", *args)
        assert refused.returncode == 2
        assert refused.stderr.startswith(f"towerpress: error: odds {message}"), refused.stderr
    # A default follows what was typed: Max HP is at least the HP given.
    alone = run_here("odds", "inverted-tower", "fight", "hp=8", "elites=3")
    assert alone.returncode == 0, alone.stderr
    assert " monsters=3 elites=3 hp=8 max_hp=8 " in alone.stdout.splitlines()[0]


def test_control_characters_from_content_are_spelt_out(content_copy: Path) -> None:
    """A file name or TOML key may hold a terminal's escape sequence: printed raw it would
    retitle the terminal or hide the line; the line shows it instead."""
    tables = content_copy / "inverted-tower" / "tables"
    (tables / "\x1b]0;PWNED\x07evil.toml").write_text("a = 1\n", encoding="utf-8")
    edit(content_copy / "inverted-tower" / "ruleset.toml", "\n[[credits]]",
         '\n"\\u202eyek" = 1\n\n[[credits]]')
    result = run_here("validate", "--content", str(content_copy))
    assert result.returncode == 2
    assert not any(c in result.stderr for c in "\x1b\x07\u202e")
    lines = result.stderr.splitlines()
    assert "tables/\\x1b]0;PWNED\\x07evil.toml: unknown tables file" in result.stderr
    assert any("\\u202eyek: unknown key" in line for line in lines), lines


@pytest.mark.parametrize("command", [
    ["sheet", "inverted-tower"], ["rulebook", "inverted-tower"],
    ["cards", "inverted-tower", "--deck", "items"],
])
def test_an_output_among_the_inputs_is_refused(content_copy: Path, command: list[str]) -> None:
    """-o naming a content file replaced it with a PDF."""
    target = content_copy / "inverted-tower" / "ruleset.toml"
    before = target.read_bytes()
    result = run_here(*command, "--content", str(content_copy), "-o", str(target))
    assert result.returncode == 2
    assert result.stderr == (
        f"towerpress: error: cannot write {target}: it is inside "
        f"{content_copy / 'inverted-tower'}, which the products are made from (expected a "
        "path outside it)\n")
    assert target.read_bytes() == before
    # Another ruleset's folder of the same content is as much an input.
    other = content_copy / "tower-of-choices" / "ruleset.toml"
    result = run_here(*command, "--content", str(content_copy), "-o", str(other))
    assert result.returncode == 2 and "which the products are made from" in result.stderr
    result = run_here("build", "--content", str(content_copy),
                 "--out", str(content_copy / "inverted-tower" / "out"))
    assert result.returncode == 2 and "which the products are made from" in result.stderr


def test_readme_card_commands_run(tmp_path: Path) -> None:
    """Every `towerpress cards` line of the README runs as written (one combined --png with
    sheet options, which --png refuses), writing where it says, under build/."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    lines = [line.split("#")[0].split() for line in readme.splitlines()
             if line.startswith(".venv/bin/towerpress cards ")]
    assert len(lines) >= 4
    for words in lines:
        result = run(*shlex.split(" ".join(words[1:])), cwd=tmp_path)
        assert result.returncode == 0, (words, result.stderr)
        assert result.stderr == ""
        written = [Path(line.split()[1].rstrip(":")) for line in result.stdout.splitlines()
                   if line.startswith("wrote ")]
        assert written and all((tmp_path / p).is_file() for p in written), result.stdout
        assert all(p.parts[0] == "build" for p in written)
