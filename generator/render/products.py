"""Render products to files: the one place that turns HTML into written output."""

from __future__ import annotations

from pathlib import Path

from generator.model.loader import Ruleset
from generator.render.output import write_atomic
from generator.render.pdf import pdf_bytes, render_document
from generator.render.rulebook import rulebook_html


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
    html = rulebook_html(
        ruleset, paper=paper, profile=ruleset.profile(profile_id), print_marks=print_marks
    )
    if fmt == "html":
        write_atomic(out, html.encode("utf-8"))
        return 0
    document = render_document(html, ruleset.root)
    write_atomic(out, pdf_bytes(document))
    return len(document.pages)
