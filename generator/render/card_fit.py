"""Fit every card's text inside its card, from the layout itself (design.md section 7).

Each distinct front is laid out once at the base size (:mod:`generator.render.card_pieces`)
and its overflow read from that layout.  Only the fronts that overflow are laid out again:
at the size their overflow suggests, then one step smaller, then at every smaller size
down to 6 pt, until one fits.  A front laid out at the size it keeps is the very page the
sheets place, so no sheet is ever laid out twice.  The layouts of a round are split into
a fixed number of batches that run side by side (:mod:`generator.render.parallel`); the
split never depends on the machine, so the PDF does not either.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from generator.errors import RenderError
from generator.model.decks import Card
from generator.render.card_pieces import BackJob, Batch, FrontJob, face_box, render_batch
from generator.render.imposition import CardSize
from generator.render.parallel import available_cpus, run_tasks
from generator.render.pdf import register_fonts

MIN_PT = 6.0
STEP_PT = 0.5
BATCHES = 2  # layouts of one round are split in two (the machines we target have 2 cores)
MIN_SPLIT = 12  # fewer layouts than this are not worth a second process


def base_size(card_width: float) -> float:
    """The text size of a card of this width before any shrinking, in pt."""
    size = 10.0 * card_width / 63.5
    return max(7.0, min(11.0, round(size * 4) / 4))


def sizes_below(base: float) -> list[float]:
    """Every size tried below ``base``, largest first, down to MIN_PT."""
    count = max(1, math.floor((base - MIN_PT) / STEP_PT + 1e-9))
    return sorted({max(MIN_PT, round(base - STEP_PT * i, 2)) for i in range(1, count + 1)},
                  reverse=True)


def guess(base: float, ratio: float) -> float:
    """The size most likely to be the largest that fits a card overflowing by ``ratio``.

    Wrapped text takes an area that grows with the square of the size, so the size that
    fits scales at most with the square root of the overflow (tables shrink faster, so
    this errs on the side of fitting).
    """
    smaller = sizes_below(base)
    wanted = base / math.sqrt(max(ratio, 1.0))
    return next((s for s in smaller if s <= wanted + 1e-9), smaller[-1])


def weight(card: Card) -> int:
    """A rough cost of laying out a card (table cells cost most), to balance batches."""
    cells = sum((len(t.rows) + 1) * len(t.columns) for t in card.tables)
    return 10 + 3 * len(card.stats) + 4 * len(card.fields) + 2 * cells


def split(jobs: Sequence[FrontJob], parts: int) -> list[list[FrontJob]]:
    """``jobs`` in ``parts`` batches of about equal cost, the heaviest placed first.

    All the sizes of one card stay in one batch, which keeps the largest that fits.
    """
    groups: dict[str, list[FrontJob]] = {}
    for job in jobs:
        groups.setdefault(job.card.key, []).append(job)
    order = sorted(groups.values(), key=lambda g: -weight(g[0].card) * len(g))
    batches: list[list[FrontJob]] = [[] for _ in range(parts)]
    loads = [0] * parts
    for group in order:
        lightest = loads.index(min(loads))
        batches[lightest].extend(group)
        loads[lightest] += weight(group[0].card) * len(group)
    return [b for b in batches if b]


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


@dataclass(frozen=True)
class _Task:
    fronts: tuple[FrontJob, ...]
    backs: tuple[BackJob, ...]
    size: CardSize
    root: Path
    language: str


def _run(task: _Task) -> Batch:
    return render_batch(task.fronts, task.backs, task.size, task.root, task.language)


def lay_out(
    cards: Iterable[Card],
    backs: Sequence[BackJob],
    size: CardSize,
    root: Path,
    *,
    language: str = "en",
    workers: int | None = None,
) -> Pieces:
    """Lay out every distinct card at the largest size that fits (at most the base size),
    and every back.

    Raises:
        RenderError: a card does not fit even at 6 pt; the message names it.
    """
    workers = available_cpus() if workers is None else workers
    base = base_size(size.width)
    unique: dict[str, Card] = {}
    for card in cards:
        unique.setdefault(card.key, card)
    pieces = Pieces()
    tried: dict[str, set[float]] = {key: set() for key in unique}
    pending = [FrontJob(card, base) for card in unique.values()]
    ratios: dict[str, float] = {}
    extra_backs = tuple(backs)
    for round_number in range(4):
        if not pending and not extra_backs:
            break
        parts = BATCHES if len(pending) >= MIN_SPLIT else 1
        batches = split(pending, parts) or [[]]
        tasks = [_Task(tuple(b), extra_backs if i == 0 else (), size, root, language)
                 for i, b in enumerate(batches)]
        results = run_tasks(_run, tasks, workers, before_fork=register_fonts)
        for task, result in zip(tasks, results, strict=True):
            number = len(pieces.pdfs)
            pieces.pdfs.append(result.pdf)
            pieces.warnings.extend(result.warnings)
            pieces.layouts += len(task.fronts)
            for job, ratio, page in zip(task.fronts, result.ratios, result.pages, strict=True):
                tried[job.card.key].add(job.font)
                if round_number == 0:
                    ratios[job.card.key] = ratio
                if page is not None:
                    pieces.fronts[job.card.key] = Piece(number, page)
                    pieces.sizes[job.card.key] = job.font
            for back, page in zip(task.backs, result.back_pages, strict=True):
                pieces.backs[back] = Piece(number, page)
        extra_backs = ()
        over = [c for k, c in unique.items() if k not in pieces.fronts]
        if round_number == 0:
            pending = [FrontJob(c, guess(base, ratios[c.key])) for c in over]
        elif round_number == 1:
            # Rows of a table go all at once: a guess that misses is most often one step off.
            pending = [FrontJob(c, s) for c in over
                       for s in [s for s in sizes_below(base) if s < min(tried[c.key])][:1]]
        else:
            pending = [FrontJob(c, s) for c in over for s in sizes_below(base)
                       if s not in tried[c.key]]
    for key, card in unique.items():
        if key not in pieces.fronts:
            box = face_box(size)
            raise RenderError(
                f"card {card.title!r} of deck {card.deck!r} overflows its "
                f"{box.width:.1f} x {box.height:.1f} mm text box even at {MIN_PT:g} pt; "
                "shorten its text or use a larger card size"
            )
    return pieces
