"""The cyclic garbage collector, tuned for long exact computations.

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
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

__all__ = ["YOUNG_THRESHOLD", "OLDER_THRESHOLD", "long_run_collector"]

#: Net allocations between two young collections (CPython's default: 700).
YOUNG_THRESHOLD = 20_000
#: Collections of one generation between two of the next (CPython's default: 10).
OLDER_THRESHOLD = 20


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
