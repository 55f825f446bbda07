"""Where a laid-out booklet put its sections: read from WeasyPrint's pages (each section
is an element ``s<N>`` ending with ``s<N>-end``), or from a written PDF's named
destinations, which are the same anchors (design.md 6: the spread rule is measured on the
laid-out pages, never by a numeric gap)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

from generator.errors import TowerpressError
from generator.products.booklet.pages import BookletPaper
from generator.products.booklet.spreads import Measure, Pages


def sections_mark(document: Mapping[str, Any]) -> str:
    """A digest of the booklet's sections (their numbers, words, dice and ways on), which
    its PDF carries among its keywords: ``check`` knows from it the PDF of this JSON."""
    text = json.dumps(document["sections"], sort_keys=True, ensure_ascii=False)
    return hashlib.blake2b(text.encode("utf-8"), digest_size=8).hexdigest()


def anchor(number: int) -> str:
    return f"s{number}"


def end_anchor(number: int) -> str:
    return f"s{number}-end"


def _positions(document: Any) -> dict[str, tuple[int, float, float]]:
    """Each anchor's page (1-based), and its top and foot on it (CSS pixels from the top of
    the page), where it first appears."""
    found: dict[str, tuple[int, float, float]] = {}
    for index, page in enumerate(document.pages, start=1):
        for name, (_, top, _, foot) in page.anchors.items():
            found.setdefault(name, (index, top, foot))
    return found


def laid_out_pages(document: Any, numbers: Sequence[int]) -> dict[int, Pages]:
    """The first and last page of each section, as WeasyPrint laid them out."""
    at = _positions(document)
    return {n: Pages(at[anchor(n)][0], at[end_anchor(n)][0]) for n in numbers}


def measures(document: Any, numbers: Sequence[int], spec: BookletPaper
             ) -> dict[int, Measure]:
    """Each section's height as laid out, for the page model (spreads.py): from its top to
    the foot of the gap below it (``.section-end``)."""
    at = _positions(document)
    out = {}
    for n in numbers:
        (first, top, _), (last, _, foot) = at[anchor(n)], at[end_anchor(n)]
        if first == last:
            out[n] = Measure(foot - top)
        else:  # taller than a page: its last part, from the top of its last page
            out[n] = Measure(foot - spec.margin_top_px, last - first + 1)
    return out


def first_page(document: Any) -> int:
    """The page (1-based) that section 1, the first, starts on."""
    return _positions(document)[anchor(1)][0]


def pdf_pages(reader: Any, numbers: Sequence[int], where: str) -> dict[int, Pages]:
    """The first and last page of each section of a written booklet (a pypdf reader), from
    its named destinations.

    Raises:
        TowerpressError: the PDF lacks a section's destinations (another booklet, or one
            imposed for folding, whose sheets are not its pages).
    """
    destinations: Mapping[str, Any] = reader.named_destinations
    pages = {}
    for n in numbers:
        try:
            first, last = (reader.get_destination_page_number(destinations[name]) + 1
                           for name in (anchor(n), end_anchor(n)))
        except KeyError:
            raise TowerpressError(f"{where}: has no page for section {n} (expected the "
                                  "booklet's own PDF, not one imposed for folding)") from None
        pages[n] = Pages(first, last)
    return pages
