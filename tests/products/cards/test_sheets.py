"""Card sheets as a player prints them: the ready-to-play deck, the orientation that holds
more cards, backs that line up after the flip and show no frame near the trim, the scale
bar and the print line, and Tower of Choices' backs without dice."""

from __future__ import annotations

import contextlib
import itertools
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pdfplumber
import pypdf
import pytest

from generator.model.loader import Content, Ruleset
from generator.model.paper import CARD_PAPERS, PAPERS
from generator.products.cards.back import CLEAR
from generator.products.cards.imposition import (
    MARGIN,
    SIZES,
    ImpositionError,
    Layout,
    card_size,
    layout,
)
from generator.products.cards.notes import BAR, LINE, print_line, scale_for, sheet_notes
from generator.products.cards.printing import CardOptions, select_decks
from generator.products.cards.product import CARDS, CardsOptions, StartingDeck
from generator.rulesets import load_content
from generator.rulesets.tower_of_choices.entities import AbilityKind
from tests.products.cards.support import MM, TOL, render, white_rects

Box = tuple[float, float, float, float]


@pytest.fixture(scope="module")
def content() -> Content:
    return load_content()


@pytest.fixture(scope="module")
def toc(content: Content) -> Ruleset:
    return content.ruleset("tower-of-choices")


@pytest.fixture(scope="module")
def ready(toc: Ruleset, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """Tower of Choices' default print, with 3 mm bleed on A4, as the command makes it."""
    out = tmp_path_factory.mktemp("sheets") / "toc.pdf"
    said = CARDS.write(toc, CardsOptions(CardOptions(bleed=3.0)), out)
    return out, said


@pytest.fixture(scope="module")
def opened(ready: tuple[Path, str]) -> Iterator[Any]:
    """The default print, parsed once for the module's tests."""
    with pdfplumber.open(ready[0]) as pdf:
        yield pdf


@pytest.fixture(scope="module")
def letter(content: Content, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A dice game's deck on Letter, for a short-edge flip."""
    ruleset = content.ruleset("inverted-tower")
    out = tmp_path_factory.mktemp("sheets") / "letter.pdf"
    return render("inverted-tower", out, select_decks(ruleset, "items", ruleset.profile()),
                  paper="letter", duplex="short")


# -- the ready-to-play deck --------------------------------------------------------------


def test_the_default_deck_deals_any_character(toc: Ruleset) -> None:
    """Two of each skill (an ability's extra card on top), then the challenges, the
    abilities and the items as their deck files list them: every legal character's
    starting deck can be dealt from the print."""
    data = toc.data
    profile = toc.profile()
    decks = {d.id: d for d in CARDS.decks(toc, CardsOptions())}
    assert list(decks) == list(toc.decks)
    skills = Counter(card.title for card in decks["skills"].cards)
    for skill in data.skills:
        extra = max(sum(e.amount for e in a.effects
                        if e.kind is AbilityKind.EXTRA_CARD and e.skill == skill.name)
                    for a in data.abilities)
        assert skills[skill.name] == data.character.cards_per_starting_skill + extra
    assert max(skills.values()) > min(skills.values())  # ARCANE's extra Spellcraft card
    for deck_id in ("challenges", "abilities", "items"):
        assert decks[deck_id].cards == toc.cards(toc.decks[deck_id], profile)
    assert len(decks["abilities"].cards) == len(data.abilities)
    assert len(decks["items"].cards) == len(data.items)
    names = data.skill_names
    for ability in data.abilities:
        extra = [e.skill for e in ability.effects if e.kind is AbilityKind.EXTRA_CARD]
        chosen = list(dict.fromkeys(extra + list(names)))[:data.character.starting_skills]
        build = StartingDeck(",".join(chosen), ability.name)
        built = CARDS.decks(toc, CardsOptions(starting_deck=build))[0].cards
        assert Counter(c.title for c in built) <= skills, ability.name


def test_deck_and_build_still_choose(toc: Ruleset) -> None:
    one = CARDS.decks(toc, CardsOptions(deck="skills"))
    assert [d.id for d in one] == ["skills"]
    assert one[0].cards == CARDS.decks(toc, CardsOptions())[0].cards
    skills = ",".join(toc.data.skill_names[:3])
    built = CARDS.decks(toc, CardsOptions(starting_deck=StartingDeck(skills)))[0]
    assert built.id == "starting-deck"
    assert len(built.cards) == toc.data.starting_deck_size()


def test_the_print_holds_every_card(ready: tuple[Path, str], opened: Any, toc: Ruleset) -> None:
    _, said = ready
    count = sum(len(d.cards) for d in CARDS.decks(toc, CardsOptions()))
    fronts = sum(len(white_rects(page)) for page in opened.pages[0::2])
    assert fronts == count
    assert f"({count} cards," in said


# -- orientation and the flip ------------------------------------------------------------


def test_bleed_on_a4_turns_the_sheet_to_hold_eight(ready: tuple[Path, str],
                                                   opened: Any) -> None:
    path, said = ready
    portrait = (PAPERS["a4"].width_mm, PAPERS["a4"].height_mm)
    reader = pypdf.PdfReader(path)
    box = reader.pages[0].mediabox
    assert (float(box.width) / MM, float(box.height) / MM) == pytest.approx(portrait[::-1])
    assert len(white_rects(opened.pages[0])) == 8
    assert "8 a sheet, A4 landscape" in said
    assert reader.metadata is not None
    assert "a4 landscape, 8 a sheet" in str(reader.metadata.get("/Subject"))


def _flipped(front: Box, page: tuple[float, float], edge: str) -> Box:
    """Where the back of ``front`` (x, y, w, h in mm on a page ``page`` mm) is on the next
    page, worked out on the paper itself: a landscape page is turned onto portrait paper,
    the paper turns over its long or short edge, and the back page is turned likewise."""
    page_w, page_h = page
    paper_w = min(page)
    corners = [(front[0], front[1]), (front[0] + front[2], front[1] + front[3])]

    def onto(x: float, y: float) -> tuple[float, float]:  # the page's top on the left
        return (y, page_w - x) if page_w > page_h else (x, y)

    def back(u: float, v: float) -> tuple[float, float]:
        return (page_w - v, u) if page_w > page_h else (u, v)

    def over(u: float, v: float) -> tuple[float, float]:
        paper_h = max(page)
        return (paper_w - u, v) if edge == "long" else (u, paper_h - v)

    points = [back(*over(*onto(x, y))) for x, y in corners]
    (x0, x1), (y0, y1) = (sorted(p[0] for p in points), sorted(p[1] for p in points))
    return (round(x0, 2), round(y0, 2), round(x1 - x0, 2), round(y1 - y0, 2))


def _cards(page: Any) -> set[Box]:
    """The trim boxes of a page's cards: its white boxes less the bleed."""
    return {(round(x + 3.0, 2), round(y + 3.0, 2), round(w - 6.0, 2), round(h - 6.0, 2))
            for x, y, w, h in white_rects(page)}


def _text_in(page: Any, box: Box) -> str:
    x, y, w, h = box
    crop = page.crop((x * MM, y * MM, (x + w) * MM, (y + h) * MM))
    return " ".join((crop.extract_text() or "").split())


def test_backs_land_on_their_fronts_after_a_long_edge_flip(opened: Any, toc: Ruleset) -> None:
    """Landscape: the long edge lies along the top, so each card's back is mirrored up
    and down (the portrait sheet mirrored it across): behind each card, its deck's back,
    on the sheets where one deck gives way to the next too."""
    slots = [deck for deck in CARDS.decks(toc, CardsOptions()) for _ in deck.cards]
    mixed = 0
    pdf = opened
    size = (pdf.pages[0].width / MM, pdf.pages[0].height / MM)
    for number, (front, back) in enumerate(zip(pdf.pages[0::2], pdf.pages[1::2], strict=True)):
        fronts = sorted(_cards(front), key=lambda b: (b[1], b[0]))  # in reading order
        assert {_flipped(f, size, "long") for f in fronts} == _cards(back)
        decks = slots[number * 8:number * 8 + len(fronts)]
        mixed += len({d.back_title for d in decks}) > 1
        for box, deck in zip(fronts, decks, strict=True):
            assert _text_in(back, _flipped(box, size, "long")).endswith(deck.back_title)
    assert mixed  # a sheet whose backs tell a wrong flip from the right one


def test_portrait_short_edge_backs_on_letter(letter: Path) -> None:
    with pdfplumber.open(letter) as pdf:
        page = pdf.pages[0]
        size = (page.width / MM, page.height / MM)
        assert size[0] < size[1]  # three by three poker cards: portrait
        for front, back in zip(pdf.pages[0::2], pdf.pages[1::2], strict=True):
            fronts = {(round(x, 2), round(y, 2), round(w, 2), round(h, 2))
                      for x, y, w, h in white_rects(front)}
            backs = {(round(x, 2), round(y, 2), round(w, 2), round(h, 2))
                     for x, y, w, h in white_rects(back)}
            assert {_flipped(f, size, "short") for f in fronts} == backs


def test_an_offset_keeps_the_sheet_portrait() -> None:
    """The calibration sheet measures the offset on a portrait page."""
    assert layout("a4", card_size("poker"), bleed=3).orientation == "landscape"
    kept = layout("a4", card_size("poker"), bleed=3, back_offset=(0.5, 0.0))
    assert (kept.orientation, kept.per_sheet) == ("portrait", 6)


@pytest.mark.parametrize("paper", list(CARD_PAPERS))
@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("bleed", [0.0, 3.0])
def test_the_sheet_holds_the_most_cards(paper: str, size: str, bleed: float) -> None:
    lay = layout(paper, card_size(size), bleed=bleed)
    w, h = PAPERS[paper].width_mm, PAPERS[paper].height_mm
    counts = []
    for page_w, page_h in ((w, h), (h, w)):
        gap = 2 * bleed
        card = card_size(size)
        cols = int((page_w - 2 * MARGIN - 2 * bleed + gap + 1e-6) // (card.width + gap))
        rows = int((page_h - 2 * MARGIN - 2 * bleed + gap + 1e-6) // (card.height + gap))
        counts.append(cols * rows)
    assert lay.per_sheet == max(counts)
    assert lay.orientation == ("portrait" if counts[0] >= counts[1] else "landscape")


# -- backs ---------------------------------------------------------------------------------


def _strokes(page: Any, dark: bool) -> list[Box]:
    """The stroked lines and curves of a page, in mm: the dark ones (a frame, the
    medallion) or the light ones (the lattice)."""
    found = []
    for o in page.lines + page.curves + page.rects:
        colour = o.get("stroking_color")
        if not o.get("stroke") or not isinstance(colour, tuple | list) or len(colour) != 3:
            continue
        if (colour[0] < 0.3) == dark:
            found.append((o["x0"] / MM, o["top"] / MM, o["x1"] / MM, o["bottom"] / MM))
    return found


def test_backs_keep_their_lines_clear_of_the_trim(opened: Any) -> None:
    """A back printed a millimetre off its front shows nothing but the even lattice at
    its edge: no frame, no dark line within CLEAR mm of the trim."""
    back = opened.pages[1]
    cards = _cards(back)
    dark, light = _strokes(back, dark=True), _strokes(back, dark=False)
    assert CLEAR >= 4.0
    for x, y, w, h in cards:
        inside = [s for s in dark if s[0] >= x - 3 and s[2] <= x + w + 3
                  and s[1] >= y - 3 and s[3] <= y + h + 3]
        assert inside  # the medallion
        reach = min(min(s[0] - x, s[1] - y, x + w - s[2], y + h - s[3]) for s in inside)
        assert reach >= CLEAR - TOL, reach
        lattice = [s for s in light if s[0] >= x - 3 - TOL and s[2] <= x + w + 3 + TOL]
        assert min(s[0] for s in lattice) <= x - 3 + TOL  # out to the bleed's edge


def _pips(page: Any) -> int:
    """Dark filled shapes with no outline: a die face's pips."""
    found = 0
    for o in page.curves:
        colour = o.get("non_stroking_color")
        if o.get("fill") and not o.get("stroke") and isinstance(colour, tuple | list):
            found += len(colour) == 3 and colour[0] < 0.3
    return found


def test_tower_of_choices_backs_show_cards_not_dice(opened: Any, letter: Path,
                                                   toc: Ruleset) -> None:
    assert {d.back_motif for d in toc.decks.values() if d.back == d.id} == {"cards"}
    assert all(_pips(page) == 0 for page in opened.pages[1::2])
    fans = [o for o in opened.pages[1].curves if o.get("stroke")]
    assert len(fans) >= 3 * 8  # each back: its medallion and a card, framed
    with pdfplumber.open(letter) as pdf:
        assert _pips(pdf.pages[1]) > 0  # a dice game's backs keep their die


# -- the scale bar and the print line ------------------------------------------------------


def _bars(page: Any) -> list[Box]:
    """Stroked, unfilled black rectangles BAR mm thick: the scale bar's outline."""
    return [(r["x0"] / MM, r["top"] / MM, r["x1"] / MM, r["bottom"] / MM)
            for r in page.rects if r.get("stroke") and not r.get("fill")
            and abs(min(r["width"], r["height"]) / MM - BAR) < 0.01]


def _clear(box: Box, page: Any) -> None:
    """``box`` lies inside the printable margin, off every card and every crop mark."""
    width, height = page.width / MM, page.height / MM
    x0, y0, x1, y1 = box
    assert x0 >= MARGIN - TOL and y0 >= MARGIN - TOL
    assert x1 <= width - MARGIN + TOL and y1 <= height - MARGIN + TOL
    for cx, cy, cw, ch in white_rects(page):
        assert x1 <= cx or x0 >= cx + cw or y1 <= cy or y0 >= cy + ch, (box, (cx, cy))
    for line in page.lines:
        lx0, ly0, lx1, ly1 = (line["x0"] / MM, line["top"] / MM, line["x1"] / MM,
                              line["bottom"] / MM)
        assert lx1 < x0 or lx0 > x1 or ly1 < y0 or ly0 > y1, (box, line)


@pytest.mark.parametrize("which", ["ready", "letter"])
def test_every_sheet_has_a_scale_bar_and_the_print_line(
    which: str, ready: tuple[Path, str], opened: Any, letter: Path,
) -> None:
    path = ready[0] if which == "ready" else letter
    paper, edge = ("a4", "long") if which == "ready" else ("letter", "short")
    scale = scale_for(paper)
    reader = pypdf.PdfReader(path)
    with contextlib.ExitStack() as stack:
        pdf = opened if which == "ready" else stack.enter_context(pdfplumber.open(path))
        for number, page in enumerate(pdf.pages[0::2]):
            bars = _bars(page)
            assert len(bars) == 1, number
            x0, y0, x1, y1 = bars[0]
            assert max(x1 - x0, y1 - y0) * MM == pytest.approx(scale.length * MM, abs=0.01)
            _clear(bars[0], page)
            words = page.extract_words()
            notes = [w for w in words if not any(
                cx <= w["x0"] / MM <= cx + cw and cy <= w["top"] / MM <= cy + ch
                for cx, cy, cw, ch in white_rects(page))]
            assert notes, number
            for word in notes:
                _clear((word["x0"] / MM, word["top"] / MM, word["x1"] / MM,
                        word["bottom"] / MM), page)
            text = " ".join(reader.pages[2 * number].extract_text().split())
            assert f"Print at 100%, duplex {edge} edge" in text
            assert scale.label in text
    assert scale.label == ("2 in" if paper == "letter" else "50 mm")


def _notes_clear(lay: Layout) -> list[Box]:
    notes = sheet_notes(lay)
    boxes = []
    if notes.bar is not None:
        b = notes.bar
        boxes.append((b.x, b.y, b.x + LINE, b.y + notes.scale.length) if b.turned else
                     (b.x, b.y, b.x + notes.scale.length, b.y + LINE))
    for note, spot in notes.texts:
        w, h = (note.height, note.width) if spot.turned else (note.width, note.height)
        boxes.append((spot.x, spot.y, spot.x + w, spot.y + h))
    return boxes


@pytest.mark.parametrize("paper", list(CARD_PAPERS))
@pytest.mark.parametrize("size", [*SIZES, "100x143.5mm"])
@pytest.mark.parametrize(("bleed", "fold"), [(0.0, False), (3.0, False), (0.0, True)])
def test_notes_keep_off_the_cards_and_marks(paper: str, size: str, bleed: float,
                                            fold: bool) -> None:
    try:
        lay = layout(paper, card_size(size), bleed=bleed, fold=fold)
    except ImpositionError:
        return
    boxes = _notes_clear(lay)
    if size == "poker" and not fold:
        assert len(boxes) == 3  # the bar, its label and the print line, on every paper
    cards = [p.outer for p in lay.fronts + (lay.backs if fold else ())]
    for x0, y0, x1, y1 in boxes:
        assert x0 >= MARGIN - 1e-6 and x1 <= lay.page_w - MARGIN + 1e-6
        assert y0 >= MARGIN - 1e-6 and y1 <= lay.page_h - MARGIN + 1e-6
        for c in cards:
            assert x1 <= c[0] or x0 >= c[2] or y1 <= c[1] or y0 >= c[3]
        for m in lay.marks:
            assert (x1 < min(m.x1, m.x2) or x0 > max(m.x1, m.x2)
                    or y1 < min(m.y1, m.y2) or y0 > max(m.y1, m.y2))
    for a, b in itertools.combinations(boxes, 2):
        assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
    assert print_line(lay).startswith("Print at 100%")
