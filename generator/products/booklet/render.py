"""The printed booklet: its JSON laid out in pages that meet the spread rule (issue 26).

:func:`render_booklet` lays the booklet out once with the seed's own numbers and measures
each section there; the page model (spreads.py) then orders the sections so that none
shares a spread with a section it leads to or comes from, the order becomes the JSON's
``layout`` (the sections renumbered: ``engine/booklet.laid_out``), and one more layout
confirms it from the laid-out pages.  Should that layout still break the rule (the model
was wrong about a page), its own measures order the sections again, up to
:data:`MAX_LAYOUTS` layouts; then the booklet fails, naming the sections.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from generator.engine.booklet import Layout, laid_out, make_booklet, request_of
from generator.engine.family import Family
from generator.errors import RenderError
from generator.model.loader import Ruleset
from generator.products.booklet.html import booklet_html
from generator.products.booklet.layout import first_page, laid_out_pages, measures
from generator.products.booklet.pages import BookletPaper
from generator.products.booklet.spreads import Edge, Measure, arrange, clashes
from generator.products.sheets.render import nest_fields, sheet_document
from generator.render.accessible import cover_then_folios
from generator.render.pdf import render_document, write_checked

MAX_LAYOUTS = 4
MAX_NAMED = 6  # clashes named in the error of a booklet that cannot meet the rule


@dataclass(frozen=True)
class Booklet:
    """A booklet laid out: its JSON ``document`` (renumbered for these pages), the PDF, and
    how many layouts of the whole booklet it took."""

    document: dict[str, Any]
    pdf: bytes
    pages: int
    layouts: int


def render_booklet(ruleset: Ruleset, family: Family[Any], document: Mapping[str, Any],
                   spec: BookletPaper, json_name: str) -> Booklet:
    """``document`` printed on ``spec``'s pages with the spread rule met: as it is, when
    its numbers meet it there (a booklet laid out already), else renumbered.

    Raises:
        RenderError: no order of the sections that the model finds meets the rule (the
            message names the sections that share a spread), or the rule is not met and
            the document cannot be renumbered: it has its layout already, or it is not
            the booklet its seed makes.
    """
    log = sheet_document(ruleset, "log", paper=spec.id, floors=document["depth"])

    def lay_out(booklet: Mapping[str, Any], measuring: bool) -> Any:
        html, pictures = booklet_html(booklet, ruleset.info, spec, json_name=json_name,
                                      log_pages=len(log.pages), measuring=measuring)
        return render_document(html, ruleset.root, pictures=pictures)

    # A booklet laid out already is printed as it is; any other is first measured from a
    # layout of its front pages and sections alone (what comes after them does not move
    # them), which costs a third less than the whole.
    full = "layout" in document
    page = lay_out(document, measuring=not full)
    layouts, current, order = 1, document, _numbers(document)
    while True:
        found = clashes(laid_out_pages(page, _numbers(current)), _edges(current))
        reorder = bool(found) or ("layout" not in current and not _endings_last(current))
        why = _why_not(document, ruleset, family, layouts) if reorder else ""
        if found and why:
            raise RenderError(_cannot(document, found, spec, why))
        if reorder and not why:
            order = _order(page, current, order, _edges(document), spec)
            current = laid_out(document, ruleset, family, Layout(spec.id, _renumbered(order)))
        elif full:
            return _finish(current, page, log, layouts)
        page, full = lay_out(current, measuring=False), True
        layouts += 1


def _why_not(document: Mapping[str, Any], ruleset: Ruleset, family: Family[Any],
             layouts: int) -> str:
    """Why the booklet cannot be renumbered once more, or "" when it can: renumbering makes
    it again from its seed (engine/booklet.laid_out), so it must have the seed's own
    numbers and be the booklet its seed makes."""
    if layouts >= MAX_LAYOUTS:
        return f"no order was found in {MAX_LAYOUTS} layouts"
    if "layout" in document:
        return f"its JSON is laid out already, for {document['layout']['paper']} pages"
    profile = ruleset.profiles.get(document["profile"]["id"])
    if profile is None or make_booklet(ruleset, family, profile, request_of(document),
                                       odds=document["odds"]) != document:
        return "its JSON is not the booklet its seed makes, so it cannot be renumbered"
    return ""


def _endings_last(document: Mapping[str, Any]) -> bool:
    """Whether the endings are the last sections: each is a page of its own, the first on
    a left-hand page (booklet.css), and a page left blank before them falls at the end of
    the sections, not among them."""
    endings = [bool(s["ending"]) for s in document["sections"]]
    return endings == sorted(endings)


def _numbers(document: Mapping[str, Any]) -> list[int]:
    return [s["number"] for s in document["sections"]]


def _edges(document: Mapping[str, Any]) -> list[Edge]:
    return [(s["number"], way["section"]) for s in document["sections"]
            for way in s["turn_to"]]


def _order(page: Any, current: Mapping[str, Any], order: Sequence[int],
           edges: Sequence[Edge], spec: BookletPaper) -> list[int]:
    """The seed's numbers in a printed order that the page model says meets the rule, from
    the measures of the layout ``page`` of ``current`` (whose section ``i`` is the seed's
    ``order[i - 1]``).  The endings stay last, each on a page of its own (booklet.css)."""
    endings = {s["number"] for s in current["sections"] if s["ending"]}
    measured = measures(page, [n for n in _numbers(current) if n not in endings], spec)
    seed_measures: dict[int, Measure] = {order[n - 1]: m for n, m in measured.items()}
    regular = [n for n in sorted(order) if n in seed_measures]
    last = [order[n - 1] for n in sorted(endings)]
    placed = arrange(regular, seed_measures, edges, first_page(page), spec.body_height_px,
                     seed=len(regular))
    return placed + last


def _renumbered(order: Sequence[int]) -> tuple[int, ...]:
    """The layout's renumbering: the section the seed numbers ``k`` is printed at the place
    ``k`` has in ``order``."""
    printed = {seeded: place for place, seeded in enumerate(order, start=1)}
    return tuple(printed[k] for k in range(1, len(order) + 1))


def _finish(document: Mapping[str, Any], page: Any, log: Any, layouts: int) -> Booklet:
    """The PDF: the booklet's pages with the log sheet's in the slot kept for them."""
    slot = _slot(page, len(log.pages))
    pages = list(page.pages)
    for index, log_page in zip(slot, log.pages, strict=True):
        log_page.bookmarks = pages[index].bookmarks
        pages[index] = log_page
    combined = page.copy(pages)
    pdf = write_checked(combined, labels=cover_then_folios(), finisher=nest_fields)
    return Booklet(dict(document), pdf, len(pages), layouts)


def _slot(page: Any, count: int) -> range:
    first = next(i for i, p in enumerate(page.pages) if "log" in p.anchors)
    return range(first, first + count)


def _cannot(document: Mapping[str, Any], found: Sequence[Edge], spec: BookletPaper,
            why: str) -> str:
    named = "; ".join(f"{a} and {b}" for a, b in found[:MAX_NAMED])
    more = f" and {len(found) - MAX_NAMED} more pairs" if len(found) > MAX_NAMED else ""
    return (f"the {document['ruleset']} booklet of seed {document['seed']!r} breaks the "
            f"spread rule on {spec.id} pages ({why}): sections {named}{more} share a "
            "spread with a section they lead to")
