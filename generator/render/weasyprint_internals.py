"""Every use of WeasyPrint's (and its PDF writer pydyf's) internals, in one place.

Read on weasyprint 70.0 and pydyf 0.13.0 (constraints.txt).  WeasyPrint's public API lays
out and writes documents; what TowerPress does beyond that rests on what follows, and
tests/render/test_weasyprint_internals.py fails as soon as another version is installed.
Raise the pin on purpose, after reading each of these again in the new version:

- ``Page._page_box``: the laid-out box tree of a page (document.py).  Card faces are
  measured and cut from it (products/cards/), and a missing glyph is found in it.  If it
  goes, :func:`page_box` raises AttributeError and no cards are printed.
- ``Page(page_box)``: a page made from a box tree, which the docs say not to do.  If its
  constructor changes, cut card fronts can no longer be made into pages.
- ``weasyprint.layout.background.layout_backgrounds(page_box, get_image_from_uri)``: places
  the backgrounds (a table's shaded rows) where the boxes now are.  If it changes, a cut
  front is drawn with its backgrounds where it was laid out.
- ``weasyprint.formatting_structure.boxes.TextBox`` and its ``text``: the words of a page.
  If they change, a missing glyph is reported without the words around it.  With
  ``AtomicInlineLevelBox`` and ``BlockContainerBox``, and the boxes' ``position_x``,
  ``margin_width()``, ``content_box_x()`` and ``width``: how far a card's words reach
  (products/cards/pieces.py).  If they change, a word too long for its box goes unseen.
- ``FontConfiguration._folder``: where WeasyPrint copies the @font-face files, made with
  ``mkdtemp`` on first use when None and removed only in ``__del__``.  If it is renamed,
  WeasyPrint makes its own folder again, which a stopped process leaves behind
  (font_folder.py, tests/test_stopping.py).
- ``weasyprint.pdf.fonts.harfbuzz_subset``: read at each ``Font.subset``; when it is falsy
  fonts are subset with fontTools.  If it is no longer read there, a machine with
  libharfbuzz-subset writes other bytes than one without (font_subset.py).
- The texts of three log records of the ``weasyprint`` logger: ``Failed to load image at
  URL: ...``, ``Failed to render SVG image URL`` and ``.notdef glyph rendered ...
  (U+XXXX)``.  If they change, a picture that cannot be read is left out of a book, and a
  character the fonts lack is drawn as an empty box, without a word.
- ``weasyprint.images.SVGImage.draw(stream, width, height, style)``, which calls
  ``self._svg.draw(stream, width, height, self._base_url, self._context)`` and catches
  BaseException around it, only logging it: :func:`draw_svg_completely` replaces it with
  the same call that lets a stop through and raises :class:`PictureNotDrawn` for a
  failure.  If it changes, Ctrl-C or SIGTERM while an SVG is drawn writes a PDF with the
  picture cut short, and an SVG that fails to draw (a ``<use>`` of itself) leaves a hole
  (then only the logged record above stops it).
- ``Page.forms`` holding ``(box, rectangle)`` pairs (its docs say otherwise), and the
  ``widget_annotation`` that drawing sets on each input's box.  If they change, a sheet's
  number boxes are no longer centred.
- pydyf: ``Dictionary``, ``Array``, ``String`` and its ``string``, a reference being the
  bytes ``b"N 0 R"`` of the object ``PDF.objects[N]``.  If they change, a sheet's fields
  are no longer nested.

WeasyPrint is imported inside each function, as everywhere (render/pdf.py): it takes about
a second to import, which the commands that lay out no page should not pay.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pydyf  # type: ignore[import-untyped]  # WeasyPrint's PDF writer, untyped


def page_box(page: Any) -> Any:
    """The laid-out box tree of a WeasyPrint ``Page``."""
    return page._page_box


def is_inline_leaf(box: Any) -> bool:
    """Whether ``box`` is a run of text or an inline image: what can stick out of a line."""
    from weasyprint.formatting_structure import boxes

    return isinstance(box, (boxes.TextBox, boxes.AtomicInlineLevelBox))


def is_block(box: Any) -> bool:
    """Whether ``box`` is a block holding lines (a paragraph, a table cell)."""
    from weasyprint.formatting_structure import boxes

    return isinstance(box, boxes.BlockContainerBox)


def page_of(box: Any) -> Any:
    """A WeasyPrint ``Page`` drawing the laid-out page box ``box``."""
    from weasyprint.document import Page

    return Page(box)


def _no_image(**_: Any) -> None:
    """Faces have no images in their backgrounds, borders or masks: nothing is fetched."""
    return None


def place_backgrounds(box: Any) -> None:
    """Lay out again the backgrounds of the page box ``box``, once its boxes were moved."""
    from weasyprint.layout.background import layout_backgrounds

    layout_backgrounds(box, _no_image)


def texts(page: Any) -> Iterator[str]:
    """The text of each text box laid out on ``page``."""
    from weasyprint.formatting_structure.boxes import TextBox

    for box in page_box(page).descendants():
        if isinstance(box, TextBox):
            yield box.text


def set_font_folder(config: Any, folder: Path) -> None:
    """Have the FontConfiguration ``config`` copy its fonts into ``folder``, not a folder
    of its own."""
    config._folder = folder


def subset_fonts_with_fonttools() -> None:
    """Make WeasyPrint subset fonts with fontTools even where libharfbuzz-subset is
    installed."""
    from weasyprint.pdf import fonts

    fonts.harfbuzz_subset = None  # read at each subset (Font.subset), so this is enough


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


@contextmanager
def warnings_from_log() -> Iterator[list[str]]:
    """The warnings and errors WeasyPrint logs inside the block, kept from the console."""
    handler = _Collect()
    logger = logging.getLogger("weasyprint")
    logger.addHandler(handler)
    propagate, logger.propagate = logger.propagate, False
    try:
        yield handler.messages
    finally:
        logger.removeHandler(handler)
        logger.propagate = propagate


class PictureNotDrawn(Exception):
    """An SVG picture that WeasyPrint could not draw completely: ``url`` is the outermost
    one (the prose's, for an SVG drawn inside it), ``cause`` what failed."""

    def __init__(self, url: str, cause: Exception):
        super().__init__(f"{url}: {type(cause).__name__}: {cause}")
        self.url = url
        self.cause = cause


def draw_svg_completely() -> None:
    """Make WeasyPrint stop the render when an SVG fails to draw, and let a stop through.

    WeasyPrint 70 catches BaseException around drawing an SVG and only logs it: Ctrl-C or
    SIGTERM during a large SVG went on to write the PDF with the picture cut short, and an
    SVG that fails to draw was left out.  Anything that is not an Exception now goes on
    up: a stop, and the fetcher's refusal of a reference (WeasyPrint's FatalURLFetchingError
    is a BaseException); a failure becomes :class:`PictureNotDrawn`.
    """
    from weasyprint.images import SVGImage

    if getattr(SVGImage.draw, "strict", False):
        return

    def draw(self: Any, stream: Any, concrete_width: float, concrete_height: float,
             _style: Any) -> None:
        try:
            self._svg.draw(stream, concrete_width, concrete_height, self._base_url,
                           self._context)
        except PictureNotDrawn as exc:  # an SVG inside this one: name the outer picture
            raise PictureNotDrawn(self._base_url, exc.cause) from exc.cause
        except Exception as exc:
            raise PictureNotDrawn(self._base_url, exc) from exc

    draw.strict = True  # type: ignore[attr-defined]
    SVGImage.draw = draw


_UNREADABLE = re.compile(r"Failed to load image at (.+?): ")
_UNDRAWN_SVG = re.compile(r"Failed to render SVG image (.+)")
_NO_GLYPH = re.compile(r"\.notdef glyph rendered .* \(U\+([0-9A-F]+)\)")


def unreadable_image(message: str) -> str | None:
    """The picture (its URL, quoted) that a logged ``message`` says could not be read."""
    found = _UNREADABLE.match(message)
    return found.group(1) if found else None


def undrawn_picture(message: str) -> str | None:
    """The SVG picture (its URL) that a logged ``message`` says could not be drawn."""
    found = _UNDRAWN_SVG.match(message)
    return found.group(1) if found else None


def undrawn_character(message: str) -> str | None:
    """The character that a logged ``message`` says no font could draw."""
    found = _NO_GLYPH.search(message)
    return chr(int(found.group(1), 16)) if found else None


def form_widgets(document: Any) -> Iterator[tuple[Any, Any]]:
    """(HTML element, widget annotation) of each form input of ``document``, once drawn
    (in a ``finisher``): the annotation is the input's PDF field."""
    for page in document.pages:
        for inputs in page.forms.values():
            for box, _ in inputs:
                yield box.element, box.widget_annotation


def pdf_object(pdf: Any, reference: bytes) -> Any:
    """The object of the pydyf ``pdf`` that ``reference`` points to."""
    return pdf.objects[int(reference.split()[0])]


def pdf_string(text: str) -> Any:
    """A PDF text string."""
    return pydyf.String(text)


def text_of(string: Any) -> str:
    """The text of a PDF text string."""
    text: str = string.string
    return text


def pdf_array(items: Iterable[Any] = ()) -> Any:
    """A PDF array."""
    return pydyf.Array(items)


def pdf_dictionary(values: dict[str, Any]) -> Any:
    """A PDF dictionary."""
    return pydyf.Dictionary(values)


def pdf_stream(pdf: Any, content: bytes, values: dict[str, Any]) -> Any:
    """A compressed PDF stream of ``content`` with the dictionary ``values``, added to the
    pydyf ``pdf``: its reference."""
    stream = pydyf.Stream([content], extra=values, compress=True)
    pdf.add_object(stream)
    return stream.reference
