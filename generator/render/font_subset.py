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
step would drop, on the same terms: the subset font is the same, byte for byte, for any
font fontTools can read (tests/render/test_font_subset.py checks every face of the project,
under the fontTools installed).  A font whose dropped tables fontTools cannot read is now
subset where it made fontTools fail before.

Both rest on the internals of WeasyPrint and fontTools: weasyprint_internals.py and
fonttools_internals.py.
"""

from __future__ import annotations

from generator.render import fonttools_internals, weasyprint_internals


def subset_with_fonttools() -> None:
    """Make WeasyPrint subset fonts with fontTools, and every fontTools subsetter in this
    process drop tables before reading them."""
    weasyprint_internals.subset_fonts_with_fonttools()
    fonttools_internals.drop_tables_first()
