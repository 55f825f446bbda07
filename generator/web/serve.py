"""``towerpress serve``: the products as web pages on this machine, for players who would
rather pick, see and download than type a command."""

from __future__ import annotations

import hashlib
import ipaddress
import multiprocessing
import socket
import tempfile
import threading
import webbrowser
from pathlib import Path

import click

from generator.cli.options import content_option, load
from generator.errors import TowerpressError
from generator.model.digest import update_with_folder
from generator.render.parallel import available_cpus, worker_pool
from generator.render.pdf import load_weasyprint
from generator.resources import PACKAGE, TEMPLATES
from generator.web.app import Site, create_app
from generator.web.guard import Guard
from generator.web.jobs import Jobs

MAX_CONNECTIONS = 32  # at once; past that uvicorn answers 503
HEADER_BYTES = 16 * 1024  # a request's line and headers
BACKLOG = 64  # connections waiting to be accepted


@click.command()
@click.option("--port", type=click.IntRange(1, 65535), default=8765, show_default=True,
              help="TCP port to listen on.")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; another than this machine's loopback lets other "
                   "machines in (with a warning).")
@content_option
@click.option("--open", "open_browser", is_flag=True, help="Open the page in a browser.")
def serve(port: int, host: str, content_dir: Path | None, open_browser: bool) -> None:
    """Serve every product as a web page: pick its options, see its first pages, download it
    (Ctrl-C stops the server)."""
    import uvicorn  # here: the other commands never need it

    content_dir = content_dir.resolve() if content_dir is not None else None
    content = load(content_dir)
    if not _loopback(host):
        click.echo(f"towerpress: warning: serving on {host}: any machine that reaches this "
                   "one can use the server and fill its queue", err=True)
    listening = _listen(host, port)  # a port taken fails now, in one line
    load_weasyprint()  # before the workers fork, for them to inherit
    workers = available_cpus()
    with tempfile.TemporaryDirectory(prefix="towerpress-serve-") as folder, \
            worker_pool(workers, multiprocessing.get_context("fork"), wait=False) as pool:
        pool.submit(int).result()  # every worker forked now, before the server's threads
        jobs = Jobs(pool, workers, Path(folder), _base_hash(content.root))
        site = Site(content, str(content_dir) if content_dir else None, jobs)
        app = Guard(create_app(site), _hosts(host, port), port,
                    addresses=_everywhere(host))
        url = f"http://{_in_url(host)}:{port}/"
        click.echo(f"towerpress: serving on {url} (Ctrl-C to stop)", err=True)
        if open_browser:
            threading.Timer(0.5, webbrowser.open, (url,)).start()
        config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off",
                                limit_concurrency=MAX_CONNECTIONS, timeout_graceful_shutdown=1,
                                h11_max_incomplete_event_size=HEADER_BYTES)
        uvicorn.Server(config).run(sockets=[listening])
    click.echo("towerpress: stopped", err=True)


def _listen(host: str, port: int) -> socket.socket:
    """A socket listening on ``host`` and ``port``: the server is reachable once this
    returns, and says so; uvicorn accepts on it.

    Raises:
        TowerpressError: the address is not this machine's, or the port is taken.
    """
    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(BACKLOG)
    except OSError as exc:
        raise TowerpressError(f"cannot listen on {host} port {port}: "
                              f"{exc.strerror or exc}") from None
    return sock


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _everywhere(host: str) -> bool:
    """Whether ``host`` is every address of this machine (0.0.0.0, ::)."""
    try:
        return ipaddress.ip_address(host).is_unspecified
    except ValueError:
        return False


def _in_url(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def _hosts(host: str, port: int) -> set[str]:
    """The Host headers this server answers to: its address (and ``localhost`` on the
    loopback), with the port."""
    names = {_in_url(host)} | ({"localhost", "127.0.0.1", "[::1]"} if _loopback(host) else set())
    return {f"{name}:{port}" for name in names}


def _base_hash(content_root: Path) -> str:
    """What every render is made from: the program, the templates and the content."""
    digest = hashlib.sha256()
    for folder, patterns in ((PACKAGE, ("*.py",)), (TEMPLATES, ("*",)), (content_root, ("*",))):
        update_with_folder(digest, folder, folder, patterns)
    return digest.hexdigest()
