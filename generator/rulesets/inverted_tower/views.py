"""Printable tables of The Inverted Tower, built from the typed data (never retyped).

A value a ruling decides prints its as-written reading, followed by the Alt reading and the
ruling ID, e.g. ``1 (IT-25 Alt: 2)``; the ``ruling-values`` table lists them all.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import StrEnum
from typing import TypeVar

from generator.model.common import Profile
from generator.model.views import TableView, chosen_reading, faces, signed
from generator.rulesets.inverted_tower.data import InvertedTower
from generator.rulesets.inverted_tower.entities import (
    EffectKind,
    EliteCount,
    EventKind,
    Item,
    Term,
    Varies,
)

T = TypeVar("T")

# Printed words for the structured kinds. Keyed by class name too: members of different
# StrEnums with the same value compare equal.
_LABELS: dict[tuple[str, str], str] = {
    ("CritBasis", "natural"): "the natural die",
    ("CritBasis", "total"): "the die plus daggers",
    ("ItemUse", "spent"): "discarded",
    ("ItemUse", "kept"): "kept",
    ("RepeatRule", "encounter"): "an encounter",
    ("RepeatRule", "reroll"): "a new event roll",
    ("EliteCount", "one"): "one monster",
    ("EliteCount", "all"): "every monster",
    ("AttributeChoice", "roll"): "each roll",
    ("AttributeChoice", "fight"): "each fight",
    ("MustBeat", "on_stairs"): "only when it guards the stairs",
    ("MustBeat", "always"): "always",
    ("TreasureAfter", "encounter_won"): "a won encounter",
    ("TreasureAfter", "trap_passed"): "a passed trap",
    ("WanderingChecks", "per_move"): "one per move back",
    ("WanderingChecks", "per_room"): "one per room walked through",
    ("Trade", "sells"): "sells to you",
    ("Trade", "buys"): "buys from you",
    ("XpCounting", "reset"): "starts again at each level",
    ("XpCounting", "total"): "one running total",
}


def show(value: object) -> str:
    """A value as printed: words for kinds, yes/no for flags, lists joined."""
    if isinstance(value, StrEnum):
        return _LABELS.get((type(value).__name__, value.value), value.value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, tuple):
        return _listing([show(v) for v in value])
    return str(value)


def vary(printed: Profile | None, value: Varies[T], show: Callable[[T], str] = show) -> str:
    """The as-written value, with the Alt reading beside it when a ruling changes it; for
    a chosen profile (cards), its own reading marked with the ruling."""
    if value.fixed or value.alt == value.faithful:
        return show(value.faithful)
    alt = chosen_reading(printed, value.ruling)
    if alt is not None:
        return f"{show(value.alt if alt else value.faithful)}\u00a0({value.ruling})"
    return f"{show(value.faithful)} ({value.ruling} Alt: {show(value.alt)})"


def stack_text(item: Item, quantity: int) -> str:
    if item.abbreviation:
        return f"{quantity} {item.abbreviation}"
    return f"{quantity} {item.name if quantity == 1 else item.plural}"


def formula(terms: Sequence[Term]) -> str:
    parts = ["die"]
    for term in terms:
        sign = "+" if term.sign > 0 else "\u2212"
        parts.append(f"{sign} {term.text}")
    return " ".join(parts)


def _trap_floor(subtract: bool) -> str:
    return "minus the floor" if subtract else "without the floor"


def _dead_end_room(lair: bool) -> str:
    return "the boss's lair" if lair else "what it rolls"


def _floors(count: int) -> str:
    return "endless" if count == 0 else str(count)


def _listing(names: Sequence[str]) -> str:
    if len(names) <= 1:
        return "".join(names) or "none"
    return ", ".join(names[:-1]) + " and " + names[-1]


def build_tables(data: InvertedTower, printed: Profile | None) -> dict[str, TableView]:
    """Every table and entity list of the ruleset, by the name prose embeds it with, for
    a rulebook (``printed`` None) or a card deck printed for one profile."""
    views = [
        *_roll_views(data, printed),
        *_character_views(data, printed),
        *_room_views(data, printed),
        *_fight_views(data, printed),
        *_growth_views(data, printed),
        _ruling_values(data),
    ]
    return {view.name: view for view in views}


def _roll_views(data: InvertedTower, printed: Profile | None) -> list[TableView]:
    r = data.rolls
    kinds: list[tuple[str, ...]] = [
        (r.lookup.code, r.lookup.name, "a row of a table", r.lookup.text)
    ]
    for check in r.checks:
        kinds.append((check.code, check.name, f"passes on {faces(check.target, r.faces)}",
                      check.text))
    options = " / ".join(
        f"{faces(row.low, row.high)}: {row.value.name}" for row in r.split.table.rows
    )
    kinds.append((r.split.code, r.split.name, options, r.split.text))
    basis = vary(printed, r.crits.applies_to)
    return [
        TableView("roll-kinds", "The rolls", ("Roll", "Name", "Result", "What it is for"),
                  tuple(kinds), note=f"Every roll is one d{r.faces}."),
        TableView(
            "split-roll", f"{r.split.name} ({r.split.code})", ("Roll", "Option"),
            tuple((faces(row.low, row.high), f"the {row.value.name} option")
                  for row in r.split.table.rows),
            roll_column=True, die=f"d{r.faces}",
        ),
        TableView(
            "critical-rolls", "Critical results", ("Natural die", "Result"),
            (
                (str(r.crits.success), "always a success"),
                (str(r.crits.failure), "always a failure"),
            ),
            # IT-08: only the critical success can read the daggers; a natural 1 still fails.
            note=f"{r.crits.text} The critical {r.crits.success} reads {basis}.",
            roll_column=True,
            die=f"d{r.faces}",
        ),
    ]


def _character_views(data: InvertedTower, printed: Profile | None) -> list[TableView]:
    c = data.character
    s = c.start
    gold = data.currency
    codes = _listing([a.code for a in c.attributes])
    start_rows = (
        ("Max HP", str(s.max_hp)),
        ("HP", str(s.max_hp)),
        ("Level", vary(printed, s.level)),
        ("XP", str(s.xp)),
        ("Gold", stack_text(gold, s.gold)),
        ("Attributes", f"{s.attribute_points} in one of {codes}; the others {s.attribute_value}"),
    )
    kit = tuple((data.item(k.item).name, str(k.quantity), data.item(k.item).text) for k in c.kit)
    item_rows = []
    for item in data.items:
        bonus = signed(item.effect.amount) if item.effect.kind is EffectKind.COMBAT_BONUS else ""
        after = "" if item.effect.kind is EffectKind.CURRENCY else vary(printed, item.effect.use)
        item_rows.append((item.name, bonus, item.text, after))
    return [
        TableView("attributes", "Attributes", ("Attribute", "Name", "Description"),
                  tuple((a.code, a.name, a.text) for a in c.attributes)),
        TableView("starting-character", "A new character", ("Statistic", "At the start"),
                  start_rows),
        TableView("starting-kit", "Starting kit", ("Item", "Quantity", "Effect"), kit),
        TableView("items", "Items", ("Item", "Bonus", "What it does", "After use"),
                  tuple(item_rows)),
    ]


def _room_views(data: InvertedTower, printed: Profile | None) -> list[TableView]:
    ev, tr, fl = data.events, data.traps, data.floor
    names = {row.value.kind: row.value.name for row in ev.table.rows}
    once = vary(printed, ev.once_per_floor,
                lambda kinds: _listing([names.get(k, k.value) for k in kinds]))
    fail = tr.fail_damage
    floors = vary(printed, fl.win_floor, _floors)
    return [
        TableView(
            "events", "Events", ("Roll", "Event", "What happens"),
            tuple((faces(r.low, r.high), r.value.name, r.value.text) for r in ev.table.rows),
            note=f"At most one per floor: {once}.", roll_column=True, die=f"d{data.rolls.faces}",
        ),
        TableView(
            "traps", "Traps", ("Roll", "Trap", "Attribute", "Description"),
            tuple((faces(r.low, r.high), r.value.name, r.value.attribute, r.value.text)
                  for r in tr.table.rows),
            note=f"Check: {tr.check} + the trap's attribute, "
                 f"{vary(printed, tr.subtract_floor, _trap_floor)}. "
                 f"On a failure: {signed(-fail)} HP. "
                 f"{tr.fail_text}",
            roll_column=True, die=tr.roll,
        ),
        TableView(
            "floor", "A floor", ("Rule", "Value"),
            (
                ("The first floor is number", str(fl.first_floor)),
                ("New-room check (a pass is an event, a fail an encounter)", ev.room_check),
                ("Rooms on a floor, at most", str(fl.max_rooms)),
                (f"Room {fl.max_rooms} with no stairs found yet",
                 "the stairs and the boss's lair" if fl.forced_stairs_lair else "the stairs"),
                ("Dead-end check (each new room once the stairs are known; a pass makes "
                 "it the floor's last room)", fl.dead_end_check),
                ("A dead-end room holds", vary(printed, fl.dead_end_lair, _dead_end_room)),
                ("Wandering-monster check (each move back; a pass is a new encounter)",
                 fl.wandering_check),
                ("Floors in the tower", floors),
            ),
        ),
        TableView(
            "merchant", "The merchant's wares", ("Item", "Price"),
            tuple((data.item(o.item).name, stack_text(data.currency, o.price))
                  for o in data.merchant.stock),
            note=f"The merchant {vary(printed, data.merchant.trade)}.",
        ),
    ]


def _elite_clause(count: EliteCount) -> str:
    """IT-05 as a clause of the elite check's note."""
    return "one of the monsters is elite" if count is EliteCount.ONE else "all of them are elite"


def _fight_views(data: InvertedTower, printed: Profile | None) -> list[TableView]:
    en, bo, co = data.encounters, data.bosses, data.combat
    target = data.rolls.check(co.check).target
    monsters = tuple(
        (m.name, vary(printed, m.xp), vary(printed, m.to_hit, formula), m.text)
        for m in data.monsters
    )
    treasure = tuple((faces(r.low, r.high), stack_text(data.item(r.value.item), r.value.quantity))
                     for r in data.treasure.table.rows)
    after = vary(printed, data.treasure.after)
    return [
        TableView(
            "monster-count", "Number of monsters", ("Roll", "Monsters"),
            tuple((faces(r.low, r.high), str(r.value)) for r in en.count.rows),
            note=f"Elite check: {vary(printed, en.elite_check)}; when it passes, "
                 f"{vary(printed, en.elites, _elite_clause)}.",
            roll_column=True, die=en.count_roll,
        ),
        TableView(
            "monsters", "Monsters", ("Monster", "XP", "Combat roll", "Description"), monsters,
            note=f"Each combat roll is a {co.check}: it hits when the total reaches {target}. "
                 f"A hit kills the monster; a miss costs {co.fail_damage} HP.",
        ),
        TableView("treasure", "Treasure", ("Roll", "Treasure"), treasure,
                  note=f"Rolled after {after}.", roll_column=True,
                  die=f"d{data.rolls.faces}"),
        TableView(
            "boss-minions", "Boss minions", (f"{bo.minion_check} result", "Minions"),
            (("pass", str(bo.minions_on_pass)), ("fail", str(bo.minions_on_fail))),
        ),
        TableView(
            "boss-loot", "Boss loot", ("Item", "Quantity"),
            tuple((data.item(s.item).name, str(s.quantity)) for s in bo.loot),
            note=f"Extra treasure rolls in the lair: {vary(printed, bo.lair_treasure_rolls)}.",
        ),
    ]


def _growth_views(data: InvertedTower, printed: Profile | None) -> list[TableView]:
    lv = data.leveling
    first = data.character.start.level.faithful
    rows: list[tuple[str, str, str]] = []
    total = 0
    for level in range(first, first + lv.ladder_rows):
        total += lv.cost(level)
        rows.append((str(level), str(lv.cost(level)), str(total)))
    return [
        TableView("level-ladder", "Experience ladder",
                  ("Level", "XP to the next level", "Total XP earned"), tuple(rows),
                  note=f"XP {vary(printed, lv.counting)}."),
        TableView(
            "level-up", "Gaining a level", ("Gain", "Amount"),
            (
                ("Max HP", signed(lv.max_hp_gain)),
                ("HP", vary(printed, lv.hp_gain, signed)),
                ("Attribute points", signed(lv.attribute_points)),
            ),
        ),
    ]


def _ruling_values(data: InvertedTower) -> TableView:
    """Every value a ruling changes, with both readings."""
    def row(label: str, value: Varies[T], text: Callable[[T], str] = show) -> tuple[str, ...]:
        return (value.ruling, label, text(value.faithful), text(value.alt))

    kinds = {row.value.kind: row.value.name for row in data.events.table.rows}

    def names(found: Sequence[EventKind]) -> str:
        return _listing([kinds.get(k, k.value) for k in found])

    rows = [
        row(f"The critical {data.rolls.crits.success} reads", data.rolls.crits.applies_to),
        row("Starting level", data.character.start.level),
        row("Event kinds once per floor", data.events.once_per_floor, names),
        row("A repeated event kind becomes", data.events.on_repeat),
        row("Trap check subtracts the floor", data.traps.subtract_floor),
        row("Elite check", data.encounters.elite_check),
        row("Elites when it passes", data.encounters.elites),
        row("Combat floor offset", data.combat.floor_offset),
        row("Attribute chosen per", data.combat.attribute_choice),
        row("Lair treasure rolls", data.bosses.lair_treasure_rolls),
        row("Boss must be beaten", data.bosses.must_beat),
        row("Treasure after", data.treasure.after),
        row("Dead-end room holds the lair", data.floor.dead_end_lair),
        row("Wandering encounters give treasure", data.floor.wandering_treasure),
        row("Wandering checks", data.floor.wandering_checks),
        row("Floors in the tower", data.floor.win_floor, _floors),
        row("Merchant", data.merchant.trade),
        row("XP counting", data.leveling.counting),
        row("HP gained on a level", data.leveling.hp_gain),
    ]
    for item in data.items:
        rows.append(row(f"{item.name} after use", item.effect.use))
    for monster in data.monsters:
        rows.append(row(f"{monster.name} XP", monster.xp))
        if not monster.fights_as:
            rows.append(row(f"{monster.name} combat roll", monster.to_hit, formula))
    varying = sorted((r for r in rows if r[0] and r[2] != r[3]), key=lambda r: (r[0], r[1]))
    return TableView("ruling-values", "Values the rulings change",
                     ("Ruling", "Value", "As written", "Alt"), tuple(varying))
