"""What ``validate`` and ``build`` check beyond the model, before a page is laid out: that
the rules prose renders (no raw HTML, no picture from outside), and that the project's
fonts have every character of the content."""

from __future__ import annotations

from generator.errors import ContentError
from generator.findings import Finding
from generator.model.loader import Content
from generator.products.rulebook.html import prose_problems
from generator.render.glyphs import glyph_problems


def render_problems(content: Content) -> list[Finding]:

    found: list[Finding] = []
    for ruleset in content.rulesets.values():
        found += prose_problems(ruleset)
        found += glyph_problems(ruleset, content.root.parent)
    return found


def check_renders(content: Content) -> None:
    """Raises ContentError listing every problem of :func:`render_problems`."""
    problems = render_problems(content)
    if problems:
        raise ContentError(problems)
