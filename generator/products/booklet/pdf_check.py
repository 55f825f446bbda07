"""The spread rule proved on a written booklet: ``towerpress check FILE.json`` reads the PDF
beside it, finds each section's pages from its named destinations, and names every way on
whose two sections share a spread (issue 26)."""

from __future__ import annotations

import io
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from generator.errors import TowerpressError
from generator.findings import Finding
from generator.products.booklet.layout import pdf_pages, sections_mark
from generator.products.booklet.spreads import clashes, spread


def pdf_findings(document: Mapping[str, Any], path: Path) -> list[Finding]:
    """Every way the booklet PDF at ``path`` breaks the spread rule, or is not the PDF of
    ``document`` (its title names another seed, or a section has no page)."""
    # Imported here: pypdf takes a fifth of a second to import, which only a check with a
    # PDF needs.
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    try:
        reader = PdfReader(io.BytesIO(path.read_bytes()))
        metadata: Mapping[str, Any] = reader.metadata or {}
        title = str(metadata.get("/Title", ""))
        keywords = str(metadata.get("/Keywords", "")).split(", ")
    except (OSError, PdfReadError, ValueError) as exc:
        return [Finding("pdf", str(path), f"cannot be read as a PDF ({exc})")]
    if document["ruleset"] not in keywords or f"seed {document['seed']}" not in keywords:
        return [Finding("pdf", str(path), f"is the PDF of another booklet ({title!r})")]
    if f"sections {sections_mark(document)}" not in keywords:
        return [Finding("pdf", str(path), "was printed for other section numbers than this "
                        "JSON's")]
    numbers = [s["number"] for s in document["sections"]]
    try:
        pages = pdf_pages(reader, numbers, str(path))
    except TowerpressError as exc:
        return [Finding("pdf", str(path), exc.message)]
    edges = [(s["number"], way["section"]) for s in document["sections"]
             for way in s["turn_to"]]
    return [Finding("spread", f"section {a}",
                    f"shares spread {spread(pages[a].first)} (pages {_pages(pages[a])} and "
                    f"{_pages(pages[b])}) with section {b}, which it leads to")
            for a, b in clashes(pages, edges)]


def _pages(pages: Any) -> str:
    return str(pages.first) if pages.first == pages.last else f"{pages.first}-{pages.last}"
