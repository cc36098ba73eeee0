"""Hand freed heap memory back to the operating system now and then (glibc only).

Reading a large text makes a few 1 MiB strings per MiB of input (the decoded chunk, the
scanner's buffer), each freed soon after. glibc raises its mmap threshold after the first
such free, so later ones come from the heap, which fragments: resident memory then
creeps up with the input size (88 MB after 1 GB in the benchmark) although nothing is
kept. ``malloc_trim`` returns the free pages; elsewhere this is a no-op.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import cache


def release() -> None:
    """Return free heap pages to the OS where the C library can (glibc ``malloc_trim``)."""
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


@cache
def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim``, looked up once; None elsewhere."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes
    import ctypes.util

    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        trim: Callable[[int], int] = libc.malloc_trim
    except (OSError, AttributeError):  # not glibc (musl has no malloc_trim)
        return None
    return trim
