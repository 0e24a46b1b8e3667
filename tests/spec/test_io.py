"""Atomic writes: the old file or the new one, never a partial file or a leftover."""

from __future__ import annotations

import os

import pytest

from verifier.errors import InvalidParameter
from verifier.spec import atomic_write


def test_atomic_write_replaces_and_leaves_nothing_behind(tmp_path):
    target = tmp_path / "deep" / "er" / "spec.toml"
    assert atomic_write(target, "a\n") == target
    assert atomic_write(str(target), "b\r\n") == target
    assert target.read_bytes() == b"b\r\n"
    assert os.listdir(target.parent) == ["spec.toml"]


def test_a_failed_write_keeps_the_old_file(tmp_path, monkeypatch):
    target = tmp_path / "spec.toml"
    target.write_text("old\n")

    def refuse(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(InvalidParameter, match="spec.toml: cannot write the file: disk full"):
        atomic_write(target, "new\n")
    assert target.read_text() == "old\n"
    assert os.listdir(tmp_path) == ["spec.toml"]


def test_atomic_write_keeps_the_permissions_a_plain_write_gives(tmp_path):
    import os
    import stat

    target = tmp_path / "new.toml"
    old = os.umask(0o027)
    try:
        atomic_write(target, "a\n")
    finally:
        os.umask(old)
    assert stat.S_IMODE(target.stat().st_mode) == 0o640  # 0o666 less the umask
    target.chmod(0o604)
    atomic_write(target, "b\n")
    assert stat.S_IMODE(target.stat().st_mode) == 0o604  # the replaced file's bits
