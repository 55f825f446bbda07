"""``towerpress build``: every product planned once, unchanged products skipped."""

from __future__ import annotations

from pathlib import Path

import pypdf
import pytest

from generator import pipeline
from generator.products.sheets.product import SHEETS
from generator.rulesets import load_content
from tests.content import edit


def test_every_product_is_planned_once(tmp_path: Path) -> None:
    content = load_content()
    jobs = pipeline.plan(content, tmp_path)
    names = sorted(job.out.name for job in jobs)
    assert len(names) == len(set(names))
    for ruleset_id in content.rulesets:
        for paper in ("a4", "letter", "a5"):
            assert f"{ruleset_id}-rulebook-{paper}.pdf" in names
            assert f"{ruleset_id}-sheet-{paper}.pdf" in names
            assert f"{ruleset_id}-log-{paper}.pdf" in names
        for paper in ("a4", "letter"):
            assert f"{ruleset_id}-cards-{paper}-poker.pdf" in names
        # A sample booklet (written with its JSON and imposed beside it), in booklets/.
        assert tmp_path / "booklets" / f"{ruleset_id}-1234.pdf" in {job.out for job in jobs}


def test_unchanged_products_are_skipped(
    content_copy: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The sheets: the products quickest to render (a rulebook takes five times as long).
    monkeypatch.setattr(pipeline, "PRODUCTS", (SHEETS,))
    folder = content_copy / "tower-of-choices"
    out = tmp_path / "out"
    plan = pipeline.prepare(load_content(folder), out)
    assert plan.headline.startswith("content ok: tower-of-choices; 6 of 6 products to render")
    built = list(plan.render())
    assert len(built) == 6 and all(b.rendered for b in built)
    for b in built:
        # The stamp's page count, shown in the build's table, is the PDF's.
        (output,) = b.outputs
        assert output.pages == len(pypdf.PdfReader(b.job.out).pages) > 0
    again = pipeline.prepare(load_content(folder), out)
    assert again.headline.startswith("content ok: tower-of-choices; 0 of 6 products")
    # What the stamps say of the files is what the render wrote.
    assert {b.job.out: b.outputs for b in again.unchanged()} == {b.job.out: b.outputs
                                                                for b in built}
    edit(folder / "tables" / "checks.toml", "draw = 2", "draw = 3")
    changed = pipeline.prepare(load_content(folder), out)
    assert changed.headline.startswith("content ok: tower-of-choices; 6 of 6 products")


def test_outputs_get_the_users_file_mode(tmp_path: Path) -> None:
    """Written atomically through a temporary file, yet with the mode of a new file."""
    import os
    import stat

    from generator.render.output import write_atomic

    previous = os.umask(0o022)
    try:
        write_atomic(tmp_path / "a.pdf", b"%PDF")
        os.umask(0o077)
        write_atomic(tmp_path / "b.pdf", b"%PDF")
    finally:
        os.umask(previous)
    assert stat.S_IMODE((tmp_path / "a.pdf").stat().st_mode) == 0o644
    assert stat.S_IMODE((tmp_path / "b.pdf").stat().st_mode) == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.pdf", "b.pdf"]


def test_a_link_out_of_the_content_is_not_read(content_copy: Path, tmp_path: Path) -> None:
    """The build's change detection hashes a ruleset's files, but never through a link
    that leads out of the content folder (design.md section 8)."""
    secret = tmp_path / "secret.txt"
    secret.write_text("one")
    folder = content_copy / "tower-of-choices"
    (folder / "notes.txt").symlink_to(secret)
    content = load_content(folder)
    job = pipeline.plan(content, tmp_path / "out")[0]
    before = pipeline.input_hash(content, job)
    secret.write_text("two")
    assert pipeline.input_hash(content, job) == before
    secret.unlink()  # the hash does not need the file the link leads to
    assert pipeline.input_hash(content, job) == before
    (folder / "loop-a").symlink_to(folder / "loop-b")
    (folder / "loop-b").symlink_to(folder / "loop-a")
    (folder / "rules-again").symlink_to(folder / "rules", target_is_directory=True)
    assert pipeline.input_hash(content, job) != before


def test_build_checks_what_validate_checks_first(content_copy: Path, tmp_path: Path) -> None:
    """It said "content ok" and then failed while rendering, without the file or line."""
    from generator.errors import ContentError

    chapter = content_copy / "tower-of-choices" / "rules" / "01-introduction.md"
    chapter.write_text(chapter.read_text(encoding="utf-8") + "\nA sword \u2694.\n",
                       encoding="utf-8")
    with pytest.raises(ContentError) as caught:
        pipeline.prepare(load_content(content_copy), tmp_path / "out")
    (finding,) = caught.value.findings
    file, key = finding.where.split(": ")
    assert file == "content/tower-of-choices/rules/01-introduction.md"
    assert key.startswith("line ") and "U+2694 CROSSED SWORDS" in finding.message
    assert not (tmp_path / "out").exists()


def test_a_name_too_long_is_said_so(tmp_path: Path) -> None:
    """It was reported as "a loop of symbolic links"."""
    from generator.errors import TowerpressError
    from generator.render.output import write_atomic

    with pytest.raises(TowerpressError, match=r"File name too long$"):
        write_atomic(tmp_path / ("a" * 300 + ".pdf"), b"%PDF")


def test_a_link_inside_the_content_is_hashed_through(content_copy: Path, tmp_path: Path) -> None:
    """The loader reads a link to another ruleset's file; a change there must rebuild."""
    shared = content_copy / "tower-of-choices" / "notes.txt"
    shared.write_text("one")
    folder = content_copy / "inverted-tower"
    (folder / "notes.txt").symlink_to(shared)
    content = load_content(content_copy)
    job = next(j for j in pipeline.plan(content, tmp_path / "out") if j.ruleset == "inverted-tower")
    before = pipeline.input_hash(content, job)
    shared.write_text("two")
    assert pipeline.input_hash(content, job) != before
