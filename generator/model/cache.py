"""The model cache: a validated content model kept on disk, so that a command need not read
and check the content again before it starts (design.md section 9).

An entry is found by a key that hashes everything the model is made from:

- the content folder: its real path, and every regular file under it by its path in the
  folder and its bytes; a link stands for the file it leads to inside the folder, or for
  where it leads otherwise (the rule of :mod:`generator.model.digest`); anything else (a
  FIFO, a device) is never opened, and stands for itself by its name;
- the program: its version and the bytes of the package's ``.py`` files;
- the Python that runs it, and the settings: every ``TOWERPRESS_*`` variable (the limits
  decide what validates).

Only a model the loader accepted is cached: content with a problem raises before anything
is written.  The cache is a shortcut and nothing more: a folder that cannot be written, an
entry that is corrupt, cut short, unreadable or not the user's own means a normal load,
never an error.  Unpickling runs code, so an entry is read only from a folder that is the
user's own and that no one else may write to.

Each ruleset is pickled on its own and unpickled when first asked for: a command about one
ruleset imports that ruleset's engine only.

Where: ``$TOWERPRESS_CACHE``, else ``$XDG_CACHE_HOME/towerpress``, else
``~/.cache/towerpress``; the :data:`KEEP` entries used last are kept.
"""

from __future__ import annotations

import contextlib
import copyreg
import hashlib
import io
import os
import pickle
import stat
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

from generator import __version__
from generator.model.family import ContentFamily, Families
from generator.model.loader import BUNDLED_CONTENT, Content, Ruleset, load_tree
from generator.resources import PACKAGE

CACHE_VARIABLE = "TOWERPRESS_CACHE"
KEEP = 8  # entries: a designer's few content trees, each under a setting or two
SUFFIX = ".model"
MAGIC = b"towerpress model 1\n"  # the layout of an entry: this line, a SHA-256, the pickle
# A content folder holding more is loaded without the cache: hashing it would cost about
# as much as the load it saves.
MAX_HASHED_BYTES = 32 * 2**20
STALE_TEMP_SECONDS = 3600  # a temporary file this old was left by a killed process
_CHUNK = 2**20
# Opened without following a link (an entry, a file already resolved), and, for content, without
# waiting: a file swapped for a FIFO after it was listed opens at once.
_READ = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
_NO_WAIT = getattr(os, "O_NONBLOCK", 0)


def cache_folder() -> Path | None:
    """Where the entries are: None when there is no home folder to put them in, or no
    owner of a file to check (not on a Unix)."""
    if not hasattr(os, "geteuid"):
        return None
    explicit = os.environ.get(CACHE_VARIABLE)
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg and os.path.isabs(xdg):  # the XDG rule: a relative value is ignored
        return Path(xdg) / "towerpress"
    try:
        return Path.home() / ".cache" / "towerpress"
    except (RuntimeError, KeyError):  # no HOME and no entry in the password database
        return None


def load_cached(root: Path | None, families: Families) -> Content:
    """The content tree under ``root`` (the bundled one by default), as
    :func:`~generator.model.loader.load_tree` loads it: from the cache when an entry has
    its key, else loaded and then cached.

    Raises:
        ContentError: the loader's, for content with problems (nothing is cached).
        TowerpressError: the loader's, for a folder that does not exist or holds no
            ruleset.
    """
    folder = cache_folder()
    real = _real_folder(root)
    key = model_key(real) if folder is not None and real is not None else None
    if folder is None or real is None or key is None:
        return load_tree(root, families)
    entry = folder / f"{key}{SUFFIX}"
    cached = _read(entry, real, families, lambda: load_tree(root, families))
    if cached is not None:
        return cached
    content = load_tree(root, families)
    # A file edited while the loader read it: the model may be of neither version, and
    # the key, of the version before; made again, it would be found for that version.
    if model_key(real) == key:
        _write(folder, entry, content)
    return content


def _real_folder(root: Path | None) -> Path | None:
    """``root`` as the loader resolves it, or None where the loader will refuse it (and
    say why)."""
    try:
        real = (root or BUNDLED_CONTENT).resolve()
        return real if real.is_dir() else None
    except (OSError, RuntimeError):  # a loop of links, a name too long
        return None


# The key


class _TooLarge(Exception):
    """The folder holds more than MAX_HASHED_BYTES."""


def model_key(root: Path) -> str | None:
    """The key of the model of the content folder ``root`` (a real path), or None when
    the folder cannot be hashed (a file that cannot be read: the loader will say so) or
    is too large to be worth it."""
    settings = sorted((name, value) for name, value in os.environ.items()
                      if name.startswith("TOWERPRESS_") and name != CACHE_VARIABLE)
    key = _Key()
    for part in (__version__, sys.version, repr(settings), str(root)):
        key.field(os.fsencode(part))
    try:
        key.tree(str(PACKAGE), suffix=".py")
        key.tree(str(root))
    except (OSError, _TooLarge):
        return None
    return key.digest.hexdigest()


class _Key:
    """One SHA-256 fed fields and the files of folders, at most MAX_HASHED_BYTES of them.

    Plain strings and os calls: with pathlib and buffered files, hashing the package and
    the bundled content took 40 ms, ten times as long."""

    def __init__(self) -> None:
        self.digest = hashlib.sha256(MAGIC)
        self.left = MAX_HASHED_BYTES

    def field(self, data: bytes) -> None:
        """Feed ``data`` so that no two sequences of fields feed the same bytes."""
        self.digest.update(len(data).to_bytes(8, "big") + data)

    def tree(self, top: str, suffix: str = "") -> None:
        """Feed every file under ``top`` whose name ends with ``suffix``: its path in
        ``top`` and the hash of what stands for it.

        Raises:
            OSError: a file or folder that cannot be read.
            _TooLarge: more bytes than are left.
        """
        for relative, path, kind in sorted(_files(top, "", suffix)):
            self.field(os.fsencode(relative))
            if kind == "file":
                self.field(self._file(path))
            elif kind == "link":
                self.field(self._fingerprint(path, top))
            else:  # a FIFO, a device: the loader refuses it, so it must be in the key
                self.field(b"not a file")

    def _fingerprint(self, link: str, top: str) -> bytes:
        """For a link, the hash of the regular file it leads to inside ``top``, or where
        it leads (digest.fingerprint's rule)."""
        try:
            target = os.path.realpath(link, strict=True)
            inside = target.startswith(top + os.sep) and stat.S_ISREG(os.stat(target).st_mode)
        except (OSError, RuntimeError):  # a dangling link, or links that lead to each other
            inside = False
        return self._file(target) if inside else b"link to " + os.fsencode(os.readlink(link))

    def _file(self, path: str) -> bytes:
        """The SHA-256 of a regular file's bytes (b"not a file" for anything else, never
        read: a FIFO would wait for a writer, a device never ends)."""
        descriptor = os.open(path, _READ | _NO_WAIT)
        try:
            if not stat.S_ISREG(os.fstat(descriptor).st_mode):
                return b"not a file"
            digest = hashlib.sha256()
            while chunk := os.read(descriptor, _CHUNK):
                self.left -= len(chunk)
                if self.left < 0:
                    raise _TooLarge
                digest.update(chunk)
            return digest.digest()
        finally:
            os.close(descriptor)


def _files(folder: str, relative: str, suffix: str) -> Iterator[tuple[str, str, str]]:
    """Everything but folders under ``folder`` whose name ends with ``suffix``: each
    one's path in the top folder, its path, and what it is ("file" for a regular file,
    "link", or "other", never opened).  A linked folder is not entered: its files are
    hashed where they are, inside the top folder."""
    with os.scandir(folder) as scan:
        for entry in scan:
            if entry.is_dir(follow_symlinks=False):
                if entry.name != "__pycache__":
                    yield from _files(entry.path, f"{relative}{entry.name}/", suffix)
            elif entry.name.endswith(suffix):
                kind = ("link" if entry.is_symlink()
                        else "file" if entry.is_file(follow_symlinks=False) else "other")
                yield f"{relative}{entry.name}", entry.path, kind


# Pickling


def _mapping_proxy(mapping: dict[Any, Any]) -> MappingProxyType[Any, Any]:
    return MappingProxyType(mapping)


def _reduce_proxy(proxy: MappingProxyType[Any, Any]
                  ) -> tuple[Callable[[dict[Any, Any]], MappingProxyType[Any, Any]],
                             tuple[dict[Any, Any]]]:
    return _mapping_proxy, (dict(proxy),)


# The model's read-only mappings have no reducer of their own (pickle cannot name their
# type): copyreg's table and one for them, for this pickler only, so that nothing else in
# the process pickles differently.
_REDUCERS = {**copyreg.dispatch_table, MappingProxyType: _reduce_proxy}


class _Pickler(pickle.Pickler):
    def __init__(self, file: io.BytesIO) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.dispatch_table = _REDUCERS

    def persistent_id(self, obj: Any) -> Any:
        # A family is code, not data: saved by its id, found again among the families.
        return obj.id if isinstance(obj, ContentFamily) else None


class _Unpickler(pickle.Unpickler):
    def __init__(self, data: bytes, families: Families) -> None:
        super().__init__(io.BytesIO(data))
        self.families = families

    def persistent_load(self, pid: Any) -> Any:
        if not isinstance(pid, str) or pid not in self.families:
            raise pickle.UnpicklingError(f"unknown family {pid!r}")
        return self.families[pid]


def _dumps(ruleset: Ruleset) -> bytes:
    buffer = io.BytesIO()
    _Pickler(buffer).dump(ruleset)
    return buffer.getvalue()


class _Rulesets(Mapping[str, Ruleset]):
    """A cached content's rulesets, each unpickled when first asked for.

    One that does not unpickle (an entry damaged in a way its hash missed, or a family
    gone) is taken from a normal load instead, and the entry is removed.
    """

    def __init__(self, pickled: dict[str, bytes], families: Families, entry: Path,
                 reload: Callable[[], Content]) -> None:
        self._pickled = pickled
        self._families = families
        self._entry = entry
        self._reload = reload
        self._loaded: dict[str, Ruleset] = {}
        self._reloaded: Content | None = None

    def __getitem__(self, ruleset_id: str) -> Ruleset:
        if ruleset_id not in self._loaded:
            self._loaded[ruleset_id] = self._unpickled(ruleset_id)
        return self._loaded[ruleset_id]

    def _unpickled(self, ruleset_id: str) -> Ruleset:
        data = self._pickled[ruleset_id]
        try:
            ruleset = _Unpickler(data, self._families).load()
        except Exception:  # whatever a damaged pickle raises: the content is loaded again
            ruleset = None
        if isinstance(ruleset, Ruleset) and ruleset.id == ruleset_id:
            return ruleset
        _remove(self._entry)
        if self._reloaded is None:
            self._reloaded = self._reload()
        return self._reloaded.rulesets[ruleset_id]

    def __contains__(self, ruleset_id: object) -> bool:
        return ruleset_id in self._pickled  # without unpickling it

    def __iter__(self) -> Iterator[str]:
        return iter(self._pickled)

    def __len__(self) -> int:
        return len(self._pickled)


# Entries


def _own(info: os.stat_result) -> bool:
    """Whether a file or folder is the user's and no one else may write to it."""
    return info.st_uid == os.geteuid() and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def _read(entry: Path, root: Path, families: Families, reload: Callable[[], Content]
          ) -> Content | None:
    """The content that ``entry`` holds, or None: no such entry, or one not to be trusted
    (not the user's, in a folder others may write to, damaged)."""
    try:
        if not _own(os.stat(entry.parent)):
            return None
        descriptor = os.open(entry, _READ)
        with open(descriptor, "rb") as handle:
            info = os.fstat(descriptor)
            if not stat.S_ISREG(info.st_mode) or not _own(info):
                return None
            data = handle.read()
    except OSError:
        return None
    head = len(MAGIC) + hashlib.sha256().digest_size
    payload = data[head:]
    if data[:len(MAGIC)] != MAGIC or hashlib.sha256(payload).digest() != data[len(MAGIC):head]:
        _remove(entry)
        return None
    try:
        # The entry's own pickle holds bytes, by ruleset id, and nothing else.
        pickled = pickle.loads(payload)
    except Exception:  # whatever a damaged pickle raises: the content is loaded normally
        pickled = None
    if not (isinstance(pickled, dict)
            and all(isinstance(k, str) and isinstance(v, bytes) for k, v in pickled.items())):
        _remove(entry)
        return None
    with contextlib.suppress(OSError):
        os.utime(entry)  # used now: kept before the entries used longer ago
    return Content(root, _Rulesets(pickled, families, entry, reload))


def _write(folder: Path, entry: Path, content: Content) -> None:
    """Cache ``content`` as ``entry``, atomically; any failure leaves the cache as it was
    (an entry half written is never seen: it is renamed into place once whole)."""
    try:
        pickled = {ruleset_id: _dumps(ruleset) for ruleset_id, ruleset in content.rulesets.items()}
        payload = pickle.dumps(pickled, protocol=pickle.HIGHEST_PROTOCOL)
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        if not _own(os.stat(folder)):
            return
        descriptor, temporary = tempfile.mkstemp(prefix=".", suffix=".tmp", dir=folder)
        try:
            with open(descriptor, "wb") as handle:
                handle.write(MAGIC + hashlib.sha256(payload).digest() + payload)
            os.replace(temporary, entry)
        except BaseException:
            _remove(Path(temporary))
            raise
        _prune(folder)
    except Exception:  # a model that could not be cached is loaded again next time
        return


def _prune(folder: Path) -> None:
    """Remove all but the KEEP entries used last, and what killed writers left."""
    entries: list[tuple[float, Path]] = []
    now = time.time()
    with os.scandir(folder) as scan:
        for item in scan:
            if not item.is_file(follow_symlinks=False):
                continue
            modified = item.stat(follow_symlinks=False).st_mtime
            if item.name.endswith(SUFFIX):
                entries.append((modified, Path(item.path)))
            elif item.name.startswith(".") and item.name.endswith(".tmp") \
                    and now - modified > STALE_TEMP_SECONDS:
                _remove(Path(item.path))
    for _modified, path in sorted(entries, reverse=True)[KEEP:]:
        _remove(path)


def _remove(path: Path) -> None:
    with contextlib.suppress(OSError):
        path.unlink()
