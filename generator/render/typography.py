"""The last typographic touches to the HTML of every product, in its text only.

The rules prose is curled by markdown-it's typographer; the text of tables, cards, sheets
and rulings comes from TOML, where people type straight quotes ("the manual's HP",
'heal up') and hyphens for minus signs ("-1").  Like SmartyPants, this pass curls the
quotes in the rendered HTML, sets a minus sign (U+2212) for such a hyphen, and it ties a
number to the word it counts ("−1 HP", "+1 Crafting DRAW", "5 gp", "(2 exits)"), so that
no line ends on a bare "−1".  Tags and their attributes (card keys, form field names),
styles and code are left as they are.

A no-break space that ends a text right before an inline element ("5 <em>gp</em>" typed
with one) moves inside the element: WeasyPrint 70 breaks a line after its *first* word
when such a trailing space is all that does not fit.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from markupsafe import Markup

# What is never text: comments, whole style, script, code and pre elements, and any tag.
# (A title is the PDF's metadata, not printed text.)
_VERBATIM = r"<!--.*?-->|<(style|script|code|pre|title)\b.*?</\1\s*>"
_SKIP = re.compile(_VERBATIM + r"|<[^>]*>", re.DOTALL | re.IGNORECASE)
_VERBATIM_RE = re.compile(_VERBATIM, re.DOTALL | re.IGNORECASE)
# Tags that run inside a line of text: a quote right after one continues that line.
_INLINE = re.compile(r"</?(a|abbr|b|em|i|small|span|strong|sub|sup)\b", re.IGNORECASE)
# A straight quote as it reaches the HTML: itself or escaped (Jinja, markdown-it).
_QUOTE = re.compile(r"'|&#39;|&#x27;|\"|&#34;|&quot;")
_DOUBLE = {'"', "&#34;", "&quot;"}
# After these (or at the start of a line of text) a quote opens.
_OPENS_AFTER = set(" \t\n\u00a0([{\u2014\u2013/-\u201c\u2018")
# A modifier and the word after it ("+1 HP"), or a number and a unit of two letters at
# most ("5 gp", "10 XP"): the space between them does not break.
# So does a count that opens a bracket ("(2 exits)", "(1d3+1 exits)"), and a roll's faces
# before a colon ("3\u20134: second"), which name what follows them.
_TIE = re.compile(r"(?<![\w.,])([+\u2212-]\d+|\d+(?= [A-Za-z]{1,2}\b)"
                  r"|(?<=\()\d+(?:d\d+)?(?:\+\d+)?|\d+[\u2013-]\u2060?\d+:) (?=\w)")
# A hyphen typed as a minus: before a digit, at the start of a word ("take -1", "reach
# -5", "+1/-1"); not in a range ("1-3") nor in an ID ("IT-08"), where a letter or a digit
# comes first.
_MINUS = re.compile(r"-(?=\d)")
_NOT_BEFORE_MINUS = re.compile(r"[\w.,)\]%]")  # "1-3", "IT-08", "50%-75%": a hyphen
# A no-break space, then the opening tags of inline elements.
_NBSP_BEFORE_INLINE = re.compile(
    r"(?:\u00a0|&nbsp;|&#160;)((?:<(?:a|abbr|b|em|i|small|span|strong|sub|sup)\b[^>]*>)+)",
    re.IGNORECASE,
)


# A sentence's last word this short ("+1.", "Mind.") left alone on the last line of a card's
# text or of a centred cover reads as a stray: it is tied to the word before it, unless that
# one is long (tied, the two could be too wide for a narrow card's line).
_RUNT = re.compile(r"(?<!\S)(\S{1,12}) (\S{1,6})$")


# A title's last word of three characters at most, after a word of six at most ("tier 1",
# "or axe"): longer pairs, in a title's large type, may not fit a small card's line at all.
_TITLE_RUNT = re.compile(r"(?<!\S)(\S{1,6}) (\S{1,3})$")


def _tie_last(pattern: re.Pattern[str], text: object) -> object:
    """Plain ``text`` with the no-break space ``pattern`` asks for before its last word
    (Markup is passed through: it may end in a tag)."""
    if isinstance(text, Markup) or not isinstance(text, str):
        return text
    return pattern.sub("\\1\u00a0\\2", text.rstrip())


def tie_runt(text: object) -> object:
    """A Jinja filter: ``text`` with its last word tied to the one before when that word is
    six characters or fewer."""
    return _tie_last(_RUNT, text)


def tie_title(text: object) -> object:
    """A Jinja filter: a title with a short last word tied to the short one before."""
    return _tie_last(_TITLE_RUNT, text)


# A web or e-mail address in running text ("rodrigofranco.com"): hyphenated, it reads as
# another address, so it is set in a span.web that the house styles never hyphenate.
_WEB = re.compile(r"(?<![\w.@/-])((?:https?://|[\w.+-]+@)?(?:[a-z0-9][a-z0-9-]*\.)+"
                  r"(?:com|org|net|io|info|dev)(?:/[^\s<]*[^\s<.,;:)!?])?)(?![\w-])",
                  re.IGNORECASE)


def typeset(html: str) -> str:
    """``html`` with the straight quotes of its text curled (opening after a space, an
    opening bracket or a dash; closing, or an apostrophe ``’``, everywhere else), a minus
    sign for a hyphen typed as one, its numbers tied to the words they count, and its web
    addresses kept whole; a no-break space before an inline element is moved into it."""
    html = _text_only(html, lambda text, before: _WEB.sub(
        r'<span class="web">\1</span>', _TIE.sub("\\1\u00a0", _minus(_curl(text, before), before))))
    out, at = [], 0
    for verbatim in _VERBATIM_RE.finditer(html):
        out += [_NBSP_BEFORE_INLINE.sub("\\1\u00a0", html[at:verbatim.start()]), verbatim[0]]
        at = verbatim.end()
    out.append(_NBSP_BEFORE_INLINE.sub("\\1\u00a0", html[at:]))
    return "".join(out)


def _text_only(html: str, change: Callable[[str, str], str]) -> str:
    """``html`` with ``change(text, before)`` applied to each run of its text, ``before``
    being the character the text follows (a space where a block, cell or line begins)."""
    out: list[str] = []
    before = " "  # the last character of text, for the quote that follows it
    at = 0
    for skipped in _SKIP.finditer(html):
        text = html[at:skipped.start()]
        out.append(change(text, before))
        before = text[-1] if text else before
        if not _INLINE.match(skipped.group(0)):
            before = " "  # a new block, cell or line begins
        out.append(skipped.group(0))
        at = skipped.end()
    out.append(change(html[at:], before))
    return "".join(out)


def _minus(text: str, before: str) -> str:
    """``text`` with a minus sign for each hyphen typed as one; ``before`` is the character
    the text follows, across an inline tag ("<b>1</b>-3" is a range)."""
    def replace(m: re.Match[str]) -> str:
        previous = text[m.start() - 1] if m.start() else before
        return m.group(0) if _NOT_BEFORE_MINUS.match(previous) else "\u2212"

    return _MINUS.sub(replace, text)


def _curl(text: str, before: str) -> str:
    def replace(m: re.Match[str]) -> str:
        previous = text[m.start() - 1] if m.start() else before
        opening = previous in _OPENS_AFTER
        if m.group(0) in _DOUBLE:
            return "\u201c" if opening else "\u201d"
        return "\u2018" if opening else "\u2019"

    return _QUOTE.sub(replace, text)
