"""Card decks as print-and-play PDF sheets: fronts, backs behind them, crop marks.

The cards come from the model (:mod:`generator.model.decks`); the geometry from
:mod:`generator.render.imposition`; the text size of each card from
:mod:`generator.render.card_fit`.  Every sheet page places its cards absolutely, in mm.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from markupsafe import Markup

from generator import __version__
from generator.errors import TowerpressError
from generator.model.common import Profile
from generator.model.decks import Card, Deck
from generator.model.loader import Ruleset
from generator.render.card_back import FRAME_INSET, back_image
from generator.render.card_fit import FaceBox, base_size, fit, overflows
from generator.render.fonts import SANS, SERIF, font_face_css
from generator.render.imposition import (
    SIZES,
    CardSize,
    Duplex,
    ImpositionError,
    Layout,
    Mark,
    Placement,
    layout,
    sheets,
)
from generator.render.svg import dice_faces
from generator.render.templating import environment

FACE_INSET = 3.6  # mm from the trim to the text


@dataclass(frozen=True)
class CardOptions:
    paper: str = "a4"
    size: CardSize = field(default_factory=lambda: CardSize("poker", *SIZES["poker"]))
    bleed: float = 0.0
    gutter: float = 0.0
    duplex: Duplex = "long"
    back_offset: tuple[float, float] = (0.0, 0.0)
    fold: bool = False


@dataclass(frozen=True)
class DeckPrint:
    """The cards of one deck, as they will be printed."""

    id: str
    title: str
    back_title: str  # the name on the back: this deck's, or the deck it is shuffled into
    pips: int  # the die face on its back
    cards: tuple[Card, ...]


def face_box(size: CardSize) -> FaceBox:
    return FaceBox(size.width - 2 * FACE_INSET, size.height - 2 * FACE_INSET)


def select_decks(
    ruleset: Ruleset, deck_id: str | None, profile: Profile | None
) -> list[DeckPrint]:
    """The decks to print: one by id, or every deck of the ruleset.

    Raises:
        TowerpressError: an unknown deck id (the message lists those that exist), or a
            ruleset without decks.
    """
    decks: Mapping[str, Deck] = ruleset.decks
    if not decks:
        raise TowerpressError(f"{ruleset.id} has no card decks (expected decks/*.toml)")
    if deck_id is not None and deck_id not in decks:
        raise TowerpressError(
            f"unknown deck {deck_id!r} for {ruleset.id} (expected one of: {', '.join(decks)})"
        )
    chosen = [decks[deck_id]] if deck_id else list(decks.values())
    return [deck_print(ruleset, d, d.cards(ruleset.data, profile)) for d in chosen]


def deck_print(ruleset: Ruleset, deck: Deck, cards: Sequence[Card], id: str = "") -> DeckPrint:
    """The deck as printed, with the back of the deck it shares its back with."""
    order = list(ruleset.decks)
    back = ruleset.decks.get(deck.back, deck)
    return DeckPrint(id or deck.id, deck.title, back.title, order.index(back.id) % 6 + 1,
                     tuple(cards))


@dataclass(frozen=True)
class _BackView:
    art: Markup
    ruleset: str
    deck: str
    left: float
    width: float
    ruleset_top: float
    deck_top: float
    small: float
    large: float


@dataclass(frozen=True)
class _Slot:
    box: tuple[float, float, float, float]  # the bleed box on the page, mm
    card: Card | None = None
    font: float = 0.0
    frame: tuple[float, float, float, float] = (0, 0, 0, 0)  # x, y, w, h inside the box
    inner: tuple[float, float, float, float] = (0, 0, 0, 0)
    back: _BackView | None = None


@dataclass(frozen=True)
class _Page:
    slots: tuple[_Slot, ...]
    marks: Markup | None
    bookmark: str = ""


def _front(p: Placement, card: Card, font: float) -> _Slot:
    left, top, _, _ = p.bleed
    return _Slot(
        box=p.outer,
        card=card,
        font=font,
        frame=(left + FRAME_INSET, top + FRAME_INSET, p.w - 2 * FRAME_INSET, p.h - 2 * FRAME_INSET),
        inner=(left + FACE_INSET, top + FACE_INSET, p.w - 2 * FACE_INSET, p.h - 2 * FACE_INSET),
    )


def _back(p: Placement, ruleset: Ruleset, deck: DeckPrint) -> _Slot:
    left, top, _, _ = p.bleed
    scale = p.w / 63.5
    view = _BackView(
        art=back_image(p.w, p.h, p.bleed, deck.pips),
        ruleset=ruleset.title,
        deck=deck.back_title,
        left=left,
        width=p.w,
        ruleset_top=top + p.h * 0.13,
        deck_top=top + p.h * 0.80,
        small=round(6.5 * scale, 2),
        large=round(11 * scale, 2),
    )
    return _Slot(box=p.outer, back=view)


def marks_svg(marks: Sequence[Mark], page_w: float, page_h: float) -> Markup:
    """Crop marks (solid) and fold marks (dashed), one SVG over the page, in mm."""
    lines = []
    for m in marks:
        dash = ' stroke-dasharray="1 0.7"' if m.fold else ""
        lines.append(
            f'<line x1="{m.x1:.4f}" y1="{m.y1:.4f}" x2="{m.x2:.4f}" y2="{m.y2:.4f}"{dash}/>'
        )
    return Markup(
        f'<svg class="crop" width="{page_w}mm" height="{page_h}mm" '
        f'viewBox="0 0 {page_w} {page_h}"><g stroke="#000" stroke-width="0.12" '
        f'fill="none">{"".join(lines)}</g></svg>'
    )


def _pages(
    ruleset: Ruleset, decks: Sequence[DeckPrint], lay: Layout, fonts: Mapping[str, float]
) -> list[_Page]:
    marks = marks_svg(lay.marks, lay.page_w, lay.page_h)
    pages: list[_Page] = []
    for deck in decks:
        for number, indexes in enumerate(sheets(len(deck.cards), lay.per_sheet)):
            bookmark = deck.title if number == 0 else ""
            fronts = [
                _front(lay.fronts[slot], deck.cards[i], fonts[deck.cards[i].key])
                for slot, i in enumerate(indexes)
            ]
            backs = [_back(lay.backs[slot], ruleset, deck) for slot in range(len(indexes))]
            if lay.fold:
                pages.append(_Page(tuple(fronts + backs), marks, bookmark))
                continue
            pages.append(_Page(tuple(fronts), marks, bookmark))
            if lay.duplex != "none":
                pages.append(_Page(tuple(backs), None))
    return pages


def mm(value: float) -> str:
    return f"{value:.4f}mm"


def cards_html(
    ruleset: Ruleset,
    decks: Sequence[DeckPrint],
    opts: CardOptions,
    fonts: Mapping[str, float],
    only: Sequence[int] | None = None,
    lay: Layout | None = None,
) -> str:
    """The sheets as HTML; ``only`` keeps just those page indexes (for a re-layout)."""
    lay = lay or sheet_layout(opts)
    pages = _pages(ruleset, decks, lay, fonts)
    if only is not None:
        pages = [pages[i] for i in only]
    names = ", ".join(d.title for d in decks)
    authors = ", ".join(dict.fromkeys(c.author for c in ruleset.info.credits))
    template = environment().get_template("cards/sheets.html")
    return template.render(
        language=ruleset.info.language,
        title=f"{ruleset.title}: {names}",
        authors=authors,
        description=(f"{ruleset.title} cards: {names}. {opts.size.name} "
                     f"{opts.size.width:g} x {opts.size.height:g} mm on {opts.paper}."),
        version=__version__,
        font_faces=font_face_css(),
        serif=SERIF,
        sans=SANS,
        page_w=lay.page_w,
        page_h=lay.page_h,
        pages=pages,
        dice=dice_faces,
        mm=mm,
    )


def sheet_layout(opts: CardOptions) -> Layout:
    """Raises TowerpressError when the cards do not fit the paper."""
    try:
        return layout(opts.paper, opts.size, bleed=opts.bleed, gutter=opts.gutter,
                      duplex=opts.duplex, back_offset=opts.back_offset, fold=opts.fold)
    except ImpositionError as exc:
        raise TowerpressError(str(exc)) from None


def render_cards(
    ruleset: Ruleset, decks: Sequence[DeckPrint], opts: CardOptions, lay: Layout | None = None
) -> Any:
    """Impose, lay out, fit; returns WeasyPrint's Document.

    The sheets are laid out once at the base text size and every card's text is read
    from that layout; the pages holding a card that overflowed are laid out again with
    the sizes :func:`~generator.render.card_fit.fit` found, and put in place.

    Raises:
        TowerpressError: the cards do not fit the paper.
        RenderError: a card's text does not fit even at 6 pt (the message names it).
    """
    from generator.render.pdf import render_document

    lay = lay or sheet_layout(opts)  # a paper that cannot hold a card fails here
    box = face_box(opts.size)
    base = base_size(opts.size.width)
    cards = [c for d in decks for c in d.cards]
    fonts = {c.key: base for c in cards}
    document = render_document(cards_html(ruleset, decks, opts, fonts, lay=lay), ruleset.root)
    ratios = overflows(document.pages, box)
    if all(r <= 1.0 for r in ratios.values()):
        return document
    fonts = fit(cards, box, base, ruleset.root, ratios)
    changed = {k for k, v in fonts.items() if v < base}
    redo = [i for i, page in enumerate(_pages(ruleset, decks, lay, fonts))
            if any(s.card is not None and s.card.key in changed for s in page.slots)]
    again = render_document(cards_html(ruleset, decks, opts, fonts, redo, lay), ruleset.root)
    pages = list(document.pages)
    for index, page in zip(redo, again.pages, strict=True):
        pages[index] = page
    return document.copy(pages)


def default_output(ruleset_id: str, deck: str | None, opts: CardOptions) -> Path:
    part = f"-{deck}" if deck else ""
    return Path("build") / f"{ruleset_id}-cards{part}-{opts.paper}-{opts.size.name}.pdf"


def write_cards(ruleset: Ruleset, decks: Sequence[DeckPrint], opts: CardOptions,
                out: Path) -> int:
    """Write the PDF atomically; returns its page count."""
    from generator.render.pdf import pdf_bytes, write_atomic

    document = render_cards(ruleset, decks, opts)
    write_atomic(out, pdf_bytes(document))
    return len(document.pages)
