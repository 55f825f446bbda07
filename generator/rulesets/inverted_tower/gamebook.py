"""The Inverted Tower's pre-rolled floors as a gamebook (design.md section 6, rulings.md 1.4).

Sections: one for each room of each floor; one per floor for going back (the wandering
check, read from the floor's wandering tape, then a way on to each room of the floor by its
number, since the reader picks the room they were going to); the victory below the last
floor's stairs; and one death, reached from every section where the hero can fall. The
way back lists every room number a floor could have, so that it does not tell how long the
floor is: a number past the floor's last room leads to a "no room" section. A
room's content is printed as its dice made it; only fights, trap checks and wandering
checks read tapes: per floor a combat tape (fights and trap checks) and a wandering tape,
each from the floor's own stream (``booklet.py``), so that a long fight never moves a room.

Every number a section prints is read from the dungeon, the data or the profile's rules.
The dungeon's JSON, both ways, is ``document.py``; the tapes, with the worst case each
must cover, are :func:`floor_tapes`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from generator.engine.gamebook import Draft, Gamebook, Key, numbered, numbering
from generator.engine.tapes import Tape
from generator.rulesets.inverted_tower.booklet import FloorContent
from generator.rulesets.inverted_tower.character import character_json, ladder_json
from generator.rulesets.inverted_tower.document import (
    COMBAT,
    WANDERING,
    dungeon_json,
    place,
    room_dice,
    room_key,
    wander_key,
)
from generator.rulesets.inverted_tower.entities import Event, EventKind, TermSource
from generator.rulesets.inverted_tower.game import last_floor
from generator.rulesets.inverted_tower.narrate import items
from generator.rulesets.inverted_tower.policy import REFERENCE
from generator.rulesets.inverted_tower.procedures import gain_xp, new_hero
from generator.rulesets.inverted_tower.rooms import EVENT_OF_ROOM, record_room
from generator.rulesets.inverted_tower.rules import Gain, Rules
from generator.rulesets.inverted_tower.state import FloorState, RoomContent, RoomKind
from generator.words import listed, plural

RULESET = "inverted-tower"
VICTORY: Key = ("victory",)
DEATH: Key = ("death",)
FALL = "If you fall"


def build_gamebook(rules: Rules, floors: Sequence[FloorContent], seed: str,
                   renumbered: Sequence[int] = ()) -> Gamebook:
    """The sections, tapes and JSON dungeon of pre-rolled ``floors``; ``seed`` is canonical.

    IT-27: a booklet of N floors is won by going down the stairs of floor N, or of the win
    floor of the Alt reading when that comes first (the floors below it get no section).
    """
    final = last_floor(rules, len(floors))
    drafts = [d for f in floors if f.floor <= final for d in floor_drafts(rules, f, final)]
    drafts += [victory_draft(rules, final), death_draft(rules)]
    numbers = numbering(drafts, room_key(rules.first_floor, 1), seed, RULESET, renumbered)
    hero = {"character": character_json(rules),
            "ladder": ladder_json(rules, most_xp(rules, floors, final))}
    return Gamebook(numbered(drafts, numbers), floor_tapes(rules, floors),
                    {**dungeon_json(rules, floors, numbers), **hero})


def floor_drafts(rules: Rules, floor: FloorContent, final: int) -> list[Draft]:
    drafts = []
    fs = FloorState(floor.floor)
    for room in floor.rooms:
        drafts.append(room_draft(rules, fs, room, final))
        fs = record_room(fs, room)
    return [*drafts, wander_draft(rules, floor), *no_room_drafts(rules, floor)]


# -- a room ------------------------------------------------------------------------------------


def room_draft(rules: Rules, before: FloorState, room: RoomContent, final: int) -> Draft:
    """Room ``room`` of the floor whose log was ``before`` when the room was new."""
    f, k = before.floor, room.index
    text = [*_arrival(rules, f, k), *_ending(rules, room), *_content(rules, f, room),
            _revisit(rules, room)]
    return Draft(room_key(f, k), "room", f"Floor {f}, room {k}", tuple(text),
                 room_dice(rules, before, room)[0], _room_ways(room, f, final))


def _room_ways(room: RoomContent, f: int, final: int) -> tuple[tuple[str, Key], ...]:
    k = room.index
    ways: list[tuple[str, Key]] = []
    if not room.last:  # IT-18: no new room after the floor's last one
        ways += [(f"Go on to room {k + 1}, if it is not in your log yet", room_key(f, k + 1)),
                 (f"Go on to a new room, if your log has room {k + 1} already", wander_key(f))]
    ways.append(("Go back to another room in your log", wander_key(f)))
    if room.stairs:  # IT-27: the last floor's stairs win the booklet
        ways.append(("Take the stairs down", VICTORY if f >= final else room_key(f + 1, 1)))
    if room.foes or room.kind is RoomKind.TRAP:
        ways.append((FALL, DEATH))
    return tuple(ways)


def _arrival(rules: Rules, f: int, k: int) -> list[str]:
    """Room 1: a floor begins, with its two tapes."""
    if k != 1:
        return []
    first = (f"You enter the tower on floor {f}." if f == rules.first_floor
             else f"The stairs bring you down to floor {f}.")
    begin = [f"{first} Start a page of your log for floor {f}, a line for each room. Floor "
             f"{f} has two tapes: its combat tape, for fights and traps, and its wandering "
             "tape, for going back. Cross off each die or entry as you use it."]
    if f != rules.first_floor:
        return begin
    return [*begin, "Every fight of this booklet goes the same way: one roll at a time, "
            f"against one foe. {_crits(rules, 'hits', 'misses', True)}. A miss costs you "
            f"{rules.combat_damage} HP, and the same foe fights on; a hit kills it."]


def _ending(rules: Rules, room: RoomContent) -> list[str]:
    """Whether the floor ends here (IT-18), as far as the rules let the reader know."""
    lair = room.kind is RoomKind.LAIR
    if room.dead_end:
        boss = ", and the lair of its boss" if lair else ""
        return [f"A dead end: this is the floor's last room{boss} (IT-18)."]
    if room.last and room.stairs and lair:
        return [f"Still no stairs, and a floor has at most {rules.max_rooms} rooms: the "
                "stairs are here, and the floor's boss guards them (IT-18)."]
    if room.last:
        return [f"A floor has at most {rules.max_rooms} rooms: this is its last."]
    return []


def _content(rules: Rules, f: int, room: RoomContent) -> list[str]:
    if room.kind is RoomKind.LAIR:
        return _lair(rules, f, room)
    if room.kind is RoomKind.ENCOUNTER:
        return _encounter(rules, f, room)
    if room.kind is RoomKind.TRAP:
        return _trap(rules, f, room)
    event = _event(rules, EVENT_OF_ROOM[room.kind])
    text = f"{event.name}. {event.text}"
    if room.kind is RoomKind.MERCHANT:  # the data's text says what IT-21 Faithful reads
        text = f"{event.name}. " + (f"{event.text} " if rules.merchant_sells else "")
        text += _merchant(rules)
    if room.stairs and rules.boss_always:  # IT-26 Alt
        text += (" You may go down only once the floor's boss has fallen, or once the floor "
                 "has no new room left (IT-26).")
    return [text]


def _event(rules: Rules, kind: EventKind) -> Event:
    return next(row.value for row in rules.data.events.table.rows if row.value.kind is kind)


def _merchant(rules: Rules) -> str:
    """IT-21: the merchant sells (Faithful) or buys (Alt), at the data's prices."""
    gp = rules.data.currency.abbreviation
    prices = " and ".join(f"{rules.data.item(o.item).plural.lower()} for {o.price} {gp} each"
                          for o in rules.data.merchant.stock)
    if rules.merchant_sells:
        return f"Buy as many as your gold pays for: {prices} (IT-21)."
    return f"The merchant buys instead (IT-21): sell your {prices}."


def _encounter(rules: Rules, f: int, room: RoomContent) -> list[str]:
    text = []
    if room.converted and room.event is not None:  # IT-02 Faithful
        name = _event(rules, room.event).name.lower()
        text.append(f"The event die gave a {name}, but this floor has its {name} already, "
                    "so monsters hold the room instead (IT-02).")
    text.append(_here(rules, room.foes))
    text += _fight(rules, f, room.foes)
    if room.treasure is not None:  # IT-15
        text.append(f"If you win, take the room's treasure: {items(rules, room.treasure)}.")
    return text


def _lair(rules: Rules, f: int, room: RoomContent) -> list[str]:
    """IT-25: the boss, handled as an elite, with its minions, and its fixed loot."""
    boss = rules.data.monster(rules.boss.id)
    text = [f"{boss.text} Here they are: {_names(rules, room.foes)}.", *_fight(rules, f, room.foes)]
    gain = f"If you win, take the boss's loot: {items(rules, room.loot)}"
    if room.treasure is not None:  # IT-25 Alt
        gain += f", and the lair's treasure: {items(rules, room.treasure)}"
    return [*text, gain + "."]


def _trap(rules: Rules, f: int, room: RoomContent) -> list[str]:
    """IT-16: die plus the trap's attribute (minus the floor under Alt), no daggers."""
    code = rules.data.character.attributes[room.trap_attribute].code
    kind = next(r.value for r in rules.data.traps.table.rows if r.value.attribute == code)
    less = (f", take away {rules.floor_term(f)} for the floor"
            if rules.trap_subtracts_floor and rules.floor_term(f) else "")
    daggers = "" if rules.trap_daggers else " Daggers are no help against a trap."
    check = (f"Cross off the next die of floor {f}'s combat tape and add your {code}{less}: "
             f"{rules.trap_target} or more passes. {_crits(rules, 'passes', 'fails', False)}"
             f" (IT-16).{daggers}")
    fail = f"If it fails, you lose {rules.trap_damage} HP"
    if room.treasure is not None and rules.trap_fail_treasure:
        fail += f". Pass or fail, take the room's treasure: {items(rules, room.treasure)}."
    elif room.treasure is not None:  # IT-15 Faithful: a passed trap gives treasure
        fail += (f" and the room gives no treasure. If you pass, take its treasure: "
                 f"{items(rules, room.treasure)}.")
    else:
        fail += "."
    return [f"{kind.name}. {kind.text}", check, fail]


def _revisit(rules: Rules, room: RoomContent) -> str:
    """IT-22: a room keeps what it was; a bonfire or a merchant serves again (Faithful)."""
    again = rules.events_reusable
    back = {
        RoomKind.ENCOUNTER: "its monsters lie where they fell, and nothing here fights you "
                            "again",
        RoomKind.LAIR: "the boss lies where it fell"
                       + (", and the stairs are yours" if room.stairs else ""),
        RoomKind.TRAP: "the trap is sprung and does nothing more",
        RoomKind.MERCHANT: "the merchant trades with you again (IT-22)" if again
                           else "the merchant has nothing more for you (IT-22)",
        RoomKind.BONFIRE: "rest again and heal up to your Max HP (IT-22)" if again
                          else "the fire is out, for it heals only once (IT-22)",
        RoomKind.STAIRS: "the stairs are still here",
    }[room.kind]
    return f"If your log has this room already, you have come back: {back}."


# -- fights ------------------------------------------------------------------------------------


def _one(rules: Rules, foe: str) -> str:
    """"a monster", "an elite monster", "the boss"."""
    name = rules.data.monster(foe).name.lower()
    if foe == rules.boss.id:
        return f"the {name}"
    return f"{'an' if name[:1] in 'aeiou' else 'a'} {name}"


def _names(rules: Rules, foes: Sequence[str]) -> str:
    """"2 monsters and an elite monster", in the order met."""
    parts = []
    for foe, n in Counter(foes).items():
        name = rules.data.monster(foe).name.lower()
        parts.append(_one(rules, foe) if n == 1 else
                     plural(n, name, name + "es" if name.endswith("s") else None))
    return listed(parts)


def _here(rules: Rules, foes: Sequence[str]) -> str:
    names = _names(rules, foes)
    text = f"{names[:1].upper()}{names[1:]} {'is' if len(foes) == 1 else 'are'} here."
    if rules.elite.id in foes:
        text += " " + rules.data.monster(rules.elite.id).text
    return text


def _fight(rules: Rules, f: int, foes: Sequence[str]) -> list[str]:
    """How to fight ``foes`` on floor ``f`` (IT-07, IT-08, IT-17, IT-28), from the data."""
    lines = [f"To hit {_one(rules, foe)}, {_to_hit(rules, f, foe)} must make "
             f"{rules.combat_target} or more; the kill gives {rules.foe(foe).xp} XP."
             for foe in Counter(foes)]
    start = ("Fight it to the end: there is no running away (IT-17)." if len(foes) == 1 else
             "Fight them one at a time, in the order you choose: there is no running away "
             "(IT-17).")
    # How a roll hits or misses is said once, in section 1 (_arrival): a reader meets it
    # there before any fight, and a room says only what differs from one room to the next.
    return [f"{start} For each roll, cross off the next die of floor {f}'s combat tape. "
            + " ".join(lines)]


def _to_hit(rules: Rules, f: int, foe: str) -> str:
    """The roll against ``foe``: the die and the data's terms, the floor's as a number."""
    parts = ["the die"]
    for term in rules.data.monster(foe).to_hit.under(rules.profile):
        word = "plus" if term.sign > 0 else "minus"
        times = f"{abs(term.sign)} times " if abs(term.sign) != 1 else ""
        text = term.text
        if term.source is TermSource.FLOOR:  # IT-28: the floor as a number
            if rules.floor_term(f) == 0:
                continue
            less = f", less {rules.floor_offset}" if rules.floor_offset else ""
            text = f"{rules.floor_term(f)} ({term.text}{less})"
        elif term.source is TermSource.DAGGERS and rules.daggers_kept:  # IT-09 Alt
            text = "every dagger you carry (IT-09)"
        parts.append(f"{word} {times}{text}")
    return " ".join(parts)


def _crits(rules: Rules, hit: str, miss: str, daggers: bool) -> str:
    """The natural dice that decide whatever is added (IT-08)."""
    text = (f"A natural {rules.crit_success} always {hit} and a natural {rules.crit_failure} "
            f"always {miss}")
    if rules.crit_on_total and daggers:  # IT-08 Alt
        text += (f"; daggers that lift the die to {rules.crit_success} count as a natural "
                 f"{rules.crit_success} (IT-08)")
    return text


# -- going back, and the endings ---------------------------------------------------------------


def wander_draft(rules: Rules, floor: FloorContent) -> Draft:
    """IT-22 to IT-24: a move back costs a wandering check, which may bring a full encounter."""
    f = floor.floor
    per_room = rules.wandering_per_room
    tape = f"floor {f}'s wandering tape"
    cost = (f"one entry of {tape} for each room you walk into on the way, the room you are "
            "going to included" if per_room else f"the next entry of {tape}")  # IT-23
    faces = " or ".join(str(d) for d in range(1, rules.faces + 1) if rules.wandering_check[d])
    treasure = (" If you win, take the entry's treasure (IT-24)."
                if rules.wandering_treasure and rules.treasure_after_encounter else "")
    foes = (rules.normal.id, rules.elite.id)
    text = (
        "Going on to a new room from a room you came back to is no move back: cross off "
        "nothing, and turn below to the first room your log does not have (there is none "
        "once your log has the floor's last room).",
        f"Going back to a room in your log, cross off {cost}: each entry is a wandering "
        f"check (IT-23). An entry whose check die shows {faces} brings wandering monsters, "
        "and the tape lists them: they attack at once, as a new encounter (IT-24). "
        + " ".join(_fight(rules, f, foes)) + treasure,
        "Then turn below to the room you were going to: it is as you left it.",
    )
    # Every room number a floor could have, so that the list does not tell how many rooms
    # this one has (its last room, the dead end, is its boss's lair under IT-18 Faithful).
    ways = tuple((f"Room {k}", room_key(f, k) if k <= len(floor.rooms) else no_room_key(f, k))
                 for k in range(1, rules.max_rooms + 1))
    return Draft(wander_key(f), "wandering", f"Floor {f}, going back", text, {},
                 (*ways, (f"{FALL} to wandering monsters", DEATH)))


def no_room_key(floor: int, room: int) -> Key:
    return ("no room", floor, room)


def no_room_drafts(rules: Rules, floor: FloorContent) -> list[Draft]:
    """A section for each room number past the floor's last, which the list of the way
    back names (:func:`wander_draft`) and no log can hold."""
    f = floor.floor
    return [Draft(no_room_key(f, k), "no room", f"Floor {f}, going back",
                  (f"Your log cannot have a room {k} on floor {f}: the floor ended before it. "
                   "Go back to the list and turn to the room you were going to, crossing off "
                   "nothing more.",),
                  ways=(("Back to the list of rooms", wander_key(f)),))
            for k in range(len(floor.rooms) + 1, rules.max_rooms + 1)]


def _score(rules: Rules, floor: str) -> str:
    """IT-27: the score, in the data's order of its parts."""
    words = {"floor": floor, "level": "your level", "gold": "your gold"}
    parts = [words[key.value] for key in rules.data.floor.score]
    return parts[0] if len(parts) == 1 else ", then ".join(parts)


def victory_draft(rules: Rules, final: int) -> Draft:
    text = (f"You go down the stairs of floor {final}, the last floor of this booklet, and "
            "the tower is behind you: you have won (IT-27).",
            f"Write your score: {_score(rules, f'floor {final}')}.")
    return Draft(VICTORY, "victory", f"Below floor {final}", text, ending="victory")


def death_draft(rules: Rules) -> Draft:
    fell = ("your HP reached 0 with no potion left to drink" if rules.last_gasp
            else "your HP reached 0")  # IT-11
    text = ("Your climb ends here: write your score.",
            f"You fell: {fell} (IT-11). Your score is "
            f"{_score(rules, 'the deepest floor you reached')} (IT-27); note in your log the "
            "floor and the room where you fell.")
    return Draft(DEATH, "death", "The end of your climb", text, ending="death")


# -- the tapes ---------------------------------------------------------------------------------

COMBAT_PARTS = ("die",)
WANDER_PARTS = ("check", "elite", "mobs", "treasure")  # a wandering check and its encounter
#: Printed with every tape: the rules set no limit on moves back (IT-22, IT-23), so no tape
#: is long enough for every play, whatever its bound (booklet.py's "wraps").
COMBAT_FALLBACK = ("When you have crossed off every die of this tape, start again from its "
                   "first die.")
WANDER_FALLBACK = ("When you have crossed off every entry of this tape, start again from its "
                   "first entry.")


def floor_tapes(rules: Rules, floors: Sequence[FloorContent]) -> tuple[Tape, ...]:
    """Each floor's combat tape and wandering tape, with the entries its worst case takes
    (rulings.md 1.5 #11; :func:`combat_bound`, :func:`wander_bound`)."""
    tapes: list[Tape] = []
    haul = Haul()
    for floor in floors:
        combat, haul = combat_bound(rules, floor, haul)
        fallbacks = (COMBAT_FALLBACK, WANDER_FALLBACK) if floor.wraps else ("", "")
        where = place(floor.floor)
        tapes.append(Tape(COMBAT, where, COMBAT_PARTS, tuple((d,) for d in floor.combat_tape),
                          1, rules.faces, combat, fallbacks[0]))
        entries = tuple((e.roll.check, e.roll.elite, e.roll.count, e.roll.treasure)
                        for e in floor.wandering)
        tapes.append(Tape(WANDERING, where, WANDER_PARTS, entries, 1, rules.faces,
                          wander_bound(rules, floor)[1], fallbacks[1]))
    return tuple(tapes)


def wander_bound(rules: Rules, floor: FloorContent) -> tuple[int, int]:
    """(moves back, wandering entries) of the worst case the tapes count.

    The rules set no limit on moves back (IT-23), and a bonfire that heals again (IT-22)
    is worth a walk after every fight, so no length covers every play. The bound counts
    a thorough player: after each new room, at most one move back to each earlier room
    worth a return (the stairs, and the bonfire and the merchant where IT-22 lets them
    serve again). A move costs one entry (IT-23 Faithful), or one per room walked into
    (Alt), at most ``k - 1`` when room ``k`` is the newest.
    """
    moves = entries = worth = 0
    for room in floor.rooms:
        k = room.index
        moves += worth
        entries += worth * (k - 1 if rules.wandering_per_room else 1)
        reusable = rules.events_reusable and room.kind in (RoomKind.BONFIRE, RoomKind.MERCHANT)
        worth += room.stairs or reusable
    return moves, entries


@dataclass(frozen=True)
class Haul:
    """The most XP, gold and potions a hero can have found by the end of a floor."""

    xp: int = 0
    gold: int = 0
    potions: int = 0


def combat_bound(rules: Rules, floor: FloorContent, haul: Haul) -> tuple[int, Haul]:
    """The combat dice of the worst case the tapes count, and the haul after the floor.

    For every play that stays within the moves back of :func:`wander_bound` on this floor
    and the ones before (its entries read in order, from the top again past the end),
    every combat die is a hit, a miss or a trap check. Hits are at most the monsters met:
    the rooms' (boss and minions included) and the entries'. Misses are at most the HP the
    hero can lose on the floor: a full Max HP on arrival, again for every potion they can
    hold and every rest at the bonfire (one a visit, IT-22), plus what level-ups give
    (IT-13); Max HP is that of the levels all the XP met so far could buy (IT-12), and the
    potions are all those found, and all the gold found spent on more (IT-21). A trap is
    checked once, on entering its room.
    """
    moves, used = wander_bound(rules, floor)
    foes, found = _met(floor, used)
    haul = Haul(haul.xp + sum(rules.foe(foe).xp for foe in foes), haul.gold + found.gold,
                haul.potions + found.potions)
    hero = gain_xp(rules, REFERENCE, new_hero(rules, REFERENCE), haul.xp)
    price = rules.potion_price if rules.merchant_sells else None
    bought = (hero.gold + haul.gold) // price if price else 0
    bonfires = sum(room.kind is RoomKind.BONFIRE for room in floor.rooms)
    rests = bonfires * (1 + (moves if rules.events_reusable else 0))
    pool = (hero.max_hp * (1 + hero.potions + haul.potions + bought + rests)
            + (hero.level - rules.start_level) * rules.hp_gain)
    misses = -(-pool // rules.combat_damage)
    traps = sum(room.kind is RoomKind.TRAP for room in floor.rooms)
    return len(foes) + misses + traps, haul


def most_xp(rules: Rules, floors: Sequence[FloorContent], final: int) -> int:
    """The most XP a hero can gain down to floor ``final``, as the tapes' worst case counts
    it (:func:`combat_bound`): every monster of every room, and of the wandering entries
    that many moves back read. The ladder goes as far as this XP reaches (IT-12)."""
    haul = Haul()
    for floor in floors:
        if floor.floor <= final:  # IT-27 Alt: a floor below the win floor is never played
            haul = combat_bound(rules, floor, haul)[1]
    return haul.xp


def _met(floor: FloorContent, used: int) -> tuple[list[str], Gain]:
    """The monsters of the floor's rooms and of its first ``used`` wandering entries, and
    all they and the rooms can give."""
    tape = floor.wandering
    entries = [tape[i % len(tape)] for i in range(used)] if tape else []
    foes = [foe for room in floor.rooms for foe in room.foes]
    foes += [foe for entry in entries for foe in entry.foes]
    gains = [*(room.treasure for room in floor.rooms), *(room.loot for room in floor.rooms),
             *(entry.treasure for entry in entries)]
    return foes, sum((g for g in gains if g is not None), Gain())
