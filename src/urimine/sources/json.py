"""JSON and JSON Lines to scannable text: every string (keys and values) decoded, one a
line (issue 30 item 7), as HTML parts are made text before scanning.

Streaming and bounded: the text is read as it comes, never parsed whole, so a 1 GB JSON
Lines file (or one 1 GB string) costs a window of memory. Strings are found by their
quotes, whatever structure holds them: a malformed line (a string that a line end cuts,
an escape JSON does not know) is a defect, and the rest is read. RFC 8259 7: the
escapes ``\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX`` (a surrogate pair joined).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

__all__ = ["json_chunks"]

_STRING_BODY = re.compile(r'(?:[^"\\\n]|\\[^\n])*+')
_ESCAPE = re.compile(
    r"\\(?:u([dD][89abAB][0-9a-fA-F]{2})\\u([dD][c-fC-F][0-9a-fA-F]{2})|u([0-9a-fA-F]{4})|(.))"
)
_BAD_ESCAPE = re.compile(r"\\(?![\"\\/bfnrt]|u[0-9a-fA-F]{4})")
_SIMPLE = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
_FLUSH = 1 << 16
"""A string longer than this is handed out in pieces of about this size."""


def _unescape(m: re.Match[str]) -> str:
    high, low, code, char = m.groups()
    if high is not None:
        return chr(0x10000 + ((int(high, 16) - 0xD800) << 10) + int(low, 16) - 0xDC00)
    if code is not None:
        return chr(int(code, 16))
    return _SIMPLE.get(char, char)


def _decode(raw: str) -> tuple[str, bool]:
    """The text of a string's body *raw*, and whether its escapes were all JSON's."""
    if "\\" not in raw:
        return raw, True
    return _ESCAPE.sub(_unescape, raw), _BAD_ESCAPE.search(raw) is None


class _Strings:
    """The state of the walk: inside a string or not, the line number, the defects."""

    def __init__(self, defects: list[str]) -> None:
        self.defects = defects
        self.inside = False
        self.line = 1

    def walk(self, text: str, final: bool) -> tuple[list[str], int]:
        """The decoded pieces of *text* and how much of it was read (the rest, an escape
        or a string cut by the chunk's end, waits for more)."""
        out: list[str] = []
        pos = 0
        while pos < len(text):
            if not self.inside:
                q = text.find('"', pos)
                self.line += text.count("\n", pos, len(text) if q < 0 else q)
                if q < 0:
                    return out, len(text)
                self.inside, pos = True, q + 1
                continue
            m = _STRING_BODY.match(text, pos)
            end = m.end() if m is not None else pos
            if not final and end >= len(text) - 1 and (end == len(text) or text[end] == "\\"):
                keep = text.rfind("\\", max(pos, end - 12), end)
                cut = keep if keep >= 0 and end - keep < 12 else end
                if cut - pos >= _FLUSH or (cut > pos and end - pos >= _FLUSH):
                    out.append(self._piece(text[pos:cut]))
                    return out, cut
                return out, pos
            out.append(self._piece(text[pos:end]) + "\n")
            self.inside = False
            if end == len(text) or text[end] == "\n":
                self.defects.append(f"line {self.line}: a string not closed before the line end")
            pos = end + 1 if end < len(text) and text[end] == '"' else end
        return out, pos

    def _piece(self, raw: str) -> str:
        text, good = _decode(raw)
        if not good:
            self.defects.append(f"line {self.line}: an escape JSON does not know")
        return text


def json_chunks(chunks: Iterable[str], defects: list[str]) -> Iterator[str]:
    """The strings of a JSON or JSON Lines text given as chunks, decoded, each followed
    by a line break; the defects met are added to *defects*."""
    walker = _Strings(defects)
    rest = ""
    for chunk in chunks:
        text = rest + chunk if rest else chunk
        pieces, read = walker.walk(text, final=False)
        rest = text[read:]  # (shorter than a piece: longer ones are handed out)
        yield from pieces
    if rest:
        pieces, _ = walker.walk(rest, final=True)
        yield from pieces
