"""HTML to PDF with WeasyPrint: safe fetching, reproducible bytes, atomic writes."""

from __future__ import annotations

import gc
import io
import os
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any

from generator.errors import RenderError
from generator.render import font_folder, weasyprint_internals
from generator.render.fonts import font_dirs, font_face_css
from generator.render.glyphs import describe
from generator.render.templating import TEMPLATES

REPRODUCIBLE_EPOCH = "1700000000"


@cache
def _font_config() -> Any:
    # One FontConfiguration for the whole process (design.md section 9).  WeasyPrint is
    # imported only when a page is laid out (see render_document).
    from weasyprint.text.fonts import FontConfiguration

    config = FontConfiguration()
    # WeasyPrint makes a folder for its copies of the fonts on first use unless it has
    # one; this one is removed however the process stops (font_folder).
    weasyprint_internals.set_font_folder(config, font_folder.make())
    return config


def discard_fonts() -> None:
    """Remove this process's copies of the fonts now: it is about to end without its exit
    handlers (a worker that was told to stop).  A forked child leaves its parent's."""
    font_folder.remove()


def load_weasyprint() -> None:
    """Import WeasyPrint now, without its fonts: before forking workers that will lay out
    pages, so that each does not import it again (a second, and files in the temporary
    folder that a stopped worker leaves behind).  Each worker still makes its own copies
    of the fonts, which it removes when stopped; a parent killed outright could not."""
    import weasyprint  # noqa: F401  (imported for the workers to inherit)

    import generator.render.fetcher  # noqa: F401


def register_fonts() -> None:
    """Load the project's @font-face rules now (before forking workers that share them)."""
    # WeasyPrint, and the fetcher built on it, only when a page is laid out (render_document).
    from weasyprint import CSS

    from generator.render.fetcher import SafeFetcher

    CSS(string=str(font_face_css()), url_fetcher=SafeFetcher(list(font_dirs())),
        font_config=_font_config())


YOUNG_OBJECTS = 50_000  # the collector's first threshold while WeasyPrint works (default 700)


@contextmanager
def fewer_collections() -> Iterator[None]:
    """Let the cyclic garbage collector run less often, for the length of a render.

    Layout allocates a great many short-lived boxes; at the default threshold the collector
    scans them every 700 allocations, which costs about 7% of a render.  Nothing is kept
    alive longer than the render itself, so raising the threshold only delays that work.
    """
    thresholds = gc.get_threshold()
    gc.set_threshold(YOUNG_OBJECTS, *thresholds[1:])
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)


# The last render's WeasyPrint warnings (ignored CSS, missing fonts): tests assert none.
last_warnings: list[str] = []


def render_document(html: str, content_root: Path, extra_roots: Iterable[Path] = (),
                    pictures: Mapping[str, str] | None = None) -> Any:
    """Lay out ``html``; returns WeasyPrint's Document.  ``pictures`` are SVGs the HTML
    names ``picture:NAME`` (:class:`generator.render.fetcher.SafeFetcher`).

    WeasyPrint's warnings are kept in :data:`last_warnings`.

    Raises:
        RenderError: a reference outside the project's folders was refused, or a picture
            could not be read (not an image, or too large to decode).
    """
    # fontTools stamps subset fonts with the current time unless SOURCE_DATE_EPOCH is set
    # (the reproducible-builds convention); a fixed stamp keeps the PDF byte-identical.
    os.environ.setdefault("SOURCE_DATE_EPOCH", REPRODUCIBLE_EPOCH)
    # Imported here, as every use of WeasyPrint is: it takes about 1.5 s to import, which
    # the commands that lay out no page (list, validate, simulate, odds) should not pay.
    from weasyprint import HTML

    from generator.render.fetcher import RefusedReference, SafeFetcher

    fetcher = SafeFetcher([TEMPLATES, content_root, *font_dirs(), *extra_roots], pictures)
    try:
        with weasyprint_internals.warnings_from_log() as messages, fewer_collections():
            document = HTML(string=html, base_url=TEMPLATES.as_uri() + "/",
                            url_fetcher=fetcher).render(font_config=_font_config())
    except RefusedReference as exc:
        raise RenderError(str(exc)) from None
    except RecursionError:  # layout recurses into nested elements
        raise RenderError("the page nests its elements too deeply to be laid out") from None
    if fetcher.refused:
        raise RenderError(str(fetcher.refused[0]))
    for message in messages:
        # WeasyPrint leaves out a picture it cannot read (not an image, or too large to
        # decode); a book with a hole in it is not what was asked for.
        unreadable = weasyprint_internals.unreadable_image(message)
        if unreadable:
            raise RenderError(f"cannot use image {unreadable}: it is not an image "
                              "that can be read, or it is too large")
    last_warnings[:] = messages
    return document


def pdf_bytes(document: Any) -> bytes:
    """The PDF, reproducible: no dates and an identifier derived from the content."""
    return write_checked(document)


def write_checked(document: Any, **options: Any) -> bytes:
    """``document.write_pdf(**options)``, refusing what only drawing the pages shows.

    An SVG's own pictures are fetched only while the pages are drawn, and WeasyPrint leaves
    out a refused one without a word; ``validate`` names them in the prose's SVG files
    (pictures.py), and this keeps a PDF with a hole in it from being written all the same.
    A character that the project's fonts lack (the host's fonts are not used:
    generator/render/__init__.py) would be drawn as an empty box.

    Raises:
        RenderError: naming the refused reference, or the character and where it is.
    """
    # Imported here: fontTools' subsetter takes a third of a second to import, which only
    # writing a PDF needs.
    from generator.render.font_subset import subset_with_fonttools

    subset_with_fonttools()  # the same bytes on every machine, and sooner (font_subset.py)
    buffer = io.BytesIO()
    with weasyprint_internals.warnings_from_log() as messages, fewer_collections():
        document.write_pdf(buffer, uncompressed_pdf=False, **options)
    refused = getattr(document.url_fetcher, "refused", ())
    if refused:
        raise RenderError(str(refused[0]))
    for message in messages:
        undrawn = weasyprint_internals.undrawn_character(message)
        if undrawn:
            raise RenderError(_no_glyph(document, undrawn))
    return buffer.getvalue()


def _no_glyph(document: Any, char: str) -> str:

    for page in document.pages:
        for text in weasyprint_internals.texts(page):
            if char in text:
                return describe(text, char)
    return describe(char, char)
