"""3 Dice Dungeon's booklet maps (generator/products/booklet/maps.py), read back as XML from
the SVG they draw for a real booklet's levels: every location with its kind and section,
a door on both sides of each pair of exits that agree, meeting at the shared edge, the
start, the stairs down and the temples; the empty grid's size and coordinates."""

from __future__ import annotations

import copy
import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from generator.model.loader import Content
from generator.products.booklet.maps import (
    FRAME,
    INSETS,
    KINDS,
    MID,
    OPPOSITE,
    SIDES,
    blank_grid,
    level_map,
)
from generator.render.fonts import SANS
from tests.products.booklet.support import booklet

SVG = "{http://www.w3.org/2000/svg}"
Level = Mapping[str, Any]


@pytest.fixture(scope="module")
def levels(content: Content) -> list[dict[str, Any]]:
    """The levels of seed 1234's booklet: 3 levels, the last of them undead (crypts)."""
    found: list[dict[str, Any]] = booklet(content, "three-dice-dungeon", "1234")["levels"]
    return found


def parsed(markup: str) -> ET.Element:
    return ET.fromstring(str(markup))


def the_map(level: Level) -> ET.Element:
    svg = parsed(level_map(level)).find(f"{SVG}svg")
    assert svg is not None
    return svg


def locations(svg: ET.Element) -> dict[str, ET.Element]:
    return {g.attrib["data-label"]: g for g in svg.iter(f"{SVG}g")
            if g.attrib.get("class") == "dd-location"}


def exits_of(location: ET.Element) -> dict[str, ET.Element]:
    return {g.attrib["data-side"]: g for g in location.iter(f"{SVG}g")
            if "dd-exit" in g.attrib.get("class", "").split()}


def classes(element: ET.Element) -> set[str]:
    return {c for e in element.iter() for c in e.attrib.get("class", "").split()}


def neighbours(level: Level) -> Iterator[tuple[Mapping[str, Any], str, Mapping[str, Any]]]:
    """Each cell, a side it has an exit on, and the cell on that side."""
    cells = {(c["x"], c["y"]): c for c in level["cells"]}
    for cell in level["cells"]:
        for side in cell["exits"]:
            dx, dy, _ = SIDES[side]
            there = cells.get((cell["x"] + dx, cell["y"] + dy))
            if there is not None:
                yield cell, side, there


def centre(location: ET.Element) -> tuple[float, float]:
    ox, oy, scale = (float(n) for n in re.findall(r"-?[\d.]+", location.attrib["transform"]))
    return ox + MID * scale, oy + MID * scale


def passage_end(location: ET.Element, exit_group: ET.Element) -> tuple[float, float]:
    """Where an exit's passage ends, in the map's millimetres: the middle of its end, in
    the square's frame turned to the exit's side, then scaled and moved to the square."""
    numbers = [float(n) for n in re.findall(r"-?[\d.]+", location.attrib["transform"])]
    ox, oy, scale = numbers
    path = next(p for p in exit_group.iter(f"{SVG}path"))
    y0 = float(re.findall(r"-?[\d.]+", path.attrib["d"])[1])
    turn = math.radians(SIDES[exit_group.attrib["data-side"]][2])
    x, y = 0.0, y0 - MID  # the end's middle, from the square's centre
    rx, ry = x * math.cos(turn) - y * math.sin(turn), x * math.sin(turn) + y * math.cos(turn)
    return ox + (MID + rx) * scale, oy + (MID + ry) * scale


def test_every_location_is_drawn_with_its_label_kind_and_section(levels: list[Level]) -> None:
    for level in levels:
        drawn = locations(the_map(level))
        assert set(drawn) == {c["label"] for c in level["cells"]}
        for cell in level["cells"]:
            g = drawn[cell["label"]]
            assert g.attrib["data-kind"] == cell["location"]
            assert g.attrib["data-section"] == str(cell["section"])
            title = g.find(f"{SVG}title")
            assert title is not None and cell["location_name"] in str(title.text)
            numbers = [t.text for t in g.iter(f"{SVG}text")
                       if t.attrib.get("class") == "dd-section"]
            assert numbers == [str(cell["section"])]


def drawing(location: ET.Element) -> tuple[object, ...]:
    """What tells a location's kind on the map: its floor (where it starts, its colour),
    its walls' weight, and its symbol (the stairs down aside: they mark a descent)."""
    floor = next(location.iter(f"{SVG}rect"))
    walls = sorted({p.attrib["stroke-width"] for p in location.iter(f"{SVG}path")
                    if p.attrib.get("class") == "dd-wall"})
    symbols = classes(location) & {"dd-temple", "dd-symbol-vault", "dd-symbol-crypt"}
    return floor.attrib["x"], floor.attrib["fill"], tuple(walls), tuple(sorted(symbols))


def test_each_kind_is_drawn_its_own_way(levels: list[Level]) -> None:
    looks: dict[str, set[tuple[object, ...]]] = {}
    for level in levels:
        drawn = locations(the_map(level))
        for cell in level["cells"]:
            looks.setdefault(cell["location"], set()).add(drawing(drawn[cell["label"]]))
    assert set(looks) == set(INSETS) | {"corridor"}  # seed 1234 has every kind
    assert all(len(found) == 1 for found in looks.values()), looks
    assert len({next(iter(found)) for found in looks.values()}) == len(looks)


def test_a_door_on_both_sides_of_each_pair_of_exits_that_agree(levels: list[Level]) -> None:
    pairs = 0
    for level in levels:
        drawn = locations(the_map(level))
        for cell, side, there in neighbours(level):
            assert OPPOSITE[side] in there["exits"], (cell["label"], side)  # the JSON agrees
            here, other = drawn[cell["label"]], drawn[there["label"]]
            mine, theirs = exits_of(here)[side], exits_of(other)[OPPOSITE[side]]
            assert "dd-one-sided" not in classes(mine) | classes(theirs)
            for location, group in ((cell, mine), (there, theirs)):
                is_room = location["location"] in INSETS
                assert ("dd-door" in classes(group)) == is_room, location["label"]
            edge = [(p + q) / 2 for p, q in zip(centre(here), centre(other), strict=True)]
            for end in (passage_end(here, mine), passage_end(other, theirs)):
                assert math.dist(end, edge) < 0.1, (cell["label"], side, end, edge)
            pairs += 1
    assert pairs >= 2 * 40  # each pair seen from both sides


def test_a_location_has_exactly_its_exits(levels: list[Level]) -> None:
    for level in levels:
        drawn = locations(the_map(level))
        for cell in level["cells"]:
            assert sorted(exits_of(drawn[cell["label"]])) == sorted(cell["exits"])


def test_the_start_the_stairs_down_and_the_temples_are_marked(levels: list[Level]) -> None:
    for level in levels:
        svg = the_map(level)
        drawn = locations(svg)
        by_pos = {(c["x"], c["y"]): c["label"] for c in level["cells"]}
        start = by_pos[tuple(level["start"])]
        assert [g.attrib["data-label"] for g in drawn.values()
                if "dd-start" in classes(g)] == [start]
        assert drawn[start].attrib.get("data-start") == "true"
        assert len([e for e in svg.iter() if e.attrib.get("class") == "dd-start"]) == 1
        descents = {by_pos[tuple(p)] for p in level["descents"]}
        assert descents and {label for label, g in drawn.items()
                             if "dd-stairs" in classes(g)} == descents
        temples = {by_pos[tuple(p)] for p in level["temples"]}
        assert {label for label, g in drawn.items() if "dd-temple" in classes(g)} >= (
            temples - descents)


def test_the_coordinates_are_the_labels(levels: list[Level]) -> None:
    level = levels[0]
    texts = [t.text for t in the_map(level).iter(f"{SVG}text")
             if t.attrib.get("class") != "dd-section"]
    assert texts == [*"ABCDEFG", *"1234567"]
    for cell in level["cells"]:
        assert cell["label"] == "ABCDEFG"[cell["x"]] + str(cell["y"] + 1)


def test_the_key_names_what_the_level_has(levels: list[Level]) -> None:
    for level in levels:
        key = parsed(level_map(level)).find("ul")
        assert key is not None
        words = [" ".join(li.itertext()).strip() for li in key.findall("li")]
        names = {c["location"]: c["location_name"] for c in level["cells"]}
        in_order = [names[kind] for kind in KINDS if kind in names]
        assert words[:len(in_order)] == in_order  # each kind once, in the key's order
        assert any(w.startswith("Start") for w in words)
        assert "Stairs down" in words
    crypts = [lv for lv in levels if any(c["location"] == "crypt" for c in lv["cells"])]
    mains = [lv for lv in levels if lv not in crypts]
    assert crypts and mains
    assert "Crypt" not in "".join(parsed(level_map(mains[0])).find("ul").itertext())  # type: ignore[union-attr]


def test_an_exit_with_none_facing_it_is_closed_and_one_off_the_grid_runs_past_the_frame(
        levels: list[Level]) -> None:
    level = copy.deepcopy(levels[0])
    cell, side, there = next(neighbours(level))
    there["exits"].remove(OPPOSITE[side])
    east = level["grid"]["width"] - 1
    edge = next(c for c in level["cells"] if c["x"] == east and "E" not in c["exits"])
    edge["exits"].append("E")
    svg = the_map(level)
    drawn = locations(svg)
    assert "dd-one-sided" in classes(exits_of(drawn[cell["label"]])[side])
    assert OPPOSITE[side] not in exits_of(drawn[there["label"]])
    x, _ = passage_end(drawn[edge["label"]], exits_of(drawn[edge["label"]])["E"])
    frame = next(e for e in svg.iter() if e.attrib.get("class") == "dd-frame")
    assert x > float(frame.attrib["x"]) + float(frame.attrib["width"]) + 1


def test_the_map_is_black_and_grey_and_set_in_the_booklets_font(levels: list[Level]) -> None:
    markup = str(level_map(levels[2]))
    assert markup == str(level_map(copy.deepcopy(levels[2])))  # the same bytes
    colours = set(re.findall(r'(?:fill|stroke)="([^"]+)"', markup))
    for colour in colours - {"none"}:
        assert re.fullmatch(r"#([0-9a-f])\1\1|#([0-9a-f]{2})\2\2", colour), colour
    assert the_map(levels[2]).attrib["font-family"] == SANS
    assert "weasyprint" not in markup.lower()


def test_the_empty_grid_is_the_maps_grid_with_nothing_in_it(levels: list[Level]) -> None:
    level = levels[0]
    width, height = level["grid"]["width"], level["grid"]["height"]
    grid, full = parsed(blank_grid(width, height)), the_map(level)
    for size in ("width", "height", "viewBox"):
        assert grid.attrib[size] == full.attrib[size]
    assert not [g for g in grid.iter() if g.attrib.get("class") == "dd-location"]
    assert [t.text for t in grid.iter(f"{SVG}text")] == [*"ABCDEFG", *"1234567"]
    boxes = next(p for p in grid.iter(f"{SVG}path") if p.attrib.get("class") == "dd-door-boxes")
    assert boxes.attrib["d"].count("M") == 2 * width * (height - 1)  # one a shared side


def test_an_empty_grid_of_another_size(levels: list[Level]) -> None:
    grid = parsed(blank_grid(10, 4))
    assert [t.text for t in grid.iter(f"{SVG}text")] == [*"ABCDEFGHIJ", *"1234"]
    wide = float(grid.attrib["width"].removesuffix("mm"))
    seven = float(parsed(blank_grid(7, 7)).attrib["width"].removesuffix("mm"))
    assert wide <= seven + 1  # a wider grid has smaller squares, not a wider page
    with pytest.raises(ValueError, match="at least 1 by 1"):
        blank_grid(0, 3)
    assert FRAME == 15.0  # the frame the passage ends above are measured in
