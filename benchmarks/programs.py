"""Programs written as text against the hand-written deciders of the same mechanisms.

Two figures, both measured in one run:

``programs``
    For every spec file of ``examples/programs/`` (``--quick``: the four smallest),
    ``verifier check --json FILE`` as a whole child process, paired with its *twin*:
    the same file with each ``noise_program`` mechanism replaced by the hand-written
    transformer of the same law (``sparse_vector`` with the matching variant, or
    ``report_noisy_max``).  The twin is found, not typed: the text is lowered
    (:func:`verifier.algorithms.noise.lower_text`) and compared field by field with
    each public constructor (``lyu_svt(k)``, ``numerical_svt``, ``gap_svt``, ...,
    ``report_noisy_max``) at the program's ε, cutoff, threshold and noise; a file
    without an equal constructor is timed alone and listed.  Three runs each (one when
    a file takes over :data:`LONG` seconds).  Before a time counts,
    both processes must give the same verdict for every claim.  CPU seconds of the
    child (median of the repetitions); the figure's value is the largest ratio
    text / hand-written over the files, the target at most 2.

``programs_scaling``
    One program (Lyu, Su, Li 2017, Algorithm 1 with c = 1, Laplace noise) from its
    text (the DP testing suite's, ``casestudies.dp_testing.programs.TEXTS``) and from
    ``lyu_svt(1, ...)``, on the pair ``(0^(n-1), 1) ~ (1^(n-1), 0)`` as
    the number of queries ``n`` grows: lowering, the exact law on the pair and the
    ε-DP decision, in this process (CPU seconds).  The laws must be equal at every
    ``n``; the notes give the growth exponent of both.
"""

from __future__ import annotations

import dataclasses
import json
import math
import statistics
import tempfile
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .figures import ROOT, Figure, run_measured, timed

PROGRAMS = ROOT / "examples" / "programs"

#: CPU seconds beyond which a file is timed once (not three times) in the full form.
LONG = 10.0

#: The files of the quick form: small instances (a few queries, one or two pairs).
QUICK = ("svt_lyu_alg1.toml", "svt_lyu_alg5.toml", "report_noisy_max_laplace.toml", "gap_svt.toml")


def _bare(model: Any) -> Any:
    """A lowered model up to its name, source and recorded claim."""
    return dataclasses.replace(model, name="", source="", claimed=None, monotone=False)


def _sparse_vector_variants() -> dict[str, Callable[..., Any]]:
    """The ``variant`` names of the ``sparse_vector`` transformer and the public
    constructor each one builds (``verifier algorithms`` lists the variants)."""
    from verifier.algorithms.noise import (
        bad_gap_svt,
        gap_svt,
        gap_svt_monotone,
        lyu_svt,
        numerical_svt,
        svt_monotone,
    )

    def lyu(k: int) -> Callable[..., Any]:
        return lambda e, c, **kw: lyu_svt(k, e, c, **kw)

    def plain(f: Callable[..., Any]) -> Callable[..., Any]:
        return lambda e, c, buckets=None, **kw: f(e, c, **kw)

    return {
        **{f"lyu{k}": plain(lyu(k)) for k in range(1, 7)},
        "lyu1_monotone": plain(svt_monotone),
        "numerical": lambda e, c, buckets=None, **kw: numerical_svt(e, c, buckets=buckets, **kw),
        "gap": lambda e, c, buckets=None, **kw: gap_svt(e, c, buckets=buckets, **kw),
        "gap_monotone": plain(gap_svt_monotone),
        "gap_unscaled": plain(bad_gap_svt),
    }


def _epsilon(text: str, args: dict[str, Any]) -> Any:
    """The program's privacy parameter: its parameter named ``eps`` or ``epsilon``."""
    from verifier.algorithms.noise.text import parameter_values
    from verifier.programs.syntax import parse_program

    values = parameter_values(parse_program(text), args)
    return values.get("eps", values.get("epsilon"))


def hand_written(params: dict[str, Any]) -> dict[str, Any] | None:
    """The hand-written transformer (``algorithm`` and ``params`` of a spec-file
    mechanism) whose model equals the lowered text of a ``noise_program``'s
    ``params``, or ``None`` when no public constructor builds the same model."""
    from verifier.algorithms.noise import NoisyMax, SparseVector, lower_text, report_noisy_max
    from verifier.algorithms.noise.text import Refused

    text, args = params["text"], dict(params.get("args", {}))
    buckets = params.get("buckets")
    try:
        model = lower_text(text, args, buckets=buckets)
    except Refused:  # Gaussian noise: no hand-written model
        return None
    eps = _epsilon(text, args)
    if eps is None:
        return None
    common = {k: params[k] for k in ("style", "buckets") if k in params}
    if isinstance(model, NoisyMax):
        for monotone in (False, True):
            ref = report_noisy_max(
                eps,
                noise=model.noise.kind,
                release=model.release,
                monotone=monotone,
                buckets=model.buckets,
            )
            if _bare(ref) == _bare(model):
                return {
                    "algorithm": "report_noisy_max",
                    "params": {
                        "epsilon": str(eps),
                        "noise": model.noise.kind,
                        "release": model.release,
                        "monotone": monotone,
                        **common,
                    },
                }
        return None
    assert isinstance(model, SparseVector)
    c = model.cutoff or 1
    fam = model.query_noise.kind if model.query_noise.kind != "none" else model.threshold_noise.kind
    for variant, build in _sparse_vector_variants().items():
        try:
            ref = build(eps, c, noise=fam, threshold=model.threshold, buckets=model.buckets)
        except Exception:  # noqa: BLE001 - a constructor refusing these parameters is no twin
            continue
        if model.buckets is not None and ref.buckets is None and ref.release != "bit":
            ref = dataclasses.replace(ref, buckets=model.buckets)  # as the transformer does
        if _bare(ref) == _bare(model):
            extra = {"answers_only": params["answers_only"]} if "answers_only" in params else {}
            return {
                "algorithm": "sparse_vector",
                "params": {
                    "variant": variant,
                    "epsilon": str(eps),
                    "c": c,
                    "threshold": str(model.threshold),
                    "noise": fam,
                    **common,
                    **extra,
                },
            }
    return None


def twin(path: Path) -> dict[str, Any] | None:
    """The spec document of ``path`` with every ``noise_program`` mechanism replaced by
    its hand-written transformer, or ``None`` when one of them has none."""
    doc = tomllib.loads(path.read_text())
    changed = False
    for name, mech in doc.get("mechanisms", {}).items():
        if mech.get("algorithm") != "noise_program":
            continue
        hand = hand_written(mech.get("params", {}))
        if hand is None:
            return None
        doc["mechanisms"][name] = {
            k: v for k, v in mech.items() if k not in ("algorithm", "params")
        } | hand
        changed = True
    return doc if changed else None


def _claim_verdicts(out: str) -> list[tuple[str, str]]:
    data = json.loads(out)
    return [(c["id"], c["verdict"]) for c in data["claims"]]


def programs(quick: bool) -> Figure:
    """``verifier check`` on every program file, text against hand-written twin."""
    import os
    import sys

    from verifier.spec import document_text

    files = [PROGRAMS / n for n in QUICK] if quick else sorted(PROGRAMS.glob("*.toml"))
    env = dict(os.environ)
    cmd = [sys.executable, "-m", "verifier", "check", "--json"]
    rows: list[dict[str, Any]] = []
    alone: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        for path in files:
            doc = twin(path)
            if doc is None:
                alone.append(path.name)
                run = run_measured([*cmd, str(path)], ROOT, env)
                rows.append({"file": path.name, "text": run.cpu, "hand": None})
                continue
            twin_path = Path(tmp) / path.name
            twin_path.write_text(document_text(doc, "toml"))
            text_cpu, hand_cpu = [], []
            for _ in range(1 if quick else 3):
                a = run_measured([*cmd, str(path)], ROOT, env)
                try:
                    b = run_measured([*cmd, str(twin_path)], ROOT, env)
                except AssertionError as err:  # the transformer refuses what the text does
                    why = str(err).rsplit(".toml: ", 1)[-1].strip()
                    alone.append(f"{path.name} (the transformer refuses it: {why})")
                    rows.append({"file": path.name, "text": a.cpu, "hand": None})
                    break
                va, vb = _claim_verdicts(a.out), _claim_verdicts(b.out)
                if va != vb:
                    raise AssertionError(f"{path.name}: the text says {va}, its twin {vb}")
                text_cpu.append(a.cpu)
                hand_cpu.append(b.cpu)
                if a.cpu > LONG:  # the noise is small beside the time: once is enough
                    break
            if not hand_cpu:
                continue
            rows.append(
                {
                    "file": path.name,
                    "text": statistics.median(text_cpu),
                    "hand": statistics.median(hand_cpu),
                }
            )
    paired = [r for r in rows if r["hand"]]
    worst = max(paired, key=lambda r: r["text"] / r["hand"])
    ratio = worst["text"] / worst["hand"]
    total_text = sum(r["text"] for r in paired)
    total_hand = sum(r["hand"] for r in paired)
    fig = Figure(
        "programs",
        total_text,
        total_hand,
        "s",
        "each file ≤ 2× its hand-written twin",
        ratio <= 2,
        "the same files with the hand-written transformers (sparse_vector, report_noisy_max)",
    )
    fig.notes.append(
        f"{len(paired)} files paired; worst text/hand ratio {ratio:.2f} ({worst['file']})"
    )
    if alone:
        fig.notes.append(f"no hand-written twin (timed alone): {', '.join(alone)}")
    fig.details["files"] = rows
    return fig


def _scaling_pair(n: int) -> Any:
    from verifier.algorithms.noise import query_graph

    a = tuple([0] * (n - 1) + [1])
    b = tuple([1] * (n - 1) + [0])
    return query_graph([a, b], style="all_differ")


def programs_scaling(quick: bool) -> Figure:
    """Lyu et al.'s Algorithm 1 from its text against ``lyu_svt`` as ``n`` grows."""
    import sympy as sp

    from casestudies.dp_testing.programs import TEXTS
    from verifier.algorithms.noise import (
        check_program_dp,
        lower_text,
        lyu_svt,
        prog_claim,
        program_mechanism,
    )

    eps = sp.Rational(1, 2)
    sizes = [8, 16] if quick else [8, 16, 32, 64]

    def from_text(graph: Any) -> Any:
        prog = lower_text(TEXTS["lyu1"], {"eps": eps})
        pm = program_mechanism(prog, graph)
        return pm, check_program_dp(pm, prog_claim(prog)).verdict

    def by_hand(graph: Any) -> Any:
        prog = lyu_svt(1, eps, 1, noise="laplace")
        pm = program_mechanism(prog, graph)
        return pm, check_program_dp(pm, prog_claim(prog)).verdict

    text_t, hand_t = [], []
    for n in sizes:
        graph = _scaling_pair(n)
        ta, tb = math.inf, math.inf
        for _ in range(3):  # alternately, the fastest of three (warm caches for both)
            t, (pb, vb) = timed(lambda g=graph: by_hand(g))
            tb = min(tb, t)
            t, (pa, va) = timed(lambda g=graph: from_text(g))
            ta = min(ta, t)
        ma, mb = pa.mechanism, pb.mechanism
        if (
            va != vb
            or ma.outputs != mb.outputs
            or any(ma.p(d, o) != mb.p(d, o) for d in ma.datasets for o in ma.outputs)
        ):
            raise AssertionError(f"n = {n}: the text's law or verdict differs from lyu_svt's")
        text_t.append(ta)
        hand_t.append(tb)

    def growth(ts: list[float]) -> float:
        if len(ts) < 2 or min(ts) <= 0:
            return float("nan")
        return math.log(ts[-1] / ts[0]) / math.log(sizes[-1] / sizes[0])

    fig = Figure(
        f"programs_scaling (n = {sizes[-1]})",
        text_t[-1],
        hand_t[-1],
        "s",
        "≤ 2× lyu_svt at every n",
        all(a <= 2 * b for a, b in zip(text_t, hand_t, strict=True)),
        "lyu_svt(1, ...), the hand-written model",
    )
    fig.notes.append(
        "n = "
        + ", ".join(
            f"{n}: {a * 1000:.0f}/{b * 1000:.0f} ms"
            for n, a, b in zip(sizes, text_t, hand_t, strict=True)
        )
        + f"; growth n^{growth(text_t):.2f} (text), n^{growth(hand_t):.2f} (hand-written)"
    )
    return fig
