"""The case-study notebooks: stored clean, valid, and executed top to bottom.

Every notebook in ``notebooks/`` is executed with nbclient on a fresh ``python3``
kernel of *this* interpreter (so it imports the installed ``verifier``), with its
figures redirected to a temporary directory through ``VERIFIER_FIGURES`` (a test run
never rewrites ``notebooks/figures/``).  A notebook fails the suite if a cell raises,
if anything is written to stderr (warnings included: DeprecationWarnings issued from
``verifier``/``casestudies`` are made visible), or if it does not write its figures.
The stored notebooks must be valid nbformat and carry no outputs.
"""

from __future__ import annotations

import os
import re
import sys
import time
from pathlib import Path

import nbclient
import nbformat
import pytest
from ipykernel.kernelspec import write_kernel_spec
from jupyter_client.kernelspec import KernelSpecManager

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"

#: Every notebook and the figures it must write (keep in sync with notebooks/README.md).
FIGURES: dict[str, set[str]] = {
    "ghazi2025.ipynb": {
        "ghazi_alg3_ex_post.png",
        "ghazi_alg1_monotone.png",
        "ghazi_figure1.png",
        "ghazi_tightness.png",
    },
    "liu_talwar2019.ipynb": {
        "liu_talwar_random_stopping.png",
        "liu_talwar_best_of_k.png",
        "liu_talwar_tightness.png",
    },
    "talwar2025.ipynb": {"talwar_figure1.png"},
    "hartmann2022.ipynb": {"hartmann_svt_odp.png"},
    "noise_programs.ipynb": {"noise_programs_realized.png"},
    "counterexamples.ipynb": {"counterexamples.png"},
    "interop.ipynb": {"interop_compare.png"},
    "dp_testing.ipynb": {"dp_testing_bounds.png"},
}
#: Optional packages a notebook needs (it is skipped, saying why, without them).
REQUIRES: dict[str, tuple[str, ...]] = {"interop.ipynb": ("dp_accounting", "opendp")}
MAX_FIGURE_BYTES = 200_000

#: Injected before the first cell when executing (never stored): warnings about
#: deprecated APIs used by the package or by the notebooks themselves are shown,
#: hence land on stderr and fail the test.
WARNINGS_CELL = """\
import warnings
for _category in (DeprecationWarning, PendingDeprecationWarning, FutureWarning):
    warnings.filterwarnings("always", category=_category, module=r"(verifier|casestudies|__main__)(\\.|$)")
"""


def _read(name: str):  # type: ignore[no-untyped-def]
    return nbformat.read(NOTEBOOKS / name, as_version=4)


def test_every_notebook_is_listed() -> None:
    assert {p.name for p in NOTEBOOKS.glob("*.ipynb")} == set(FIGURES)


@pytest.mark.parametrize("name", sorted(FIGURES))
def test_stored_notebook_is_valid_and_stripped(name: str) -> None:
    nb = _read(name)
    nbformat.validate(nb)
    assert nb.metadata.get("kernelspec", {}).get("name") == "python3"
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "code":
            assert cell.outputs == [], f"{name}: cell {i} has stored outputs; strip them"
            assert cell.execution_count is None, f"{name}: cell {i} has an execution count"
    text = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    assert "Which numbers are exact" in text, f"{name}: say which numbers are exact/certified"
    code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    for fig in FIGURES[name]:
        assert fig in code, f"{name}: figure {fig} is never written"


@pytest.mark.parametrize("name", sorted(FIGURES))
def test_every_figure_has_a_caption(name: str) -> None:
    """A cell that writes a figure has a one-line caption next to it: a markdown cell
    just before or after it that starts a paragraph with ``*Figure:``."""
    cells = _read(name).cells
    for i, cell in enumerate(cells):
        if cell.cell_type != "code" or not any(f'"{fig}"' in cell.source for fig in FIGURES[name]):
            continue
        near = [cells[j] for j in (i - 1, i + 1) if 0 <= j < len(cells)]
        captions = [
            c for c in near if c.cell_type == "markdown" and "\n*Figure: " in "\n" + c.source
        ]
        assert captions, f"{name}: the figure written by cell {i} has no '*Figure: ...*' caption"


def test_readmes_link_every_notebook() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Notebooks", 1)[1].split("\n## ", 1)[0]
    local = (NOTEBOOKS / "README.md").read_text(encoding="utf-8")
    for name in FIGURES:
        assert f"notebooks/{name}" in section, f"README.md does not link {name}"
        assert f"({name})" in local, f"notebooks/README.md does not link {name}"
    shown = re.findall(r"!\[[^\]]*\]\(([^)]+\.png)\)", section)
    assert shown, "README.md's Notebooks section shows no figure"
    for fig in shown:
        path = ROOT / fig
        assert path.is_file(), f"README.md shows {fig}, which is not committed"
        assert path.stat().st_size < MAX_FIGURE_BYTES


@pytest.fixture(scope="session")
def jupyter_path(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A data directory holding a ``python3`` kernel spec for the running interpreter.

    Put first on ``JUPYTER_PATH`` it wins over any other ``python3`` kernel spec
    registered for the user (another environment, without this ``verifier``)."""
    root = tmp_path_factory.mktemp("jupyter")
    write_kernel_spec(path=str(root / "kernels" / "python3"))
    return str(root)


# each notebook decides its case study again (minutes in all): run with `pytest -m slow`
# (.ci/run), as the main job decides the claims themselves
@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(FIGURES))
def test_notebook_executes(
    name: str,
    jupyter_path: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    figures = tmp_path / "figures"
    monkeypatch.setenv("VERIFIER_FIGURES", str(figures))
    monkeypatch.setenv(
        "JUPYTER_PATH",
        os.pathsep.join(filter(None, [jupyter_path, os.environ.get("JUPYTER_PATH")])),
    )
    monkeypatch.setenv("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    monkeypatch.setenv("PYDEVD_DISABLE_FILE_VALIDATION", "1")  # debugpy's frozen-modules note
    assert KernelSpecManager().get_kernel_spec("python3").argv[0] == sys.executable
    for module in REQUIRES.get(name, ()):
        pytest.importorskip(module, reason=f"{name} needs {module} (pip install -e '.[interop]')")

    nb = _read(name)
    nb.cells.insert(0, nbformat.v4.new_code_cell(WARNINGS_CELL))
    client = nbclient.NotebookClient(
        nb,
        kernel_name="python3",
        timeout=600,
        resources={"metadata": {"path": str(NOTEBOOKS)}},
    )
    t0 = time.perf_counter()
    client.execute()  # raises CellExecutionError (with the traceback) if a cell fails
    elapsed = time.perf_counter() - t0
    print(f"{name}: executed in {elapsed:.1f} s")

    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        for out in cell.outputs:
            assert out.output_type != "error", f"{name}: cell {i} raised {out.get('ename')}"
            if out.output_type == "stream":
                assert out.name == "stdout", f"{name}: cell {i} wrote to stderr:\n{out.text}"

    written = {p.name for p in figures.glob("*.png")}
    assert FIGURES[name] <= written, f"{name} did not write {sorted(FIGURES[name] - written)}"
    for fig in FIGURES[name]:
        size = (figures / fig).stat().st_size
        assert 0 < size < MAX_FIGURE_BYTES, f"{name}: {fig} is {size} bytes"
