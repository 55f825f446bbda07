"""The internals of WeasyPrint and pydyf that generator/render/weasyprint_internals.py
relies on are still there, and still work as it expects."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pypdf
import pytest

from generator.render import weasyprint_internals as internals
from generator.render.fetcher import SafeFetcher
from generator.render.fonts import SERIF, font_dirs, font_face_css
from generator.render.pdf import render_document
from tests.pins import assert_pinned


@pytest.mark.parametrize("name", ["weasyprint", "pydyf"])
def test_the_versions_the_adapter_was_read_on(name: str) -> None:
    assert_pinned(name, "generator/render/weasyprint_internals.py")


def _document(body: str) -> Any:
    return render_document(f"<style>{font_face_css()} body {{ font-family: {SERIF}; }}"
                           f"</style>{body}", Path.cwd())


def test_a_page_box_holds_the_laid_out_text() -> None:
    (page,) = _document("<p>Hello</p>").pages
    assert any(True for _ in internals.page_box(page).descendants())
    assert list(internals.texts(page)) == ["Hello"]


def test_a_page_made_of_a_moved_box_draws_it_with_its_backgrounds() -> None:
    document = _document('<div style="background: #f00; height: 10px">Hello</div>')
    box = internals.page_box(document.pages[0])
    div = box.children[0].children[0].children[0]  # html, body, div
    div.translate(0, 50)
    assert div.background.layers[-1].painting_area[1] != div.border_box_y()
    internals.place_backgrounds(box)
    assert div.background.layers[-1].painting_area[1] == div.border_box_y()
    page = internals.page_of(box)
    assert (page.width, page.height) == (document.pages[0].width, document.pages[0].height)
    pdf = pypdf.PdfReader(io.BytesIO(document.copy([page]).write_pdf()))
    assert pdf.pages[0].extract_text() == "Hello"


def test_the_fonts_are_copied_into_the_folder_given(tmp_path: Path) -> None:
    from weasyprint import CSS
    from weasyprint.text.fonts import FontConfiguration

    config = FontConfiguration()
    internals.set_font_folder(config, tmp_path)
    CSS(string=str(font_face_css()), url_fetcher=SafeFetcher(list(font_dirs())),
        font_config=config)
    assert any(tmp_path.iterdir())


def test_writing_subsets_with_fonttools(monkeypatch: pytest.MonkeyPatch) -> None:
    from weasyprint.pdf import fonts

    document = _document("<p>A</p>")
    # As on a machine with libharfbuzz-subset; restored after the test.
    monkeypatch.setattr(fonts, "harfbuzz_subset", object())
    internals.subset_fonts_with_fonttools()
    with internals.warnings_from_log() as messages:
        document.write_pdf()
    assert any("Using fontTools" in message for message in messages)


def test_an_unreadable_picture_is_read_from_the_log() -> None:
    from weasyprint import HTML

    with internals.warnings_from_log() as messages:
        HTML(string='<img src="data:image/png;base64,AAAA">').render()
    assert [internals.unreadable_image(m) for m in messages] == ["'data:image/png;base64,AAAA'"]


def test_a_character_no_font_has_is_read_from_the_log() -> None:
    document = _document("<p>\u0e01</p>")
    with internals.warnings_from_log() as messages:
        document.write_pdf()
    assert "\u0e01" in [internals.undrawn_character(m) for m in messages]


def test_the_form_fields_and_their_pdf_objects() -> None:
    """The finisher finds each input's element and field, and builds pydyf objects."""
    found: list[tuple[str, str, bool]] = []

    def finisher(document: Any, pdf: Any) -> None:
        (reference,) = pdf.catalog["AcroForm"]["Fields"]
        for element, widget in internals.form_widgets(document):
            found.append((element.get("class"), internals.text_of(widget["T"]),
                          internals.pdf_object(pdf, reference) is widget))

    document = _document('<input name="a.b" class="center" style="appearance: auto">')
    document.write_pdf(finisher=finisher)
    assert found == [("center", "a.b", True)]
    text = internals.pdf_dictionary({"T": internals.pdf_string("x"),
                                     "Kids": internals.pdf_array([1])}).data
    assert text == b"<</T (x)/Kids [1]>>"
