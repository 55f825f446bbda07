"""Tagged PDFs, page labels and the outline open: read back from the products' files."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pypdf
import pytest
from pypdf.generic import ArrayObject, BooleanObject, DictionaryObject

from generator.model.loader import Content
from generator.products.sheets.render import write_sheet
from tests.pdfs import pdf_pages
from tests.products.booklet.support import printed_files
from tests.products.cards.support import render as print_cards
from tests.products.rulebook.support import bundled
from tests.renders import Renders

BOOK = "tower-of-choices"
YES = BooleanObject(True)


@pytest.fixture(scope="module")
def products(content: Content, renders: Renders) -> dict[str, Path]:
    """A rulebook, a booklet (with its log sheet's fields) and a character sheet."""
    made = renders.many({
        "rulebook": bundled(content, BOOK),
        "sheet": ("sheets-inverted-tower-sheet-a4.pdf",
                  lambda out: write_sheet(content.ruleset("inverted-tower"), "sheet", out)),
        # As tests/products/cards/test_pdf.py makes it, under the same name.
        "cards": ("cards-inverted-tower-a4-poker.pdf",
                  lambda out: print_cards("inverted-tower", out, workers=2)),
    })
    _, booklet, saddle = printed_files(renders, "three-dice-dungeon")
    return {**made, "booklet": booklet, "saddle": saddle}


def elements(node: DictionaryObject) -> Iterator[DictionaryObject]:
    """The structure elements under ``node``, depth first, in reading order."""
    kids = node.get("/K")
    for kid in kids if isinstance(kids, ArrayObject) else [kids]:
        kid = kid.get_object() if kid is not None else None
        if isinstance(kid, DictionaryObject) and "/S" in kid:
            yield kid
            yield from elements(kid)


def catalog(reader: pypdf.PdfReader) -> Any:
    return reader.trailer["/Root"]


def kind(element: DictionaryObject) -> str:
    return str(element["/S"])


def structure(path: Path) -> tuple[pypdf.PdfReader, list[DictionaryObject]]:
    reader = pypdf.PdfReader(path)
    root = catalog(reader)
    assert root["/MarkInfo"]["/Marked"] == YES, f"{path.name}: not marked as tagged"
    return reader, list(elements(root["/StructTreeRoot"].get_object()))


def test_the_rulebook_structure_tree_holds_its_chapters_tables_and_pictures(
        products: dict[str, Path]) -> None:
    tree = structure(products["rulebook"])[1]
    kinds = Counter(kind(e) for e in tree)
    # Every chapter's title is a level-1 heading, and the tables are tables, with headers.
    text = "\n".join(pdf_pages(products["rulebook"]))
    headings = [e for e in tree if kind(e) == "/H1"]
    assert len(headings) >= 10, kinds
    assert kinds["/Table"] >= 5 and kinds["/TH"] >= kinds["/Table"], kinds
    assert kinds["/P"] > 100 and kinds["/L"] > 0, kinds
    assert "Contents" in text
    # A picture says what it shows: the alternative text a screen reader speaks.
    figures = [e for e in tree if kind(e) == "/Figure"]
    unsaid = [e for e in figures if not str(e.get("/Alt", "")).strip()]
    assert figures and not unsaid, f"{len(unsaid)} of {len(figures)} pictures have no text"


def test_the_rulebooks_page_labels_are_its_printed_folios_and_its_outline_opens(
        products: dict[str, Path]) -> None:
    reader = pypdf.PdfReader(products["rulebook"])
    labels = reader.page_labels
    assert labels[0] == "Cover"
    assert labels[1:] == [str(n) for n in range(2, len(reader.pages) + 1)]
    # The folio printed at the foot of a page is its label.
    for index in (1, len(reader.pages) // 2, len(reader.pages) - 1):
        last_line = reader.pages[index].extract_text().strip().splitlines()[-1]
        assert labels[index] in last_line.split(), (index, last_line)
    root = catalog(reader)
    assert root["/PageMode"] == "/UseOutlines"
    assert root["/ViewerPreferences"]["/DisplayDocTitle"] == YES


@pytest.mark.parametrize("product", ["booklet", "sheet"])
def test_every_pdf_product_is_tagged_labelled_and_keeps_its_fields(
        products: dict[str, Path], product: str) -> None:
    reader, tree = structure(products[product])
    assert len(reader.page_labels) == len(reader.pages)
    assert catalog(reader)["/PageMode"] == "/UseOutlines"
    assert catalog(reader)["/ViewerPreferences"]["/DisplayDocTitle"] == YES
    assert any(kind(e) in ("/H1", "/H2") for e in tree)
    fields: dict[str, Any] = reader.get_fields() or {}
    assert fields, f"the {product} lost its form fields"


@pytest.mark.parametrize(("product", "first", "second"), [
    ("cards", "Sheet 1 fronts", "Sheet 1 backs"), ("saddle", "Sheet 1 front", "Sheet 1 back")])
def test_sheets_placed_by_the_composer_are_labelled_and_open_their_outline(
        products: dict[str, Path], product: str, first: str, second: str) -> None:
    reader = pypdf.PdfReader(products[product])
    assert reader.page_labels[:2] == [first, second]
    assert len(set(reader.page_labels)) == len(reader.pages)
    assert catalog(reader)["/ViewerPreferences"]["/DisplayDocTitle"] == YES
    if reader.outline:
        assert catalog(reader)["/PageMode"] == "/UseOutlines"
