"""Card fronts and backs, each on a page of its own: the pieces the sheets are made of.

Every distinct front is laid out once at a text size, with its text in the margins of a page
as wide as the card; every distinct back once, on a page of its bleed box.  The sheets place
these pages (:mod:`generator.products.cards.compose`), so a card printed many times, and the
back behind every card of a deck, cost one layout each.  How far each front's text overflows
its box is read from the layout itself (design.md section 7): the height of its ``.face``,
its widest line, and any word wider than the box holding it.  The fronts are laid out one
under the other on one tall page and cut apart afterwards
(:mod:`generator.products.cards.cut`), which saves WeasyPrint a page each.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TypedDict

from markupsafe import Markup

from generator.model.decks import Card
from generator.products.cards.back import back_image, medallion_reach
from generator.products.cards.columns import card_columns
from generator.products.cards.cut import cut_out
from generator.products.cards.icons import icon_url
from generator.products.cards.imposition import CardSize
from generator.render.fonts import SANS, SERIF, font_face_css
from generator.render.pdf import last_warnings, pdf_bytes, render_document
from generator.render.svg import dice_images
from generator.render.templating import render_template
from generator.render.weasyprint_internals import is_block, is_inline_leaf, page_box

FACE_INSET = 3.6  # mm from the trim to the text
MIN_PT = 6.0  # no text on a card is smaller: the fitter shrinks a card's text down to it
#: The card's smaller text, each a share of the card's text size (custom properties of the
#: face, read by cards.css), set in pt and never below MIN_PT: a mini card's labels, or a
#: shrunk card's notes, would otherwise go down to 4 pt.
SMALL_TEXT = (
    ("table-title", 0.92),
    ("table", 0.86),
    ("field-label", 0.8),
    ("note", 0.78),
    ("faces", 0.67),  # "1-2" beside the dice, in a table
    ("stat-label", 0.66),
)
#: The headings of a card, each a share of the base size of its card's width: they keep
#: that size when the fitter shrinks the text, so that every card of a deck has its title and
#: band at one size.  Only a card that fits at no size so (a title word too wide for it, in
#: user content) has its headings shrunk with its text (FrontJob.shrink_headings).
HEADINGS = (
    ("band", 0.72),  # the deck's name above the title
    ("title", 1.7),
    ("title-reference", 1.3),  # a quick-reference card's: its tables need the room
)
PX_PER_MM = 96 / 25.4
ROOM = 4  # room for each front on the tall page, and its own page's height, in cards
TOLERANCE_PX = 0.5


@dataclass(frozen=True)
class FaceBox:
    """The box a card's text must stay inside, in mm."""

    width: float
    height: float


def face_box(size: CardSize) -> FaceBox:
    return FaceBox(size.width - 2 * FACE_INSET, size.height - 2 * FACE_INSET)


@dataclass(frozen=True)
class FrontJob:
    """A card's front, its text at ``font`` pt; its headings at the base size, or with
    ``shrink_headings`` at their share of ``font`` (the fitter's last resort, for a title
    word too wide for its card)."""

    card: Card
    font: float
    shrink_headings: bool = False


@dataclass(frozen=True)
class BackJob:
    """A deck's back, for a card whose bleed (left, top, right, bottom) is ``bleed``."""

    ruleset: str
    deck: str  # the name printed on the back
    pips: int  # how many pips (or cards) its middle shows
    bleed: tuple[float, float, float, float]
    motif: str = "dice"  # the deck file's back_motif


@dataclass(frozen=True)
class BackPiece:
    """A deck's back with the deck's name at ``font`` pt (the ruleset's name is smaller)."""

    job: BackJob
    font: float


RULESET_SHARE = 6.5 / 11  # the ruleset's name on a back, a share of the deck's name
NAME_GAP = 1.0  # mm between the ruleset's name on a back and the medallion below it
NAME_PLATE = 1.6  # mm of white plate beside a back's name, inside the text box


def back_size(size: CardSize) -> float:
    """The deck's name on a back of this size before any shrinking, in pt."""
    return round(max(MIN_PT, 11 * size.width / 63.5), 2)


#: An entity's card with a picture (a monster, an item) sets its text this much larger than
#: a reference card's: it holds a few lines a player reads across the table, where a
#: reference card holds tables.  The fitter shrinks it from there like any card.
PICTURED_SHARE = 1.25


def base_size(card_width: float) -> float:
    """The text size of a card of this width before any shrinking, in pt."""
    size = 10.0 * card_width / 63.5
    return max(7.0, min(11.0, round(size * 4) / 4))


def pictured(card: Card) -> bool:
    """Whether ``card`` is an entity's card with the picture panel (its deck names an icon)."""
    return bool(card.icon) and not card.tables


def top_size(card: Card, card_width: float) -> float:
    """The text size ``card`` is laid out at first, before any shrinking, in pt."""
    base = base_size(card_width)
    return round(base * PICTURED_SHARE * 4) / 4 if pictured(card) else base


def face_style(font: float, base: float, height: float | None = None) -> str:
    """The inline style of a face whose text is ``font`` pt, on a card whose text is ``base``
    pt before shrinking: its size, its smaller sizes and its headings'; with ``height``, a
    pictured face's least height in mm (its text box's), its smaller sizes no larger than
    a reference card's."""
    # A pictured card's text is set larger than the base size; its labels and notes not.
    small = min(font, base) if height is not None else font
    sizes = [f"--{name}: {max(MIN_PT, small * share):.2f}pt" for name, share in SMALL_TEXT]
    headings = [f"--{name}: {max(MIN_PT, base * share):.2f}pt" for name, share in HEADINGS]
    tall = [f"min-height: {height:.3f}mm"] if height is not None else []
    return "; ".join([f"font-size: {font:.2f}pt", *sizes, *headings, *tall])


def _mm(value: float) -> str:
    return f"{value:.4f}mm"


@dataclass(frozen=True)
class _BackView:
    """Where a back's names go, in mm from its bleed box's corner, and their room."""

    job: BackJob
    art: Markup  # the back drawn as an image
    width: float  # the bleed box
    height: float
    text_left: float  # the names, with their plates, are as wide as a front's text box
    text_w: float
    plate: float
    ruleset_top: float
    ruleset_room: float  # down to the medallion
    deck_top: float
    deck_room: float  # down to the foot of the text box
    small: float
    large: float


def _back_view(piece: BackPiece, size: CardSize) -> _BackView:
    job = piece.job
    left, top, right, bottom = job.bleed
    w, h = size.width, size.height
    ruleset_top, deck_top = h * 0.13, h * 0.80
    return _BackView(
        job=job,
        art=back_image(w, h, job.bleed, job.pips, job.motif),
        width=w + left + right,
        height=h + top + bottom,
        text_left=left + FACE_INSET,
        text_w=w - 2 * FACE_INSET,
        plate=NAME_PLATE,
        ruleset_top=top + ruleset_top,
        ruleset_room=h / 2 - medallion_reach(w, h) - NAME_GAP - ruleset_top,
        deck_top=top + deck_top,
        deck_room=h - FACE_INSET - deck_top,
        small=round(max(MIN_PT, piece.font * RULESET_SHARE), 2),
        large=round(max(MIN_PT, piece.font), 2),
    )


@dataclass(frozen=True)
class _FrontView:
    """A front as ``cards/face.html`` lays it out."""

    card: Card
    style: str  # its text sizes (face_style)
    art: str  # its icon's data URL, or ""
    columns: tuple[tuple[float, ...], ...] | None  # each table's column widths, percent
    cramp: float  # how much wider than the card its tables' least widths are (1.0: fit)


def _front_view(job: FrontJob, size: CardSize) -> _FrontView:
    base = base_size(size.width)
    card = job.card
    pictures = pictured(card)
    box = face_box(size)
    style = face_style(job.font, job.font if job.shrink_headings else base,
                       box.height if pictures else None)
    tables = card.whole or card.tables
    # Tables whose columns miss their least widths at this size (a column of sentences
    # two words a line) make the card as much too wide, so that the fitter shrinks it.
    columns, cramp = card_columns(tables, card.tables, job.font, box.width, bool(card.parts))
    return _FrontView(card, style, icon_url(card.icon) if pictures else "", columns, cramp)


class PiecesContext(TypedDict):
    """What ``cards/pieces.html`` reads."""

    language: str
    font_faces: Markup
    serif: str
    sans: str
    size: CardSize
    room: int
    inset: float
    fronts: Sequence[_FrontView]
    backs: Sequence[_BackView]
    dice: Callable[[str], Markup]
    mm: Callable[[float], str]


def pieces_html(
    fronts: Sequence[FrontJob], backs: Sequence[_BackView], size: CardSize, language: str = "en"
) -> str:
    return render_template("cards/pieces.html", PiecesContext(
        language=language,
        font_faces=font_face_css(),
        serif=SERIF,
        sans=SANS,
        size=size,
        room=ROOM,
        inset=FACE_INSET,
        fronts=[_front_view(job, size) for job in fronts],
        backs=backs,
        dice=dice_images,
        mm=_mm,
    ))


def _boxes_of_class(page_box: Any, classes: set[str]) -> Iterator[Any]:
    """The outermost laid-out boxes of a page whose element has one of ``classes``."""
    stack = [page_box]
    while stack:
        current = stack.pop()
        element = getattr(current, "element", None)
        if element is not None and classes & set((element.get("class") or "").split()):
            yield current
            continue
        stack.extend(getattr(current, "children", ()))


def _faces(page_box: Any) -> Iterator[Any]:
    """The laid-out ``.face`` boxes of a page."""
    return _boxes_of_class(page_box, {"face"})


def _right_edge(box: Any) -> float:
    edge = 0.0
    stack = [box]
    while stack:
        current = stack.pop()
        if getattr(current, "width", None) is not None and hasattr(current, "position_x"):
            edge = max(edge, current.position_x + current.margin_width())
        stack.extend(getattr(current, "children", ()))
    return edge


def _spill(face: Any) -> float:
    """How far the face's words and images reach into the block holding each (a stat box, a
    table cell, the face itself), over that block's width: above 1.0, one sticks out of it.

    Lines wrap inside their block, so only a word too long for it (a stat box holding a
    phrase) can stick out; the face as a whole can still be narrow enough.
    """
    worst = 0.0
    stack: list[tuple[Any, Any]] = [(face, face)]
    while stack:
        current, block = stack.pop()
        if is_inline_leaf(current):
            reach = current.position_x + current.margin_width() - block.content_box_x()
            worst = max(worst, reach / (block.width + TOLERANCE_PX))
        if is_block(current):
            block = current
        stack.extend((child, block) for child in getattr(current, "children", ()))
    return worst


@dataclass(frozen=True)
class Overflow:
    """A laid-out face's height over its box's, and the widest of its lines over the box's
    width or of its words over the width of the box holding it: 1.0 or less fits."""

    height: float
    width: float

    @property
    def ratio(self) -> float:
        return max(self.height, self.width)


@dataclass(frozen=True)
class Measure:
    """A laid-out face: how far it overflows its box, where it was laid out."""

    overflow: Overflow
    page: Any  # WeasyPrint's Page
    box: Any  # the laid-out ``.face``


def overflows(pages: Iterable[Any], box: FaceBox) -> dict[str, Measure]:
    """Each laid-out face's overflow, by ``data-key``.

    A face so long that it ran onto a next page is infinitely over.
    """
    limit_h = box.height * PX_PER_MM + TOLERANCE_PX
    limit_w = box.width * PX_PER_MM + TOLERANCE_PX
    found: dict[str, Measure] = {}
    for page in pages:
        for face in _faces(page_box(page)):
            key = face.element.get("data-key")
            width = max((_right_edge(face) - face.position_x) / limit_w, _spill(face),
                        float(face.element.get("data-cramp") or 1.0))
            if key in found:
                found[key] = replace(found[key], overflow=Overflow(math.inf, width))
            else:
                found[key] = Measure(Overflow(face.margin_height() / limit_h, width), page, face)
    return found


def _back_overflow(page: Any, view: _BackView) -> Overflow:
    """How far a back's names overflow their room: the taller over its room, and the widest
    word over the text box's width (lines wrap inside it)."""
    rooms = {"back-ruleset": view.ruleset_room, "back-deck": view.deck_room}
    height = width = 0.0
    for box in _boxes_of_class(page_box(page), set(rooms)):
        room = next(c for c in box.element.get("class").split() if c in rooms)
        height = max(height, box.margin_height() / (rooms[room] * PX_PER_MM + TOLERANCE_PX))
        width = max(width, _spill(box))
    return Overflow(height, width)


@dataclass(frozen=True)
class Batch:
    """One document of pieces laid out, not yet written."""

    document: Any  # WeasyPrint's Document
    measures: tuple[Measure, ...]  # each front job's
    backs: tuple[tuple[Any, Overflow], ...]  # each back piece's page, and its overflow
    warnings: tuple[str, ...]


def lay_out_batch(
    fronts: Sequence[FrontJob], backs: Sequence[BackPiece], size: CardSize, root: Path,
    language: str = "en",
) -> Batch:
    """Lay out the pieces in one document and measure each front and back.

    Raises:
        RenderError: a reference outside the project's folders was refused.
    """

    views = [_back_view(b, size) for b in backs]
    document = render_document(pieces_html(fronts, views, size, language), root)
    warnings = tuple(last_warnings)
    found = overflows(document.pages, face_box(size))
    # Each back is one of the last pages.
    back_pages = document.pages[len(document.pages) - len(backs):] if backs else []
    measured = tuple((page, _back_overflow(page, view))
                     for page, view in zip(back_pages, views, strict=True))
    return Batch(document, tuple(found[str(i)] for i in range(len(fronts))), measured,
                 warnings)


def write_pieces(
    document: Any, fronts: Sequence[Measure], backs: Sequence[Any], size: CardSize
) -> bytes:
    """One PDF of ``fronts``, each cut onto a page of its own, then the pages of ``backs``.

    The pieces may come from several laid-out documents; ``document`` is any one of them.
    Written together, they share one subset of each font.
    """

    height = size.height * ROOM * PX_PER_MM
    pages = [cut_out(m.page, m.box, height) for m in fronts] + list(backs)
    return pdf_bytes(document.copy(pages)) if pages else b""
