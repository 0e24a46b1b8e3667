"""MurmurHash3 x86_32 (Austin Appleby, public domain, ``MurmurHash3_x86_32`` of the
SMHasher suite), as the ``mmh3`` package's ``hash(text, seed)`` returns it: the UTF-8
bytes of ``text``, the result as a signed 32-bit integer.  RAPPOR's Bloom filter in
DP-Sniper (``dpsniper/mechanisms/rappor.py``) sets bit ``mmh3.hash(str(v), seed=i) %
filter_size`` for ``i < n_hashes``; :func:`bloom_bits` computes the same bits.  The
text hashed is Python's ``str`` of the value: ``"1"`` for the integer DP-Sniper's
``InputDomain(1, INT, [-10, 10])`` yields, ``"1.0"`` for the float its StatDP wrapper
passes (``statdpwrapper/algorithms_ext.py``, ``rappor``: ``np.array(queries[0],
dtype=float)``) — different filters.

>>> murmur3_32(b"", 0), murmur3_32(b"", 1)
(0, 1364076727)
>>> mmh3_hash("1", 0)
-1810453357
>>> bloom_bits(1, 4, 20)
(3, 10, 13)
>>> bloom_bits(1.0, 4, 20)
(6, 14, 18)
"""

from __future__ import annotations

__all__ = ["murmur3_32", "mmh3_hash", "bloom_bits"]

_MASK = 0xFFFFFFFF
_C1, _C2 = 0xCC9E2D51, 0x1B873593


def _rotl(x: int, r: int) -> int:
    return ((x << r) | (x >> (32 - r))) & _MASK


def _mix_k(k: int) -> int:
    k = (k * _C1) & _MASK
    k = _rotl(k, 15)
    return (k * _C2) & _MASK


def murmur3_32(data: bytes, seed: int = 0) -> int:
    """MurmurHash3 x86_32 of ``data`` with ``seed``, as an unsigned 32-bit integer:
    4-byte little-endian blocks mixed into the state, the tail mixed once, the length
    xored in, then the final avalanche (``fmix32``)."""
    h = seed & _MASK
    n = len(data)
    body = n - n % 4
    for i in range(0, body, 4):
        h ^= _mix_k(int.from_bytes(data[i : i + 4], "little"))
        h = _rotl(h, 13)
        h = (h * 5 + 0xE6546B64) & _MASK
    tail = data[body:]
    if tail:
        h ^= _mix_k(int.from_bytes(tail, "little"))
    h ^= n
    h ^= h >> 16
    h = (h * 0x85EBCA6B) & _MASK
    h ^= h >> 13
    h = (h * 0xC2B2AE35) & _MASK
    h ^= h >> 16
    return h


def mmh3_hash(text: str, seed: int = 0) -> int:
    """``mmh3.hash(text, seed)``: :func:`murmur3_32` of the UTF-8 bytes, signed."""
    h = murmur3_32(text.encode("utf-8"), seed)
    return h - (1 << 32) if h >= 1 << 31 else h


def bloom_bits(value: int | float, n_hashes: int, filter_size: int) -> tuple[int, ...]:
    """The set bits of RAPPOR's Bloom filter of ``value`` (sorted, without repeats):
    ``mmh3_hash(str(value), i) % filter_size`` for ``i < n_hashes`` (Python's ``%``:
    the result is in ``[0, filter_size)`` for a negative hash too); an ``int`` and the
    equal ``float`` hash different texts (module docstring)."""
    return tuple(sorted({mmh3_hash(str(value), i) % filter_size for i in range(n_hashes)}))
