"""Lines break as late as the text allows, at any measure, around what WeasyPrint 70 breaks
badly: a text that ends in a no-break space right before an element makes it break that
line after its *first* word.  Ruling marks are tied to their word without one; a no-break
space an author types before emphasis is moved inside it."""

from __future__ import annotations

import io
import re
from itertools import pairwise

import pdfplumber
import pytest

from generator.model.loader import Content
from generator.products.rulebook.html import rulebook_html
from generator.render import pdf as pdf_module
from generator.render.fonts import SANS, SERIF, font_face_css
from generator.render.markdown import ProseRenderer
from generator.render.typography import typeset
from tests.content import RULESETS

MM = 72 / 25.4
MEASURES = range(60, 121, 2)  # mm
PARAGRAPH = (
    "Roll once on the treasure table after each encounter you win, and after each trap you"
    " get past {{{{ ruling: {0} }}}}. Merchant rooms give none. A trap room holds no"
    " monsters either {{{{ ruling: {1} }}}}, and a room you go back to sets no new TARGET"
    " {{{{ ruling: {0} }}}}."
)
Word = dict[str, float | str]


def lines_at(html: str, width_mm: int, content: Content) -> list[list[Word]]:
    """The words of each line when ``html`` is set ragged-right ``width_mm`` wide, with the
    rulebook's stylesheet: ragged, so that a line's end shows where it broke."""
    page = (f"<style>{font_face_css()} :root {{ --serif: {SERIF}; --sans: {SANS};"
            f" --font-size: 10pt; }} @page {{ size: {width_mm + 20}mm 150mm; margin: 10mm; }}"
            f" p {{ text-align: left; hyphens: manual; }}</style>"
            f'<link rel="stylesheet" href="base/book.css">{html}')
    document = pdf_module.render_document(page, content.root)
    assert pdf_module.last_warnings == []
    with pdfplumber.open(io.BytesIO(pdf_module.pdf_bytes(document))) as pdf:
        words = pdf.pages[0].extract_words(use_text_flow=True)
    lines: list[list[Word]] = []
    for word in words:
        if lines and abs(float(lines[-1][-1]["top"]) - float(word["top"])) < 3:
            lines[-1].append(word)
        else:
            lines.append([word])
    return lines


def early_breaks(lines: list[list[Word]], width_mm: int, tied: re.Pattern[str]) -> list[str]:
    """The lines that end although the next line's first unbreakable piece (a word, or a
    word and what ``tied`` matches after it) would have fitted after them."""
    right = 10 * MM + width_mm * MM
    found = []
    for line, following in pairwise(lines):
        with_next = len(following) > 1 and tied.match(str(following[1]["text"]))
        piece = following[1] if with_next else following[0]
        needed = float(piece["x1"]) - float(following[0]["x0"])
        room = right - float(line[-1]["x1"]) - 2.6  # less a space of the 10 pt text
        if needed < room:
            found.append(f"{width_mm} mm: {' '.join(str(w['text']) for w in line)!r} broke"
                         f" early; {needed:.1f} pt of the next line fit in {room:.1f} pt")
    return found


@pytest.mark.parametrize("width_mm", MEASURES)
def test_a_line_with_a_tied_mark_breaks_as_late_as_the_text_allows(
    content: Content, width_mm: int
) -> None:
    # "You", "check" and "encounter" stood alone on lines of the books when marks were
    # tied with a no-break space.
    ruleset = content.ruleset("inverted-tower")
    first, second = (ruling.id for ruling in ruleset.rulings[:2])
    blocks, _ = ProseRenderer(ruleset.raw, ruleset.root).render(
        PARAGRAPH.format(first, second), file="test.md", folder=ruleset.root, slug="test",
        anchors=set())
    assert len(blocks) == 1 and blocks[0].html is not None
    assert blocks[0].html.count('class="ruling-ref tied"') == 3  # "TARGET" is a span
    lines = lines_at(blocks[0].html, width_mm, content)
    mark = re.compile(rf"^({first}|{second})\b")
    assert not [line for line in lines[1:] if mark.match(str(line[0]["text"]))], \
        "a mark begins a line"
    assert early_breaks(lines, width_mm, mark) == []


@pytest.mark.parametrize("width_mm", MEASURES)
def test_a_no_break_space_before_emphasis_breaks_as_late_as_the_text_allows(
    content: Content, width_mm: int
) -> None:
    html = typeset(
        "<p>Roll once on the treasure table after each encounter you win, and after each"
        " trap you get past\u00a0<em>Gate</em>. Merchant rooms give none. A trap room holds"
        " no monsters and gives&nbsp;<strong><em>nothing</em></strong>.</p>")
    assert "\u00a0<" not in html and "&nbsp;<" not in html
    lines = lines_at(html, width_mm, content)
    assert early_breaks(lines, width_mm, re.compile(r"^(Gate|nothing)\b")) == []


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_no_text_ends_in_a_no_break_space_before_an_element(
    content: Content, ruleset_id: str
) -> None:
    html = re.sub(r"<style.*?</style>", "", rulebook_html(content.ruleset(ruleset_id)),
                  flags=re.S)
    assert html.count("ruling-ref tied") > 10
    assert re.findall(r".{30}(?:\u00a0|&nbsp;|&#160;)<(?!/(?:td|th|p|li|div)>|br)", html) == []
