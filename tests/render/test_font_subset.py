"""Dropping tables first gives the very subset fontTools gives on its own, only sooner."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fontTools import subset
from fontTools.ttLib import TTFont, newTable
from fontTools.ttLib.tables._k_e_r_n import KernTable_format_0
from pypdf import PdfReader

from generator.render import fonttools_internals
from generator.render.fonts import SERIF, faces, font_face_css


def _options(*, legacy_kern: bool = False) -> subset.Options:
    # As WeasyPrint 70 asks for them (weasyprint/pdf/fonts.py, Font._fonttools_subset).
    options = subset.Options(retain_gids=True, passthrough_tables=True,
                             ignore_missing_glyphs=True, hinting=False, desubroutinize=True,
                             notdef_outline=False, legacy_kern=legacy_kern)
    options.drop_tables += ["GSUB", "GPOS", "SVG"]
    return options


def _subset(data: bytes, options: subset.Options, gids: set[int], *, first: bool) -> bytes:
    subsetter = subset.Subsetter(options)
    subsetter.populate(gids=gids)
    font = TTFont(io.BytesIO(data))
    if first:
        fonttools_internals._subset_dropping_first(subsetter, font)
    else:
        fonttools_internals._ORIGINAL(subsetter, font)
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


@pytest.fixture(autouse=True)
def _reproducible(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    # Without it fontTools stamps each subset with the time it was made.
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    yield


GIDS = set(range(1, 140)) | {300, 301, 640}


@pytest.mark.parametrize("face", faces(), ids=lambda f: f.file.name)
def test_every_face_subsets_to_the_same_bytes(face: object) -> None:
    path: Path = face.file  # type: ignore[attr-defined]
    data = path.read_bytes()
    assert "GPOS" in TTFont(io.BytesIO(data))  # else this test would prove nothing
    assert _subset(data, _options(), GIDS, first=True) == _subset(
        data, _options(), GIDS, first=False)


def _with_kern() -> bytes:
    """A project face given a legacy kern table beside its GPOS."""
    font = TTFont(faces()[0].file)
    table = KernTable_format_0()
    table.version, table.coverage, table.format = 0, 1, 0
    table.kernTable = {("A", "V"): -80, ("V", "A"): -80}
    kern = newTable("kern")
    kern.version, kern.kernTables = 0, [table]
    font["kern"] = kern
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


@pytest.mark.parametrize("legacy_kern", [False, True])
def test_a_kern_table_is_weighed_before_gpos_goes(legacy_kern: bool) -> None:
    data = _with_kern()
    options = _options(legacy_kern=legacy_kern)
    ours = _subset(data, options, GIDS, first=True)
    assert ours == _subset(data, options, GIDS, first=False)
    assert ("kern" in TTFont(io.BytesIO(ours))) is legacy_kern


def test_the_dropped_tables_are_never_read(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[set[str]] = []

    def original(self: subset.Subsetter, font: TTFont) -> None:
        seen.append(set(font.keys()))

    monkeypatch.setattr(fonttools_internals, "_ORIGINAL", original)
    subsetter = subset.Subsetter(_options())
    fonttools_internals._subset_dropping_first(subsetter, TTFont(faces()[0].file))
    assert seen and not seen[0] & {"GSUB", "GPOS", "DSIG"}
    assert {"GDEF", "glyf", "cmap"} <= seen[0]


def _one_page() -> bytes:
    from generator.render.pdf import render_document, write_checked

    page = f"<style>{font_face_css()} p {{ font-family: {SERIF}; }}</style><p>A</p>"
    return write_checked(render_document(page, Path.cwd()))


def test_writing_a_pdf_drops_first() -> None:
    pdf = PdfReader(io.BytesIO(_one_page()))
    assert subset.Subsetter.subset is fonttools_internals._subset_dropping_first
    resources: Any = pdf.pages[0]["/Resources"]
    (font,) = resources["/Font"].values()
    descendant = font.get_object()["/DescendantFonts"][0].get_object()
    program = descendant["/FontDescriptor"].get_object()["/FontFile2"].get_object()
    embedded = TTFont(io.BytesIO(program.get_data()))
    assert "glyf" in embedded and "GPOS" not in embedded


def test_harfbuzz_subset_installed_or_not_the_bytes_are_the_same(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from weasyprint.pdf import fonts

    without = _one_page()
    # As on a machine with libharfbuzz-subset: WeasyPrint would call this library.
    monkeypatch.setattr(fonts, "harfbuzz_subset", object())
    assert _one_page() == without
