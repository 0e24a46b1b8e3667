"""The interop extra is optional: the package, the CLI and the exact comparison work
without dp_accounting and opendp."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

CODE = """
import sys
sys.modules["dp_accounting"] = None   # an import of it raises ImportError
sys.modules["opendp"] = None
import verifier, verifier.interop, verifier.interop.compare, verifier.interop.accounting
import verifier.interop.opendp_maps, verifier.cli.app
from verifier.cli import main
assert main(["compare", "--exact-only", "--mean", "10"]) == 0
assert main(["compare", "--mean", "10"]) == 2
"""


def test_the_package_works_without_the_interop_extra():
    r = subprocess.run(
        [sys.executable, "-c", CODE],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": ""},
        timeout=300,
    )
    assert r.returncode == 0, r.stderr
    assert "log(93/13)" in r.stdout
    assert "pip install 'verifier[interop]'" in r.stderr


def test_published_bounds_come_from_the_case_studies():
    from verifier.claims import load_casestudies
    from verifier.interop.compare import PUBLISHED_BOUNDS

    load_casestudies()
    sources = {b.source for bs in PUBLISHED_BOUNDS.values() for b in bs}
    assert {"Liu & Talwar 2019, Theorem 3.2", "Ghazi et al. 2025, Theorem 11"} <= sources
