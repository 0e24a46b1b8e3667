"""The API reference (docs/api, built by Sphinx in CI with warnings as errors) has a
page for every module of the engine, and no page is lost: each is in the table of
contents and none takes a name Sphinx gives its own pages (a ``search.rst`` is shadowed
by the search page and silently missing from the site)."""

from __future__ import annotations

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
