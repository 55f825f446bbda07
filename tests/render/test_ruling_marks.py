"""A ruling mark in the prose: tied to the word before it, and the line still breaks where
the text allows, at any measure."""

from __future__ import annotations

import io
import re
from itertools import pairwise

import pdfplumber
import pytest

from generator.model.loader import Content
from generator.render import pdf as pdf_module
from generator.render.fonts import SANS, SERIF, font_face_css
from generator.render.markdown import ProseRenderer
from generator.render.rulebook import rulebook_html
from tests.conftest import RULESETS

MM = 72 / 25.4
PARAGRAPH = (
    "Roll once on the treasure table after each encounter you win, and after each trap you"
    " get past {{{{ ruling: {0} }}}}. Merchant rooms give none. A trap room holds no"
    " monsters either {{{{ ruling: {1} }}}}, and a room you go back to sets no new TARGET"
    " {{{{ ruling: {0} }}}}."
)


def lines_at(html: str, width_mm: int, content: Content) -> list[list[dict[str, float | str]]]:
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
    lines: list[list[dict[str, float | str]]] = []
    for word in words:
        if lines and abs(float(lines[-1][-1]["top"]) - float(word["top"])) < 3:
            lines[-1].append(word)
        else:
            lines.append([word])
    return lines


@pytest.mark.parametrize("width_mm", range(60, 121, 2))
def test_a_line_with_a_tied_mark_breaks_as_late_as_the_text_allows(
    content: Content, width_mm: int
) -> None:
    # WeasyPrint 70 broke "… you get past IT-15." after the line's *first* word ("You",
    # "check", "encounter" alone on a line) when the mark was tied with a no-break space.
    ruleset = content.ruleset("inverted-tower")
    first, second = (ruling.id for ruling in ruleset.rulings[:2])
    blocks, _ = ProseRenderer(ruleset.raw, ruleset.root).render(
        PARAGRAPH.format(first, second), file="test.md", folder=ruleset.root, slug="test",
        anchors=set())
    assert len(blocks) == 1 and blocks[0].html is not None
    assert blocks[0].html.count('class="ruling-ref tied"') == 3  # "TARGET" is a span
    lines = lines_at(blocks[0].html, width_mm, content)
    mark = re.compile(rf"^({first}|{second})\b")
    right = 10 * MM + width_mm * MM
    for line, following in pairwise(lines):
        assert not mark.match(str(following[0]["text"])), f"a mark begins a line: {following}"
        # The next line's first unbreakable piece: a word, or a word and the mark tied to it.
        tied = len(following) > 1 and mark.match(str(following[1]["text"]))
        piece = following[1] if tied else following[0]
        needed = float(piece["x1"]) - float(following[0]["x0"])
        room = right - float(line[-1]["x1"]) - 2.6  # less a space of the 10 pt text
        assert needed > room, (
            f"{width_mm} mm: the line {' '.join(str(w['text']) for w in line)!r} broke early;"
            f" {needed:.1f} pt of the next line would fit in {room:.1f} pt")


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_no_text_ends_in_a_no_break_space_before_an_element(
    content: Content, ruleset_id: str
) -> None:
    # What set off the early breaks above: WeasyPrint 70 mis-breaks a line whose text ends
    # in a no-break space right before an inline element.  Between elements and text only.
    html = re.sub(r"<style.*?</style>", "", rulebook_html(content.ruleset(ruleset_id)),
                  flags=re.S)
    assert html.count("ruling-ref tied") > 10
    assert re.findall(r".{30}(?:\u00a0|&nbsp;|&#160;)<(?!/(?:td|th|p|li|div)>|br)", html) == []
