"""``towerpress build``: every product planned once, unchanged products skipped."""

from __future__ import annotations

from pathlib import Path

import pypdf
import pytest

from generator import build
from generator.model.loader import load_content
from tests.conftest import edit


def test_every_product_is_planned_once(tmp_path: Path) -> None:
    content = load_content()
    jobs = build.plan(content, tmp_path)
    names = sorted(job.out.name for job in jobs)
    assert len(names) == len(set(names))
    for ruleset_id in content.rulesets:
        for paper in ("a4", "letter", "a5"):
            assert f"{ruleset_id}-rulebook-{paper}.pdf" in names
            assert f"{ruleset_id}-sheet-{paper}.pdf" in names
            assert f"{ruleset_id}-log-{paper}.pdf" in names
        for paper in ("a4", "letter"):
            assert f"{ruleset_id}-cards-{paper}-poker.pdf" in names


def test_unchanged_products_are_skipped(
    content_copy: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(build, "PRODUCT_MODULES", ("generator.render.rulebook_build",))
    folder = content_copy / "tower-of-choices"
    out = tmp_path / "out"
    lines = list(build.build_all(load_content(folder), out))
    assert lines[0].startswith("content ok: tower-of-choices; 3 of 3 products to render")
    assert len(lines) == 4
    for paper in ("a4", "letter", "a5"):
        assert len(pypdf.PdfReader(out / f"tower-of-choices-rulebook-{paper}.pdf").pages) > 10
    again = build.build_all(load_content(folder), out)
    assert next(again).startswith("content ok: tower-of-choices; 0 of 3 products")
    edit(folder / "tables" / "checks.toml", "draw = 2", "draw = 3")
    changed = build.build_all(load_content(folder), out)
    assert next(changed).startswith("content ok: tower-of-choices; 3 of 3 products")
