"""Card PDFs: geometry read back from the PDF, text against the model, errors, PNG sheets."""

from __future__ import annotations

import itertools
import re
import struct
from collections.abc import Iterable, Iterator
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

import pdfplumber
import pypdf
import pytest

from generator.model.loader import Content
from generator.model.paper import CARD_PAPERS, PAPERS
from generator.products.cards.back import FRAME_INSET
from generator.products.cards.compose import MARK_WIDTH
from generator.products.cards.fit import STEP_PT
from generator.products.cards.imposition import MARGIN, SIZES, card_size, layout
from generator.products.cards.notes import SIZE as NOTE_SIZE
from generator.products.cards.pieces import (
    FACE_INSET,
    MIN_PT,
    FrontJob,
    back_size,
    base_size,
    lay_out_batch,
)
from generator.products.cards.png import TTS_COLS, TTS_ROWS, card_pixels, write_tts_sheets
from generator.products.cards.printing import CardOptions, select_decks, write_cards
from generator.render.capitals import is_name
from generator.rulesets import load_content
from tests.commands import run, run_here
from tests.content import RULESETS, edit
from tests.pdfs import hyphenated, opened, pdf_faults, plain_quotes, ranges, straight_quotes
from tests.products.cards.support import MM, TOL, render, white_rects
from tests.renders import Renders


@pytest.fixture(scope="session")
def full(renders: Renders) -> dict[str, Path]:
    """Every deck of every ruleset, A4 poker, long-edge duplex, laid out by two processes."""
    return renders.many({r: (f"cards-{r}-a4-poker.pdf", partial(render, r, workers=2))
                         for r in RULESETS})


@pytest.fixture(scope="session")
def mini(renders: Renders) -> Path:
    """Every deck of Tower of Choices on mini cards: the A4 sheets turned landscape, the
    notes beside the cards turned to read upwards, sentences that hyphenate."""
    make = partial(render, "tower-of-choices", size=card_size("mini"))
    return renders.many({"mini": ("cards-tower-of-choices-a4-mini.pdf", make)})["mini"]


@pytest.fixture(scope="session")
def one_card(renders: Renders) -> dict[tuple[str, str], Path]:
    """A full sheet of one card and one more on a sheet of its own, in every size preset on
    both papers (cheap renders: the card is laid out once)."""
    return renders.many({(paper, size): (f"cards-one-{paper}-{size}.pdf",
                                         partial(_one_card, paper, size))
                         for paper in CARD_PAPERS for size in SIZES})


def _one_card(paper: str, size: str, out: Path) -> Path:
    ruleset = load_content().ruleset("inverted-tower")
    deck = select_decks(ruleset, "items", ruleset.profile())[0]
    count = layout(paper, card_size(size)).per_sheet + 1
    sheet = replace(deck, cards=deck.cards[:1] * count)
    return render("inverted-tower", out, [sheet], paper=paper, size=card_size(size))


def squeeze(text: str) -> str:
    """Text without spaces and hyphens: line breaks and hyphenation do not count."""
    return re.sub(r"[\s\-\u2010]+", "", text)


def card_texts(path: Path, *, flow: bool = False) -> list[str]:
    """The text of every card as laid out, read card by card (cropped to its box): line by
    line across the card, or with ``flow`` in the order it is drawn, where a table cell's
    lines follow one another instead of running on into the next cell's."""
    cards = []
    pdf = opened(path)
    for page in pdf.pages:
        for x, y, w, h in white_rects(page):
            box = page.crop((x * MM, y * MM, (x + w) * MM, (y + h) * MM))
            text = box.extract_text(use_text_flow=flow)
            cards.append(text or "")
    return cards


def text_of(path: Path) -> str:
    """The text of every card, its words joined again across line breaks, one per line."""
    joined = (plain_quotes(text).replace("\u2010\n", "").replace("-\n", "")
              for text in card_texts(path))
    return "\n".join(re.sub(r"\s+", " ", text) for text in joined)


@pytest.mark.parametrize("paper", list(CARD_PAPERS))
@pytest.mark.parametrize("size", list(SIZES))
def test_sizes_marks_and_margin_from_the_pdf(
    one_card: dict[tuple[str, str], Path], paper: str, size: str
) -> None:
    path = one_card[(paper, size)]
    w, h = SIZES[size]
    lay = layout(paper, card_size(size))
    page_w, page_h = lay.page_w, lay.page_h  # the paper, turned the way that holds more
    assert sorted((page_w, page_h)) == sorted((PAPERS[paper].width_mm, PAPERS[paper].height_mm))
    reader = pypdf.PdfReader(path)
    for page in reader.pages:
        assert float(page.mediabox.width) / MM == pytest.approx(page_w, abs=TOL)
        assert float(page.mediabox.height) / MM == pytest.approx(page_h, abs=TOL)
    pdf = opened(path)
    front = pdf.pages[0]
    x, y, cw, ch = white_rects(front)[0]  # the top left card
    assert cw == pytest.approx(w, abs=TOL) and ch == pytest.approx(h, abs=TOL)
    assert x >= MARGIN and y >= MARGIN
    # The crop marks, by their hairline: a face's picture draws lines of its own (the
    # dagger's blade), inside its card.
    marks = [ln for ln in front.lines
             if ln["linewidth"] == pytest.approx(MARK_WIDTH * MM, abs=0.001)]
    cards = white_rects(front)
    assert all(any(a < ln["x0"] / MM and ln["x1"] / MM < a + c and b < ln["top"] / MM
                   and ln["bottom"] / MM < b + d for a, b, c, d in cards)
               for ln in front.lines if ln not in marks)
    verticals = sorted({round(ln["x0"] / MM, 2) for ln in marks
                        if abs(ln["x0"] - ln["x1"]) < 0.01})
    horizontals = sorted({round(ln["top"] / MM, 2) for ln in marks
                          if abs(ln["top"] - ln["bottom"]) < 0.01})
    assert len(verticals) == lay.cols + 1 and len(horizontals) == lay.rows + 1
    for a, b in itertools.pairwise(verticals):
        assert b - a == pytest.approx(w, abs=TOL)
    for a, b in itertools.pairwise(horizontals):
        assert b - a == pytest.approx(h, abs=TOL)
    assert verticals[0] == pytest.approx(x, abs=TOL)
    assert horizontals[0] == pytest.approx(y, abs=TOL)
    # Marks stay off every card slot of the grid.
    for ln in marks:
        mx, my = (ln["x0"] + ln["x1"]) / 2 / MM, (ln["top"] + ln["bottom"]) / 2 / MM
        for p in lay.fronts:
            inside_x = p.x + 0.01 < mx < p.x + p.w - 0.01
            assert not (inside_x and p.y + 0.01 < my < p.y + p.h - 0.01)
    # The lone card of the second sheet, top left: its back lands behind it after a flip
    # over the long edge: at the top right of a portrait page, whose long edge is upright;
    # at the bottom left of a landscape one, whose long edge is along the top.
    (lx, ly, _lw, _lh), = white_rects(pdf.pages[2])
    (bx, by, _bw, _bh), = white_rects(pdf.pages[3])
    assert (lx, ly) == pytest.approx((x, y), abs=TOL)
    behind = (page_w - x - w, y) if page_h > page_w else (x, page_h - y - h)
    assert (bx, by) == pytest.approx(behind, abs=TOL)


def test_poker_is_three_by_three(one_card: dict[tuple[str, str], Path]) -> None:
    for paper in CARD_PAPERS:
        assert layout(paper, card_size("poker")).per_sheet == 9


def test_backs_mirror_fronts_with_partial_sheets(full: dict[str, Path]) -> None:
    path = full["three-dice-dungeon"]
    page_w = PAPERS["a4"].width_mm
    pdf = opened(path)
    pages = pdf.pages
    assert len(pages) % 2 == 0
    partial = 0
    for front, back in zip(pages[0::2], pages[1::2], strict=True):
        fronts, backs = white_rects(front), white_rects(back)
        assert len(fronts) == len(backs) > 0
        partial += len(fronts) < 9
        mirrored = sorted(((round(page_w - x - w, 3), y) for x, y, w, _ in fronts),
                          key=lambda t: (t[1], t[0]))
        got = [(x, y) for x, y, _, _ in backs]
        for (ex, ey), (gx, gy) in zip(mirrored, got, strict=True):
            assert gx == pytest.approx(ex, abs=TOL) and gy == pytest.approx(ey, abs=TOL)
    assert partial >= 1


def test_decks_share_sheets_each_back_behind_its_own_card(full: dict[str, Path]) -> None:
    """The decks follow one another on the sheets (a deck's tenth card took a sheet of its
    own): a card printed on a sheet with another deck's has its own deck's back behind it,
    and the outline names each deck on the sheet where its first card is."""
    ruleset = load_content().ruleset("three-dice-dungeon")
    decks = select_decks(ruleset, None, ruleset.profile())
    slots = [(deck, card) for deck in decks for card in deck.cards]
    lay = layout("a4", card_size("poker"))
    pdf = opened(full["three-dice-dungeon"])
    assert len(pdf.pages) == 2 * -(-len(slots) // lay.per_sheet)
    shared = 0
    for number, (front, back) in enumerate(zip(pdf.pages[0::2], pdf.pages[1::2],
                                               strict=True)):
        on_sheet = slots[number * lay.per_sheet:(number + 1) * lay.per_sheet]
        shared += len({deck.id for deck, _ in on_sheet}) > 1
        for (deck, card), f, b in zip(on_sheet, lay.fronts, lay.backs, strict=False):
            words = " ".join(box_text(front, f).split())
            assert card.title in words, (number, card.title)
            assert " ".join(box_text(back, b).split()).endswith(deck.back_title)
    assert shared >= 3
    reader = pypdf.PdfReader(full["three-dice-dungeon"])
    firsts = {deck.title: 2 * (slots.index((deck, deck.cards[0])) // lay.per_sheet)
              for deck in decks}
    outline = {o.title: reader.get_destination_page_number(o) for o in reader.outline
               if not isinstance(o, list)}
    assert outline == firsts


def box_text(page: Any, p: Any) -> str:
    pt = 72 / 25.4
    text: str = page.crop((p.x * pt, p.y * pt, (p.x + p.w) * pt, (p.y + p.h) * pt)).extract_text()
    return text


def test_partial_sheets_have_marks_only_around_their_cards(full: dict[str, Path]) -> None:
    # Marks run at most 0.75 + 4 mm beyond the cards; none is left for an empty slot.
    reach = 4.75 + TOL
    partial = 0
    for path in full.values():
        pdf = opened(path)
        for front in pdf.pages[0::2]:
            cards = white_rects(front)
            partial += len(cards) < 9
            top = min(y for _, y, _, _ in cards)
            bottom = max(y + h for _, y, _, h in cards)
            left = min(x for x, _, _, _ in cards)
            right = max(x + w for x, _, w, _ in cards)
            for ln in front.lines:
                assert top - reach <= ln["top"] / MM and ln["bottom"] / MM <= bottom + reach
                assert left - reach <= ln["x0"] / MM and ln["x1"] / MM <= right + reach
    assert partial >= 3


def test_a_stat_label_stays_on_one_line(tmp_path: Path) -> None:
    """The monster cards' "Dex/armour" broke after its slash, in a box too narrow for it."""
    content = load_content()
    ruleset = content.ruleset("three-dice-dungeon")
    decks = select_decks(ruleset, "monsters", ruleset.profile())
    labels = [label for card in decks[0].cards for label, _ in card.stats]
    assert "Dex/armour" in labels
    # The monster deck alone: no other card's table may make up the count.
    out = render("three-dice-dungeon", tmp_path / "monsters.pdf", decks)
    with pdfplumber.open(out) as pdf:
        words = [w["text"] for page in pdf.pages for w in page.extract_words()]
    for label in set(labels):
        assert words.count(label) >= labels.count(label), label  # "HP" is in texts too


def test_a_skill_name_is_not_hyphenated(full: dict[str, Path]) -> None:
    """ARCANE's card broke "Spell-craft" across lines: a card's sentences are set ragged,
    and hyphenate only words of 11 letters or more."""
    skills = load_content().ruleset("tower-of-choices").data.skill_names
    pdf = opened(full["tower-of-choices"])
    broken = [w["text"] for page in pdf.pages for w in page.extract_words()
              if len(w["text"]) > 1 and w["text"].endswith("-")]
    assert not [w for w in broken for skill in skills
                if skill.lower().startswith(w[:-1].lower())], broken


def test_a_sentence_does_not_end_on_a_lone_short_word(full: dict[str, Path]) -> None:
    """Elemental Weapon's effect ended with "+1." alone on its last line: a short last word
    of a card's sentence (six characters at most) is tied to the one before it, and so is
    a ruling's mark ("(TC-08)" stood alone under the CHALLENGE card's last rule)."""
    lay = layout("a4", card_size("poker"))
    runts = []
    for ruleset_id in ("three-dice-dungeon", "tower-of-choices"):
        pdf = opened(full[ruleset_id])
        for number, page in enumerate(pdf.pages[::2]):  # the fronts
            for card in lay.fronts:
                pt = 72 / 25.4
                box = page.crop((card.x * pt, card.y * pt, (card.x + card.w) * pt,
                                 (card.y + card.h) * pt))
                runts += [(ruleset_id, number, line)
                          for line in (box.extract_text() or "").splitlines()
                          if re.fullmatch(r"\S{1,5}\.|\(?[A-Z]{2}-\d+\)?\.?", line.strip())]
    assert runts == [], runts


def _title_lines(path: Path, size: str = "poker") -> list[tuple[float, str]]:
    """Each line of the cards' titles (the fronts' bold serif) with its size."""
    fronts = layout("a4", card_size(size)).fronts
    lines: dict[tuple[int, int, float], list[str]] = {}
    pdf = opened(path)
    for number, page in enumerate(pdf.pages[::2]):  # the fronts
        for word in page.extract_words(extra_attrs=["fontname", "size"]):
            if "Serif" in word["fontname"] and "Bold" in word["fontname"]:
                x = word["x0"] / MM
                card = next(i for i, f in enumerate(fronts) if f.x <= x < f.x + f.w)
                key = (number, card, round(word["top"], 1))
                lines.setdefault(key, []).append(f"{word['size']:.2f} {word['text']}")
    return [(float(words[0].split()[0]), " ".join(w.split()[1] for w in words))
            for words in lines.values()]


def test_titles_keep_one_size_in_every_deck(full: dict[str, Path], tmp_path: Path) -> None:
    """A card shrunk to fit kept its title at the base size: The Inverted Tower's reference
    titles ran from 10.4 to 13 pt.  And a title's last short word stays with the one before
    ("Misc supplies, tier" above a lone "1" on mini cards)."""
    base = base_size(CardOptions().size.width)
    for path in full.values():
        sizes = {size for size, _ in _title_lines(path)}
        assert sizes and sizes <= {round(base * 1.7, 2), round(base * 1.3, 2)}, (path.name, sizes)
    ruleset = load_content().ruleset("tower-of-choices")
    items = select_decks(ruleset, "items", ruleset.profile())
    mini = render("tower-of-choices", tmp_path / "mini.pdf", items, size=card_size("mini"))
    lines = [text for _, text in _title_lines(mini, "mini")]
    assert "tier 1" in lines and "or axe" in lines, lines
    assert [line for line in lines if len(line) <= 3] == []


def test_a_title_word_too_wide_for_its_card_shrinks_with_the_text(tmp_path: Path) -> None:
    """A title keeps the base size, unless the card fits at no size so: a word too wide for
    a mini card ("Transmogrification" at 11.9 pt) is then set smaller with the text, whole."""
    ruleset = load_content().ruleset("tower-of-choices")
    deck = select_decks(ruleset, "skills", ruleset.profile())[0]
    card = replace(deck.cards[0], title="Transmogrification")
    size = card_size("mini")
    out = tmp_path / "wide.pdf"
    printed = write_cards(ruleset, [replace(deck, cards=(card,))], CardOptions(size=size), out)
    assert printed.pieces.sizes[card.key] < base_size(size.width)
    lines = _title_lines(out, "mini")
    assert [text for _, text in lines] == ["Transmogrification"]
    assert lines[0][0] < round(base_size(size.width) * 1.7, 2)


def drawn_size(char: dict[str, Any]) -> float:
    """The size a character is set at, in pt.  pdfplumber's ``size`` is the height of its
    box, which for a line turned a quarter (a sheet's note beside the cards, read upwards)
    is the character's advance: its width is then the size."""
    if char["upright"]:
        return float(char["size"])
    a, _b, _c, d, _e, _f = char["matrix"]
    assert abs(a) < 1e-6 and abs(d) < 1e-6, char  # turned by a quarter, not otherwise
    return float(char["x1"] - char["x0"])


def test_no_text_is_smaller_than_6_pt(full: dict[str, Path], mini: Path, tmp_path: Path) -> None:
    # The shrunk reference cards' notes and labels, and a mini card's labels and back, were
    # set below 6 pt (down to 4.3): each smaller text is now held at 6 pt at the least.
    ruleset = load_content().ruleset("tower-of-choices")
    skills = select_decks(ruleset, "skills", ruleset.profile())
    small = render("tower-of-choices", tmp_path / "small.pdf", skills,
                   size=card_size("32x45mm"))  # its back's deck name was 5.5 pt
    turned: set[float] = set()
    for path in [*full.values(), mini, small]:
        pdf = opened(path)
        smallest = min(drawn_size(c) for page in pdf.pages for c in page.chars)
        assert smallest >= MIN_PT - 0.01, path.name
        turned |= {round(drawn_size(c), 2) for c in pdf.pages[0].chars if not c["upright"]}
    # The mini sheets' notes read upwards beside the cards (they measured 1.4-5.8 pt, their
    # letters' advances), set at the notes' size.
    assert turned == {NOTE_SIZE}


def test_back_offset_applied(tmp_path: Path) -> None:
    content = load_content()
    ruleset = content.ruleset("inverted-tower")
    decks = select_decks(ruleset, "items", ruleset.profile())
    plain, shifted = tmp_path / "plain.pdf", tmp_path / "shifted.pdf"
    render("inverted-tower", plain, decks, paper="letter")
    render("inverted-tower", shifted, decks, paper="letter", back_offset=(1.5, -0.5))
    with pdfplumber.open(plain) as a, pdfplumber.open(shifted) as b:
        assert len(a.pages) == len(b.pages) == 4  # 12 cards: a full sheet and a partial one
        assert white_rects(a.pages[0]) == white_rects(b.pages[0])
        for page in (1, 3):
            for (x0, y0, _, _), (x1, y1, _, _) in zip(white_rects(a.pages[page]),
                                                      white_rects(b.pages[page]), strict=True):
                assert x1 - x0 == pytest.approx(1.5, abs=TOL)
                assert y1 - y0 == pytest.approx(-0.5, abs=TOL)


def test_no_duplex_prints_fronts_only(tmp_path: Path) -> None:
    content = load_content()
    ruleset = content.ruleset("inverted-tower")
    decks = select_decks(ruleset, "items", ruleset.profile())
    path = render("inverted-tower", tmp_path / "fronts.pdf", decks, duplex="none")
    with pdfplumber.open(path) as pdf:
        assert [len(white_rects(page)) for page in pdf.pages] == [9, 3]
    fronts = {f.indirect_reference.idnum for p in pypdf.PdfReader(path).pages
              for f in forms_of(p)}
    assert len(fronts) == len({c.key for d in decks for c in d.cards})  # and no back


def test_every_entity_is_on_a_card(content: Content, full: dict[str, Path]) -> None:
    toc = content.ruleset("tower-of-choices").data
    text = text_of(full["tower-of-choices"])
    for skill in toc.skills:
        assert squeeze(f"{skill.name} WHAT IT COVERS {skill.covers}") in squeeze(text)
    for name in [a.name for a in toc.abilities] + [i.name for i in toc.items]:
        assert name in text
    dd = content.ruleset("three-dice-dungeon").data
    text = text_of(full["three-dice-dungeon"])
    for monster in dd.monsters:
        # Between the name and the stats: the tables whose dice call it ("DUNGEON LEVEL").
        stats = (rf"{re.escape(monster.name)}(?: [A-Z]+)* {monster.hp} {monster.strength} "
                 rf"{monster.dexterity} {monster.mind}")
        assert re.search(stats, text) and squeeze(monster.note.rstrip(".")) in squeeze(text)
    for name in list(dd.undead_borrows) + list(dd.all_items()) + [c.name for c in dd.classes]:
        assert name in text
    it = content.ruleset("inverted-tower").data
    text = text_of(full["inverted-tower"])
    for name in [it.item("dagger").name, it.item("potion").name]:
        assert name in text
    # Table cells wrap beside their neighbours: each word of the name is on the card.
    words = set(re.findall(r"\w+", text))
    for name in [m.name for m in it.monsters] + [r.value.name for r in it.events.table.rows]:
        assert set(re.findall(r"\w+", name)) <= words


def forms_of(page: Any) -> list[Any]:
    """The Form XObjects a sheet draws (each a laid-out front or back)."""
    xobjects = page["/Resources"].get("/XObject", {})
    return [ref.get_object() for ref in xobjects.values()]


def test_fonts_outline_and_metadata(full: dict[str, Path]) -> None:
    for ruleset_id, path in full.items():
        reader = pypdf.PdfReader(path)
        assert reader.metadata is not None and reader.metadata.title
        assert (reader.metadata.creator or "").startswith("TowerPress")
        root: Any = reader.trailer["/Root"]
        assert root["/Lang"] == "en"
        titles = [item.title for item in reader.outline if not isinstance(item, list)]
        assert titles == [d.title for d in load_content().ruleset(ruleset_id).decks.values()]
        fonts: dict[str, set[int]] = {}
        for page in reader.pages:
            for form in forms_of(page):
                assert form["/Subtype"] == "/Form"
                for ref in form["/Resources"].get("/Font", {}).values():
                    fonts.setdefault(str(ref.get_object()["/BaseFont"]), set()).add(ref.idnum)
        assert fonts and all("TowerPress" in name for name in fonts), fonts
        # Each subset has a tag of its own (PDF 1.7, 9.6.4), though two processes wrote them.
        assert all(len(objects) == 1 for objects in fonts.values()), fonts
        assert len({name.split("+")[0] for name in fonts}) == len(fonts)


def draws(page: Any) -> int:
    """How many XObjects a sheet draws."""
    data: bytes = page.get_contents().get_data()
    return data.count(b" Do")


def test_each_distinct_card_is_laid_out_once(tmp_path: Path) -> None:
    """Copies of a card, and every back of a deck, draw one laid-out page each."""
    content = load_content()
    ruleset = content.ruleset("inverted-tower")
    deck = select_decks(ruleset, "items", ruleset.profile())[0]
    distinct = len({c.key for c in deck.cards})
    assert len(deck.cards) > distinct  # the deck prints copies
    path = render("inverted-tower", tmp_path / "items.pdf", [deck])
    reader = pypdf.PdfReader(path)
    fronts, backs = reader.pages[0::2], reader.pages[1::2]
    for pages, drawn, forms in ((fronts, len(deck.cards), distinct),
                                (backs, len(deck.cards), 1)):
        assert sum(draws(p) for p in pages) == drawn
        assert len({f.indirect_reference.idnum for p in pages for f in forms_of(p)}) == forms


def test_same_pdf_on_one_process_or_two(full: dict[str, Path], tmp_path: Path) -> None:
    content = load_content()
    ruleset = content.ruleset("tower-of-choices")
    decks = select_decks(ruleset, None, ruleset.profile())
    one = write_cards(ruleset, decks, CardOptions(), tmp_path / "one.pdf", workers=1)
    assert one.warnings == ()  # and render() saw to the two processes' (full)
    assert one.pdf == full["tower-of-choices"].read_bytes()


def test_a_card_that_overflows_is_shrunk_and_stays_on_its_card(tmp_path: Path) -> None:
    content = load_content()
    ruleset = content.ruleset("tower-of-choices")
    deck = select_decks(ruleset, "skills", ruleset.profile())[0]
    card = deck.cards[0]
    longer = replace(card, fields=tuple((label, " ".join([text] * 7))
                                        for label, text in card.fields))
    out = tmp_path / "long.pdf"
    printed = write_cards(ruleset, [replace(deck, cards=(longer,))], CardOptions(), out)
    kept = printed.pieces.sizes[card.key]
    assert kept < base_size(CardOptions().size.width)
    text = text_of(out)
    assert squeeze(longer.fields[0][1]) in squeeze(text)
    # It keeps the largest size that fits: one step larger overflows.
    size = CardOptions().size
    batch = lay_out_batch([FrontJob(longer, kept + STEP_PT), FrontJob(longer, kept)], [],
                          size, ruleset.root)
    assert [m.overflow.ratio > 1.0 for m in batch.measures] == [True, False]


def test_a_word_wider_than_its_stat_box_is_an_overflow() -> None:
    # The face as a whole is no wider than the card: only the stat box is too narrow.
    ruleset = load_content().ruleset("three-dice-dungeon")
    card = select_decks(ruleset, "monsters", ruleset.profile())[0].cards[1]
    wide = replace(card, key="wide", stats=(("HP", "Wanderer"), *card.stats[1:]))
    base = base_size(CardOptions().size.width)
    batch = lay_out_batch([FrontJob(card, base), FrontJob(wide, base)], [],
                          CardOptions().size, ruleset.root)
    fits, spills = (m.overflow for m in batch.measures)
    assert fits.ratio <= 1.0 < spills.width
    assert spills.height == pytest.approx(fits.height)


@pytest.mark.parametrize(("profile", "armour_is_the_die"), [("d6-scale", False),
                                                          ("balanced", True)])
def test_d6_scale_monsters_keep_their_stats_in_their_boxes(
    tmp_path: Path, profile: str, armour_is_the_die: bool,
) -> None:
    # DD-28 Alt: HP is the monster die's value, which the table calls "the monster die"; a
    # stat box holds "die", and no card has to shrink for it below a reference card's size
    # (a monster's card sets its text larger, and a long ability may shrink it from there).
    # Armour is the die too only under DD-34 Alt (balanced); d6-scale keeps the manual's Dex.
    ruleset = load_content().ruleset("three-dice-dungeon")
    decks = select_decks(ruleset, "monsters", ruleset.profile(profile))
    printed = write_cards(ruleset, decks, CardOptions(), tmp_path / "d6.pdf")
    assert min(printed.pieces.sizes.values()) >= base_size(CardOptions().size.width)
    for card in decks[0].cards:
        stats = dict(card.stats)
        assert stats["HP"] == "die"
        assert (stats["Dex/armour"] == "die") is armour_is_the_die, card.title
        assert "Mind" not in stats
    printed_dice = re.findall(r"\bdie\b", text_of(tmp_path / "d6.pdf"))
    assert len(printed_dice) == len(decks[0].cards) * (2 if armour_is_the_die else 1)


def test_no_font_files_left_behind(tmp_path: Path) -> None:
    """WeasyPrint copies the fonts to a temporary folder; every process removes its own."""
    folder = tmp_path / "tmp"
    folder.mkdir()
    result = run("cards", "tower-of-choices", "-o", str(tmp_path / "x.pdf"),
                 env={"TMPDIR": str(folder)})
    assert result.returncode == 0, result.stderr
    assert list(folder.iterdir()) == []


def test_two_renders_are_identical(full: dict[str, Path], tmp_path: Path) -> None:
    again = render("inverted-tower", tmp_path / "again.pdf")
    assert again.read_bytes() == full["inverted-tower"].read_bytes()


def card_parts(content: Content, ruleset_id: str) -> Iterator[tuple[str, str]]:
    """All the text of every card of a ruleset, from the model, each with how it is set:
    ``name`` (a table cell set whole), ``text`` (the rest of a table), ``field`` or
    ``whole`` (never hyphenated)."""
    ruleset = content.ruleset(ruleset_id)
    for deck in select_decks(ruleset, None, ruleset.profile()):
        for card in deck.cards:
            yield from (("whole", t) for t in (card.title, *(v for _, v in card.stats)))
            yield from (("field", t) for _, t in card.fields)
            for table in card.tables:
                yield from (("whole", t) for t in table.columns)
                yield from (("text", t) for t in (table.title, table.note))
                yield from (("name" if is_name(t) else "text", t)
                            for t in itertools.chain(*table.rows))


def letters(texts: Iterable[str]) -> set[str]:
    return {w for text in texts for w in re.findall(r"[^\W\d_]+", text)}


def test_short_words_capitals_and_names_are_never_hyphenated(
    content: Content, full: dict[str, Path], mini: Path
) -> None:
    # A break inside a word of seven letters or fewer ("Mer-chant") is harder to read on
    # a card than a ragged line; longer words keep four letters on each side, and game
    # terms in capitals (CHALLENGE) and names in a table ("Map Frag-ment") stay whole.
    # The poker faces' wider columns break no word at all: the mini cards still do.
    checked_names = checked_breaks = 0
    for ruleset_id, path in [*full.items(), ("tower-of-choices", mini)]:
        parts = list(card_parts(content, ruleset_id))
        source = "\n".join(text for _, text in parts)
        words = letters([source])
        # The words of a table that only its names hold ("Map Fragment").
        names = letters(t for kind, t in parts if kind == "name")
        names -= letters(t for kind, t in parts if kind == "text")
        checked_names += len(names)
        # Read as drawn, a cell's last line runs into the next cell: a join that is no
        # word of the cards is the end of one cell and the start of another.
        breaks = [(a, b) for text in card_texts(path, flow=True)
                  for a, b in hyphenated(text, source)
                  if a + b in words]
        checked_breaks += len(breaks)
        bad = [f"{a}-{b}" for a, b in breaks
               if len(a + b) < 8 or min(len(a), len(b)) < 4 or (a + b).isupper()
               or a + b in names]
        assert not bad, f"{ruleset_id}: {bad}"
    assert checked_names, "no word only names hold, so the check of names checks nothing"
    assert checked_breaks, "no word breaks at all, so the check checks nothing"


def test_ranges_take_an_en_dash_and_stay_on_one_line(full: dict[str, Path]) -> None:
    # The Inverted Tower's narrow "Result" column once read "3–4: second / 5–" over "6: third".
    assert pdf_faults(ranges, full, "range") == {}


def test_a_modifier_stays_with_its_word(content: Content, full: dict[str, Path]) -> None:
    # "On a failure: −1" at a line's end, "HP." on the next, reads as a sum cut short.
    pairs, broken = 0, []
    for ruleset_id, path in full.items():
        source = "\n".join(text for _, text in card_parts(content, ruleset_id))
        # With the word before it: a stat box's "+2" over its "STR" is no broken line.
        found = set(re.findall(r"(\S+) ([+\u2212]\d+) (\w+)", source))
        pairs += len(found)
        texts = card_texts(path, flow=True)
        broken += [f"{w} {a} {b}" for w, a, b in found for text in texts
                   if f"{w} {a}\n{b}" in text]
    assert pairs, "no modifier before a word, so the check checks nothing"
    assert broken == []


def test_quotes_are_curled(full: dict[str, Path]) -> None:
    assert pdf_faults(straight_quotes, full, "quote") == {}


def test_overlong_card_fails_naming_it(content_copy: Path, tmp_path: Path) -> None:
    skills = content_copy / "tower-of-choices/tables/skills.toml"
    long_text = " ".join(["Keeping yourself in one piece through every kind of blow."] * 30)
    edit(skills, 'covers = "Keeping yourself in one piece: blocking, parrying, bracing and '
                 'dodging blows."', f'covers = "{long_text}"')
    result = run_here("cards", "tower-of-choices", "--deck", "skills", "--size", "mini",
                 "--content", str(content_copy), "-o", str(tmp_path / "x.pdf"))
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "'Defense'" in lines[0] and "6 pt" in lines[0]
    assert not (tmp_path / "x.pdf").exists()


def as_printed(cell: str) -> str:
    """A table cell's text as :func:`card_texts` reads it, squeezed (the word joiner after
    a range's dash is not drawn)."""
    return squeeze(plain_quotes(cell)).replace("\u2060", "")


def test_reference_cards_too_long_for_mini_cards_are_cut_in_parts(tmp_path: Path) -> None:
    """A mini card holds some quick-reference tables of The Inverted Tower's and 3 Dice
    Dungeon's whole at no size: the print fails and says what to do, and with
    ``--split-tables`` each such card is printed as two or more cards, every row of its
    tables on one of them, each part numbered on its band."""
    content = load_content()
    for ruleset_id in ("inverted-tower", "three-dice-dungeon"):
        result = run_here("cards", ruleset_id, "--size", "mini", "-o", str(tmp_path / "x.pdf"))
        lines = result.stderr.strip().splitlines()
        assert result.returncode == 2 and len(lines) == 1, lines
        assert "'reference'" in lines[0] and "(--split-tables)" in lines[0]
        ruleset = content.ruleset(ruleset_id)
        decks = select_decks(ruleset, None, ruleset.profile())
        out = tmp_path / f"{ruleset_id}.pdf"
        opts = CardOptions(size=card_size("mini"), split_tables=True)
        printed = write_cards(ruleset, decks, opts, out)
        assert printed.warnings == ()
        cut = printed.pieces.parts
        assert len(cut) >= 2 and all(len(parts) >= 2 for parts in cut.values())
        whole = sum(len(deck.cards) for deck in decks)
        assert printed.count == whole + sum(len(parts) - 1 for parts in cut.values())
        assert all(printed.pieces.sizes[p.key] >= MIN_PT for ps in cut.values() for p in ps)
        texts = [squeeze(plain_quotes(text)) for text in card_texts(out, flow=True)]
        for key, parts in cut.items():
            card = next(c for deck in decks for c in deck.cards if c.key == key)
            on = [next(i for i, text in enumerate(texts)
                       if squeeze(f"{p.part} of {p.parts}").upper() in text
                       and squeeze(card.title) in text
                       and all(as_printed(c) in text for c in p.tables[0].rows[0]))
                  for p in parts]
            assert on == sorted(on) and len(set(on)) == len(parts), key  # in order, each once
            for table in card.tables:
                for row in table.rows:
                    assert any(all(as_printed(c) in texts[i] for c in row)
                               for i in on), (key, row)
    # A card that fits whole is not cut.
    reference = [d for d in decks if d.id == "reference"]
    poker = CardOptions(split_tables=True)
    assert write_cards(ruleset, reference, poker, tmp_path / "poker.pdf").pieces.parts == {}


def test_a_table_too_wide_for_its_card_fails_even_in_parts(tmp_path: Path) -> None:
    """Rows of one per card do not narrow The Inverted Tower's traps and monsters tables
    enough for a 40 x 60 mm card: the print fails, naming them."""
    result = run_here("cards", "inverted-tower", "--deck", "reference", "--size", "40x60mm",
                 "--split-tables", "-o", str(tmp_path / "x.pdf"))
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "'Traps' of deck 'reference', 'Monsters'" in lines[0], lines
    assert "even at 6 pt or in parts" in lines[0]
    assert "--split-tables" not in lines[0]  # it was given
    assert not (tmp_path / "x.pdf").exists()


LONG_DECK_NAME = ("Skill cards and their starting-deck companions, revised and expanded "
                  "for the second printing")


def test_a_long_deck_name_stays_inside_its_back(tmp_path: Path) -> None:
    """A deck's name wraps inside the frame of its back, set smaller where it needs more
    lines than there is room for (it ran over the frame, and off mini cards, unchecked)."""
    ruleset = load_content().ruleset("tower-of-choices")
    deck = select_decks(ruleset, "skills", ruleset.profile())[0]
    size = card_size("mini")
    out = render("tower-of-choices", tmp_path / "backs.pdf",
                 [replace(deck, back_title=LONG_DECK_NAME)], size=size)
    lay = layout("a4", size)
    with pdfplumber.open(out) as pdf:
        chars = pdf.pages[1].chars
        words = {w["text"].strip(",") for w in pdf.pages[1].extract_words()}
    assert squeeze(LONG_DECK_NAME) in squeeze("".join(c["text"] for c in chars))
    # Names on a back are never hyphenated, as titles are not ("Supercalifra-" was): a
    # word too wide is set smaller, whole.
    assert {w.strip(",") for w in LONG_DECK_NAME.split() if "-" not in w} <= words
    wide = "Underground Supercalifragilisticexpialidocious"
    render("tower-of-choices", tmp_path / "wide.pdf",
           [replace(deck, back_title=wide, cards=deck.cards[:1])], size=size)
    with pdfplumber.open(tmp_path / "wide.pdf") as pdf:
        assert set(wide.split()) <= {w["text"] for w in pdf.pages[1].extract_words()}
    inside = [(b.x + FACE_INSET, b.y + FACE_INSET, b.x + b.w - FACE_INSET,
               b.y + b.h - FACE_INSET) for b in lay.backs]  # a front's text box
    for c in chars:
        x0, y0, x1, y1 = (c["x0"] / MM, c["top"] / MM, c["x1"] / MM, c["bottom"] / MM)
        assert any(a <= x0 and x1 <= c_ and b <= y0 and y1 <= d for a, b, c_, d in inside), c
    sizes = {round(c["size"], 2) for c in chars if c["fontname"].endswith("Serif-Bold")}
    assert sizes and min(sizes) >= MIN_PT and max(sizes) < back_size(size)


def test_a_deck_name_too_long_for_its_back_fails_naming_it(
    content_copy: Path, tmp_path: Path
) -> None:
    edit(content_copy / "tower-of-choices/decks/skills.toml", 'title = "Skills"',
         f'title = "{LONG_DECK_NAME * 3}"')
    kept = tmp_path / "x.pdf"
    kept.write_bytes(b"an earlier print")
    result = run_here("cards", "tower-of-choices", "--deck", "skills", "--size", "mini",
                 "--content", str(content_copy), "-o", str(kept))
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    assert "the names on the back of deck 'Skill cards and their" in lines[0]
    assert "44.45 x 63.5 mm card even at 6 pt" in lines[0]
    assert kept.read_bytes() == b"an earlier print"


def test_png_sheets_for_tabletop_simulator(tmp_path: Path) -> None:
    content = load_content()
    ruleset = content.ruleset("inverted-tower")
    decks = select_decks(ruleset, "items", ruleset.profile())
    paths = write_tts_sheets(ruleset, decks, CardOptions(), tmp_path)
    names = ["inverted-tower-items-1.png", "inverted-tower-items-back.png"]
    assert [p.name for p in paths] == names
    cw, ch, _ = card_pixels(CardOptions())
    sizes = []
    for path in paths:
        data = path.read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        sizes.append(struct.unpack(">II", data[16:24]))
    (sw, sh), (bw, bh) = sizes
    assert max(sw, sh) <= 4096
    assert sw == TTS_COLS * cw and abs(sh - TTS_ROWS * ch) <= TTS_ROWS
    assert (bw, bh) == (cw, pytest.approx(ch, abs=1))
    # The cells after the deck's last card are empty: no crop marks (the sheet is cut by
    # the program, not by hand), which a partial sheet used to get.
    from PIL import Image

    row, col = divmod(len(decks[0].cards), TTS_COLS)
    assert col > 0 and row + 1 < TTS_ROWS
    with Image.open(paths[0]) as sheet:
        grey = sheet.convert("L")
        after = grey.crop((col * cw + 1, row * sh // TTS_ROWS, sw, sh))
        below = grey.crop((0, (row + 1) * sh // TTS_ROWS + 1, sw, sh))
    assert after.getextrema() == (255, 255) and below.getextrema() == (255, 255)


# Inside the 5 mm margin an A4 page holds 200 x 287 mm (287 x 200 turned), a Letter one
# 205.9 x 269.4; n cards of w mm with a gap g (twice the bleed, or the gutter if wider)
# take n w + (n - 1) g, and their bleed b beyond: n fit where n (w + g) <= room - 2 b + g.
@pytest.mark.parametrize(
    ("args", "pages", "sheet"),
    [
        # An offset keeps the sheet portrait: 3 x 3 poker cards, two sheets and their backs.
        (["--duplex", "short", "--back-offset", "-0.5,0.25"], 4, "9 a sheet, A4 portrait"),
        # 3 x 3 portrait beats 4 x 2 landscape; fronts only.
        (["--duplex", "none"], 2, "9 a sheet, A4 portrait"),
        # A pair is two cards wide: one pair across 200 mm (3 a sheet), two across 287
        # (143.5 mm each side of the fold) and 2 rows of 88.9: 4 a sheet, 3 sheets.
        (["--fold", "--duplex", "short"], 3, "4 a sheet, A4 landscape"),
        # 3 mm bleed, 6 mm gaps: 69.5 mm a card across, 94.9 down; portrait 2 x 2 (205.9,
        # 269.4), landscape 3 x 2 (269.4, 205.9): 6 a sheet, two sheets and their backs.
        (["--bleed", "3", "--gutter", "1", "--paper", "letter"], 4,
         "6 a sheet, Letter landscape"),
        # 3 x 3 of 63 x 88 portrait beats 4 x 2 landscape.
        (["--size", "63x88MM"], 4, "9 a sheet, A4 portrait"),
        # 20 mm bleed, 40 mm gaps: 109.85 mm a tarot card across, 160.65 down; portrait
        # holds 1 x 1, landscape 2 x 1 (287 / 109.85 = 2.6): six sheets and their backs.
        (["--size", "tarot", "--bleed", "20"], 12, "2 a sheet, A4 landscape"),
    ],
)
def test_every_option_prints(tmp_path: Path, args: list[str], pages: int, sheet: str) -> None:
    """Each printing option, through the command line: one line out, and the sheets."""
    out = tmp_path / "cards.pdf"
    result = run_here("cards", "inverted-tower", "--deck", "items", *args, "-o", str(out))
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [f"wrote {out} (12 cards, {pages} pages, {sheet})"]
    assert len(pypdf.PdfReader(out).pages) == pages


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--size", "huge"], "expected one of: poker, bridge, mini, tarot"),
        (["--deck", "nope"], "expected one of: skills, challenges, abilities, items"),
        (["--build", "Luck,Dance,Speech"], "unknown skill 'Dance' (expected one of: Melee"),
        (["--size", "250x300mm"], "does not fit inside the 5 mm margin"),
        (["--back-offset", "1"], "not two numbers in mm (expected X,Y"),
        (["--back-offset", "a,b"], "not two numbers in mm (expected X,Y"),
        (["--fold", "--back-offset", "1,0"], "with --fold there are none"),
        (["--duplex", "none", "--back-offset", "0,-1"], "with --duplex none there are none"),
        (["--paper", "letter", "--back-offset", "0,-7"], "moves backs off the paper: on letter"),
        (["--png", "never-written", "--fold"], "--png writes Tabletop Simulator sheets into its "
                                               "folder; --fold does not apply to them"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(args: list[str], expected: str) -> None:
    result = run_here("cards", "tower-of-choices", *args)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and expected in lines[0], result.stderr
    assert "Traceback" not in result.stderr


def test_build_a_starting_deck(tmp_path: Path, content: Content) -> None:
    data = content.ruleset("tower-of-choices").data
    out = tmp_path / "deck.pdf"
    result = run_here("cards", "tower-of-choices", "--build", "Melee offense,Perception,Luck",
                 "--ability", "ARCANE", "--challenges", "2", "-o", str(out))
    assert result.returncode == 0, result.stderr
    rules = data.character
    arcane = sum(e.amount for e in data.ability("ARCANE").effects if e.skill)
    expected = rules.starting_skills * rules.cards_per_starting_skill + arcane + 2
    assert f"({expected} cards," in result.stdout
    text = text_of(out)
    assert text.count("Spellcraft") >= 1 and text.count(data.checks.challenge_label) >= 2


def test_fold_and_glue_pairs_meet_at_a_dashed_fold(tmp_path: Path) -> None:
    content = load_content()
    ruleset = content.ruleset("inverted-tower")
    decks = select_decks(ruleset, "items", ruleset.profile())
    path = render("inverted-tower", tmp_path / "fold.pdf", decks, fold=True, bleed=2.0)
    lay = layout("a4", card_size("poker"), fold=True, bleed=2.0)
    assert lay.page_w > lay.page_h  # two pairs across a landscape page hold more than one
    fold = lay.page_w / 2
    with pdfplumber.open(path) as pdf:
        pairs = 0
        for page in pdf.pages:
            assert float(page.width) / MM == pytest.approx(lay.page_w, abs=TOL)
            boxes = white_rects(page)
            fronts = [b for b in boxes if b[0] + b[2] <= fold + TOL]
            backs = [b for b in boxes if b[0] >= fold - TOL]
            assert len(fronts) == len(backs) == len(boxes) / 2
            # The inner column meets at the fold, bleed included.
            assert any(fx + fw == pytest.approx(fold, abs=TOL) for fx, _, fw, _ in fronts)
            for fx, fy, fw, fh in fronts:
                # Each back is its front's mirror image across the fold.
                mirror = pytest.approx((2 * fold - fx - fw, fy, fw, fh), abs=TOL)
                assert sum(b == mirror for b in backs) == 1, (fx, fy)
                pairs += 1
            dashed = [line for line in page.lines if line.get("dash") and line["dash"][0]
                      and abs(line["x0"] / MM - fold) < TOL and abs(line["x1"] / MM - fold) < TOL]
            assert len(dashed) == 2  # above and below the cards, never across them
            top = min(b[1] for b in boxes)
            bottom = max(b[1] + b[3] for b in boxes)
            assert all(line["bottom"] / MM <= top + TOL or line["top"] / MM >= bottom - TOL
                       for line in dashed)
    assert pairs == sum(len(d.cards) for d in decks)


@pytest.mark.parametrize("bleed", [0.0, 3.0])
def test_the_backs_pattern_runs_into_the_bleed(tmp_path: Path, bleed: float) -> None:
    """With bleed, each back's lattice reaches the bleed box's edges, so a cut or a back a
    little off its line shows pattern; without, it stays inside the frame (it was white
    out there either way)."""
    ruleset = load_content().ruleset("inverted-tower")
    decks = select_decks(ruleset, "items", ruleset.profile())
    out = render("inverted-tower", tmp_path / "bled.pdf", decks, bleed=bleed)
    lay = layout("a4", card_size("poker"), bleed=bleed)
    mm = 25.4 / 72
    with pdfplumber.open(out) as pdf:
        page = pdf.pages[1]  # the first sheet's backs
        strokes = [(o["x0"] * mm, o["top"] * mm, o["x1"] * mm, o["bottom"] * mm)
                   for o in page.lines + page.curves]
    for back in lay.backs:
        x0, y0, x1, y1 = back.outer
        inside = [s for s in strokes if s[0] >= x0 - 0.01 and s[2] <= x1 + 0.01
                  and s[1] >= y0 - 0.01 and s[3] <= y1 + 0.01]
        assert len(inside) > 40
        reach = (min(s[0] for s in inside) - x0, min(s[1] for s in inside) - y0,
                 x1 - max(s[2] for s in inside), y1 - max(s[3] for s in inside))
        if bleed:
            assert max(reach) < 0.05, reach
        else:
            assert min(reach) > FRAME_INSET - 0.01, reach  # the frame is the outermost line
