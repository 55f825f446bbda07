"""The internals of fontTools that generator/render/fonttools_internals.py relies on are
still there, and still work as it expects."""

from __future__ import annotations

import io
import logging

import pytest
from fontTools import subset
from fontTools.ttLib import TTFont, newTable
from fontTools.ttLib.tables._k_e_r_n import KernTable_format_0

from generator.render import fonttools_internals
from generator.render.fonts import faces
from generator.render.fonttools_internals import dropped
from tests.pins import assert_pinned


def test_fonttools_is_the_version_the_adapter_was_read_on() -> None:
    assert_pinned("fonttools", "generator/render/fonttools_internals.py")


def test_subset_prunes_before_anything_else(monkeypatch: pytest.MonkeyPatch) -> None:
    """The step whose drops the adapter makes first is fontTools' own first step."""
    steps: list[str] = []
    order = ["_prune_pre_subset", "_closure_glyphs", "_subset_glyphs", "_prune_post_subset"]
    for step in order:
        monkeypatch.setattr(subset.Subsetter, step,
                            lambda self, font, step=step: steps.append(step))
    fonttools_internals._ORIGINAL(subset.Subsetter(), TTFont())
    assert steps == order


@pytest.fixture(scope="module")
def font_data() -> bytes:
    """A hinted project face given a legacy kern table beside its GPOS."""
    font = TTFont(next(f.file for f in faces() if f.file.name.startswith("SourceSansPro")))
    table = KernTable_format_0()
    table.version, table.coverage, table.format = 0, 1, 0
    table.kernTable = {("A", "V"): -80}
    font["kern"] = newTable("kern")
    font["kern"].version, font["kern"].kernTables = 0, [table]
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


@pytest.mark.parametrize(("hinting", "legacy_kern"), [(False, False), (True, True)])
def test_prune_pre_subset_drops_the_tables_the_adapter_names(
    font_data: bytes, hinting: bool, legacy_kern: bool, caplog: pytest.LogCaptureFixture,
) -> None:
    """Each of the terms of ``dropped`` is fontTools' own: ``_prune_pre_subset`` drops
    ("TAG dropped") the very tables it names, and no other whatever it holds."""
    options = subset.Options(hinting=hinting, legacy_kern=legacy_kern)
    options.drop_tables += ["GSUB", "GPOS"]
    expected = dropped(options, TTFont(io.BytesIO(font_data)))
    assert {"GSUB", "GPOS", "DSIG"} <= set(expected)
    assert ("kern" in expected, "prep" in expected) == (not legacy_kern, not hinting)
    with caplog.at_level(logging.INFO, logger="fontTools.subset"):
        subset.Subsetter(options)._prune_pre_subset(TTFont(io.BytesIO(font_data)))
    said = [r.getMessage().removesuffix(" dropped") for r in caplog.records
            if r.getMessage().endswith(" dropped") and "pruned" not in r.getMessage()]
    assert sorted(said) == sorted(expected)


def test_the_patch_replaces_subset_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(subset.Subsetter, "subset", fonttools_internals._ORIGINAL)
    fonttools_internals.drop_tables_first()
    fonttools_internals.drop_tables_first()
    assert subset.Subsetter.subset is fonttools_internals._subset_dropping_first
    assert fonttools_internals._ORIGINAL.__qualname__ == "Subsetter.subset"
