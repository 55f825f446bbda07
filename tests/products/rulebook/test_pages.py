"""The rulebooks' pages as a reader turns them: how full they are, what their running heads
name, how small their type is, and where their tables start.  One render per book and
paper (the session's, tests/renders.py), read with pypdfium2 (fast: no full parse)."""

from __future__ import annotations

import ctypes
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pypdf
import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest

from generator.model.loader import Content
from generator.products.rulebook.html import paper_spec
from generator.products.rulebook.pages import MeasuredPage, flows
from generator.render.markdown import slugify
from tests.content import RULESETS
from tests.products.rulebook.support import MM, bundled
from tests.renders import Renders

PAPERS = ("a4", "a5")
BOOKS = [(r, p) for r in RULESETS for p in PAPERS]
# A page that is no part's last (the cover aside) is at most this empty at its foot: a
# table or a worked example moved whole to the next page leaves its height empty.
EMPTIEST = 0.35
SMALLEST_PT = 7.0
OPENER_DEPTH = 45.0  # pt: a part's title this far below the top of the page opens the page


@pytest.fixture(scope="module")
def books(renders: Renders, content: Content) -> dict[tuple[str, str], Path]:
    return renders.many({(r, p): bundled(content, r, p) for r, p in BOOKS})


@dataclass(frozen=True)
class Line:
    top: float  # pt from the top of the page
    bottom: float
    text: str


@dataclass(frozen=True)
class Page:
    number: int  # from 1
    head: str  # the running head: the text above the content box
    body: tuple[Line, ...]  # the text in the content box, top first
    top: float  # the content box, pt from the top of the page
    bottom: float

    @property
    def emptiness(self) -> float:
        """The share of the content box below its lowest line of text."""
        lowest = max((line.bottom for line in self.body), default=self.top)
        return 1 - (lowest - self.top) / (self.bottom - self.top)


@dataclass(frozen=True)
class Part:
    title: str
    page: int  # where it opens, from 1
    at_top: bool  # it opens its page


@dataclass(frozen=True)
class Book:
    pages: tuple[Page, ...]
    parts: tuple[Part, ...]

    @property
    def quick(self) -> int:
        """The page the quick reference opens on."""
        return self.parts[-1].page

    def last_pages(self) -> set[int]:
        """The pages a part ends on: the one before a part that opens its page (and a
        blank page before it), or the one a part follows on."""
        ends = {len(self.pages)}
        for part in self.parts:
            if not part.at_top:
                ends.add(part.page)
            else:
                page = part.page - 1
                while page > 1 and self.blank(page):
                    ends.add(page)
                    page -= 1
                ends.add(page)
        return ends

    def blank(self, number: int) -> bool:
        return not self.pages[number - 1].body


def _margins(paper: str, quick: bool) -> tuple[float, float]:
    spec = paper_spec(paper)
    if quick:
        margin = float(spec.quick_margin.removesuffix("mm")) * MM
        return margin, margin
    top, _, bottom, _ = (float(m.removesuffix("mm")) * MM for m in spec.margin.split())
    return top, bottom


@cache
def read(path: Path, paper: str) -> Book:
    reader = pypdf.PdfReader(path)
    parts = []
    height = float(reader.pages[0].mediabox.height)
    first_quick = None
    for item in reader.outline:
        if isinstance(item, list):
            continue
        number = (reader.get_destination_page_number(item) or 0) + 1
        parts.append((str(item.title), number, height - float(item.top or 0)))
        first_quick = number  # the last bookmark of level 1 is the quick reference
    pages = []
    document = pdfium.PdfDocument(path)
    for index in range(len(document)):
        quick = first_quick is not None and index + 1 >= first_quick
        top, bottom = _margins(paper, quick)
        lines = list(_lines(document[index], height))
        head = " ".join(line.text for line in lines if line.bottom <= top)
        body = tuple(line for line in lines if top < line.bottom <= height - bottom + 1)
        pages.append(Page(index + 1, head, body, top, height - bottom))
    opened = tuple(Part(title, number, depth <= pages[number - 1].top + OPENER_DEPTH)
                   for title, number, depth in parts)
    return Book(tuple(pages), opened)


def _lines(page: pdfium.PdfPage, height: float) -> Iterator[Line]:
    text = page.get_textpage()
    for index in range(text.count_rects()):
        left, bottom, right, top = text.get_rect(index)
        words = text.get_text_bounded(left, bottom, right, top).strip()
        if words:
            yield Line(height - top, height - bottom, words)


def test_no_page_but_a_parts_last_is_left_empty(
    books: dict[tuple[str, str], Path],
) -> None:
    # The contents ran onto a third page of 7-11 lines (70-80% empty); chapters that
    # opened low on a page with one paragraph, or after a gap, left pages 55-82% empty.
    emptiest = {}
    for (ruleset_id, paper), path in books.items():
        book = read(path, paper)
        ends = book.last_pages()
        # The quick reference's pages share its columns evenly (the next test).
        inside = [p for p in book.pages[1 : book.quick - 1] if p.number not in ends]
        page = max(inside, key=lambda p: p.emptiness)
        emptiest[ruleset_id, paper] = (page.number, round(page.emptiness, 2))
    assert all(e <= EMPTIEST for _, e in emptiest.values()), emptiest


def test_a_chapter_follows_on_only_in_the_upper_half_of_a_page(
    books: dict[tuple[str, str], Path],
) -> None:
    # The rule (pages.py): a part starts a new page unless the page before is less than
    # half full; so a part that follows on opens in the upper half (or a little below:
    # where a chapter ends is estimated from the measuring pass).  Some opened in the
    # last third of a page with one paragraph.
    faults: list[tuple[str, str, str, float]] = []
    for (ruleset_id, paper), path in books.items():
        book = read(path, paper)
        for part in book.parts[2:-1]:  # after the contents and the first chapter
            page = book.pages[part.page - 1]
            if not part.at_top:
                depth = (_opener(page, part) - page.top) / (page.bottom - page.top)
                if depth > 0.6:
                    faults.append((ruleset_id, paper, f"{part.title} opens low", depth))
    assert faults == []


def _opener(page: Page, part: Part) -> float:
    return next(line.top for line in page.body if part.title.split()[0] in line.text)


def test_the_contents_take_one_page(books: dict[tuple[str, str], Path]) -> None:
    # They ran onto a page of their own for their last 7-11 lines (A5: in two columns).
    for (ruleset_id, paper), path in books.items():
        book = read(path, paper)
        assert book.parts[0].title == "Contents"
        assert book.parts[1].page - book.parts[0].page == 1, (ruleset_id, paper)


def test_the_running_head_names_the_chapter_in_force_at_the_top(
    books: dict[tuple[str, str], Path],
) -> None:
    # They named the chapter that started lower on the page (The Inverted Tower A4 p7).
    wrong = []
    for (ruleset_id, paper), path in books.items():
        book = read(path, paper)
        chapters = book.parts[1:-1]
        for page in book.pages[book.parts[1].page - 1 : book.quick - 1]:
            opening = [p for p in chapters if p.page == page.number]
            in_force = [p for p in chapters if p.page < page.number]
            expected = "" if opening or book.blank(page.number) else in_force[-1].title
            if _letters(page.head) != _letters(expected):
                wrong.append((ruleset_id, paper, page.number, page.head, expected))
    assert wrong == []


def _letters(text: str) -> str:
    """A running head's letters: it is letter-spaced, and set in capitals."""
    return "".join(text.split()).casefold()


def test_nothing_in_a_rulebook_is_set_under_7_pt(books: dict[tuple[str, str], Path]) -> None:
    # The A5 quick reference was 5.8-6.6 pt; ruling marks in the A4 quick references 6.2.
    small = {}
    for key, path in books.items():
        sizes = _sizes(path)
        below = {size: text for size, text in sizes.items() if size < SMALLEST_PT - 0.01}
        assert sizes, key
        if below:
            small[key] = below
    assert small == {}


def _sizes(path: Path) -> dict[float, str]:
    """Every size of type a PDF prints, in points (the font size times the scale of the
    text's matrix), with a sample of the text at that size."""
    sizes: dict[float, str] = {}
    matrix = pdfium_c.FS_MATRIX()
    document = pdfium.PdfDocument(path)
    for page in document:
        text = page.get_textpage()
        for i in range(text.count_chars()):
            char = chr(pdfium_c.FPDFText_GetUnicode(text.raw, i))
            if char.isspace() or pdfium_c.FPDFText_IsGenerated(text.raw, i):
                continue
            pdfium_c.FPDFText_GetMatrix(text.raw, i, ctypes.byref(matrix))
            size = pdfium_c.FPDFText_GetFontSize(text.raw, i) * math.hypot(matrix.c, matrix.d)
            sample = sizes.setdefault(round(size, 2), "")
            if len(sample) < 40:
                sizes[round(size, 2)] = sample + char
    return sizes


def test_a_table_never_starts_a_page_its_lead_in_ends_before(
    books: dict[tuple[str, str], Path], content: Content,
) -> None:
    # The Inverted Tower's A4 page 15 ended on "...than the one before:", its table on 16.
    parted = []
    for (ruleset_id, paper), path in books.items():
        titles = [t.title.upper() for t in content.ruleset(ruleset_id).tables().values()]
        book = read(path, paper)
        for page, before in zip(book.pages[2:], book.pages[1:], strict=False):
            if not page.body or not before.body:
                continue
            first, last = page.body[0].text, before.body[-1].text
            if any(first.startswith(t) for t in titles) and last.endswith(":"):
                parted.append((ruleset_id, paper, page.number, last[-40:], first))
    assert parted == []


def test_the_a5_quick_reference_takes_two_facing_pages(
    books: dict[tuple[str, str], Path],
) -> None:
    # Set to fit one A5 page, it came to 5.8 pt.  Tower of Choices' abilities and items
    # take it to a third page.
    for ruleset_id in RULESETS:
        book = read(books[ruleset_id, "a5"], "a5")
        pages = len(book.pages) - book.quick + 1
        assert 2 <= pages <= 3, (ruleset_id, pages)
        assert book.quick % 2 == 0, "the quick reference opens on a left-hand page"


def test_the_quick_reference_pages_are_shared_evenly_and_refer_to_the_chapters(
    books: dict[tuple[str, str], Path], content: Content,
) -> None:
    # Each section's heading gives the page of the chapter it sums up ("Combat, p. 11").
    for (ruleset_id, paper), path in books.items():
        book = read(path, paper)
        quick = book.pages[book.quick - 1 :]
        fills = [1 - page.emptiness for page in quick]
        assert max(fills) - min(fills) < 0.35, (ruleset_id, paper, fills)
        document = pdfium.PdfDocument(path)
        text = " ".join(" ".join(document[page.number - 1].get_textpage().get_text_range()
                                 for page in quick).split())
        quick_source = content.ruleset(ruleset_id).quick_reference
        assert quick_source is not None
        links = re.findall(r"\[([^\]]+)\]\(#([\w-]+)\)", quick_source.source)
        assert len(links) >= 4, ruleset_id
        opens = {slugify(p.title): p.page for p in book.parts}
        missing = [f"{words}, p. {opens[target]}" for words, target in links
                   if f"{words}, p. {opens[target]}" not in text]
        assert missing == [], (ruleset_id, paper)


def test_the_credits_link_their_web_sources(
    books: dict[tuple[str, str], Path], content: Content,
) -> None:
    for ruleset_id in RULESETS:
        reader = pypdf.PdfReader(books[ruleset_id, "a4"])
        uris = {str(annot.get_object()["/A"]["/URI"]) for page in reader.pages
                for annot in page.get("/Annots", []) if "/A" in annot.get_object()
                and "/URI" in annot.get_object()["/A"]}
        sources = {c.source for c in content.ruleset(ruleset_id).info.credits
                   if c.source.startswith(("https://", "http://"))}
        assert sources and sources <= uris, (ruleset_id, sources - uris)


def test_the_credits_say_where_a_source_is_and_the_keywords_fit_the_game(
    books: dict[tuple[str, str], Path], content: Content,
) -> None:
    # 3 Dice Dungeon cited "TowerPress rulings, section 2", a file no reader has; Tower
    # of Choices, a game for a player and a DM, had the keyword "solo".
    for ruleset_id in RULESETS:
        reader = pypdf.PdfReader(books[ruleset_id, "a4"])
        text = " ".join(page.extract_text() for page in reader.pages)
        assert "section 2" not in text, ruleset_id
        keywords = str(reader.metadata.get("/Keywords", "") if reader.metadata else "")
        info = content.ruleset(ruleset_id).info
        assert info.keywords and info.title in keywords, keywords
        assert [k for k in keywords.split(", ") if k in info.keywords] == list(info.keywords)
        assert ruleset_id != "tower-of-choices" or "solo" not in keywords, keywords


def test_a_rulings_reading_is_not_set_a_word_a_line(books: dict[tuple[str, str], Path]) -> None:
    # IT-16's reading broke "against the Dice / Check / target", a word a line (A4 p20).
    book = read(books["inverted-tower", "a4"], "a4")
    rulings = next(p.page for p in book.parts if p.title == "Rulings")
    lines = [line.text for page in book.pages[rulings - 1 :] for line in page.body]
    assert any("Dice Check target" in line for line in lines)
    assert "Check" not in lines


def _measured(*parts: tuple[str, int, float, float]) -> list[MeasuredPage]:
    """Pages 100 high from the top, with (part, page, top, foot) of each part on them."""
    pages: list[dict[str, tuple[float, float]]] = [{} for _ in range(1 + max(p[1] for p in parts))]
    for name, page, top, foot in parts:
        pages[page][name] = (top, foot)
    return [MeasuredPage(found, 0.0, 100.0) for found in pages]


def test_a_part_follows_on_a_page_less_than_half_full() -> None:
    # a ends 30% down its page: b follows on it, and ends at 30 + 5 + 40 = 75% of it;
    # so c starts a new page, and ends 20% down; d follows on.
    found = _measured(("a", 0, 0, 100), ("a", 1, 0, 30), ("b", 2, 0, 40), ("c", 3, 0, 20),
                      ("d", 4, 0, 10))
    assert flows(found, gap=5.0) == {"a": False, "b": True, "c": False, "d": True}


def test_a_laid_out_book_corrects_the_estimates_up_to_its_first_misplaced_part() -> None:
    # Estimated, b ends 75% down; laid out, a table moved it to end 10% down: c follows.
    found = _measured(("a", 0, 0, 30), ("b", 1, 0, 40), ("c", 2, 0, 20))
    placed = flows(found, gap=5.0)
    assert placed == {"a": False, "b": True, "c": False}
    laid = _measured(("a", 0, 0, 30), ("b", 0, 35, 100), ("b", 1, 0, 10), ("c", 2, 0, 20))
    assert flows(found, 5.0, laid, placed) == {"a": False, "b": True, "c": True}
