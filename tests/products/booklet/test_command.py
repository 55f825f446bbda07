"""``towerpress booklet`` and ``towerpress check`` as a user runs them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.commands import run, run_here
from tests.content import RULESETS


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Seed 7 of each ruleset with its odds (100 plays), and seeds 20-22 of The Inverted
    Tower in one run, without."""
    out = tmp_path_factory.mktemp("booklets")
    for ruleset_id in RULESETS:
        result = run("booklet", ruleset_id, "--seed", "7", "--odds", "100", "--format", "json",
                     "-o", str(out))
        assert result.returncode == 0, result.stderr
    result = run("booklet", "inverted-tower", "--seed", "20", "--count", "3", "--odds", "0",
                 "--format", "json", "-o", str(out))
    assert result.returncode == 0, result.stderr
    return out


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_a_booklet_is_written_and_checks(made: Path, ruleset_id: str) -> None:
    path = made / f"{ruleset_id}-7.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    assert (document["schema"], document["ruleset"], document["seed"]) == (1, ruleset_id, "7")
    assert document["profile"]["id"] == "balanced"  # the profile made for play
    odds = document["odds"]
    assert odds["runs"] == 100 and odds["as_written"]["profile"] == "as-written"
    result = run("check", str(path))
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith(f"{path}: ok ({ruleset_id}, seed 7, ")


def test_count_makes_consecutive_seeds_and_the_same_seed_the_same_bytes(
        made: Path, tmp_path: Path) -> None:
    names = sorted(p.name for p in made.glob("inverted-tower-2?.json"))
    assert names == ["inverted-tower-20.json", "inverted-tower-21.json",
                     "inverted-tower-22.json"]
    result = run("booklet", "inverted-tower", "--seed", "21", "--odds", "0", "--format", "json",
                 "-o", str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"wrote {tmp_path}/inverted-tower-21.json " \
        f"({len(json.loads((tmp_path / 'inverted-tower-21.json').read_text())['sections'])} " \
        "sections)\n"
    assert (tmp_path / "inverted-tower-21.json").read_bytes() == \
        (made / "inverted-tower-21.json").read_bytes()


def test_a_seed_that_a_file_name_cannot_hold_is_written_safely(tmp_path: Path) -> None:
    result = run("booklet", "tower-of-choices", "--seed", "../a b", "--odds", "0",
                 "--floors", "2", "--format", "json", "-o", str(tmp_path))
    assert result.returncode == 0, result.stderr
    (path,) = tmp_path.iterdir()
    assert path.name.startswith("tower-of-choices-_a_b-") and path.suffix == ".json"
    assert json.loads(path.read_text(encoding="utf-8"))["seed"] == "../a b"


def test_the_rules_as_written_are_one_flag_away(tmp_path: Path) -> None:
    result = run("booklet", "inverted-tower", "--seed", "3", "--profile", "as-written",
                 "--odds", "100", "--floors", "2", "--format", "json", "-o", str(tmp_path))
    assert result.returncode == 0, result.stderr
    document = json.loads((tmp_path / "inverted-tower-3.json").read_text(encoding="utf-8"))
    assert document["profile"]["id"] == "as-written"
    assert document["odds"]["as_written"] is None  # the profile is the rules as written


@pytest.mark.parametrize(("args", "message"), [
    (("--seed", "x", "--count", "2"), "--count above 1 needs an integer seed"),
    (("--seed", "1", "--profile", "easy"), "unknown profile 'easy'"),
    (("--seed", "1", "--floors", "0"), "expected a positive integer"),
    (("--seed", "", ), "expected an integer or non-empty text"),
    (("--seed", "1", "--paper", "a4", "--impose", "saddle"),
     "a booklet on a4 pages cannot be imposed for folding (expected --paper a5 or letter"),
    (("--seed", "1", "--format", "json", "--impose", "saddle"),
     "--impose saddle prints a PDF: use --format pdf or both"),
    (("--seed", "1", "--paper", "b5"), "Invalid value for '--paper'"),
])
def test_bad_options_get_one_line(args: tuple[str, ...], message: str, tmp_path: Path) -> None:
    result = run_here("booklet", "inverted-tower", *args, "-o", str(tmp_path))
    assert result.returncode == 2
    assert message in result.stderr and len(result.stderr.splitlines()) == 1, result.stderr
    assert not any(tmp_path.iterdir())


def test_check_lists_every_violation_with_its_code(made: Path, tmp_path: Path) -> None:
    document = json.loads((made / "inverted-tower-20.json").read_text(encoding="utf-8"))
    document["tapes"][0]["entries"][0][0] = 7
    document["sections"][0]["turn_to"][0]["section"] = 9999
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    result = run("check", str(path))
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert any(f"{path}: tape-value at " in line for line in lines), lines
    assert any(f"{path}: turn-to at section 1: turns to 9999" in line for line in lines), lines
    assert lines[-1].endswith("violations")
    report = json.loads(run("check", str(path), "--json").stdout)
    assert report["ok"] is False
    assert {"tape-value", "turn-to"} <= {v["code"] for v in report["violations"]}


@pytest.mark.parametrize(("text", "message"), [
    (None, "no such booklet file"),
    ("{not json", "not JSON"),
    ('{"schema": 2}', "not a TowerPress booklet of schema 1"),
    ("[1, 2]", "not a TowerPress booklet of schema 1"),
    ("[" * 100_000, "not a booklet (JSON nested too deep)"),
    ('{"schema": 1, "ruleset": "chess"}', "a booklet of ruleset 'chess', which the content"),
])
def test_check_refuses_what_is_not_a_booklet_in_one_line(
        text: str | None, message: str, tmp_path: Path) -> None:
    path = tmp_path / "b.json"
    if text is not None:
        path.write_text(text, encoding="utf-8")
    result = run_here("check", str(path))
    assert result.returncode == 2
    assert message in result.stderr and len(result.stderr.splitlines()) == 1, result.stderr
