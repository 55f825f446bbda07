"""Whether a picture named in the rules prose can be drawn, and the name it is drawn by.

WeasyPrint leaves out a picture it cannot read and only logs it; the rulebook refuses that
after layout (:mod:`generator.render.pdf`). Checking the file while the prose is turned
into HTML lets ``validate`` name a broken picture too, without laying out a page: the
rulebook's prose goes through the same :func:`picture_url` (markdown.py), so a picture
``validate`` passes is one the render takes. Only what drawing alone shows (a gradient
scaled to nothing) is left to the render, which stops on it (weasyprint_internals.py).
The order of the tests is WeasyPrint's: a raster image through Pillow, then SVG.

A picture must hold everything it draws (design.md section 8). WeasyPrint fetches an SVG's
own references only while it draws the page, and drops a refused one silently, so they are
looked for here: an SVG may point only at its own ``#ids`` and at embedded raster data,
which must be a picture Pillow decodes as WeasyPrint will (it decodes the bytes, whatever
type the ``data:`` URL claims: an SVG inside ``data:image/png`` is drawn as an SVG). Its
style sheets are read as WeasyPrint reads them, with tinycss2 (``URL(``, ``\\75 rl(`` and
``@IMPORT`` are ``url(`` and ``@import``). What it draws is bounded: each ``<use>``, and
each pattern, mask, clipping path or marker it paints with, counts as the elements it
draws (a kilobyte of nested ``<use>`` draws millions), and references that loop are
refused (WeasyPrint follows them until Python's stack overflows).

A picture is named in the HTML by the hash of its bytes, ``picture:SHA256.png``, which the
fetcher serves from the file it was checked in while the file still holds those bytes.
WeasyPrint names an image in the PDF by the MD5 of its URL: a ``file:`` URL put a hash of
the content folder's path into the PDF, and the same content in two folders gave two PDFs.
"""

from __future__ import annotations

import base64
import hashlib
import os
import re
import stat
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from io import BytesIO
from pathlib import Path
from typing import Any
from urllib.parse import unquote_to_bytes
from xml.etree import ElementTree

import cssselect2  # type: ignore[import-untyped]  # WeasyPrint's own, untyped
import tinycss2  # type: ignore[import-untyped]  # WeasyPrint's own, untyped
from PIL import Image, UnidentifiedImageError

from generator.limits import FILE_KB, SVG_ELEMENTS
from generator.render.folders import path_is_inside

RASTER = ("PNG", "JPEG", "MPO", "GIF", "WEBP")  # MPO: a camera's JPEG, read as one
KINDS = "PNG, JPEG, GIF, WebP or SVG"
_MIME = {"PNG": "image/png", "JPEG": "image/jpeg", "MPO": "image/jpeg", "GIF": "image/gif",
         "WEBP": "image/webp"}
SVG_MIME = "image/svg+xml"
_EXTENSION = {"image/png": "png", "image/jpeg": "jpg", "image/gif": "gif",
              "image/webp": "webp", SVG_MIME: "svg"}
MAX_PICTURE_MB = 64  # a file larger than this is not read (Pillow bounds the pixels)
# Levels of elements an SVG nests, each <use> counted as what it draws: WeasyPrint draws
# them by recursion, about a frame a level: 1,200 nested <g> overflowed Python's stack.
MAX_SVG_DEPTH = 200


class PictureProblem(ValueError):
    """Why a picture cannot be drawn: the end of "cannot use image X: ..."."""


# -- the pictures of the prose, by the hash of their bytes ------------------------------

SCHEME = "picture"  # the fetcher's (fetcher.py): picture:NAME
_checked: dict[str, dict[Path, None]] = {}  # name -> the files checked to hold its bytes


def picture_url(path: Path) -> str:
    """``picture:SHA256.EXT``, the URL the HTML names the picture ``path`` by, once it is
    checked to be one that can be drawn (:func:`served_picture` serves it).

    Raises:
        PictureProblem: the file cannot be read, or is not a picture that can be drawn.
    """
    data = _read(path)
    name = f"{hashlib.sha256(data).hexdigest()}.{_EXTENSION[picture_kind(data)]}"
    _checked.setdefault(name, {})[path] = None
    return f"{SCHEME}:{name}"


def served_picture(name: str, roots: Iterable[Path]) -> tuple[bytes, str, Path] | None:
    """(bytes, MIME type, file) of the picture :func:`picture_url` named ``name``, from a
    file inside ``roots`` that still holds the bytes checked; None if there is none."""
    digest, _, extension = name.partition(".")
    mime = next((m for m, e in _EXTENSION.items() if e == extension), None)
    for path in _checked.get(name, ()):
        if mime is None or not path_is_inside(path, roots):
            continue
        try:
            data = _read(path)
        except PictureProblem:
            continue
        if hashlib.sha256(data).hexdigest() == digest:
            return data, mime, path
    return None


def with_file_urls(html: str, roots: Iterable[Path]) -> str:
    """``html`` with each prose picture's ``picture:`` URL replaced by the URL of its file
    inside ``roots``, for a browser (a preview): only the renderer's fetcher serves
    ``picture:`` URLs."""
    roots = tuple(roots)

    def file_url(match: re.Match[str]) -> str:
        served = served_picture(match.group(1), roots)
        return served[2].as_uri() if served else match.group()

    return _PICTURE_URL.sub(file_url, html)


_PICTURE_URL = re.compile(rf"{SCHEME}:([0-9a-f]{{64}}\.[a-z]+)")


def _read(path: Path) -> bytes:
    """The bytes of the regular file ``path``.

    A pipe would hang the read and a device (``/dev/zero``) never end it: only a regular
    file is opened, looked at again once open (it may have been swapped), and read up to
    :data:`MAX_PICTURE_MB`.

    Raises:
        PictureProblem: it is not a regular file, is too large, or cannot be read.
    """
    limit = MAX_PICTURE_MB * 2**20
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise PictureProblem(_NOT_REGULAR)
        with os.fdopen(os.open(path, os.O_RDONLY | os.O_NONBLOCK), "rb") as file:
            if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):
                raise PictureProblem(_NOT_REGULAR)
            data = file.read(limit + 1)
    except OSError as exc:
        raise PictureProblem(f"it cannot be read ({exc.strerror})") from None
    if len(data) > limit:
        raise PictureProblem(f"it is more than the {MAX_PICTURE_MB} MB a picture may have")
    return data


_NOT_REGULAR = "it is not a regular file (a pipe, a device or a socket)"


# -- what a picture is -------------------------------------------------------------------

def picture_problem(path: Path) -> str | None:
    """Why ``path`` cannot be drawn as a picture, or None when it can."""
    try:
        picture_kind(_read(path))
    except PictureProblem as exc:
        return str(exc)
    return None


def picture_kind(data: bytes) -> str:
    """The MIME type of the picture ``data``, checked to be one that can be drawn.

    Raises:
        PictureProblem: it is not a picture, not a kind a book takes, damaged, too large to
            decode, or an SVG that refers outside itself, loops or draws too much.
    """
    mime = raster_kind(data)
    if mime is None:
        _check_svg(data)
        return SVG_MIME
    return mime


def raster_kind(data: bytes) -> str | None:
    """The MIME type of the raster picture ``data``, None if Pillow cannot identify it.

    Raises:
        PictureProblem: a kind a book does not take, damaged, or too large to decode.
    """
    try:
        with Image.open(BytesIO(data)) as image:
            # Pillow opens more kinds than a book should hold, some through other programs
            # (EPS through Ghostscript): only the kinds WeasyPrint's users expect go on.
            if image.format not in RASTER:
                raise PictureProblem(f"it is in {image.format} format; expected {KINDS}")
            image.verify()  # the file's structure, and a PNG's checksums
        # verify() passes many cut-off JPEG and GIF files: decoding finds them. The size
        # check of Image.open above has already refused a picture too large to decode.
        with Image.open(BytesIO(data)) as image:
            image.load()
            return _MIME[str(image.format)]
    except Image.DecompressionBombError as exc:
        pixels, limit = [*re.findall(r"\d+", str(exc)), "?", "?"][:2]
        raise PictureProblem(f"it is too large to decode: {pixels} pixels, more than "
                             f"{limit}") from None
    except UnidentifiedImageError:
        return None
    except (OSError, SyntaxError, ValueError) as exc:
        if isinstance(exc, PictureProblem):
            raise
        raise PictureProblem(f"it is a damaged picture ({exc})") from None


# -- SVG -----------------------------------------------------------------------------------

_SVG = "{http://www.w3.org/2000/svg}"
_XML_BASE = "{http://www.w3.org/XML/1998/namespace}base"
_OUTSIDE = "an SVG picture may refer only to its own #ids and to PNG, JPEG, GIF or WebP data " \
           "inside it"


def _check_svg(data: bytes) -> None:
    if len(data) > FILE_KB.value * 1024:
        raise PictureProblem(f"it is an SVG picture of {FILE_KB.exceeded(-(-len(data) // 1024))}")
    try:
        # The parser WeasyPrint uses; expat refuses an entity that expands too much.
        root = ElementTree.fromstring(data)
    except ElementTree.ParseError:
        raise PictureProblem(f"it is not a picture that can be read (expected {KINDS})") from None
    tag = _local(root.tag)
    if tag != "svg":
        raise PictureProblem(f"it is XML whose root element is <{tag}>, not an SVG picture")
    depth = _depth(root)
    if depth > MAX_SVG_DEPTH:
        raise PictureProblem(f"it nests its elements {depth} deep (expected at most "
                             f"{MAX_SVG_DEPTH})")
    for element in root.iter():
        _check_element(element)
    _check_text(root)
    _Drawing(root, _sheet_declarations(root)).check()


def _local(name: str) -> str:
    return name.rpartition("}")[2]


def _depth(root: ElementTree.Element) -> int:
    deepest, stack = 0, [(root, 1)]
    while stack:  # not recursive: the XML may nest deeper than Python's stack
        element, depth = stack.pop()
        deepest = max(deepest, depth)
        if depth <= MAX_SVG_DEPTH:
            stack.extend((child, depth + 1) for child in element)
    return deepest


Declarations = tuple[tuple[str, str], ...]  # (property, value) pairs that apply to an element


def _check_element(element: ElementTree.Element) -> None:
    """Refuses a reference of ``element`` to anything outside the picture."""
    tag = _local(element.tag)
    for key, value in element.attrib.items():
        name = _local(key)
        if key == _XML_BASE:
            # WeasyPrint resolves an <image>'s href against it: href="#a" became any file.
            raise PictureProblem(f"it sets xml:base ({value!r}); {_OUTSIDE}")
        if name in ("href", "src"):
            if tag != "a":  # a link is followed by a reader's click, never fetched
                _check_target(tag, value.strip())
        elif name == "style":
            _check_declarations(tinycss2.parse_blocks_contents(value))
        elif "(" in value or "@" in value:  # a url() needs one, an at-rule the other
            _check_tokens(tinycss2.parse_component_value_list(value))
    if tag == "style":
        _check_sheet("".join(element.itertext()))


def _check_sheet(text: str) -> None:
    for rule in tinycss2.parse_stylesheet(text, skip_comments=True, skip_whitespace=True):
        if rule.type == "at-rule":
            _check_at_rule(rule.lower_at_keyword)
            _check_tokens([*rule.prelude, *(rule.content or ())])
        elif rule.type == "qualified-rule":
            _check_tokens(rule.prelude)
            _check_declarations(tinycss2.parse_blocks_contents(rule.content))


def _check_declarations(items: Iterable[Any]) -> None:
    for item in items:
        if item.type == "declaration":
            _check_declaration(item.lower_name, tinycss2.serialize(item.value).strip())
        elif item.type == "at-rule":
            _check_at_rule(item.lower_at_keyword)
            _check_tokens([*item.prelude, *(item.content or ())])


def _check_declaration(name: str, value: str) -> None:
    # WeasyPrint sets a declared property as the attribute of that name: "href: ..." in a
    # style is the element's href, "id: ..." gives it another id.
    if name in ("href", "id"):
        raise PictureProblem(f"its style sets {name} ({value!r}); {_OUTSIDE}")
    _check_tokens(tinycss2.parse_component_value_list(value))


def _check_at_rule(keyword: str) -> None:
    if keyword in ("import", "font-face"):  # each fetches a file while the page is drawn
        raise PictureProblem(f"it refers to '@{keyword}'; {_OUTSIDE}")


def _check_tokens(tokens: Iterable[Any]) -> None:
    for target in _css_references(tokens):
        if _RASTER_DATA.match(target):
            continue  # never fetched from CSS: WeasyPrint reads an id from a url()
        _check_own(target)


def _check_own(target: str) -> None:
    """Refuses ``target`` unless it is one of the picture's own ids."""
    if not target.startswith("#"):
        raise PictureProblem(f"it refers to {_shown(target)}; {_OUTSIDE}")
    if '"' in target:
        # WeasyPrint looks an id up with an XPath in double quotes: it would fail to draw.
        raise PictureProblem(f"it refers to {_shown(target)}, which is not an id")


def _css_references(tokens: Iterable[Any]) -> Iterator[str]:
    """Every URL in CSS ``tokens`` (unescaped, whatever their case), and a fetching at-rule."""
    for token in tokens:
        if token.type == "url":
            yield token.value.strip()
        elif token.type == "error" and token.kind == "bad-url":
            # A quote or a bracket inside url(...): WeasyPrint's own reading takes it whole.
            raise PictureProblem("it holds a malformed url(...)")
        elif token.type == "function" and token.lower_name in ("url", "src"):
            yield "".join(t.value for t in token.arguments if t.type == "string").strip()
        elif token.type == "at-keyword":
            _check_at_rule(token.lower_value)
        for inner in ("arguments", "content"):
            if isinstance(getattr(token, inner, None), list):
                yield from _css_references(getattr(token, inner))


def _check_target(tag: str, target: str) -> None:
    if tag == "image":
        # WeasyPrint decodes an <image>'s data whatever type it claims, and an <image> of
        # "#id" draws the picture itself inside itself, until the stack overflows.
        if target.startswith("#"):
            raise PictureProblem(f"its <image> refers to {_shown(target)}; an <image> in an SVG "
                                 "picture must hold PNG, JPEG, GIF or WebP data")
        if not _RASTER_DATA.match(target):
            raise PictureProblem(f"it refers to {_shown(target)}; {_OUTSIDE}")
        try:
            data = _data_url_bytes(target)
            if raster_kind(data) is None:
                raise PictureProblem("it is an SVG picture: one inside another is not drawn"
                                     if _is_xml(data) else
                                     "it is not PNG, JPEG, GIF or WebP data that can be read")
        except PictureProblem as exc:
            raise PictureProblem(f"its <image> {_shown(target)} cannot be drawn: "
                                 f"{str(exc).removeprefix('it is ')}") from None
    else:
        _check_own(target)


def _is_xml(data: bytes) -> bool:
    try:
        ElementTree.fromstring(data)
    except ElementTree.ParseError:
        return False
    return True


def _data_url_bytes(url: str) -> bytes:
    """The bytes of a ``data:`` URL, decoded as urllib's handler decodes them for
    WeasyPrint."""
    header, _, data = url.partition(",")
    raw = unquote_to_bytes(data)
    return base64.decodebytes(raw) if header.lower().endswith(";base64") else raw


def _shown(target: str) -> str:
    return repr(target if len(target) <= 60 else target[:57] + "...")


def _check_text(root: ElementTree.Element) -> None:
    # Imported here: glyphs reads the fonts, and the model (no cycle, but a heavier import).
    from generator.render.glyphs import describe, missing

    for element in root.iter():
        if _local(element.tag) in ("text", "a"):  # what WeasyPrint draws as text
            text = "".join(element.itertext())
            char = missing(text)
            if char:
                raise PictureProblem(f"its text {describe(text, char)}")


_RASTER_DATA = re.compile(r"data:image/(png|jpe?g|gif|webp)[;,]", re.IGNORECASE)


# -- what an SVG draws -------------------------------------------------------------------

# Elements whose content WeasyPrint draws only where they are referenced: its DEF_TYPES
# (svg/__init__.py), as it spells them ("gradient" is no tag: a gradient's content is
# walked where it stands), and <defs>.
_DEFINITIONS = {"defs", "clipPath", "filter", "gradient", "image", "marker", "mask", "path",
                "pattern", "symbol"}
# The properties that draw another element, and the kind WeasyPrint takes it for (its
# LazyDefs match the target's tag by this substring: a gradient or a filter draws none).
_DRAWS = {"fill": "pattern", "stroke": "pattern", "clip-path": "path", "mask": "mask",
          "marker": "marker", "marker-start": "marker", "marker-mid": "marker",
          "marker-end": "marker"}
_INHERITED = {"fill", "stroke", "marker", "marker-start", "marker-mid", "marker-end"}
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def _sheet_declarations(root: ElementTree.Element) -> dict[ElementTree.Element, Declarations]:
    """The declarations of the SVG's style sheets that apply to each element, matched as
    WeasyPrint matches them (cssselect2)."""
    matcher = cssselect2.Matcher()
    found = False
    for style in root.iter(f"{_SVG}style"):
        for rule in tinycss2.parse_stylesheet("".join(style.itertext()), skip_comments=True,
                                              skip_whitespace=True):
            if rule.type != "qualified-rule":
                continue
            declared = tuple((d.lower_name, tinycss2.serialize(d.value).strip())
                             for d in tinycss2.parse_blocks_contents(rule.content)
                             if d.type == "declaration")
            try:
                selectors = cssselect2.compile_selector_list(rule.prelude)
            except cssselect2.SelectorError:
                continue  # WeasyPrint skips it too (and the rules after it)
            for selector in selectors:
                matcher.add_selector(selector, declared)
                found = True
    if not found:
        return {}
    applied: dict[ElementTree.Element, Declarations] = {}
    for wrapper in cssselect2.ElementWrapper.from_xml_root(root).iter_subtree():
        matches = [declared for *_, declared in matcher.match(wrapper)]
        if matches:
            applied[wrapper.etree_element] = tuple(d for m in matches for d in m)
    return applied


Reference = tuple[str, str]  # (property, the id it names)


@dataclass
class _Drawing:
    """Counts what an SVG draws, each reference expanded to what it draws, as WeasyPrint
    draws it (svg/__init__.py, draw_node): memoised, refusing a loop, and stopping as soon
    as the count passes the limit, so that counting itself stays bounded."""

    root: ElementTree.Element
    sheets: dict[ElementTree.Element, Declarations]
    limit: int = field(default_factory=lambda: SVG_ELEMENTS.value)
    steps: int = 0
    ids: dict[str, ElementTree.Element] = field(default_factory=dict)
    own: dict[ElementTree.Element, frozenset[Reference]] = field(default_factory=dict)
    memo: dict[tuple[int, frozenset[Reference], bool], int] = field(default_factory=dict)
    open: set[int] = field(default_factory=set)

    def __post_init__(self) -> None:
        for element in self.root.iter():
            # The first element of an id in document order, as WeasyPrint's get_child finds.
            if "id" in element.attrib:
                self.ids.setdefault(element.attrib["id"], element)
            self.own[element] = frozenset(self._references(element))

    def _references(self, element: ElementTree.Element) -> Iterator[Reference]:
        tag = _local(element.tag)
        declared = [(_local(k), v) for k, v in element.attrib.items()]
        if "style" in element.attrib:
            declared += [(d.lower_name, tinycss2.serialize(d.value))
                         for d in tinycss2.parse_blocks_contents(element.attrib["style"])
                         if d.type == "declaration"]
        declared += self.sheets.get(element, ())
        for name, value in declared:
            if name == "href" and tag not in ("a", "image"):
                # A <use> draws what it names; a pattern inherits its content from one.
                yield "href", value.strip().removeprefix("#")
            elif name in _DRAWS:
                for target in _css_references(tinycss2.parse_component_value_list(value)):
                    yield name, target.partition("#")[2]

    def check(self) -> None:
        """Raises PictureProblem when the SVG loops or draws more than the limit."""
        self.count(self.root, frozenset(), False, 1)

    def _too_many(self, drawn: str) -> str:
        return f"it draws {SVG_ELEMENTS.exceeded(drawn)}"

    def count(self, element: ElementTree.Element, inherited: frozenset[Reference],
              target: bool, depth: int) -> int:
        """The elements drawn for ``element`` with the references ``inherited`` from what
        contains it; ``target``: drawn for a reference, not where it stands."""
        key = (id(element), inherited, target)
        if key in self.memo:
            return self.memo[key]
        if id(element) in self.open:
            raise PictureProblem(f"its element {_described(element)} draws itself (a "
                                 "<use>, pattern, mask, clipping path or marker inside what "
                                 "it refers to)")
        if depth > MAX_SVG_DEPTH:
            raise PictureProblem(f"it nests its elements, each <use> counted as what it "
                                 f"draws, more than {MAX_SVG_DEPTH} deep")
        self.steps += 1
        if self.steps > self.limit:  # each step is an element drawn at least once
            raise PictureProblem(self._too_many(f"at least {self.steps:,}"))
        self.open.add(id(element))
        own = self.own[element]
        named = {name for name, _ in own}
        applied = own | {r for r in inherited if r[0] not in named}
        passed = frozenset(r for r in applied if r[0] in _INHERITED)
        total = 1
        for name, fragment in applied:
            referred = self.ids.get(fragment)
            if referred is None or not self._draws(name, referred):
                continue
            times = self._vertices(element) if name.startswith("marker") else 1
            # What a <use> draws inherits from the <use>; what a pattern draws, from where
            # the pattern stands.
            context = passed if name == "href" and _local(element.tag) == "use" else frozenset()
            total = self._add(total, times * self.count(referred, context, True, depth + 1))
        tag = _local(element.tag)
        if target or tag not in _DEFINITIONS:
            for child in element:
                total = self._add(total, self.count(child, passed, False, depth + 1))
        self.open.discard(id(element))
        self.memo[key] = total
        return total

    def _add(self, total: int, more: int) -> int:
        total += more
        if total > self.limit:
            raise PictureProblem(self._too_many(f"at least {total:,}"))
        return total

    @staticmethod
    def _draws(name: str, referred: ElementTree.Element) -> bool:
        kind = _DRAWS.get(name)
        tag = _local(referred.tag).lower()
        if kind is None:  # href: a <use> draws anything; a pattern inherits a pattern
            return True
        return kind in tag

    @staticmethod
    def _vertices(element: ElementTree.Element) -> int:
        """At most how many vertices ``element`` has: a marker is drawn at each."""
        numbers = sum(len(_NUMBER.findall(element.attrib.get(a, ""))) for a in ("d", "points"))
        return max(2, numbers)


def _described(element: ElementTree.Element) -> str:
    name = _local(element.tag)
    return f"<{name} id={element.attrib['id']!r}>" if "id" in element.attrib else f"<{name}>"
