"""Links to a place in the rulebook.

An author names a place as a reader sees it: ``[Combat](#combat)`` for the chapter or the
heading titled "Combat", ``(#events)`` for the table ``events`` (a table's name comes
before a heading's: ``#table-events`` is the table whatever its name), ``(#IT-07)`` for a
ruling.
The book's own ids are namespaced (a heading's by its chapter, a table's by ``table-``) so
that two never clash; :func:`resolve` rewrites each link to the id it means, and refuses
one that leads nowhere, which a PDF reader would silently ignore.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from urllib.parse import unquote

from markupsafe import Markup

from generator.errors import RenderError
from generator.render.markdown import Heading, ProseBlock, slugify

_HERE = re.compile(r'href="#([^"]*)"')

# The ids of the parts every book has (templates/rulebook/rulebook.html); "tables" and
# "quick-reference" are the book's only when it prints them.
APPENDICES = ("contents", "rulings", "credits")


def targets(
    *,
    chapters: Iterable[tuple[str, str]],
    headings: Iterable[Heading],
    tables: Iterable[str],
    rulings: Iterable[str],
    appendices: Iterable[str] = APPENDICES,
) -> dict[str, str]:
    """Every name a link may use, with the id it leads to.  ``chapters`` are (title,
    anchor) pairs, ``appendices`` the ids of the parts the book prints.  An id of the book
    leads to itself; then a chapter's title, a table's name and a heading's lead to the
    first of that name, and a ruling ID to its row."""
    chapters, headings = list(chapters), list(headings)
    tables, rulings = list(tables), list(rulings)
    found: dict[str, str] = {}
    ids = [*appendices, *(a for _, a in chapters), *(h.anchor for h in headings),
           *(f"table-{t}" for t in tables), *(f"ruling-{r}" for r in rulings)]
    for anchor in ids:
        found.setdefault(anchor, anchor)
    for title, anchor in chapters:
        found.setdefault(slugify(title), anchor)
    for table in tables:
        found.setdefault(table, f"table-{table}")
    for heading in headings:
        found.setdefault(slugify(heading.text), heading.anchor)
    for ruling in rulings:
        found.setdefault(ruling, f"ruling-{ruling}")
        found.setdefault(slugify(ruling), f"ruling-{ruling}")
    return found


def resolve(blocks: Iterable[ProseBlock], found: dict[str, str], file: str) -> list[ProseBlock]:
    """``blocks`` with each ``#name`` link leading to the id it means.

    Raises:
        RenderError: a link leads to no place of the book; the message names the file.
    """

    def lead(match: re.Match[str]) -> str:
        name = unquote(match.group(1))
        anchor = found.get(name) or found.get(slugify(name))
        if anchor is None:
            example = next((k for k, v in found.items() if k != v), "combat")
            raise RenderError(
                f"{file}: link to '#{name}' leads nowhere in this book (expected a chapter's "
                f"or a heading's title in lower case with dashes, such as '#{example}', a "
                "table's name (or #table-NAME) or a ruling ID)"
            )
        return f'href="#{anchor}"'

    return [
        ProseBlock(Markup(_HERE.sub(lead, b.html)), b.table) if b.html is not None else b
        for b in blocks
    ]
