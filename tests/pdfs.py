"""Reading the PDFs the tests make: their text, their quotes, ranges and hyphens.

pdfplumber takes seconds to parse a rulebook's pages (as long as WeasyPrint takes to make
it), and little to read them once parsed: :func:`opened` parses each PDF once for all the
tests of a module that read it (conftest.py forgets them after the module), unless the
file is rewritten.  Tests of one module run in one process (``--dist loadfile``).
"""

from __future__ import annotations

import gc
import re
from collections.abc import Callable, Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

import pdfplumber
from pdfplumber.pdf import PDF

_CURLED = str.maketrans("\u2018\u2019\u201c\u201d\u2212", "''\"\"-")

_OPENED: dict[tuple[Path, int, int], PDF] = {}


def opened(path: Path) -> PDF:
    """``path`` opened with pdfplumber, every page parsed, once until :func:`forget`.
    The objects it gives (pages, chars, words) are shared: read them, never change them."""
    stat = path.stat()
    key = (path, stat.st_mtime_ns, stat.st_size)
    if key not in _OPENED:
        pdf = pdfplumber.open(path)
        thresholds = gc.get_threshold()
        gc.set_threshold(50_000, *thresholds[1:])  # as generator.render.pdf renders
        try:
            for page in pdf.pages:
                page.objects  # noqa: B018 (parsed now, and kept)
        finally:
            gc.set_threshold(*thresholds)
        # Out of the collector's sight until forget(): a rulebook's parsed pages are a
        # hundred megabytes of objects, which each of its full collections went through.
        gc.collect()
        gc.freeze()
        _OPENED[key] = pdf
    return _OPENED[key]


def forget() -> None:
    """Close the PDFs :func:`opened` kept, and let their parsed pages go."""
    for pdf in _OPENED.values():
        pdf.close()
    _OPENED.clear()
    gc.unfreeze()
    gc.collect()


def pdf_pages(path: Path, *, flow: bool = False) -> tuple[str, ...]:
    """The text of each page of a PDF, line by line across the page or, with ``flow``, in
    the order it is drawn (a table cell's lines one after another).  Each PDF's text is
    read once per test process, unless it is rewritten."""
    stat = path.stat()
    return _pdf_pages(path, stat.st_mtime_ns, stat.st_size, flow)


@cache
def _pdf_pages(path: Path, _mtime: int, _size: int, flow: bool) -> tuple[str, ...]:
    return tuple(page.extract_text(use_text_flow=flow) or "" for page in opened(path).pages)


def straight_quotes(path: Path) -> tuple[int, list[str]]:
    """How many curled quotes a PDF prints, and the lines that print a straight one."""
    text = "\n".join(pdf_pages(path))
    return (sum(text.count(q) for q in "\u2018\u2019\u201c\u201d"),
            [line for line in text.splitlines() if "'" in line or '"' in line])


K = TypeVar("K")


def pdf_faults(check: Callable[[Path], tuple[int, list[str]]], pdfs: Mapping[K, Path],
               what: str, *, each: bool = False) -> dict[K, list[str]]:
    """Run ``check`` (how many ``what`` a PDF sets right, and what it sets wrong) on every
    PDF; fails if there is nothing to check (in some PDF, or in each with ``each``).
    Returns the faults, by PDF, of those that have any."""
    results = {key: check(path) for key, path in pdfs.items()}
    counts = [found for found, _ in results.values()]
    assert all(counts) if each else sum(counts), f"no {what} at all, so the check checks nothing"
    return {key: wrong for key, (_, wrong) in results.items() if wrong}


def plain_quotes(text: str) -> str:
    """Text read from a PDF with its curled quotes straight again, and its minus signs
    hyphens, as the content has them."""
    return text.translate(_CURLED)


_BREAK = re.compile(r"(?<![\w-])([^\W\d_]+)[-\u2010]\n([^\W\d_]+)")


def hyphenated(laid_out: str, source: str) -> list[tuple[str, str]]:
    """The words that ``laid_out`` text (lines as read from a PDF) breaks at a hyphen of
    its own, as (before, after): a hyphen that ``source`` has ("pass-or-fail") is not one."""
    return [(a, b) for a, b in _BREAK.findall(laid_out) if f"{a}-{b}" not in source]


# A range of numbers set with a hyphen ("5-6"; a date's "2023-11-17" is not one), a range
# set with its en dash ("5–6"), and one broken after its dash ("5–" at a line's end, read
# in drawing order, where the next line of the same cell follows).
_HYPHEN_RANGE = re.compile(r"(?<![\d-])\d{1,2}-\d{1,2}(?![\d-])")
_RANGE = re.compile(r"\d\u2013\d")
_BROKEN_RANGE = re.compile(r"\S*\d\u2013\n\S*")


def ranges(path: Path) -> tuple[int, list[str]]:
    """How many ranges a PDF sets with an en dash, and the ones it sets wrong: with a hyphen
    or broken across lines after the dash."""
    text, drawn = "\n".join(pdf_pages(path)), "\n".join(pdf_pages(path, flow=True))
    return (len(_RANGE.findall(text)),
            _HYPHEN_RANGE.findall(text) + _BROKEN_RANGE.findall(drawn))


def named_widgets(page: Any) -> Iterator[tuple[str, Any]]:
    """Each form field widget of a pypdf ``page``, in the page's order, with its full name
    (its parents' names first, joined by dots)."""
    for ref in page.get("/Annots", []):
        widget = ref.get_object()
        names, node = [], widget
        while node is not None:
            names.append(str(node["/T"]))
            node = node.get("/Parent")
            node = node.get_object() if node is not None else None
        yield ".".join(reversed(names)), widget
