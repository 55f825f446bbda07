"""Start-up: commands imported when they run, and the cache of validated content models
(generator/model/cache.py)."""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import pickle
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import click
import pytest

from generator.cli.content import list_command
from generator.cli.main import COMMANDS, cli
from generator.errors import ContentError
from generator.model import cache
from generator.model.family import Families
from generator.model.loader import BUNDLED_CONTENT, Content, Ruleset, load_tree
from generator.rulesets import FAMILIES, load_content
from tests.commands import run_here
from tests.content import edit

RULESET = "inverted-tower"


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """This test's own cache folder."""
    path = tmp_path / "cache"
    monkeypatch.setenv(cache.CACHE_VARIABLE, str(path))
    return path


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A writable copy of one ruleset, the smallest content to load."""
    target = tmp_path / RULESET
    shutil.copytree(BUNDLED_CONTENT / RULESET, target)
    return target


@pytest.fixture
def loads(monkeypatch: pytest.MonkeyPatch) -> list[Path | None]:
    """The folders the loader itself was asked to read (a cache hit adds none)."""
    asked: list[Path | None] = []

    def counted(root: Path | None, families: Families) -> Content:
        asked.append(root)
        return load_tree(root, families)

    monkeypatch.setattr("generator.model.cache.load_tree", counted)
    return asked


def entries(folder: Path) -> list[Path]:
    return sorted(folder.glob(f"*{cache.SUFFIX}"))


def assert_same_model(cached: Content, fresh: Content) -> None:
    assert cached.root == fresh.root
    assert list(cached.rulesets) == list(fresh.rulesets)
    for ruleset_id, ruleset in fresh.rulesets.items():
        other = cached.ruleset(ruleset_id)
        assert isinstance(other, Ruleset)
        assert other.family is ruleset.family is FAMILIES[ruleset.family.id]
        assert (other.id, other.root, other.info) == (ruleset.id, ruleset.root, ruleset.info)
        assert dict(other.profiles) == dict(ruleset.profiles)
        assert other.rulings == ruleset.rulings
        assert other.data == ruleset.data
        assert dict(other.tables()) == dict(ruleset.tables())
        assert dict(other.decks) == dict(ruleset.decks)
        assert dict(other.sheets) == dict(ruleset.sheets)
        assert (other.chapters, other.quick_reference) == (ruleset.chapters,
                                                           ruleset.quick_reference)
        assert dict(other.raw) == dict(ruleset.raw)
        assert other == ruleset


# The command group


def test_help_lists_every_command_with_its_own_short_help() -> None:
    eager = click.Group("towerpress", help=cli.help, params=cli.params,
                        context_settings=cli.context_settings)
    for name, entry in COMMANDS.items():
        command = getattr(importlib.import_module(entry.module), entry.name)
        assert isinstance(command, click.Command) and command.name == name
        eager.add_command(command)
        stand_in = click.Command(name, help=entry.help)
        assert stand_in.get_short_help_str(10**6) == command.get_short_help_str(10**6), name
    with eager.make_context("towerpress", [], resilient_parsing=True) as ctx:
        expected = eager.get_help(ctx)
    shown = run_here("--help")
    assert shown.returncode == 0
    assert shown.stdout.rstrip("\n") == expected


def test_a_command_is_imported_when_asked_for() -> None:
    with cli.make_context("towerpress", [], resilient_parsing=True) as ctx:
        assert cli.get_command(ctx, "list") is list_command
        assert cli.get_command(ctx, "no-such-command") is None


def test_a_mistyped_command_is_given_the_closest_name() -> None:
    shown = run_here("simulat", RULESET)
    assert shown.returncode == 2
    assert shown.stderr == ("towerpress: error: No such command 'simulat'. Did you mean "
                            "'simulate'? (see 'towerpress --help')\n")


IMPORTED = """
import json, sys
from generator.cli.main import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)), file=sys.stderr)
"""

HEAVY = ("jinja2", "weasyprint", "pypdf", "markdown_it", "fontTools", "PIL",
         "generator.pipeline", "generator.products", "generator.render")


def imported(*args: str) -> list[str]:
    """The modules that ``towerpress ARGS`` imported, in a Python of its own."""
    run = subprocess.run([sys.executable, "-c", IMPORTED, *args], capture_output=True,
                         text=True, check=False, timeout=120)
    assert run.returncode == 0 and run.stdout, run.stderr
    names: list[str] = json.loads(run.stderr.splitlines()[-1])
    return names


def heavy(modules: list[str]) -> list[str]:
    return [m for m in modules if m.split(".")[0] in HEAVY or m.startswith(HEAVY)]


def test_simulate_imports_no_renderer_and_once_cached_no_other_ruleset(
        folder: Path) -> None:
    cold = imported("simulate", RULESET, "--runs", "1", "--seed", "1")
    assert heavy(cold) == []
    assert len(entries(folder)) == 1
    warm = imported("simulate", RULESET, "--runs", "1", "--seed", "1")
    assert heavy(warm) == []
    assert "generator.rulesets.inverted_tower.family" in warm
    assert "generator.rulesets.inverted_tower.gamebook" not in warm  # a booklet's, not a game's
    assert [m for m in warm if m.startswith(("generator.rulesets.three_dice_dungeon",
                                             "generator.rulesets.tower_of_choices"))] == []
    assert len(entries(folder)) == 1


def test_the_families_are_each_where_the_registry_says() -> None:
    assert list(FAMILIES) == ["inverted-tower", "three-dice-dungeon", "tower-of-choices"]
    for family_id, family in FAMILIES.items():
        assert family.id == family_id
        assert FAMILIES[family_id] is family
    assert "no-such-family" not in FAMILIES


# The cache


def test_a_warm_load_gives_the_model_a_fresh_load_gives(
        folder: Path, loads: list[Path | None]) -> None:
    first = cache.load_cached(None, FAMILIES)
    assert len(entries(folder)) == 1 and len(loads) == 1
    warm = cache.load_cached(None, FAMILIES)
    assert len(loads) == 1  # from the entry, not the loader
    assert_same_model(warm, load_content())
    assert_same_model(warm, first)


def test_editing_a_content_file_gives_a_new_entry(folder: Path, tree: Path,
                                                  loads: list[Path | None]) -> None:
    before = cache.load_cached(tree, FAMILIES).ruleset(RULESET).raw["rolls"]
    edit(tree / "tables" / "rolls.toml", "target = 5", "target = 4")
    after = cache.load_cached(tree, FAMILIES).ruleset(RULESET).raw["rolls"]
    assert len(loads) == 2 and len(entries(folder)) == 2
    assert before != after and after == load_content(tree).ruleset(RULESET).raw["rolls"]


def test_a_file_edited_while_it_is_loaded_is_not_cached_under_the_old_key(
        folder: Path, tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def edited_meanwhile(root: Path | None, families: Families) -> Content:
        edit(tree / "tables" / "rolls.toml", "target = 5", "target = 4")
        return load_tree(root, families)

    monkeypatch.setattr("generator.model.cache.load_tree", edited_meanwhile)
    key = cache.model_key(tree)
    cache.load_cached(tree, FAMILIES)
    assert entries(folder) == [] and cache.model_key(tree) != key


def test_adding_a_file_or_moving_the_folder_gives_a_new_key(tree: Path) -> None:
    key = cache.model_key(tree)
    (tree / "notes.txt").write_text("a file the loader never reads\n", encoding="utf-8")
    assert cache.model_key(tree) not in (key, None)
    moved = tree.rename(tree.with_name("elsewhere"))
    assert cache.model_key(moved) not in (key, None)


def test_a_setting_or_another_program_gives_a_new_key(
        tree: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    key = cache.model_key(tree)
    monkeypatch.setenv("TOWERPRESS_MAX_TABLE_ROWS", "10")  # the limits decide what validates
    limited = cache.model_key(tree)
    monkeypatch.delenv("TOWERPRESS_MAX_TABLE_ROWS")
    package = tmp_path / "package"
    (package / "sub").mkdir(parents=True)
    (package / "sub" / "module.py").write_text("X = 1\n", encoding="utf-8")
    monkeypatch.setattr(cache, "PACKAGE", package)
    program = cache.model_key(tree)
    (package / "sub" / "module.py").write_text("X = 2\n", encoding="utf-8")
    edited = cache.model_key(tree)
    (package / "sub" / "notes.txt").write_text("not code\n", encoding="utf-8")
    assert cache.model_key(tree) == edited
    monkeypatch.setattr(cache, "__version__", "99.0")
    assert len({key, limited, program, edited, cache.model_key(tree)}) == 5


def test_content_with_a_problem_is_never_cached(folder: Path, tree: Path) -> None:
    edit(tree / "tables" / "rolls.toml", "target = 5", 'target = "five"')
    for _ in range(2):
        with pytest.raises(ContentError):
            cache.load_cached(tree, FAMILIES)
    assert entries(folder) == []


@pytest.mark.parametrize("damage", ["cut short", "one byte changed", "empty", "not a pickle"])
def test_a_damaged_entry_is_loaded_again_without_an_error(
        folder: Path, tree: Path, loads: list[Path | None], damage: str) -> None:
    fresh = cache.load_cached(tree, FAMILIES)
    [entry] = entries(folder)
    data = entry.read_bytes()
    damaged = {
        "cut short": data[: len(data) // 2],
        "one byte changed": data[:-10] + bytes([data[-10] ^ 1]) + data[-9:],
        "empty": b"",
        "not a pickle": cache.MAGIC + hashlib.sha256(b"junk").digest() + b"junk",
    }[damage]
    entry.write_bytes(damaged)
    assert_same_model(cache.load_cached(tree, FAMILIES), fresh)
    assert len(loads) == 2
    assert_same_model(cache.load_cached(tree, FAMILIES), fresh)  # written whole again
    assert len(loads) == 2


def test_a_ruleset_that_does_not_unpickle_is_loaded_again(
        folder: Path, tree: Path, loads: list[Path | None]) -> None:
    fresh = cache.load_cached(tree, FAMILIES)
    [entry] = entries(folder)
    payload = pickle.dumps({RULESET: b"not a pickle of a ruleset"})
    entry.write_bytes(cache.MAGIC + hashlib.sha256(payload).digest() + payload)
    warm = cache.load_cached(tree, FAMILIES)
    assert len(loads) == 1  # the entry read as whole; its ruleset is not
    assert_same_model(warm, fresh)
    assert len(loads) == 2 and entries(folder) == []


def test_an_entry_others_may_write_to_is_not_read(
        folder: Path, tree: Path, loads: list[Path | None]) -> None:
    cache.load_cached(tree, FAMILIES)
    folder.chmod(0o777)
    cache.load_cached(tree, FAMILIES)
    assert len(loads) == 2
    folder.chmod(0o700)
    [entry] = entries(folder)
    entry.chmod(0o666)
    cache.load_cached(tree, FAMILIES)
    assert len(loads) == 3


def test_a_link_in_place_of_an_entry_is_not_followed(
        folder: Path, tree: Path, tmp_path: Path, loads: list[Path | None]) -> None:
    cache.load_cached(tree, FAMILIES)
    [entry] = entries(folder)
    elsewhere = tmp_path / "elsewhere.model"
    entry.rename(elsewhere)
    entry.symlink_to(elsewhere)
    cache.load_cached(tree, FAMILIES)
    assert len(loads) == 2
    assert not entry.is_symlink()  # replaced by a new entry, the link's target untouched


def test_a_cache_folder_that_cannot_be_made_is_not_an_error(
        tmp_path: Path, tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "a-file").write_text("", encoding="utf-8")
    monkeypatch.setenv(cache.CACHE_VARIABLE, str(tmp_path / "a-file" / "cache"))
    content = cache.load_cached(tree, FAMILIES)
    assert list(content.rulesets) == [RULESET]


def test_a_write_that_fails_leaves_nothing_behind(
        folder: Path, tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def refused(*_args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refused)
    assert list(cache.load_cached(tree, FAMILIES).rulesets) == [RULESET]
    assert list(folder.iterdir()) == []


def test_only_the_entries_used_last_are_kept(folder: Path, tree: Path) -> None:
    folder.mkdir(mode=0o700)
    old = time.time() - 2 * cache.STALE_TEMP_SECONDS
    for n in range(cache.KEEP + 2):
        (folder / f"{n:064x}{cache.SUFFIX}").write_bytes(b"")
        os.utime(folder / f"{n:064x}{cache.SUFFIX}", (old + n, old + n))
    (folder / ".left-by-a-killed-writer.tmp").write_bytes(b"")
    os.utime(folder / ".left-by-a-killed-writer.tmp", (old, old))
    (folder / ".being-written.tmp").write_bytes(b"")
    cache.load_cached(tree, FAMILIES)
    kept = [p.name for p in entries(folder)]
    assert len(kept) == cache.KEEP
    assert f"{0:064x}{cache.SUFFIX}" not in kept and f"{1:064x}{cache.SUFFIX}" not in kept
    assert f"{cache.model_key(tree)}{cache.SUFFIX}" in kept
    assert sorted(p.name for p in folder.glob(".*")) == [".being-written.tmp"]


def key_within_seconds(tree: Path) -> str | None:
    """The key of ``tree``, computed in a thread that may not take more than 10 s."""
    keys: list[str | None] = []
    worker = threading.Thread(target=lambda: keys.append(cache.model_key(tree)), daemon=True)
    worker.start()
    worker.join(timeout=10)
    assert not worker.is_alive(), "the key waited on a file"
    return keys[0]


def test_a_fifo_in_the_content_is_never_opened_and_is_in_the_key(tree: Path) -> None:
    key = cache.model_key(tree)
    os.mkfifo(tree / "rules" / "a-fifo")
    with_fifo = key_within_seconds(tree)
    (tree / "rules" / "link-to-fifo").symlink_to(tree / "rules" / "a-fifo")
    (tree / "link-out").symlink_to("/dev/zero")
    with_links = key_within_seconds(tree)
    # The loader refuses what is not a regular file: the cache must not hide it.
    assert with_fifo not in (key, None) and with_links not in (with_fifo, None)


def test_a_folder_too_large_to_hash_is_loaded_without_the_cache(
        folder: Path, tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cache, "MAX_HASHED_BYTES", 1000)
    assert cache.model_key(tree) is None
    assert list(cache.load_cached(tree, FAMILIES).rulesets) == [RULESET]
    assert not folder.exists()


def test_the_cache_folder_follows_the_xdg_rule(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(cache.CACHE_VARIABLE)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache.cache_folder() == tmp_path / "xdg" / "towerpress"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/is/ignored")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache.cache_folder() == tmp_path / "home" / ".cache" / "towerpress"
    monkeypatch.setenv(cache.CACHE_VARIABLE, str(tmp_path / "mine"))
    assert cache.cache_folder() == tmp_path / "mine"


def test_the_tests_never_write_into_the_users_cache() -> None:
    assert cache.cache_folder() != Path.home() / ".cache" / "towerpress"
