"""HTML to PDF with WeasyPrint: safe fetching, reproducible bytes, atomic writes."""

from __future__ import annotations

import gc
import io
import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any

from generator.errors import RenderError
from generator.limits import render_bounds
from generator.render import font_folder, weasyprint_internals
from generator.render.accessible import FOLIOS, TAGGED, PageLabel, finish_catalog
from generator.render.fonts import font_dirs, font_face_css
from generator.render.glyphs import describe
from generator.render.templating import TEMPLATES

REPRODUCIBLE_EPOCH = "1700000000"
Finisher = Callable[[Any, Any], None]  # WeasyPrint's: the Document and its pydyf.PDF


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
    # The fonts are set up before the render is bounded: Pango starts a thread for them,
    # and a thread it cannot make ends the process (GLib aborts) instead of raising.
    config = _font_config()
    try:
        with (render_bounds(), weasyprint_internals.warnings_from_log() as messages,
              fewer_collections()):
            document = HTML(string=html, base_url=TEMPLATES.as_uri() + "/",
                            url_fetcher=fetcher).render(font_config=config)
    except RefusedReference as exc:
        raise RenderError(str(exc)) from None
    except RecursionError:  # layout recurses into nested elements
        raise RenderError("the page nests its elements too deeply to be laid out") from None
    if fetcher.refused:
        raise RenderError(str(fetcher.refused[0]))
    _refuse_holes(messages, fetcher)
    last_warnings[:] = messages
    return document


def _refuse_holes(messages: list[str], fetcher: Any) -> None:
    """WeasyPrint leaves out a picture it cannot read (not an image, or too large to
    decode) or draw, and only logs it; a book with a hole in it is not what was asked for.

    Raises:
        RenderError: naming the first such picture.
    """
    for message in messages:
        unreadable = weasyprint_internals.unreadable_image(message)
        if unreadable:
            url = unreadable.strip("'")  # logged as its repr
            raise RenderError(f"cannot use image {_shown(url, fetcher)}: it is not an image "
                              "that can be read, or it is too large")
        undrawn = weasyprint_internals.undrawn_picture(message)
        if undrawn:
            raise RenderError(f"cannot draw picture {_shown(undrawn, fetcher)}: it failed "
                              "while being drawn")


def _shown(url: str, fetcher: Any) -> str:
    """A picture's URL as a user knows it: the file a picture of the prose came from, shown
    from its ruleset's folder, not the hash it is served by."""
    path = getattr(fetcher, "served", {}).get(url)
    if path is None:
        return repr(url if len(url) <= 80 else url[:77] + "...")
    root = next((r for r in fetcher.roots if path.is_relative_to(r)), None)
    return repr(str(path.relative_to(root.parent) if root is not None else path))


def pdf_bytes(document: Any, labels: Sequence[PageLabel] = FOLIOS) -> bytes:
    """The PDF, reproducible: no dates and an identifier derived from the content."""
    return write_checked(document, labels=labels)


def write_checked(document: Any, *, labels: Sequence[PageLabel] = FOLIOS,
                  finisher: Finisher | None = None, **options: Any) -> bytes:
    """``document.write_pdf(**options)``, tagged, with its page ``labels`` and its outline
    open (accessible.py), refusing what only drawing the pages shows.  ``finisher`` edits
    the PDF's objects before they are written, as WeasyPrint's own does.

    An SVG's own pictures are fetched only while the pages are drawn, and WeasyPrint leaves
    out a refused one without a word; ``validate`` names them in the prose's SVG files
    (pictures.py), and this keeps a PDF with a hole in it from being written all the same.
    A character that the project's fonts lack (the host's fonts are not used:
    generator/render/__init__.py) would be drawn as an empty box.

    An SVG that fails to draw (a ``<use>`` of itself, a gradient scaled to nothing) stops
    the render naming it, and a stop (Ctrl-C, SIGTERM) while one is drawn goes on up:
    WeasyPrint would swallow both (weasyprint_internals.draw_svg_completely).

    Raises:
        RenderError: naming the refused reference, the picture that could not be read or
            drawn, or the character and where it is.
    """
    # Imported here: fontTools' subsetter takes a third of a second to import, which only
    # writing a PDF needs.
    from generator.render.fetcher import RefusedReference
    from generator.render.font_subset import subset_with_fonttools

    subset_with_fonttools()  # the same bytes on every machine, and sooner (font_subset.py)
    weasyprint_internals.draw_svg_completely()
    fetcher = document.url_fetcher
    buffer = io.BytesIO()

    def finish(document: Any, pdf: Any) -> None:
        if finisher is not None:
            finisher(document, pdf)
        finish_catalog(pdf, labels)

    try:
        with (render_bounds(), weasyprint_internals.warnings_from_log() as messages,
              fewer_collections()):
            document.write_pdf(buffer, uncompressed_pdf=False, finisher=finish, **TAGGED,
                               **options)
    except RefusedReference as exc:
        raise RenderError(str(exc)) from None
    except weasyprint_internals.PictureNotDrawn as exc:
        raise RenderError(f"cannot draw picture {_shown(exc.url, fetcher)}: "
                          f"{_failure(exc.cause)}") from None
    refused = getattr(fetcher, "refused", ())
    if refused:
        raise RenderError(str(refused[0]))
    _refuse_holes(messages, fetcher)
    for message in messages:
        undrawn = weasyprint_internals.undrawn_character(message)
        if undrawn:
            raise RenderError(_no_glyph(document, undrawn))
    return buffer.getvalue()


def _failure(cause: Exception) -> str:
    if isinstance(cause, RecursionError):
        return "it refers to itself, or nests too deeply, to be drawn"
    text = " ".join(str(cause).split())
    text = text if len(text) <= 100 else text[:97] + "..."
    return f"it failed while being drawn ({type(cause).__name__}{': ' + text if text else ''})"


def _no_glyph(document: Any, char: str) -> str:

    for page in document.pages:
        for text in weasyprint_internals.texts(page):
            if char in text:
                return describe(text, char)
    return describe(char, char)
