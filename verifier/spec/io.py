"""Atomic file writes (spec dumps, certificates, search checkpoints) and the file
names they get.

A reader of the target path sees the old file or the new one, never a partial write;
a write that fails (a full disk, a directory that takes no new file such as
``/proc``, a name too long) is an :class:`~verifier.errors.InvalidParameter` naming the
file, never a bare ``OSError``.  :func:`file_stem` and :class:`FileNames` turn claim
ids into file names that are safe and distinct: two claims never share a certificate.

>>> import tempfile
>>> from pathlib import Path
>>> with tempfile.TemporaryDirectory() as d:
...     p = atomic_write(Path(d) / "sub" / "x.toml", "version = 1\\n")
...     p.read_text(), sorted(q.name for q in p.parent.iterdir())
('version = 1\\n', ['x.toml'])
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
import tempfile
from pathlib import Path

from ..errors import InvalidParameter, SpecError

__all__ = ["atomic_write", "file_stem", "FileNames", "MAX_STEM", "file_status", "read_at_most"]

#: Longest file name stem made from a claim id (with a suffix such as
#: ``.certificate.toml`` and the temporary name of an atomic write it stays far below
#: the 255 bytes most file systems allow).
MAX_STEM = 120


def _mode_for(path: Path) -> int:
    """The permission bits ``open(path, "w")`` would leave: the existing file's, else
    ``0o666`` less the process umask."""
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except OSError:
        pass
    return 0o666 & ~_umask()


def _umask() -> int:
    """The process umask, read without changing it where the system says it (Linux's
    ``/proc/self/status``); elsewhere set and restored at once."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def atomic_write(path: str | os.PathLike[str], text: str) -> Path:
    """Write ``text`` to ``path`` atomically (temporary file in the same directory,
    ``fsync``, ``os.replace``): readers see the old file or the new one, never a
    partial write.  The file gets the permissions a plain ``open(path, "w")`` would
    give it: those of the file it replaces, else ``0o666`` less the umask (the
    temporary file's private ``0o600`` is not kept)."""
    p = Path(path)
    try:
        p.parent.mkdir(parents=True, exist_ok=True)
        mode = _mode_for(p)
        fd, tmp = tempfile.mkstemp(prefix=f".{p.name[:60]}.", suffix=".tmp", dir=p.parent)
    except OSError as err:
        raise InvalidParameter(f"{p}: cannot write the file: {err.strerror or err}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
            fh.flush()
            os.fchmod(fh.fileno(), mode)
            os.fsync(fh.fileno())
        os.replace(tmp, p)
    except BaseException as err:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(err, OSError):
            raise InvalidParameter(f"{p}: cannot write the file: {err.strerror or err}") from None
        raise
    return p


_UNSAFE_NAME = re.compile(r"[^A-Za-z0-9_.-]+")


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:12]


def file_stem(text: str, max_len: int = MAX_STEM) -> str:
    """A file name stem for ``text`` (a claim id): ``text`` itself when it is a safe
    name (``[A-Za-z0-9_.-]`` only, not starting with a dot, at most ``max_len``
    characters); else its safe characters (every other run as ``_``, cut to fit)
    followed by ``-`` and 12 hex digits of its SHA-256, so that two ids never share a
    stem (``a/b`` and ``a_b`` do not) however long or odd they are.

    >>> file_stem("ghazi2025.thm9"), file_stem("a/b"), file_stem("a_b")
    ('ghazi2025.thm9', 'a_b-c14cddc033f6', 'a_b')
    >>> len(file_stem("x" * 300)) <= MAX_STEM
    True
    """
    if text and len(text) <= max_len and not _UNSAFE_NAME.search(text) and text[0] != ".":
        return text
    safe = _UNSAFE_NAME.sub("_", text).strip("._") or "claim"
    return f"{safe[: max_len - 13]}-{_digest(text)}"


class FileNames:
    """Distinct file name stems in one directory during one run: :meth:`stem` gives
    :func:`file_stem` unless another key already holds that name (compared without
    case, as some file systems do), then a stem made distinct by the key's digest.

    >>> names = FileNames()
    >>> names.stem("c", key="a.toml"), names.stem("C", key="b.toml")
    ('c', 'C-eaa77d564b98')
    """

    def __init__(self) -> None:
        self._owner: dict[str, str] = {}

    def stem(self, text: str, key: str | None = None) -> str:
        """The stem for ``text`` (owned by ``key``, default ``text`` itself)."""
        owner = text if key is None else key
        stem = file_stem(text)
        n = 0
        while self._owner.get(stem.casefold(), owner) != owner:
            n += 1
            salt = owner if n == 1 else f"{owner}\0{n}"
            safe = _UNSAFE_NAME.sub("_", text).strip("._") or "claim"
            stem = f"{safe[: MAX_STEM - 13]}-{_digest(salt)}"
        self._owner[stem.casefold()] = owner
        return stem


def file_status(p: Path, missing: str, unreadable: str) -> os.stat_result:
    """``p.stat()``; a :class:`~verifier.errors.SpecError` ``"{p}: {missing}"`` when
    there is no such file, ``"{p}: {unreadable}: {reason}"`` when it cannot be read."""
    try:
        return p.stat()
    except FileNotFoundError:
        raise SpecError(f"{p}: {missing}") from None
    except OSError as err:
        raise SpecError(f"{p}: {unreadable}: {err.strerror or err}") from None


def read_at_most(p: Path, limit: int, unreadable: str) -> bytes:
    """At most ``limit + 1`` bytes of ``p`` (one more than the limit, so a file that
    grew after its size was checked is seen to be over it); a
    :class:`~verifier.errors.SpecError` ``"{p}: {unreadable}: {reason}"`` when it
    cannot be read."""
    try:
        with p.open("rb") as fh:
            return fh.read(limit + 1)
    except OSError as err:
        raise SpecError(f"{p}: {unreadable}: {err.strerror or err}") from None
