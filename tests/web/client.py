"""Plain HTTP to the tests' server (http.client: every header as the test sets it)."""

from __future__ import annotations

import http.client
import json
import time
from dataclasses import dataclass
from typing import Any

RENDER_WAIT = 180.0  # seconds for a render, on a machine busy with the other tests


@dataclass(frozen=True)
class Reply:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)

    @property
    def text(self) -> str:
        return self.body.decode()


def request(port: int, target: str, *, method: str = "GET", host: str | None = None,
            body: bytes | None = None) -> Reply:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        connection.putrequest(method, target, skip_host=True)
        connection.putheader("Host", host or f"127.0.0.1:{port}")
        if body is not None:
            connection.putheader("Content-Length", str(len(body)))
        connection.endheaders(body)
        response = connection.getresponse()
        return Reply(response.status, {k.lower(): v for k, v in response.getheaders()},
                     response.read())
    finally:
        connection.close()


def finished(port: int, url: str) -> dict[str, Any]:
    """The status of the job at ``url`` once it is done or failed."""
    deadline = time.monotonic() + RENDER_WAIT
    while time.monotonic() < deadline:
        job: dict[str, Any] = request(port, url).json()
        if job["state"] in ("done", "failed"):
            return job
        time.sleep(0.2)
    raise AssertionError(f"{url} did not finish in {RENDER_WAIT:.0f} s")
