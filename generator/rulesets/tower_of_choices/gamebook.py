"""Tower of Choices as a gamebook: the booklet is the DM (rulings.md 3.4, issue 25).

A booklet's trial (:func:`.trial.generate_catalogue_trial`) becomes numbered sections:

* section 1, the foot of the tower: what the booklet is, the character, and the rules the
  reader needs at every check, the shuffle with tape S above all (Fisher-Yates, 3.4 #4);
* a room section per room (its line of description, its name on the maps) leading to its
  first obstacle;
* an obstacle section per obstacle listing its approaches, each leading to a check section
  (what to draw, what succeeds) and from there to the obstacle's success section or its
  failure section (the setback, TC-18); a failure leads back to the obstacle (TC-25
  Faithful) or on, set back (TC-25 Alt);
* a room-end section after every room but the top: its loot, and its rest where the rules
  give one (TC-20); a rest section for that rest; under TC-21 Alt a rest section before
  each obstacle, at the room's rest cost;
* the victory after the top room's obstacles, and the defeat, reached from every obstacle
  when the reader is exhausted with no way on (TC-03, TC-20) and, under TC-18 Alt, from a
  failure that gives the last wound.

The rules the sections print for the reader are in instructions.py.  Nothing else is
random: the reader shuffles with tape S and, INDEFATIGABLE, picks with
tape R (TC-11); :func:`shuffle_bound` and :func:`refresh_bound` say how many entries the
worst case takes, and a tape that play can outrun carries its fallback.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from generator.engine.gamebook import Draft, Gamebook, Key, numbered, numbering
from generator.engine.tapes import Tape, roll_tape
from generator.rulesets.tower_of_choices.document import dungeon_json
from generator.rulesets.tower_of_choices.entities import (
    AbilityEffect,
    AbilityKind,
    ItemKind,
)
from generator.rulesets.tower_of_choices.instructions import (
    check_lines,
    checks_rules,
    refresh_rule,
    rest_lines,
    setback_lines,
    shuffle_rule,
    start_lines,
)
from generator.rulesets.tower_of_choices.rules import Rules
from generator.rulesets.tower_of_choices.state import RULESET
from generator.rulesets.tower_of_choices.trial import Approach, Obstacle, Room, Trial
from generator.words import either, plural

START: Key = ("start",)
VICTORY: Key = ("victory",)
DEFEAT: Key = ("defeat",)
#: Tape entries run 1..TAPE_HIGH: 2520 is divisible by every pile size from 1 to 10, so
#: the remainder of a division picks a place with exactly even odds for those piles (and
#: off by less than half a percent for larger ones).
TAPE_HIGH = 2520
#: TC-25 Faithful lets a reader try an obstacle again and again; tape R is made for this
#: many tries of each (its fallback covers more).
TRIES = 3

Ways = list[tuple[str, Key]]


@dataclass(frozen=True)
class Book:
    """The trial being written, with the rules it is played under."""

    rules: Rules
    trial: Trial

    @property
    def last(self) -> int:
        return len(self.trial.rooms)

    def rests_after(self, room: Room) -> bool:
        """A rest follows ``room``: its rest spot (TC-20 Faithful) or a floor's end (Alt)."""
        return self.trial.floor_end(room) if self.rules.floors else room.rest_spot

    def ability(self, kind: AbilityKind) -> tuple[str, AbilityEffect] | None:
        """The first ability of the data with an effect of ``kind``, and that effect."""
        for ability in self.rules.data.abilities:
            effect = ability.effect(kind)
            if effect is not None:
                return ability.name, effect
        return None


def gamebook(rules: Rules, trial: Trial, seed: str,
             renumbered: Sequence[int] = ()) -> Gamebook:
    """``trial`` (a booklet's, from the catalogue) as numbered sections, its tapes, and its
    JSON (``rooms``, ``victory``, ``defeat``).

    Raises:
        ValueError: ``trial`` was not made from the catalogue.
    """
    if not trial.from_catalogue:
        raise ValueError("a gamebook needs a trial made from the catalogue")
    book = Book(rules, trial)
    drafts = drafts_of(book)
    numbers = numbering(drafts, START, seed, RULESET, renumbered)
    return Gamebook(numbered(drafts, numbers), tapes(book, seed),
                    dungeon_json(rules, trial, numbers, book.rests_after))


def drafts_of(book: Book) -> list[Draft]:
    """Every section of the booklet, before its number."""
    drafts = [_start(book), _victory(book), _defeat(book)]
    for room in book.trial.rooms:
        drafts.append(_room(book, room))
        if room.number < book.last:
            drafts.append(_room_end(book, room))
        if book.rests_after(room):
            drafts.append(_rest(book, room))
        for k, obstacle in enumerate(room.obstacles, 1):
            drafts += _obstacle_drafts(book, room, k, obstacle)
    return drafts


def _obstacle_drafts(book: Book, room: Room, k: int, obstacle: Obstacle) -> list[Draft]:
    drafts = [_obstacle(book, room, k, obstacle), _success(book, room, k, obstacle),
              _failure(book, room, k, obstacle)]
    drafts += [_check(book, room, k, a) for a in obstacle.approaches]
    if book.rules.rest_anywhere:
        drafts.append(_rest_here(book, room, k))
    return drafts


# -- where the reader is, and the ways on ---------------------------------------------------


def _where(book: Book, room: Room, k: int = 0) -> str:
    floor = f", floor {room.floor}" if book.rules.floors else ""  # TC-20 Alt
    where = f"Room {room.number} of {book.last}{floor}"
    return f"{where}, obstacle {k} of {len(room.obstacles)}" if k else where


def _picks(room: Room, *names: str) -> dict[str, int]:
    """The raw picks of ``room`` that decided a section, by name (rulings.md section 4)."""
    return {roll.name: roll.value for roll in room.rolls if roll.name in names}


def _to_obstacle(book: Book, room: Room, k: int, first: bool) -> Ways:
    """The ways to obstacle ``k`` of ``room``: straight there, or under TC-21 Alt after a
    rest outside it, at the room's rest cost."""
    text = "Face what stands in your way" if first else "Face the next obstacle"
    ways: Ways = [(text, ("obstacle", room.number, k))]
    if book.rules.rest_anywhere:
        ways.append((f"Rest here first, at a cost ({room.rest_cost}), then face it",
                     ("rest-here", room.number, k)))
    return ways


def _past(book: Book, room: Room, k: int) -> Ways:
    """The ways on once obstacle ``k`` of ``room`` is behind the reader."""
    if k < len(room.obstacles):
        return _to_obstacle(book, room, k + 1, first=False)
    if room.number < book.last:
        return [("Look round before you climb on", ("room-end", room.number))]
    return [("Finish the trial", VICTORY)]


def _next_room(book: Book, room: Room) -> Ways:
    floor_end = book.rules.floors and book.trial.floor_end(room)  # TC-20 Alt
    text = "Climb to the next floor" if floor_end else "Climb to the next room"
    return [(text, ("room", room.number + 1))]


def _exhausted_way(book: Book) -> tuple[str, Key]:
    """The way to the defeat from an obstacle: exhausted with no way on (TC-03, TC-20; the
    rescue of INDEFATIGABLE under TC-11 Faithful, as the engine plays it)."""
    rules = book.rules
    refresh = book.ability(AbilityKind.REFRESH_RANDOM_CARD)
    rescue = refresh is not None and not rules.refresh_on_success_only
    if rules.exhaustion_ends_trial:  # TC-03 Alt: carried out, whatever comes back after
        rescue = False
    drink = " no drink" if rules.restore_items else ""
    back = " no card to bring back" if rescue else ""
    without = f", with{drink}{' and' if drink and back else ''}{back}" if drink or back else ""
    return f"If you are exhausted here{without}", DEFEAT


# -- the sections ---------------------------------------------------------------------------


def _start(book: Book) -> Draft:
    rules = book.rules
    text = start_lines(rules)
    made = len(book.trial.characters)
    if made:  # issue 26: the character page, before the sections
        text.append(f"The character page, before section 1, has a worksheet for this and "
                    f"{plural(made, 'character')} made ready: take one if you would rather.")
    text.append(shuffle_rule(rules, TAPE_HIGH))
    refresh = book.ability(AbilityKind.REFRESH_RANDOM_CARD)
    if refresh is not None:
        text.append(refresh_rule(rules, refresh[0]))
    text += checks_rules(rules, book.ability(AbilityKind.BURN_TOP_CARD_FOR_EXTRA_DRAW))
    return Draft(START, "start", "The foot of the tower", tuple(text),
                 ways=(("Go in", ("room", 1)),))


def _room(book: Book, room: Room) -> Draft:
    catalogue = book.rules.data.catalogue
    top = room.number == book.last
    place = catalogue.top if top else next(p for p in catalogue.rooms if p.name == room.name)
    text = [place.text]
    maps = [i.name for i in book.rules.data.items if ItemKind.REVEAL_ROOM_NAMES in i.effects]
    if maps:
        text.append(f"If you carry {' or '.join(maps)}, this room is marked on them: "
                    f"{room.name}.")
    count = len(room.obstacles)
    ahead = "the end of the trial" if top else "the way up"
    text.append(f"One obstacle stands between you and {ahead}." if count == 1 else
                f"{plural(count, 'obstacle')} stand between you and {ahead}, one after "
                "the other.")
    return Draft(("room", room.number), "room", _where(book, room), tuple(text),
                 _picks(room, "room", "obstacles"),
                 tuple(_to_obstacle(book, room, 1, first=True)))


def _obstacle(book: Book, room: Room, k: int, obstacle: Obstacle) -> Draft:
    entry = book.rules.data.catalogue.obstacle(obstacle.name)
    text = [f"{obstacle.name}. {entry.text}"]
    text += [f"{either(list(a.helps))} {'helps' if len(a.helps) == 1 else 'help'} if you try "
             f"{a.skill.upper()}." for a in obstacle.approaches if a.helps]
    ways: Ways = [(f"Try {a.skill.upper()} (draw {a.draw}, target {a.target})",
                   ("check", room.number, k, a.skill)) for a in obstacle.approaches]
    ways.append(_exhausted_way(book))
    return Draft(("obstacle", room.number, k), "obstacle", _where(book, room, k), tuple(text),
                 _picks(room, f"obstacle {k}"), tuple(ways))


def _check(book: Book, room: Room, k: int, approach: Approach) -> Draft:
    text = check_lines(book.rules, approach, book.ability(AbilityKind.EXTRA_ACTION),
                       book.ability(AbilityKind.REFRESH_RANDOM_CARD))
    where = f"{_where(book, room, k)}: trying {approach.skill}"
    ways = (("If you succeed", ("success", room.number, k)),
            ("If you fail", ("failure", room.number, k)))
    return Draft(("check", room.number, k, approach.skill), "check", where, tuple(text),
                 ways=ways)


def _success(book: Book, room: Room, k: int, obstacle: Obstacle) -> Draft:
    entry = book.rules.data.catalogue.obstacle(obstacle.name)
    ways = _past(book, room, k) + _quick_draw(book, room, k, obstacle)
    return Draft(("success", room.number, k), "success", _where(book, room, k),
                 (entry.success,), ways=tuple(ways))


def _quick_draw(book: Book, room: Room, k: int, obstacle: Obstacle) -> Ways:
    """QUICK DRAW (TC-19): each matching card beyond what a check of its skill needed fells
    one more obstacle of the room, so the reader goes past that many."""
    found = book.ability(AbilityKind.EXTRA_FELL_PER_SURPLUS)
    if found is None or obstacle.approach(found[1].skill) is None:
        return []
    name, effect = found
    ways: Ways = []
    for spare in range(1, len(room.obstacles) - k + 1):
        felled = spare * effect.amount
        if k + felled > len(room.obstacles):
            break
        text = (f"{name}, {plural(spare, 'card')} of {effect.skill.upper()} to spare: go past "
                f"{plural(felled, 'more obstacle')}")
        ways.append((text, _past(book, room, k + felled)[0][1]))
    return ways


def _failure(book: Book, room: Room, k: int, obstacle: Obstacle) -> Draft:
    rules = book.rules
    entry = rules.data.catalogue.obstacle(obstacle.name)
    text = [entry.failure, *setback_lines(rules, obstacle.failure)]
    ways: Ways = []
    if rules.wounds_track:  # TC-18 Alt
        wounds = rules.data.wounds_alt
        text.append(f"Mark {plural(wounds.per_failure, 'wound')}: with {wounds.out_at} you "
                    "are out of the trial.")
        ways.append((f"If you now have {wounds.out_at} wounds", DEFEAT))
    if rules.failure_passes:  # TC-25 Alt: set back, not stopped
        text.append("You get past it all the same.")
        ways = _past(book, room, k) + ways
    else:  # TC-25 Faithful: the obstacle still stands
        text.append("The way is still barred.")
        ways = [("Try again", ("obstacle", room.number, k)), *ways]
    return Draft(("failure", room.number, k), "failure", _where(book, room, k), tuple(text),
                 ways=tuple(ways))


def _room_end(book: Book, room: Room) -> Draft:
    rules = book.rules
    text: list[str] = []
    loot = _loot_text(book, room)
    if loot:
        text.append(loot)
    ways = _next_room(book, room)
    picks = ["loot"]
    if book.rests_after(room):
        spot = next(p for p in rules.data.catalogue.rest_spots if p.name == room.rest_place)
        lost = "" if rules.floors else ", unless this room's reward is lost"  # TC-20, TC-18
        text.append(f"There is a place to rest here{lost}: {spot.text[0].lower()}"
                    f"{spot.text[1:]}")
        ways = [("Rest before you climb on", ("rest", room.number)), *ways]
        picks.append("rest spot")
    if not text:
        text.append("There is nothing more here, only the stair up.")
    return Draft(("room-end", room.number), "room-end", f"{_where(book, room)}, past its "
                 "obstacles", tuple(text), _picks(room, *picks), tuple(ways))


def _loot_text(book: Book, room: Room) -> str:
    """What the room holds, found as the catalogue's loot entry says (TC-16: if it fits)."""
    picks = _picks(room, "loot")
    loot = book.rules.data.catalogue.loot
    if room.loot is None or picks.get("loot", len(loot)) >= len(loot):
        return ""
    entry = loot[picks["loot"]]
    carry = book.rules.data.character.carry_limit
    pieces = " (a kit counts as every piece in it)" if book.rules.kit_pieces_count else ""
    return (f"{entry.text} Take it ({entry.item}) if you can carry it, at most "
            f"{plural(carry, 'item')} in all{pieces}, unless this room's reward is lost.")


def _rest(book: Book, room: Room) -> Draft:
    spot = next(p for p in book.rules.data.catalogue.rest_spots if p.name == room.rest_place)
    where = (f"Between floor {room.floor} and floor {room.floor + 1}" if book.rules.floors
             else f"{_where(book, room)}: {spot.name}")
    text = [spot.text, *rest_lines(book.rules)]
    return Draft(("rest", room.number), "rest", where, tuple(text), _picks(room, "rest spot"),
                 tuple(_next_room(book, room)))


def _rest_here(book: Book, room: Room, k: int) -> Draft:
    """TC-21 Alt: a rest outside obstacle ``k``, at the room's rest cost."""
    text = ["You sit down where you are, before the obstacle, and rest. It costs you:",
            *setback_lines(book.rules, room.rest_cost), *rest_lines(book.rules)]
    return Draft(("rest-here", room.number, k), "rest", f"{_where(book, room)}, before "
                 f"obstacle {k} of {len(room.obstacles)}", tuple(text),
                 _picks(room, "rest cost"), (("Face the obstacle", ("obstacle", room.number, k)),))


def _victory(book: Book) -> Draft:
    texts = book.rules.data.catalogue.texts
    score = (f"Write your score: all {book.last} rooms cleared, and the CHALLENGE cards you "
             "rewrote on the way.")
    return Draft(VICTORY, "victory", f"Room {book.last} of {book.last}: the top",
                 (texts.victory, score), ending="victory")


def _defeat(book: Book) -> Draft:
    texts = book.rules.data.catalogue.texts
    score = ("Write your score: the rooms you cleared before this one, and the CHALLENGE "
             "cards you rewrote on the way.")
    return Draft(DEFEAT, "death", "Outside the tower", (texts.defeat, score), ending="death")


# -- the tapes (rulings.md 3.4 #4, 3.5 #7) -------------------------------------------------


def tapes(book: Book, seed: str) -> tuple[Tape, ...]:
    """Tape S for every shuffle and, when an ability refreshes cards, tape R for its picks;
    each from its own stream (design.md section 4)."""
    made = [_tape(seed, "S", ("number",), "shuffle", shuffle_bound(book))]
    if book.ability(AbilityKind.REFRESH_RANDOM_CARD) is not None:
        # TC-11 Faithful: a card and a place for it; Alt: a card, which goes on top.
        parts = ("card",) if book.rules.refresh_on_success_only else ("card", "place")
        made.append(_tape(seed, "R", parts, "refresh", refresh_bound(book)))
    return tuple(made)


def _tape(seed: str, name: str, parts: tuple[str, ...], purpose: str,
          bound: tuple[int, str]) -> Tape:
    entries, fallback = bound
    rolled = roll_tape(seed, RULESET, ("trial",), purpose, parts, entries, faces=TAPE_HIGH)
    return Tape(name, "trial", parts, rolled, 1, TAPE_HIGH, entries, fallback)


def shuffle_bound(book: Book) -> tuple[int, str]:
    """The entries of tape S that the longest play of the trial can take, and the fallback
    rule where play can take more ("" where it cannot).

    A shuffle of n cards takes n - 1 entries.  The shuffles: the starting deck (at most
    the largest starting deck, ARCANE's), each rest the trial gives (rest spots or floor
    ends, TC-20; under TC-21 Alt also one before each obstacle), and each energy drink the
    reader could have (as many as starting items, and every one found as loot).  The deck
    grows only by the CHALLENGE cards added at rests, at most ``challenge.max_per_rest_alt``
    a rest under TC-10 Alt; so after r rests it holds at most the starting deck plus r
    times that, and a drink shuffles no more than the whole deck after the last rest.  The
    bound is exact (no fallback) under TC-10 Alt with TC-21 Faithful; otherwise the rules
    allow more (any number of CHALLENGE cards, rests anywhere), and the bound is the same
    count with one CHALLENGE card a rest and one rest before each obstacle.
    """
    rules, trial = book.rules, book.trial
    deck = max(rules.data.starting_deck_size(a) for a in rules.data.abilities)
    grow = rules.data.checks.challenge_max_per_rest_alt
    rests = sum(1 for room in trial.rooms if book.rests_after(room))
    if rules.rest_anywhere:
        rests += sum(len(room.obstacles) for room in trial.rooms)
    drinks = 0
    if rules.restore_items:
        drinks = rules.data.character.max_starting_items
        drinks += sum(1 for room in trial.rooms if room.loot in rules.restore_items)
    entries = deck - 1 + sum(deck + r * grow - 1 for r in range(1, rests + 1))
    entries += drinks * (deck + rests * grow - 1)
    exact = rules.capped_challenges and not rules.rest_anywhere
    return entries, "" if exact else (
        "If tape S runs out (more CHALLENGE cards or more rests than it was made for), "
        "shuffle by hand from then on: the odds of the booklet assume a fair shuffle either "
        "way.")


def refresh_bound(book: Book) -> tuple[int, str]:
    """The entries of tape R (one a check, TC-11) that the longest play can take, and the
    fallback where play can take more.

    INDEFATIGABLE refreshes after every check (Faithful) or every check that succeeds
    (Alt), so tape R takes one entry a check.  A character has one ability (character
    creation), so no other one adds checks to an exchange.  Each obstacle is met once and
    beaten at most once: under TC-11 Alt the bound is the number of obstacles, exact; under
    TC-25 Alt a failure lets the reader past, so each obstacle takes one check, exact; under
    TC-25 Faithful a reader may try again without end, and the bound allows ``TRIES``
    tries of each, with the fallback for more.
    """
    rules = book.rules
    obstacles = sum(len(room.obstacles) for room in book.trial.rooms)
    if rules.refresh_on_success_only or rules.failure_passes:
        return obstacles, ""
    return obstacles * TRIES, (
        f"If tape R runs out (an obstacle tried more than {TRIES} times), pick the card and "
        "its place by shuffling by hand from then on.")
