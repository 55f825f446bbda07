"""Readers for the tables files of The Inverted Tower, one per file.

Values a ruling decides are written ``{ ruling = "IT-nn", faithful = ..., alt = ... }`` and
read as :class:`~generator.rulesets.inverted_tower.entities.Varies`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from enum import StrEnum
from typing import TypeVar

from generator.model.dice import DiceTable, load_dice_table
from generator.model.schema import UNKNOWN_FACES, Node, check_ref, check_unique
from generator.rulesets.inverted_tower.entities import (
    Attribute,
    AttributeChoice,
    Bosses,
    Character,
    Check,
    Combat,
    CritBasis,
    Crits,
    Effect,
    EffectKind,
    EliteCount,
    Encounters,
    Event,
    EventKind,
    Events,
    Floor,
    Item,
    ItemUse,
    Leveling,
    Lookup,
    Merchant,
    Monster,
    MustBeat,
    Offer,
    RepeatRule,
    Rolls,
    ScoreKey,
    Split,
    SplitOption,
    Stack,
    Start,
    Term,
    TermSource,
    Trade,
    TrapKind,
    Traps,
    Treasure,
    TreasureAfter,
    Varies,
    WanderingChecks,
    XpCounting,
)

T = TypeVar("T")
E = TypeVar("E", bound=StrEnum)

PREFIX = "IT"
_RULING = re.compile(rf"^{PREFIX}-\d{{2}}$")
# A floor's rooms: every one has a line in the log and a state in the exact odds, which
# grow past use long before the schema's ceiling (9999 rooms ran out of memory).
MAX_ROOMS = 50


# -- generic readers -------------------------------------------------------------------------


def read_varies(
    node: Node, key: str, read: Callable[[Node, str], T], default: T | None = None
) -> Varies[T]:
    """A plain value, or ``{ ruling, faithful, alt }`` for a value a ruling decides.

    ``default`` (when given) stands for an absent key.
    """
    raw = node.data.get(key)
    if isinstance(raw, dict):
        sub = node.table(key)
        ruling = sub.str("ruling")
        if ruling and not _RULING.match(ruling):
            sub.error("ruling", f"{ruling!r} is not a ruling ID of the form {PREFIX}-nn")
        faithful = read(sub, "faithful")
        alt = read(sub, "alt")
        sub.done()
        return Varies(faithful, alt, ruling)
    if raw is None and default is not None:
        return Varies(default, default)
    value = read(node, key)
    return Varies(value, value)


def enum_of(kind: type[E]) -> Callable[[Node, str], E]:
    options = [e.value for e in kind]

    def read(node: Node, key: str) -> E:
        value = node.choice(key, options)
        return kind(value) if value in options else kind(options[0])

    return read


def enum_list_of(kind: type[E]) -> Callable[[Node, str], tuple[E, ...]]:
    options = [e.value for e in kind]

    def read(node: Node, key: str) -> tuple[E, ...]:
        out: list[E] = []
        values = node.str_list(key)
        for i, value in enumerate(values):
            if value in options:
                out.append(kind(value))
            else:
                node.error(f"{key}[{i}]", f"{value!r} is not one of {', '.join(options)}")
        check_unique(node, key, values)
        return tuple(out)

    return read


def _int(node: Node, key: str) -> int:
    return node.int(key, min=0)


def _bool(node: Node, key: str) -> bool:
    return node.bool(key)


def _str(node: Node, key: str) -> str:
    return node.str(key)


def _stack(node: Node) -> Stack:
    return Stack(item=node.str("item"), quantity=node.int("quantity", min=1))


def _stacks(node: Node, key: str) -> tuple[Stack, ...]:
    out = []
    for row in node.tables(key, min_items=1):
        out.append(_stack(row))
        row.done()
    return tuple(out)


def ref(node: Node, key: str, value: str, known: Sequence[str], what: str) -> None:
    if value:
        check_ref(node, key, value, known, what)


def check_split_rows(node: Node, key: str, table: DiceTable[T], split: Split) -> None:
    """Rows rolled with SR must use exactly the Split Roll's ranges."""
    ranges = {(r.low, r.high) for r in split.table.rows}
    for i, row in enumerate(table.rows):
        if row.low <= row.high and (row.low, row.high) not in ranges:
            shown = f"{row.low}-{row.high}" if row.low != row.high else str(row.low)
            node.error(f"{key}[{i}].roll", f"{shown} is not a range of the {split.code} options")


# -- one reader per file ------------------------------------------------------------------------


def load_rolls(node: Node) -> Rolls:
    reported = len(node.findings.items)
    faces = node.int("faces", min=2)
    if len(node.findings.items) > reported:
        faces = UNKNOWN_FACES
    top = faces if faces != UNKNOWN_FACES else None
    c = node.table("crits")
    crits = Crits(
        success=c.int("success", min=1, max=top),
        failure=c.int("failure", min=1, max=top),
        text=c.str("text"),
        applies_to=read_varies(c, "applies_to", enum_of(CritBasis)),
    )
    if crits.success == crits.failure:
        c.error("failure", f"{crits.failure} is also the success face")
    c.done()
    lk = node.table("lookup")
    lookup = Lookup(code=lk.str("code"), name=lk.str("name"), text=lk.str("text"))
    lk.done()
    checks: list[Check] = []
    for row in node.tables("checks", min_items=1):
        checks.append(Check(
            code=row.str("code"),
            name=row.str("name"),
            target=row.int("target", min=1, max=top),
            text=row.str("text"),
        ))
        row.done()
    sp = node.table("split")

    def option(row: Node) -> SplitOption:
        return SplitOption(option=row.int("option", min=1), name=row.str("name"))

    split = Split(
        code=sp.str("code"),
        name=sp.str("name"),
        text=sp.str("text"),
        table=load_dice_table(sp, "options", faces, option),
    )
    check_unique(sp, "options", [str(r.value.option) for r in split.table.rows], "option")
    sp.done()
    codes = [lookup.code, *(c.code for c in checks), split.code]
    check_unique(node, "checks", codes[1:-1], "roll code")
    for i, check in enumerate(checks):
        if check.code in (lookup.code, split.code):
            node.error(f"checks[{i}].code", f"duplicate roll code {check.code!r}")
    node.done()
    return Rolls(faces, crits, lookup, tuple(checks), split)


def load_character(node: Node) -> Character:
    attributes: list[Attribute] = []
    for row in node.tables("attributes", min_items=1):
        attributes.append(Attribute(row.str("code"), row.str("name"), row.str("text")))
        row.done()
    check_unique(node, "attributes", [a.code for a in attributes], "attribute")
    s = node.table("start")
    start = Start(
        attribute_points=s.int("attribute_points", min=0),
        attribute_value=s.int("attribute_value", min=0),
        max_hp=s.int("max_hp", min=1),
        xp=s.int("xp", min=0),
        gold=s.int("gold", min=0),
        level=read_varies(s, "level", _int),
    )
    s.done()
    kit = _stacks(node, "kit")
    node.done()
    return Character(tuple(attributes), start, kit)


def _effect(node: Node, key: str) -> Effect:
    e = node.table(key)
    kind = enum_of(EffectKind)(e, "kind")
    amount = e.int("amount", 0, min=0)
    if kind is EffectKind.COMBAT_BONUS and amount < 1:
        e.error("amount", f"a {kind.value} effect needs an amount of at least 1")
    use = read_varies(e, "use", enum_of(ItemUse), ItemUse.SPENT)
    e.done()
    return Effect(kind, amount, use)


def load_items(node: Node) -> tuple[Item, ...]:
    items: list[Item] = []
    for row in node.tables("items", min_items=1):
        items.append(Item(
            id=row.str("id"),
            name=row.str("name"),
            plural=row.str("plural"),
            abbreviation=row.str("abbreviation", "", nonempty=False),
            effect=_effect(row, "effect"),
            text=row.str("text"),
        ))
        row.done()
    check_unique(node, "items", [i.id for i in items], "item id")
    money = [i.id for i in items if i.effect.kind is EffectKind.CURRENCY]
    if len(money) != 1:
        node.error(
            "items", f"expected exactly one item with a currency effect, got {len(money)}"
        )
    node.done()
    return tuple(items)


def load_events(node: Node, faces: int) -> Events:
    def event(row: Node) -> Event:
        return Event(
            name=row.str("name"),
            kind=enum_of(EventKind)(row, "kind"),
            effect=_effect(row, "effect") if row.has("effect") else None,
            text=row.str("text"),
        )

    events = Events(
        room_check=node.str("room_check"),
        roll=node.str("roll"),
        table=load_dice_table(node, "rows", faces, event),
        once_per_floor=read_varies(node, "once_per_floor", enum_list_of(EventKind)),
        on_repeat=read_varies(node, "on_repeat", enum_of(RepeatRule)),
    )
    node.done()
    return events


def load_traps(node: Node, faces: int) -> Traps:
    def trap(row: Node) -> TrapKind:
        return TrapKind(row.str("attribute"), row.str("name"), row.str("text"))

    f = node.table("fail")
    traps = Traps(
        roll=node.str("roll"),
        check=node.str("check"),
        subtract_floor=read_varies(node, "subtract_floor", _bool),
        daggers_allowed=node.bool("daggers_allowed"),
        fail_damage=f.int("damage", min=0),
        fail_treasure=f.bool("treasure"),
        fail_text=f.str("text"),
        table=load_dice_table(node, "rows", faces, trap),
    )
    f.done()
    node.done()
    return traps


def load_encounters(node: Node, faces: int) -> Encounters:
    c = node.table("count")
    encounters = Encounters(
        elite_check=read_varies(node, "elite_check", _str),
        elites=read_varies(node, "elites", enum_of(EliteCount)),
        count_roll=c.str("roll"),
        count=load_dice_table(c, "rows", faces, lambda row: row.int("monsters", min=1)),
    )
    c.done()
    node.done()
    return encounters


def _terms(node: Node, key: str) -> tuple[Term, ...]:
    terms: list[Term] = []
    sources: list[str] = []
    for row in node.tables(key):
        sign = row.int("sign", min=-1, max=1)
        if sign == 0:
            row.error("sign", "expected 1 or -1, got 0")
        sources.append(str(row.data.get("source", "")))
        terms.append(Term(enum_of(TermSource)(row, "source"), sign, row.str("text")))
        row.done()
    # Checked on the written values, so that a misspelt source is reported only once.
    check_unique(node, key, sources, "term source")
    return tuple(terms)


def load_monsters(node: Node) -> tuple[Monster, ...]:
    rows = node.tables("monsters", min_items=1)
    read: list[Monster] = []
    for row in rows:
        fights_as = row.str("fights_as", "", nonempty=False)
        if fights_as and row.has("to_hit"):
            row.error("to_hit", "give either to_hit or fights_as, not both")
        elif not fights_as and not row.has("to_hit"):
            row.error("to_hit", "missing required key (expected to_hit or fights_as)")
        empty: tuple[Term, ...] = ()
        to_hit = read_varies(row, "to_hit", _terms) if row.has("to_hit") else Varies(empty, empty)
        read.append(Monster(
            id=row.str("id"),
            name=row.str("name"),
            text=row.str("text"),
            xp=read_varies(row, "xp", _int),
            to_hit=to_hit,
            fights_as=fights_as,
        ))
    ids = [m.id for m in read]
    check_unique(node, "monsters", ids, "monster id")
    out: list[Monster] = []
    for row, monster in zip(rows, read, strict=True):
        if monster.fights_as and check_ref(row, "fights_as", monster.fights_as, ids, "monster"):
            model = read[ids.index(monster.fights_as)]
            if model.fights_as:
                row.error("fights_as", f"{model.id!r} itself fights as another monster")
            monster = Monster(
                monster.id, monster.name, monster.text, monster.xp, model.to_hit, monster.fights_as
            )
        row.done()
        out.append(monster)
    node.done()
    return tuple(out)


def load_combat(node: Node) -> Combat:
    combat = Combat(
        check=node.str("check"),
        fail_damage=node.int("fail_damage", min=1),  # a miss that costs nothing never ends
        floor_offset=read_varies(node, "floor_offset", _int),
        attribute_choice=read_varies(node, "attribute_choice", enum_of(AttributeChoice)),
    )
    node.done()
    return combat


def load_bosses(node: Node) -> Bosses:
    m = node.table("minions")
    bosses = Bosses(
        monster=node.str("monster"),
        minion=node.str("minion"),
        minion_check=m.str("check"),
        minions_on_pass=m.int("pass", min=0),
        minions_on_fail=m.int("fail", min=0),
        loot=_stacks(node, "loot"),
        lair_treasure_rolls=read_varies(node, "lair_treasure_rolls", _int),
        must_beat=read_varies(node, "must_beat", enum_of(MustBeat)),
    )
    m.done()
    node.done()
    return bosses


def load_treasure(node: Node, faces: int) -> Treasure:
    treasure = Treasure(
        roll=node.str("roll"),
        after=read_varies(node, "after", enum_list_of(TreasureAfter)),
        table=load_dice_table(node, "rows", faces, _stack),
    )
    node.done()
    return treasure


def load_floor(node: Node) -> Floor:
    d, f, w, t = (node.table(k) for k in ("dead_end", "forced_stairs", "wandering", "tower"))
    floor = Floor(
        first_floor=node.int("first_floor", min=0),
        max_rooms=node.int("max_rooms", min=1, max=MAX_ROOMS),
        dead_end_check=d.str("check"),
        dead_end_lair=read_varies(d, "lair", _bool),
        forced_stairs_lair=f.bool("lair"),
        wandering_check=w.str("check"),
        wandering_treasure=read_varies(w, "treasure", _bool),
        wandering_checks=read_varies(w, "checks", enum_of(WanderingChecks)),
        win_floor=read_varies(t, "win_floor", _int),
        score=enum_list_of(ScoreKey)(t, "score"),
    )
    for sub in (d, f, w, t, node):
        sub.done()
    return floor


def load_merchant(node: Node) -> Merchant:
    stock: list[Offer] = []
    for row in node.tables("stock", min_items=1):
        # A free item would be bought without end: a price is at least 1.
        stock.append(Offer(row.str("item"), row.int("price", min=1)))
        row.done()
    check_unique(node, "stock", [o.item for o in stock], "item")
    merchant = Merchant(read_varies(node, "trade", enum_of(Trade)), tuple(stock))
    node.done()
    return merchant


def load_leveling(node: Node) -> Leveling:
    c, g, lad = node.table("cost"), node.table("gains"), node.table("ladder")
    leveling = Leveling(
        base=c.int("base", min=1),
        per_level=c.int("per_level", min=0),
        counting=read_varies(c, "counting", enum_of(XpCounting)),
        max_hp_gain=g.int("max_hp", min=0),
        attribute_points=g.int("attribute_points", min=0),
        hp_gain=read_varies(g, "hp", _int),
        ladder_rows=lad.int("rows", min=1, max=50),
    )
    for sub in (c, g, lad, node):
        sub.done()
    return leveling
