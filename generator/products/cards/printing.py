"""Card decks as print-and-play PDF sheets: fronts, backs behind them, crop marks.

The cards come from the model (:mod:`generator.model.decks`); the geometry from
:mod:`generator.products.cards.imposition`; each distinct front and back is laid out once, its text
fitted (:mod:`generator.products.cards.fit`), and the sheets place those pages
(:mod:`generator.products.cards.compose`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from generator import __version__
from generator.errors import TowerpressError
from generator.model.common import Profile
from generator.model.decks import Card, Deck
from generator.model.loader import Ruleset
from generator.model.paper import PAPERS
from generator.products.cards.back import FRAME_INSET
from generator.products.cards.compose import Bar, Info, Inline, Placed, Sheet, compose
from generator.products.cards.fit import Piece, Pieces, lay_out
from generator.products.cards.imposition import (
    SIZES,
    CardSize,
    Duplex,
    ImpositionError,
    Layout,
    Placement,
    layout,
    sheet_marks,
    sheets,
)
from generator.products.cards.notes import BAR, LINE, SheetNotes, notes_pdf, sheet_notes
from generator.products.cards.pieces import BackJob
from generator.render.output import write_atomic


@dataclass(frozen=True)
class CardOptions:
    paper: str = "a4"
    size: CardSize = field(default_factory=lambda: CardSize("poker", *SIZES["poker"]))
    bleed: float = 0.0
    gutter: float = 0.0
    duplex: Duplex = "long"
    back_offset: tuple[float, float] = (0.0, 0.0)
    fold: bool = False
    split_tables: bool = False  # a reference card that fits at no size: print it in parts


@dataclass(frozen=True)
class DeckPrint:
    """The cards of one deck, as they will be printed."""

    id: str
    title: str
    back_title: str  # the name on the back: this deck's, or the deck it is shuffled into
    pips: int  # how many pips (or cards) its back shows: its place among the backs
    cards: tuple[Card, ...]
    motif: str = "dice"  # what its back shows (the deck file's back_motif)


def select_decks(
    ruleset: Ruleset, deck_id: str | None, profile: Profile | None,
    cards: Callable[[Deck], Sequence[Card]] | None = None,
) -> list[DeckPrint]:
    """The decks to print: one by id, or every deck of the ruleset; each with ``cards``
    (default: the cards its file lists, one of each entity times its copies).

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
    def listed(deck: Deck) -> Sequence[Card]:
        return ruleset.cards(deck, profile)

    return [deck_print(ruleset, d, (cards or listed)(d)) for d in chosen]


def deck_print(ruleset: Ruleset, deck: Deck, cards: Sequence[Card], id: str = "") -> DeckPrint:
    """The deck as printed, with the back of the deck it shares its back with; the decks
    with backs of their own are told apart by one, two, three... pips or cards."""
    order = list(dict.fromkeys(d.back for d in ruleset.decks.values()))  # each back once
    back = ruleset.decks.get(deck.back, deck)
    return DeckPrint(id or deck.id, deck.title, back.title, order.index(back.id) % 6 + 1,
                     tuple(cards), back.back_motif)


def _back_job(ruleset: Ruleset, deck: DeckPrint, p: Placement) -> BackJob:
    return BackJob(ruleset.title, deck.back_title, deck.pips, p.bleed, deck.motif)


def _front(p: Placement, piece: Piece) -> Placed:
    # Fronts are white out to the bleed; the piece is the trim, inside its frame.
    return Placed(piece, p.x, p.y, p.w, p.h, p.outer, frame=FRAME_INSET)


def _back(p: Placement, piece: Piece) -> Placed:
    # A back's art runs into its bleed: the piece is the whole bleed box.
    x0, y0, x1, y1 = p.outer
    return Placed(piece, x0, y0, x1 - x0, y1 - y0, p.outer)


def _notes(notes: SheetNotes | None, batch: int) -> tuple[tuple[Bar, ...], tuple[Inline, ...]]:
    """The scale bar and the lines of text a sheet of fronts carries beside its cards,
    their text on the pages of PDF ``batch``."""
    if notes is None:
        return (), ()
    bar = notes.bar
    bars = () if bar is None else (Bar(bar.x, bar.y + (LINE - BAR) / 2, notes.scale.length,
                                       BAR, notes.scale.parts) if not bar.turned else
                                   Bar(bar.x + (LINE - BAR) / 2, bar.y, notes.scale.length,
                                       BAR, notes.scale.parts, turned=True),)
    texts = tuple(Inline(Piece(batch, i), spot.x, spot.y, note.width, note.height, spot.turned)
                  for i, (note, spot) in enumerate(notes.texts))
    return bars, texts


def sheets_of(
    ruleset: Ruleset, decks: Sequence[DeckPrint], lay: Layout, pieces: Pieces,
    notes: SheetNotes | None = None,
) -> list[Sheet]:
    """Every page: each sheet of fronts, then (duplex) its backs, mirrored slot for slot.

    The decks follow one another on the sheets, each back behind its own card: a deck of
    ten poker cards no longer takes a sheet of its own for its tenth card.  Each sheet of
    fronts carries ``notes`` (its text the last PDF's pages, after the pieces').
    """
    bars, texts = _notes(notes, len(pieces.pdfs))
    slots = [(deck, card) for deck in decks for card in deck.cards]
    out: list[Sheet] = []
    for number, indexes in enumerate(sheets(len(slots), lay.per_sheet), start=1):
        placed = [slots[i] for i in indexes]
        # The outline names each deck on the sheet where its first card is.
        starts = tuple(slots[i][0].title for i in indexes
                       if i == 0 or slots[i - 1][0] is not slots[i][0])
        fronts = [_front(lay.fronts[slot], pieces.fronts[card.key])
                  for slot, (_, card) in enumerate(placed)]
        backs = ([_back(p, pieces.backs[_back_job(ruleset, deck, p)])
                 for p, (deck, _) in zip(lay.backs, placed, strict=False)]
                 if lay.with_backs else [])
        marks = sheet_marks(lay, len(indexes))
        if lay.fold:
            out.append(Sheet(lay.page_w, lay.page_h, tuple(fronts + backs), marks, starts,
                             bars, texts, f"Sheet {number}"))
            continue
        out.append(Sheet(lay.page_w, lay.page_h, tuple(fronts), marks, starts, bars, texts,
                         f"Sheet {number} fronts" if backs else f"Sheet {number}"))
        if backs:
            out.append(Sheet(lay.page_w, lay.page_h, tuple(backs),
                             label=f"Sheet {number} backs"))
    return out


def sheet_summary(lay: Layout) -> str:
    """"9 a sheet, A4 portrait": what the output and the PDF's subject say of the sheets."""
    return f"{lay.per_sheet} a sheet, {PAPERS[lay.paper].id.capitalize()} {lay.orientation}"


def _info(ruleset: Ruleset, decks: Sequence[DeckPrint], lay: Layout) -> Info:
    names = ", ".join(d.title for d in decks)
    size = lay.size
    return Info(
        title=f"{ruleset.title}: {names}",
        author=", ".join(dict.fromkeys(c.author for c in ruleset.info.credits)),
        subject=(f"{ruleset.title} cards: {names}. {size.name} "
                 f"{size.width:g} x {size.height:g} mm on {lay.paper} {lay.orientation}, "
                 f"{lay.per_sheet} a sheet."),
        language=ruleset.info.language,
        creator=f"TowerPress {__version__}",
    )


@dataclass(frozen=True)
class PrintedCards:
    pdf: bytes
    pages: int
    warnings: tuple[str, ...]  # WeasyPrint's, from every layout
    pieces: Pieces
    decks: tuple[DeckPrint, ...]  # as printed: a card cut to fit is its parts here
    layout: Layout

    @property
    def count(self) -> int:
        return sum(len(deck.cards) for deck in self.decks)


def with_parts(deck: DeckPrint, parts: Mapping[str, Sequence[Card]]) -> DeckPrint:
    """``deck`` with each card that was cut to fit replaced by its parts, in order."""
    cards = [part for card in deck.cards for part in parts.get(card.key, (card,))]
    return replace(deck, cards=tuple(cards))


def sheet_layout(opts: CardOptions) -> Layout:
    """Raises TowerpressError when the cards do not fit the paper."""
    try:
        return layout(opts.paper, opts.size, bleed=opts.bleed, gutter=opts.gutter,
                      duplex=opts.duplex, back_offset=opts.back_offset, fold=opts.fold)
    except ImpositionError as exc:
        raise TowerpressError(str(exc)) from None


def render_cards(
    ruleset: Ruleset, decks: Sequence[DeckPrint], opts: CardOptions, lay: Layout | None = None,
    workers: int | None = None, notes: bool = True,
) -> PrintedCards:
    """Impose, lay out, fit, and put the sheets together.

    Every distinct front is laid out once, at the largest text size that fits
    (:func:`~generator.products.cards.fit.lay_out`), and every distinct back once; the sheets
    place those pages, each sheet of fronts with a scale bar and how to print it beside
    its cards (unless not ``notes``).  ``workers`` caps the processes (default: one per CPU).

    Raises:
        TowerpressError: the cards do not fit the paper.
        RenderError: a card's text does not fit even at 6 pt (the message names it).
    """
    lay = lay or sheet_layout(opts)  # a paper that cannot hold a card fails here
    backs = dict.fromkeys(_back_job(ruleset, d, p) for d in decks if d.cards
                          for p in lay.backs if lay.with_backs)
    cards = [c for d in decks for c in d.cards]
    pieces = lay_out(cards, list(backs), opts.size, ruleset.root,
                     language=ruleset.info.language, workers=workers, split=opts.split_tables)
    printed = tuple(with_parts(deck, pieces.parts) for deck in decks)
    beside = sheet_notes(lay) if notes else None
    pdfs = list(pieces.pdfs)
    if beside is not None:
        pdfs.append(notes_pdf([note for note, _ in beside.texts]))
    pages = sheets_of(ruleset, printed, lay, pieces, beside)
    pdf = compose(pdfs, pages, _info(ruleset, decks, lay))
    warnings = tuple(dict.fromkeys(pieces.warnings))  # a card cut in parts is laid out again
    return PrintedCards(pdf, len(pages), warnings, pieces, printed, lay)


def write_cards(ruleset: Ruleset, decks: Sequence[DeckPrint], opts: CardOptions,
                out: Path, workers: int | None = None) -> PrintedCards:
    """Write the PDF atomically."""

    printed = render_cards(ruleset, decks, opts, workers=workers)
    write_atomic(out, printed.pdf)
    return printed
