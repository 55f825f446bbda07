"""What every PDF carries for a reader who does not read the page by eye, or jumps in it.

WeasyPrint tags the content (its ``pdf_tags``: headings, paragraphs, lists, tables and
figures in a structure tree, which a screen reader follows and a reflowing viewer lays out
again); this adds what the catalog needs besides: the bookmarks pane open when the PDF has
an outline, the document's title in the window rather than its file name, and page labels,
so that a viewer's "go to page 11" goes where the printed folio says 11.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from generator.render import weasyprint_internals as internals

#: WeasyPrint's options that tag a PDF (kept out of the PDF/UA variant, which would claim a
#: conformance that nothing here checks: every figure's alternative text, for one).
TAGGED: dict[str, Any] = {"pdf_tags": True}


@dataclass(frozen=True)
class PageLabel:
    """A run of page labels from the page at ``start`` (0-based) to the next run.

    ``style`` ``"D"`` numbers them (1, 2, 3...), from ``first``; None gives only
    ``prefix``, the same for the whole run ("Cover").
    """

    start: int
    prefix: str = ""
    style: Literal["D"] | None = "D"
    first: int = 1


#: Pages numbered as the book prints its folios, from 1 on the first page.
FOLIOS = (PageLabel(0),)


def cover_then_folios(cover: str = "Cover") -> tuple[PageLabel, ...]:
    """A cover labelled by name, then the pages numbered from 2, as their folios print."""
    return (PageLabel(0, cover, None), PageLabel(1, first=2))


def finish_catalog(pdf: Any, labels: Sequence[PageLabel]) -> None:
    """Set the catalog's page labels, page mode and viewer preferences on WeasyPrint's
    ``pydyf.PDF`` before it is written (a finisher's work, so the bytes stay
    reproducible)."""
    numbers = internals.pdf_array()
    for label in labels:
        entry = internals.pdf_dictionary({})
        if label.style is not None:
            entry["S"] = f"/{label.style}"
            if label.first != 1:
                entry["St"] = label.first
        if label.prefix:
            entry["P"] = internals.pdf_string(label.prefix)
        numbers.extend((label.start, entry))
    pdf.catalog["PageLabels"] = internals.pdf_dictionary({"Nums": numbers})
    pdf.catalog["ViewerPreferences"] = internals.pdf_dictionary(
        {"DisplayDocTitle": "true"})
    if "Outlines" in pdf.catalog:
        pdf.catalog["PageMode"] = "/UseOutlines"
