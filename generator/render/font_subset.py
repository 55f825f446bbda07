"""Font subsetting: by fontTools on every machine, dropping tables before it reads them.

Writing a PDF, WeasyPrint keeps only the glyphs each font draws: with HarfBuzz's subsetter
where libharfbuzz-subset is installed, else with fontTools.  The two make different font
programs, so a PDF's bytes would depend on a system library: :func:`subset_with_fonttools`
has WeasyPrint 70 use fontTools everywhere (WeasyPrint means to require HarfBuzz's one
day; raising its pin means looking at this again).

WeasyPrint tells fontTools to drop the GSUB and GPOS tables.  fontTools 4.68 first rewrites
every layout table in memory (``beyond64k``), which decompiles those two in full, then
drops them: Source Serif Pro's and Source Sans Pro's kerning made that most of the time of
writing a PDF (0.15-0.2 s for each face of each PDF; a card sheet's share of cards writes
four faces).  So fontTools is made to drop, before anything else, the tables its own first
step (``Subsetter._prune_pre_subset``) would drop, on the same terms: the subset font is
the same, byte for byte, for any font fontTools can read (tests/render/test_font_subset.py
checks every face of the project, under the fontTools installed).  A font whose dropped
tables fontTools cannot read is now subset where it made fontTools fail before.
"""

from __future__ import annotations

from typing import Any

from fontTools import subset
from fontTools.ttLib import TTFont

_ORIGINAL = subset.Subsetter.subset


def dropped(options: subset.Options, font: TTFont) -> list[str]:
    """The tables of ``font`` that a subsetter with ``options`` drops whatever they hold.

    The terms are fontTools' own, read on the font as it comes: a legacy ``kern`` table
    goes where GPOS is present, and fontTools weighs ``kern`` before it drops GPOS.
    """
    hinting = () if options.hinting else options.hinting_tables
    return [tag for tag in font.keys()  # noqa: SIM118 (a TTFont cannot be iterated)
            if tag != "GlyphOrder" and (
                tag.strip() in options.drop_tables or tag.strip() in hinting
                or (tag == "kern" and not options.legacy_kern and "GPOS" in font))]


def _subset_dropping_first(self: subset.Subsetter, font: TTFont) -> Any:
    for tag in dropped(self.options, font):
        del font[tag]
    return _ORIGINAL(self, font)


def subset_with_fonttools() -> None:
    """Make WeasyPrint subset fonts with fontTools, and every fontTools subsetter in this
    process drop tables before reading them."""
    from weasyprint.pdf import fonts

    fonts.harfbuzz_subset = None  # read at each subset (Font.subset), so this is enough
    if subset.Subsetter.subset is not _subset_dropping_first:
        setattr(subset.Subsetter, "subset", _subset_dropping_first)  # noqa: B010
