"""Card decks: what each ruleset's decks hold, compared with the model's own objects."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from generator.errors import ContentError
from generator.model.common import Profile, Reading
from generator.model.decks import Card
from generator.model.loader import Content, Ruleset
from generator.rulesets import load_content
from tests.content import edit

DECK_IDS = {
    "tower-of-choices": ["skills", "challenges", "abilities", "items"],
    "three-dice-dungeon": ["monsters", "items", "stones", "artifacts", "classes", "reference"],
    "inverted-tower": ["reference", "items"],
}


def titles(
    content: Content, ruleset_id: str, deck_id: str, profile: str | None = None
) -> list[str]:
    ruleset = content.ruleset(ruleset_id)
    return [c.title for c in ruleset.cards(ruleset.decks[deck_id], ruleset.profile(profile))]


def test_deck_ids(content: Content) -> None:
    for ruleset_id, ids in DECK_IDS.items():
        assert list(content.ruleset(ruleset_id).decks) == ids


def test_tower_of_choices_cards_are_the_model(content: Content) -> None:
    data = content.ruleset("tower-of-choices").data
    assert titles(content, "tower-of-choices", "skills") == list(data.skill_names)
    assert titles(content, "tower-of-choices", "abilities") == [a.name for a in data.abilities]
    assert titles(content, "tower-of-choices", "items") == [i.name for i in data.items]
    assert set(titles(content, "tower-of-choices", "challenges")) == {data.checks.challenge_label}
    ruleset = content.ruleset("tower-of-choices")
    skill_cards = ruleset.cards(ruleset.decks["skills"], ruleset.profile())
    for card, skill in zip(skill_cards, data.skills, strict=True):
        assert skill.covers in [text for _, text in card.fields]
    items = ruleset.cards(ruleset.decks["items"], ruleset.profile())
    for card, item in zip(items, data.items, strict=True):
        assert ("Cost", str(item.cost)) in card.stats


def test_three_dice_dungeon_monsters_with_the_undead(content: Content) -> None:
    data = content.ruleset("three-dice-dungeon").data
    names = titles(content, "three-dice-dungeon", "monsters")
    assert names == [m.name for m in data.monsters] + list(data.undead_borrows)
    ruleset = content.ruleset("three-dice-dungeon")
    for card in ruleset.cards(ruleset.decks["monsters"], ruleset.profile()):
        monster = data.monster(card.title)
        assert dict(card.stats) == {"HP": str(monster.hp), "Str/dmg": str(monster.strength),
                                    "Dex/armour": str(monster.dexterity), "Mind": str(monster.mind)}
    # The d6-scale profile prints the scale's stats, not the manual's.
    scaled = ruleset.cards(ruleset.decks["monsters"], ruleset.profile("d6-scale"))
    assert all(dict(c.stats)["HP"] != str(data.monster(c.title).hp) for c in scaled)
    items = titles(content, "three-dice-dungeon", "items")
    charted = [e.item.name for e in data.items.lookup_table() if e.item is not None]
    assert set(items) == set(charted) | {t.name for t in data.treasures}
    # One deck, one back, and each card's band says which it is: a treasure was "Items".
    items_deck = ruleset.cards(ruleset.decks["items"], ruleset.profile())
    bands = {c.title: c.deck_title for c in items_deck}
    assert {bands[t.name] for t in data.treasures} == {"Treasures"}
    assert {bands[name] for name in charted} == {"Items"}
    stones = [r.value.name for r in data.stones.rows]
    assert titles(content, "three-dice-dungeon", "stones") == stones
    assert titles(content, "three-dice-dungeon", "artifacts") == [
        r.value.name for r in data.artifacts.rows]
    assert titles(content, "three-dice-dungeon", "classes") == [c.name for c in data.classes]


def test_inverted_tower_reference_and_items(content: Content) -> None:
    ruleset = content.ruleset("inverted-tower")
    cards: list[Card] = list(ruleset.cards(ruleset.decks["reference"], ruleset.profile()))
    shown = {t.name for c in cards for t in c.tables}
    assert {"roll-kinds", "events", "treasure", "monsters", "monster-count", "boss-minions",
            "boss-loot", "level-ladder", "level-up"} <= shown
    items = set(titles(content, "inverted-tower", "items"))
    assert items == {ruleset.data.item("dagger").name, ruleset.data.item("potion").name}


def test_cards_print_their_profiles_readings_only(content: Content) -> None:
    """A deck is played by one profile: its tables give that profile's reading of each
    ruling, marked with the ID, and not the other (the rulebook's tables give both)."""
    ruleset = content.ruleset("inverted-tower")
    data = ruleset.data

    def text(profile: str) -> str:
        cards = [c for deck in ("reference", "items")
                 for c in ruleset.cards(ruleset.decks[deck], ruleset.profile(profile))]
        cells = [cell for c in cards for t in c.tables for row in t.rows for cell in row]
        notes = [t.note for c in cards for t in c.tables]
        fields = [field for c in cards for _, field in c.fields]
        return "\n".join(cells + notes + fields).replace("\u00a0", " ")  # before a mark

    faithful, draft = text("as-written"), text("draft-4.5")
    assert "Alt" not in faithful and "Alt" not in draft
    for id_ in ("IT-04", "IT-09", "IT-25"):
        assert f"({id_})" in faithful and f"({id_})" in draft
    elite = data.encounters.elite_check
    assert f"Elite check: {elite.faithful} (IT-04)" in faithful
    assert f"Elite check: {elite.alt} (IT-04)" in draft
    assert ruleset.profile("draft-4.5").alt("IT-04") and elite.alt != elite.faithful
    # The rulebook's views, built outside a deck, still give both readings.
    rulebook = "\n".join(t.note for t in ruleset.tables().values())
    assert f"{elite.faithful} (IT-04 Alt: {elite.alt})" in rulebook


def _all_alt(ruleset: Ruleset) -> Profile:
    """The default profile with the Alt reading of every ruling that has one."""
    base = ruleset.profile()
    readings: dict[str, Reading] = {r.id: "alt" if r.alt else "faithful" for r in ruleset.rulings}
    return replace(base, id="all-alt", readings=readings)


def _deck_text(ruleset: Ruleset, profile: Profile) -> str:
    cards = [c for deck in ruleset.decks.values() for c in ruleset.cards(deck, profile)]
    cells = [cell for c in cards for t in c.tables for row in t.rows for cell in row]
    notes = [t.note for c in cards for t in c.tables]
    fields = [text for c in cards for _, text in (*c.stats, *c.fields)]
    return "\n".join(cells + notes + fields).replace("\u00a0", " ")  # before a mark


def _marked(text: str, ruling: str) -> str:
    """A sentence with its ruling's mark before the full stop: "... Mind (DD-18)."."""
    return f"{text[:-1]} ({ruling})." if text.endswith(".") else f"{text} ({ruling})"


def test_three_dice_dungeon_cards_follow_the_profile(content: Content) -> None:
    """Item effects, corridor exits and level treasures that a ruling decides print the
    profile's reading with its ID; the rulebook's note with the other reading is gone."""
    ruleset = content.ruleset("three-dice-dungeon")
    data = ruleset.data
    faithful, alt = _deck_text(ruleset, ruleset.profile()), _deck_text(ruleset, _all_alt(ruleset))
    assert "Alt" not in faithful and "Alt" not in alt
    varying = [i for i in (*data.treasures, *(r.value for r in data.stones.rows),
                           *(r.value for r in data.artifacts.rows)) if i.alt is not None]
    assert len(varying) >= 4
    for item in varying:
        assert _marked(item.text, item.alt.ruling) in faithful
        assert _marked(item.alt.text, item.alt.ruling) in alt
        assert item.alt.text.rstrip(".") not in faithful
    corridor = next(k for k in data.location_kinds.values() if k.exits_alt is not None)
    assert f"{corridor.exits} (DD-10)" in faithful and f"{corridor.exits_alt} (DD-10)" in alt
    assert f"{corridor.name} ({corridor.exits_alt} exits)" in alt
    assert f"{corridor.name} ({corridor.exits_alt} exits)" not in faithful
    for level in (data.main_level, data.undead_level):
        reward = next(r.value.treasure for r in level.rows.rows if r.value.treasure.alt)
        assert f"({reward.alt_ruling})" in faithful and f"({reward.alt_ruling})" in alt
    # The rulebook still gives both readings.
    rulebook = "\n".join(t.note for t in ruleset.tables().values())
    assert all(f"Alt reading of {i.alt.ruling}" in rulebook for i in varying)


def test_tower_of_choices_cards_follow_the_profile(content: Content) -> None:
    ruleset = content.ruleset("tower-of-choices")
    label = ruleset.data.checks.challenge_label
    faithful, gentle = _deck_text(ruleset, ruleset.profile()), _deck_text(
        ruleset, ruleset.profile("gentle"))
    alt = _deck_text(ruleset, _all_alt(ruleset))
    gentle_alt = ruleset.profile("gentle")
    assert all(gentle_alt.alt(r) for r in ("TC-08", "TC-12", "TC-17"))
    # TC-12: DETERMINATION gives up the top card unseen, or one of the player's choice.
    assert "of your draw pile unseen (TC-12)" in faithful
    assert "of your choice from your draw pile (TC-12)" in gentle
    # TC-17: the reference book helps checks on its subject, or every Knowledge check.
    assert "DRAW: only on checks about the book's subject (TC-17); the bonus" in faithful
    assert "DRAW: on every Knowledge check (TC-17); the bonus" in gentle
    # TC-08 on the challenge card, and TC-07, TC-10, TC-11 under their Alt readings.
    assert "with none to copy, remove it from the game (TC-08)" in faithful
    assert f"it stays a {label} card and goes to the discard pile (TC-08)" in gentle
    assert "after a failure, remove it from the game (TC-07)" in alt
    assert "(TC-07)" in faithful and "after a failure" not in faithful
    assert "per rest (TC-10)" in alt and "only when resting (TC-10)" in faithful
    assert "After each successful check" in alt and "(TC-11)" in faithful
    # The rulebook's tables are unchanged: the Faithful text, no ruling marks.
    rulebook = "\n".join(cell for t in ruleset.tables().values()
                          for row in t.rows for cell in row)
    assert "(TC-12)" not in rulebook and "of your draw pile unseen" in rulebook


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('source = "monsters"', 'source = "monstres"', "source: unknown card source 'monstres'"),
        ('stats = ["HP",', 'stats = ["Hit points",', "stats[0]: unknown Monsters field"),
        ('title = "Monsters"', 'titel = "Monsters"', "titel: unknown key"),
    ],
)
def test_bad_deck_files_name_file_and_key(
    content_copy: Path, old: str, new: str, message: str
) -> None:
    edit(content_copy / "three-dice-dungeon/decks/monsters.toml", old, new)
    with pytest.raises(ContentError) as info:
        load_content(content_copy)
    text = "\n".join(str(f) for f in info.value.findings)
    assert "three-dice-dungeon/decks/monsters.toml" in text
    assert message in text


def test_only_names_are_checked(content_copy: Path) -> None:
    edit(content_copy / "inverted-tower/decks/items.toml", '"Potion"]', '"Potions"]')
    with pytest.raises(ContentError, match=r"cards\[1\]\.only\[0\]: unknown Items entry 'Potions'"):
        load_content(content_copy)
