"""Links to a place in the book, by the names a reader sees (generator.products.rulebook.links)."""

from __future__ import annotations

import pytest
from markupsafe import Markup

from generator.errors import RenderError
from generator.products.rulebook.links import APPENDICES, resolve, targets
from generator.render.markdown import Heading, ProseBlock


def _found(appendices: tuple[str, ...] = APPENDICES) -> dict[str, str]:
    return targets(
        chapters=[("A turn", "ch-04-a-turn")],
        headings=[Heading(2, "Events", "04-a-turn--events")],
        tables=["events"],
        rulings=["IT-07"],
        appendices=appendices,
    )


def _lead(href: str, found: dict[str, str]) -> str:
    block = ProseBlock(Markup(f'<a href="#{href}">x</a>'))
    return str(resolve([block], found, "x.md")[0].html)


def test_a_tables_name_comes_before_a_headings() -> None:
    # "#events" is what the README offers for the table: a heading "Events" took it.
    found = _found()
    assert _lead("events", found) == '<a href="#table-events">x</a>'
    assert _lead("04-a-turn--events", found) == '<a href="#04-a-turn--events">x</a>'
    assert _lead("A-Turn", found) == '<a href="#ch-04-a-turn">x</a>'
    assert _lead("IT-07", found) == '<a href="#ruling-IT-07">x</a>'


def test_an_appendix_the_book_does_not_print_leads_nowhere() -> None:
    # A book whose chapters embed every table prints no "Tables" appendix.
    with pytest.raises(RenderError, match="link to '#tables' leads nowhere"):
        _lead("tables", _found())
    assert _lead("tables", _found((*APPENDICES, "tables"))) == '<a href="#tables">x</a>'
