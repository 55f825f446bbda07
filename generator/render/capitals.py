"""Words that stay whole.  Game terms in capitals such as TARGET or INDEFATIGABLE read wrong
broken at a hyphen, so they are set in a ``span.caps`` that the house styles never
hyphenate (book.css, cards.css); so do the names in a card's table ("Map Fragment"), which
are set in a ``td.name``, and the short labels in a rulebook's table ("Dice Check"), which
stay on one line in a ``td.label``."""

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


# The mark of the ruling that decides a cell ("Special: Map Fragment (DD-15)") is no word
# of its name.
_MARK = re.compile(r"\s\([A-Z]{2,4}-\d{2,3}\)\.?$")


def is_name(cell: object) -> bool:
    """A Jinja test: ``cell`` is short enough to be a name, set whole."""
    return len(_MARK.sub("", str(cell)).split()) <= NAME_WORDS


# A rulebook's table cell this short is a label ("Dice Check", "Crushing trap"): on one
# line it reads at a glance, and a column of them takes its room from the longest one
# instead of being squeezed by a long sentence beside it.  Longer names may wrap, so that
# a table still fits an A5 page or a quick-reference column.
LABEL_WORDS = 2
LABEL_CHARS = 14


def is_label(cell: object) -> bool:
    """A Jinja test: ``cell`` is a short label, set on one line."""
    text = str(cell)
    return len(text.split()) <= LABEL_WORDS and len(text) <= LABEL_CHARS
