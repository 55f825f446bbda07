"""Only the project's fonts draw text: the host's are not consulted, and a character none of
the project's fonts has is refused with the text around it."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pypdf
import pytest

import generator.render
from generator.errors import RenderError
from generator.render.fonts import font_face_css
from generator.render.glyphs import drawable, missing
from generator.render.pdf import pdf_bytes, render_document
from tests.commands import run
from tests.content import edit


def font_names(pdf: bytes, tmp_path: Path) -> set[str]:
    path = tmp_path / "fonts.pdf"
    path.write_bytes(pdf)
    names = set()
    for page in pypdf.PdfReader(path).pages:
        resources: Any = page["/Resources"].get_object()
        for font in resources.get("/Font", {}).values():
            names.add(str(font.get_object()["/BaseFont"]).split("+")[-1])
    return names


def page(body: str) -> str:
    return f"<style>{font_face_css()} body {{ font-family: TowerPressSerif }}</style>{body}"


def test_fontconfig_is_given_no_fonts_of_the_host() -> None:
    conf = Path(os.environ["FONTCONFIG_FILE"])
    assert conf == Path(generator.render.__file__).with_name("fonts.conf")
    assert "<dir" not in conf.read_text(encoding="utf-8")


def test_a_character_one_face_lacks_is_drawn_by_another_of_ours(tmp_path: Path) -> None:
    # 'ŧ' is in Source Sans Pro, not in Source Serif Pro: the host's DejaVu used to draw it.
    assert ord("ŧ") in drawable()
    document = render_document(page("<p>Serif <i>ŧ</i> and <tt>monospace ŧ</tt></p>"), tmp_path)
    names = font_names(pdf_bytes(document), tmp_path)
    assert names and all(re.match(r"TowerPress(Serif|Sans)", n) for n in names), names


def test_a_character_no_font_has_is_refused_with_its_text(tmp_path: Path) -> None:
    document = render_document(page("<p>Draw the sword \u2694 now.</p>"), tmp_path)
    with pytest.raises(RenderError, match=re.escape(
        "'Draw the sword \u2694 now.' holds '\u2694' (U+2694 CROSSED SWORDS), which the "
        "project's fonts (Source Serif Pro and Source Sans Pro) do not have"
    )):
        pdf_bytes(document)


def test_characters_that_draw_nothing_need_no_glyph() -> None:
    assert missing("soft\u00adhyphen, word\u2060joiner, tab\tand newline\n") is None
    # Pango sets these from the font's own space and hyphen.
    assert missing("five\u2009000, a\u200ahair, non\u2011breaking") is None
    assert missing("’quotes’ – dashes — × − é ß") is None
    assert missing("a\u2694b") == "\u2694"


def test_validate_names_file_and_key_or_line(content_copy: Path) -> None:
    tower = content_copy / "inverted-tower"
    edit(tower / "decks" / "items.toml", 'title = "Items"', 'title = "Items \u2694"')
    chapter = sorted((tower / "rules").glob("*.md"))[2]
    lines = chapter.read_text(encoding="utf-8").splitlines()
    chapter.write_text("\n".join([*lines, "", "Hebrew \u05e9\u05dc\u05d5\u05dd here."]) + "\n",
                       encoding="utf-8")
    result = run("validate", "--content", str(content_copy))
    assert result.returncode == 2
    fonts = "which the project's fonts (Source Serif Pro and Source Sans Pro) do not have"
    assert result.stderr.splitlines() == [
        f"towerpress: error: content/inverted-tower/decks/items.toml: title: 'Items \u2694' "
        f"holds '\u2694' (U+2694 CROSSED SWORDS), {fonts}",
        f"towerpress: error: content/inverted-tower/rules/{chapter.name}: line {len(lines) + 2}: "
        f"'Hebrew \u05e9\u05dc\u05d5\u05dd here.' holds '\u05e9' (U+05E9 HEBREW LETTER SHIN), "
        f"{fonts}",
        "towerpress: 2 problems in the content",
    ]


def test_nested_lists_mark_their_items_with_the_projects_glyphs(
    content_copy: Path, tmp_path: Path
) -> None:
    """A list in a list was marked with a white bullet, which only a font of the host had:
    with the host's fonts gone, the rulebook failed on it."""
    from generator.products.rulebook.product import RULEBOOK, RulebookOptions
    from generator.rulesets import load_content

    chapter = content_copy / "tower-of-choices" / "rules" / "01-introduction.md"
    chapter.write_text(chapter.read_text(encoding="utf-8")
                       + "\n- alpha\n  - beta\n    - gamma\n\n1. one\n   - delta\n",
                       encoding="utf-8")
    out = tmp_path / "book.pdf"
    RULEBOOK.write(load_content(content_copy).ruleset("tower-of-choices"), RulebookOptions(),
                   out)
    import pdfplumber

    with pdfplumber.open(out) as pdf:
        lines = [line.strip() for page in pdf.pages
                 for line in (page.extract_text() or "").splitlines()]
    assert [line for line in lines if line.endswith(("alpha", "beta", "gamma", "delta"))] == [
        "\u2022 alpha", "\u2013 beta", "\u2022 gamma", "\u2013 delta"]
