"""Tower of Choices' own pages of the printed booklet (templates/booklet/tower-of-choices.html),
read from the PDF of seed 1234 (one render a module): the worksheet, the characters made
ready as the JSON has them, and the trial's key; and, from the HTML alone, that the pages
print what the JSON says and draw no die.

pypdf reads the outline (each part's page).  The text is pdfplumber's: pypdf reads the
serif's old-style figures as Cyrillic letters.  In the booklet as render_booklet makes it
(the log sheet's pages spliced in), the sans "ft" ligature has no text of its own
("Spellcra(cid:517)"), which a single layout of the same HTML does not show: :func:`shows`
lets it stand for "ft", and :func:`test_every_glyph_reads_as_text` says whether it still
happens."""

from __future__ import annotations

import copy
import io
import re
from dataclasses import dataclass
from html import unescape
from typing import Any

import pdfplumber
import pytest
from pypdf import PdfReader

from generator.model.loader import Content
from generator.products.booklet.html import booklet_html
from generator.products.booklet.pages import booklet_paper
from tests.products.booklet.support import booklet, part_pages, printed_files
from tests.renders import Renders

RULESET = "tower-of-choices"
WORKSHEET, KEY = "Your character", "The trial, room by room"


@dataclass(frozen=True)
class Printed:
    document: dict[str, Any]  # as laid out (its sections renumbered for these pages)
    pages: list[str]  # the text of each page
    parts: dict[str, int]  # each top-level bookmark's title -> its page, from 1

    def text(self, first: str, last: str = "") -> str:
        """The text of the pages from part ``first`` to the page before part ``last`` (to
        the page of ``first`` alone without it)."""
        start = self.parts[first]
        end = self.parts[last] - 1 if last else start
        return "\n".join(self.pages[start - 1:end])


def read_printed(document: dict[str, Any], pdf: bytes) -> Printed:
    reader = PdfReader(io.BytesIO(pdf))
    parts = part_pages(reader)
    with pdfplumber.open(io.BytesIO(pdf)) as opened:
        pages = [page.extract_text() or "" for page in opened.pages]
    return Printed(document, pages, parts)


@pytest.fixture(scope="module")
def seed_1234(renders: Renders) -> Printed:
    """The session's printed Tower of Choices booklet (tests/products/booklet/support.py)."""
    document, pdf, _ = printed_files(renders, RULESET)
    return read_printed(document, pdf.read_bytes())


def flat(text: str) -> str:
    """Text with its lines joined and hyphens at line ends undone, spaces made one, and
    the typographer's apostrophes and minus signs made plain."""
    plain = text.translate(str.maketrans("\u2019\u2212", "'-"))
    return re.sub(r"\s+", " ", re.sub(r"-\n", "", plain))


#: A glyph the PDF gives no text for, as pdfplumber writes it.
UNREAD = re.compile(r"\(cid:\d+\)")


def shows(page: str, text: str) -> bool:
    """Whether ``page`` (flat) shows ``text``, an "ft" read or an unread glyph (above)."""
    return re.search(re.escape(text).replace("ft", r"(?:ft|\(cid:\d+\))"), page) is not None


def ready(book: Printed) -> str:
    """The text of the page of the characters made ready."""
    title = f"{len(book.document['characters'])} characters made ready"
    return flat(book.text(title))


# -- the PDF --------------------------------------------------------------------------------


def test_the_character_page_names_each_characters_skills_as_the_json_says(
        seed_1234: Printed) -> None:
    page = ready(seed_1234)
    for number, character in enumerate(seed_1234.document["characters"], 1):
        head = f"{number} {', '.join(character['skills'])}"
        assert shows(page, head), head
        assert character["ability"] in page
        assert f"{character['coins_left']} left of {character['coins']}" in page
        for card in character["deck"]:
            assert shows(page, f"{card['cards']} {card['skill']}"), card
        assert all(shows(page, item) for item in character["items"])


def test_the_parts_come_in_order_each_on_its_own_pages(seed_1234: Printed) -> None:
    parts = seed_1234.parts
    made = f"{len(seed_1234.document['characters'])} characters made ready"
    assert parts["How to play this booklet"] < parts[WORKSHEET] < parts[made]
    assert parts[made] - parts[WORKSHEET] == 2  # the worksheet takes two pages on A5
    assert parts[made] < parts["The sections"]
    assert parts["The answers"] < parts[KEY]


def test_the_worksheet_lists_the_choices(seed_1234: Printed) -> None:
    creation = seed_1234.document["creation"]
    sheet = flat(seed_1234.text(WORKSHEET, f"{len(seed_1234.document['characters'])} "
                                "characters made ready"))
    assert all(shows(sheet, name) for name in creation["skills"]["names"])
    assert all(a["name"] in sheet for a in creation["abilities"]["list"])
    for item in creation["items"]["catalogue"]:
        assert shows(sheet, f"{item['name']} {item['cost']}"), item["name"]
    assert f"Pick {creation['skills']['pick']} different skills (TC-14)" in sheet
    assert f"You have {creation['items']['coins']} coins" in sheet
    assert "Skill 1" in sheet and "Item 3" in sheet and "Coins left" in sheet
    assert "Cards in your deck" in sheet


def test_the_key_gives_every_obstacle_with_its_sections(seed_1234: Printed) -> None:
    document = seed_1234.document
    key = flat("\n".join(seed_1234.pages[seed_1234.parts[KEY] - 1:]))
    numbers = set(re.findall(r"\d+", key))
    for room in document["rooms"]:
        assert f"Room {room['number']} {room['name']}".upper() in key.upper(), room["name"]
        for obstacle in room["obstacles"]:
            assert shows(key, obstacle["name"]), obstacle["name"]
            assert shows(key, obstacle["setback"])
            wanted = [obstacle["section"], obstacle["success"], obstacle["failure"],
                      *(a["section"] for a in obstacle["approaches"])]
            assert {str(n) for n in wanted} <= numbers, obstacle["name"]
    assert f"The victory is section {document['victory']}" in key


def test_every_glyph_reads_as_text(seed_1234: Printed) -> None:
    """A reader searching the PDF for "Spellcraft" finds it on these pages."""
    own = [seed_1234.text(WORKSHEET, f"{len(seed_1234.document['characters'])} characters "
                          "made ready"), ready(seed_1234)]
    assert not [found for text in own for found in UNREAD.findall(text)]


# -- the HTML: what the template prints -----------------------------------------------------


def own_html(content: Content, document: dict[str, Any]) -> str:
    """The booklet's HTML of this ruleset's parts, its tags left out (no layout: a test of
    what the template prints, kept to one PDF a module)."""
    html, _ = booklet_html(document, content.ruleset(RULESET).info, booklet_paper("a5"),
                           json_name="booklet.json", log_pages=1)
    parts = re.findall(r'<section class="part tc-.*?</section>', html, re.DOTALL)
    assert len(parts) == 3
    return "\n".join(parts)


def words_of(html: str) -> str:
    """The words of ``html``, tags and entities gone, spaces made one."""
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)).replace("\u00a0", " "))


def test_the_pages_change_with_the_json(content: Content, seed_1234: Printed) -> None:
    """The pages decide nothing: other characters and other numbers print as they are."""
    changed = copy.deepcopy(seed_1234.document)
    character = changed["characters"][0]
    character.update(skills=["Luck", "Grace", "Speech"], coins_left=41, coins=99,
                     deck=[{"skill": "Luck", "cards": 5}])
    changed["creation"]["items"]["coins"] = 17
    changed["creation"]["items"]["catalogue"][0]["cost"] = 9
    changed["rooms"][0]["obstacles"][0]["approaches"][0].update(draw=8, target=7)
    page = words_of(own_html(content, changed))
    assert page != words_of(own_html(content, seed_1234.document))
    assert "1 Luck, Grace, Speech" in page and "41 left of 99" in page and "5 Luck" in page
    assert "You have 17 coins" in page
    assert f"{changed['creation']['items']['catalogue'][0]['name']} 9" in page
    approach = changed["rooms"][0]["obstacles"][0]["approaches"][0]
    assert f" 8 7 {approach['section']} " in page  # DRAW, TARGET, the check's section


def test_the_worksheet_follows_the_profiles_readings(content: Content) -> None:
    """TC-14, TC-15 and TC-16 Alt, as the JSON says them, change the rules it prints."""
    document = booklet(content, RULESET, "5")
    alt = copy.deepcopy(document)
    alt["creation"]["skills"]["different"] = False
    alt["creation"]["items"].update(exactly=True, kit_pieces_count=True)
    faithful, changed = words_of(own_html(content, document)), words_of(own_html(content, alt))
    assert "different skills (TC-14)" in faithful
    assert "you may pick one more than once (TC-14)" in changed
    assert "Buy up to 3 items" in faithful and "Buy exactly 3 items" in changed
    assert "a kit counting as one (TC-16)" in faithful
    assert "each piece of a kit counting as one (TC-16)" in changed
    assert "Counts as" in changed and "Counts as" not in faithful


def test_no_die_is_drawn(content: Content, seed_1234: Printed) -> None:
    """Tower of Choices rolls no dice: its pages draw no die face, and the seed's picks in
    the key are numbers."""
    html = own_html(content, seed_1234.document)
    assert "<svg" not in html and "<img" not in html and 'class="die' not in html
    room = seed_1234.document["rooms"][0]
    pick = room["picks"][0]
    assert f"{pick['name']} {pick['value']} /{pick['bound']}" in words_of(html)
