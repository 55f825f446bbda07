"""Render products to files: the one place that turns HTML into written output."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from generator.model.common import Profile
from generator.model.loader import Ruleset
from generator.products.rulebook.columns import best_split
from generator.products.rulebook.html import rulebook_html
from generator.render.output import write_atomic
from generator.render.pdf import pdf_bytes, render_document


def write_rulebook(
    ruleset: Ruleset,
    out: Path,
    *,
    paper: str = "a4",
    profile_id: str | None = None,
    print_marks: bool = False,
    fmt: str = "pdf",
) -> int:
    """Write a rulebook as PDF (or its HTML); returns the page count (0 for HTML)."""
    profile = ruleset.profile(profile_id)
    if fmt == "html":  # a browser balances the quick reference's columns itself
        html = rulebook_html(ruleset, paper=paper, profile=profile, print_marks=print_marks)
        write_atomic(out, html.encode("utf-8"))
        return 0
    document = rulebook_document(ruleset, paper=paper, profile=profile, print_marks=print_marks)
    write_atomic(out, pdf_bytes(document))
    return len(document.pages)


def rulebook_document(
    ruleset: Ruleset, *, paper: str, profile: Profile, print_marks: bool = False
) -> Any:
    """A rulebook laid out by WeasyPrint: its quick reference measured first in one column
    (:mod:`generator.products.rulebook.columns`), then the whole book with the columns split."""
    split = None
    if ruleset.quick_reference is not None:
        measure = rulebook_html(
            ruleset, paper=paper, profile=profile, print_marks=print_marks, measure_quick=True
        )
        split = best_split(render_document(measure, ruleset.root).pages[0].anchors)
    html = rulebook_html(
        ruleset, paper=paper, profile=profile, print_marks=print_marks, quick_split=split
    )
    return render_document(html, ruleset.root)
