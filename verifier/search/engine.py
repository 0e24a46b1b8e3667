"""The search loop: deterministic batches, any executor, checkpoints, shrinking.

Work partition.  A search with master ``seed`` is a sequence of *batches*; batch
``b`` draws from ``Random(batch_seed(seed, b))`` (a hash of both), screens
``batch_size`` random and extreme instances, improves the best ``starts`` of them by
``steps`` local moves each, and confirms its best candidate violations exactly
(:func:`run_batch`, a pure function of ``(claim, seed, b, config)``).  Results are
*consumed in batch order*, whatever order workers finish them in, and the search
stops at the first batch (in that order) holding a confirmed violation.  So the
answer depends on the seed and the instance budget only — not on the number of
workers, the executor, or interruptions.

Budget.  ``instances`` fixes the number of batches
(``ceil(instances / per_batch)``): the deterministic budget.  ``seconds`` is an outer
limit; a search stopped by it reports ``status = "time_limit"`` and the prefix of
batches it consumed (resume it to go on).

Durability.  The state — consumed prefix, aggregate (instances, best ratio and
instance), finished out-of-order batches, the counterexample being shrunk — is
written atomically (temporary file + ``os.replace``) every ``checkpoint_every``
seconds, on Ctrl-C, and at the end.  ``resume=`` continues from it; a resumed search
ends with exactly the answer of an uninterrupted one.

Shrinking.  A confirmed counterexample is simplified greedily (fewer mechanisms,
fewer outputs, simpler budgets, smaller denominators — :meth:`InstanceSpace.shrink`),
keeping each step only if it is still an exactly confirmed violation; deterministic
and bounded by ``config.shrink_checks`` exact checks.
"""

from __future__ import annotations

import concurrent.futures as cf
import dataclasses
import json
import math
import os
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from random import Random
from typing import Any

from ..errors import InvalidParameter, SpecError
from ..runtime.executors import Runner, as_runner
from . import checkpoints
from .certificates import atomic_write, write_certificate
from .core import (
    Claim,
    Confirmation,
    batch_seed,
    confirm,
    decode,
    encode,
    get_searchable,
    instance_key,
    search_spec,
)

__all__ = [
    "SearchConfig",
    "BatchResult",
    "Progress",
    "SearchResult",
    "run_batch",
    "search",
    "resolve_claim",
    "CHECKPOINT_FORMAT",
]

CHECKPOINT_FORMAT = "verifier-search-checkpoint"
CHECKPOINT_VERSION = 1


@dataclass(frozen=True)
class SearchConfig:
    """The shape of a batch (part of the determinism contract: a checkpoint records
    it, and resuming with another one is refused).

    Parameters
    ----------
    batch_size : int
        Instances drawn per batch (random or extreme).
    extreme_fraction : float
        Probability that a drawn instance is an extreme point.
    starts, steps : int
        Local improvement: from the ``starts`` best drawn instances, ``steps`` moves
        each (a move is kept when it raises the ratio).
    max_confirm : int
        Exact checks per batch (best candidates first).
    shrink_checks : int
        Exact checks spent on shrinking a counterexample.
    threshold : float
        Screened ratios above this are candidates (screening only).

    Raises
    ------
    verifier.errors.InvalidParameter
        ``batch_size`` or ``max_confirm`` below 1, a negative ``starts`` or
        ``steps``, or ``starts > batch_size``.

    Examples
    --------
    A batch screens its ``batch_size`` drawn instances and ``starts · steps`` local
    moves: ``40 + 2 · 20 = 80`` by default.

    >>> SearchConfig().per_batch, SearchConfig(batch_size=10, starts=1, steps=5).per_batch
    (80, 15)
    >>> SearchConfig(batch_size=1, starts=2)
    Traceback (most recent call last):
    ...
    verifier.errors.InvalidParameter: starts cannot exceed batch_size
    """

    batch_size: int = 40
    extreme_fraction: float = 0.5
    starts: int = 2
    steps: int = 20
    max_confirm: int = 2
    shrink_checks: int = 40
    threshold: float = 1.0 + 1e-9

    def __post_init__(self) -> None:
        if self.batch_size < 1 or self.starts < 0 or self.steps < 0 or self.max_confirm < 1:
            raise InvalidParameter("batch_size and max_confirm must be >= 1, starts and steps >= 0")
        if self.starts > self.batch_size:
            raise InvalidParameter("starts cannot exceed batch_size")

    @property
    def per_batch(self) -> int:
        """Instances screened per batch."""
        return self.batch_size + self.starts * self.steps


@dataclass
class BatchResult:
    """What one batch found (a pure function of claim, seed, index and config)."""

    index: int
    count: int
    best_ratio: float
    best: Any
    confirmed: Any = None
    confirmed_ratio: float | None = None
    candidates: int = 0
    rejected: int = 0
    errors: int = 0
    error: str | None = None

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["best"] = encode(self.best)
        d["confirmed"] = encode(self.confirmed)
        d["best_ratio"] = encode(self.best_ratio)
        d["confirmed_ratio"] = encode(self.confirmed_ratio)
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> BatchResult:
        d = dict(d)
        d["best"] = decode(d["best"])
        d["confirmed"] = decode(d["confirmed"])
        d["best_ratio"] = decode(d["best_ratio"])
        d["confirmed_ratio"] = decode(d["confirmed_ratio"])
        return cls(**d)


#: Significant digits a screening ratio keeps (:func:`_screen`).
SCREEN_DIGITS = 12


def _screen(claim: Claim, inst: Any) -> float:
    """The float realized/claimed ratio of ``inst``, rounded to :data:`SCREEN_DIGITS`
    significant digits.  Screens use numpy's vectorised exp/log, whose last bits differ
    between CPUs (SIMD code paths) and numpy versions; rounded, the same instance
    screens to the same number on any machine (unless it lies within float noise of a
    rounding boundary), so the local search takes the same steps, ties between
    instances that attain a bound go to the lower index everywhere, and a checkpoint
    written on one machine resumes on another.  No verdict rests on these floats: a
    candidate is confirmed exactly."""
    r = float(search_spec(claim).screen(inst))
    if math.isnan(r):
        return -math.inf
    return float(f"{r:.{SCREEN_DIGITS}g}") if math.isfinite(r) else r


# ---------------------------------------------------------------------------
# resolving claims (also in worker processes)
# ---------------------------------------------------------------------------


def resolve_claim(ref: Any) -> Claim:
    """A :class:`Claim` from a reference: the claim itself, a registered
    id, or ``("spec", path, claim_id, sha256)`` (a claim of a spec file)."""
    if isinstance(ref, Claim):
        return ref
    if isinstance(ref, str):
        return get_searchable(ref)
    if isinstance(ref, tuple) and len(ref) == 4 and ref[0] == "spec":
        from .specfile import spec_searchable

        return spec_searchable(ref[1], ref[2], sha256=ref[3])
    raise InvalidParameter(f"cannot resolve a searchable claim from {ref!r}")


def _reference(claim: Claim) -> Any:
    return claim.reference if claim.reference is not None else claim


def _encode_ref(ref: Any, claim: Claim) -> dict[str, Any]:
    if isinstance(ref, str):
        return {"id": ref}
    if isinstance(ref, tuple):
        return {"spec": ref[1], "claim": ref[2], "sha256": ref[3]}
    return {"object": claim.id}


def _decode_ref(d: dict[str, Any]) -> Any:
    if "id" in d:
        return d["id"]
    if "spec" in d:
        return ("spec", d["spec"], d["claim"], d["sha256"])
    return None


# ---------------------------------------------------------------------------
# one batch
# ---------------------------------------------------------------------------


def run_batch(ref: Any, seed: int, index: int, config: SearchConfig) -> BatchResult:
    """Run batch ``index`` of the search with master ``seed``: draw, screen, improve
    locally, confirm the best candidates exactly.  Deterministic."""
    claim = resolve_claim(ref)
    space = search_spec(claim).space
    rng = Random(batch_seed(seed, index))
    errors = 0
    first_error: str | None = None
    seen: list[tuple[float, int, Any]] = []

    def screened(inst: Any) -> float:
        nonlocal errors, first_error
        try:
            r = _screen(claim, inst)
        except Exception as err:  # a screening failure must not stop the search
            errors += 1
            if first_error is None:
                first_error = f"{type(err).__name__}: {err}"
            r = -math.inf
        seen.append((r, len(seen), inst))
        return r

    for _ in range(config.batch_size):
        ext = rng.random() < config.extreme_fraction
        screened(space.extreme(rng) if ext else space.random(rng))
    starts = sorted(seen, key=lambda t: (-t[0], t[1]))[: config.starts]
    for r0, _, inst0 in starts:
        cur, r, scale = inst0, r0, 1.0
        for _ in range(config.steps):
            nb = space.neighbour(cur, rng, scale)
            rn = screened(nb)
            if rn > r:
                cur, r = nb, rn
                scale = min(2.0, scale * 1.5)
            else:
                scale = max(0.05, scale * 0.85)
    ranked = sorted(seen, key=lambda t: (-t[0], t[1]))
    best_r, _, best = ranked[0]
    cands = [t for t in ranked if t[0] > config.threshold]
    out = BatchResult(index, len(seen), best_r, best, candidates=len(cands), errors=errors)
    out.error = first_error
    tried: set[str] = set()
    for _r, _, inst in cands:
        k = instance_key(inst)
        if k in tried:
            continue
        if len(tried) >= config.max_confirm:
            break
        tried.add(k)
        conf = confirm(claim, inst)
        if conf.confirmed:
            out.confirmed, out.confirmed_ratio = inst, conf.ratio
            break
        out.rejected += 1
    return out


# ---------------------------------------------------------------------------
# state, progress, result
# ---------------------------------------------------------------------------


@dataclass
class _State:
    next_index: int = 0
    instances: int = 0
    best_ratio: float = -math.inf
    best: Any = None
    best_batch: int = -1
    pending: dict[int, BatchResult] = field(default_factory=dict)
    candidates: int = 0
    rejected: int = 0
    errors: int = 0
    first_error: str | None = None
    found: Any = None
    found_batch: int = -1
    found_ratio: float | None = None
    shrink_current: Any = None
    shrink_checks: int = 0
    shrink_steps: int = 0
    shrink_done: bool = False
    done: bool = False
    elapsed: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "next_index": self.next_index,
            "instances": self.instances,
            "best_ratio": encode(self.best_ratio),
            "best": encode(self.best),
            "best_batch": self.best_batch,
            "pending": [r.to_json() for _, r in sorted(self.pending.items())],
            "candidates": self.candidates,
            "rejected": self.rejected,
            "errors": self.errors,
            "first_error": self.first_error,
            "found": encode(self.found),
            "found_batch": self.found_batch,
            "found_ratio": encode(self.found_ratio),
            "shrink_current": encode(self.shrink_current),
            "shrink_checks": self.shrink_checks,
            "shrink_steps": self.shrink_steps,
            "shrink_done": self.shrink_done,
            "done": self.done,
            "elapsed": self.elapsed,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> _State:
        s = cls()
        for k, v in d.items():
            if k == "pending":
                s.pending = {r["index"]: BatchResult.from_json(r) for r in v}
            elif k in (
                "best_ratio",
                "best",
                "found",
                "found_ratio",
                "shrink_current",
            ):
                setattr(s, k, decode(v))
            elif hasattr(s, k):
                setattr(s, k, v)
        return s


@dataclass(frozen=True)
class Progress:
    """A progress report (after every consumed batch and while shrinking)."""

    claim: str
    phase: str  # "search" | "shrink"
    instances: int
    total: int
    best_ratio: float
    elapsed: float
    batches: int


@dataclass
class SearchResult:
    """The outcome of a search.

    ``status`` is ``"violated"`` (a counterexample confirmed exactly; see
    ``certificate``), ``"exhausted"`` (none within the instance budget),
    ``"time_limit"`` (the outer time limit stopped it first) or ``"interrupted"``.
    ``best_ratio`` is the largest screened realized/claimed ratio and
    ``best_exact_ratio`` the same ratio recomputed from the exact check of the best
    instance (display values: the verdicts behind them are exact).

    Attributes
    ----------
    claim, statement, expected : str
        The claim's id, statement and expected outcome.
    status : {"violated", "exhausted", "time_limit", "interrupted"}
        How the search ended.
    seed : int
        The master seed.
    instances, requested_instances, batches : int
        Instances screened, the budget (rounded up to whole batches), batches run.
    elapsed : float
        Seconds.
    best_ratio, best_exact_ratio : float
        The largest realized/claimed ratio seen (screened; exact for the best).
    best_instance, best_description, best_batch
        The instance attaining it.
    counterexample, counterexample_description, counterexample_ratio
        The confirmed (and shrunk) counterexample, when ``status == "violated"``.
    certificate, certificate_text : str or None
        Where the certificate was written, and its text (a spec file on which
        ``verifier check`` proves the violation).
    violated : bool
        ``status == "violated"`` (property).

    Examples
    --------
    >>> r = search("liu_talwar2019.thm32", instances=60, seed=0, seconds=None)
    >>> r.status, r.instances, r.batches, r.violated, r.counterexample is None
    ('exhausted', 80, 1, False, True)
    """

    claim: str
    statement: str
    expected: str
    status: str
    seed: int
    instances: int
    requested_instances: int
    batches: int
    elapsed: float
    best_ratio: float
    best_instance: Any
    best_description: str
    best_batch: int
    best_exact_ratio: float | None = None
    counterexample: Any = None
    counterexample_description: str = ""
    counterexample_ratio: float | None = None
    found_instance: Any = None
    found_batch: int = -1
    shrink_steps: int = 0
    certificate: str | None = None
    certificate_text: str | None = None
    document: dict[str, Any] | None = None
    check: Any = None
    candidates: int = 0
    rejected: int = 0
    errors: int = 0
    first_error: str | None = None
    checkpoint: str | None = None

    @property
    def violated(self) -> bool:
        return self.status == "violated"

    def summary(self) -> str:
        """A few lines for the terminal."""
        lines = [f"claim {self.claim}: {self.statement}"]
        if self.violated:
            lines.append(
                f"VIOLATED: counterexample found after {self.instances} instances "
                f"({self.elapsed:.1f}s, seed {self.seed}), confirmed exactly"
            )
            lines.append(f"  counterexample: {self.counterexample_description}")
            if self.counterexample_ratio is not None:
                lines.append(f"  realized/claimed = {_fmt_ratio(self.counterexample_ratio)}")
            if self.shrink_steps:
                lines.append(f"  shrunk in {self.shrink_steps} step(s)")
            if self.certificate:
                lines.append(
                    f"  certificate: {self.certificate}  (verifier check {self.certificate} "
                    f"exits 1: the violation is proved)"
                )
        else:
            what = {
                "exhausted": "no counterexample within the instance budget",
                "time_limit": "no counterexample before the time limit",
                "interrupted": "interrupted; no counterexample so far",
            }.get(self.status, self.status)
            lines.append(
                f"{what}: {self.instances} of {self.requested_instances} instances "
                f"({self.elapsed:.1f}s, seed {self.seed})"
            )
            exact = (
                ""
                if self.best_exact_ratio is None
                else f" (exact check: {_fmt_ratio(self.best_exact_ratio)})"
            )
            lines.append(f"  best realized/claimed ratio {_fmt_ratio(self.best_ratio)}{exact}")
            lines.append(f"  on: {self.best_description}")
        if self.errors:
            lines.append(
                f"  note: {self.errors} instance(s) could not be screened ({self.first_error})"
            )
        if self.checkpoint and self.status in ("time_limit", "interrupted"):
            lines.append(f"  resume with: --resume {self.checkpoint}")
        return "\n".join(lines)

    def to_dict(self, *, timings: bool = False) -> dict[str, Any]:
        """The result as a JSON-ready document: a pure function of the claim, the seed,
        the budget and the output paths, the same bytes whatever ran the batches
        (local processes or a dask cluster of any size).  ``timings`` adds the one
        field that is not, ``elapsed`` (wall-clock seconds, after ``batches``); a
        search stopped by its time limit (``status`` ``time_limit``) depends on the
        clock anyway."""

        def num(x: float | None) -> Any:
            if x is None:
                return None
            return x if math.isfinite(x) else ("inf" if x > 0 else "-inf")

        doc: dict[str, Any] = {
            "claim": self.claim,
            "statement": self.statement,
            "expected": self.expected,
            "status": self.status,
            "violated": self.violated,
            "seed": self.seed,
            "instances": self.instances,
            "requested_instances": self.requested_instances,
            "batches": self.batches,
            "best_ratio": num(self.best_ratio),
            "best_exact_ratio": num(self.best_exact_ratio),
            "best_instance": self.best_description,
            "best_batch": self.best_batch,
            "counterexample": self.counterexample_description or None,
            "counterexample_instance": encode(self.counterexample),
            "counterexample_ratio": num(self.counterexample_ratio),
            "found_batch": self.found_batch if self.violated else None,
            "shrink_steps": self.shrink_steps,
            "certificate": self.certificate,
            "candidates": self.candidates,
            "rejected_candidates": self.rejected,
            "screening_errors": self.errors,
            "checkpoint": self.checkpoint,
            "check": None if self.check is None else self.check.to_dict(max_findings=20),
        }
        if timings:
            keys = list(doc)
            at = keys.index("batches") + 1
            doc = (
                {k: doc[k] for k in keys[:at]}
                | {"elapsed": round(self.elapsed, 3)}
                | {k: doc[k] for k in keys[at:]}
            )
        return doc


def _fmt_ratio(x: float) -> str:
    return "inf" if x == math.inf else f"{x:.6g}"


# ---------------------------------------------------------------------------
# checkpoints
# ---------------------------------------------------------------------------


def _checkpoint_doc(
    claim: Claim, ref: Any, seed: int, config: SearchConfig, requested: int, st: _State
) -> dict[str, Any]:
    return {
        "format": CHECKPOINT_FORMAT,
        "version": CHECKPOINT_VERSION,
        "claim": claim.id,
        "reference": _encode_ref(ref, claim),
        "seed": seed,
        "instances": requested,
        "config": asdict(config),
        "state": st.to_json(),
    }


def read_checkpoint(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Read and validate a checkpoint file (:mod:`verifier.search.checkpoints`).

    Parameters
    ----------
    path : path
        A checkpoint written by :func:`search` (``checkpoint=``).

    Returns
    -------
    dict
        Its JSON content: the claim and its reference, seed, instance budget,
        config and state.

    Raises
    ------
    verifier.errors.SpecError
        The file is not a checkpoint of this version (or is unreadable).

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> with tempfile.TemporaryDirectory() as d:
    ...     ck = Path(d) / "ck.json"
    ...     r = search("liu_talwar2019.thm32", instances=60, seed=0, seconds=None, checkpoint=ck)
    ...     data = read_checkpoint(ck)
    >>> data["claim"], data["seed"], data["instances"]
    ('liu_talwar2019.thm32', 0, 60)
    """
    return checkpoints.read_checkpoint(path, CHECKPOINT_FORMAT, CHECKPOINT_VERSION)


def checkpoint_claim(path: str | os.PathLike[str]) -> Any:
    """The claim reference recorded in a checkpoint (an id or a spec reference)."""
    return _decode_ref(read_checkpoint(path)["reference"])


# ---------------------------------------------------------------------------
# the search
# ---------------------------------------------------------------------------


def search(
    claim: Claim | str,
    *,
    instances: int | None = None,
    seconds: float | None = 60.0,
    seed: int = 0,
    workers: int = 1,
    executor: cf.Executor | Runner | Any | None = None,
    config: SearchConfig | None = None,
    out: str | os.PathLike[str] | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
    resume: str | os.PathLike[str] | None = None,
    checkpoint_every: float = 5.0,
    progress: Callable[[Progress], None] | None = None,
    shrink: bool = True,
    exact_best: bool | None = None,
) -> SearchResult:
    """Search for a counterexample to ``claim``; certify it when found.

    Parameters
    ----------
    claim : Claim or str
        A claim, or the id of a registered one (:func:`verifier.search.searchable_claims`).
    instances : int, optional
        The instance budget (default: the claim's ``default_instances``); rounded up
        to whole batches.  Deterministic.
    seconds : float or None
        Outer time limit of this call (``None``: none).
    seed : int
        Master seed: same seed and budget, same answer.
    workers : int
        Local worker processes when no ``executor`` is given (1: in this process).
    executor : concurrent.futures.Executor, distributed.Client or Runner, optional
        Runs the batches (a ``ProcessPoolExecutor``, a ``ThreadPoolExecutor``, a
        ``distributed.Client``, a :class:`verifier.runtime.executors.Runner` such as
        :func:`verifier.runtime.executors.dask_runner` gives), at most twice its number of
        workers at a time.  The claim must then be a registered id, a spec-file
        claim (the file at the same path on the workers), or picklable.
    config : SearchConfig, optional
        Batch shape.
    out : path, optional
        Where to write the certificate (TOML; JSON for a ``.json`` suffix).  Without
        it the certificate text is only returned.
    checkpoint : path, optional
        Where to keep the state (default: the ``resume`` file, else no checkpoint).
    resume : path, optional
        A checkpoint to continue from (same claim, seed and config).
    checkpoint_every : float
        Seconds between checkpoints (0: after every batch).
    progress : callable, optional
        Called with a :class:`Progress` after every consumed batch; raising
        ``KeyboardInterrupt`` from it interrupts the search like Ctrl-C.
    shrink : bool
        Simplify a counterexample before certifying it.
    exact_best : bool, optional
        Re-evaluate the best instance exactly when nothing was found (default: the
        claim's ``exact_best``).

    Returns
    -------
    SearchResult

    Raises
    ------
    InvalidParameter
        If another search holds the lock of the checkpoint (by default the ``resume``
        file): two searches never write one checkpoint.
    SpecError
        If the ``resume`` file is not a valid checkpoint of this claim
        (:mod:`verifier.search.checkpoints`).
    UnknownClaim
        If ``claim`` is an id that no case study registers as searchable.

    Examples
    --------
    The best of ``K`` ε-DP candidates is not ε-DP (refuted: Liu & Talwar 2019,
    Appendix B.1): the search certifies a counterexample, whose realized/claimed
    ratio exceeds 1 and whose certificate ``verifier check`` re-verifies.  Random
    stopping's 3ε bound (Theorem 3.2) survives the same budget.

    >>> r = search("liu_talwar2019.B1.best_of_k_eps", instances=60, seed=1, seconds=None)
    >>> r.status, r.counterexample_ratio > 1, "[[claims]]" in r.certificate_text
    ('violated', True, True)
    >>> search("liu_talwar2019.thm32", instances=60, seed=0, seconds=None).violated
    False
    """
    ck_path = Path(checkpoint) if checkpoint is not None else (Path(resume) if resume else None)
    with checkpoints.lock_checkpoint(ck_path):
        return _search(
            claim,
            instances=instances,
            seconds=seconds,
            seed=seed,
            workers=workers,
            executor=executor,
            config=config,
            out=out,
            checkpoint=checkpoint,
            resume=resume,
            checkpoint_every=checkpoint_every,
            progress=progress,
            shrink=shrink,
            exact_best=exact_best,
        )


def _search(
    claim: Claim | str,
    *,
    instances: int | None,
    seconds: float | None,
    seed: int,
    workers: int,
    executor: cf.Executor | Runner | Any | None,
    config: SearchConfig | None,
    out: str | os.PathLike[str] | None,
    checkpoint: str | os.PathLike[str] | None,
    resume: str | os.PathLike[str] | None,
    checkpoint_every: float,
    progress: Callable[[Progress], None] | None,
    shrink: bool,
    exact_best: bool | None,
) -> SearchResult:
    """:func:`search`, under the checkpoint's lock."""
    t_start = time.monotonic()
    if isinstance(claim, str):
        claim = resolve_claim(claim)
    ref = _reference(claim)
    cfg = config or SearchConfig()
    ck_path = Path(checkpoint) if checkpoint is not None else (Path(resume) if resume else None)
    st = _State()
    requested = search_spec(claim).default_instances if instances is None else int(instances)
    if resume is not None:
        doc = read_checkpoint(resume)
        if doc["claim"] != claim.id:
            raise InvalidParameter(
                f"{resume}: the checkpoint is for claim {doc['claim']!r}, not {claim.id!r}"
            )
        if int(doc["seed"]) != int(seed):
            raise InvalidParameter(f"{resume}: the checkpoint has seed {doc['seed']}, not {seed}")
        saved_cfg = SearchConfig(**doc["config"])
        if config is not None and config != saved_cfg:
            raise InvalidParameter(f"{resume}: the checkpoint was made with another configuration")
        cfg = saved_cfg
        if instances is None:
            requested = int(doc["instances"])
        try:
            st = _State.from_json(doc["state"])
        except (TypeError, ValueError, KeyError, ZeroDivisionError, InvalidParameter) as err:
            raise SpecError(f"{resume}: not a valid search checkpoint: {err}") from None
        checkpoints.validate_resume(
            doc,
            st,
            reference=_encode_ref(ref, claim),
            per_batch=cfg.per_batch,
            batch=lambda index: run_batch(ref, seed, index, cfg),
            confirmed=lambda inst: confirm(claim, inst).confirmed,
            replay=lambda found, checks: _replay_shrink(claim, found, checks, cfg),
            path=resume,
        )
    if requested < 1:
        raise InvalidParameter(f"the instance budget must be >= 1, got {requested}")
    total = max(1, math.ceil(requested / cfg.per_batch))
    deadline = None if seconds is None else t_start + float(seconds)
    base_elapsed = st.elapsed
    last_ck = time.monotonic()
    status = "exhausted"

    def elapsed() -> float:
        return base_elapsed + (time.monotonic() - t_start)

    def save(force: bool = False) -> None:
        nonlocal last_ck
        if ck_path is None:
            return
        now = time.monotonic()
        if not force and now - last_ck < checkpoint_every:
            return
        st.elapsed = elapsed()
        doc = checkpoints.seal(_checkpoint_doc(claim, ref, seed, cfg, requested, st))
        text = json.dumps(doc, indent=1)
        atomic_write(ck_path, text + "\n")
        last_ck = now

    def report(phase: str) -> None:
        if progress is not None:
            progress(
                Progress(
                    claim.id,
                    phase,
                    st.instances,
                    total * cfg.per_batch,
                    st.best_ratio,
                    elapsed(),
                    st.next_index,
                )
            )

    def consume() -> None:
        while st.found is None and st.next_index in st.pending:
            r = st.pending.pop(st.next_index)
            st.instances += r.count
            if r.best_ratio > st.best_ratio or st.best is None:
                st.best_ratio, st.best, st.best_batch = r.best_ratio, r.best, r.index
            st.candidates += r.candidates
            st.rejected += r.rejected
            st.errors += r.errors
            if st.first_error is None and r.error:
                st.first_error = r.error
            st.next_index += 1
            if r.confirmed is not None:
                st.found, st.found_batch, st.found_ratio = r.confirmed, r.index, r.confirmed_ratio
                st.pending.clear()
            save()
            report("search")

    runner = as_runner(executor, workers)  # None: the batches run in this process
    owned = runner is not None and executor is None
    in_flight: dict[Any, int] = {}
    interrupted = False
    try:
        try:
            if st.done and st.found is None and st.next_index < total:
                st.done = False  # a finished search resumed with a larger budget
            if st.done:
                status = "violated" if st.found is not None else "exhausted"
            elif runner is None:
                while st.found is None and st.next_index < total:
                    if deadline is not None and time.monotonic() > deadline:
                        status = "time_limit"
                        break
                    i = st.next_index
                    if i not in st.pending:
                        st.pending[i] = run_batch(ref, seed, i, cfg)
                    consume()
            else:
                nxt = st.next_index
                while st.found is None and st.next_index < total:
                    if deadline is not None and time.monotonic() > deadline:
                        status = "time_limit"
                        break
                    window = 2 * runner.slots()  # asked again: dask clusters grow and shrink
                    while len(in_flight) < window and nxt < total:
                        if nxt not in st.pending:
                            fut = runner.submit(run_batch, ref, seed, nxt, cfg)
                            in_flight[fut] = nxt
                        nxt += 1
                    for fut in runner.wait(in_flight, timeout=0.25):
                        idx = in_flight.pop(fut)
                        if idx >= st.next_index and st.found is None:
                            st.pending[idx] = fut.result()
                    consume()
                    if not in_flight and st.next_index < total and nxt >= total:
                        nxt = st.next_index  # pragma: no cover - defensive
        except KeyboardInterrupt:
            interrupted = True
            status = "interrupted"
        finally:
            if runner is not None:
                runner.cancel(in_flight)
                if owned:
                    runner.close(wait=not interrupted)
        if st.found is not None:
            status = "violated"
        result = _finish(
            claim, st, status, seed, requested, cfg, out, shrink, exact_best, save, report,
            interrupted,
        )  # fmt: skip
    except BaseException:  # a failing worker, a second Ctrl-C: keep the work done so far
        save(force=True)
        raise
    if result.status == "interrupted":
        st.done = False
    save(force=True)
    result.elapsed = elapsed()
    result.checkpoint = None if ck_path is None else str(ck_path)
    return result


def _finish(
    claim: Claim,
    st: _State,
    status: str,
    seed: int,
    requested: int,
    cfg: SearchConfig,
    out: str | os.PathLike[str] | None,
    shrink: bool,
    exact_best: bool | None,
    save: Callable[..., None],
    report: Callable[[str], None],
    interrupted: bool,
) -> SearchResult:
    res = SearchResult(
        claim=claim.id,
        statement=claim.statement,
        expected=claim.expected,
        status=status,
        seed=seed,
        instances=st.instances,
        requested_instances=math.ceil(requested / cfg.per_batch) * cfg.per_batch,
        batches=st.next_index,
        elapsed=0.0,
        best_ratio=st.best_ratio,
        best_instance=st.best,
        best_description="-" if st.best is None else claim.describe(st.best),
        best_batch=st.best_batch,
        candidates=st.candidates,
        rejected=st.rejected,
        errors=st.errors,
        first_error=st.first_error,
    )
    if interrupted:
        return res
    if st.found is None and st.best is not None and status in ("exhausted", "time_limit"):
        want = search_spec(claim).exact_best if exact_best is None else exact_best
        if want:
            conf = confirm(claim, st.best)
            res.best_exact_ratio = conf.ratio
            if conf.confirmed:  # the screen missed a violation: it is one all the same
                st.found, st.found_batch, st.found_ratio = st.best, st.best_batch, conf.ratio
                res.status = status = "violated"
    if st.found is None:
        st.done = status == "exhausted"
        return res
    res.found_instance = st.found
    res.found_batch = st.found_batch
    cur = st.shrink_current if st.shrink_current is not None else st.found
    if shrink:
        try:
            cur = _shrink(claim, cur, st, cfg, save, report)
        except KeyboardInterrupt:
            res.status = "interrupted"
            res.counterexample = cur
            res.counterexample_description = claim.describe(cur)
            return res
    st.shrink_done = True
    doc = search_spec(claim).document(cur)
    final: Confirmation = confirm(claim, cur, doc)
    if not final.confirmed:  # pragma: no cover - every accepted step was confirmed
        cur = st.found
        doc = search_spec(claim).document(cur)
        final = confirm(claim, cur, doc)
    res.counterexample = cur
    res.counterexample_description = claim.describe(cur)
    res.counterexample_ratio = final.ratio
    res.check = final.result
    res.shrink_steps = st.shrink_steps
    res.document = doc
    comment = (
        f"Counterexample to {claim.id}: {claim.statement}\n"
        f"Found by `verifier search {claim.id} --seed {seed}` after {st.instances} instances "
        f"(batch {st.found_batch}).\n"
        f"Instance: {res.counterexample_description}\n"
        f"Re-check with: verifier check FILE   (exit code 1 = the violation is proved exactly;\n"
        f"`verifier check --expected FILE` exits 0: the premises hold, the target is refuted)"
    )
    if out is not None:
        path, text = write_certificate(out, doc, claim.id, comment.replace("FILE", Path(out).name))
        res.certificate, res.certificate_text = str(path), text
    else:
        from .certificates import certificate_text

        res.certificate_text = certificate_text(doc, claim.id, "toml", comment)
    st.done = True
    return res


def _replay_shrink(
    claim: Claim, found: Any, checks: int, cfg: SearchConfig
) -> tuple[Any, int, int]:
    """Shrinking ``found`` replayed for at most ``checks`` exact checks (it is
    deterministic): the instance reached, the steps taken and the checks used."""
    st = _State(found=found)
    limited = dataclasses.replace(cfg, shrink_checks=checks)
    current = _shrink(claim, found, st, limited, lambda *a, **k: None, lambda phase: None)
    return current, st.shrink_steps, st.shrink_checks


def _shrink(
    claim: Claim,
    cur: Any,
    st: _State,
    cfg: SearchConfig,
    save: Callable[..., None],
    report: Callable[[str], None],
) -> Any:
    space = search_spec(claim).space
    while not st.shrink_done and st.shrink_checks < cfg.shrink_checks:
        size = space.complexity(cur)
        accepted = False
        for cand in space.shrink(cur):
            if not space.complexity(cand) < size:
                continue
            try:
                r = _screen(claim, cand)
            except Exception:
                continue
            if not r > cfg.threshold:
                continue
            if st.shrink_checks >= cfg.shrink_checks:
                break
            st.shrink_checks += 1
            if confirm(claim, cand).confirmed:
                cur = cand
                st.shrink_steps += 1
                accepted = True
                break
        st.shrink_current = cur
        save()
        report("shrink")
        if not accepted:
            st.shrink_done = True
    return cur
