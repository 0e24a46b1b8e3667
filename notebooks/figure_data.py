"""Write a notebook's figure reproducibly, with the data it plots beside it as JSON.

``save_figure(fig, path, exact=...)`` writes ``path`` (a PNG) and ``path`` with the suffix
``.json`` (the *sidecar*).  The PNG is deterministic for a given renderer: Agg, 100 dpi, a
white background, no ``Software`` or time stamp in the file (``png`` in the sidecar: its
dpi, and the palette size when it was quantized with Pillow).  The sidecar records what the
figure shows, read back from the drawn figure itself:

* every axes' title, axis labels, scales, limits, tick positions and tick labels;
* every line (label, style, x/y values), bar or other patch, collection (scatter points,
  filled areas), text and legend entry;
* the figure's title and its figure-level legends;
* ``exact``: the values the notebook computed exactly (sympy expressions, rationals), as
  the strings sympy prints — for the plotted series whose values are exact (a value of
  more than ``MAX_EXACT_CHARS`` characters as the SHA-256 of that string).

Plotted coordinates are 53-bit floats (display values): the sidecar gives them rounded to
``DIGITS`` significant digits, as strings.  ``renderer`` names the matplotlib, FreeType and
Pillow versions that drew the PNG: the PNG's bytes depend on them, the rest of the sidecar
does not.  ``tests/test_notebooks.py`` regenerates every figure and compares both files
with the committed ones.
"""

from __future__ import annotations

import hashlib
import io
import json
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import matplotlib
import numpy as np
import PIL
from matplotlib import ft2font
from matplotlib.artist import Artist
from matplotlib.colors import to_hex

#: Significant digits of the display values (plotted coordinates, limits) in a sidecar.
DIGITS = 6
DPI = 100
#: A plotted series of more points than this is stored as its length, first and last
#: points and the SHA-256 of all its (rounded) points.
MAX_POINTS = 100
#: An exact value printed longer than this is stored as the SHA-256 of its text.
MAX_EXACT_CHARS = 200
NOTE = (
    f"plotted values: 53-bit floats rounded to {DIGITS} significant digits; a series of more "
    f"than {MAX_POINTS} points: its length, ends and the SHA-256 of its points; 'exact': "
    "the exact values the notebook computed"
)


def renderer() -> dict[str, str]:
    """The versions that decide a PNG's bytes: matplotlib, its FreeType, Pillow (zlib)."""
    return {
        "matplotlib": matplotlib.__version__,
        "freetype": ft2font.__freetype_version__,
        "pillow": PIL.__version__,
    }


def _num(x: Any) -> str:
    """A display value rounded to ``DIGITS`` significant digits (``-0`` is ``0``)."""
    v = float(x)
    if v == 0:
        return "0"
    return format(v, f".{DIGITS}g")


def _nums(values: Iterable[Any]) -> list[Any]:
    arr = np.ma.filled(np.ma.asarray(values, dtype=float), np.nan)
    if arr.ndim == 0:
        return [_num(arr)]
    return [_nums(row) if np.ndim(row) else _num(row) for row in arr]


def series(points: list[Any]) -> Any:
    """``points`` (rounded), or for a long series a digest: as strict, and small."""
    if len(points) <= MAX_POINTS:
        return points
    text = json.dumps(points, ensure_ascii=False)
    return {
        "points": len(points),
        "first": points[0],
        "last": points[-1],
        "sha256": hashlib.sha256(text.encode()).hexdigest(),
    }


def dumps(data: Any) -> str:
    """JSON text of a sidecar: one item a line, a list of numbers or of points on one line."""
    return _dumps(data, 0) + "\n"


def _flat(obj: Any) -> bool:
    scalar = (str, int, float, bool, type(None))
    return isinstance(obj, list) and all(
        isinstance(x, scalar) or (isinstance(x, list) and all(isinstance(y, scalar) for y in x))
        for x in obj
    )


def _dumps(obj: Any, depth: int) -> str:
    pad, inner = " " * depth, " " * (depth + 1)
    if isinstance(obj, dict) and obj:
        items = [
            f"{inner}{json.dumps(k, ensure_ascii=False)}: {_dumps(v, depth + 1)}"
            for k, v in obj.items()
        ]
        return "{\n" + ",\n".join(items) + f"\n{pad}}}"
    if isinstance(obj, list) and obj and not _flat(obj):
        items = [f"{inner}{_dumps(v, depth + 1)}" for v in obj]
        return "[\n" + ",\n".join(items) + f"\n{pad}]"
    return json.dumps(obj, ensure_ascii=False)


def _color(c: Any) -> str | None:
    try:
        return to_hex(c, keep_alpha=True)
    except (ValueError, TypeError):
        return None


def _label(artist: Artist) -> str | None:
    label = artist.get_label()
    return None if not label or label.startswith("_") else str(label)


def _ticks(axis: Any) -> dict[str, Any]:
    """The major ticks inside the view (the ones drawn) and their labels' text."""
    lo, hi = sorted(axis.get_view_interval())
    slack = 1e-9 * (hi - lo)
    ticks = axis.get_major_ticks(len(axis.get_majorticklocs()))
    pairs = [(t.get_loc(), t.label1.get_text()) for t in ticks]
    shown = [(loc, s) for loc, s in pairs if lo - slack <= loc <= hi + slack]
    return {"at": _nums([loc for loc, _ in shown]), "labels": [s for _, s in shown]}


def _axes(ax: Any) -> dict[str, Any]:
    out: dict[str, Any] = {
        "title": {k: ax.get_title(k) for k in ("left", "center", "right") if ax.get_title(k)},
        "xlabel": ax.get_xlabel(),
        "ylabel": ax.get_ylabel(),
        "xscale": ax.get_xscale(),
        "yscale": ax.get_yscale(),
        "xlim": _nums(ax.get_xlim()),
        "ylim": _nums(ax.get_ylim()),
        "xticks": _ticks(ax.xaxis),
        "yticks": _ticks(ax.yaxis),
        "lines": [
            {
                "label": _label(line),
                "color": _color(line.get_color()),
                "linestyle": str(line.get_linestyle()),
                "marker": str(line.get_marker()),
                "xy": series(_nums(line.get_xydata())),
            }
            for line in ax.lines
        ],
        "patches": [
            {
                "type": type(p).__name__,
                "label": _label(p),
                "facecolor": _color(p.get_facecolor()),
                "vertices": _nums(p.get_path().transformed(p.get_patch_transform()).vertices)
                if hasattr(p, "get_patch_transform")
                else None,
            }
            for p in ax.patches
        ],
        "collections": [
            {
                "type": type(c).__name__,
                "label": _label(c),
                "facecolors": [_color(f) for f in c.get_facecolors()],
                "offsets": series(_nums(c.get_offsets()) if len(c.get_offsets()) else []),
                "paths": series([_nums(p.vertices) for p in c.get_paths()]),
            }
            for c in ax.collections
        ],
        "texts": [{"text": t.get_text(), "at": _nums(t.get_position())} for t in ax.texts],
    }
    legend = ax.get_legend()
    out["legend"] = [t.get_text() for t in legend.get_texts()] if legend is not None else None
    return out


def describe(fig: Any) -> dict[str, Any]:
    """What ``fig`` shows (it must have been drawn: ticks and limits are final then)."""
    suptitle = fig._suptitle.get_text() if fig._suptitle is not None else ""
    out = {
        "title": suptitle,
        "size_inches": _nums(fig.get_size_inches()),
        "axes": [_axes(ax) for ax in fig.axes],
    }
    if fig.legends:  # legends of the figure rather than of one axes
        out["legends"] = [[t.get_text() for t in legend.get_texts()] for legend in fig.legends]
    return out


def save_figure(
    fig: Any,
    path: Path,
    exact: Mapping[str, Any] | None = None,
    *,
    colors: int | None = None,
) -> None:
    """Write ``fig`` as the PNG ``path`` and its sidecar ``path.with_suffix('.json')``.

    ``exact`` maps a series' name to its exact values (anything sympy prints: each value
    is stored as ``str(value)``).  ``colors``: quantize the PNG to that many colours (a
    palette PNG, for figures of many flat bars)."""
    path = Path(path)
    buf = io.BytesIO()
    fig.savefig(
        buf,
        format="png",
        dpi=DPI,
        bbox_inches="tight",
        facecolor="white",
        metadata={"Software": None},
    )
    if colors is None:
        path.write_bytes(buf.getvalue())
    else:
        from PIL import Image

        out = io.BytesIO()
        Image.open(buf).convert("RGB").quantize(colors).save(out, format="png", optimize=True)
        path.write_bytes(out.getvalue())
    data = {
        "figure": path.name,
        "digits": DIGITS,
        "note": NOTE,
        "renderer": renderer(),
        "png": {"dpi": DPI, "colors": colors},
        "exact": {k: _exact(v) for k, v in (exact or {}).items()},
        **describe(fig),
    }
    text = dumps(data)
    path.with_suffix(".json").write_text(text, encoding="utf-8")


def _exact(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _exact(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_exact(v) for v in value]
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)  # exact rationals may have more than 4300 digits
    try:
        text = str(value)
    finally:
        sys.set_int_max_str_digits(limit)
    if len(text) <= MAX_EXACT_CHARS:
        return text
    # a value of thousands of digits: its SHA-256 keeps the sidecar small and still exact
    return f"sha256:{hashlib.sha256(text.encode()).hexdigest()} ({len(text)} characters)"
