"""``towerpress sheet``, ``towerpress log`` and the sheets in ``towerpress build``."""

from __future__ import annotations

from pathlib import Path

import pypdf
import pytest

from generator.model.loader import Content
from generator.model.paper import PAPERS
from generator.products.sheets.product import SHEETS
from generator.rulesets import load_content
from tests.commands import run, run_here


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["sheet", "nope"], "unknown ruleset 'nope' (expected one of: inverted-tower, "
                            "three-dice-dungeon, tower-of-choices)"),
        (["sheet", "inverted-tower", "--paper", "b5"],
         "unknown paper 'b5' (expected one of: a4, letter, a5)"),
        (["log", "inverted-tower", "--paper", "A4"],
         "unknown paper 'A4' (expected one of: a4, letter, a5)"),
        (["log", "inverted-tower", "--floors", "0"],
         "--floors expects a whole number from 1 to 99, got '0'"),
        (["log", "tower-of-choices", "--floors", "three"],
         "--floors expects a whole number from 1 to 99, got 'three'"),
        (["log", "three-dice-dungeon", "--floors", "100"],
         "--floors expects a whole number from 1 to 99, got '100'"),
        (["log", "inverted-tower", "--floors", "\u00b9"],
         "--floors expects a whole number from 1 to 99, got '\u00b9'"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(args: list[str], message: str) -> None:
    result = run_here(*args)
    assert result.returncode == 2
    assert result.stderr == f"towerpress: error: {message}\n"
    assert result.stdout == ""


def test_a_ruleset_without_a_log_says_so(content_copy: Path, tmp_path: Path) -> None:
    (content_copy / "tower-of-choices" / "sheets" / "log.toml").unlink()
    result = run_here("log", "tower-of-choices", "--content", str(content_copy),
                 "-o", str(tmp_path / "x.pdf"))
    assert result.returncode == 2
    assert result.stderr == (
        "towerpress: error: tower-of-choices has no log (expected "
        "content/tower-of-choices/sheets/log.toml with kind = 'log')\n"
    )
    assert not (tmp_path / "x.pdf").exists()


def test_log_command_writes_the_floors_asked_for(tmp_path: Path) -> None:
    out = tmp_path / "log.pdf"
    result = run_here("log", "inverted-tower", "--floors", "1", "--paper", "a5", "-o", str(out))
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"wrote {out} (1 page)\n"
    names = {n for n, f in (pypdf.PdfReader(out).get_fields() or {}).items() if "/FT" in f}
    assert "floor1.room12.boss" in names
    assert not any(n.startswith("floor2.") for n in names)


def test_sheet_command_default_output(tmp_path: Path) -> None:
    result = run("sheet", "tower-of-choices", "--paper", "letter", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    out = tmp_path / "build" / "tower-of-choices-sheet-letter.pdf"
    assert result.stdout == f"wrote {Path('build') / out.name} (1 page)\n"
    assert pypdf.PdfReader(out).get_fields()


def test_build_plans_every_sheet_and_log_in_every_paper(content: Content, tmp_path: Path) -> None:
    jobs = SHEETS.plan(content, tmp_path)
    expected = {
        tmp_path / f"{rid}-{kind}-{paper}.pdf"
        for rid in content.rulesets
        for kind in ("sheet", "log")
        for paper in PAPERS
    }
    assert {job.out for job in jobs} == expected
    assert all(job.product == SHEETS.name for job in jobs)


def test_build_runs_a_job(tmp_path: Path) -> None:
    content = load_content()
    job = next(
        j for j in SHEETS.plan(content, tmp_path)
        if j.ruleset == "tower-of-choices" and j.options.kind == "sheet"
        and j.options.paper == "a5"
    )
    line = SHEETS.write(content.ruleset(job.ruleset), job.options, job.out)
    count = len(pypdf.PdfReader(job.out).pages)
    assert line == f"wrote {job.out} ({count} page{'s' if count != 1 else ''})"
