"""The package as a user installs it: a wheel of the checkout, in a fresh virtual environment
and run from outside the repository, renders the book that the editable install renders,
byte for byte."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import venv
import zipfile
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pypdf
import pytest

ROOT = Path(__file__).resolve().parents[1]
# What setuptools reads to build the wheel (README.md is the project's readme).  It builds
# from a copy: in the checkout it would write its build/ into the products' build folder.
SOURCES = ("pyproject.toml", "setup.py", "README.md", "generator", "content", "templates")
# Nothing from the checkout may reach the installed program through the environment.
ENV = {
    **{k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")},
    "PIP_DISABLE_PIP_VERSION_CHECK": "1",
}
BOOK = ("rulebook", "tower-of-choices", "--paper", "a5", "-o", "book.pdf")


@dataclass(frozen=True)
class Installed:
    wheel: Path
    prefix: Path  # the fresh virtual environment
    towerpress: Path  # its console script
    work: Path  # a working folder outside the repository
    # Run while the wheel is built and the book rendered: the editable install's render of
    # BOOK (into its folder), and the installed program's validate.
    dev_book: Future[subprocess.CompletedProcess[str]]
    dev_folder: Path
    validate: Future[subprocess.CompletedProcess[str]]


def run(*argv: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(a) for a in argv], cwd=cwd, env=ENV, capture_output=True,
                          text=True, check=False, timeout=300)


def _checked(result: subprocess.CompletedProcess[str]) -> subprocess.CompletedProcess[str]:
    assert result.returncode == 0, result.stdout + result.stderr
    return result


def _files(folder: Path, pattern: str = "*") -> set[str]:
    """The files of ``folder``, by their path inside the repository."""
    return {p.relative_to(ROOT).as_posix() for p in folder.rglob(pattern)
            if p.is_file() and "__pycache__" not in p.parts}


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Installed]:
    top = tmp_path_factory.mktemp("wheel")
    pool = ThreadPoolExecutor()
    try:
        source, dist, prefix, work, dev = (
            top / name for name in ("source", "dist", "venv", "work", "dev"))
        for folder in (source, work, dev):
            folder.mkdir()
        dev_book = pool.submit(run, sys.executable, "-m", "generator", *BOOK, cwd=dev)
        for name in SOURCES:
            if (ROOT / name).is_dir():
                shutil.copytree(ROOT / name, source / name,
                                ignore=shutil.ignore_patterns("__pycache__"))
            else:
                shutil.copy2(ROOT / name, source / name)
        # Offline and in seconds: the setuptools of the test extras, by the hook that
        # `pip wheel --no-build-isolation` calls (without pip's start, which takes longer).
        _checked(run(sys.executable, "-c", "import sys; from setuptools import build_meta;"
                     "build_meta.build_wheel(sys.argv[1])", dist, cwd=source))
        (wheel,) = dist.glob("towerpress-*.whl")
        venv.create(prefix, with_pip=False)
        # Installed before the environment sees the dev venv: pip would take the editable
        # install there for this one, and leave the wheel out.
        _checked(run(sys.executable, "-m", "pip", "--python", prefix / "bin" / "python",
                     "install", "--no-deps", "--no-index", "--quiet", wheel, cwd=top))
        # The dependencies, from the dev venv without downloading them again.  A path in a
        # .pth file is only added to sys.path: the .pth files there, the editable finder's
        # among them, are not run.
        site = sysconfig.get_path("purelib", vars={"base": str(prefix), "platbase": str(prefix)})
        Path(site, "dev-venv.pth").write_text(sysconfig.get_path("purelib") + "\n",
                                              encoding="utf-8")
        towerpress = prefix / "bin" / "towerpress"
        validate = pool.submit(run, towerpress, "validate", cwd=work)
        yield Installed(wheel, prefix, towerpress, work, dev_book, dev, validate)
    finally:
        pool.shutdown()  # the commands end (each has a timeout) before their folders go
        shutil.rmtree(top)


def test_the_wheel_holds_the_program_the_content_and_the_templates(
    installed: Installed,
) -> None:
    with zipfile.ZipFile(installed.wheel) as wheel:
        names = set(wheel.namelist())
    # Every module of generator/, a new ruleset's too (setup.py finds the packages).
    modules = _files(ROOT / "generator", "*.py")
    assert modules <= names, f"the wheel lacks {sorted(modules - names)}"
    assert "generator/render/fonts.conf" in names
    for folder in ("content", "templates"):
        files = {f"generator/{name}" for name in _files(ROOT / folder)}
        assert len(files) > 10
        assert files <= names, f"the wheel lacks {sorted(files - names)}"


def test_the_installed_program_is_the_wheels(installed: Installed) -> None:
    result = _checked(run(
        installed.prefix / "bin" / "python", "-c",
        "import generator, generator.resources as r;"
        "print(generator.__file__, r.BUNDLED_CONTENT, r.TEMPLATES, sep='\\n')",
        cwd=installed.work))
    module, content, templates = (Path(line).resolve() for line in result.stdout.splitlines())
    assert module.is_relative_to(installed.prefix.resolve()), "the editable install leaked in"
    assert content.parent == templates.parent == module.parent
    assert (content.name, templates.name) == ("content", "templates")


def test_the_installed_rulebook_is_the_checkouts(installed: Installed) -> None:
    result = run(installed.towerpress, *BOOK, cwd=installed.work)
    assert result.returncode == 0, result.stderr
    _checked(installed.dev_book.result())
    made, expected = installed.work / "book.pdf", installed.dev_folder / "book.pdf"
    pages = len(pypdf.PdfReader(made).pages)
    assert pages > 20
    assert result.stdout == f"wrote book.pdf ({pages} pages)\n"
    assert made.read_bytes() == expected.read_bytes()


def test_the_installed_validate(installed: Installed) -> None:
    result = installed.validate.result()
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    lines = result.stdout.splitlines()
    assert [line.split(":")[0] for line in lines] == [
        "inverted-tower", "three-dice-dungeon", "tower-of-choices"]
    assert all(": ok (" in line for line in lines)
