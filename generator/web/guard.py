"""What stands before every request of ``towerpress serve``: only the host it serves (a page
elsewhere that points a name of its own at this machine, DNS rebinding, is refused), only
GET and HEAD, no body, a bounded address; and headers that keep its pages from loading
anything from elsewhere."""

from __future__ import annotations

import ipaddress
from collections.abc import Awaitable, Callable, Collection, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

DEFAULT_PORT = 80  # a browser leaves it out of the Host header
MAX_TARGET = 4096  # bytes of a request's path and query: a product's options take < 400
#: The pages' own policy: nothing but this server (the charts' SVG is inline).
PAGE_POLICY = ("default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
               "script-src 'self'; connect-src 'self'; frame-ancestors 'none'; "
               "form-action 'self'; base-uri 'none'")


class Guard:
    """ASGI middleware: refuse what the server does not serve, before any handler runs."""

    def __init__(self, app: ASGIApp, hosts: Collection[str], port: int, *,
                 addresses: bool = False) -> None:
        self.app, self.hosts, self.port = app, {h.lower() for h in hosts}, port
        self.addresses = addresses  # any IP address is this machine's (bound to all)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        refusal = self.refusal(scope)
        if refusal is not None:
            await _plain(send, *refusal)
            return
        await self.app(scope, receive, _with_policy(send))

    def refusal(self, scope: Scope) -> tuple[int, str] | None:
        """The status and line of a request refused, or None to serve it."""
        headers = {k.decode("latin-1").lower(): v.decode("latin-1")
                   for k, v in scope["headers"]}
        if not self.serves(headers.get("host", "")):
            return 421, "this server answers only to " + " or ".join(sorted(self.hosts))
        if scope["method"] not in ("GET", "HEAD"):
            return 405, "this server takes GET requests only"
        if headers.get("content-length", "0") != "0" or "transfer-encoding" in headers:
            return 413, "this server takes no request body"
        if len(scope.get("raw_path", b"")) + len(scope.get("query_string", b"")) > MAX_TARGET:
            return 414, f"the address is longer than {MAX_TARGET} bytes"
        return None


    def serves(self, host: str) -> bool:
        """Whether ``host`` (a Host header) names this server.  A name it was not given is
        refused, whatever address it resolves to: that is what a rebinding page sends.
        An address is not a name anyone else controls: where the server listens on every
        address, any of them is taken."""
        host = host.lower()
        name, _, port = host.rpartition(":") if not host.endswith("]") else (host, "", "")
        if host in self.hosts or (self.port == DEFAULT_PORT and f"{host}:{self.port}"
                                  in self.hosts):
            return True
        return self.addresses and port == str(self.port) and _address(name.strip("[]"))


def _address(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


def _with_policy(send: Send) -> Send:
    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            headers = list(message.get("headers", []))
            names = {name.lower() for name, _ in headers}
            if b"content-security-policy" not in names:
                headers.append((b"content-security-policy", PAGE_POLICY.encode()))
            headers += [(b"x-content-type-options", b"nosniff"),
                        (b"referrer-policy", b"no-referrer"),
                        (b"cache-control", b"no-store")]
            message["headers"] = headers
        await send(message)
    return sending


async def _plain(send: Send, status: int, line: str) -> None:
    body = f"towerpress: error: {line}\n".encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})
