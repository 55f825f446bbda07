"""Appearance streams for the sheets' form fields, written as the PDF is (issue 28).

WeasyPrint 70 gives a text field no appearance of its own (``/NeedAppearances`` asks the
reader to draw one) and a checkbox only its "on" look: readers that do not draw their own
(print drivers, previewers, some phone readers) showed the fields each their own way.  Here
every text field gets an empty ``/AP /N`` that names its font and size (from its ``/DA``:
what a reader that fills it writes with), and every checkbox an ``/Off`` look beside its
"on" one, with ``/AS`` its state.  ``/NeedAppearances`` stays: a form-fill reader still
draws what a player types.

Widgets of the same size and font share one stream (a map's 100 squares, a log's rows):
an appearance is a form XObject, drawn wherever it is named, and a reader that fills a
field writes that field a new one.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from generator.render import weasyprint_internals as internals

Size = tuple[float, float]


def _size(widget: Any) -> Size:
    x0, y0, x1, y1 = (float(v) for v in widget["Rect"])
    return round(abs(x1 - x0), 4), round(abs(y1 - y0), 4)


def _form_xobject(pdf: Any, size: Size, content: bytes, resources: Any) -> Any:
    return internals.pdf_stream(pdf, content, {
        "Type": "/XObject",
        "Subtype": "/Form",
        "BBox": internals.pdf_array((0, 0, *size)),
        "Resources": resources,
    })


def _appearance_text(widget: Any) -> bytes:
    """An empty field's look: its text state set (the ``/DA``), nothing shown.  ``/Tx
    BMC`` marks the content a reader replaces with the text typed in."""
    default: str | bytes = internals.text_of(widget["DA"]) if "DA" in widget else b""
    if isinstance(default, str):
        default = default.encode("latin-1")
    return b"/Tx BMC\nq\nBT\n" + default + b"\nET\nQ\nEMC\n"


def write_appearances(pdf: Any, widgets: Iterable[Any]) -> None:
    """Give each text field and checkbox of ``widgets`` (the form's widget annotations,
    copies included) the appearances it lacks."""
    form = pdf.catalog["AcroForm"]
    resources = form["DR"]
    texts: dict[tuple[Size, bytes], Any] = {}
    offs: dict[Size, Any] = {}
    for widget in widgets:
        kind = widget.get("FT")
        size = _size(widget)
        if kind == "/Tx":
            content = _appearance_text(widget)
            key = (size, content)
            if key not in texts:
                texts[key] = _form_xobject(pdf, size, content, resources)
            widget["AP"] = internals.pdf_dictionary({"N": texts[key]})
        elif kind == "/Btn" and "AP" in widget:
            if size not in offs:
                offs[size] = _form_xobject(pdf, size, b"", resources)
            looks = widget["AP"]["N"]
            looks["Off"] = offs[size]
            widget["AS"] = widget.get("AS", "/Off")
