"""The cyclic garbage collector and sympy's cache, tuned for long exact computations.

Exact decisions build millions of short-lived sympy and ``Fraction`` objects, almost
none of them in reference cycles, while the heap holds a few hundred MiB of
long-lived ones (imported modules, caches, the outcomes decided so far).  With
CPython's default thresholds ``(700, 10, 10)`` the collector runs a young collection
every 700 net allocations and a full one whenever the young ones have promoted enough
survivors, and each full collection walks the whole heap: on ``verifier
casestudies`` that was about 5 s of 65 (of which 4 s in 16 full collections).

:func:`long_run_collector` raises the thresholds for the duration of a command: young
collections every :data:`YOUNG_THRESHOLD` allocations, older ones
:data:`OLDER_THRESHOLD` times less often.  Garbage in cycles still goes; it waits a
little longer (at most some tens of thousands of objects, a few MiB).  Worker
processes forked inside the block inherit the setting.

sympy memoizes its constructors and many functions in least-recently-used caches of
``SYMPY_CACHE_SIZE`` entries each (an environment variable read once, when sympy is
first imported; sympy's default is 1000).  The claims of the case studies rebuild the
same subexpressions (the probabilities of one mechanism at every pair, the sides of
an inequality at every point of a search) further apart than 1000 calls:
:func:`size_sympy_cache` sets :data:`SYMPY_CACHE_SIZE` for the ``verifier`` command
when nobody chose a size.  Measured on ``verifier casestudies -j 1`` on the claims of
commit 2e98a9d (a figure of ``benchmarks/README.md``; two alternated rounds, CPU s):
1000: 64 and 67; 3000: 57 and 59; 5000: 53 and 60; 10000: 59 and 63 (a larger cache
costs more per lookup than it saves); peak memory 263, 272, 276 and 292 MB.
"""

from __future__ import annotations

import contextlib
import gc
import os
import sys
from collections.abc import Iterator

__all__ = [
    "YOUNG_THRESHOLD",
    "OLDER_THRESHOLD",
    "SYMPY_CACHE_SIZE",
    "long_run_collector",
    "size_sympy_cache",
]

#: Net allocations between two young collections (CPython's default: 700).
YOUNG_THRESHOLD = 20_000
#: Collections of one generation between two of the next (CPython's default: 10).
OLDER_THRESHOLD = 20
#: Entries of each of sympy's caches in the ``verifier`` command (sympy's default: 1000).
SYMPY_CACHE_SIZE = 5000


def size_sympy_cache(size: int = SYMPY_CACHE_SIZE) -> bool:
    """Give sympy caches of ``size`` entries (module docstring): sets the environment
    variable ``SYMPY_CACHE_SIZE`` unless it is set already (the user's choice stays) or
    sympy is imported already (its caches are made); whether it was set.  Worker
    processes inherit it."""
    if "sympy" in sys.modules or "SYMPY_CACHE_SIZE" in os.environ:
        return False
    os.environ["SYMPY_CACHE_SIZE"] = str(size)
    return True


@contextlib.contextmanager
def long_run_collector() -> Iterator[None]:
    """Raise the collector's thresholds inside the block and restore them after.

    >>> import gc
    >>> before = gc.get_threshold()
    >>> with long_run_collector():
    ...     gc.get_threshold()
    (20000, 20, 20)
    >>> gc.get_threshold() == before
    True
    """
    before = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, OLDER_THRESHOLD, OLDER_THRESHOLD)
    try:
        yield
    finally:
        gc.set_threshold(*before)
