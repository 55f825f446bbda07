"""Rulebooks in other papers, with print marks, edited content and images: each reads a
book of its own (the A4 one of 3 Dice Dungeon is test_pdf.py's too)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pdfplumber
import pypdf
import pytest

from generator.model.loader import Content
from generator.products.rulebook.product import RulebookOptions
from generator.rulesets import load_content
from tests.content import PIXEL
from tests.products.rulebook.support import (
    MM,
    PAGE_SIZES,
    bundled,
    contains_in_order,
    pdf_words,
    render,
    words,
)
from tests.renders import Renders


def test_page_sizes_per_paper(content: Content, renders: Renders) -> None:
    # The A4 book is test_pdf.py's too: made once in the session.
    books = renders.many({paper: bundled(content, "three-dice-dungeon", paper)
                          for paper in PAGE_SIZES})
    for paper, (width, height) in PAGE_SIZES.items():
        out = books[paper]
        reader = pypdf.PdfReader(out)
        for page in reader.pages:
            assert float(page.mediabox.width) == pytest.approx(width, abs=0.05)
            assert float(page.mediabox.height) == pytest.approx(height, abs=0.05)
        # The quick reference comes last, on pages of its own (two facing ones on A5):
        # the page before it (but a blank one) is the last of the credits.
        texts = [page.extract_text() for page in reader.pages]
        first = _quick_page(texts)
        before = next(t for t in reversed(texts[:first]) if not t.strip().isdigit())
        assert "TowerPress" in before, paper
        # Its folio, in its narrow margin, prints on a home printer: on A5 it was set
        # 2.3 mm from the paper's edge, where most print nothing.
        with pdfplumber.open(out) as pdf:
            for quick in pdf.pages[first:]:
                assert (float(quick.height) - max(c["bottom"] for c in quick.chars)) / MM >= 5
                # Its fine print stays readable: on A5 it was 5.8 pt, under the 7 of a book.
                assert min(c["size"] for c in quick.chars) >= 6.99, paper


def _quick_page(texts: list[str]) -> int:
    """The index of the page the quick reference opens on: its title's."""
    return next(i for i, text in enumerate(texts) if ": Quick reference" in text.split("\n")[0])


def test_the_last_ruling_never_stands_alone_on_a_page(content: Content, tmp_path: Path) -> None:
    # On A5 The Inverted Tower's appendix breaks right before its last ruling.
    ruleset = content.ruleset("inverted-tower")
    out = render(ruleset, tmp_path / "a5.pdf", RulebookOptions(paper="a5"))
    ids = [r.id for r in ruleset.rulings]
    # The quick reference, on the last pages, may cite rulings too.
    texts = [page.extract_text() for page in pypdf.PdfReader(out).pages]
    texts = texts[:_quick_page(texts)]

    def page_of(ruling_id: str) -> int:
        return max(i for i, text in enumerate(texts) if re.search(rf"^{ruling_id} ", text, re.M))

    assert page_of(ids[-1]) == page_of(ids[-2])


def test_editing_a_table_changes_the_rulebook(content_copy: Path, tmp_path: Path) -> None:
    merchant = content_copy / "inverted-tower" / "tables" / "merchant.toml"
    text = merchant.read_text(encoding="utf-8")
    new = re.sub(r"price = 5\b", "price = 7", text)
    assert new != text
    merchant.write_text(new, encoding="utf-8")
    # In the same book, a quick reference with nothing under its title: nothing for
    # quick_columns.py to split, and still a last page of its own.
    quick = content_copy / "inverted-tower" / "quick-reference.md"
    quick.write_text("# Quick reference\n", encoding="utf-8")
    ruleset = load_content(content_copy).ruleset("inverted-tower")
    table = next(t for t in ruleset.tables().values() if any("7" in c for r in t.rows for c in r))
    out = render(ruleset, tmp_path / "edited.pdf")
    text_words = pdf_words(out)
    assert any(contains_in_order(text_words, words(" ".join(row)), 40) for row in table.rows)
    last = pypdf.PdfReader(out).pages[-1].extract_text()
    assert "Quick reference" in last and "Every room" not in last


def test_print_marks_bleed_and_trim_boxes(content: Content, tmp_path: Path) -> None:
    out = render(content.ruleset("tower-of-choices"), tmp_path / "marks.pdf",
                 RulebookOptions(print_marks=True))
    page = pypdf.PdfReader(out).pages[3]
    trim, bleed = page.trimbox, page.bleedbox
    assert float(trim.width) == pytest.approx(210 * MM, abs=0.05)
    assert float(bleed.width) - float(trim.width) == pytest.approx(6 * MM, abs=0.05)
    assert float(bleed.height) - float(trim.height) == pytest.approx(6 * MM, abs=0.05)
    assert float(page.mediabox.width) >= float(bleed.width)


def test_copying_content_outside_keeps_images_inside_working(
    content_copy: Path, tmp_path: Path
) -> None:
    """An image inside the content folder is allowed and reaches the PDF."""
    folder = content_copy / "tower-of-choices" / "rules"
    shutil.copy(PIXEL, folder / "pixel.png")
    chapter = sorted(folder.glob("*.md"))[0]
    chapter.write_text(
        chapter.read_text(encoding="utf-8") + "\n\n![a pixel](pixel.png)\n", encoding="utf-8"
    )
    ruleset = load_content(content_copy).ruleset("tower-of-choices")
    out = render(ruleset, tmp_path / "img.pdf")
    reader = pypdf.PdfReader(out)
    images = sum(len(page.images) for page in reader.pages)
    assert images >= 1
