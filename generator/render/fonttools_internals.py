"""Every use of fontTools' internals, in one place.

Read on fonttools 4.68.0 (constraints.txt); tests/render/test_fonttools_internals.py fails
as soon as another version is installed.  Raise the pin on purpose, after reading each of
these again in the new version:

- ``Subsetter.subset`` starts with ``Subsetter._prune_pre_subset``, which drops, before it
  reads any other table, the tables that :func:`dropped` names: those in
  ``options.drop_tables``, those in ``options.hinting_tables`` unless ``options.hinting``,
  and a legacy ``kern`` beside GPOS unless ``options.legacy_kern``.  :func:`drop_tables_first`
  replaces ``Subsetter.subset`` with one that drops them before ``_compact_layout_tables``
  decompiles every layout table in full (font_subset.py says why).  If those terms change,
  the subset fonts, and so the PDFs, change with them (tests/render/test_font_subset.py
  compares both ways on every face of the project); if ``subset`` is no longer the method
  WeasyPrint calls, nothing is dropped first and writing a PDF is slower again.
"""

from __future__ import annotations

from typing import Any

from fontTools import subset
from fontTools.ttLib import TTFont

_ORIGINAL = subset.Subsetter.subset


def dropped(options: subset.Options, font: TTFont) -> list[str]:
    """The tables of ``font`` that a subsetter with ``options`` drops whatever they hold.

    The terms are fontTools' own (``Subsetter._prune_pre_subset``), read on the font as it
    comes: a legacy ``kern`` table goes where GPOS is present, and fontTools weighs ``kern``
    before it drops GPOS.
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


def drop_tables_first() -> None:
    """Make every fontTools subsetter in this process drop the tables it would drop
    before it reads any."""
    if subset.Subsetter.subset is not _subset_dropping_first:
        setattr(subset.Subsetter, "subset", _subset_dropping_first)  # noqa: B010
