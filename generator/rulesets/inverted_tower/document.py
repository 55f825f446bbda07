"""The Inverted Tower's dungeon as a booklet's JSON holds it, and back again.

:func:`dungeon_json` writes pre-rolled floors under the keys of ``booklet.schema.json``;
:func:`read_dungeon` rebuilds them from a document exactly as it is written: the raw dice
and, beside them, the derived fields as recorded (never recomputed), so that
``check_floor`` finds a die or a derived field that was changed. A room's ``dice`` are
those its content read, by name (rulings.md 1.4); the dice its stream drew that the
content did not read (every new room draws the same dice, so that no room depends on which
were read) are kept apart, in ``unused_dice``. The raw dice of the tapes are the
document's ``tapes``; a floor's ``wandering.entries`` say what each entry of its wandering
tape brings.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from generator.engine.gamebook import Key
from generator.engine.rng import normalise_seed
from generator.errors import TowerpressError
from generator.rulesets.inverted_tower.booklet import FloorContent, WanderEntry
from generator.rulesets.inverted_tower.entities import EventKind
from generator.rulesets.inverted_tower.rooms import record_room, resolve_room
from generator.rulesets.inverted_tower.rules import SLOT_OF_EFFECT, Gain, Rules
from generator.rulesets.inverted_tower.state import (
    FloorState,
    RoomContent,
    RoomKind,
    RoomRoll,
    WanderRoll,
)

COMBAT, WANDERING = "combat", "wandering"  # the names of a floor's two tapes
#: A room's fixed dice: the field of :class:`RoomRoll`, and the name the JSON gives it.
ROOM_DICE = (("dead_end", "dead_end"), ("event_check", "event_check"), ("event_roll", "event"),
             ("trap_kind", "trap_kind"), ("trap_check", "trap_check"), ("elite", "elite"),
             ("count", "mobs"), ("treasure", "treasure"), ("minions", "minions"))
#: The extra dice some rooms draw: IT-02 Alt's event rolls again, IT-25's lair treasure.
LIST_DICE = (("rerolls", "event_rerolls"), ("extra_treasure", "treasure_extra"))
KIND_NAMES = {kind: "boss" if kind is RoomKind.LAIR else kind.value for kind in RoomKind}
_KINDS = {name: kind for kind, name in KIND_NAMES.items()}

Json = dict[str, Any]


def room_key(floor: int, room: int) -> Key:
    """The section key of a room (``gamebook.py``)."""
    return ("room", floor, room)


def wander_key(floor: int) -> Key:
    """The section key of a floor's way back (``gamebook.py``)."""
    return ("wandering", floor)


def place(floor: int) -> str:
    """Where a floor's tapes are: ``floor 3``."""
    return f"floor {floor}"


# -- writing ---------------------------------------------------------------------------------


class _Reads:
    """A room's roll that notes the name of every die the resolver reads of it."""

    def __init__(self, roll: RoomRoll):
        self.roll = roll
        self.read: set[str] = set()

    def __getattr__(self, name: str) -> Any:
        self.read.add(name)
        return getattr(self.roll, name)


def room_dice(rules: Rules, before: FloorState, room: RoomContent) -> tuple[Json, Json]:
    """The room's dice by name: those its content read (resolved again after the log
    ``before`` it, noting each die read), and the others."""
    reads = _Reads(room.roll)
    resolve_room(rules, before, cast(RoomRoll, reads))
    read: Json = {}
    unused: Json = {}
    for field, name in ROOM_DICE:
        (read if field in reads.read else unused)[name] = getattr(room.roll, field)
    for field, name in LIST_DICE:
        dice = list(getattr(room.roll, field))
        if dice:
            (read if field in reads.read else unused)[name] = dice
    return read, unused


def dungeon_json(rules: Rules, floors: Sequence[FloorContent],
                 numbers: Mapping[Key, int]) -> Json:
    """The dungeon keys of a booklet: ``floors`` and the ``bestiary`` its fights read."""
    return {"floors": [_floor_json(rules, floor, numbers) for floor in floors],
            "bestiary": bestiary(rules)}


def _floor_json(rules: Rules, floor: FloorContent, numbers: Mapping[Key, int]) -> Json:
    fs = FloorState(floor.floor)
    rooms = []
    for room in floor.rooms:
        rooms.append(_room_json(rules, fs, room, numbers.get(room_key(floor.floor, room.index))))
        fs = record_room(fs, room)
    entries = [{"monsters": list(e.foes), "treasure": stacks(rules, e.treasure)}
               for e in floor.wandering]
    return {"number": floor.floor, "rooms": rooms,
            "wandering": {"section": numbers.get(wander_key(floor.floor)),
                          "entries": entries}}


def _room_json(rules: Rules, before: FloorState, room: RoomContent,
               section: int | None) -> Json:
    read, unused = room_dice(rules, before, room)
    return {
        "number": room.index, "section": section, "kind": KIND_NAMES[room.kind],
        "monsters": list(room.foes), "elite": room.elite, "stairs": room.stairs,
        "last": room.last, "dead_end": room.dead_end,
        "event": room.event.value if room.event else None, "converted": room.converted,
        "trap": _trap_json(rules, room.trap_attribute),
        "treasure": stacks(rules, room.treasure), "loot": stacks(rules, room.loot),
        "dice": read, "unused_dice": unused,
    }


def _trap_json(rules: Rules, index: int) -> Json | None:
    if index < 0:
        return None
    code = rules.data.character.attributes[index].code
    row = next(r.value for r in rules.data.traps.table.rows if r.value.attribute == code)
    return {"attribute": code, "name": row.name}


def stacks(rules: Rules, gain: Gain | None) -> list[Json] | None:
    """A gain as the data's items, in the data's order: id, the name to print, quantity."""
    if gain is None:
        return None
    out = []
    for item in rules.data.items:
        n = getattr(gain, SLOT_OF_EFFECT[item.effect.kind].value)
        if n:
            out.append({"item": item.id, "name": item.name if n == 1 else item.plural,
                        "quantity": n})
    return out


def bestiary(rules: Rules) -> Json:
    """Every monster as the data and the profile give it: name, text, XP, to-hit terms,
    and the target the roll of those terms must make (the combat check's, IT-07)."""
    p = rules.profile
    return {m.id: {"name": m.name, "text": m.text, "xp": m.xp.under(p),
                   "to_hit": [{"source": t.source.value, "sign": t.sign, "text": t.text}
                              for t in m.to_hit.under(p)],
                   "target": rules.combat_target}
            for m in rules.data.monsters}


# -- reading ---------------------------------------------------------------------------------


def read_dungeon(rules: Rules, document: Mapping[str, Any]) -> tuple[FloorContent, ...]:
    """The floors of a booklet ``document`` (valid against the schemas) as it records them.

    Raises:
        TowerpressError: a monster, an item, an attribute or an event the data does not
            have, named with where it is.
    """
    # generate_floor keeps the seed it is handed, normalised: the canonical seed that
    # make_booklet hands it ("int:1" for "1") is text to normalise_seed, hence twice.
    seed = normalise_seed(normalise_seed(document["seed"]))
    tapes = {(t["place"], t["name"]): t for t in document["tapes"]}
    return tuple(_read_floor(rules, seed, floor, tapes) for floor in document["floors"])


def _read_floor(rules: Rules, seed: str, floor: Json,
                tapes: Mapping[tuple[str, str], Json]) -> FloorContent:
    number = floor["number"]
    combat = tapes.get((place(number), COMBAT))
    wander = tapes.get((place(number), WANDERING))
    dice = tuple([*entry, 0][0] for entry in combat["entries"]) if combat else ()
    raw = [WanderRoll(*[*entry, 0, 0, 0, 0][:4]) for entry in wander["entries"]] if wander else []
    told = floor["wandering"]["entries"]
    entries = []
    for i in range(max(len(raw), len(told))):  # the side that is short reads as nothing
        where = f"{place(number)}/wandering[{i}]"
        roll = raw[i] if i < len(raw) else WanderRoll(0, 0, 0, 0)
        entry = told[i] if i < len(told) else {"monsters": [], "treasure": None}
        entries.append(WanderEntry(roll, _foes(rules, entry["monsters"], where),
                                   _gain(rules, entry["treasure"], where)))
    rooms = tuple(_read_room(rules, number, room) for room in floor["rooms"])
    # booklet.py's "wraps": the booklet prints the fallback rule of its combat tape.
    wraps = bool(combat and combat["fallback"])
    return FloorContent(seed, rules.profile.id, number, rooms, dice, tuple(entries), wraps)


def _read_room(rules: Rules, floor: int, room: Json) -> RoomContent:
    where = f"{place(floor)}/room {room['number']}"
    dice = {**room["unused_dice"], **room["dice"]}
    fixed = [dice.get(name, 0) for _, name in ROOM_DICE]  # a die left out reads as 0
    lists = [tuple(dice.get(name, ())) for _, name in LIST_DICE]
    roll = RoomRoll(*fixed, *lists)
    loot = _gain(rules, room["loot"], where)
    return RoomContent(
        room["number"], roll, _KINDS[room["kind"]], room["stairs"], room["last"],
        room["dead_end"], _event(room["event"], where), room["converted"],
        _attribute(rules, room["trap"], where), room["elite"],
        _foes(rules, room["monsters"], where), _gain(rules, room["treasure"], where),
        loot if loot is not None else Gain())


def _foes(rules: Rules, ids: Sequence[str], where: str) -> tuple[str, ...]:
    known = [m.id for m in rules.data.monsters]
    for foe in ids:
        if foe not in known:
            raise TowerpressError(f"{where}: expected a monster of the data "
                                  f"({', '.join(known)}), got {foe!r}")
    return tuple(ids)


def _gain(rules: Rules, given: Sequence[Json] | None, where: str) -> Gain | None:
    if given is None:
        return None
    known = {item.id: item for item in rules.data.items}
    total = Gain()
    for stack in given:
        item = known.get(stack["item"])
        if item is None:
            raise TowerpressError(f"{where}: expected an item of the data "
                                  f"({', '.join(known)}), got {stack['item']!r}")
        slot = SLOT_OF_EFFECT[item.effect.kind].value
        total = total + Gain(**{slot: stack["quantity"]})
    return total


def _attribute(rules: Rules, trap: Json | None, where: str) -> int:
    if trap is None:
        return -1
    codes = [a.code for a in rules.data.character.attributes]
    if trap["attribute"] not in codes:
        raise TowerpressError(f"{where}: expected a trap attribute ({', '.join(codes)}), "
                              f"got {trap['attribute']!r}")
    return codes.index(trap["attribute"])


def _event(name: str | None, where: str) -> EventKind | None:
    if name is None:
        return None
    try:
        return EventKind(name)
    except ValueError:
        raise TowerpressError(f"{where}: expected an event ({', '.join(EventKind)}), "
                              f"got {name!r}") from None
