"""Caps that bound memory on hostile input (decompression bombs, giant messages).

A mail message and a WARC record are parsed whole, so each is read up to a cap; the
text of one part or payload is decoded and converted up to a smaller one. What lies
past a cap is skipped without being held, the unit is marked as cut there (a URI open
at the cap is not taken for a whole one), and a defect says so. With these caps one
message, record or HTML document stays well under 300 MB of peak memory, whatever
its size and characters (``tests/test_faults_sources.py`` measures it).
"""

from __future__ import annotations

MAX_MESSAGE = 16 << 20
"""Bytes of one mail message read (a message with a large attachment: the mail
systems of most providers refuse messages over 25 to 50 MB)."""
MAX_RECORD = 16 << 20
"""Bytes of one WARC record block read."""
MAX_TEXT = 8 << 20
"""Bytes of one text part, HTML part or record payload decoded to text (after the
transfer or content encoding is undone)."""


def over(what: str, cap: int) -> str:
    """The defect of something read only up to *cap* bytes."""
    return f"{what} larger than {cap >> 20} MiB: read up to there"
