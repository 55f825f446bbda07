"""The booklet page for a phone proved against its document (issue 29): ``towerpress check
FILE.html`` reads the document the page embeds, and here finds every section of it that
the page lacks, every way on that is not a link to the section it names, and every link
to a part the page has not."""

from __future__ import annotations

from collections.abc import Mapping
from html.parser import HTMLParser
from typing import Any

from generator.findings import Finding
from generator.products.booklet.screen import JSON_ID

HTML = "html"  # the code of every finding on the page


class _Page(HTMLParser):
    """What the check reads of a page: its ids, each section's turn-to links in order,
    every ``#`` link, and the embedded document's text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.sections: dict[str, list[str]] = {}
        self.links: list[str] = []
        self.embedded: list[str] | None = None
        self._in_json = False
        self._section: str | None = None
        self._depth = 0  # open <article> elements inside the section being read

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = {name: value or "" for name, value in attrs}
        if "id" in named:
            self.ids.add(named["id"])
        if tag == "article":
            self._open_article(named)
        elif tag == "a" and named.get("href", "").startswith("#"):
            self.links.append(named["href"][1:])
            if self._section is not None and "turn-to" in named.get("class", "").split():
                self.sections[self._section].append(named["href"][1:])
        elif tag == "script" and named.get("id") == JSON_ID and self.embedded is None:
            self.embedded, self._in_json = [], True

    def _open_article(self, named: Mapping[str, str]) -> None:
        if self._section is not None:
            self._depth += 1
        elif "section" in named.get("class", "").split() and "id" in named:
            self._section = named["id"]
            self.sections.setdefault(self._section, [])

    def handle_endtag(self, tag: str) -> None:
        if tag == "article" and self._section is not None:
            if self._depth:
                self._depth -= 1
            else:
                self._section = None
        elif tag == "script":
            self._in_json = False

    def handle_data(self, data: str) -> None:
        if self._in_json and self.embedded is not None:
            self.embedded.append(data)


def _read(text: str) -> _Page:
    page = _Page()
    page.feed(text)
    page.close()
    return page


def embedded_document(text: str) -> str | None:
    """The text of the document a booklet page embeds, or None when it has none."""
    page = _read(text)
    return None if page.embedded is None else "".join(page.embedded)


def html_findings(document: Mapping[str, Any], text: str, where: str) -> list[Finding]:
    """Every section of ``document`` missing from the page ``text`` (named ``where``), every
    way on that is not a turn-to link of its section to the section it names, in the
    document's order, and every link to an id the page has not."""
    page = _read(text)
    found = []
    for section in document["sections"]:
        number = section["number"]
        links = page.sections.get(f"s{number}")
        if links is None:
            found.append(Finding(HTML, f"section {number}", f"is not in {where}"))
            continue
        wanted = [f"s{way['section']}" for way in section["turn_to"]]
        if links != wanted:
            found.append(Finding(HTML, f"section {number}",
                                 f"links to {_names(links)} in {where}, where its ways on "
                                 f"lead to {_names(wanted)}"))
    found += [Finding(HTML, f"link #{target}", f"leads to no part of {where}")
              for target in sorted(set(page.links) - page.ids)]
    return found


def _names(ids: list[str]) -> str:
    return ", ".join(ids) if ids else "nothing"
