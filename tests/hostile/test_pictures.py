"""Hostile pictures in a stranger's rules prose (issue 27, findings 2, 5, 7 and 9), and text
that the fonts cannot draw: ``validate`` runs the render's own checks, so that its "ok"
means the render will not refuse; what only drawing shows stops the render, naming the
picture; a stop while a picture is drawn stops the command; and a picture is named in the
PDF by its bytes, not by the folder it lies in.

Most cases need only ``validate``, or a page of HTML laid out here; three lay out a small
rulebook (one short chapter of The Inverted Tower, on A5).
"""

from __future__ import annotations

import base64
import hashlib
import os
import re
import shutil
import signal
import unicodedata
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pypdf
import pytest

from generator.errors import RenderError
from generator.model.loader import BUNDLED_CONTENT
from tests.commands import run_here
from tests.content import PIXEL, edit

RULESET = "inverted-tower"
CHAPTER = Path(RULESET) / "rules" / "01-introduction.md"
SVG = ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
       'width="40" height="40">{}</svg>')
OUTSIDE = ("an SVG picture may refer only to its own #ids and to PNG, JPEG, GIF or WebP data "
           "inside it")
# What every picture below draws with, and the render must take: a style sheet, a
# gradient, a pattern, a clipping path, a marker, text and embedded PNG data.
FAIR = SVG.format(
    '<style>.shade { fill: url(#fade) }</style>'
    '<defs><linearGradient id="fade"><stop offset="0" stop-color="#fff"/>'
    '<stop offset="1" stop-color="#000"/></linearGradient>'
    '<pattern id="dots" width="4" height="4" patternUnits="userSpaceOnUse">'
    '<circle cx="2" cy="2" r="1"/></pattern>'
    '<clipPath id="half"><rect width="20" height="40"/></clipPath>'
    '<marker id="tip" markerWidth="2" markerHeight="2"><circle cx="1" cy="1" r="1"/></marker>'
    '<g id="tile"><rect width="4" height="4"/></g></defs>'
    '<rect class="shade" width="40" height="10"/>'
    '<rect y="10" width="40" height="10" fill="url(#dots)" clip-path="url(#half)"/>'
    '<path d="M0 30 L20 30 L40 35" stroke="#000" marker-mid="url(#tip)"/>'
    '<use href="#tile" x="30"/><use xlink:href="#tile" x="34"/>'
    f'<image width="4" height="4" href="data:image/png;base64,'
    f'{base64.b64encode(PIXEL.read_bytes()).decode()}"/>'
    '<text x="2" y="38" font-size="4">Floor 1 – the gate</text>')


def small_tree(folder: Path) -> Path:
    """A content folder holding The Inverted Tower with one short chapter and no quick
    reference: its rulebook is 15 A5 pages."""
    content = folder / "content"
    shutil.copytree(BUNDLED_CONTENT / RULESET, content / RULESET)
    for extra in sorted((content / RULESET / "rules").glob("*.md"))[1:]:
        extra.unlink()
    (content / RULESET / "quick-reference.md").unlink()
    (content / CHAPTER).write_text("# Introduction\n\nA small book.\n", encoding="utf-8")
    return content


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    return small_tree(tmp_path)


def with_picture(content: Path, name: str, data: bytes | str) -> Path:
    """``content`` with the picture ``name`` in its chapter's folder, shown by the chapter."""
    path = content / CHAPTER.parent / name
    if isinstance(data, str):
        path.write_text(data, encoding="utf-8")
    else:
        path.write_bytes(data)
    chapter = content / CHAPTER
    chapter.write_text(chapter.read_text(encoding="utf-8") + f"\n![a map]({name})\n",
                       encoding="utf-8")
    return path


def refusal(*args: str) -> str:
    """The one line of a command refused with exit 2 (no traceback, not an internal error)."""
    result = run_here(*args)
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr
    (line,) = result.stderr.splitlines()
    return line


def validate(content: Path) -> str:
    return refusal("validate", "--content", str(content))


def rulebook(content: Path, out: Path) -> Any:
    return run_here("rulebook", RULESET, "--paper", "a5", "--content", str(content),
                    "-o", str(out))


def picture_page(content: Path, name: str, svg: str) -> Any:
    """A page of HTML showing the picture ``name`` of the prose, laid out (not drawn)."""
    from generator.render.fonts import SERIF, font_face_css
    from generator.render.pdf import render_document
    from generator.render.pictures import picture_url

    path = content / CHAPTER.parent / name
    path.write_text(svg, encoding="utf-8")
    html = (f"<style>{font_face_css()} body {{ font-family: {SERIF} }}</style>"
            f'<p>A map:</p><img src="{picture_url(path)}" width="80">')
    return render_document(html, content / RULESET)


@pytest.fixture
def when_drawn(monkeypatch: pytest.MonkeyPatch) -> Callable[[Callable[[], None]], None]:
    """``when_drawn(act)``: ``act()`` runs when a rectangle of a picture of the prose (not
    a die's, a data: URL) is drawn (once), inside WeasyPrint's drawing of the SVG."""
    from weasyprint.svg import TAGS

    def install(act: Callable[[], None]) -> None:
        draw_rect = TAGS["rect"]
        done: list[bool] = []

        def rect(svg: Any, node: Any, font_size: float) -> None:
            if not svg.url.startswith("data:") and not done:
                done.append(True)
                act()
            draw_rect(svg, node, font_size)

        monkeypatch.setitem(TAGS, "rect", rect)

    return install


# -- finding 2: a stop, and a picture that does not draw ---------------------------------

def test_sigterm_while_an_svg_is_drawn_exits_143_and_keeps_the_previous_pdf(
        tree: Path, tmp_path: Path, when_drawn: Callable[[Callable[[], None]], None]) -> None:
    """WeasyPrint caught BaseException around an SVG: the build printed "wrote" and exited
    0 with the picture cut short."""
    with_picture(tree, "map.svg", FAIR)
    out = tmp_path / "book.pdf"
    out.write_bytes(b"the previous book")
    when_drawn(lambda: os.kill(os.getpid(), signal.SIGTERM))  # main's handler: Terminated
    result = rulebook(tree, out)
    assert (result.returncode, result.stdout, result.stderr) == (
        143, "", "towerpress: terminated\n")
    assert out.read_bytes() == b"the previous book"


def test_ctrl_c_while_an_svg_is_drawn_is_not_swallowed(
        tree: Path, when_drawn: Callable[[Callable[[], None]], None]) -> None:
    from generator.render.pdf import pdf_bytes

    document = picture_page(tree, "map.svg", FAIR)

    def interrupt() -> None:
        # What Python's own SIGINT handler raises (a test runner may have replaced it).
        raise KeyboardInterrupt

    when_drawn(interrupt)
    with pytest.raises(KeyboardInterrupt):
        pdf_bytes(document)


LOOPS = {
    "use-of-its-own-group": ('<g id="a"><rect width="4" height="4"/><use href="#a"/></g>',
                             "its element <g id='a'> draws itself"),
    "two-uses-of-each-other": ('<defs><g id="a"><use href="#b"/></g><g id="b"><use href="#a"/>'
                               '</g></defs><use href="#a"/>',
                               "its element <g id='a'> draws itself"),
    "pattern-painted-with-itself": ('<defs><pattern id="p" width="4" height="4"><rect '
                                    'width="4" height="4" fill="url(#p)"/></pattern></defs>'
                                    '<rect width="40" height="40" fill="url(#p)"/>',
                                    "its element <pattern id='p'> draws itself"),
    "image-of-itself": ('<image id="x" href="#x" width="4" height="4"/>',
                        "its <image> refers to '#x'; an <image> in an SVG picture must hold "
                        "PNG, JPEG, GIF or WebP data"),
}


@pytest.mark.parametrize("inner, problem", LOOPS.values(), ids=LOOPS)
def test_an_svg_that_draws_itself_is_refused_by_validate(tree: Path, inner: str,
                                                         problem: str) -> None:
    """WeasyPrint followed these until the stack overflowed, and left the picture out."""
    with_picture(tree, "loop.svg", SVG.format(inner))
    line = validate(tree)
    assert line.startswith(f"towerpress: error: content/{CHAPTER}: cannot use image "
                           f"'loop.svg': {problem}"), line


def test_a_gradient_scaled_to_nothing_stops_the_render_naming_the_picture(tree: Path) -> None:
    """Only drawing shows it (a division by zero): validate passes it; the PDF was written
    without the picture."""
    from generator.render.pdf import pdf_bytes

    flat = SVG.format('<defs><linearGradient id="g" gradientTransform="scale(0)">'
                      '<stop offset="0" stop-color="red"/><stop offset="1" stop-color="blue"/>'
                      '</linearGradient></defs><rect width="10" height="10" fill="url(#g)"/>')
    document = picture_page(tree, "flat.svg", flat)
    with pytest.raises(RenderError) as caught:
        pdf_bytes(document)
    assert caught.value.format_message() == (
        f"cannot draw picture '{CHAPTER.parent}/flat.svg': it failed while being drawn "
        "(ZeroDivisionError: float division by zero)")


# -- finding 5: what an SVG draws, each <use> expanded -----------------------------------

def nested_uses(levels: int) -> str:
    """An SVG of ``levels`` groups, each drawing the one before twice: 2^levels squares."""
    groups = "".join(f'<g id="u{i}"><use href="#u{i - 1}"/><use href="#u{i - 1}"/></g>'
                     for i in range(1, levels + 1))
    return SVG.format(f'<defs><rect id="u0" width="1" height="1"/>{groups}</defs>'
                      f'<use href="#u{levels}"/>')


def test_a_kilobyte_of_nested_use_is_refused_by_validate_and_by_the_render(
        tree: Path, tmp_path: Path) -> None:
    """2^30 squares from 1.6 KB: the render ran for as long as it was let."""
    svg = nested_uses(30)
    assert len(svg) < 2000
    with_picture(tree, "fractal.svg", svg)
    line = validate(tree)
    assert re.fullmatch(
        rf"towerpress: error: content/{CHAPTER}: cannot use image 'fractal\.svg': it draws at "
        r"least [\d,]+ elements, more than the limit of 20,000 elements for an SVG picture, "
        r"each <use> counted as what it draws \(set TOWERPRESS_MAX_SVG_ELEMENTS to raise it\)",
        line), line
    out = tmp_path / "book.pdf"
    assert refusal("rulebook", RULESET, "--content", str(tree), "-o", str(out)) == line
    assert not out.exists()


def test_the_svg_element_limit_is_a_setting(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with_picture(tree, "map.svg", nested_uses(6))  # 2^6 squares, 190 elements in all
    assert run_here("validate", "--content", str(tree)).returncode == 0
    monkeypatch.setenv("TOWERPRESS_MAX_SVG_ELEMENTS", "100")
    assert "more than the limit of 100 elements for an SVG picture" in validate(tree)


# -- finding 7: the same content in another folder ------------------------------------

def pdf_objects(path: Path) -> bytes:
    """Every object of the PDF at ``path``, streams decompressed: what a reader can see."""
    reader = pypdf.PdfReader(path)
    parts = []
    size: Any = reader.trailer["/Size"]
    for number in range(1, int(size)):
        try:
            found = reader.get_object(number)
        except Exception:  # a free entry of the cross-reference table
            continue
        if isinstance(found, pypdf.generic.StreamObject):
            parts.append(found.get_data())
        parts.append(repr(found).encode())
    return b"\n".join(parts)


def test_the_same_content_in_two_folders_gives_the_same_pdf(tmp_path: Path) -> None:
    """WeasyPrint names an image in the PDF by the MD5 of its URL, which was the picture's
    file: URL: each folder gave other bytes, and the hash of a local path went into them."""
    books, traces = [], []
    for folder in ("first-folder-q7x", "second-folder-k2z"):
        content = small_tree(tmp_path / folder)
        png = with_picture(content, "pixel.png", PIXEL.read_bytes())
        svg = with_picture(content, "map.svg", FAIR)
        out = tmp_path / f"{folder}.pdf"
        result = rulebook(content, out)
        assert result.returncode == 0, result.stderr
        books.append(out.read_bytes())
        traces += [folder.encode(), *(hashlib.md5(p.as_uri().encode()).hexdigest().encode()
                                     for p in (png, svg))]
    assert books[0] == books[1]
    seen = pdf_objects(tmp_path / "first-folder-q7x.pdf")
    assert b"/Subtype /Image" in seen or b"'/Subtype': '/Image'" in seen  # the pixel is in
    assert [trace for trace in traces if trace in seen] == []


# -- finding 9: validate's ok means the render takes it ----------------------------------

def data_url(data: bytes, kind: str = "image/png") -> str:
    return f"data:{kind};base64,{base64.b64encode(data).decode()}"


EPS = b"%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 4 4\nshowpage\n"
INNER = SVG.format('<image width="4" height="4" href="file:///etc/hostname"/>')
TRICKS = {
    # Each passed validate; the render refused it, or fetched what it names.
    "URL-in-capitals-in-a-font-face": (
        "<style>@font-face { font-family: x; src: URL(file:///etc/hostname) }</style>",
        f"it refers to '@font-face'; {OUTSIDE}"),
    "URL-in-capitals-in-a-style": ('<rect style="fill: URL(http://example.com/p.svg#g)"/>',
                                   f"it refers to 'http://example.com/p.svg#g'; {OUTSIDE}"),
    "IMPORT-in-capitals": ('<style>@IMPORT "http://example.com/a.css";</style>',
                           f"it refers to '@import'; {OUTSIDE}"),
    "css-escape-for-url": (r"<style>rect { fill: \75 rl(http://example.com/p.svg#g) }</style>",
                           f"it refers to 'http://example.com/p.svg#g'; {OUTSIDE}"),
    "xml-base-under-an-own-id": (
        '<image xml:base="file:///etc/hostname" href="#x" width="4" height="4"/>',
        f"it sets xml:base ('file:///etc/hostname'); {OUTSIDE}"),
    "href-set-by-a-style": ("<image style=\"href: file:///etc/hostname\" width='4' height='4'/>",
                            f"its style sets href ('file:///etc/hostname'); {OUTSIDE}"),
    "svg-inside-data-image-png": (
        f'<image width="4" height="4" href="{data_url(INNER.encode())}"/>',
        "its <image> 'data:image/png;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5...' cannot be "
        "drawn: an SVG picture: one inside another is not drawn"),
    # Pillow opens EPS whatever the data URL claims, and draws it through Ghostscript.
    "eps-inside-data-image-png": (
        f'<image width="4" height="4" href="{data_url(EPS)}"/>',
        "cannot be drawn: in EPS format; expected PNG, JPEG, GIF, WebP or SVG"),
    "damaged-png-data": ('<image width="4" height="4" href="data:image/png;base64,iVBORw0KGgo="/>',
                         "cannot be drawn: not PNG, JPEG, GIF or WebP data that can be read"),
    "quote-in-an-id": ("<rect width='4' height='4' fill='url(#a&quot;b)'/>",
                       "it holds a malformed url(...)"),
    "character-the-fonts-lack": ("<text y='10'>Draw the sword \u2694</text>",
                                 "its text 'Draw the sword \u2694' holds '\u2694' (U+2694 "
                                 "CROSSED SWORDS)"),
}


@pytest.mark.parametrize("inner, problem", TRICKS.values(), ids=TRICKS)
def test_an_svg_trick_is_refused_by_validate(tree: Path, inner: str, problem: str) -> None:
    with_picture(tree, "map.svg", SVG.format(inner))
    line = validate(tree)
    assert line.startswith(f"towerpress: error: content/{CHAPTER}: cannot use image "
                           "'map.svg': "), line
    assert problem in line, line


def test_a_fair_svg_passes_validate(tree: Path) -> None:
    """The checks above leave what a map or a diagram draws with alone."""
    with_picture(tree, "map.svg", FAIR)
    assert run_here("validate", "--content", str(tree)).returncode == 0


CONTROLS: dict[str, tuple[Callable[[Path], None], str]] = {
    "ESC-in-prose": (lambda c: edit(c / CHAPTER, "A small book.", "A small \x1b[31mbook."),
                     f"content/{CHAPTER}: line 3: 'A small \\x1b[31mbook.' holds '\\x1b' "
                     "(U+001B a control character)"),
    "NUL-in-prose": (lambda c: edit(c / CHAPTER, "A small book.", "A small\x00book."),
                     f"content/{CHAPTER}: line 3: 'A small\\x00book.' holds '\\x00' "
                     "(U+0000 a control character)"),
    # str.splitlines() ends a line at \x1c: the check never saw it (the message shows it as
    # a space, as str.split() takes it for one).
    "file-separator-in-prose": (lambda c: edit(c / CHAPTER, "A small book.", "A small\x1cbook."),
                                f"content/{CHAPTER}: line 3: 'A small book.' holds '\\x1c' "
                                "(U+001C a control character)"),
    "ESC-in-a-toml-value": (lambda c: edit(c / RULESET / "ruleset.toml",
                                           'subtitle = "A solo', 'subtitle = "A \\u001b solo'),
                            f"content/{RULESET}/ruleset.toml: subtitle: 'A \\x1b solo tower "
                            "crawl for on' holds '\\x1b' (U+001B a control character)"),
}


@pytest.mark.parametrize("change, problem", CONTROLS.values(), ids=CONTROLS)
def test_control_characters_in_text_are_refused_by_validate(
        tree: Path, change: Callable[[Path], None], problem: str) -> None:
    """Validate said ok; the render then refused the box that Pango draws for each."""
    change(tree)
    line = validate(tree)
    assert line.startswith(f"towerpress: error: {problem}, which the project's fonts"), line


def characters_drawn_as_boxes() -> Iterator[str]:
    """The controls, format characters and separators the project's fonts lack: those
    that might draw nothing."""
    from generator.render.glyphs import drawable

    have = drawable()
    for code in range(0x110000):
        char = chr(code)
        if code not in have and unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp", "Zs"):
            yield char


def test_validate_refuses_each_character_the_render_draws_as_a_box(tmp_path: Path) -> None:
    """One function decides for both: validate's ``missing`` and what Pango draws as an
    empty box (the render refuses each, naming it), over every character that draws nothing
    or a box."""
    from generator.render import weasyprint_internals
    from generator.render.fonts import SERIF, font_face_css
    from generator.render.glyphs import missing
    from generator.render.pdf import render_document

    # Not NUL: the HTML parser drops it; it reaches a page only through Markdown, which
    # makes it U+FFFD (the prose's case above).
    chars = [c for c in characters_drawn_as_boxes() if c != "\x00"]
    text = " ".join(f"a{c}b" for c in chars)
    html = f"<style>{font_face_css()} body {{ font-family: {SERIF} }}</style><p>{text}</p>"
    document = render_document(html, tmp_path)
    with weasyprint_internals.warnings_from_log() as messages:
        document.write_pdf()
    boxed = [weasyprint_internals.undrawn_character(m) for m in messages]
    assert sorted(ord(c) for c in chars if missing(c)) == sorted({ord(c) for c in boxed if c})
