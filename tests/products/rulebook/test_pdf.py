"""Rulebooks: open the PDFs and check what a reader and a printer would check."""

from __future__ import annotations

import hashlib
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pdfplumber
import pypdf
import pytest
from click.testing import CliRunner

from generator.cli.main import cli
from generator.errors import RenderError
from generator.model.common import Reading
from generator.model.loader import Content, Ruleset
from generator.products.rulebook.html import rulebook_html
from generator.products.rulebook.product import RULEBOOK, RulebookOptions
from generator.render.capitals import is_label
from generator.render.markdown import ProseRenderer
from generator.rulesets import load_content
from tests.content import PIXEL, RULESETS
from tests.pdfs import (
    hyphenated,
    opened,
    pdf_faults,
    pdf_pages,
    plain_quotes,
    ranges,
    straight_quotes,
)
from tests.products.rulebook.support import bundled, contains_in_order, pdf_words, render, words
from tests.renders import Renders


@pytest.fixture(scope="session")
def books(renders: Renders, content: Content) -> dict[str, Path]:
    """The bundled rulebooks on A4, made once in the session."""
    return renders.many({rid: bundled(content, rid) for rid in RULESETS})


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_every_row_of_every_table_is_printed(
    ruleset_id: str, content: Content, books: dict[str, Path]
) -> None:
    text = pdf_words(books[ruleset_id])
    ruleset = content.ruleset(ruleset_id)
    missing = []
    for table in ruleset.tables().values():
        assert contains_in_order(text, words(table.title), 20), table.title
        for row in table.rows:
            for cell in row:
                needle = words(cell)
                if not contains_in_order(text, needle, 4 * len(needle) + 60):
                    missing.append((table.name, cell))
    assert missing == []


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_a_short_label_in_a_table_stays_on_one_line(
    ruleset_id: str, content: Content, books: dict[str, Path]
) -> None:
    # The rolls printed "Dice" over "Check" in its Name column while the column beside it
    # had room to spare; the items' heading printed "One" over "use".  A label broken in
    # its cell ends a line with its first word (the next word on that line, if any, is a
    # cell's padding away, not a space) and puts its second right below, with no rule
    # between them as there is between two rows.
    labels = {tuple(cell.split()) for table in content.ruleset(ruleset_id).tables().values()
              for row in (table.columns, *table.rows)
              for cell in row[1 if table.roll_column else 0:]
              if is_label(cell) and len(cell.split()) == 2}
    assert labels, "no two-word label in any table, so the check checks nothing"
    seconds = {second for _, second in labels}
    broken = []
    pdf = opened(books[ruleset_id])
    for number, page in enumerate(pdf.pages, 1):
        found = [{**w, "text": plain_quotes(w["text"])} for w in page.extract_words()]
        below = [w for w in found if w["text"] in seconds]
        rules = [r for r in page.lines + page.rects if r["height"] < 1.5]
        # A card's name in a figure (Tower of Choices' check: a card is a rounded
        # rectangle, a curve to pdfplumber) is set on two lines on purpose, as on a card.
        drawn = [c for c in page.curves if c["width"] > 10 and c["height"] > 10]
        ends = [w for w in found if not any(
            abs(o["top"] - w["top"]) < 1 and 0 <= o["x0"] - w["x1"] < 5 for o in found)
            and not any(c["x0"] <= w["x0"] and w["x1"] <= c["x1"] and c["top"] <= w["top"]
                        and w["bottom"] <= c["bottom"] for c in drawn)]
        for first in ends:
            broken += [f"page {number}: {first['text']} / {second['text']}"
                       for second in below
                       if (first["text"], second["text"]) in labels
                       and abs(second["x0"] - first["x0"]) < 1
                       and 0 < second["top"] - first["top"] < 2 * first["height"]
                       and not any(r["x0"] <= first["x0"] <= r["x1"]
                                   and first["bottom"] <= r["top"] <= second["top"]
                                   for r in rules)]
    assert broken == []


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_fonts_are_ours_and_embedded(ruleset_id: str, books: dict[str, Path]) -> None:
    reader = pypdf.PdfReader(books[ruleset_id])
    fonts: dict[str, bool] = {}
    for page in reader.pages:
        resources: Any = page["/Resources"].get_object()
        for font in resources.get("/Font", {}).values():
            font = font.get_object()
            descriptor = font["/DescendantFonts"][0].get_object()["/FontDescriptor"].get_object()
            embedded = any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3"))
            fonts[str(font["/BaseFont"])] = embedded
    assert fonts
    assert all(fonts.values()), fonts
    assert all(re.match(r"^/[A-Z]{6}\+TowerPress(Serif|Sans)", name) for name in fonts), fonts


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_outline_metadata_and_links(
    ruleset_id: str, content: Content, books: dict[str, Path]
) -> None:
    ruleset = content.ruleset(ruleset_id)
    reader = pypdf.PdfReader(books[ruleset_id])
    top = [item.title for item in reader.outline if not isinstance(item, list)]
    assert top[0] == "Contents"
    assert [c.title for c in ruleset.chapters] == top[1 : 1 + len(ruleset.chapters)]
    assert "Rulings" in top and "Credits and sources" in top
    assert any(isinstance(item, list) and item for item in reader.outline)  # sections
    meta = reader.metadata
    assert meta is not None
    assert meta.title == f"{ruleset.title}: Rulebook"
    assert meta.author and all(c.author in meta.author for c in ruleset.info.credits)
    assert meta.subject and ruleset.info.subtitle in meta.subject
    root: Any = reader.trailer["/Root"]
    assert root["/Lang"] == ruleset.info.language
    # Every internal link lands on a named destination that exists.
    names = reader.named_destinations
    links = 0
    for page in reader.pages:
        for annot in page.get("/Annots", []):
            annot = annot.get_object()
            if "/Dest" in annot:
                links += 1
                assert str(annot["/Dest"]) in names
    assert links > len(ruleset.chapters)


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_contents_page_numbers_are_the_heading_pages(
    ruleset_id: str, books: dict[str, Path]
) -> None:
    path = books[ruleset_id]
    reader = pypdf.PdfReader(path)

    page_index = {
        page.indirect_reference.idnum: i
        for i, page in enumerate(reader.pages)
        if page.indirect_reference is not None
    }
    checked = 0
    # The contents may run over two pages: every page before chapter 1 with leader dots.
    pdf = opened(path)
    toc_pages = [i for i in (1, 2) if "....." in (pdf.pages[i].extract_text() or "")]
    for toc in toc_pages:
        checked += check_contents_page(path, reader, toc, page_index)
    assert checked >= 5


def check_contents_page(
    path: Path, reader: pypdf.PdfReader, toc: int, page_index: dict[int, int]
) -> int:
    destinations = reader.named_destinations
    checked = 0
    page_texts: dict[int, str] = {}
    # A link may be drawn as several boxes (the number and the title): join them per target.
    boxes: dict[str, tuple[float, float, float, float]] = {}
    height = float(reader.pages[toc].mediabox.height)
    for annot in reader.pages[toc].get("/Annots", []):
        annot = annot.get_object()
        if "/Dest" not in annot:
            continue
        x0, y0, x1, y1 = (float(v) for v in annot["/Rect"])
        box = (min(x0, x1), height - max(y0, y1), max(x0, x1), height - min(y0, y1))
        dest = str(annot["/Dest"])
        if dest in boxes:
            old = boxes[dest]
            box = (
                min(old[0], box[0]),
                min(old[1], box[1]),
                max(old[2], box[2]),
                max(old[3], box[3]),
            )
        boxes[dest] = box
    pdf = opened(path)
    contents = pdf.pages[toc]
    for dest, box in boxes.items():
        # The band across the middle of the link: the contents are set close, and a glyph
        # of the line above or below reaches into the link's box.
        middle = (box[1] + box[3]) / 2
        band = (box[0], middle - 1, box[2], middle + 1)
        entry = (contents.crop(band).extract_text() or "").strip()
        number = re.search(r"(\d+)$", entry)
        assert number, entry
        printed = int(number.group(1))
        title = re.sub(r"[.\s]*\d+$", "", entry)
        title = re.sub(r"^(\d+|[A-C]|◆)\s+", "", title)
        target: Any = destinations[dest]
        index = page_index[target.page.idnum]
        assert printed == index + 1, entry
        if index not in page_texts:
            page_texts[index] = " ".join(words(pdf.pages[index].extract_text() or ""))
        heading_page = page_texts[index]
        assert " ".join(words(title)) in heading_page, (title, index)
        checked += 1
    return checked


def appendix_text(path: Path) -> str:
    text = plain_quotes("\n".join(pdf_pages(path)))
    start = text.index("This profile's reading")
    return text[start : text.index("Credits and sources", start)]


def appendix_rows(path: Path, ids: list[str]) -> dict[str, str]:
    """Each ruling's row of the appendix, by ID, its whitespace made single spaces."""
    text = " ".join(appendix_text(path).split())
    cuts = [text.index(f"{ruling_id} ") for ruling_id in ids]
    assert cuts == sorted(cuts)
    return {i: text[a:b] for i, a, b in zip(ids, cuts, [*cuts[1:], len(text)], strict=True)}


def test_rulings_appendix_gives_both_readings_the_books_first(
    content: Content, books: dict[str, Path], tmp_path: Path
) -> None:
    ruleset = content.ruleset("inverted-tower")
    ids = [r.id for r in ruleset.rulings]
    written, draft = ruleset.profile("as-written"), ruleset.profile("draft-4.5")
    assert any(draft.alt(i) for i in ids)
    draft_book = render(ruleset, tmp_path / "draft.pdf", RulebookOptions(profile="draft-4.5"))
    books_rows = (
        (written, appendix_rows(books["inverted-tower"], ids)),
        (draft, appendix_rows(draft_book, ids)),
    )

    def start(text: str) -> str:
        return " ".join(text.split()[:4])

    for ruling in ruleset.rulings:
        for profile, rows in books_rows:
            row = rows[ruling.id]
            if not ruling.alt:  # one reading: nothing else to print
                assert "ALT" not in row and start(ruling.faithful) in row, row
                continue
            mine = profile.reading(ruling.id)
            other: Reading = "faithful" if mine == "alt" else "alt"
            assert row.index(mine.upper()) < row.index(other.upper()), row
            for reading in (mine, other):  # each label is followed by its reading's text
                label = f"{reading.upper()} "
                after = row[row.index(label) + len(label) :]
                assert after.startswith(start(ruling.reading_text(reading))), row
            takers = [p.title for p in ruleset.profiles.values() if p.reading(ruling.id) == other]
            for p in ruleset.profiles.values():
                assert (f"({p.title})" in row) == (takers == [p.title]), row


def test_quick_reference_comes_last_after_the_credits(
    content: Content, books: dict[str, Path]
) -> None:
    for ruleset_id, path in books.items():
        ruleset = content.ruleset(ruleset_id)
        assert ruleset.quick_reference is not None
        first = _quick_page(content, ruleset_id, path)
        texts = [page.extract_text() or "" for page in opened(path).pages]
        before = next(t for t in reversed(texts[:first]) if not t.strip().isdigit())  # not blank
        assert "Credits and sources" in before, ruleset_id
        assert all("Credits and sources" not in t for t in texts[first:]), ruleset_id


def _quick_page(content: Content, ruleset_id: str, path: Path) -> int:
    """The index of the page the quick reference opens on (its title's)."""
    ruleset = content.ruleset(ruleset_id)
    assert ruleset.quick_reference is not None
    title = f"{ruleset.info.title}: {ruleset.quick_reference.title}"
    texts = [page.extract_text() or "" for page in opened(path).pages]
    return next(i for i, t in enumerate(texts) if t.lstrip().startswith(title))


def test_every_page_after_the_cover_prints_its_number_at_the_foot(
    books: dict[str, Path],
) -> None:
    # The contents send a reader to the quick reference by its page number too.
    for path in books.values():
        pdf = opened(path)
        for index, page in enumerate(pdf.pages[1:], start=2):
            lowest = max(page.extract_words(), key=lambda w: float(w["bottom"]))
            assert lowest["text"] == str(index), (path.name, index, lowest["text"])
            assert float(lowest["top"]) > page.height * 0.94, (path.name, index)


def test_a_worked_log_stays_on_one_page_with_its_lead_in(books: dict[str, Path]) -> None:
    # On A4 The Inverted Tower's example log fell across pages 17 and 18.
    pages = pdf_pages(books["inverted-tower"])
    lead_in = [i for i, text in enumerate(pages) if "Her log now reads" in text]
    assert len(lead_in) == 1
    page = pages[lead_in[0]]
    assert "Mara. STR 1" in page and "Room 6: Encounter" in page and "Room 1: ..." in page


def test_hyphenation_spares_short_fragments_and_capitals(
    content: Content, books: dict[str, Path]
) -> None:
    # "ap-proach", "rer-olled", "Rob-ber": a short fragment before the break reads as a word
    # of its own, and a game term in capitals ("TAR-GET 4") or a web address
    # ("rodrigo-franco.com") reads wrong broken.  The cover's centred lines break no word.
    for ruleset_id, path in books.items():
        root = content.ruleset(ruleset_id).root
        source = "\n".join(f.read_text() for f in sorted(root.rglob("*")) if f.suffix in
                           {".md", ".toml"})
        pages = pdf_pages(path)
        assert hyphenated(pages[0], source) == [], f"{ruleset_id}: a word broken on the cover"
        # In drawing order: read across the page, a quick reference column's broken word
        # was followed by the line beside it in the other column ("regener-" / "d6").
        breaks = hyphenated("\n".join(pdf_pages(path, flow=True)), source)
        assert breaks, f"{ruleset_id}: no word breaks at all, so the check checks nothing"
        bad = [f"{a}-{b}" for a, b in breaks
               if len(a) < 4 or len(b) < 3 or len(a + b) < 7 or (a + b).isupper()]
        assert not bad, f"{ruleset_id}: {bad}"
        text = "\n".join(pages)
        assert not re.search(r"[a-z]-\n[a-z.]*\.com", text), f"{ruleset_id}: a web address"


def test_the_cover_description_does_not_end_on_a_lone_word(
    content: Content, books: dict[str, Path]
) -> None:
    # 3 Dice Dungeon's centred description ended with "words." alone on its last line.
    for ruleset_id, path in books.items():
        last = plain_quotes(content.ruleset(ruleset_id).info.description).split()[-1]
        lines = [plain_quotes(line).split() for line in pdf_pages(path)[0].splitlines()]
        ending = [words for words in lines if words and words[-1] == last]
        assert ending and all(len(words) > 1 for words in ending), ruleset_id


def test_a_ruling_mark_stays_with_the_word_before_it(
    content: Content, books: dict[str, Path]
) -> None:
    # "… pass or fail anyway" with "IT-30." alone on the next line reads like a stray tag.
    marks, broken = 0, []
    for ruleset_id, path in books.items():
        root = content.ruleset(ruleset_id).root
        source = "\n".join(f.read_text() for f in sorted(root.rglob("*.md")))
        found = re.findall(r"(\w+)\s+\{\{\s*ruling:\s*([A-Z]+-\d+)\s*\}\}", source)
        marks += len(found)
        drawn = "\n".join(pdf_pages(path, flow=True))
        broken += [f"{word} {mark}" for word, mark in set(found)
                   if re.search(rf"\b{word}\n{mark}\b", drawn)]
    assert marks, "no ruling mark after a word, so the check checks nothing"
    assert broken == []


def test_ranges_take_an_en_dash_and_stay_on_one_line(books: dict[str, Path]) -> None:
    # "passes on 5–6", "a row marked 1–3": a range is set with an en dash, in table cells
    # and in prose, and "5–" never ends a line.
    assert pdf_faults(ranges, books, "range") == {}


def test_quotes_are_curled(books: dict[str, Path]) -> None:
    # The content types "the manual's HP" and 'heal up'; a rulebook prints ’ ‘ “ ”, in its
    # tables and rulings as in its prose.
    assert pdf_faults(straight_quotes, books, "quote", each=True) == {}


def test_two_renders_are_identical(
    content: Content, books: dict[str, Path], tmp_path: Path
) -> None:
    again = render(content.ruleset("tower-of-choices"), tmp_path / "again.pdf")
    assert again.read_bytes() == books["tower-of-choices"].read_bytes()


@pytest.fixture
def hostile(content_copy: Path) -> Iterator[tuple[Ruleset, Path]]:
    yield load_content(content_copy).ruleset("tower-of-choices"), content_copy


@pytest.mark.parametrize(
    ("markdown", "message"),
    [
        ("![secret](/etc/passwd)", "refused image '/etc/passwd'"),
        ("![up](../../../outside.png)", "refused image '../../../outside.png'"),
        ("![net](https://example.com/x.png)", "refused image 'https://example.com/x.png'"),
        # Inside the content folder, but not a picture: it used to be left out in silence.
        ("![toml](../ruleset.toml)", "ruleset.toml': it is not a picture that can be read"),
        ('<link rel="stylesheet" href="file:///etc/passwd">', "raw HTML is not allowed"),
        ("<img src='https://example.com/t.png'>", "raw HTML is not allowed"),
        ('<style>@import "file:///etc/passwd";</style>', "raw HTML is not allowed"),
    ],
)
def test_hostile_markdown_is_refused(
    content_copy: Path, tmp_path: Path, markdown: str, message: str
) -> None:
    (content_copy.parent / "outside.png").write_bytes(b"\x89PNG")
    chapter = sorted((content_copy / "tower-of-choices" / "rules").glob("*.md"))[0]
    chapter.write_text(chapter.read_text(encoding="utf-8") + f"\n\n{markdown}\n", encoding="utf-8")
    ruleset = load_content(content_copy).ruleset("tower-of-choices")
    out = tmp_path / "hostile.pdf"
    out.write_bytes(b"previous good book")
    with pytest.raises(RenderError, match=re.escape(message)):
        RULEBOOK.write(ruleset, RulebookOptions(), out)
    assert out.read_bytes() == b"previous good book"


@pytest.mark.parametrize(
    ("markdown", "message"),
    [
        # Resolved against the templates' file: URL, a reader's click would open a file of
        # their own machine, or a share of another's.
        ("[notes](notes.md)", "refused link 'notes.md'"),
        ("[share](//evil.example/share/x.pdf)", "refused link '//evil.example/share/x.pdf'"),
        ("[root](/etc/passwd)", "refused link '/etc/passwd'"),
        # markdown-it printed these as plain text, and the book went out without a word.
        ("[file](file:///etc/passwd)", "refused link 'file:///etc/passwd'"),
        ("[run](javascript:alert(1))", "refused link 'javascript:alert(1)'"),
        ("![file](file:///etc/passwd)", "refused image 'file:///etc/passwd'"),
        # Decoded, the name holds a NUL byte, which Path.resolve() raised on as a bug.
        ("![nul](a%00b.png)", "refused image 'a%00b.png'"),
    ],
)
def test_links_outside_the_web_are_refused(
    content: Content, markdown: str, message: str
) -> None:
    ruleset = content.ruleset("tower-of-choices")
    renderer = ProseRenderer(ruleset.raw, ruleset.root)
    with pytest.raises(RenderError, match=re.escape(f"x.md: {message}")):
        renderer.render(markdown, file="x.md", folder=ruleset.root, slug="x", anchors=set())


def test_web_links_anchors_and_picture_names_with_spaces(
    content_copy: Path, tmp_path: Path
) -> None:
    ruleset = load_content(content_copy).ruleset("tower-of-choices")
    shutil.copy(PIXEL, ruleset.root / "my map é.png")
    markdown = ("[site](https://example.com/a?b=1), [mail](mailto:gm@example.com), "
                "[up](#x--rules)\n\n![map](<my map é.png>)")
    blocks, _ = ProseRenderer(ruleset.raw, ruleset.root).render(
        markdown, file="x.md", folder=ruleset.root, slug="x", anchors=set())
    html = "".join(str(b.html) for b in blocks)
    assert 'href="https://example.com/a?b=1"' in html and 'href="#x--rules"' in html
    assert 'href="mailto:gm@example.com"' in html
    # Named by its bytes, not its path: the PDF is the same from any folder (issue 27).
    assert f'src="picture:{hashlib.sha256(PIXEL.read_bytes()).hexdigest()}.png"' in html


def test_a_link_names_a_place_as_the_reader_sees_it(content_copy: Path, tmp_path: Path) -> None:
    """``#challenge-cards`` is the chapter titled so, ``#adding-challenge-cards`` a heading,
    ``#check-rules`` a table and ``#TC-07`` a ruling: each link lands on that place."""
    folder = content_copy / "tower-of-choices"
    first = sorted((folder / "rules").glob("*.md"))[0]
    first.write_text(first.read_text(encoding="utf-8") + (
        "\nSee [the cards](#challenge-cards), [adding](#Adding-challenge-cards), "
        "[the rules](#check-rules) and [conversion](#TC-07).\n"), encoding="utf-8")
    ruleset = load_content(content_copy).ruleset("tower-of-choices")
    chapter = next(c for c in ruleset.chapters if c.title == "Challenge cards")
    out = render(ruleset, tmp_path / "book.pdf")
    reader = pypdf.PdfReader(out)
    names = reader.named_destinations
    dests = {str(annot.get_object()["/Dest"]) for page in reader.pages[2:6]
             for annot in page.get("/Annots", []) if "/Dest" in annot.get_object()}
    wanted = {f"ch-{chapter.slug}", f"{chapter.slug}--adding-challenge-cards",
              "table-check-rules", "ruling-TC-07"}
    assert wanted <= dests
    assert wanted <= set(names)


def test_a_link_to_no_place_is_named_by_validate(content_copy: Path) -> None:
    # A PDF reader ignores a link whose destination is missing: the book went out with it.
    first = sorted((content_copy / "inverted-tower" / "rules").glob("*.md"))[0]
    first.write_text(first.read_text(encoding="utf-8") + "\n[combat](#kombat)\n",
                     encoding="utf-8")
    result = CliRunner().invoke(cli, ["validate", "--content", str(content_copy)])
    assert result.exit_code == 2
    assert result.output.splitlines()[0] == (
        f"towerpress: error: content/inverted-tower/rules/{first.name}: link to '#kombat' "
        "leads nowhere in this book (expected a chapter's or a heading's title in lower case "
        "with dashes, such as '#introduction', a table's name (or #table-NAME) or a ruling ID)"
    )


def test_the_fetcher_refuses_css_references_outside(content_copy: Path, tmp_path: Path) -> None:
    """A template-level reference (here a stylesheet) outside the roots stops the render."""
    from generator.render.pdf import render_document

    html = '<html><head><link rel="stylesheet" href="file:///etc/hostname"></head><body>x</body></html>'
    with pytest.raises(RenderError, match=r"refused reference 'file:///etc/hostname'"):
        render_document(html, content_copy)
    html = '<html><body><img src="http://127.0.0.1:9/x.png"></body></html>'
    with pytest.raises(RenderError, match=r"refused reference 'http://127.0.0.1:9/x.png'"):
        render_document(html, content_copy)


def test_html_format_is_the_weasyprint_input(content: Content, tmp_path: Path) -> None:
    out = tmp_path / "book.html"
    RULEBOOK.write(content.ruleset("inverted-tower"), RulebookOptions(format="html"), out)
    html = out.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") or "<!DOCTYPE html>" in html[:200]
    assert "The Inverted Tower" in html
    assert "@font-face" in html
    # It stands alone, to preview in a browser wherever it is saved: the stylesheets are in
    # it, and it names no file by a relative path.
    assert ".ruling-ref.tied" in html and ".chapter.flow" in html
    relative = [ref for ref in re.findall(r'(?:href|src)="([^"]*)"', html)
                if not re.match(r"#|file:|https?:|data:", ref)]
    assert relative == []


def test_a_list_of_chapters_numbers_them_as_the_book_does(
    content: Content, books: dict[str, Path]
) -> None:
    # The Inverted Tower's introduction lists chapters 2 to 10: the list starts at 2 in the
    # Markdown, and WeasyPrint, which reads <ol start> only as a presentational hint, must
    # print 2, not 1.
    ruleset = content.ruleset("inverted-tower")
    text = "\n".join(pdf_pages(books["inverted-tower"]))
    listed = text[text.index("The chapters") :]
    for number, chapter in enumerate(ruleset.chapters[1:], start=2):
        assert re.search(rf"^\s*{number}\. {re.escape(chapter.title)}", listed, re.M), (
            number,
            chapter.title,
        )


def test_quick_reference_columns_are_balanced_and_side_by_side(
    content: Content, books: dict[str, Path]
) -> None:
    # The split is ours (quick_columns.py), not WeasyPrint's balancing: both columns hold
    # text, none crosses the middle, and neither holds much more than half of it (a block
    # is never cut, and Tower of Choices' skill table alone is two fifths of its page).
    for ruleset_id, path in books.items():
        pdf = opened(path)
        page = pdf.pages[_quick_page(content, ruleset_id, path)]
        words = page.extract_words()
        title = next(w for w in words if w["text"] == "Quick")
        # The folio, centred in the bottom margin, belongs to neither column.
        foot = float(page.height) * 0.94
        body = [w for w in words if title["bottom"] + 2 < w["top"] < foot]
        middle = float(page.width) / 2
        left = [w for w in body if w["x1"] <= middle]
        right = [w for w in body if w["x0"] >= middle]
        assert len(left) + len(right) == len(body), ruleset_id
        assert left and right, ruleset_id
        top = min(w["top"] for w in body)
        heights = [max(w["bottom"] for w in column) - top for column in (left, right)]
        assert max(heights) < 0.65 * sum(heights), (ruleset_id, heights)


def test_prose_nested_too_deeply_is_refused(content: Content) -> None:
    """500 emphases passed validate, then overflowed WeasyPrint's layout as a bug."""
    ruleset = content.ruleset("tower-of-choices")
    renderer = ProseRenderer(ruleset.raw, ruleset.root)
    with pytest.raises(RenderError, match=re.escape(
            "x.md: emphasis, links or lists nested 250 deep (expected at most 40)")):
        renderer.render("*" * 500 + "x" + "*" * 500, file="x.md", folder=ruleset.root,
                        slug="x", anchors=set())
    deep = "".join(f"{'  ' * i}- level {i}\n" for i in range(8))
    blocks, _ = renderer.render(deep, file="x.md", folder=ruleset.root, slug="x",
                                anchors=set())
    assert "level 7" in str(blocks[0].html)


def test_a_word_wider_than_its_line_is_broken_not_cut_off(
    content_copy: Path, tmp_path: Path
) -> None:
    """A very long word ran off the page and was clipped, with exit code 0."""
    chapter = content_copy / "tower-of-choices" / "rules" / "01-introduction.md"
    word = "Quux" * 80
    chapter.write_text(chapter.read_text(encoding="utf-8") + f"\n\nA {word} here.\n",
                       encoding="utf-8")
    out = tmp_path / "book.pdf"
    RULEBOOK.write(load_content(content_copy).ruleset("tower-of-choices"),
                   RulebookOptions(paper="a5"), out)
    with pdfplumber.open(out) as pdf:
        found = [page for page in pdf.pages if "QuuxQuux" in (page.extract_text() or "")]
        assert found
        for page in found:
            assert all(c["x0"] >= 0 and c["x1"] <= page.width for c in page.chars)


def test_the_appendix_says_why_a_declared_rulings_readings_cannot_differ(
    content: Content,
) -> None:
    """A ruling the solo engine cannot play both ways says so under its question: the one
    only several players meet, and the one another ruling settles (issue 24)."""
    notes = {"multiplayer": "Only a game of several players meets this point",
             "decided": "In play, the reading of {} settles this point."}
    seen = set()
    for ruleset in content.rulesets.values():
        html = rulebook_html(ruleset)
        for ruling in ruleset.rulings:
            row = html.split(f'id="ruling-{ruling.id}"', 1)[1].split("</tr>", 1)[0]
            if ruling.scope:
                assert notes["multiplayer"] in row, ruling.id
                seen.add("multiplayer")
            elif ruling.decided_by:
                assert notes["decided"].format(ruling.decided_by) in row, ruling.id
                seen.add("decided")
            else:
                assert "settles this point" not in row and "several players meets" not in row
    assert seen == {"multiplayer", "decided"}, "no declared ruling left to check"


def test_the_html_preview_names_pictures_by_their_files(content_copy: Path,
                                                        tmp_path: Path) -> None:
    """A browser cannot open the picture: URLs the renderer's own fetcher serves."""
    rules = content_copy / "tower-of-choices" / "rules"
    shutil.copy(PIXEL, rules / "map.png")
    chapter = sorted(rules.glob("*.md"))[0]
    chapter.write_text(chapter.read_text(encoding="utf-8") + "\n![map](map.png)\n",
                       encoding="utf-8")
    ruleset = load_content(content_copy).ruleset("tower-of-choices")
    out = tmp_path / "book.html"
    RULEBOOK.write(ruleset, RulebookOptions(format="html"), out)
    html = out.read_text(encoding="utf-8")
    assert f'src="{(rules / "map.png").as_uri()}"' in html and "picture:" not in html
