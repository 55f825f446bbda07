"""The printed booklet (issue 26), read back from the PDFs ``towerpress booklet`` wrote:
its pages, fonts, outline, links, the spread rule on them, and its imposition."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pypdf
import pytest

from generator.engine.booklet import Layout, laid_out
from generator.engine.family import family_of
from generator.model.loader import Content
from generator.products.booklet.html import booklet_html
from generator.products.booklet.impose import saddle_order
from generator.products.booklet.pages import booklet_paper
from generator.products.booklet.render import render_booklet
from generator.render.pdf import pdf_bytes, render_document
from tests.commands import run_here
from tests.pdfs import pdf_pages
from tests.products.booklet.support import PRINTED_SEED, booklet, printed_files
from tests.renders import Renders

RULESETS = ("inverted-tower", "three-dice-dungeon", "tower-of-choices")
PT_PER_MM = 72 / 25.4


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_the_booklet_and_its_pdf_check(renders: Renders, ruleset_id: str) -> None:
    """``check`` proves the JSON and, on the PDF beside it, the spread rule."""
    _, pdf, _ = printed_files(renders, ruleset_id)
    result = run_here("check", str(pdf.with_suffix(".json")))
    assert result.returncode == 0, result.stdout
    assert f"spread rule met in {pdf}" in result.stdout


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_pages_fonts_metadata_and_outline(renders: Renders, ruleset_id: str) -> None:
    document, pdf, _ = printed_files(renders, ruleset_id)
    reader = pypdf.PdfReader(pdf)
    a5 = (round(148 * PT_PER_MM, 1), round(210 * PT_PER_MM, 1))
    assert {(round(float(p.mediabox.width), 1), round(float(p.mediabox.height), 1))
            for p in reader.pages} == {a5}
    assert reader.metadata is not None
    assert str(reader.metadata.title).endswith(f"solo booklet, seed {PRINTED_SEED}")
    assert reader.metadata.author and reader.pdf_header >= "%PDF-1.7"
    for page in reader.pages:
        for font in _fonts(page):
            assert "/FontFile2" in font or "/FontFile3" in font or "/FontFile" in font
    titles = [item.title for item in reader.outline if not isinstance(item, list)]
    assert titles[:3] == ["Cover", "How to play this booklet", titles[2]]
    assert {"The sections", "The tapes", "Your log", "The answers"} <= set(titles)
    cover = reader.pages[0].extract_text()
    assert f"Seed {PRINTED_SEED}" in cover and document["content_hash"][:16] in cover
    assert document["profile"]["title"] in cover and document["generator"] in cover


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_every_glyph_reads_as_the_text_it_draws(renders: Renders, ruleset_id: str) -> None:
    """Searching the PDF finds its words and numbers: no glyph without its text (a
    ligature of the pages laid out beside the log's) and no figure read as a letter (the
    sans face's old-style figures came out as Cyrillic)."""
    _, pdf, _ = printed_files(renders, ruleset_id)
    for number, page in enumerate(pypdf.PdfReader(pdf).pages, start=1):
        text = page.extract_text()
        assert not re.search("[\u0400-\u04ff]", text), (number, text[:200])
    for number, text in enumerate(pdf_pages(pdf), start=1):
        assert "(cid:" not in text, (number, text[:200])


def _fonts(page: Any) -> list[Any]:
    fonts = page.get("/Resources", {}).get("/Font", {})
    return [fonts[name].get_object()["/FontDescriptor"].get_object()
            for name in fonts if "/FontDescriptor" in fonts[name].get_object()]


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_every_turn_to_links_to_its_section(renders: Renders, ruleset_id: str) -> None:
    """Each "turn to N" is a link a reader on a tablet taps, landing on section N."""
    document, pdf, _ = printed_files(renders, ruleset_id)
    reader = pypdf.PdfReader(pdf)
    destinations = _section_pages(reader)
    links = [_target(annotation.get_object(), reader)
             for page in reader.pages for annotation in page.get("/Annots", [])
             if annotation.get_object().get("/Subtype") == "/Link"]
    ways = sum(len(s["turn_to"]) for s in document["sections"])
    assert len(links) >= ways
    for section in document["sections"]:
        for way in section["turn_to"]:
            assert destinations[f"s{way['section']}"] in links


def _target(link: Any, reader: pypdf.PdfReader) -> int | None:
    dest = link.get("/Dest") or link["/A"]["/D"]
    if isinstance(dest, str):
        return reader.get_destination_page_number(reader.named_destinations[dest])
    return reader.get_page_number(dest[0].get_object())


def _section_pages(reader: pypdf.PdfReader) -> dict[str, int]:
    """The page (from 0) of each named destination."""
    pages = {}
    for name, dest in reader.named_destinations.items():
        page = reader.get_destination_page_number(dest)
        assert page is not None, name
        pages[name] = page
    return pages


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_sections_print_in_order_each_with_its_head(renders: Renders, ruleset_id: str
                                                     ) -> None:
    document, pdf, _ = printed_files(renders, ruleset_id)
    reader = pypdf.PdfReader(pdf)
    first = _section_pages(reader)
    pages = [first[f"s{s['number']}"] for s in document["sections"]]
    assert pages == sorted(pages)
    for section in document["sections"][:12]:
        text = reader.pages[first[f"s{section['number']}"]].extract_text()
        assert f"{section['number']} {section['where']}" in " ".join(text.split())


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_the_imposed_booklet_folds_into_page_order(renders: Renders, ruleset_id: str) -> None:
    """Each side of each sheet holds the pages saddle stitching needs, left then right,
    read from the page numbers printed at their foot; sheets are A4 landscape."""
    _, pdf, saddle = printed_files(renders, ruleset_id)
    pages = [_folios(page) for page in pypdf.PdfReader(pdf).pages]
    sides = pypdf.PdfReader(saddle).pages
    order = saddle_order(len(pages))
    assert len(sides) == len(order) and len(order) % 2 == 0
    for side, (left, right) in zip(sides, order, strict=True):
        assert (round(float(side.mediabox.width)), round(float(side.mediabox.height))) == \
            (round(297 * PT_PER_MM), round(210 * PT_PER_MM))
        expected = [n for index in (left, right) if index < len(pages) for n in pages[index]]
        assert _folios(side) == expected
    assert order[0] == (len(order) * 2 - 1, 0) and order[1] == (1, len(order) * 2 - 2)


def _folios(page: Any) -> list[int]:
    """The page numbers printed at the foot of ``page`` (or of each page drawn on it), in
    the order they are drawn."""
    found: list[int] = []

    def visit(text: str, cm: list[float], tm: list[float], *_: Any) -> None:
        foot = cm[1] * tm[4] + cm[3] * tm[5] + cm[5] < 12 * PT_PER_MM
        if foot and text.strip().isdigit():
            found.append(int(text.strip()))

    page.extract_text(visitor_text=visit)
    return found


def test_a_pdf_of_another_booklet_is_refused(renders: Renders, tmp_path: Path) -> None:
    document, _, _ = printed_files(renders, "tower-of-choices")
    _, other, _ = printed_files(renders, "three-dice-dungeon")
    json_path = tmp_path / "b.json"
    json_path.write_text(json.dumps(document), "utf-8")
    result = run_here("check", str(json_path), "--pdf", str(other))
    assert result.returncode == 1
    assert f"pdf at {other}: is the PDF of another booklet" in result.stdout


def test_a_pdf_of_other_numbers_is_refused(renders: Renders, content: Content,
                                           tmp_path: Path) -> None:
    """The same booklet renumbered otherwise is a sound booklet, but not the one its PDF
    prints: the PDF names the numbering it was laid out for."""
    document, pdf, _ = printed_files(renders, "tower-of-choices")
    ruleset = content.ruleset("tower-of-choices")
    count = len(document["sections"])
    other = laid_out(document, ruleset, family_of(ruleset),
                     Layout("a5", (1, *range(count, 1, -1))))
    (tmp_path / "b.json").write_text(json.dumps(other), "utf-8")
    (tmp_path / "b.pdf").write_bytes(pdf.read_bytes())
    result = run_here("check", str(tmp_path / "b.json"))
    assert result.returncode == 1
    assert result.stdout.splitlines()[0] == (
        f"{tmp_path / 'b.json'}: pdf at {tmp_path / 'b.pdf'}: was printed for other section "
        "numbers than this JSON's")


def test_sections_on_one_spread_are_named(content: Content, tmp_path: Path) -> None:
    """A booklet printed with the seed's own numbers, as a renderer that ignored the rule
    would print it, breaks the rule, and check names each pair and its pages."""
    document = booklet(content, "inverted-tower", PRINTED_SEED, depth=1)
    ruleset = content.ruleset("inverted-tower")
    html, pictures = booklet_html(document, ruleset.info, booklet_paper("a5"),
                                  json_name="b.json", log_pages=1)
    (tmp_path / "b.pdf").write_bytes(pdf_bytes(render_document(html, ruleset.root,
                                                               pictures=pictures)))
    (tmp_path / "b.json").write_text(json.dumps(document), "utf-8")
    result = run_here("check", str(tmp_path / "b.json"))
    assert result.returncode == 1
    lines = [line for line in result.stdout.splitlines() if ": spread at section " in line]
    assert lines and all(re.search(r"shares spread \d+ \(pages [\d-]+ and [\d-]+\) with "
                                   r"section \d+, which it leads to$", line) for line in lines)


def test_the_pdf_prints_what_the_json_says(renders: Renders, content: Content) -> None:
    """The renderer decides nothing: a die changed in the JSON is drawn changed; the same
    JSON gives the same bytes."""
    document, pdf, _ = printed_files(renders, "three-dice-dungeon")
    ruleset = content.ruleset("three-dice-dungeon")
    family = family_of(ruleset)
    spec = booklet_paper("a5")
    again = render_booklet(ruleset, family, document, spec,
                           f"three-dice-dungeon-{PRINTED_SEED}.json")
    assert again.pdf == pdf.read_bytes() and again.layouts == 1
    changed = json.loads(json.dumps(document))
    tape = changed["tapes"][0]
    tape["entries"][0] = [7 - tape["entries"][0][0]]
    section = next(s for s in changed["sections"] if s["dice"].get("location"))
    section["dice"]["location"] = 7 - section["dice"]["location"]
    redrawn = render_booklet(ruleset, family, changed, spec, "x.json")
    assert redrawn.pdf != again.pdf
    assert _page_images(redrawn.pdf, section["number"]) != _page_images(again.pdf,
                                                                         section["number"])


def _page_images(pdf: bytes, section: int) -> bytes:
    import io

    import pypdfium2

    reader = pypdf.PdfReader(io.BytesIO(pdf))
    page = reader.get_destination_page_number(reader.named_destinations[f"s{section}"])
    assert page is not None
    bitmap = pypdfium2.PdfDocument(pdf)[page].render(scale=1).to_pil()
    return bytes(bitmap.tobytes())



def test_letter_booklets_fold_from_letter_sheets(tmp_path: Path) -> None:
    """Imposed, a Letter booklet has half-letter pages, two a side of Letter sheets."""
    result = run_here("booklet", "tower-of-choices", "--seed", "3", "--floors", "1",
                      "--odds", "0", "--paper", "letter", "--impose", "saddle",
                      "--format", "pdf", "-o", str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "tower-of-choices-3-saddle.pdf", "tower-of-choices-3.pdf"]
    pages = pypdf.PdfReader(tmp_path / "tower-of-choices-3.pdf").pages
    assert {(round(float(p.mediabox.width)), round(float(p.mediabox.height)))
            for p in pages} == {(396, 612)}
    sheets = pypdf.PdfReader(tmp_path / "tower-of-choices-3-saddle.pdf").pages
    assert len(sheets) == len(saddle_order(len(pages)))
    assert {(round(float(p.mediabox.width)), round(float(p.mediabox.height)))
            for p in sheets} == {(792, 612)}
