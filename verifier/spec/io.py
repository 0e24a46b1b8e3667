"""Atomic file writes: spec dumps, certificates and search checkpoints.

A reader of the target path sees the old file or the new one, never a partial write.

>>> import tempfile
>>> from pathlib import Path
>>> with tempfile.TemporaryDirectory() as d:
...     p = atomic_write(Path(d) / "sub" / "x.toml", "version = 1\\n")
...     p.read_text(), sorted(q.name for q in p.parent.iterdir())
('version = 1\\n', ['x.toml'])
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

__all__ = ["atomic_write"]


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
    p.parent.mkdir(parents=True, exist_ok=True)
    mode = _mode_for(p)
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
            fh.flush()
            os.fchmod(fh.fileno(), mode)
            os.fsync(fh.fileno())
        os.replace(tmp, p)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    return p
