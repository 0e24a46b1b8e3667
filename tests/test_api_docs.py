"""The API reference (docs/api, built by Sphinx in CI with warnings as errors) has a
page for every module of the engine, and no page is lost: each is in the table of
contents and none takes a name Sphinx gives its own pages (a ``search.rst`` is shadowed
by the search page and silently missing from the site)."""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import pkgutil
import re
from pathlib import Path

import verifier

API = Path(__file__).resolve().parent.parent / "docs" / "api"
#: The pages Sphinx's HTML builder writes itself.
SPHINX_PAGES = {"search", "genindex", "modindex", "py-modindex"}


def _documented() -> dict[str, str]:
    out: dict[str, str] = {}
    for page in API.glob("*.rst"):
        for m in re.findall(r"^\.\. automodule:: (\S+)\s*$", page.read_text(), re.M):
            out[m] = page.stem
    return out


def _modules() -> list[str]:
    return sorted(
        m.name
        for m in pkgutil.walk_packages(verifier.__path__, "verifier.")
        if not m.name.endswith("__main__")
    )


def test_every_module_of_the_engine_has_a_page():
    documented = _documented()
    assert len(_modules()) > 50  # the walk sees the engine (not vacuous)
    assert [m for m in _modules() if m not in documented] == []


def test_every_documented_module_exists():
    assert sorted(set(_documented()) - set(_modules())) == []


def test_every_page_is_in_the_table_of_contents_and_none_is_shadowed():
    index = (API / "index.rst").read_text()
    toc = re.findall(r"^   (\S+)\s*$", index.split(".. toctree::", 1)[1], re.M)
    pages = sorted(p.stem for p in API.glob("*.rst") if p.stem != "index")
    assert sorted(toc) == pages
    assert not SPHINX_PAGES & set(pages)


def test_every_guide_of_the_repository_is_rendered():
    root = API.parent.parent
    guides = [root / "README.md", *sorted((root / "docs").glob("*.md"))]
    guides += sorted((root / "docs" / "math").glob("*.md"))
    included = set()
    for page in (API / "guide").glob("*.md"):
        for target in re.findall(r"^```\{include\} (\S+)", page.read_text(), re.M):
            included.add((page.parent / target).resolve())
    assert len(guides) > 8
    assert [str(g.relative_to(root)) for g in guides if g.resolve() not in included] == []
    listed = re.findall(r"^   (guide/\S+)\s*$", (API / "guides.rst").read_text(), re.M)
    assert sorted(listed) == sorted(f"guide/{p.stem}" for p in (API / "guide").glob("*.md"))


# ---------------------------------------------------------------------------
# every public name: a numpydoc docstring whose example runs
# ---------------------------------------------------------------------------

#: The entry points of the counterexample search (docs/search.md); the rest of
#: ``verifier.search.__all__`` serves the engine's workers and checkpoints.
SEARCH_ENTRY_POINTS = [
    "search",
    "SearchConfig",
    "SearchResult",
    "searchable_claims",
    "get_searchable",
    "spec_searchable",
    "confirm",
    "encode",
    "decode",
    "read_checkpoint",
]
#: The public API: ``verifier.__all__``, the test helpers and the search's entry points.
#: ``REGISTRY`` is an object (the registry of claims), documented with its class.
PUBLIC = [f"verifier.{n}" for n in verifier.__all__ if n != "REGISTRY"] + [
    *(f"verifier.testing.{n}" for n in importlib.import_module("verifier.testing").__all__),
    *(f"verifier.search.{n}" for n in SEARCH_ENTRY_POINTS),
]


def _object(dotted: str) -> object:
    module, name = dotted.rsplit(".", 1)
    return getattr(importlib.import_module(module), name)


def _sections(doc: str) -> dict[str, str]:
    """numpydoc sections of ``doc`` (a title underlined by dashes) and their text."""
    parts = re.split(r"^([A-Z][A-Za-z ]+)\n-{3,}\s*$", doc, flags=re.M)
    return {parts[i]: parts[i + 1] for i in range(1, len(parts) - 1, 2)}


def _missing(dotted: str) -> list[str]:
    obj = _object(dotted)
    doc = inspect.getdoc(obj) or ""
    sections = _sections(doc)
    if isinstance(obj, type):
        need = ["Examples"]
        if not {"Parameters", "Attributes"} & set(sections):
            need.append("Parameters or Attributes")
    else:
        need = ["Parameters", "Returns", "Raises", "Examples"]
        if callable(obj) and not inspect.signature(obj).parameters:
            need.remove("Parameters")
    out = [s for s in need if s not in sections]
    if "Examples" in sections and not re.search(r"^>>> ", sections["Examples"], re.M):
        out.append("a doctest line in Examples")
    if not doc or doc.startswith(tuple(sections)) or not doc.split("\n", 1)[0].strip():
        out.append("a summary line")
    return out


def test_the_public_api_is_the_expected_list():
    assert len(PUBLIC) > 50
    assert set(SEARCH_ENTRY_POINTS) <= set(importlib.import_module("verifier.search").__all__)
    assert "verifier.check_pure_dp" in PUBLIC and "verifier.testing.dp_pairs" in PUBLIC


def test_every_public_name_has_numpydoc_sections_and_a_doctest():
    assert {d: m for d in PUBLIC if (m := _missing(d))} == {}


def test_the_section_check_can_fail():
    def undocumented(x):
        """Only a summary line."""

    def documented(x):
        """Summary.

        Parameters
        ----------
        x : int

        Returns
        -------
        int

        Raises
        ------
        ValueError

        Examples
        --------
        >>> documented(1)
        """

    assert _sections(inspect.getdoc(undocumented) or "") == {}
    assert set(_sections(inspect.getdoc(documented) or "")) == {
        "Parameters",
        "Returns",
        "Raises",
        "Examples",
    }


def test_the_vendored_inventories_are_what_make_py_writes():
    spec = importlib.util.spec_from_file_location("make", API / "inventories" / "make.py")
    assert spec is not None and spec.loader is not None
    make = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make)
    for fname, (project, version, entries) in make.INVENTORIES.items():
        assert (API / "inventories" / fname).read_bytes() == make.inventory(
            project, version, entries
        )
    conf = (API / "conf.py").read_text()
    for fname in make.INVENTORIES:
        assert f'"inventories/{fname}"' in conf
