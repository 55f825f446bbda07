"""Stable seeded randomness (design.md section 4).

The engine never uses :mod:`random`, whose sequences Python does not promise to keep.
A stream is SplitMix64 (Steele, Lea and Flood 2014), a 64-bit generator with published
reference outputs, seeded from a BLAKE2b hash of everything that identifies the stream:
the user's seed, the ruleset, the generator's major version, the place (floor, level,
room) and the purpose (content, combat tape, wandering tape, shuffle).  Streams for
different purposes or places are therefore independent: a player who spends more
combat dice never changes what a later room holds.

Dice are drawn without modulo bias by rejection sampling.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from typing import Protocol, TypeVar

T = TypeVar("T")


class Rng(Protocol):
    """What a rule needs of a random source: a uniform integer in ``[0, n)``.

    :class:`SplitMix64` is the stable one, for anything printed or replayed; a family may
    simulate with a faster one seeded from it (design.md section 4), and tests pass
    scripted ones.
    """

    def below(self, n: int) -> int: ...


class DiceRng(Rng, Protocol):
    """A random source that also rolls dice and shuffles, for the rules that roll many:
    ``die(faces)`` is ``below(faces) + 1`` and ``shuffle`` is Fisher-Yates from the last
    position down, whatever the source, so that a game replays the same on any of them."""

    def die(self, faces: int = 6) -> int: ...

    def shuffle(self, items: list[int]) -> None: ...

MASK64 = (1 << 64) - 1
GENERATOR_MAJOR = 1  # bump when a stream's meaning changes: old seeds then give new dungeons


class SplitMix64:
    """SplitMix64: ``next()`` returns the next 64-bit output.

    The reference implementation seeded with 1234567 starts
    6457827717110365317, 3203168211198807973, 9817491932198370423.
    """

    __slots__ = ("state",)

    def __init__(self, seed: int):
        self.state = seed & MASK64

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``, unbiased (rejection of the short tail)."""
        if n <= 0:
            raise ValueError(f"below() needs a positive bound, got {n}")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            value = self.next()
            if value < limit:
                return value % n

    def die(self, faces: int = 6) -> int:
        """One roll of a die with ``faces`` faces: 1..faces."""
        return self.below(faces) + 1

    def dice(self, count: int, faces: int = 6) -> list[int]:
        return [self.die(faces) for _ in range(count)]

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: list[T]) -> None:
        """Fisher-Yates, in place, from the last position down."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


_INTEGER = re.compile(r"-?\d+")  # \d: the decimal digits of any script, as int() reads them


MAX_SEED = 200  # characters: a seed is typed or printed on a booklet's cover


def check_seed(text: str) -> None:
    """A seed as typed: ``normalise_seed`` takes it, and it fits on a booklet's cover.

    Raises:
        ValueError: an empty seed, one longer than MAX_SEED characters, or one that is not
            text (bytes that are not UTF-8 on the command line); the message says which.
    """
    if len(text) > MAX_SEED:  # first: int() refuses more than 4300 digits its own way
        raise ValueError(f"expected at most {MAX_SEED} characters, got {len(text)}")
    normalise_seed(text)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("expected text (it holds bytes that are not UTF-8)") from None


def normalise_seed(seed: int | str) -> str:
    """The canonical text of a seed: integers and strings give distinct streams.

    Raises:
        ValueError: an empty seed.
    """
    if isinstance(seed, int) and not isinstance(seed, bool):
        return f"int:{seed}"
    text = str(seed)
    if not text.strip():
        raise ValueError("expected an integer or non-empty text")
    # Only what int() reads is an integer: "¹" is a digit to str.isdigit() but not a
    # decimal one, and "--5" has one minus too many; both are text.  int() is given the
    # stripped text: str.strip() drops more than int() does ("0\x1f").
    stripped = text.strip()
    if _INTEGER.fullmatch(stripped):
        return f"int:{int(stripped)}"
    return f"str:{text}"


def stream_seed(seed: int | str, ruleset: str, *place: object, purpose: str) -> int:
    """The 64-bit seed of the stream for (seed, ruleset, major version, place, purpose)."""
    parts = [normalise_seed(seed), ruleset, f"v{GENERATOR_MAJOR}", purpose, *map(str, place)]
    digest = hashlib.blake2b("\x1f".join(parts).encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def stream(seed: int | str, ruleset: str, *place: object, purpose: str) -> SplitMix64:
    """An independent generator for one purpose at one place."""
    return SplitMix64(stream_seed(seed, ruleset, *place, purpose=purpose))
