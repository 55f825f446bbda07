"""Card sheets put together from laid-out pieces: each piece a Form XObject, placed in mm.

A front or back page (:mod:`generator.products.cards.pieces`) becomes a Form XObject once and is
drawn wherever that card goes; the sheet itself holds only white card boxes, the placements
and the crop marks, written here as PDF path operators.  The outline, metadata and language
are the sheets' own.  The bytes depend only on the inputs: no dates, no random identifier.
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from generator.products.cards.fit import Piece
from generator.products.cards.imposition import Mark

PT_PER_MM = 72 / 25.4
MARK_WIDTH = 0.12  # mm
FOLD_DASH = (1.0, 0.7)  # mm on, mm off
FRAME_LINE = 0.6 / PT_PER_MM  # mm: a front's frame, 0.6 pt wide
FRAME_RADIUS = 2.2  # mm, outside the line
FRAME_GREY = 0.133  # #222
KAPPA = 0.5523  # a quarter circle's Bezier handles, as a share of its radius


@dataclass(frozen=True)
class Placed:
    """The top left ``width`` x ``height`` mm of a piece, drawn at (x, y) mm on the sheet
    over a white box."""

    piece: Piece
    x: float
    y: float
    width: float
    height: float
    white: tuple[float, float, float, float]  # x0, y0, x1, y1 in mm: the card's bleed box
    frame: float | None = None  # a front's frame, this many mm inside the trim


@dataclass(frozen=True)
class Bar:
    """A scale bar ``length`` x ``thickness`` mm from (x, y), its top left corner, in
    ``parts`` parts, filled and open in turn; ``turned``: upright, ``length`` tall."""

    x: float
    y: float
    length: float
    thickness: float
    parts: int
    turned: bool = False


@dataclass(frozen=True)
class Inline:
    """A piece's page drawn in the sheet's own content, not as a Form XObject (a line of
    text beside the cards): its box's top left corner at (x, y) mm; ``turned`` a quarter
    anticlockwise, to read upwards, when its box is ``height`` wide and ``width`` tall."""

    piece: Piece
    x: float
    y: float
    width: float  # the page's, in mm
    height: float
    turned: bool = False


@dataclass(frozen=True)
class Sheet:
    width: float  # mm
    height: float
    placed: tuple[Placed, ...]
    marks: tuple[Mark, ...] = ()
    bookmarks: tuple[str, ...] = ()  # the titles of the decks whose first card is here
    bars: tuple[Bar, ...] = ()
    inline: tuple[Inline, ...] = ()
    label: str = ""  # its page label, what a viewer's page box shows: "Sheet 2 backs"


@dataclass(frozen=True)
class Info:
    title: str
    author: str
    subject: str
    language: str
    creator: str


def _n(value: float) -> str:
    """A number for a content stream: points, to a thousandth."""
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text


def _frame(p: Placed, inset: float, top: float) -> str:
    """A rounded rectangle along the middle of the frame's line, stroked."""
    half = FRAME_LINE / 2
    x0, y0 = p.x + inset + half, p.y + inset + half
    x1, y1 = p.x + p.width - inset - half, p.y + p.height - inset - half
    r = FRAME_RADIUS - half
    k = r * KAPPA

    def pt(x: float, y: float) -> str:
        return f"{_n(x * PT_PER_MM)} {_n((top - y) * PT_PER_MM)}"

    return " ".join([
        f"{pt(x0 + r, y0)} m", f"{pt(x1 - r, y0)} l",
        f"{pt(x1 - r + k, y0)} {pt(x1, y0 + r - k)} {pt(x1, y0 + r)} c", f"{pt(x1, y1 - r)} l",
        f"{pt(x1, y1 - r + k)} {pt(x1 - r + k, y1)} {pt(x1 - r, y1)} c", f"{pt(x0 + r, y1)} l",
        f"{pt(x0 + r - k, y1)} {pt(x0, y1 - r + k)} {pt(x0, y1 - r)} c", f"{pt(x0, y0 + r)} l",
        f"{pt(x0, y0 + r - k)} {pt(x0 + r - k, y0)} {pt(x0 + r, y0)} c", "h S",
    ])


def _content(sheet: Sheet, names: Sequence[str]) -> bytes:
    """The sheet's drawing: PDF's origin is the bottom left corner, in points."""
    top = sheet.height
    ops = ["1 1 1 rg"]
    for p in sheet.placed:
        x0, y0, x1, y1 = p.white
        ops.append(f"{_n(x0 * PT_PER_MM)} {_n((top - y1) * PT_PER_MM)} "
                   f"{_n((x1 - x0) * PT_PER_MM)} {_n((y1 - y0) * PT_PER_MM)} re f")
    for p, name in zip(sheet.placed, names, strict=True):
        ops.append(f"q 1 0 0 1 {_n(p.x * PT_PER_MM)} {_n((top - p.y) * PT_PER_MM)} cm "
                   f"{name} Do Q")
    framed = [p for p in sheet.placed if p.frame is not None]
    if framed:
        ops.append(f"{_n(FRAME_GREY)} G {_n(FRAME_LINE * PT_PER_MM)} w")
        ops.extend(_frame(p, p.frame, top) for p in framed if p.frame is not None)
    if sheet.marks:
        ops.append(f"0 G {_n(MARK_WIDTH * PT_PER_MM)} w")
        for dashed in (False, True):
            lines = [m for m in sheet.marks if m.fold == dashed]
            if not lines:
                continue
            dash = " ".join(_n(v * PT_PER_MM) for v in FOLD_DASH) if dashed else ""
            ops.append(f"[{dash}] 0 d")
            ops.extend(f"{_n(m.x1 * PT_PER_MM)} {_n((top - m.y1) * PT_PER_MM)} m "
                       f"{_n(m.x2 * PT_PER_MM)} {_n((top - m.y2) * PT_PER_MM)} l S"
                       for m in lines)
    ops.extend(_bar(bar, top) for bar in sheet.bars)
    return "\n".join(ops).encode("ascii")


BAR_LINE = 0.15  # mm: a scale bar's outline


def _bar(bar: Bar, top: float) -> str:
    """The bar's parts, every other one filled, and its outline, in black."""
    k = PT_PER_MM
    part = bar.length / bar.parts

    def box(along: float, length: float) -> str:
        if bar.turned:  # read upwards: the first part at the bottom
            x, y, w, h = bar.x, bar.y + bar.length - along - length, bar.thickness, length
        else:
            x, y, w, h = bar.x + along, bar.y, length, bar.thickness
        return f"{_n(x * k)} {_n((top - y - h) * k)} {_n(w * k)} {_n(h * k)} re"

    filled = " ".join(box(i * part, part) for i in range(0, bar.parts, 2))
    return f"q 0 g {filled} f 0 G {_n(BAR_LINE * k)} w [] 0 d {box(0, bar.length)} S Q"


def _inline(note: Inline, top: float, data: bytes) -> bytes:
    """``data``, a page's content, drawn with the page's box where ``note`` puts it."""
    k = PT_PER_MM
    if note.turned:
        matrix = f"0 1 -1 0 {_n((note.x + note.height) * k)} {_n((top - note.y - note.width) * k)}"
    else:
        matrix = f"1 0 0 1 {_n(note.x * k)} {_n((top - note.y - note.height) * k)}"
    return b"q " + matrix.encode("ascii") + b" cm\n" + data + b"\nQ"


def retag(name: str, batch: int) -> str:
    """A font's name with its subset tag ("ABCDEF+") changed for ``batch``.

    Each batch of pieces was written with its own subset of each font, under the same tag;
    PDF 1.7 (9.6.4) wants distinct subsets in one file to have distinct tags.  Batch 0 keeps
    its tag; a later batch takes six letters of a hash of the tag and its number.
    """
    slash = "/" if name.startswith("/") else ""  # a PDF name object keeps its slash
    tag, plus, rest = name.removeprefix("/").partition("+")
    if not plus or batch == 0 or len(tag) != 6 or not tag.isalpha() or not tag.isupper():
        return name
    digest = hashlib.blake2b(f"{tag}/{batch}".encode(), digest_size=6).digest()
    return f"{slash}{''.join(chr(65 + b % 26) for b in digest)}+{rest}"


def _retag_fonts(resources: Any, batch: int, done: set[int]) -> None:
    """Retag (see :func:`retag`) every font in ``resources`` not yet retagged."""
    from pypdf.generic import NameObject  # here: only printing cards needs pypdf (0.2 s)

    fonts = resources.get("/Font")
    if batch == 0 or fonts is None:
        return
    for ref in fonts.get_object().values():
        if ref.idnum in done:
            continue
        done.add(ref.idnum)
        font = ref.get_object()
        parts = [font, *(d.get_object() for d in font.get("/DescendantFonts", ()))]
        for part in parts:
            if "/BaseFont" in part:
                part[NameObject("/BaseFont")] = NameObject(retag(part["/BaseFont"], batch))
            descriptor = part.get("/FontDescriptor")
            if descriptor is not None and "/FontName" in descriptor.get_object():
                d = descriptor.get_object()
                d[NameObject("/FontName")] = NameObject(retag(d["/FontName"], batch))


def compose(pdfs: Sequence[bytes], sheets: Sequence[Sheet], info: Info) -> bytes:
    """One PDF of ``sheets``, drawing the pages of ``pdfs`` that they place."""
    # Imported here: pypdf takes a fifth of a second to import, which only printing cards
    # needs.
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import (
        ArrayObject,
        ContentStream,
        DictionaryObject,
        FloatObject,
        IndirectObject,
        NameObject,
        TextStringObject,
    )

    writer = PdfWriter()
    writer.pdf_header = b"%PDF-1.7"
    readers: dict[int, PdfReader] = {}
    forms: dict[tuple[Piece, float, float], IndirectObject] = {}
    retagged: set[int] = set()  # the fonts retagged, by object number in the writer

    def form(placed: Placed) -> IndirectObject:
        """The piece's page as a Form XObject: its content stream, its resources, and a
        box that shows the top left ``width`` x ``height`` of it.

        The page's top left corner is the form's origin, so a placement's translation
        puts the top left corner of the card where it goes.
        """
        piece = placed.piece
        key = (piece, placed.width, placed.height)
        if key not in forms:
            if piece.batch not in readers:
                readers[piece.batch] = PdfReader(io.BytesIO(pdfs[piece.batch]))
            page = readers[piece.batch].pages[piece.page]
            ref = page.raw_get("/Contents").clone(writer)
            stream = ref.get_object()
            height = float(page.mediabox.height)
            shown = (0, height - placed.height * PT_PER_MM, placed.width * PT_PER_MM, height)
            stream[NameObject("/Type")] = NameObject("/XObject")
            stream[NameObject("/Subtype")] = NameObject("/Form")
            stream[NameObject("/BBox")] = ArrayObject(FloatObject(round(v, 4)) for v in shown)
            stream[NameObject("/Matrix")] = ArrayObject(
                FloatObject(v) for v in (1, 0, 0, 1, 0, -height))
            resources = page["/Resources"].clone(writer)
            _retag_fonts(resources.get_object(), piece.batch, retagged)
            stream[NameObject("/Resources")] = resources
            forms[key] = ref
        return forms[key]

    def inline(piece: Piece, sheet: Any) -> bytes:
        """The piece's page's content, its resources added to ``sheet``'s (a text's fonts:
        the same objects under the same names however many sheets draw it)."""
        if piece.batch not in readers:
            readers[piece.batch] = PdfReader(io.BytesIO(pdfs[piece.batch]))
        source = readers[piece.batch].pages[piece.page]
        resources: Any = source["/Resources"].clone(writer).get_object()
        _retag_fonts(resources, piece.batch, retagged)
        own = sheet[NameObject("/Resources")]
        for kind, entries in resources.items():
            if kind == "/ProcSet":
                continue
            merged = own.setdefault(NameObject(kind), DictionaryObject())
            merged.update(entries.get_object())
        contents: Any = source.get_contents()
        data: bytes = contents.get_data()
        return data

    for number, sheet in enumerate(sheets):
        page = writer.add_blank_page(sheet.width * PT_PER_MM, sheet.height * PT_PER_MM)
        refs = [form(p) for p in sheet.placed]
        names = {ref.idnum: f"/P{ref.idnum}" for ref in refs}
        xobjects = DictionaryObject(
            {NameObject(names[ref.idnum]): ref for ref in refs})
        page[NameObject("/Resources")] = DictionaryObject({NameObject("/XObject"): xobjects})
        content = ContentStream(None, writer)
        data = _content(sheet, [names[ref.idnum] for ref in refs])
        for note in sheet.inline:
            data += b"\n" + _inline(note, sheet.height, inline(note.piece, page))
        content.set_data(data)
        page.replace_contents(content)
        page.compress_content_streams()
        for title in sheet.bookmarks:
            writer.add_outline_item(title=title, page_number=number)
    writer.add_metadata({
        "/Title": info.title,
        "/Author": info.author,
        "/Subject": info.subject,
        "/Creator": info.creator,
        "/Producer": info.creator,
    })
    writer.root_object[NameObject("/Lang")] = TextStringObject(info.language)
    _for_readers(writer, sheets)
    buffer = io.BytesIO()
    writer.write(buffer)
    return buffer.getvalue()


def _for_readers(writer: Any, sheets: Sequence[Sheet]) -> None:
    """What the WeasyPrint products carry too (render/accessible.py): each sheet's page
    label, the bookmarks pane open and the title shown.  Not tagged: a sheet of cards
    is cut up, not read through, and its pieces' structure does not survive placing."""
    from pypdf.constants import PageLabelStyle

    for number, sheet in enumerate(sheets):
        if sheet.label:
            writer.set_page_label(number, number, prefix=sheet.label, start=None)
        else:
            writer.set_page_label(number, number, PageLabelStyle.DECIMAL, start=number + 1)
    if writer.outline:
        writer.page_mode = "/UseOutlines"
    writer.create_viewer_preferences().display_doctitle = True
