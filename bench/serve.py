"""``towerpress serve``: how long a product page's preview takes, rendered and from the
cache.

Run: ``.venv/bin/python -m bench serve``.  A server on a free loopback port (started as a
person starts it); for each product, the seconds from asking ``/render/PRODUCT?...`` to its
status saying done (the render and its PNG previews, one worker free), then the same
request again (answered from the cache) and its first preview fetched.  Wall seconds: the
page waits for them.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from tests.web.client import request
from tests.web.server import serving

PRODUCTS = (
    ("sheet", "ruleset=inverted-tower"),
    ("log", "ruleset=three-dice-dungeon"),
    ("cards", "ruleset=inverted-tower"),
    ("rulebook", "ruleset=tower-of-choices"),
    ("booklet", "ruleset=three-dice-dungeon&seed=99"),
)
POLL = 0.02  # seconds between looks at a render's status


def _until_done(port: int, target: str) -> tuple[float, str]:
    """Seconds from asking ``target`` to its render being done, and its status URL."""
    start = time.perf_counter()
    url = request(port, target).json()["url"]
    while request(port, url).json()["state"] not in ("done", "failed"):
        time.sleep(POLL)
    return time.perf_counter() - start, url


def _cached(port: int, target: str, url: str) -> float:
    start = time.perf_counter()
    again = request(port, target).json()
    assert again["state"] == "done" and again["url"] == url, again
    request(port, f"{url}/preview-1.png")
    return time.perf_counter() - start


def run() -> None:
    with tempfile.TemporaryDirectory(prefix="bench-serve-") as folder, \
            serving(Path(folder)) as server:
        print("towerpress serve: seconds to a preview, rendered / from the cache (wall)")
        for product, query in PRODUCTS:
            target = f"/render/{product}?{query}"
            rendered, url = _until_done(server.port, target)
            cached = min(_cached(server.port, target, url) for _ in range(5))
            print(f"{product:<10}{query:<38}{rendered:>8.2f} s {cached * 1000:>9.1f} ms")


if __name__ == "__main__":
    run()
