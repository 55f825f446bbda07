"""Typographic quotes in the HTML of every product.

The rules prose is curled by markdown-it's typographer; the text of tables, cards, sheets
and rulings comes from TOML, where people type straight quotes ("the manual's HP",
'heal up').  Like SmartyPants, this pass curls them in the rendered HTML, in text only: tags
and their attributes (card keys, form field names), styles and code are left as they are.
"""

from __future__ import annotations

import re

# What is never text: comments, whole style, script, code and pre elements, and any tag.
_SKIP = re.compile(
    r"<!--.*?-->|<(style|script|code|pre)\b.*?</\1\s*>|<[^>]*>", re.DOTALL | re.IGNORECASE
)
# Tags that run inside a line of text: a quote right after one continues that line.
_INLINE = re.compile(r"</?(a|abbr|b|em|i|small|span|strong|sub|sup)\b", re.IGNORECASE)
# A straight quote as it reaches the HTML: itself or escaped (Jinja, markdown-it).
_QUOTE = re.compile(r"'|&#39;|&#x27;|\"|&#34;|&quot;")
_DOUBLE = {'"', "&#34;", "&quot;"}
# After these (or at the start of a line of text) a quote opens.
_OPENS_AFTER = set(" \t\n\u00a0([{\u2014\u2013/-\u201c\u2018")


def curl_quotes(html: str) -> str:
    """``html`` with the straight quotes of its text curled: opening after a space, an
    opening bracket or a dash; closing (or an apostrophe, ``’``) everywhere else."""
    out: list[str] = []
    before = " "  # the last character of text, for the quote that follows it
    at = 0
    for skipped in _SKIP.finditer(html):
        text = html[at:skipped.start()]
        out.append(_curl(text, before))
        before = text[-1] if text else before
        if not _INLINE.match(skipped.group(0)):
            before = " "  # a new block, cell or line begins
        out.append(skipped.group(0))
        at = skipped.end()
    out.append(_curl(html[at:], before))
    return "".join(out)


def _curl(text: str, before: str) -> str:
    def replace(m: re.Match[str]) -> str:
        previous = text[m.start() - 1] if m.start() else before
        opening = previous in _OPENS_AFTER
        if m.group(0) in _DOUBLE:
            return "\u201c" if opening else "\u201d"
        return "\u2018" if opening else "\u2019"

    return _QUOTE.sub(replace, text)
