"""The lines of a game a reader can follow (``towerpress play``): one Step per die and per
decision of the reference player.

The game (``game.py``) and the procedures (``procedures.py``) write these only when they
are handed a log, so the simulator pays nothing for them. Nothing here decides anything:
each function words what the rules and the policy decided, and gives the character's
sheet after it as the step's ``state``.

A step's ``dice`` are the raw dice that decided it. The dice a game draws, in the order
drawn, are those of its "room", "wander" and "attack" steps; a "trap" or "treasure" step
repeats the die of its room (or wandering check) that decides it (rulings.md 1.4: a room
draws all its dice at once).
"""

from __future__ import annotations

from generator.engine.playlog import StateValue, Step, state_of
from generator.rulesets.inverted_tower.entities import EventKind, TermSource
from generator.rulesets.inverted_tower.policy import Move, MoveKind, Policy, wandering_checks
from generator.rulesets.inverted_tower.rules import SLOT_OF_EFFECT, Gain, Outcome, Rules
from generator.rulesets.inverted_tower.state import (
    FloorState,
    Hero,
    RoomContent,
    RoomKind,
    WanderRoll,
)

# -- the sheet and the words ------------------------------------------------------------------


def sheet(rules: Rules, hero: Hero, floor: int) -> tuple[tuple[str, StateValue], ...]:
    """A step's ``state``: the floor, then the character sheet (rulings.md 1.1)."""
    values: dict[str, StateValue] = {
        "floor": floor, "hp": hero.hp, "max_hp": hero.max_hp, "level": hero.level,
        "xp": hero.xp, "gold": hero.gold, "daggers": hero.daggers, "potions": hero.potions,
    }
    for attribute, value in zip(rules.data.character.attributes, hero.attributes, strict=True):
        values[attribute.code] = value
    return state_of(values)


def _step(rules: Rules, hero: Hero, floor: int, what: str, text: str,
          dice: tuple[int, ...] = (), ruling: str = "") -> Step:
    return Step(what, text, dice, ruling, sheet(rules, hero, floor))


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def items(rules: Rules, gain: Gain) -> str:
    """A gain in the data's item names: "1 gp, 1 dagger"."""
    parts = []
    for item in rules.data.items:
        n = getattr(gain, SLOT_OF_EFFECT[item.effect.kind].value)
        if n:
            name = item.name if n == 1 else item.plural
            parts.append(f"{n} {item.abbreviation or name.lower()}")
    return ", ".join(parts) or "nothing"


def foe_name(rules: Rules, foe_id: str) -> str:
    return rules.data.monster(foe_id).name.lower()


def _code(rules: Rules, index: int) -> str:
    return rules.data.character.attributes[index].code


def _event_name(rules: Rules, kind: EventKind | None) -> str:
    names = {row.value.kind: row.value.name for row in rules.data.events.table.rows}
    return names[kind].lower() if kind is not None else ""


# -- the character and the floors --------------------------------------------------------------


def start(rules: Rules, hero: Hero, index: int) -> list[Step]:
    """The new character, and where the reference player put the starting point."""
    code = _code(rules, index)
    kit = items(rules, Gain(hero.gold, hero.daggers, hero.potions))
    return [
        _step(rules, hero, rules.first_floor, "decision",
              f"the starting point goes to {code}: the three trap kinds are equally likely, "
              "so every attribute helps the same, and combat adds the highest"),
        _step(rules, hero, rules.first_floor, "start",
              f"a new character: {hero.hp} HP, {code} {hero.attributes[index]}, level "
              f"{hero.level}, {kit}", ruling="IT-12"),
    ]


def floor(rules: Rules, hero: Hero, number: int) -> Step:
    return _step(rules, hero, number, "floor", f"Floor {number}: room 1 is next")


def won(rules: Rules, hero: Hero, number: int) -> Step:
    return _step(rules, hero, number, "end",
                 f"down the stairs of floor {number}, the last of the run: the run is won",
                 ruling="IT-27")


def death(rules: Rules, hero: Hero, number: int, room: int, killer: str) -> Step:
    return _step(rules, hero, number, "death",
                 f"HP {hero.hp}: the character dies to {killer} on floor {number}, room "
                 f"{room}, and the run ends", ruling="IT-11")


# -- the reference player's moves ---------------------------------------------------------------


def move(rules: Rules, policy: Policy, hero: Hero, fs: FloorState, chosen: Move) -> Step:
    """A move and its reason (``Policy.next_move``)."""
    return _step(rules, hero, fs.floor, "decision", _move_text(rules, hero, fs, chosen),
                 ruling=_move_ruling(rules, fs, chosen))


def _move_text(rules: Rules, hero: Hero, fs: FloorState, chosen: Move) -> str:
    if chosen.kind is MoveKind.EXPLORE:
        if not fs.stairs_found:
            return "explore a new room: the stairs are not found yet"
        return "explore a new room: the boss must fall before going down"
    if chosen.kind is MoveKind.DESCEND:
        return f"go down the stairs of room {fs.position}"
    kind = fs.rooms[chosen.room - 1].kind
    checks = _plural(wandering_checks(rules, fs.position, chosen.room), "wandering check")
    if kind is RoomKind.BONFIRE:
        where, reason = "bonfire", f"{hero.max_hp - hero.hp} HP missing"
    elif kind is RoomKind.MERCHANT:
        where, reason = "merchant", f"{hero.gold} gp to spend"
    else:
        where, reason = "stairs", "to go down"
    return f"walk back to the {where} in room {chosen.room}: {reason}, {checks} on the way"


def _move_ruling(rules: Rules, fs: FloorState, chosen: Move) -> str:
    if chosen.kind is MoveKind.BACK:
        return "IT-23"
    if chosen.kind is MoveKind.EXPLORE and fs.stairs_found:
        return "IT-26"
    return "IT-26" if chosen.kind is MoveKind.DESCEND and rules.boss_always else ""


# -- a new room ----------------------------------------------------------------------------------


def room(rules: Rules, before: FloorState, content: RoomContent, hero: Hero) -> Step:
    """A new room: every die drawn for it, and what the dice read decide (rulings.md 1.3)."""
    parts, ruling = _room_dice(rules, before, content)
    text = f"Room {content.index}: {_headline(rules, content)}; " + "; ".join(parts)
    return _step(rules, hero, before.floor, "room", text, content.roll.dice(), ruling)


def _headline(rules: Rules, content: RoomContent) -> str:
    kind = content.kind
    if kind is RoomKind.LAIR:
        minions = len(content.foes) - 1
        where = "the stairs and the boss lair" if content.stairs else "the boss lair"
        head = f"{where}, {_plural(minions, 'minion')} and the boss"
    elif kind is RoomKind.ENCOUNTER:
        elites = content.foes.count(rules.elite.id)
        head = f"an encounter, {_plural(content.monsters, 'monster')}"
        head += f", {elites} elite" if elites else ""
    elif kind is RoomKind.TRAP:
        head = f"a trap ({_code(rules, content.trap_attribute)})"
    else:
        head = f"the {kind.value}"
    return head + (", the floor's last room" if content.last else "")


def _room_dice(rules: Rules, before: FloorState, content: RoomContent) -> tuple[list[str], str]:
    """What each die read says, and the ruling that decided the room's kind."""
    r = content.roll
    parts = []
    if content.dead_end is not None:  # IT-18: read only once the stairs are known
        parts.append(f"dead-end check {r.dead_end} " + ("passes" if content.dead_end else "fails"))
    if content.kind is RoomKind.LAIR:
        return parts + _lair_dice(rules, content), "IT-18"
    if content.index == rules.max_rooms and content.stairs and not before.stairs_found:
        return [*parts, f"room {content.index} without the stairs: the stairs"], "IT-18"
    if rules.first_room_encounter and content.index == 1:
        parts.append("a floor's first room is an encounter")
        ruling = "IT-32"
    elif not rules.room_check[r.event_check]:
        parts.append(f"room check {r.event_check} fails: an encounter")
        ruling = "IT-01"
    else:
        events = [r.event_roll, *r.rerolls]
        rolled = ", again ".join(f"{d}: {_event_name(rules, rules.event_of[d])}" for d in events)
        parts.append(f"room check {r.event_check} passes, event roll {rolled}")
        ruling = "IT-02" if content.converted or r.rerolls else "IT-01"
        if content.converted:
            parts.append("already on this floor: an encounter instead")
    if content.kind is RoomKind.ENCOUNTER:
        parts += _encounter_dice(rules, r.elite, r.count, content.elite)
    elif content.kind is RoomKind.TRAP:
        parts.append(f"trap die {r.trap_kind}: {_code(rules, content.trap_attribute)}")
    if content.treasure is not None:
        parts.append(f"treasure {r.treasure} {_treasure_when(rules, content.kind)}: "
                     f"{items(rules, content.treasure)}")
    return parts, ruling


def _treasure_when(rules: Rules, kind: RoomKind) -> str:
    if kind is not RoomKind.TRAP:
        return "if won"
    return "whether passed or not" if rules.trap_fail_treasure else "if passed"


def _encounter_dice(rules: Rules, elite_die: int, count_die: int, elite: bool) -> list[str]:
    return [f"elite check {elite_die} " + ("passes" if elite else "fails"),
            f"count {count_die}: {_plural(rules.monster_count[count_die], 'monster')}"]


def _lair_dice(rules: Rules, content: RoomContent) -> list[str]:
    r = content.roll
    parts = [f"minion check {r.minions} " + ("passes" if rules.minion_check[r.minions]
                                             else "fails")]
    if content.treasure is not None:  # IT-25 Alt
        dice = " ".join(str(d) for d in (r.treasure, *r.extra_treasure))
        parts.append(f"treasure {dice}: {items(rules, content.treasure)}")
    parts.append(f"loot {items(rules, content.loot)}")
    return parts


def wander(rules: Rules, hero: Hero, number: int, to_room: int, roll: WanderRoll,
           foes: tuple[str, ...], treasure: Gain | None) -> Step:
    """One wandering-monster check on a move back (IT-22, IT-23, IT-24)."""
    dice = (roll.check, roll.elite, roll.count, roll.treasure)
    if not foes:
        return _step(rules, hero, number, "wander",
                     f"wandering check {roll.check} on the way to room {to_room} fails: "
                     "no monster", dice, "IT-23")
    elites = foes.count(rules.elite.id)
    parts = [f"wandering check {roll.check} on the way to room {to_room} passes: "
             f"{_plural(len(foes), 'monster')}" + (f", {elites} elite" if elites else ""),
             *_encounter_dice(rules, roll.elite, roll.count, bool(elites))]
    if treasure is not None:
        parts.append(f"treasure {roll.treasure} if won: {items(rules, treasure)}")
    return _step(rules, hero, number, "wander", "; ".join(parts), dice, "IT-24")


def treasure(rules: Rules, hero: Hero, number: int, die: int, gain: Gain) -> Step:
    return _step(rules, hero, number, "treasure", f"treasure {die}: {items(rules, gain)}",
                 (die,), "IT-15")


def loot(rules: Rules, hero: Hero, number: int) -> Step:
    return _step(rules, hero, number, "loot", f"the boss's loot: {items(rules, rules.loot)}",
                 ruling="IT-25")


def bonfire(rules: Rules, hero: Hero, number: int, again: bool) -> Step:
    return _step(rules, hero, number, "bonfire",
                 f"the bonfire: rest to HP {hero.hp} of {hero.max_hp}",
                 ruling="IT-22" if again else "IT-14")


def shop(rules: Rules, policy: Policy, before: Hero, after: Hero, number: int) -> Step:
    """The merchant (IT-21): what the reference player buys, and why."""
    if not rules.merchant_sells:
        text = "sell nothing to the merchant: gold buys nothing else (IT-33)"
    elif after == before:
        text = f"buy nothing: {before.gold} gp pays for no potion or dagger"
    else:
        bought = items(rules, Gain(0, after.daggers - before.daggers,
                                   after.potions - before.potions))
        text = (f"buy {bought} for {before.gold - after.gold} gp: potions first, up to "
                f"{policy.potion_stock}, then daggers")
    return _step(rules, after, number, "decision", text, ruling="IT-21")


# -- a roll ---------------------------------------------------------------------------------


def drink(rules: Rules, before: Hero, after: Hero, number: int, coming: str) -> Step:
    """A potion the reference player drinks before a roll, or between rooms (IT-10)."""
    reason = f"HP {before.hp} and {coming}" if coming else f"HP {before.hp} between rooms"
    return _step(rules, after, number, "decision", f"drink a potion: {reason}",
                 ruling="IT-10")


def last_gasp(rules: Rules, after: Hero, number: int) -> Step:
    return _step(rules, after, number, "potion",
                 f"HP 0: the potion carried is drunk by itself, HP {after.hp}", ruling="IT-11")


def daggers(rules: Rules, after: Hero, number: int, k: int, die: int | None) -> Step:
    """Daggers spent after seeing ``die`` (IT-10 Faithful), or declared before the roll."""
    if die is None:
        text = f"declare {_plural(k, 'dagger')} before the roll: a miss would cost the last HP"
    else:
        text = f"spend {_plural(k, 'dagger')} on the {die}: enough to turn the miss into a hit"
    return _step(rules, after, number, "decision", text, ruling="IT-10")


def attack(rules: Rules, after: Hero, number: int, foe_id: str, left: int, die: int,
           index: int, attribute: int, level: int, daggers_used: int) -> Step:
    """One combat roll against the current foe (IT-07, IT-08, IT-17) and what it did."""
    foe = rules.foe(foe_id)
    modifier = rules.modifier(foe, attribute, number, level)
    bonus = foe.dagger_sign * rules.dagger_amount * daggers_used
    outcome = rules.outcome(die, bonus, modifier, rules.combat_target)
    sums = f"{die}{_terms(rules, foe.mods, index, attribute, number, level)}"
    if bonus:
        kept = " carried" if rules.daggers_kept else ""
        sums += f" + {_plural(daggers_used, 'dagger')}{kept}"
    reading = _reading(rules, outcome, die, sums, die + modifier + bonus, rules.combat_target)
    result = (f"a hit, the {foe_name(rules, foe_id)} falls, +{foe.xp} XP" if outcome.hit
              else f"a miss, -{rules.combat_damage} HP")
    # IT-08 decides an effective six; IT-07 the sum against an elite or the boss.
    summed = outcome in (Outcome.HIT, Outcome.MISS) and foe_id != rules.normal.id
    ruling = "IT-08" if outcome is Outcome.EFFECTIVE_SIX else "IT-07" if summed else ""
    text = f"attack on the {foe_name(rules, foe_id)} ({left} left): {reading}: {result}"
    return _step(rules, after, number, "attack", text, (die,), ruling)


def _terms(rules: Rules, mods: tuple[tuple[TermSource, int], ...], index: int,
           attribute: int, number: int, level: int) -> str:
    """The non-dagger terms of a roll in print: " + STR 1 - floor 1"."""
    out = ""
    for source, sign in mods:
        if source is TermSource.ATTRIBUTE:
            label, value = _code(rules, index), attribute
        elif source is TermSource.FLOOR:
            label, value = "floor", rules.floor_term(number)
        else:
            label, value = "level", level
        out += f" {'+' if sign > 0 else '-'} {label} {value}"
    return out


def trap(rules: Rules, after: Hero, number: int, index: int, attribute: int, die: int,
         passed: bool, spent: int) -> Step:
    """A trap check (IT-16): the die plus the trap's attribute, maybe minus the floor."""
    floor_term = rules.floor_term(number) if rules.trap_subtracts_floor else 0
    modifier, bonus = attribute - floor_term, spent * rules.dagger_amount
    outcome = rules.outcome(die, bonus, modifier, rules.trap_target)
    sums = f"{die} + {_code(rules, index)} {attribute}"
    sums += f" - floor {floor_term}" if rules.trap_subtracts_floor else ""
    sums += f" + {_plural(spent, 'dagger')}" if spent else ""
    reading = _reading(rules, outcome, die, sums, die + modifier + bonus, rules.trap_target)
    result = "passed" if passed else f"failed, -{rules.trap_damage} HP"
    return _step(rules, after, number, "trap", f"trap check {reading}: {result}", (die,),
                 "IT-16")


def _reading(rules: Rules, outcome: Outcome, die: int, sums: str, total: int,
             target: int) -> str:
    """How a roll read: its sum against the target, or the critical face that decided."""
    if outcome is Outcome.NATURAL_MISS:
        return f"a natural {die}, which always fails"
    if outcome is Outcome.NATURAL_HIT:
        return f"a natural {die}, which always succeeds"
    if outcome is Outcome.EFFECTIVE_SIX:
        return f"{sums} reaches the critical {rules.crit_success}"
    return f"{sums} = {total}, {target} needed"


def level_up(rules: Rules, before: Hero, after: Hero, number: int, index: int) -> list[Step]:
    """A new level (IT-12, IT-13) and where the reference player put its point."""
    code = _code(rules, index)
    return [
        _step(rules, before, number, "decision",
              f"the new level's point goes to {code}: the highest attribute, the one combat adds"),
        _step(rules, after, number, "level",
              f"level {after.level}: Max HP {after.max_hp}, HP {after.hp}, {code} "
              f"{after.attributes[index]}; the next level at {rules.level_cost(after.level)} XP",
              ruling="IT-12"),
    ]
