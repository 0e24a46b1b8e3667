"""The README's first screen: two set-up commands and a Python example that runs."""

import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def _first_python_block(text: str) -> str:
    m = re.search(r"```python\n(.*?)```", text, re.S)
    assert m, "README has no python example"
    return m.group(1)


def test_readme_example_runs_and_reports_a_tight_bound(capsys):
    code = _first_python_block(README.read_text())
    assert len(code.strip().splitlines()) <= 6
    exec(compile(code, str(README), "exec"), {})
    out = capsys.readouterr().out
    assert "holds" in out and "attained exactly" in out


def test_readme_first_screen_has_the_two_commands():
    head = "\n".join(README.read_text().splitlines()[:12])
    assert "pip install -e '.[dev]' && verifier casestudies" in head
    assert re.search(r"^\s+pytest\s*$", head, re.M)
