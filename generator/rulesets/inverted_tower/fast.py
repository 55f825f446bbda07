"""The fast simulator: the reference game (``game.py``) flattened into one closure.

Same rules, same reference player, same dice in the same order as :func:`game.play` on
a :class:`~generator.rulesets.inverted_tower.game.TapeDice`; a test plays both on many
tapes and requires identical outcomes and dice consumed. What makes it fast:

* every table comes from :class:`~generator.rulesets.inverted_tower.rules.Rules`, as
  tuples indexed by the natural die (dagger needs per (foe, attribute, floor, level),
  trap passes, checks, splits, treasure), refreshed only when the floor or level changes;
* dice are read from a ``bytes`` tape by index: no call and no object per roll;
* the character and the floor are local integers; event kinds on the floor are a bit set.

Only what the shipped profiles need is flattened; :func:`fast_supported` says when a
profile or policy needs the reference path instead (the simulator then uses it).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from generator.rulesets.inverted_tower.entities import EventKind
from generator.rulesets.inverted_tower.game import last_floor
from generator.rulesets.inverted_tower.policy import Policy, wandering_checks
from generator.rulesets.inverted_tower.procedures import new_hero
from generator.rulesets.inverted_tower.rules import Rules
from generator.rulesets.inverted_tower.state import ROOM_FIELDS, WANDER_FIELDS

#: Cause codes of :data:`FastGame` results, indexed: 0 is a win.
CAUSES: tuple[str | None, ...] = (None, "monster", "elite", "boss", "trap", "wandering monster")
_WON, _MONSTER, _ELITE, _BOSS, _TRAP, _WANDER = range(6)
_KIND_CODE = {EventKind.TRAP: 0, EventKind.MERCHANT: 1, EventKind.BONFIRE: 2,
              EventKind.STAIRS: 3}

#: ``game(tape, cursor) -> (depth, cause code, rooms, cursor after)``; IndexError when the
#: tape runs out.
FastGame = Callable[[bytes, int], tuple[int, int, int, int]]
#: ``batch(tape, cursor, games, out) -> cursor``: appends one code per game to ``out``
#: (see :func:`decode`) and stops early when the tape runs out.
FastBatch = Callable[[bytes, int, int, list[int]], int]
_CAUSE_BITS = 3
_ROOMS_SHIFT = 24  # bits of the depth (floors reached) inside a game code


def fast_supported(rules: Rules, policy: Policy) -> bool:
    """True when the fast path implements every reading of ``rules`` and ``policy``."""
    return (
        type(policy) is Policy
        and not rules.daggers_kept  # IT-09 Alt
        and not rules.daggers_before_roll  # IT-10 Alt
        and not rules.potions_between_rooms_only  # IT-10 Alt
        and not rules.wandering_per_room  # IT-23 Alt
        and not rules.repeat_rerolls  # IT-02 Alt
        and not rules.trap_daggers
        and not rules.trap_fail_treasure
        and rules.lair_treasure_rolls <= 1
        and rules.faces < 256
        and rules.normal == rules.minion
        and wandering_checks(rules, 2, 1) <= policy.trip_checks
        and policy.starting_attribute(rules) == 0
    )


def make_fast_batch(rules: Rules, policy: Policy, floors: int) -> FastBatch:
    """The closure that plays games from a tape (see :data:`FastBatch`).

    Raises:
        ValueError: the fast path does not cover this profile or policy.
    """
    if not fast_supported(rules, policy):
        raise ValueError(f"profile {rules.profile.id!r} needs the reference simulator")

    o_de, o_ec, o_er, o_tk, o_tc, o_el, o_ct, o_tr, o_mn = (
        ROOM_FIELDS.index(f) for f in ("dead_end", "event_check", "event_roll", "trap_kind",
                                       "trap_check", "elite", "count", "treasure", "minions"))
    room_len = len(ROOM_FIELDS)
    w_ck, w_el, w_ct, w_tr = (WANDER_FIELDS.index(f)
                              for f in ("check", "elite", "count", "treasure"))
    wander_len = len(WANDER_FIELDS)

    first_floor = rules.first_floor
    final = last_floor(rules, floors)
    max_rooms = rules.max_rooms
    room_check = rules.room_check
    dead_end_check = rules.dead_end_check
    event_code = (-1, *(_KIND_CODE[k] for k in rules.event_of[1:] if k is not None))
    once = sum(1 << _KIND_CODE[k] for k in rules.once_per_floor)
    trap_attribute = rules.trap_attribute
    elite_check = rules.elite_check
    count = rules.monster_count
    minions = tuple(rules.minions_on_pass if p else rules.minions_on_fail
                    for p in rules.minion_check)
    all_elite = rules.all_elite
    t_gold = tuple(g.gold for g in rules.treasure)
    t_dag = tuple(g.daggers for g in rules.treasure)
    t_pot = tuple(g.potions for g in rules.treasure)
    after_trap = rules.treasure_after_trap
    after_encounter = rules.treasure_after_encounter
    after_wander = rules.wandering_treasure and after_encounter
    lair_treasure = rules.lair_treasure_rolls > 0
    loot = rules.loot
    forced_lair = rules.forced_lair
    dead_end_lair = rules.dead_end_lair
    first_encounter = rules.first_room_encounter
    wander_check = rules.wandering_check
    reusable = rules.events_reusable
    sells = rules.merchant_sells
    boss_always = rules.boss_always
    damage = rules.combat_damage
    trap_damage = rules.trap_damage
    gasp = rules.last_gasp
    # IT-10/11: the reference player drinks before a roll that could kill, unless a potion
    # is drunk by itself at 0 HP; a threshold below any HP switches the check off.
    pre_combat = -(1 << 30) if gasp else damage
    pre_trap = -(1 << 30) if gasp else trap_damage
    hp_gain, max_gain, attr_gain = rules.hp_gain, rules.max_hp_gain, rules.attribute_gain
    xp_total = rules.xp_total
    xn, xe, xb = rules.normal.xp, rules.elite.xp, rules.boss.xp
    normal, elite_foe, boss_foe = rules.normal, rules.elite, rules.boss
    need = rules.daggers_needed
    trap_passes = rules.trap_passes
    level_cost = rules.level_cost
    rest_missing = policy.rest_missing
    prices = [p for p in (rules.potion_price, rules.dagger_price) if p is not None]
    cheapest = min(prices) if prices else 1 << 30
    hero0 = new_hero(rules, policy)
    base = hero0.attributes
    n_attr = len(base)
    shop_cache: dict[tuple[int, int, int], tuple[int, int]] = {}

    def shopping(gold: int, potions: int, daggers: int) -> tuple[int, int]:
        key = (gold, potions, daggers)
        found = shop_cache.get(key)
        if found is None:
            found = policy.shopping(rules, replace(hero0, gold=gold, potions=potions,
                                                   daggers=daggers))
            shop_cache[key] = found
        return found

    Tables = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[tuple[bool, ...], ...]]
    table_cache: dict[tuple[int, int, int], Tables] = {}

    def tables(atk: int, floor: int, level: int) -> Tables:
        """Dagger needs against each foe and trap passes per attribute, for one state."""
        key = (atk, floor, level)
        found = table_cache.get(key)
        if found is None:
            found = table_cache[key] = (
                need(normal, atk, floor, level),
                need(elite_foe, atk, floor, level),
                need(boss_foe, atk, floor, level),
                tuple(trap_passes(atk if i == 0 else base[i], floor) for i in range(n_attr)),
            )
        return found

    stride = rules.faces + 1
    trap_code, _, bonfire_code, stairs_code = (
        _KIND_CODE[k] for k in (EventKind.TRAP, EventKind.MERCHANT, EventKind.BONFIRE,
                                EventKind.STAIRS))
    # IT-01: the kind of a room from its check and event dice (-1: an encounter).
    room_kind = tuple(event_code[er] if ec and er and room_check[ec] else -1
                      for ec in range(stride) for er in range(stride))
    # IT-02/03: the bit of each kind that can appear once per floor.
    once_bit = tuple(1 << code if once >> code & 1 else 0 for code in range(len(_KIND_CODE)))
    # IT-04/05/06: ordinary monsters and elites of an encounter from its two dice.
    enc_normal: list[int] = []
    enc_elite: list[int] = []
    for el in range(stride):
        for ct in range(stride):
            n = count[ct] if el and ct else 0
            e = (n if all_elite else 1) if el and ct and elite_check[el] else 0
            enc_normal.append(n - e)
            enc_elite.append(e)
    enc_n, enc_e = tuple(enc_normal), tuple(enc_elite)
    p_price = rules.potion_price or 0
    d_price = rules.dagger_price or 0
    # After a miss, HP at or below ``low`` means: drink before the next roll, or die.
    low = max(pre_combat, 0)
    hp0, level0, xp0 = hero0.hp, hero0.level, hero0.xp
    gold0, dg0, pot0, atk0 = hero0.gold, hero0.daggers, hero0.potions, base[0]
    xneed0 = level_cost(level0)

    def shop(gold: int, pot: int, dg: int) -> tuple[int, int, int]:
        """The merchant (IT-21): what the reference player buys."""
        if not sells or gold < cheapest:
            return gold, pot, dg
        bp, bd = shopping(gold, pot, dg)
        return gold - bp * p_price - bd * d_price, pot + bp, dg + bd

    def batch(t: bytes, c: int, games: int, out: list[int]) -> int:
        """Play up to ``games`` games from ``t[c:]``, appending their codes to ``out``.

        Returns the cursor after the last game played; when the tape runs out, stops and
        returns the first die of the game that could not finish.
        """
        append = out.append
        start = c
        try:
            for _ in range(games):
                start = c
                hp = mx = hp0
                atk, level, xp, xneed = atk0, level0, xp0, xneed0
                gold, dg, pot = gold0, dg0, pot0
                rooms = cause = 0
                floor = first_floor
                while True:
                    # -- a new floor --------------------------------------------------------
                    nn, ne, nb, tt = tables(atk, floor, level)
                    k = pos = stairs = bonfire = merchant = boss = blocked = 0
                    last = known = False
                    while True:
                        # -- the reference player's next move (Policy.next_move) -------------
                        target = 0
                        if known:  # a bonfire, a merchant or the stairs is in the log
                            if reusable:
                                if bonfire and bonfire != pos and mx - hp >= rest_missing:
                                    target = bonfire
                                elif (merchant and merchant != pos and gold >= cheapest
                                      and shopping(gold, pot, dg) != (0, 0)):
                                    target = merchant
                            if not target and stairs and (
                                    not boss_always or boss or last or k >= max_rooms):
                                if pos == stairs:
                                    break  # descend
                                target = stairs
                        if target:
                            # -- a move back: one wandering check (IT-22/23/24) -------------
                            w = c
                            c += wander_len
                            pos = target
                            if not wander_check[t[w + w_ck]]:
                                if target == bonfire:
                                    hp = mx
                                elif target == merchant:
                                    gold, pot, dg = shop(gold, pot, dg)
                                continue
                            x = t[w + w_el] * stride + t[w + w_ct]
                            cn, ce, cb = enc_n[x], enc_e[x], 0
                            ctx = _WANDER
                            gain = t[w + w_tr] if after_wander else 0
                        else:
                            # -- a new room (rulings.md 1.3) --------------------------------
                            r = c
                            c += room_len
                            k += 1
                            pos = k
                            lair = False
                            if stairs:
                                # IT-18: the dead-end check; Faithful, the boss lair.
                                if dead_end_check[t[r + o_de]]:
                                    last = True
                                    lair = dead_end_lair
                            elif k == max_rooms:
                                # The last possible room without stairs: stairs and lair.
                                stairs = k
                                last = known = True
                                if not forced_lair:
                                    continue
                                lair = True
                            if k == max_rooms:
                                last = True
                            if lair:
                                cn, ce, cb, boss = minions[t[r + o_mn]], 0, 1, k
                                ctx = _BOSS
                                gain = t[r + o_tr] if lair_treasure else 0
                            else:
                                kind = -1 if first_encounter and k == 1 else room_kind[
                                    t[r + o_ec] * stride + t[r + o_er]]
                                if kind >= 0:
                                    bit = once_bit[kind]
                                    if bit & blocked:
                                        kind = -1  # IT-02: a repeated kind is an encounter
                                    else:
                                        blocked |= bit
                                if kind < 0:
                                    x = t[r + o_el] * stride + t[r + o_ct]
                                    cn, ce, cb = enc_n[x], enc_e[x], 0
                                    ctx = _MONSTER
                                    gain = t[r + o_tr] if after_encounter else 0
                                elif kind == trap_code:
                                    # IT-16: no daggers; a potion first if it could kill.
                                    if hp <= pre_trap and pot:
                                        pot -= 1
                                        hp = mx
                                    if tt[trap_attribute[t[r + o_tk]]][t[r + o_tc]]:
                                        if after_trap:  # IT-15
                                            f = t[r + o_tr]
                                            gold += t_gold[f]
                                            dg += t_dag[f]
                                            pot += t_pot[f]
                                    else:
                                        hp -= trap_damage
                                        if hp <= 0:
                                            if gasp and pot:  # IT-11
                                                pot -= 1
                                                hp = mx
                                            else:
                                                cause = _TRAP
                                                break
                                    continue
                                elif kind == stairs_code:
                                    stairs = k
                                    known = True
                                    continue
                                elif kind == bonfire_code:
                                    if not bonfire:
                                        bonfire = k
                                    hp = mx
                                    known = True
                                    continue
                                else:
                                    if not merchant:
                                        merchant = k
                                    known = True
                                    gold, pot, dg = shop(gold, pot, dg)
                                    continue
                        # -- the fight (IT-17): ordinary monsters, elites, then the boss ----
                        if hp <= pre_combat and pot:  # IT-10
                            pot -= 1
                            hp = mx
                        while cn:
                            needed = nn[t[c]]
                            c += 1
                            if needed <= dg:  # a hit, with the daggers it needs (IT-10)
                                dg -= needed
                                cn -= 1
                                xp += xn
                                if xp >= xneed:
                                    while xp >= xneed:  # IT-12, IT-13
                                        if not xp_total:
                                            xp -= xneed
                                        level += 1
                                        mx += max_gain
                                        hp = min(mx, hp + hp_gain)
                                        atk += attr_gain
                                        xneed = level_cost(level)
                                    nn, ne, nb, tt = tables(atk, floor, level)
                            else:
                                hp -= damage
                                if hp <= low:
                                    if hp > 0:
                                        if pot:  # drink before the next roll (IT-10)
                                            pot -= 1
                                            hp = mx
                                    elif gasp and pot:  # IT-11
                                        pot -= 1
                                        hp = mx
                                    else:
                                        cause = _MONSTER
                                        break
                        while ce and not cause:
                            needed = ne[t[c]]
                            c += 1
                            if needed <= dg:
                                dg -= needed
                                ce -= 1
                                xp += xe
                                if xp >= xneed:
                                    while xp >= xneed:
                                        if not xp_total:
                                            xp -= xneed
                                        level += 1
                                        mx += max_gain
                                        hp = min(mx, hp + hp_gain)
                                        atk += attr_gain
                                        xneed = level_cost(level)
                                    nn, ne, nb, tt = tables(atk, floor, level)
                            else:
                                hp -= damage
                                if hp <= low:
                                    if hp > 0:
                                        if pot:
                                            pot -= 1
                                            hp = mx
                                    elif gasp and pot:
                                        pot -= 1
                                        hp = mx
                                    else:
                                        cause = _ELITE
                                        break
                        while cb and not cause:
                            needed = nb[t[c]]
                            c += 1
                            if needed <= dg:
                                dg -= needed
                                cb -= 1
                                xp += xb
                                if xp >= xneed:
                                    while xp >= xneed:
                                        if not xp_total:
                                            xp -= xneed
                                        level += 1
                                        mx += max_gain
                                        hp = min(mx, hp + hp_gain)
                                        atk += attr_gain
                                        xneed = level_cost(level)
                                    nn, ne, nb, tt = tables(atk, floor, level)
                            else:
                                hp -= damage
                                if hp <= low:
                                    if hp > 0:
                                        if pot:
                                            pot -= 1
                                            hp = mx
                                    elif gasp and pot:
                                        pot -= 1
                                        hp = mx
                                    else:
                                        cause = _BOSS
                                        break
                        if cause:
                            if ctx == _WANDER:
                                cause = _WANDER
                            break
                        if gain:  # IT-15, IT-24
                            gold += t_gold[gain]
                            dg += t_dag[gain]
                            pot += t_pot[gain]
                        if ctx == _BOSS:  # the boss's fixed loot (IT-25)
                            gold += loot.gold
                            dg += loot.daggers
                            pot += loot.potions
                        elif ctx == _WANDER:
                            # The room's event on arrival (IT-22): heal, or shop.
                            if target == bonfire:
                                hp = mx
                            elif target == merchant:
                                gold, pot, dg = shop(gold, pot, dg)
                    rooms += k
                    if cause or floor >= final:
                        break
                    floor += 1
                append((rooms << _ROOMS_SHIFT | (floor - first_floor + 1)) << _CAUSE_BITS
                       | cause)
        except IndexError:
            return start
        return c

    return batch


def decode(code: int) -> tuple[int, int, int]:
    """(depth, cause code, rooms) of a game code from a :data:`FastBatch`."""
    cause = code & ((1 << _CAUSE_BITS) - 1)
    code >>= _CAUSE_BITS
    return code & ((1 << _ROOMS_SHIFT) - 1), cause, code >> _ROOMS_SHIFT


def make_fast_game(rules: Rules, policy: Policy, floors: int) -> FastGame:
    """One game at a time from the fast batch (for tests and step-by-step comparisons)."""
    batch = make_fast_batch(rules, policy, floors)

    def game(t: bytes, c: int) -> tuple[int, int, int, int]:
        out: list[int] = []
        after = batch(t, c, 1, out)
        if not out:
            raise IndexError("the tape ran out")
        depth, cause, rooms = decode(out[0])
        return depth, cause, rooms, after

    return game
