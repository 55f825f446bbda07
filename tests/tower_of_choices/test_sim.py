"""Simulated runs of Tower of Choices: invariants at every step, determinism, profiles."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from generator.engine.playlog import Step
from generator.engine.report import RunOutcome, summarise
from generator.engine.rng import stream
from generator.model.common import Profile
from generator.rulesets.tower_of_choices.character import character_violations, random_character
from generator.rulesets.tower_of_choices.family import FAMILY
from generator.rulesets.tower_of_choices.game import play_trial
from generator.rulesets.tower_of_choices.policy import Policy
from generator.rulesets.tower_of_choices.simulate import run_once
from generator.rulesets.tower_of_choices.state import RULESET, RunState
from generator.rulesets.tower_of_choices.trial import generate_trial
from tests.tower_of_choices.support import data, profile, rules, ruleset

ALTS = (
    "TC-02", "TC-03", "TC-04", "TC-05", "TC-06", "TC-07", "TC-08", "TC-09", "TC-10", "TC-11",
    "TC-12", "TC-14", "TC-15", "TC-16", "TC-17", "TC-18", "TC-20", "TC-21", "TC-25",
)  # fmt: skip


def profiles() -> list[Profile]:
    return [profile(), profile("gentle"), profile(alts=ALTS), profile(alts=("TC-04", "TC-12")),
            profile("balanced")]


def test_alts_are_every_ruling_with_two_readings_but_narrative_ones() -> None:
    with_alt = {r.id for r in ruleset().rulings if r.alt}
    # TC-22..TC-24 have one reading; TC-19 and TC-13 too.
    assert set(ALTS) == with_alt


def test_the_engine_is_registered_as_specified() -> None:
    assert FAMILY.id == "tower-of-choices"
    assert (FAMILY.depth_name, FAMILY.has_end, FAMILY.default_depth) == ("room", True, 8)
    assert set(FAMILY.odds) == {"check", "key-numbers"}


class Watch:
    """Checks the invariants after every step of a run (rulings.md 3.5, invariant 6)."""

    def __init__(self) -> None:
        self.steps = 0
        self.added = 0
        self.seen = 0

    def __call__(self, st: RunState) -> None:
        self.steps += 1
        # Cards are conserved: pile + hand + discard + kept aside = owned.
        held = len(st.pile) + len(st.hand) + len(st.discard) + st.reserve
        assert held == st.card_total(), st.snapshot()
        assert st.hand == [] and st.reserve >= 0 and st.hindered >= 0
        # Challenge cards enter the deck only at a rest.
        assert st.book is not None
        logged = st.book.steps
        new = logged[self.seen :]
        self.seen = len(logged)
        if st.challenges_added != self.added:
            assert "rest" in [s.what for s in new], new
            self.added = st.challenges_added
        # Each challenge card drawn was rewritten or removed exactly once.
        fates = [s.text for s in logged if s.what == "challenge"]
        converted = [re.match(r"the CHALLENGE card is rewritten as (.+?)(,|$)", t) for t in fates]
        removed = sum("leaves the game" in t for t in fates)
        names = [m.group(1) for m in converted if m]
        assert (len(names), removed) == (st.challenges_converted, st.challenges_removed)
        # Rewritten names are skills.
        assert set(names) <= set(data().skill_names)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), depth=st.integers(1, 10), which=st.integers(0, 4))
def test_invariants_hold_at_every_step(seed: int, depth: int, which: int) -> None:
    prof = profiles()[which]
    place = ("prop", str(seed))
    hero = random_character(rules(prof), stream(seed, RULESET, *place, purpose="character"))
    assert character_violations(rules(prof), hero) == []
    trial = generate_trial(rules(prof), str(seed), depth, place)
    watch = Watch()
    outcome, final = play_trial(
        rules(prof), trial, hero, stream(seed, RULESET, *place, purpose="shuffle"),
        log=[], on_step=watch,
    )  # fmt: skip
    watch(final)
    assert 1 <= outcome.depth <= depth
    assert outcome.won == (outcome.death is None)
    assert outcome.rooms == (depth if outcome.won else outcome.depth - 1)
    assert outcome.death in (None, "exhausted", "wounds")
    assert outcome.death != "wounds" or prof.alt("TC-18")
    assert final.wounds == 0 or prof.alt("TC-18")
    carried = len(final.items)
    assert carried <= data().character.carry_limit


def test_same_seed_same_outcomes() -> None:
    runs = list(FAMILY.simulate(data(), profile(), 60, "int:7", 6, None))
    assert runs == list(FAMILY.simulate(data(), profile(), 60, "int:7", 6, None))
    assert runs != list(FAMILY.simulate(data(), profile(), 60, "int:8", 6, None))
    assert all(isinstance(r, RunOutcome) for r in runs)


def test_progress_is_reported() -> None:
    seen: list[int] = []
    list(FAMILY.simulate(data(), profile(), 5, "int:1", 2, seen.append))
    assert seen == [5]


def test_gentle_is_gentler_than_as_written() -> None:
    def won(base: str) -> float:
        outs = FAMILY.simulate(data(), profile(base), 200, "int:3", 6, None)
        report = summarise(
            outs, ruleset=RULESET, profile=base, seed="3", depth_name="room", has_end=True
        )
        assert report.won is not None
        return report.won

    assert won("gentle") > won("as-written") + 0.1


def test_a_policy_that_never_saves_cards_is_a_valid_policy() -> None:
    prof = profile()
    hero = random_character(rules(prof), stream(1, RULESET, purpose="character"))
    trial = generate_trial(rules(prof), "1", 4)
    greedy = Policy(tolerance=0 * Policy().tolerance)
    outcome, _ = play_trial(rules(prof), trial, hero, stream(1, RULESET, purpose="s"), greedy)
    assert 1 <= outcome.depth <= 4


def outcomes(prof: Profile, runs: int, seed: str = "int:1") -> list[RunOutcome]:
    return list(FAMILY.simulate(data(), prof, runs, seed, FAMILY.default_depth, None))


def won_share(prof: Profile, runs: int) -> float:
    return sum(o.won for o in outcomes(prof, runs)) / runs


def test_balanced_finishes_a_fifth_to_a_half_of_the_trials() -> None:
    # Issue 24, point 5 (10,000 runs give 40%; the profile's description says so).
    assert 0.2 <= won_share(profile("balanced"), 400) <= 0.5


def test_tc10_alt_changes_simulated_runs() -> None:
    # Issue 24: the reference player adds two challenge cards to a strong deck, so the Alt
    # limit of one a rest changes games (169 of the first 3,000 of seed 1).
    balanced = profile("balanced")
    assert outcomes(balanced, 60) != outcomes(profile("balanced", ("TC-10",)), 60)


def test_tc09_alt_changes_a_simulated_run() -> None:
    # Issue 24: TC-09 matters only in a draw of four cards or more holding two challenge
    # cards and two skills; the reference player meets one in about 1,700 runs, and run
    # 16076 of seed 1 (found by search) is the first whose outcome it changes.
    run = 16076
    faithful, alt = rules(profile("balanced")), rules(profile("balanced", ("TC-09",)))
    ends = [run_once(r, "int:1", run, FAMILY.default_depth, Policy()) for r in (faithful, alt)]
    assert ends[0].won and not ends[1].won


def test_tc25_alt_changes_simulated_runs() -> None:
    assert won_share(profile(), 100) < won_share(profile(alts=("TC-25",)), 100)


def test_few_successes_come_without_a_card() -> None:
    # Issue 24, point 6: when every generic obstacle took every approach, a shield made
    # Defense a pass without drawing (TC-05) everywhere: 36.5% of the successful checks of
    # 2,000 runs drew no card.  Obstacles now name 2-4 approaches: 9.8%.
    rules_ = rules(profile())
    successes = free = 0
    for run in range(300):
        log: list[Step] = []
        run_once(rules_, "int:1", run, FAMILY.default_depth, Policy(), log)
        checks = [s.text for s in log if s.what == "check" and s.text.endswith(": success")]
        successes += len(checks)
        free += sum(text.startswith("drew no card") for text in checks)
    assert successes > 100 and free / successes < 0.2
