"""The in-process runner of the command-line tests (:func:`tests.cli.helpers.invoke`)
leaves the process as it found it."""

from __future__ import annotations

import os
import sys
import warnings
from concurrent.futures import ThreadPoolExecutor

import pytest

from .helpers import invoke


def test_invoke_restores_the_process_state(tmp_path):
    before = (os.getcwd(), sys.stdin, sys.stdout, sys.stderr, list(warnings.filters))
    (tmp_path / "here.json").write_text('{"graphs": ')
    r = invoke("check", "here.json", cwd=tmp_path, stdin="")
    # the relative name was found in cwd (a file it could not find: "no such file")
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith("error: ") and "invalid JSON" in r.stderr, r.stderr
    after = (os.getcwd(), sys.stdin, sys.stdout, sys.stderr, list(warnings.filters))
    assert after == before


def test_invoke_refuses_other_threads():
    with ThreadPoolExecutor(1) as pool:
        with pytest.raises(RuntimeError, match="main thread"):
            pool.submit(invoke, "--version").result()
