"""The rulebook covers: each ruleset's own drawing, its text inside the frame, the frame
filled to its foot, and the motif read from the content (ruleset.toml's [cover])."""

from __future__ import annotations

import ctypes
import math
import re
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any

import pypdf
import pypdfium2
import pypdfium2.raw as pdfium_c
import pytest

from generator.model.cover import COVER_MOTIFS
from generator.model.loader import Content
from generator.products.rulebook.cover import credit_lines
from generator.products.rulebook.html import rulebook_html
from generator.products.rulebook.motifs import MOTIFS
from generator.render.pdf import pdf_bytes, render_document
from tests.commands import run_here
from tests.content import RULESETS, edit
from tests.pdfs import plain_quotes
from tests.products.rulebook.support import MM, bundled
from tests.renders import Renders

FRAME_MM = 14  # the frame's margin from the trim (cover.css)
SKILLS = "tables/skills.toml"


@pytest.fixture(scope="module")
def books(renders: Renders, content: Content) -> dict[str, Path]:
    """The bundled rulebooks on A4, as test_pdf.py has them made in the session."""
    return renders.many({rid: bundled(content, rid) for rid in RULESETS})


@pytest.fixture(scope="module")
def a5_covers(content: Content, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each book's A5 cover, with bleed and crop marks: the book's own HTML up to its
    contents, laid out alone (a whole book takes 12 s; its cover page is the same)."""
    folder = tmp_path_factory.mktemp("covers")
    found = {}
    for rid in RULESETS:
        ruleset = content.ruleset(rid)
        html = rulebook_html(ruleset, paper="a5", print_marks=True)
        html = html[:html.index('<nav class="contents"')] + html[html.rindex("</body>"):]
        found[rid] = folder / f"{rid}.pdf"
        found[rid].write_bytes(pdf_bytes(render_document(html, ruleset.root)))
    return found


def cover_html(content: Content, ruleset_id: str) -> str:
    html = rulebook_html(content.ruleset(ruleset_id))
    return html[html.index('<section class="cover">'):html.index('<nav class="contents"')]


def test_every_motif_is_drawn() -> None:
    assert set(MOTIFS) == set(COVER_MOTIFS)


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_each_cover_draws_its_own_motif(content: Content, ruleset_id: str) -> None:
    motif = content.ruleset(ruleset_id).info.cover.motif
    html = cover_html(content, ruleset_id)
    drawn = re.findall(r'class="cover-art cover-(\w+)"', html)
    assert drawn == [motif]
    assert {content.ruleset(r).info.cover.motif for r in RULESETS} == set(COVER_MOTIFS)


def test_a_game_without_dice_has_no_die_on_its_cover(content: Content) -> None:
    # Tower of Choices is played with cards: its cover carried six d6 faces.
    html = cover_html(content, "tower-of-choices")
    assert 'class="die"' not in html and "<circle" not in html  # no face, no pip
    skills = [s["name"] for s in content.ruleset("tower-of-choices").sources[SKILLS]["skills"]]
    labels = re.findall(r"<text [^>]*>([^<]+)</text>", html)
    assert sorted(set(labels) - set(skills)) == sorted(name.upper() for name in skills)


def test_the_dungeon_cover_draws_the_map_sheet_grid(content: Content) -> None:
    ruleset = content.ruleset("three-dice-dungeon")
    grid = ruleset.sources["sheets/log.toml"]["sections"][0]
    html = cover_html(content, "three-dice-dungeon")
    lines = re.search(r'<path d="([^"]+)" stroke="#9a9a9a"', html)
    assert lines is not None
    assert lines.group(1).count("V") == grid["columns"] + 1
    assert lines.group(1).count("H") == grid["rows"] + 1


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_the_cover_is_one_page(content: Content, books: dict[str, Path],
                               ruleset_id: str) -> None:
    pages = pypdf.PdfReader(books[ruleset_id]).pages
    info = content.ruleset(ruleset_id).info
    assert info.title in pages[0].extract_text()
    foot = plain_quotes(info.credits[-1].author)
    assert foot in plain_quotes(pages[0].extract_text())  # the foot of the cover
    assert pages[1].extract_text().lstrip().startswith("Contents")


@dataclass(frozen=True)
class Char:
    """A character of the cover: its ink's box and its baseline, in millimetres from the
    top left of the page as drawn (bleed included: pdfplumber misplaces the text of a page
    whose box starts below 0)."""

    left: float
    top: float
    right: float
    bottom: float
    baseline: float
    upright: bool  # the drawing's names are turned


def _chars(path: Path) -> list[Char]:
    page = pypdfium2.PdfDocument(str(path))[0]
    text = page.get_textpage()
    x0, _, _, y1 = page.get_mediabox()
    found = []
    for i in range(text.count_chars()):
        if not text.get_text_range(i, 1).strip():
            continue
        left, bottom, right, top = text.get_charbox(i)
        matrix = pdfium_c.FS_MATRIX()
        pdfium_c.FPDFText_GetMatrix(text.raw, i, ctypes.byref(matrix))
        x, y = ctypes.c_double(), ctypes.c_double()
        pdfium_c.FPDFText_GetCharOrigin(text.raw, i, ctypes.byref(x), ctypes.byref(y))
        found.append(Char((left - x0) / MM, (y1 - top) / MM, (right - x0) / MM,
                          (y1 - bottom) / MM, (y1 - y.value) / MM,
                          abs(matrix.b) < 1e-6 and abs(matrix.c) < 1e-6))
    return found


def _inside_frame(path: Path, bleed_mm: float = 0) -> list[Char]:
    """The characters of the cover's page that are not inside its frame."""
    page = pypdfium2.PdfDocument(str(path))[0]
    width, height = (size / MM for size in page.get_size())
    inset = FRAME_MM + bleed_mm
    return [c for c in _chars(path) if c.left < inset or c.right > width - inset
            or c.top < inset or c.bottom > height - inset]


def test_the_text_is_inside_the_frame(books: dict[str, Path],
                                      a5_covers: dict[str, Path]) -> None:
    for ruleset_id in RULESETS:
        assert _inside_frame(books[ruleset_id]) == [], ruleset_id
        assert _inside_frame(a5_covers[ruleset_id], bleed_mm=3) == [], ruleset_id


def _lines(path: Path) -> list[tuple[float, float]]:
    """The cover's upright lines of text (the drawing's turned names left out), each as
    the top and bottom of its letters' ink in millimetres, from the top of the page down."""
    lines: dict[float, list[Char]] = {}
    for c in (c for c in _chars(path) if c.upright):
        lines.setdefault(round(c.baseline, 1), []).append(c)
    return sorted((min(c.top for c in cs), max(c.bottom for c in cs)) for cs in lines.values())


def test_no_line_of_text_overlaps_another(books: dict[str, Path],
                                          a5_covers: dict[str, Path]) -> None:
    # The drawing sized for too little text would push the description over the credits.
    for path in [*books.values(), *a5_covers.values()]:
        lines = _lines(path)
        assert len(lines) > 8, path.name
        clashes = [(a, b) for a, b in pairwise(lines) if b[0] < a[1] - 0.2]
        assert clashes == [], path.name


def _page(path: Path) -> tuple[Any, float]:
    """The cover's page in grey at 50 dpi, and its pixels a millimetre."""
    page = pypdfium2.PdfDocument(str(path))[0]
    image = page.render(scale=50 / 72, grayscale=True).to_pil()
    return image, image.width / (page.get_width() / MM)


def _inked(path: Path, bleed_mm: float) -> list[bool]:
    """For each pixel row inside the frame, top down: does it carry ink?"""
    image, dots = _page(path)
    edge = (FRAME_MM + bleed_mm + 2) * dots  # inside the frame's double rule
    left, right = round(edge), round(image.width - edge)
    pixels = image.load()
    return [any(pixels[x, y] < 200 for x in range(left, right))
            for y in range(round(edge), round(image.height - edge))]


def _widest_blank(rows: list[bool]) -> int:
    run = best = 0
    for inked in rows:
        run = 0 if inked else run + 1
        best = max(best, run)
    return best


def test_the_lower_part_of_the_frame_is_not_empty(books: dict[str, Path],
                                                  a5_covers: dict[str, Path]) -> None:
    # The text-only cover left the lower 40% of its frame blank but for the credits: a
    # blank band of 40% of the frame on A4, 22-24% on A5.
    for ruleset_id in RULESETS:
        for path, bleed in ((books[ruleset_id], 0), (a5_covers[ruleset_id], 3)):
            rows = _inked(path, bleed)
            lower = rows[round(len(rows) * 0.6):]
            assert _widest_blank(lower) / len(rows) < 0.12, (ruleset_id, path.name)


def test_the_drawing_keeps_clear_of_the_text(books: dict[str, Path],
                                             a5_covers: dict[str, Path]) -> None:
    # Sized for the room the text leaves, the drawing has 4 mm of blank above and below.
    for path in [*books.values(), *a5_covers.values()]:
        image, dots = _page(path)
        lines = _lines(path)
        # The drawing lies in the widest gap between two lines: the subtitle, the description.
        above, below = max(pairwise(lines), key=lambda p: p[1][0] - p[0][1])
        top, bottom = round((above[1] + 0.5) * dots), round((below[0] - 0.5) * dots)
        margin = round(4 * dots)
        pixels = image.load()
        edge = round((FRAME_MM + 5) * dots)  # inside the frame, with or without bleed
        inked = [any(pixels[x, y] < 200 for x in range(edge, image.width - edge))
                 for y in range(top, bottom)]
        assert not any(inked[:margin]) and not any(inked[-margin:]), path.name
        assert sum(inked) > 0.5 * len(inked), path.name  # and the drawing is there


def test_no_cover_text_is_under_7_pt(books: dict[str, Path],
                                     a5_covers: dict[str, Path]) -> None:
    # The drawing's names included: a name set in the SVG is scaled with it.
    for path in [*books.values(), *a5_covers.values()]:
        page = pypdfium2.PdfDocument(str(path))[0].get_textpage()
        sizes = []
        for i in range(page.count_chars()):
            if page.get_text_range(i, 1).strip():
                matrix = pdfium_c.FS_MATRIX()
                pdfium_c.FPDFText_GetMatrix(page.raw, i, ctypes.byref(matrix))
                sizes.append(pdfium_c.FPDFText_GetFontSize(page.raw, i)
                             * math.hypot(matrix.c, matrix.d))
        assert sizes and min(sizes) >= 7, (path.name, min(sizes))


def test_an_author_of_two_works_is_named_once(content: Content,
                                              books: dict[str, Path]) -> None:
    info = content.ruleset("inverted-tower").info
    author = info.credits[0].author
    assert [c.author for c in info.credits].count(author) == 2  # else this checks nothing
    cover = " ".join(pypdf.PdfReader(books["inverted-tower"]).pages[0].extract_text().split())
    assert cover.count(author.split(" (")[0]) == 1
    line, = credit_lines(info.credits)
    assert line.works == "The Inverted Tower, Draft 3 and Draft 4.5"


def test_the_cover_is_the_same_each_time(content: Content) -> None:
    assert cover_html(content, "three-dice-dungeon") == cover_html(content, "three-dice-dungeon")


def test_an_unknown_motif_is_one_line_and_exit_2(content_copy: Path) -> None:
    edit(content_copy / "inverted-tower" / "ruleset.toml", 'motif = "tower"', 'motif = "spire"')
    result = run_here("validate", "--content", str(content_copy))
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        "towerpress: error: content/inverted-tower/ruleset.toml: cover.motif: unknown cover "
        "motif 'spire' (expected one of: cards, dungeon, tower)",
    ]


def test_a_number_the_cover_reads_must_exist(content_copy: Path) -> None:
    edit(content_copy / "inverted-tower" / "ruleset.toml", '"tables/floor.max_rooms"',
         '"tables/floor.rooms"')
    result = run_here("validate", "--content", str(content_copy))
    assert result.returncode == 2
    assert "cover.rooms: 'tables/floor.rooms': 'rooms' does not exist" in result.stderr
