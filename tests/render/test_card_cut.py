"""Fronts laid out together on one tall page and cut apart draw exactly as if laid out alone."""

from __future__ import annotations

import io
from dataclasses import replace

import pypdf
import pytest

from generator.model.loader import load_content
from generator.render.card_fit import base_size
from generator.render.card_pieces import PX_PER_MM, ROOM, FrontJob, render_batch
from generator.render.imposition import card_size

PT_PER_PX = 0.75


def _pages(pdf: bytes) -> list[tuple[bytes, float, float]]:
    """Each page's content stream and size in pt."""
    found = []
    for page in pypdf.PdfReader(io.BytesIO(pdf)).pages:
        stream = page.get_contents()
        assert stream is not None
        found.append((stream.get_data(), float(page.mediabox.width), float(page.mediabox.height)))
    return found


@pytest.mark.parametrize("ruleset_id", ["inverted-tower", "three-dice-dungeon"])
def test_a_cut_front_draws_as_one_laid_out_alone(ruleset_id: str) -> None:
    """Reference cards (tables with shaded rows) and monster cards (stats, floated dice):
    each front of a batch is drawn, backgrounds included, exactly as in a batch of its own."""
    content = load_content()
    ruleset = content.ruleset(ruleset_id)
    cards = [c for d in ruleset.decks.values() for c in d.cards(ruleset.data, ruleset.profile())]
    picked = [c for c in cards if c.tables][:2] + [c for c in cards if c.stats][:1]
    assert len(picked) >= 2
    size = card_size("poker")
    font = base_size(size.width) - 3  # small enough that every one fits and is written
    jobs = [FrontJob(card, font) for card in picked]
    together = render_batch(jobs, [], size, ruleset.root)
    assert None not in together.pages
    pages = _pages(together.pdf)
    assert len(pages) == len(jobs)
    for job, page in zip(jobs, together.pages, strict=True):
        assert page is not None
        alone = render_batch([job], [], size, ruleset.root)
        assert _pages(alone.pdf) == [pages[page]], job.card.title
        _, width, height = pages[page]
        assert width == pytest.approx(size.width * PX_PER_MM * PT_PER_PX, abs=0.01)
        assert height == pytest.approx(size.height * ROOM * PX_PER_MM * PT_PER_PX, abs=0.01)


def test_a_front_below_a_long_one_is_measured_on_its_own() -> None:
    """A front that overflows by far does not change what the next one measures."""
    content = load_content()
    ruleset = content.ruleset("tower-of-choices")
    cards = [c for d in ruleset.decks.values() for c in d.cards(ruleset.data, ruleset.profile())]
    short, long_ = cards[0], cards[1]
    size = card_size("poker")
    font = base_size(size.width)
    longer = replace(long_, fields=tuple((label, " ".join([text] * 12))
                                         for label, text in long_.fields))
    together = render_batch([FrontJob(longer, font), FrontJob(short, font)], [], size,
                            ruleset.root)
    alone = render_batch([FrontJob(short, font)], [], size, ruleset.root)
    assert together.overflows[0].ratio > 1.0
    # Laid out lower on the page, its height may differ in the last bit of a float.
    assert together.overflows[1].height == pytest.approx(alone.overflows[0].height, rel=1e-9)
    assert together.overflows[1].width == pytest.approx(alone.overflows[0].width, rel=1e-9)
    assert together.pages == (None, 0)
    assert _pages(together.pdf) == _pages(alone.pdf)
