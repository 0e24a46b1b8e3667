"""The case-study notebooks: stored clean, valid, and executed top to bottom.

Every notebook in ``notebooks/`` is executed with nbclient on a fresh ``python3``
kernel of *this* interpreter (so it imports the installed ``verifier``), with its
figures redirected to a temporary directory through ``VERIFIER_FIGURES`` (a test run
never rewrites ``notebooks/figures/``).  A notebook fails the suite if a cell raises,
if anything is written to stderr (warnings included: DeprecationWarnings issued from
``verifier``/``casestudies`` are made visible), or if it does not write its figures.
The stored notebooks must be valid nbformat and carry no outputs.

Every committed figure must be what its notebook generates.  Each figure ``NAME.png`` is
written with a sidecar ``NAME.json`` (``notebooks/figure_data.py``): the data it plots,
its titles, labels, ticks and limits, and the exact values behind the plotted series.
The regenerated sidecar must equal the committed one (all but ``renderer``, the versions
that drew the PNG); the regenerated PNG must equal the committed one byte for byte when
it was drawn by the same matplotlib, FreeType and Pillow (pixel for pixel when only
Pillow, which compresses the file, differs, and the figure is not quantized by Pillow).  With another matplotlib or FreeType the
pixels legitimately differ (anti-aliasing, glyph hinting): the PNG comparison is then
skipped, saying which versions differ, after every other check has passed.
"""

from __future__ import annotations

import io
import json
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
COMMITTED = NOTEBOOKS / "figures"
REGENERATE = (
    "regenerate it: `cd notebooks && jupyter nbconvert --to notebook --execute --stdout "
    "{name} > /dev/null`, then commit figures/ (see notebooks/README.md)"
)

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
    "accounting_curves.ipynb": {"accounting_curves.png"},
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


def _sidecar(png: Path) -> dict[str, object]:
    data = json.loads(png.with_suffix(".json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def _content(sidecar: dict[str, object]) -> dict[str, object]:
    """A sidecar without ``renderer``: what the figure shows, independent of the renderer."""
    return {k: v for k, v in sidecar.items() if k != "renderer"}


def _installed_renderer() -> dict[str, str]:
    import matplotlib
    import PIL
    from matplotlib import ft2font

    return {
        "matplotlib": matplotlib.__version__,
        "freetype": ft2font.__freetype_version__,
        "pillow": PIL.__version__,
    }


def _compare_png(new: Path, old: Path, regenerate: str) -> str | None:
    """Assert the regenerated PNG ``new`` equals the committed ``old`` where the renderer
    makes that meaningful; otherwise return why it was not compared."""
    how = f"the PNG differs from the committed figures/{old.name}; {regenerate}"
    drawn, committed = _sidecar(new)["renderer"], _sidecar(old)["renderer"]
    assert drawn == _installed_renderer()
    if drawn == committed:
        assert new.read_bytes() == old.read_bytes(), how
        return None
    same_pixels = drawn["matplotlib"] == committed["matplotlib"] and (  # type: ignore[index]
        drawn["freetype"] == committed["freetype"]  # type: ignore[index]
    )
    if same_pixels and _sidecar(old)["png"]["colors"] is None:  # type: ignore[index]
        # only Pillow differs, which compresses the file: compare the decoded pixels
        from PIL import Image

        a, b = (Image.open(io.BytesIO(p.read_bytes())) for p in (new, old))
        assert (a.size, a.mode, a.tobytes()) == (b.size, b.mode, b.tobytes()), how
        return None
    return f"{old.name} (committed: {committed}; installed: {drawn})"


def test_committed_figures_are_listed_with_sidecars() -> None:
    """notebooks/figures/ holds exactly the listed figures, each with its JSON sidecar."""
    listed = set().union(*FIGURES.values())
    sidecars = {Path(f).with_suffix(".json").name for f in listed}
    assert {p.name for p in COMMITTED.iterdir()} == listed | sidecars
    for fig in sorted(listed):
        data = _sidecar(COMMITTED / fig)
        assert data["figure"] == fig
        assert set(data["renderer"]) == {"matplotlib", "freetype", "pillow"}  # type: ignore[arg-type]
        assert data["axes"], f"{fig}: the sidecar records no axes"
        assert (COMMITTED / fig).stat().st_size < MAX_FIGURE_BYTES


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

    # every committed figure is what the notebook generates
    unchecked = []
    for fig in sorted(FIGURES[name]):
        new, old = figures / fig, COMMITTED / fig
        how = REGENERATE.format(name=name)
        assert old.is_file() and old.with_suffix(".json").is_file(), (
            f"{fig} is not committed; {how}"
        )
        assert _content(_sidecar(new)) == _content(_sidecar(old)), (
            f"{fig}: what the notebook plots differs from figures/{old.with_suffix('.json').name}"
            f"; {how}"
        )
        reason = _compare_png(new, old, how)
        if reason is not None:
            unchecked.append(reason)
    if unchecked:
        pytest.skip(
            f"{name}: figures and sidecars checked; PNG bytes not compared, drawn by another "
            f"matplotlib/FreeType/Pillow than the committed ones: {'; '.join(unchecked)}"
        )
