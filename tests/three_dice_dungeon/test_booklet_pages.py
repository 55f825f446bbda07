"""3 Dice Dungeon's own pages of the printed booklet (templates/booklet/three-dice-dungeon.html),
read from the PDF of seed 1234 (rendered once a session): the hero page prints the JSON's hero,
and the answers give an empty grid a level, then one map a level on spreads of their own."""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from typing import Any

import pytest
from pypdf import PdfReader

from generator.model.loader import Content
from generator.products.booklet.html import booklet_html
from generator.products.booklet.pages import booklet_paper
from tests.products.booklet.support import part_pages, printed_files
from tests.renders import Renders

RULESET = "three-dice-dungeon"


@dataclass(frozen=True)
class Printed:
    document: dict[str, Any]  # as laid out (its sections renumbered for these pages)
    pages: list[str]  # the text of each page
    parts: dict[str, int]  # each bookmark's title -> its page, from 1


@pytest.fixture(scope="module")
def seed_1234(renders: Renders) -> Printed:
    """The session's printed 3 Dice Dungeon booklet (tests/products/booklet/support.py)."""
    document, pdf, _ = printed_files(renders, RULESET)
    reader = PdfReader(pdf)
    parts = part_pages(reader)
    return Printed(document, [page.extract_text() for page in reader.pages], parts)


def words(text: str) -> list[str]:
    return re.findall(r"[\w-]+", text)


def hero_page(book: Printed) -> list[str]:
    return words(book.pages[book.parts["Your hero"] - 1])


def test_the_hero_page_prints_the_jsons_hero(seed_1234: Printed) -> None:
    hero = seed_1234.document["character"]
    page = hero_page(seed_1234)
    for code, value in hero["attributes"].items():
        assert code in page
        # Each figure twice: the start of the "now" box and of the "max" box.
        assert page.count(str(value)) >= 2 * list(hero["attributes"].values()).count(value)
    assert page.count(str(hero["hp"])) >= 2
    ladder = seed_1234.document["ladder"]
    assert " ".join(str(row["xp"]) for row in ladder) in " ".join(page)
    for rejected in hero["rejected"]:
        assert str(sum(rejected)) in page
    for level in seed_1234.document["levels"]:
        assert f"Level {level['number']}" in " ".join(page)  # its artifact box (DD-31)
    swaps = seed_1234.document["substitution"]
    assert all(row["table"] in page and row["monster"] in page for row in swaps)


def hero_html(content: Content, document: dict[str, Any]) -> list[str]:
    """The words of the hero page in the booklet's HTML (no layout: a test of what the
    template prints, kept to one PDF a module)."""
    html, _ = booklet_html(document, content.ruleset(RULESET).info, booklet_paper("a5"),
                           json_name="booklet.json", log_pages=1)
    found = re.search(r'<section class="part dd-hero".*?</section>', html, re.DOTALL)
    assert found is not None
    return words(re.sub(r"<[^>]+>", " ", found.group(0)))


def test_the_hero_page_changes_with_the_json(content: Content, seed_1234: Printed) -> None:
    """The page decides nothing: other numbers in the JSON print as they are."""
    changed = copy.deepcopy(seed_1234.document)
    hero = changed["character"]
    hero["attributes"] = {"STR": 13, "Dex": 15, "Mind": 12}
    hero.update(hp=47, xp=123, coins=77, level=3, rejected=[[1, 1, 2]])
    changed["substitution"][0]["monster"] = "Snotlings"
    page = hero_html(content, changed)
    assert page != hero_html(content, seed_1234.document)
    for figure in ("13", "15", "12", "47"):
        assert page.count(figure) == 2, figure
    assert {"123", "77", "3", "4"} <= set(page)  # XP, coins, level, the rejected roll's sum
    assert "Snotlings" in page


def test_an_empty_grid_a_level_before_the_sections_and_a_map_a_level_after(
        seed_1234: Printed) -> None:
    """The player's own grids come before the sections, where no spoiler is passed on the
    way to them; the maps after the warning that starts the answers, overleaf from it."""
    levels = seed_1234.document["levels"]
    parts = seed_1234.parts
    maps = [parts[f"Map of level {level['number']}"] for level in levels]
    grids = [parts[f"Your map: level {level['number']}"] for level in levels]
    assert grids[-1] < parts["The sections"] < parts["The answers"] < maps[0]
    assert grids == list(range(grids[0], grids[0] + len(levels)))  # a page each
    assert maps == list(range(maps[0], maps[0] + len(levels)))
    # The warning is on a right-hand (odd) page, the first map overleaf from it.
    assert parts["The answers"] % 2 == 1 and maps[0] == parts["The answers"] + 1
    for level, page in zip(levels, maps, strict=True):
        found = words(seed_1234.pages[page - 1])
        sections = [str(cell["section"]) for cell in level["cells"]]
        assert all(number in found for number in sections), level["number"]
        assert all(letter in found for letter in "ABCDEFG")
        for cell in level["cells"]:
            assert cell["location_name"] in seed_1234.pages[page - 1]
    for page in grids:
        text = seed_1234.pages[page - 1]
        assert not any(cell["location_name"] in text for cell in levels[0]["cells"])


def roaming_rows(level: dict[str, Any]) -> list[str]:
    """The rows a level's roaming table prints, as words: roll, monster, its numbers."""
    return [f"{row['roll']} {row['monster']['name']} {row['monster']['hp']} "
            f"{row['monster']['armour']} {row['monster']['damage']}"
            for row in level["roaming"]["rows"] if row["comes"]]


def test_each_map_page_prints_its_levels_roaming_table(seed_1234: Printed) -> None:
    """Every location's section says only "your level N map says what comes" (DD-21):
    the table is on that level's page, before the sections, and nowhere in them."""
    parts = seed_1234.parts
    for level in seed_1234.document["levels"]:
        n = level["number"]
        page = " ".join(words(seed_1234.pages[parts[f"Your map: level {n}"] - 1]))
        assert f"the level {n} roaming tape DD-21" in page
        for row in roaming_rows(level):
            assert row in page, (n, row)
        quiet = [row["roll"] for row in level["roaming"]["rows"] if not row["comes"]]
        assert f"{quiet[0]} to {quiet[-1]} Nothing comes" in page
    sections = seed_1234.pages[parts["The sections"] - 1:parts["The tapes"] - 1]
    # What the roaming paragraph of every section used to say: "on a 1, Giants (HP 1, ...)".
    assert not any("nothing comes" in text.lower() or "(HP" in text for text in sections)


def map_page_html(content: Content, document: dict[str, Any], level: int) -> str:
    """The words of level ``level``'s map page in the booklet's HTML (no layout)."""
    html, _ = booklet_html(document, content.ruleset(RULESET).info, booklet_paper("a5"),
                           json_name="booklet.json", log_pages=1)
    found = re.search(rf'<section class="part dd-own" id="dd-grid-{level}">.*?</section>',
                      html, re.DOTALL)
    assert found is not None
    return " ".join(words(re.sub(r"<[^>]+>", " ", found.group(0))))


def test_the_roaming_table_changes_with_the_json(content: Content, seed_1234: Printed
                                                 ) -> None:
    """The page decides nothing: another monster, other numbers and (DD-21 Alt) a monster
    column print as the JSON has them."""
    changed = copy.deepcopy(seed_1234.document)
    roaming = changed["levels"][0]["roaming"]
    first = roaming["rows"][0]["monster"]
    first.update(name="Snotlings", hp=17, armour=4, damage=9,
                 loot={"coins": 3, "items": ["Emerald"], "label": None, "chart": None})
    page = map_page_html(content, changed, 1)
    assert "1 Snotlings 17 4 9 3 coins Emerald" in page
    for other in range(2, len(changed["levels"]) + 1):  # the other levels' pages unchanged
        assert map_page_html(content, changed, other) == \
            map_page_html(content, seed_1234.document, other)
    roaming["column"] = [{"roll": 2, "monster": first}]
    roaming["xp_per_pip"] = 5
    page = map_page_html(content, changed, 1)
    assert "2 Snotlings 17 4 9" in page and "1 Snotlings" not in page
    assert "look its second number up below" in page and "5 XP" in page
