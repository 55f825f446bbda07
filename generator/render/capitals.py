"""Words in capitals that stay whole: game terms such as TARGET or INDEFATIGABLE read wrong
broken at a hyphen, so they are set in a ``span.caps`` that the house styles never
hyphenate (book.css, cards.css)."""

from __future__ import annotations

import re

from markupsafe import Markup, escape

# Six capitals: the shortest word either style may hyphenate.  A ruling mark of
# generator.render.markdown (after an invisible separator) is not a word.
_CAPITALS = re.compile("(?<![\\w\u2063])([A-Z]{6,})(?!\\w)")


def mark_capitals(escaped: str) -> str:
    """HTML-escaped text with each long word in capitals wrapped in ``span.caps``."""
    return _CAPITALS.sub(r'<span class="caps">\1</span>', escaped)


def keep_capitals(text: object) -> Markup:
    """A Jinja filter: ``text`` escaped, its long words in capitals kept whole.  Markup is
    passed through as it is (its words may be inside tags)."""
    if isinstance(text, Markup):
        return text
    return Markup(mark_capitals(str(escape(text))))
