"""Helpers of the rulebook tests: rendering a book, and reading its words back."""

from __future__ import annotations

import re
from pathlib import Path

from generator.model.loader import Content, Ruleset
from generator.model.views import RANGE_DASH
from generator.products.rulebook.product import RULEBOOK, RulebookOptions
from generator.render import pdf as pdf_module
from tests.pdfs import pdf_pages, plain_quotes
from tests.renders import Make

MM = 72 / 25.4
PAGE_SIZES = {"a4": (210 * MM, 297 * MM), "letter": (612.0, 792.0), "a5": (148 * MM, 210 * MM)}


def render(ruleset: Ruleset, out: Path, options: RulebookOptions | None = None) -> Path:
    RULEBOOK.write(ruleset, options or RulebookOptions(), out)
    assert pdf_module.last_warnings == []
    return out


def bundled(content: Content, ruleset_id: str, paper: str = "a4") -> tuple[str, Make]:
    """The bundled content's rulebook on ``paper`` as :class:`Renders` makes it once in the
    session: its name there, and how it is made."""
    return (f"rulebook-{ruleset_id}-{paper}.pdf",
            lambda out: render(content.ruleset(ruleset_id), out, RulebookOptions(paper=paper)))


def words(text: str) -> list[str]:
    """Words compared case-blind (captions are set in capitals) and with plain apostrophes."""
    text = plain_quotes(text.replace("\u00ad", "").replace("\u2010", "-")).lower()
    text = text.replace(RANGE_DASH, "\u2013")  # the word joiner is not in the text layer
    # A word split by hyphenation at a line end is joined again.
    text = re.sub(r"(\w)-\n(\w)", r"\1\2", text)
    return text.split()


def pdf_words(path: Path) -> list[str]:
    return words("\n".join(pdf_pages(path)))


def contains_in_order(haystack: list[str], needle: list[str], window: int) -> bool:
    """``needle`` is a subsequence of some window of ``haystack`` starting at its first word.

    Table cells that wrap interleave with their neighbours in extracted text, so a cell's
    words are checked in order, close together, rather than as one string.
    """
    if not needle:
        return True
    for start, word in enumerate(haystack):
        if word != needle[0]:
            continue
        i = 1
        for candidate in haystack[start + 1 : start + 1 + window]:
            if i == len(needle):
                break
            if candidate == needle[i]:
                i += 1
        if i == len(needle):
            return True
    return False
