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
import tempfile
from pathlib import Path

__all__ = ["atomic_write"]


def atomic_write(path: str | os.PathLike[str], text: str) -> Path:
    """Write ``text`` to ``path`` atomically (temporary file in the same directory,
    ``fsync``, ``os.replace``): readers see the old file or the new one, never a
    partial write."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, p)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    return p
