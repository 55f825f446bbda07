"""The column widths of a reference card's tables, chosen for the least height.

A browser's automatic table layout shares a card's width by each column's longest line,
which starves the column that holds the sentences: The Inverted Tower's traps set their
descriptions one or two words a line beside a roll column wide with dice.  Here each column
gets at least its longest word, and the width left over goes, a step at a time, to the
column whose widening saves the most lines (the tallest cell of each row sets its height).
Words are measured with the card's own font (its advance widths, from the font file), in
ems of the table's text, so a table's thresholds are worked out once for every text size.

A card cut in parts (generator.products.cards.split) sets every part's columns from the
whole table, so the parts share one set of widths, and one row is as tall in any part.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from functools import cache

from fontTools.ttLib import TTFont

from generator.model.views import TableView, printed_range
from generator.render.capitals import is_name
from generator.render.fonts import SANS, faces
from generator.render.typography import tie_runt, typeset

PT_PER_MM = 72 / 25.4
TABLE_SHARE = 0.86  # the table's text, a share of the card's (pieces.SMALL_TEXT "table")
FACES_SHARE = 0.67  # the digits beside a table's dice (pieces.SMALL_TEXT "faces")
MIN_PT = 6.0
PAD = {False: 0.25, True: 0.12}  # a cell's padding each side, in em: a whole card's, a part's
SAFETY = 1.0  # words measured without kerning, which only narrows them
SLACK = 0.03  # em a word is given beyond its advances, for rounding
#: The least width of a column of sentences (one whose longest cell is wider than this),
#: in em: about 16 characters a line.  A card whose tables cannot give each such column
#: that much at a size does not fit at that size (generator.products.cards.pieces).
TEXT_EM = 7.5
DIE_EM = 1.05 + 0.08  # a die's picture and its gap, in ems of the table (cards.css .dice)
LEAST_GAIN = 1e-9
# A line may break after a hyphen or a slash before a letter ("pass-or-fail"), not before a
# digit ("IT-25", as Unicode's line breaking has it).
_BREAK = re.compile(r"(?<=[-\u2013/])(?=[^\W\d_])")
_GLUED = "/)]}!?,.:;%"
_DICE = re.compile(r"^(\d)(?:(?:-|\u2013\u2060?)(\d))?$")


@cache
def _advances(weight: int) -> tuple[dict[int, float], float]:
    """The sans face's advance widths in em by code point, and its average (for a
    character it lacks)."""
    face = next(f for f in faces() if f.family == SANS and f.weight == weight and not f.italic)
    font = TTFont(str(face.file), lazy=True)
    units = font["head"].unitsPerEm
    hmtx = font["hmtx"].metrics
    widths = {code: hmtx[glyph][0] / units for code, glyph in font.getBestCmap().items()}
    return widths, sum(widths.values()) / len(widths)


def text_em(text: str, bold: bool = False) -> float:
    """How wide ``text`` is set in the table's sans, in em."""
    widths, average = _advances(700 if bold else 400)
    return sum(0.0 if ch == "\u2060" else widths.get(ord(ch), average) for ch in text)


def _words(text: str, bold: bool, tied: bool) -> tuple[tuple[float, ...], float]:
    """The widths of the pieces a line may break between (words, and parts of words after
    a hyphen), and of a space; a no-break space binds its words, as the page typesets them
    (a count tied to what it counts: "3\u20134:\u00a0second"; with ``tied``, a cell's short
    last word to the one before it, as a whole card's cells are in cards/face.html)."""
    words: list[str] = []
    if tied and not bold and not is_name(text):
        text = str(tie_runt(text))
    printed = html.unescape(typeset(str(html.escape(text))))
    for word in (w for w in printed.split(" ") if w):
        if words and word[0] in _GLUED:
            words[-1] += " " + word  # no break before "/" or a closing mark (Unicode's rule)
        else:
            words.append(word)
    pieces = [p for word in words for p in _BREAK.split(word) if p]
    return tuple(text_em(p, bold) * SAFETY + SLACK for p in pieces), text_em(" ", bold)


def _lines(words: tuple[float, ...], space: float, width: float) -> int:
    """How many lines ``words`` take in a line ``width`` em wide, filled greedily."""
    lines, used = 1, 0.0
    for w in words:
        if used and used + space + w > width:
            lines, used = lines + 1, w
        else:
            used += (space if used else 0.0) + w
    return lines


def _thresholds(text: str, bold: bool, tied: bool) -> tuple[float, ...]:
    """The least width (em) at which ``text`` takes at most k lines, for k = 1, 2, ... up to
    one word a line: the first item is its whole length, the last its widest word."""
    words, space = _words(text, bold, tied)
    if not words:
        return (0.0,)
    widest = max(words)
    out: list[float] = []
    for k in range(1, _lines(words, space, widest) + 1):
        low, high = widest, sum(words) + space * (len(words) - 1) + 1e-6
        while high - low > 1e-3:  # halving to a thousandth of an em
            mid = (low + high) / 2
            low, high = (low, mid) if _lines(words, space, mid) <= k else (mid, high)
        out.append(high)
    return tuple(out)


@cache
def _cells(table: TableView, tied: bool) -> tuple[tuple[tuple[float, ...], ...], ...]:
    """Each text cell's thresholds by column (the head first); a roll column's are empty:
    its dice do not wrap.  ``tied``: a whole card's cells, their short last words tied."""
    start = 1 if table.roll_column else 0
    return tuple(
        tuple(_thresholds(text, bold, tied) for text, bold in
              [(table.columns[c], True), *((row[c], False) for row in table.rows)])
        if c >= start else ()
        for c in range(len(table.columns)))


def _lines_at(thresholds: tuple[float, ...], width: float) -> int:
    """How many lines a cell takes at ``width`` em (one more than its most if narrower
    than its widest word)."""
    return next((k for k, least in enumerate(thresholds, start=1) if width + 1e-9 >= least),
                len(thresholds) + 1)


def roll_em(table: TableView, font: float) -> float:
    """The width of a table's roll column without padding, in ems of the table: its widest
    dice (cards.css .dice), and its head."""
    table_pt = max(MIN_PT, font * TABLE_SHARE)
    faces_pt = max(MIN_PT, font * FACES_SHARE)
    widest = text_em(table.columns[0], bold=True) * SAFETY
    for row in table.rows:
        m = _DICE.match(row[0].strip())
        if not m:
            widest = max(widest, text_em(printed_range(row[0])) * SAFETY)
            continue
        low, high = int(m.group(1)), int(m.group(2) or m.group(1))
        pictures = 2 if high - low >= 2 else high - low + 1
        dash = text_em("\u2013") if high - low >= 2 else 0.0
        digits = (0.2 + text_em(printed_range(row[0].strip()))) * faces_pt / table_pt
        widest = max(widest, (pictures * DIE_EM + dash + digits) * SAFETY)
    return widest


def _height(lines: list[list[int]]) -> float:
    """The table's height in lines (each row as tall as its tallest cell), and a little for
    every cell's own lines, so that a step saving lines in a row's shorter cells counts."""
    rows = len(lines[0]) if lines else 0
    return sum(max(col[r] for col in lines) for r in range(rows)) + 0.01 * sum(map(sum, lines))


def table_widths(table: TableView, font: float, width_mm: float, part: bool = False,
                 text: float = TEXT_EM) -> tuple[tuple[float, ...] | None, float]:
    """The widths of ``table``'s columns in percent of ``width_mm``, its text at ``font``
    pt (the card's), and how much wider than ``width_mm`` its least widths are (1.0 or
    less: they fit).  Each column is at least as wide as its longest word, a column of
    sentences at least ``text`` em; widths of None: they do not fit side by side."""
    table_pt = max(MIN_PT, font * TABLE_SHARE)
    total = width_mm * PT_PER_MM / table_pt  # em
    pad = 2 * PAD[part]
    cells = _cells(table, not part)
    fixed = {0: roll_em(table, font) + pad} if table.roll_column else {}
    free = [c for c in range(len(table.columns)) if c not in fixed]
    widths = {c: _least(cells[c], text) + pad for c in free} | fixed
    need = sum(widths.values()) / total
    if need > 1.0 or not free:
        return None, need
    _widen(cells, widths, free, pad, total - sum(widths.values()))
    left = total - sum(widths.values())
    share = sum(widths[c] for c in free)
    for c in free:  # what no column needs goes to each in step with its width
        widths[c] += left * widths[c] / share
    return tuple(100 * widths[c] / total for c in range(len(table.columns))), need


def _least(column: Sequence[tuple[float, ...]], text: float) -> float:
    """A column's least width without padding, in em: its widest word, or ``text`` for a
    column of sentences (one whose longest cell is wider)."""
    widest = max(t[-1] for t in column)
    return max(widest, text) if max(t[0] for t in column) > text else widest


def fitted_widths(table: TableView, font: float, width_mm: float,
                  part: bool = False) -> tuple[tuple[float, ...] | None, float]:
    """``table``'s column widths at ``font`` pt (percent), and how far its least widths
    miss ``width_mm`` at that size (1.0: they do not).

    Columns of sentences get TEXT_EM where the table can have it at some size; where it
    cannot even at MIN_PT (a mini card), only their widest words; where even those do not
    fit at MIN_PT, the widths are None and nothing misses: the browser shares the width.
    """
    for text in (TEXT_EM, 0.0):
        widths, need = table_widths(table, font, width_mm, part, text)
        if widths is not None:
            return widths, 1.0
        if table_widths(table, MIN_PT, width_mm, part, text)[0] is not None:
            return None, need  # it has them at a smaller size
    return None, 1.0


def _widen(cells: Sequence[Sequence[tuple[float, ...]]], widths: dict[int, float],
           free: list[int], pad: float, spare: float) -> None:
    """Give ``spare`` em to the ``free`` columns, a step at a time: each step to the column
    whose next widening saves the most height for its width."""
    lines = {c: [_lines_at(t, widths[c] - pad) for t in cells[c]] for c in free}

    def height() -> float:
        return _height(list(lines.values()))

    now = height()
    while True:
        best: tuple[float, int, float, list[int]] | None = None
        for c in free:
            steps = sorted({t[k] + pad for t in cells[c] for k in range(len(t))
                            if widths[c] + 1e-9 < t[k] + pad <= widths[c] + spare + 1e-9})
            for step in steps[:8]:
                trial = [_lines_at(t, step - pad) for t in cells[c]]
                saved = now - _height([trial if d == c else lines[d] for d in free])
                if saved > LEAST_GAIN:
                    ratio = saved / (step - widths[c])
                    if best is None or ratio > best[0] + 1e-12:
                        best = (ratio, c, step, trial)
        if best is None:
            return
        _, c, step, trial = best
        spare -= step - widths[c]
        widths[c], lines[c] = step, trial
        now = height()


def card_columns(whole: Sequence[TableView], shown: Sequence[TableView], font: float,
                 width_mm: float, part: bool) -> tuple[tuple[tuple[float, ...], ...] | None,
                                                       float]:
    """Each of ``shown``'s tables' column widths (percent, :func:`fitted_widths`), worked out
    from its table in ``whole`` (the card's tables before it was cut in parts, by name;
    itself otherwise); and how far the worst table's least widths miss the card at this
    size (1.0: none does).  None for a card without tables, or when a table's widths are
    left to the browser."""
    by_name = {t.name: t for t in whole}
    found = [fitted_widths(by_name.get(t.name, t), font, width_mm, part) for t in shown]
    need = max((n for _, n in found), default=1.0)
    widths = tuple(w for w, _ in found if w is not None)
    return (widths if shown and len(widths) == len(found) else None), need


def row_lines(table: TableView, font: float, width_mm: float,
              part: bool = True) -> tuple[int, tuple[int, ...]] | None:
    """How many lines ``table``'s head and each of its rows take at ``font`` pt set at its
    widths (:func:`table_widths`): a row is as tall as its tallest cell.  None when its
    columns do not fit at that size."""
    widths, _ = fitted_widths(table, font, width_mm, part)
    if widths is None:
        return None
    total = width_mm * PT_PER_MM / max(MIN_PT, font * TABLE_SHARE)
    pad = 2 * PAD[part]
    cells = _cells(table, not part)
    lines = [[_lines_at(t, widths[c] * total / 100 - pad) for t in cells[c]] if cells[c]
             else [1] * (len(table.rows) + 1) for c in range(len(table.columns))]
    rows = tuple(max(col[r] for col in lines) for r in range(len(table.rows) + 1))
    return rows[0], rows[1:]
