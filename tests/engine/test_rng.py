"""The stable generator: published SplitMix64 vectors, dice, streams and seeds."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.engine.rng import (
    GENERATOR_MAJOR,
    SplitMix64,
    check_seed,
    normalise_seed,
    stream,
    stream_seed,
)

# The reference C implementation (Vigna, prng.di.unimi.it/splitmix64.c) seeded with 1234567.
REFERENCE_1234567 = (6457827717110365317, 3203168211198807973, 9817491932198370423)

# Chi-square critical value for 5 degrees of freedom at p = 0.001.
CHI2_5_P001 = 20.515


def test_splitmix64_reference_vectors() -> None:
    rng = SplitMix64(1234567)
    assert tuple(rng.next() for _ in range(3)) == REFERENCE_1234567


def test_seed_is_taken_modulo_two_to_the_64() -> None:
    assert SplitMix64(1234567 + (1 << 64)).next() == REFERENCE_1234567[0]
    assert SplitMix64(-1).state == (1 << 64) - 1


def test_die_range_and_uniformity() -> None:
    rng = SplitMix64(20240601)
    rolls = 60_000
    counts = Counter(rng.die() for _ in range(rolls))
    assert set(counts) == set(range(1, 7))
    expected = rolls / 6
    chi2 = sum((counts[face] - expected) ** 2 / expected for face in range(1, 7))
    assert chi2 < CHI2_5_P001, counts


@settings(max_examples=50)
@given(seed=st.integers(0, 2**64 - 1), faces=st.integers(1, 1000))
def test_die_and_below_stay_in_range(seed: int, faces: int) -> None:
    rng = SplitMix64(seed)
    assert all(1 <= rng.die(faces) <= faces for _ in range(20))
    assert all(0 <= rng.below(faces) < faces for _ in range(20))


def test_below_needs_a_positive_bound() -> None:
    with pytest.raises(ValueError, match="positive bound"):
        SplitMix64(1).below(0)


@settings(max_examples=50)
@given(seed=st.integers(0, 2**64 - 1), items=st.lists(st.integers(), max_size=30))
def test_shuffle_is_a_permutation(seed: int, items: list[int]) -> None:
    shuffled = list(items)
    SplitMix64(seed).shuffle(shuffled)
    assert sorted(shuffled) == sorted(items)
    again = list(items)
    SplitMix64(seed).shuffle(again)
    assert again == shuffled  # same seed, same order


def test_shuffle_reaches_every_order_of_three() -> None:
    orders = set()
    for seed in range(200):
        items = [1, 2, 3]
        SplitMix64(seed).shuffle(items)
        orders.add(tuple(items))
    assert len(orders) == 6


def test_choice_picks_from_the_items() -> None:
    rng = SplitMix64(3)
    picks = {rng.choice("abc") for _ in range(100)}
    assert picks == {"a", "b", "c"}


def test_streams_are_independent_by_purpose_and_place() -> None:
    def first(*place: object, purpose: str, seed: int | str = 1) -> tuple[int, ...]:
        rng = stream(seed, "inverted-tower", *place, purpose=purpose)
        return tuple(rng.next() for _ in range(4))

    base = first(1, purpose="content")
    assert base == first(1, purpose="content")  # deterministic
    others = [
        first(1, purpose="combat"),
        first(2, purpose="content"),
        first(1, 1, purpose="content"),
        first(1, purpose="content", seed=2),
        tuple(stream(1, "three-dice-dungeon", 1, purpose="content").next() for _ in range(4)),
    ]
    assert all(other != base for other in others)
    assert len({base, *others}) == len(others) + 1
    assert stream_seed(1, "x", purpose="p") != stream_seed(1, "x", purpose="q")
    assert 0 <= stream_seed(1, "x", purpose="p") < 1 << 64


def test_stream_seed_names_the_generator_version() -> None:
    # Bumping GENERATOR_MAJOR must change every stream: the version is part of the hash.
    assert GENERATOR_MAJOR >= 1


def test_normalise_seed_rules() -> None:
    assert normalise_seed(5) == "int:5"
    assert normalise_seed("5") == "int:5"
    assert normalise_seed(" 5 ") == "int:5"
    assert normalise_seed("-3") == "int:-3"
    assert normalise_seed(-3) == "int:-3"
    assert normalise_seed("007") == "int:7"
    assert normalise_seed("abc") == "str:abc"
    assert normalise_seed("5a") == "str:5a"
    assert normalise_seed(True) == "str:True"  # a bool is not taken for an integer
    # Digits that int() does not read are text, not an error (found by hypothesis).
    assert normalise_seed("\u00b9") == "str:\u00b9"  # superscript one
    assert normalise_seed("--5") == "str:--5"
    assert normalise_seed("-") == "str:-"
    assert normalise_seed("\u0663") == "int:3"  # Arabic-Indic three, a decimal digit
    assert normalise_seed("0\x1f") == "int:0"  # str.strip() drops \x1f, int() does not
    # Integers and their text give the same stream, other text another one.
    assert stream_seed(12, "r", purpose="p") == stream_seed("12", "r", purpose="p")
    assert stream_seed(12, "r", purpose="p") != stream_seed("twelve", "r", purpose="p")


@given(st.text(min_size=1, max_size=8).filter(lambda s: s.strip() != ""))
def test_any_text_is_a_seed(text: str) -> None:
    """Text is a seed as it is, unless it is an integer int() reads: never an error."""
    canonical = normalise_seed(text)
    if canonical.startswith("int:"):
        assert canonical == f"int:{int(text.strip())}"
    else:
        assert canonical == f"str:{text}"


@pytest.mark.parametrize("empty", ["", " ", "\t\n"])
def test_an_empty_seed_is_an_error(empty: str) -> None:
    with pytest.raises(ValueError, match="expected an integer or non-empty text"):
        normalise_seed(empty)
    with pytest.raises(ValueError, match="expected an integer or non-empty text"):
        stream(empty, "inverted-tower", purpose="content")


def test_a_typed_seed_is_short_text() -> None:
    check_seed("x" * 200)
    # Its canonical form is longer, and streams are drawn from it.
    assert stream("x" * 200, "inverted-tower", purpose="content").next() >= 0
    with pytest.raises(ValueError, match="expected at most 200 characters, got 5000"):
        check_seed("9" * 5000)  # int() of it would fail too: above 4300 digits
    with pytest.raises(ValueError, match="not UTF-8"):
        check_seed(b"\xff".decode("utf-8", "surrogateescape"))  # as argv holds it
    with pytest.raises(ValueError, match="expected an integer or non-empty text"):
        check_seed(" ")
