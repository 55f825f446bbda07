"""What a sheet of cards says beside them: a scale bar, and how to print the sheet.

A home printer set to "fit to page" shrinks the sheet by 3-6 %, and the cards with it; a
bar of a known length (50 mm, or 2 in on Letter) lets a player check the print with a
ruler before cutting.  It is a bar, not a square: outside the cards a full sheet has only
narrow bands of paper inside the 5 mm printable margin (9 mm deep on A4 poker, 4 mm with
bleed, none above Letter's cards), and a 50 mm bar fits in every one of them where a 50 mm
square fits in none.  The line beside it says how to print: at 100 %, and which edge
to flip on, since the backs are mirrored for that flip.

Each goes where the sheet has room for it: outside every card (and its bleed), clear of
every crop mark, inside the printable margin; in a band above or below the cards, read
level, or else beside them, turned to read upwards.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, TypedDict

from markupsafe import Markup

from generator.model.paper import PAPERS
from generator.products.cards.imposition import MARGIN, MARK_CLEARANCE, Layout
from generator.render.fonts import SANS, faces, font_face_css
from generator.render.pdf import pdf_bytes, render_document
from generator.render.templating import TEMPLATES, render_template

SIZE = 7.0  # pt: the notes' text, the smallest a rulebook sets
LINE = 3.2  # mm: a line of it, and the bar's band
BAR = 1.6  # mm: the bar's thickness
LABEL_GAP = 1.5  # mm between the bar and its label
MARK_ROOM = 1.5  # mm kept clear around a crop mark: the text reads apart from it
MM_PER_IN = 25.4
Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in mm


@dataclass(frozen=True)
class Scale:
    """The bar's length: ``length`` mm, in ``parts`` parts, called ``label``."""

    length: float
    parts: int
    label: str


def scale_for(paper: str) -> Scale:
    """50 mm in five parts, or 2 in in four on paper measured in inches (Letter)."""
    if PAPERS[paper].css_size.endswith("in"):
        return Scale(2 * MM_PER_IN, 4, "2 in")
    return Scale(50.0, 5, "50 mm")


def print_line(lay: Layout) -> str:
    """How to print the sheet: the duplex flip its backs are mirrored for."""
    if lay.fold:
        return "Print at 100%, one-sided; fold on the dashed lines"
    if lay.duplex == "none":
        return "Print at 100%, one-sided"
    return f"Print at 100%, duplex {lay.duplex} edge"


@dataclass(frozen=True)
class Spot:
    """Where a note goes: its box's top left corner in mm, and whether it is turned a
    quarter anticlockwise (to read upwards), so that its box is ``height`` wide."""

    x: float
    y: float
    turned: bool


@dataclass(frozen=True)
class Note:
    text: str
    width: float  # mm, read level
    height: float


@dataclass(frozen=True)
class SheetNotes:
    """The bar and the texts of a sheet, with where each goes."""

    scale: Scale
    bar: Spot | None  # the bar's band: LINE deep, the bar in its middle
    texts: tuple[tuple[Note, Spot], ...]


@cache
def _advances() -> tuple[dict[int, int], Any, float]:
    from fontTools.ttLib import TTFont  # WeasyPrint's own dependency

    face = next(f for f in faces() if f.family == SANS and f.weight == 400 and not f.italic)
    font = TTFont(face.file, lazy=True)
    return font.getBestCmap(), font["hmtx"], float(font["head"].unitsPerEm)


def text_width(text: str, size: float = SIZE) -> float:
    """The width of ``text`` set in the sans at ``size`` pt, in mm (no kerning: a little
    wider than set)."""
    cmap, hmtx, em = _advances()
    units: int = sum(hmtx[cmap.get(ord(c), ".notdef")][0] for c in text)
    return units / em * size * 25.4 / 72


def _obstacles(lay: Layout) -> list[Box]:
    cards = lay.fronts + (lay.backs if lay.fold else ())
    boxes = [(x0 - MARK_CLEARANCE, y0 - MARK_CLEARANCE, x1 + MARK_CLEARANCE,
              y1 + MARK_CLEARANCE) for x0, y0, x1, y1 in (p.outer for p in cards)]
    boxes += [(min(m.x1, m.x2) - MARK_ROOM, min(m.y1, m.y2) - MARK_ROOM,
               max(m.x1, m.x2) + MARK_ROOM, max(m.y1, m.y2) + MARK_ROOM) for m in lay.marks]
    return boxes


def _candidates(lo: float, hi: float, size: float, edges: Iterator[float]) -> list[float]:
    """Where a box ``size`` long may start between ``lo`` and ``hi``: at either end, or
    against an obstacle's edge."""
    found = {lo, hi - size}
    for edge in edges:
        found.update((edge, edge - size))
    return sorted(v for v in found if lo - 1e-9 <= v <= hi - size + 1e-9)


def find_spot(lay: Layout, width: float, height: float, taken: Sequence[Box]) -> Spot | None:
    """The best place for a ``width`` x ``height`` mm box on the sheet: level, nearest the
    top and then the middle; else turned, nearest the left and then the middle."""
    blocked = _obstacles(lay) + list(taken)
    x_lo, y_lo = MARGIN, MARGIN
    x_hi, y_hi = lay.page_w - MARGIN, lay.page_h - MARGIN
    for turned in (False, True):
        w, h = (height, width) if turned else (width, height)
        xs = _candidates(x_lo, x_hi, w, (e for b in blocked for e in (b[0], b[2])))
        ys = _candidates(y_lo, y_hi, h, (e for b in blocked for e in (b[1], b[3])))
        free = [(x, y) for y in ys for x in xs
                if not any(x < b[2] - 1e-9 and b[0] < x + w - 1e-9 and
                           y < b[3] - 1e-9 and b[1] < y + h - 1e-9 for b in blocked)]
        if free:
            if turned:
                x, y = min(free, key=lambda p: (p[0], abs(p[1] + h / 2 - lay.page_h / 2)))
            else:
                x, y = min(free, key=lambda p: (p[1], abs(p[0] + w / 2 - lay.page_w / 2)))
            return Spot(x, y, turned)
    return None


def _box(spot: Spot, width: float, height: float) -> Box:
    w, h = (height, width) if spot.turned else (width, height)
    return (spot.x - 1.0, spot.y - 1.0, spot.x + w + 1.0, spot.y + h + 1.0)  # 1 mm apart


def sheet_notes(lay: Layout) -> SheetNotes:
    """The bar and its label, then the print line, each where the sheet has room: all in
    one band when it holds them, else apart.  A note that finds no room is left out
    (cards that fill the paper leave none)."""
    scale = scale_for(lay.paper)
    label = Note(scale.label, text_width(scale.label) + 0.4, LINE)
    line = Note(print_line(lay), text_width(print_line(lay)) + 0.4, LINE)
    bar_w = scale.length + LABEL_GAP + label.width
    total = bar_w + 4 * LABEL_GAP + line.width
    spot = find_spot(lay, total, LINE, ())
    if spot is not None:
        return SheetNotes(scale, _part(spot, total, 0, scale.length), (
            (label, _part(spot, total, scale.length + LABEL_GAP, label.width)),
            (line, _part(spot, total, total - line.width, line.width))))
    group = find_spot(lay, bar_w, LINE, ())
    taken = [_box(group, bar_w, LINE)] if group else []
    text = find_spot(lay, line.width, LINE, taken)
    texts = []
    bar = None
    if group:
        bar = _part(group, bar_w, 0, scale.length)
        texts.append((label, _part(group, bar_w, scale.length + LABEL_GAP, label.width)))
    if text:
        texts.append((line, text))
    return SheetNotes(scale, bar, tuple(texts))


def _part(spot: Spot, total: float, along: float, length: float) -> Spot:
    """Where the part ``length`` mm long that starts ``along`` mm into a line ``total`` mm
    long at ``spot`` goes: to the right of its start, or (turned) up from it."""
    if spot.turned:
        return Spot(spot.x, spot.y + total - along - length, True)
    return Spot(spot.x + along, spot.y, False)


class NotesContext(TypedDict):
    """What ``cards/notes.html`` reads."""

    font_faces: Markup
    sans: str
    size: float
    line: float
    notes: Sequence[Note]


def notes_pdf(notes: Sequence[Note]) -> bytes:
    """One page per note, as large as its line."""
    html = render_template("cards/notes.html", NotesContext(
        font_faces=font_face_css(), sans=SANS, size=SIZE, line=LINE, notes=notes))
    return pdf_bytes(render_document(html, TEMPLATES))
