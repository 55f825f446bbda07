"""Benchmark: how long a command takes to start, with the model cache cold and warm.

Run: ``.venv/bin/python -m bench startup``.  Every figure is the best of 5, each run a
fresh process, as a user starts one:

- ``towerpress simulate inverted-tower --runs 1 --seed 1`` cold (an empty cache folder
  each time: the content is loaded, validated and cached) and warm (the same command
  again), and ``towerpress --help``, with Python's own start-up (``python -c pass``) for
  scale;
- the warm start, phase by phase: Python, click, the command group, the command's module
  (the engine's shared modules and the model), the cache (its key, the entry, the ruleset
  unpickled with its engine's modules), the game;
- in one process, the content loaded and validated, against the same from the cache.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RUNS = 5
COMMAND = ("simulate", "inverted-tower", "--runs", "1", "--seed", "1")

# A warm start as its phases, each timed from the last: what the command's own start runs,
# in its order (generator/cli/main.py, cli/engine.py, cli/options.py).
PHASES = """
import time
marks = [time.perf_counter()]
import click
marks.append(time.perf_counter())
from generator.cli import main
marks.append(time.perf_counter())
from generator.cli import engine
marks.append(time.perf_counter())
from generator.engine.family import family_of
from generator.model import cache
from generator.model.loader import BUNDLED_CONTENT
from generator.rulesets import FAMILIES
marks.append(time.perf_counter())
key = cache.model_key(BUNDLED_CONTENT.resolve())
marks.append(time.perf_counter())
content = cache.load_cached(None, FAMILIES)
marks.append(time.perf_counter())
ruleset = content.ruleset("inverted-tower")
marks.append(time.perf_counter())
family = family_of(ruleset)
list(family.simulate(ruleset.data, ruleset.profile(), 1, "int:1", family.default_depth, None))
marks.append(time.perf_counter())
print(" ".join(str(b - a) for a, b in zip(marks, marks[1:])))
"""

PHASE_NAMES = (
    "import click",
    "the command group (cli/main.py)",
    "the command's module: engine.family, the model",
    "the cache's and the registry's modules",
    "the key: the package's .py files and the content hashed",
    "the entry read (the key again) and checked",
    "the ruleset unpickled, with its engine's modules",
    "one game",
)


def towerpress() -> list[str]:
    script = Path(sys.executable).with_name("towerpress")
    return [str(script)] if script.exists() else [sys.executable, "-m", "generator"]


def best(argv: list[str], env: dict[str, str], fresh_cache: bool = False) -> float:
    """The best wall time of RUNS runs of ``argv`` (each with an empty cache folder of
    its own if ``fresh_cache``)."""
    times = []
    for _ in range(RUNS):
        with tempfile.TemporaryDirectory() as folder:
            run_env = {**env, "TOWERPRESS_CACHE": folder} if fresh_cache else env
            start = time.perf_counter()
            subprocess.run(argv, env=run_env, stdout=subprocess.DEVNULL, check=True)
            times.append(time.perf_counter() - start)
    return min(times)


def phases(env: dict[str, str]) -> list[float]:
    """Each phase of a warm start: the best of RUNS, phase by phase."""
    found = []
    for _ in range(RUNS):
        out = subprocess.run([sys.executable, "-c", PHASES], env=env, capture_output=True,
                             text=True, check=True).stdout
        found.append([float(x) for x in out.split()])
    return [min(column) for column in zip(*found, strict=True)]


def in_process(env: dict[str, str]) -> tuple[float, float]:
    """The content loaded and validated, and the same from a warm cache (every ruleset
    unpickled), in this process: best of RUNS each."""
    os.environ["TOWERPRESS_CACHE"] = env["TOWERPRESS_CACHE"]
    from generator.model.cache import load_cached
    from generator.rulesets import FAMILIES, load_content

    load_content()  # the modules imported, the bundled files in the page cache
    fresh, cached = [], []
    for _ in range(RUNS):
        start = time.perf_counter()
        load_content()
        fresh.append(time.perf_counter() - start)
        start = time.perf_counter()
        list(load_cached(None, FAMILIES).rulesets.values())
        cached.append(time.perf_counter() - start)
    return min(fresh), min(cached)


def run() -> None:
    """Print the start-up figures."""
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, "TOWERPRESS_CACHE": folder}
        command = [*towerpress(), *COMMAND]
        python = best([sys.executable, "-c", "pass"], env)
        cold = best(command, env, fresh_cache=True)
        subprocess.run(command, env=env, stdout=subprocess.DEVNULL, check=True)
        warm = best(command, env)
        helped = best([*towerpress(), "--help"], env)
        print(f"towerpress {' '.join(COMMAND)}: cold {cold:.3f} s, warm {warm:.3f} s "
              f"(towerpress --help {helped:.3f} s; python -c pass {python:.3f} s; "
              f"best of {RUNS})")
        print("a warm start, phase by phase (best of each):")
        times = phases(env)
        print(f"  {'Python itself (python -c pass)':56} {python * 1000:6.1f} ms")
        for name, seconds in zip(PHASE_NAMES, times, strict=True):
            print(f"  {name:56} {seconds * 1000:6.1f} ms")
        fresh, cached = in_process(env)
        print(f"in one process, every ruleset: loaded and validated {fresh * 1000:.1f} ms, "
              f"from the cache {cached * 1000:.1f} ms")


if __name__ == "__main__":
    run()
