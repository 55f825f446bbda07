"""``towerpress serve`` over plain HTTP: what it refuses, what it says of bad options (the
command line's own line), its cache, its ruleset pages, and what a stop leaves behind."""

from __future__ import annotations

import os
import re
import signal
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlencode

import pytest

from generator.model.loader import Content
from tests.commands import run, run_here
from tests.web.client import finished, request
from tests.web.server import Server, serving


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with serving(tmp_path_factory.mktemp("serve-tmp")) as running:
        yield running


def test_it_answers_only_to_the_host_it_serves(server: Server) -> None:
    assert request(server.port, "/").status == 200
    assert request(server.port, "/", host=f"localhost:{server.port}").status == 200
    refused = request(server.port, "/", host=f"rebind.example:{server.port}")
    assert refused.status == 421
    assert refused.text.startswith("towerpress: error: this server answers only to ")
    assert request(server.port, "/", host="127.0.0.1:1").status == 421


def test_it_takes_gets_without_a_body_and_of_a_bounded_size(server: Server) -> None:
    assert request(server.port, "/", method="POST").status == 405
    assert request(server.port, "/", body=b"x" * 10).status == 413
    assert request(server.port, "/sheet?paper=" + "a" * 5000).status == 414


@pytest.mark.parametrize("target", [
    "/static/../pyproject.toml", "/static/..%2Fweb%2Fbase.html", "/static/base.html",
    "/fonts/..%2F..%2Fpyproject.toml", "/jobs/../../etc/passwd",
    "/jobs/0123456789abcdef0123456789abcdef/..%2F..%2Fpyproject.toml",
    "/jobs/0123456789abcdef0123456789abcdef", "/rulesets/..%2Fcontent", "/etc/passwd",
])
def test_no_address_reaches_a_file_it_did_not_render(server: Server, target: str) -> None:
    reply = request(server.port, target)
    assert reply.status == 404, target
    assert b"[project]" not in reply.body and b"root:" not in reply.body


def test_its_pages_load_nothing_from_elsewhere(server: Server) -> None:
    reply = request(server.port, "/booklet?ruleset=tower-of-choices&seed=" + "9" * 201)
    policy = reply.headers["content-security-policy"]
    assert "default-src 'self'" in policy and "script-src 'self'" in policy
    assert not re.search(r"""(?:src|href)=["']?(?:https?:)?//""", reply.text)


# A bad option of each kind: one the command's types refuse (found before any render), one
# its own code refuses (in the worker, as the command runs): (product, options, argv).
BAD = [
    ("booklet", {"ruleset": "tower-of-choices", "seed": "9" * 201},
     ["booklet", "tower-of-choices", "--seed", "9" * 201]),
    ("rulebook", {"ruleset": "inverted-tower", "paper": "b5"},
     ["rulebook", "inverted-tower", "--paper", "b5"]),
    ("booklet", {"ruleset": "three-dice-dungeon", "depth": "0"},
     ["booklet", "three-dice-dungeon", "--seed", "1234", "--floors", "0"]),
    ("sheet", {"ruleset": "no-such-game"}, ["sheet", "no-such-game"]),
    ("cards", {"ruleset": "tower-of-choices", "bleed": "50"},
     ["cards", "tower-of-choices", "--bleed", "50"]),
    ("log", {"ruleset": "inverted-tower", "floors": "100"},
     ["log", "inverted-tower", "--floors", "100"]),
    ("cards", {"ruleset": "inverted-tower", "ability": "Luck"},
     ["cards", "inverted-tower", "--ability", "Luck"]),
]


@pytest.mark.parametrize(("product", "options", "argv"), BAD)
def test_a_bad_option_gets_the_command_lines_line_and_400(
        server: Server, product: str, options: dict[str, str], argv: list[str]) -> None:
    said = run_here(*argv)
    assert said.returncode == 2 and said.stderr.count("\n") == 1, said.stderr
    query = urlencode(options)
    first = request(server.port, f"/render/{product}?{query}")
    if first.status == 200:  # found by the command as it runs
        assert finished(server.port, first.json()["url"])["error"] == said.stderr.strip()
        assert request(server.port, first.json()["url"]).status == 400
    else:
        assert (first.status, first.json()["error"]) == (400, said.stderr.strip())
    page = request(server.port, f"/{product}?{query}")
    assert page.status == 400
    assert _escaped(said.stderr.strip()) in page.text


def _escaped(line: str) -> str:
    return line.replace("&", "&amp;").replace("'", "&#39;").replace('"', "&#34;")


def test_the_same_request_is_answered_from_the_cache(server: Server) -> None:
    target = "/render/log?ruleset=three-dice-dungeon&paper=a5&floors=2"
    job = finished(server.port, request(server.port, target).json()["url"])
    assert job["state"] == "done", job
    start = time.perf_counter()
    again = request(server.port, target).json()
    assert (again["state"], again["url"]) == ("done", job["url"])
    assert time.perf_counter() - start < 5  # no render: a generous bound for a busy machine
    pdf = re.search(r'href="(/jobs/\w+/three-dice-dungeon-log-a5\.pdf)"', again["html"])
    assert pdf is not None, again["html"]
    reply = request(server.port, pdf.group(1))
    assert reply.body.startswith(b"%PDF-") and reply.headers["content-type"] == "application/pdf"
    assert "attachment" in reply.headers["content-disposition"]


def test_the_ruleset_page_sets_the_profiles_side_by_side(server: Server,
                                                         content: Content) -> None:
    ruleset = content.ruleset("three-dice-dungeon")
    page = request(server.port, f"/rulesets/{ruleset.id}")
    key = re.search(r'data-job="(\w+)"', page.text)
    assert page.status == 200 and key is not None
    job = finished(server.port, f"/jobs/{key.group(1)}")
    assert job["state"] == "done", job
    html = request(server.port, f"/rulesets/{ruleset.id}").text
    assert html.count("<polyline") == len(ruleset.profiles)
    for profile in ruleset.profiles.values():
        assert f"&amp;profile_id={profile.id}" in html
    readings = {r.id: {p.reading(r.id) for p in ruleset.profiles.values()}
                for r in ruleset.rulings}
    differing = sorted(i for i, chosen in readings.items() if len(chosen) > 1)
    assert differing and re.findall(r'class="ruling-id">([\w-]+)<', html) == differing


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT])
def test_a_stopped_server_leaves_no_worker_and_no_temporary_file(tmp_path: Path,
                                                                 stop: int) -> None:
    with serving(tmp_path) as running:
        target = "/render/sheet?ruleset=tower-of-choices&paper=letter"
        request(running.port, target)  # stopped while it renders, or after
        workers = running.children()
        assert workers
        running.process.send_signal(stop)
        running.process.wait(30)
        assert running.process.returncode in (0, 128 + stop, 130)
    time.sleep(0.5)
    left = [pid for pid in workers if os.path.exists(f"/proc/{pid}")
            and "zombie" not in _state(pid)]
    assert left == []
    assert list(tmp_path.iterdir()) == []


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/status").read_text().split("State:")[1].split("\n")[0]
    except (OSError, IndexError):
        return "zombie"


def test_another_host_is_served_with_a_warning_and_only_by_address(tmp_path: Path) -> None:
    with serving(tmp_path, "--host", "0.0.0.0") as running:
        assert running.said[0].startswith("towerpress: warning: serving on 0.0.0.0: ")
        assert request(running.port, "/", host=f"127.0.0.1:{running.port}").status == 200
        assert request(running.port, "/", host=f"[::1]:{running.port}").status == 200
        assert request(running.port, "/", host=f"rebind.example:{running.port}").status == 421


def test_a_port_taken_is_one_line(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        said = run("serve", "--port", str(port))
    assert (said.returncode, said.stderr) == (
        2, f"towerpress: error: cannot listen on 127.0.0.1 port {port}: Address already in use\n")
