"""The listings `verifier algorithms` and `verifier schema` print are generated data
(verifier/cli/data): each must be what the registries give now, and the commands must
answer without importing sympy."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from verifier.cli import static


@pytest.mark.parametrize("name", ["algorithms", "schema"])
def test_the_shipped_listing_is_what_the_registries_generate(name):
    shipped = (static.DATA / f"{name}.json").read_text(encoding="utf-8")
    assert shipped == static.text(static.generate(name)), (
        f"verifier/cli/data/{name}.json is out of date: regenerate it with "
        "`python -m verifier.cli.static`"
    )


@pytest.mark.parametrize("argv", [["algorithms"], ["schema"], ["algorithms", "--json"]])
def test_the_listing_commands_do_not_import_the_engine(argv):
    code = (
        "import sys\n"
        "from verifier.cli import main\n"
        f"rc = main({argv!r})\n"
        "heavy = sorted(m for m in ('sympy', 'mpmath', 'networkx', 'numpy') if m in sys.modules)\n"
        "print(json.dumps(heavy), file=sys.stderr)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", "import json\n" + code],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stderr.strip().splitlines()[-1]) == []
