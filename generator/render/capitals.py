"""Words that stay whole.  Game terms in capitals such as TARGET or INDEFATIGABLE read wrong
broken at a hyphen, so they are set in a ``span.caps`` that the house styles never
hyphenate (book.css, cards.css); so do the names in a card's table ("Map Fragment"), which
are set in a ``td.name``."""

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


# A card's table cell of this many words or fewer is a name or a label ("Tome of
# Enlightenment", "single use"), not a sentence: broken at a hyphen it reads as two words.
NAME_WORDS = 3


def is_name(cell: object) -> bool:
    """A Jinja test: ``cell`` is short enough to be a name, set whole."""
    return len(str(cell).split()) <= NAME_WORDS
