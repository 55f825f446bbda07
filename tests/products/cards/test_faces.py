"""Card faces as a player reads them: entity cards fill their face, reference tables give
their sentences room, and a table cut in parts keeps its columns (issue 28, "Cards")."""

from __future__ import annotations

import re
from functools import partial
from pathlib import Path
from typing import Any

import pdfplumber
import pypdfium2
import pytest

from generator.model.decks import ICON_KINDS
from generator.products.cards.columns import TEXT_EM, _words, fitted_widths
from generator.products.cards.fit import _part_lines
from generator.products.cards.icons import ICONS
from generator.products.cards.imposition import card_size, layout
from generator.products.cards.pieces import FACE_INSET
from generator.products.cards.split import measured_rows, split_tables
from generator.rulesets import load_content
from tests.content import RULESETS
from tests.products.cards.support import render
from tests.renders import Renders

DPI = 60
BLANK_RUN_MM = 3.0  # white rows this tall or more are blank room; a line's leading is not
MOST_BLANK = 0.35  # of an entity card's text box (65-70% before the picture panel)
LEAST_CHARS = 12  # a line of a reference table's column of sentences, on average
REFERENCE = ("REFERENCE", "QUICK REFERENCE")


@pytest.fixture(scope="module")
def full(renders: Renders) -> dict[str, Path]:
    """Every deck of every ruleset, A4 poker (the render test_pdf.py shares)."""
    return renders.many({r: (f"cards-{r}-a4-poker.pdf", partial(render, r, workers=2))
                         for r in RULESETS})


@pytest.fixture(scope="module")
def mini_parts(renders: Renders) -> Path:
    """The Inverted Tower's reference cards on mini cards, long tables cut in parts."""
    def make(out: Path) -> Path:
        ruleset = load_content().ruleset("inverted-tower")
        from generator.products.cards.printing import select_decks
        decks = select_decks(ruleset, "reference", ruleset.profile())
        return render("inverted-tower", out, decks, size=card_size("mini"), split_tables=True)
    return renders.many({"mini": ("cards-it-reference-mini-split.pdf", make)})["mini"]


def blank_share(image: Any, box: tuple[float, float, float, float]) -> float:
    """The share of ``box``'s height (mm, from the page's top left) in runs of white pixel
    rows BLANK_RUN_MM tall or more: the room a card's face leaves empty."""
    px = DPI / 25.4
    x, y, w, h = (round(v * px) for v in box)
    rows = [image.crop((x, y + r, x + w, y + r + 1)).getextrema()[0] >= 240 for r in range(h)]
    blank = run = 0
    for white in [*rows, False]:
        if white:
            run += 1
            continue
        blank += run if run >= BLANK_RUN_MM * px else 0
        run = 0
    return blank / h


def faces_of(path: Path) -> list[tuple[str, float]]:
    """Each front's band and title (its text's first two lines), and its blank share."""
    fronts = layout("a4", card_size("poker")).fronts
    pt = 72 / 25.4
    out = []
    pdf, doc = pdfplumber.open(path), pypdfium2.PdfDocument(path)
    with pdf:
        for number in range(0, len(pdf.pages), 2):  # the fronts; the backs follow each
            image = doc[number].render(scale=DPI / 72).to_pil().convert("L")
            for f in fronts:
                box = (f.x + FACE_INSET, f.y + FACE_INSET, f.w - 2 * FACE_INSET,
                       f.h - 2 * FACE_INSET)
                crop = pdf.pages[number].crop((f.x * pt, f.y * pt, (f.x + f.w) * pt,
                                              (f.y + f.h) * pt))
                lines = (crop.extract_text() or "").splitlines()
                if lines:
                    out.append((" / ".join(lines[:2]), blank_share(image, box)))
    return out


def test_every_icon_kind_is_drawn() -> None:
    assert set(ICONS) == set(ICON_KINDS)


def test_entity_cards_fill_their_face(full: dict[str, Path]) -> None:
    """Monster, item, artifact (every entity's) cards were 65-70% blank: their picture
    panel (the icon of their kind, the dice that call them) takes the room their text
    leaves, and their text is set larger."""
    emptiest: list[tuple[float, str]] = []
    for ruleset_id in RULESETS:
        for name, blank in faces_of(full[ruleset_id]):
            if not name.startswith(REFERENCE):
                emptiest.append((blank, f"{ruleset_id}: {name}"))
    assert len(emptiest) > 50
    assert max(emptiest)[0] <= MOST_BLANK, sorted(emptiest)[-5:]


def card_texts(path: Path) -> list[str]:
    """Each front's text, its lines joined by spaces."""
    fronts = layout("a4", card_size("poker")).fronts
    pt = 72 / 25.4
    with pdfplumber.open(path) as pdf:
        return [re.sub(r"\s+", " ", page.crop((f.x * pt, f.y * pt, (f.x + f.w) * pt,
                                              (f.y + f.h) * pt)).extract_text() or "")
                for page in pdf.pages[::2] for f in fronts]


def test_monster_cards_show_the_dice_that_call_them(full: dict[str, Path]) -> None:
    """A monster's card names each dice table that brings it in ("DUNGEON LEVEL"), its
    die faces drawn large beside its icon."""
    texts = card_texts(full["three-dice-dungeon"])
    calls = {"Goblins": "DUNGEON LEVEL ROAMING MONSTERS", "Vampire": "UNDEAD LEVEL",
             "Healing Potion": "DUNGEON LEVEL UNDEAD LEVEL"}
    for title, labels in calls.items():
        found = [t for t in texts if re.search(rf"\b{title} [A-Z]", t)]
        words = re.fullmatch(rf".*?{title} ((?:[A-Z]+ )+).*", found[0])
        shown = words[1].split()[:len(labels.split())] if words else []
        assert sorted(shown) == sorted(labels.split()), found


def _column_lines(path: Path, title: str, head: str, before: str | None) -> list[str]:
    """The lines of the column headed ``head`` on the card titled ``title`` (its words
    left of the column headed ``before``, when there is one)."""
    fronts = layout("a4", card_size("poker")).fronts
    pt = 72 / 25.4
    with pdfplumber.open(path) as pdf:
        for page in pdf.pages[::2]:
            for f in fronts:
                crop = page.crop((f.x * pt, f.y * pt, (f.x + f.w) * pt, (f.y + f.h) * pt))
                words = crop.extract_words()
                if not any(w["text"] == title for w in words[:6]):
                    continue
                top = next(w for w in words if w["text"] == head.split()[0])
                left = top["x0"] - 0.5
                right = next((w["x0"] for w in words if before and w["text"] == before
                              and abs(w["top"] - top["top"]) < 1), (f.x + f.w) * pt)
                mine = [w for w in words if w["top"] > top["bottom"] + 0.5
                        and left <= w["x0"] < right - 0.5]
                lines: dict[float, list[str]] = {}
                for w in mine:
                    lines.setdefault(round(w["top"]), []).append(w["text"])
                return [" ".join(ws) for _, ws in sorted(lines.items())]
    raise AssertionError(f"no card {title!r}")


@pytest.mark.parametrize(("title", "head", "before"), [
    ("Traps", "Description", None),
    ("Monsters", "Combat roll", "Description"),
    ("Monsters", "Description", None),
])
def test_a_column_of_sentences_has_room(full: dict[str, Path], title: str, head: str,
                                        before: str | None) -> None:
    """The Inverted Tower's traps set their descriptions one or two words a line, its
    monsters' combat rolls over about ten lines: a column of sentences is at least TEXT_EM
    wide, and lines there hold LEAST_CHARS characters on average."""
    lines = _column_lines(full["inverted-tower"], title, head, before)
    notes = [i for i, line in enumerate(lines) if line.startswith(("Check:", "Each "))]
    body = lines[:notes[0]] if notes else lines
    assert sum(map(len, body)) / len(body) >= LEAST_CHARS, body


def test_text_columns_are_as_wide_as_the_measure_says() -> None:
    """The least width of a column of sentences, in ems of its text."""
    table = load_content().ruleset("inverted-tower").tables()["traps"]
    widths, need = fitted_widths(table, 8.0, 63.5 - 2 * FACE_INSET)
    assert widths is not None and need == 1.0
    assert widths[-1] / 100 * (63.5 - 2 * FACE_INSET) * 72 / 25.4 / (8.0 * 0.86) >= TEXT_EM
    assert len(_words("1\u20132: first / 3\u20134: second", False, False)[0]) == 2


def _parts(path: Path) -> dict[str, list[tuple[list[float], float]]]:
    """The cards cut in parts on the sheets, by title: each part's column heads' left
    edges and the bottom of its text, in mm from its card's top."""
    fronts = layout("a4", card_size("mini")).fronts
    pt = 72 / 25.4
    found: dict[str, list[tuple[list[float], float]]] = {}
    with pdfplumber.open(path) as pdf:
        for page in pdf.pages[::2]:
            for f in fronts:
                crop = page.crop((f.x * pt, f.y * pt, (f.x + f.w) * pt, (f.y + f.h) * pt))
                text = crop.extract_text() or ""
                if not text or not re.search(r"\d OF \d", text.splitlines()[0]):
                    continue
                words = crop.extract_words(x_tolerance=1, extra_attrs=["fontname"])
                title = max(w["bottom"] for w in words if "Serif-Bold" in w["fontname"])
                bolds = [w for w in words if "Sans-Bold" in w["fontname"] and w["top"] > title]
                # The first table's head: its bold words below any title in capitals, on
                # one or two lines set on one foot (cards.css: vertical-align: bottom).
                first = min(w["top"] for w in bolds if not w["text"].isupper())
                head = [w for w in bolds if 0 <= w["top"] - first < 12]
                below = max(w["bottom"] for w in head)
                heads = sorted(w["x0"] for w in head if abs(w["bottom"] - below) < 1)
                bottom = max(c["bottom"] for c in crop.chars)
                found.setdefault(text.splitlines()[1], []).append(
                    ([round(h / pt - f.x, 1) for h in heads], bottom / pt - f.y))
    return found


def test_parts_of_a_table_share_widths(mini_parts: Path) -> None:
    """Cut in parts, each part of a table chose its own column widths: every part now sets
    its columns as the whole table would."""
    parts = _parts(mini_parts)
    assert {"The rolls", "Traps", "Monsters"} <= set(parts)
    same = 0
    for title, cards in parts.items():
        heads = [h for h, _ in cards]
        # Traps' least widths do not fit a mini card even at 6 pt (its words only fit
        # hyphenated): the browser sets its columns, part by part.
        if title != "Traps" and all(len(h) == len(heads[0]) for h in heads):
            assert all(h == heads[0] for h in heads), (title, heads)
            same += 1
    assert same >= 4


@pytest.mark.parametrize("title", ["The rolls", "Monsters", "Experience ladder", "A floor"])
def test_parts_share_rows_by_their_lines(title: str) -> None:
    """"The rolls 1 of 2" held two short rows and was 55% empty: rows are shared out by the
    lines each takes at the parts' widths, each part counting the title and head it
    repeats, so that the parts differ by no more than their tallest row (and a table's
    title and head, where a part opens on a table of its own)."""
    ruleset = load_content().ruleset("inverted-tower")
    card = next(c for c in ruleset.cards(ruleset.decks["reference"], ruleset.profile())
                if c.title == title)
    size = card_size("mini")
    lines, chars = _part_lines(card, size)
    assert lines is not None
    for count in (2, 3):
        heights = []
        tallest = head = 0
        for part in split_tables(card, count, lines, chars):
            measured = measured_rows(part, lines, chars)
            assert measured is not None
            rows, heads = measured
            heights.append(sum(n for _, n in rows) + sum(heads[t] for t in {t for t, _ in rows}))
            tallest = max(tallest, *(n for _, n in rows))
            head = max(head, *heads) if len(part.tables) > 1 or len(card.tables) > 1 else 0
        assert max(heights) - min(heights) <= tallest + head, (count, heights, tallest)
