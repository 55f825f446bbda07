"""Printable tables of 3 Dice Dungeon (modified), built from the typed model.

Every cell comes from the loaded objects (never retyped), so the rulebook can only print
what the engine plays.  Names are kebab-case; prose embeds them with ``{{ table: NAME }}``.
"""

from __future__ import annotations

from generator.model.common import Profile
from generator.model.dice import DiceTable
from generator.model.views import TableView, both_readings, chosen_reading, faces, reading, signed
from generator.rulesets.three_dice_dungeon.data import ThreeDiceDungeon
from generator.rulesets.three_dice_dungeon.effects import Item
from generator.rulesets.three_dice_dungeon.entities import (
    Gain,
    LevelTable,
    LocationKind,
    Loot,
    Monster,
    Reward,
)
from generator.rulesets.three_dice_dungeon.parameters import TrainingWheel

_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth")


def _ordinal(n: int) -> str:
    return _ORDINALS[n - 1] if 1 <= n <= len(_ORDINALS) else f"#{n}"


def _faces_list(values: tuple[int, ...]) -> str:
    text = [str(v) for v in values]
    return text[0] if len(text) == 1 else ", ".join(text[:-1]) + " or " + text[-1]


def _use(item: Item) -> str:
    parts = ["single use" if item.single_use else "lasting"]
    if item.stacks:
        parts.append("copies add up")
    return ", ".join(parts)


def _text(printed: Profile | None, item: Item) -> str:
    """An item's effect as printed: the profile's reading on a card (see _alt_notes)."""
    if item.alt is None:
        return item.text
    return reading(printed, item.alt.ruling, item.text, item.alt.text)


def _alt_notes(printed: Profile | None, items: list[Item]) -> str:
    return " ".join(
        f"{i.name} under the Alt reading of {i.alt.ruling}: {i.alt.text}"
        for i in items
        if i.alt is not None and both_readings(printed)
    )


def _gain(data: ThreeDiceDungeon, gain: Gain) -> str:
    return gain.item or f"Roll on the {_chart_title(data, gain.chart)}"


def _reward(printed: Profile | None, data: ThreeDiceDungeon, reward: Reward) -> str:
    text = _gain(data, reward.gain)
    if reward.alt is not None:
        text = reading(printed, reward.alt_ruling, text, _gain(data, reward.alt))
    return f"{reward.label}: {text}" if reward.label else text


def _exits(printed: Profile | None, kind: LocationKind) -> str:
    """A location's exit roll: DD-10 decides a corridor's."""
    if kind.exits_alt is None:
        return str(kind.exits)
    return reading(printed, "DD-10", str(kind.exits), str(kind.exits_alt))


def _chart_title(data: ThreeDiceDungeon, chart: str) -> str:
    titles = {"items": "Items chart", "stones": "Stones chart", "artifacts": "Artifacts table"}
    return titles.get(chart, chart)


def _level(printed: Profile | None, data: ThreeDiceDungeon, name: str, level: LevelTable
           ) -> TableView:
    rows: list[tuple[str, ...]] = []
    alts: list[str] = []
    for row in level.rows.rows:
        cell = row.value
        kind = data.location_kinds.get(cell.location)
        # The ruling's mark is on the exits card, to keep this crowded cell short.
        alt_exits = chosen_reading(printed, "DD-10") is True
        where = f"{kind.name} ({kind.exits_for(alt_exits)} exits)" if kind else cell.location
        monster = "Elite monster (roll again)" if cell.elite else cell.monster
        reward = _reward(printed, data, cell.treasure)
        rows.append((faces(row.low, row.high), where, monster, reward))
        alt = cell.treasure.alt
        if alt is not None and both_readings(printed):
            what = alt.item or f"a roll on the {_chart_title(data, alt.chart)}"
            alts.append(
                f"Under the Alt reading of {cell.treasure.alt_ruling}, "
                f"{cell.treasure.label or 'this treasure'} is {what} instead."
            )
    return TableView(
        name=name,
        title=f"{level.title}: location, monster and treasure",
        columns=("d6", "Location", "Monster", "Treasure"),
        rows=tuple(rows),
        note="Roll three dice, one for each column. " + " ".join(alts),
        roll_column=True,
        die="d6",
    )


def _chart(printed: Profile | None, name: str, title: str, column: str, table: DiceTable[Item]
           ) -> TableView:
    items = [r.value for r in table.rows]
    return TableView(
        name=name,
        title=title,
        columns=("d6", column, "Effect", "Use"),
        rows=tuple(
            (faces(r.low, r.high), r.value.name, _text(printed, r.value), _use(r.value))
            for r in table.rows
        ),
        note=_alt_notes(printed, items),
        roll_column=True,
        die="d6",
    )


def _loot_items(data: ThreeDiceDungeon, loot: Loot) -> str:
    chart = [f"a roll on the {_chart_title(data, loot.chart)}"] if loot.chart else []
    return ", ".join([*loot.items, *chart])


def _loot(printed: Profile | None, data: ThreeDiceDungeon, monster: Monster) -> str:
    """A monster's loot; DD-33 decides the Dragons' Special."""
    loot = monster.loot
    parts = [f"+{loot.coins} coin{'s' if loot.coins != 1 else ''}"] if loot.coins else []
    items = _loot_items(data, loot)
    if loot.alt is not None:
        items = reading(printed, loot.alt_ruling, items, _loot_items(data, loot.alt))
    if items:
        parts.append(f"{loot.label} ({items})" if loot.label else items)
    return ", ".join(parts)


def _loot_notes(printed: Profile | None, data: ThreeDiceDungeon) -> list[str]:
    return [
        f"Under the Alt reading of {m.loot.alt_ruling}, the {m.name}' "
        f"{m.loot.label or 'loot'} is {_loot_items(data, m.loot.alt)} instead."
        for m in data.monsters
        if m.loot.alt is not None and both_readings(printed)
    ]


def _ability(monster: Monster) -> str:
    costs = sorted({a.mind_cost for a in monster.abilities})
    cost = " or ".join(str(c) for c in costs)
    # DD-08: each ability costs its own Mind on each use.
    each = " of each" if len(monster.abilities) > 1 else ""
    return f"{monster.note.rstrip('.')} ({cost} Mind per use{each})"


def build_tables(data: ThreeDiceDungeon, printed: Profile | None) -> dict[str, TableView]:
    """Every printable table of the ruleset, by name (in the order the rulebook has them)."""
    tables = [
        _attributes(data),
        *_location_tables(data, printed),
        *_treasure_tables(data, printed),
        *_experience_tables(data),
        *_monster_tables(data, printed),
        *_exploring_tables(data, printed),
        _d6_scale(data, printed),
    ]
    return {t.name: t for t in tables}


def _attributes(data: ThreeDiceDungeon) -> TableView:
    """Character creation: the three dice, the attributes they give and the HP."""
    ch = data.character
    return TableView(
        name="attributes",
        title="Attributes",
        columns=("Die", "Attribute", "What it does"),
        rows=tuple(
            (
                _ordinal(a.die),
                a.stat.value if a.name == a.stat.value else f"{a.stat.value} ({a.name})",
                a.text,
            )
            for a in ch.attributes
        ),
        note=(
            f"Roll {ch.dice}; if the total is {ch.reroll_if_total_at_most} or less, roll all "
            f"again. Hit points = {' + '.join(s.value for s in ch.hp_sum_of)}."
        ),
    )


def _location_tables(data: ThreeDiceDungeon, printed: Profile | None) -> list[TableView]:
    """The location kinds (DD-10), the two level tables and the undead's borrowed stats."""
    return [
        TableView(
            name="location-kinds",
            title="Locations and their exits",
            columns=("Location", "Exits", "Notes"),
            rows=tuple(
                (k.name, _exits(printed, k), k.text) for k in data.location_kinds.values()
            ),
            note="The exits include the one you came in by. " + " ".join(
                f"{k.name}: {k.exits_alt} exits under the Alt reading of DD-10."
                for k in data.location_kinds.values()
                if k.exits_alt is not None and both_readings(printed)
            ),
        ),
        _level(printed, data, "main-level", data.main_level),
        _level(printed, data, "undead-level", data.undead_level),
        TableView(
            name="undead-monsters",
            title="Undead monsters",
            columns=("Undead", "Uses the stats of", "HP", "Str/dmg", "Dex/armour", "Mind"),
            rows=tuple(
                (name, base, str(m.hp), str(m.strength), str(m.dexterity), str(m.mind))
                for name, base in data.undead_borrows.items()
                for m in [data.monster(name)]
            ),
        ),
    ]


def _treasure_tables(data: ThreeDiceDungeon, printed: Profile | None) -> list[TableView]:
    """The treasures and the three charts a treasure may send to."""
    return [
        TableView(
            name="treasures",
            title="Treasures",
            columns=("Treasure", "Effect", "Use"),
            rows=tuple((t.name, _text(printed, t), _use(t)) for t in data.treasures),
            note=_alt_notes(printed, list(data.treasures)),
        ),
        TableView(
            name="items-chart",
            title="Items chart",
            columns=("d6", "Item", "Effect", "Use"),
            rows=tuple(
                (faces(r.low, r.high), r.value.item.name, _text(printed, r.value.item),
                 _use(r.value.item))
                if r.value.item is not None
                else (faces(r.low, r.high), "Stone", f"Roll on the "
                      f"{_chart_title(data, r.value.chart)}.", "\u2014")
                for r in data.items.rows
            ),
            roll_column=True,
            die="d6",
        ),
        _chart(printed, "stones", "Stones (all permanent)", "Stone", data.stones),
        _chart(printed, "artifacts", "Artifacts", "Artifact", data.artifacts),
    ]


def _experience_tables(data: ThreeDiceDungeon) -> list[TableView]:
    """The XP ladder and the classes a character may take on the way up."""
    return [
        TableView(
            name="xp-ladder",
            title="Experience levels",
            columns=("Level", "Total XP"),
            rows=tuple(
                (str(level), str(data.experience.threshold(level)))
                for level in range(2, data.experience.listed_max_level + 1)
            ),
            note=(
                f"Every further level needs another {data.experience.step} XP."
            ),
        ),
        TableView(
            name="classes",
            title="Classes",
            columns=("Class", "HP", "STR", "Dex", "Mind", "Power", "Mind cost", "Power effect"),
            rows=tuple(
                (
                    c.name, signed(c.hp), signed(c.strength), signed(c.dexterity),
                    signed(c.mind), c.power.name, c.power.cost_text, c.power.text,
                )
                for c in data.classes
            ),
        ),
    ]


def _monster_tables(data: ThreeDiceDungeon, printed: Profile | None) -> list[TableView]:
    """The monster manual (with the DD-32 spellings, DD-33's loot) and the elite monsters."""
    return [
        TableView(
            name="monster-manual",
            title="Monster manual",
            columns=("Monster", "HP", "Str/dmg", "Dex/armour", "Mind", "Loot", "Ability"),
            rows=tuple(
                (m.name, str(m.hp), str(m.strength), str(m.dexterity), str(m.mind),
                 _loot(printed, data, m), _ability(m))
                for m in data.monsters
            ),
            note=" ".join([
                *(f"{m.name} are spelled {m.seed_name} in the fan text (DD-32)."
                  for m in data.monsters if m.seed_name),
                *_loot_notes(printed, data),
            ]),
        ),
        TableView(
            name="elite-monsters",
            title="Elite monsters",
            columns=("Step", "Rule"),
            rows=(
                ("Base monster", "Roll the monster die again; reroll "
                 f"{_faces_list(data.elite.reroll_faces)}."),
                ("Stats", f"{signed(data.elite.stat_bonus)} to HP, Str, Dex and Mind."),
                ("Experience", f"{data.elite.xp_bonus} bonus XP on top of the location's XP."),
            ),
        ),
    ]


def _wheel(printed: Profile | None, wheel: TrainingWheel) -> str:
    """A training wheel's faces: DD-35 decides whether the elite's face is one of them."""
    faces_text = _faces_list(wheel.reroll)
    if not wheel.alt_ruling:
        return faces_text
    return reading(printed, wheel.alt_ruling, faces_text, _faces_list(wheel.alt_reroll))


def _exploring_tables(data: ThreeDiceDungeon, printed: Profile | None) -> list[TableView]:
    """What is rolled on the way: the training wheels' rerolls and the roaming monsters."""
    alts = [w for w in data.training_wheels if w.alt_ruling and both_readings(printed)]
    alt_note = " ".join(
        f"Under the Alt reading of {w.alt_ruling}, the {_ordinal(w.location)} location "
        f"rerolls {_faces_list(w.alt_reroll)}." for w in alts)
    return [
        TableView(
            name="training-wheels",
            title="Training wheels",
            columns=("Location discovered", "Reroll a monster die of"),
            rows=tuple(
                (_ordinal(w.location), _wheel(printed, w)) for w in data.training_wheels
            ),
            note=" ".join(("Reroll as many times as needed, on the first level only.",
                           alt_note)).strip(),
        ),
        TableView(
            name="roaming-monsters",
            title="Roaming monsters",
            columns=("d6", "Roaming monster"),
            rows=tuple(
                (faces(r.low, r.high), r.value or "None")
                for r in data.exploring.roaming.table.rows
            ),
            note="Roll on entering a location you have visited before.",
            roll_column=True,
            die="d6",
        ),
    ]


def _d6_scale(data: ThreeDiceDungeon, printed: Profile | None) -> TableView:
    """DD-28's d6 scale beside the manual; DD-34 decides its armour."""
    scale = data.d6_scale

    def pips(n: int) -> str:
        return "the monster die" if n == 1 else f"{n} \u00d7 the monster die"

    armour = reading(printed, "DD-34", "manual Dex", pips(scale.alt_armor_per_pip))
    alt_note = (f" Under the Alt reading of DD-34, the armour is "
                f"{pips(scale.alt_armor_per_pip)} too." if both_readings(printed) else "")

    return TableView(
        name="d6-scale",
        title="The d6 scale (profile d6-scale)",
        columns=("Number", "As written", "d6 scale"),
        rows=(
            ("Monster HP", "manual HP", pips(scale.hp_per_pip)),
            ("Monster armour (Dex to beat)", "manual Dex", armour),
            ("Damage of your hits", f"your {data.combat.damage_stat.value} and bonuses",
             str(scale.player_damage)),
            ("Damage of monster hits", "manual Str/dmg", str(scale.monster_damage)),
            ("Monster abilities", "used, paid in Mind",
             "used" if scale.monster_abilities else "not used"),
        ),
        note="Loot and notes still come from the monster manual." + alt_note,
    )
