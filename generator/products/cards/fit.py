"""Fit every card's text inside its card, from the layout itself (design.md section 7).

Each distinct front is laid out once at the base size (:mod:`generator.products.cards.pieces`)
and its overflow read from that layout.  Only the fronts that overflow are laid out again:
at the size their overflow suggests, then one step smaller, then at every smaller size
down to 6 pt, until one fits.  When the size that fits leaves room to spare, one step
larger is tried too, so a card does not keep a size smaller than it needs.  A front laid
out at the size it keeps is the very page the sheets place, so no sheet is ever laid out
twice; the fronts kept and the backs are written once, at the end, so that they share one
subset of each font.  The names on each back are measured too, against their room above
and below the medallion: a deck's name too long for it is laid out again at every smaller
size at once, and the largest that fits is kept.  The cards are split into a fixed number
of shares, each fitted round after round in its own process
(:mod:`generator.render.parallel`); the split never depends on the machine, so the PDF
does not either.  On request, a reference card that fits at no size is cut into parts
(:mod:`generator.products.cards.split`), which are fitted in turn, round after round, each
round's pieces in a PDF (and font subsets) of its own.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from generator.errors import RenderError
from generator.model.decks import Card
from generator.products.cards.columns import row_lines
from generator.products.cards.imposition import CardSize
from generator.products.cards.pieces import (
    MIN_PT,
    ROOM,
    BackJob,
    BackPiece,
    Batch,
    FaceBox,
    FrontJob,
    Measure,
    Overflow,
    back_size,
    base_size,
    face_box,
    lay_out_batch,
    top_size,
    write_pieces,
)
from generator.products.cards.split import Lines, rows_of, split_tables
from generator.render.parallel import available_cpus, run_tasks
from generator.render.pdf import register_fonts
from generator.words import listed

STEP_PT = 0.5
SHARES = 2  # the cards are fitted in two shares side by side (our machines have 2 cores)
MIN_SPLIT = 12  # fewer cards than this are not worth a second process
NOTE_SHARE = 0.78  # a table's note, a share of the card's text (pieces.SMALL_TEXT "note")


def sizes_below(base: float) -> list[float]:
    """Every size tried below ``base``, largest first, down to MIN_PT itself (a base off the
    half-point steps, a back's 7.7 pt, would otherwise stop at 6.2)."""
    count = max(1, math.floor((base - MIN_PT) / STEP_PT + 1e-9))
    steps = {max(MIN_PT, round(base - STEP_PT * i, 2)) for i in range(1, count + 1)}
    return sorted(steps | {MIN_PT} if base > MIN_PT else steps, reverse=True)


def guess(base: float, overflow: Overflow) -> float:
    """The size most likely to be the largest that fits a card overflowing so at ``base``.

    Wrapped text takes an area that grows with the square of the size, so the size that
    fits its height scales with the square root of the overflow; its widest line (a long
    word, a table's columns) grows with the size itself.  Rows that do not wrap shrink only
    in step with the size, so the guess can fall short: it is then followed by one step
    smaller, and a guess that fits with room to spare by one step larger.
    """
    smaller = sizes_below(base)
    wanted = min(base / math.sqrt(max(overflow.height, 1.0)), base / max(overflow.width, 1.0))
    return next((s for s in smaller if s <= wanted + 1e-9), smaller[-1])


def may_fit(overflow: Overflow, size: float, larger: float) -> bool:
    """Whether a face that fits at ``size`` may still fit at ``larger``.

    A face's height grows at least in step with its text size (every line gets taller, and
    none gets shorter), so one that would overflow even so surely does.  Its width tells
    nothing: a face that fits is exactly as wide as its box, whatever the size.
    """
    return overflow.height * larger / size <= 1.0


def weight(card: Card) -> int:
    """A rough cost of laying out a card (table cells cost most), to balance batches."""
    cells = sum((len(t.rows) + 1) * len(t.columns) for t in card.tables)
    return 10 + 3 * len(card.stats) + 4 * len(card.fields) + 2 * cells


def split(cards: Sequence[Card], parts: int) -> list[list[Card]]:
    """``cards`` in ``parts`` shares of about equal cost, the heaviest placed first."""
    order = sorted(range(len(cards)), key=lambda i: (-weight(cards[i]), i))
    shares: list[list[int]] = [[] for _ in range(parts)]
    loads = [0] * parts
    for i in order:
        lightest = loads.index(min(loads))
        shares[lightest].append(i)
        loads[lightest] += weight(cards[i])
    return [[cards[i] for i in sorted(share)] for share in shares if share]


@dataclass(frozen=True)
class Piece:
    """A laid-out page: which batch's PDF, which page of it."""

    batch: int
    page: int


@dataclass
class Pieces:
    """Every front and back laid out, ready to be placed on sheets."""

    pdfs: list[bytes] = field(default_factory=list)
    fronts: dict[str, Piece] = field(default_factory=dict)  # by card key
    sizes: dict[str, float] = field(default_factory=dict)  # the text size each card kept
    backs: dict[BackJob, Piece] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    layouts: int = 0  # how many fronts were laid out, every size counted
    unfit_backs: list[BackJob] = field(default_factory=list)  # too long even at MIN_PT
    # A card that fits at no size, by key: its overflow at the smallest size tried.
    unfit: dict[str, Overflow] = field(default_factory=dict)
    # A reference card that fits at no size, by key: the cards it was cut into instead.
    parts: dict[str, tuple[Card, ...]] = field(default_factory=dict)

    def add(self, other: Pieces) -> None:
        """Take in ``other``'s pieces, its batches numbered after ours."""
        shift = len(self.pdfs)
        self.pdfs.extend(other.pdfs)
        self.fronts.update({k: Piece(p.batch + shift, p.page) for k, p in other.fronts.items()})
        self.sizes.update(other.sizes)
        self.backs.update({k: Piece(p.batch + shift, p.page) for k, p in other.backs.items()})
        self.warnings.extend(other.warnings)
        self.layouts += other.layouts
        self.unfit_backs.extend(other.unfit_backs)
        self.unfit.update(other.unfit)
        self.parts.update(other.parts)


@dataclass(frozen=True)
class _Share:
    cards: tuple[Card, ...]
    backs: tuple[BackJob, ...]
    size: CardSize
    root: Path
    language: str
    caps: dict[str, float] = field(default_factory=dict)  # the largest size of some cards


def _next_sizes(base: float, tried: dict[float, Overflow]) -> list[float]:
    """The sizes to lay a card out at next, from the overflow at each size tried so far."""
    fitting = [size for size, overflow in tried.items() if overflow.ratio <= 1.0]
    if fitting:
        best = max(fitting)
        larger = round(best + STEP_PT, 2)
        if larger in tried or larger > base or not may_fit(tried[best], best, larger):
            return []
        return [larger]
    below = [s for s in sizes_below(base) if s < min(tried)]
    if len(tried) == 1:
        return [guess(base, tried[base])] if below else []
    if len(tried) == 2:
        # Rows of a table go all at once: a guess that misses is most often one step off.
        return below[:1]
    return below


def _back_sizes(base: float, tried: dict[float, Overflow]) -> list[float]:
    """The sizes to lay a back out at next: every smaller one at once, after the base size
    overflowed (a deck's name too long for its back is rare, and a back is cheap)."""
    if len(tried) != 1 or tried[base].ratio <= 1.0:
        return []
    return [size for size in sizes_below(base) if size < base]


def _fit_share(share: _Share) -> Pieces:
    """Lay out a share of the cards, round after round, until each keeps the largest size
    that fits, or none can; then write the fronts kept and the backs into one PDF."""
    tops = {c.key: min(top_size(c, share.size.width), share.caps.get(c.key, math.inf))
            for c in share.cards}
    tried: dict[str, dict[float, Overflow]] = {c.key: {} for c in share.cards}
    kept: dict[str, tuple[float, Measure]] = {}
    shrinking: set[str] = set()  # cards whose headings shrink with their text
    layouts = 0
    back_base = back_size(share.size)
    backs_tried: dict[BackJob, dict[float, Overflow]] = {b: {} for b in share.backs}
    backs_kept: dict[BackJob, tuple[float, Any]] = {}
    batches: list[Batch] = []
    pending = [FrontJob(card, tops[card.key]) for card in share.cards]
    pending_backs = [BackPiece(back, back_base) for back in share.backs]
    while pending or pending_backs:
        batch = lay_out_batch(pending, pending_backs, share.size, share.root, share.language)
        batches.append(batch)
        layouts += len(pending)
        for job, measure in zip(pending, batch.measures, strict=True):
            key = job.card.key
            tried[key][job.font] = measure.overflow
            if measure.overflow.ratio <= 1.0 and (key not in kept or job.font > kept[key][0]):
                kept[key] = (job.font, measure)
        for piece, (page, overflow) in zip(pending_backs, batch.backs, strict=True):
            backs_tried[piece.job][piece.font] = overflow
            best = backs_kept.get(piece.job)
            if overflow.ratio <= 1.0 and (best is None or piece.font > best[0]):
                backs_kept[piece.job] = (piece.font, page)
        pending = []
        for card in share.cards:
            top = tops[card.key]
            sizes = _next_sizes(top, tried[card.key])
            if not sizes and card.key not in kept and card.key not in shrinking:
                # It fits at no size with its headings at the base size: a title word may
                # be too wide for the card.  Its sizes are tried again with the headings
                # shrinking too (at the base size, both ways are one layout; a pictured
                # card's first size is larger, so it is laid out again).
                shrinking.add(card.key)
                again = top == base_size(share.size.width)
                tried[card.key] = {top: tried[card.key][top]} if again else {}
                sizes = _next_sizes(top, tried[card.key]) if again else [top]
            pending += [FrontJob(card, s, card.key in shrinking) for s in sizes]
        pending_backs = [BackPiece(b, s) for b in share.backs
                         for s in _back_sizes(back_base, backs_tried[b])]
    pieces = Pieces(layouts=layouts, unfit_backs=[b for b in share.backs if b not in backs_kept],
                    unfit={key: sizes[min(sizes)] for key, sizes in tried.items()
                           if key not in kept})
    if not batches:
        return pieces
    pieces.warnings = [w for batch in batches for w in batch.warnings]
    order = [card.key for card in share.cards if card.key in kept]
    fitted = [back for back in share.backs if back in backs_kept]
    pdf = write_pieces(batches[0].document, [kept[key][1] for key in order],
                       [backs_kept[back][1] for back in fitted], share.size)
    if pdf:
        pieces.pdfs.append(pdf)
        pieces.fronts = {key: Piece(0, page) for page, key in enumerate(order)}
        pieces.sizes = {key: kept[key][0] for key in order}
        pieces.backs = {back: Piece(0, len(order) + i) for i, back in enumerate(fitted)}
    return pieces


def lay_out(
    cards: Iterable[Card],
    backs: Sequence[BackJob],
    size: CardSize,
    root: Path,
    *,
    language: str = "en",
    workers: int | None = None,
    split: bool = False,
) -> Pieces:
    """Lay out every distinct card at the largest size that fits (at most the base size),
    and every back.  With ``split``, a reference card that fits at no size is cut into as
    many cards as it overflows its own, or more until each fits
    (:func:`~generator.products.cards.split.split_tables`); ``parts`` of the result names them.

    Raises:
        RenderError: a card does not fit even at 6 pt (with ``split``: nor cut into cards
            of one table row each); the message names every such card.  Or the names on a
            deck's back do not fit (it names the deck).
    """
    workers = available_cpus() if workers is None else workers
    unique: dict[str, Card] = {}
    for card in cards:
        unique.setdefault(card.key, card)
    distinct = list(unique.values())
    pieces = _fit(distinct, backs, size, root, language, workers)
    unfit = [card for card in distinct if card.key not in pieces.fronts]
    if split:
        _cut_in_parts(unfit, pieces, size, root, language, workers)
    unfit = [card for card in unfit if card.key not in pieces.parts]
    if unfit:
        fitting = [d for d in dict.fromkeys(c.deck for c in distinct)
                   if d not in {c.deck for c in unfit}]
        # Cutting a card in parts helps a card too long; one too wide only may not.
        splittable = not split and any(rows_of(card) >= 2 and pieces.unfit[card.key].height > 1
                                       for card in unfit)
        raise RenderError(too_long(unfit, face_box(size), fitting, splittable, split))
    if pieces.unfit_backs:
        raise RenderError(back_too_long(pieces.unfit_backs, size))
    return pieces


def _cut_in_parts(cards: Sequence[Card], pieces: Pieces, size: CardSize, root: Path,
                  language: str, workers: int) -> None:
    """Cut each of ``cards``, which fit at no size, into parts that fit, if it can; the
    parts go into ``pieces`` (``parts`` names them).

    A card is cut into as many parts as its text overflows it, and then, while a part
    still overflows, into as many more as the worst of them does.  A table too wide may
    fit in parts (fewer rows, fewer long words to widen its columns, and the heads of a
    part may break); a card whose parts are no narrower than its last try is given up.
    """
    tall = ROOM * size.height / face_box(size).height  # a face that ran off the page
    # Each card's last try: itself at first.
    last: dict[str, tuple[Card, ...]] = {card.key: (card,) for card in cards}
    before: dict[str, float] = {}  # how far the widest face of the try before it overflowed
    while True:
        tries: dict[str, tuple[Card, ...]] = {}
        for card in cards:
            tried = last[card.key]
            failed = [pieces.unfit[p.key] for p in tried if p.key not in pieces.fronts]
            if not failed:
                continue  # it fits in parts, or on the first try
            count = min(rows_of(card), max(len(tried) + 1, math.ceil(
                len(tried) * max(min(o.height, tall) for o in failed))))
            wide = max(o.width for o in failed)
            narrower = card.key not in before or wide <= 1.0 or wide < before[card.key] - 1e-6
            if count > len(tried) and narrower:
                tries[card.key] = split_tables(card, count, *_part_lines(card, size))
                before[card.key] = wide
        if not tries:
            return
        pieces.add(_fit([p for ps in tries.values() for p in ps], (), size, root, language,
                        workers))
        last.update(tries)
        done = {key: ps for key, ps in tries.items() if all(p.key in pieces.fronts for p in ps)}
        _one_size(done, pieces, size, root, language, workers)
        pieces.parts.update(done)


def _part_lines(card: Card, size: CardSize) -> tuple[Lines | None, int]:
    """How to tell the lines of ``card``'s tables cut in parts, and about how many
    characters a line of its notes holds: at the largest size its parts' columns fit."""
    box = face_box(size)
    for font in [base_size(size.width), *sizes_below(base_size(size.width))]:
        if all(row_lines(t, font, box.width) is not None for t in card.tables):
            chars = int(box.width * 72 / 25.4 / (font * NOTE_SHARE * 0.5))
            return partial(row_lines, font=font, width_mm=box.width), chars
    return None, 40


def _one_size(done: dict[str, tuple[Card, ...]], pieces: Pieces, size: CardSize, root: Path,
              language: str, workers: int) -> None:
    """Lay out again, at the smallest size of their card's parts, the parts that kept a
    larger one: the parts of a card then share one text size, and so one set of column
    widths (worked out for that size)."""
    again: list[Card] = []
    caps: dict[str, float] = {}
    for parts in done.values():
        least = min(pieces.sizes[p.key] for p in parts)
        for p in parts:
            if pieces.sizes[p.key] > least:
                again.append(p)
                caps[p.key] = least
    if again:
        pieces.add(_fit(again, (), size, root, language, workers, caps))


def _fit(cards: Sequence[Card], backs: Sequence[BackJob], size: CardSize, root: Path,
         language: str, workers: int, caps: dict[str, float] | None = None) -> Pieces:
    """Each of ``cards`` and ``backs`` laid out at the largest size that fits, if any; a
    card in ``caps`` at no larger size than its cap."""
    parts = split(cards, SHARES if len(cards) >= MIN_SPLIT else 1) or [[]]
    caps = caps or {}
    shares = [_Share(tuple(part), tuple(backs) if i == 0 else (), size, root, language,
                     {c.key: caps[c.key] for c in part if c.key in caps})
              for i, part in enumerate(parts)]
    pieces = Pieces()
    for share in run_tasks(_fit_share, shares, workers, before_fork=register_fonts):
        pieces.add(share)
    return pieces


NAMED = 10  # cards named in the error; more are counted


def too_long(cards: Sequence[Card], box: FaceBox, fitting: Sequence[str],
             splittable: bool = False, in_parts: bool = False) -> str:
    """One line naming the cards whose text does not fit ``box`` even at MIN_PT, and what
    to do: ``fitting`` are the decks of the print that fit whole; ``splittable``, whether
    one of the cards may fit cut in parts (``--split-tables``); ``in_parts``, whether
    that was tried."""
    names = ", ".join(f"{c.title!r} of deck {c.deck!r}" for c in cards[:NAMED])
    if len(cards) > NAMED:
        names += f" and {len(cards) - NAMED} more"
    what = (f"card {names} overflows its" if len(cards) == 1
            else f"{len(cards)} cards overflow their")
    named = "" if len(cards) == 1 else f": {names}"
    fixes = ["shorten the text", "use a larger card size"]
    if splittable:
        fixes.append("print long tables in parts (--split-tables)")
    if fitting:
        decks = [f"--deck {d}" for d in fitting]
        fixes.append(f"print a deck that fits ({listed(decks, 'or')})")
    tried = " or in parts" if in_parts else ""
    return (f"{what} {box.width:.1f} x {box.height:.1f} mm text box even at {MIN_PT:g} pt"
            f"{tried}{named}; {listed(fixes, 'or')}")


def back_too_long(backs: Sequence[BackJob], size: CardSize) -> str:
    """One line naming the decks whose names do not fit their back even at MIN_PT."""
    decks = list(dict.fromkeys(b.deck for b in backs))
    which = f"deck {decks[0]!r}" if len(decks) == 1 else f"decks {', '.join(map(repr, decks))}"
    return (f"the names on the back of {which} (and the ruleset's, {backs[0].ruleset!r}) do "
            f"not fit a {size.width:g} x {size.height:g} mm card even at {MIN_PT:g} pt; "
            "shorten the deck's title (decks/*.toml) or the ruleset's (ruleset.toml), or use "
            "a larger card size")
