"""``format=flowed`` text (RFC 3676): soft line breaks joined, space-stuffing undone."""

from __future__ import annotations

import re


def unflow(text: str, delsp: bool) -> str:
    """Undo ``format=flowed`` (RFC 3676): join soft-broken lines, drop space-stuffing.

    A line ending in a space is flowed into the next line of the same quote
    depth; with ``DelSp=yes`` that trailing space is deleted. The signature
    separator ``-- `` is never flowed. One C-level scan splits every line into
    its quote marks and its content without the stuffed space (RFC 3676 sections
    4.4 and 4.5), so the Python loop only joins. Lines end in CRLF (the canonical
    form, RFC 2046 section 4.1.1, which a base64 body keeps) or in a bare LF: the
    scan splits at LF, a CR before it stays with the content (so a line kept
    keeps its CRLF), and a flowed line is one whose content ends in a space,
    before that CR if any.
    """
    if " \n" not in text and " \r\n" not in text and "\n " not in text and not text.startswith(" "):
        return text  # nothing flowed and nothing stuffed
    out: list[str] = []
    para: list[str] = []
    para_depth = -1
    for quotes, content in _FLOWED_LINE.findall(text + "\n"):
        depth = len(quotes)
        if para and depth != para_depth:
            out.append(_quoted(para_depth, "".join(para)))
            para = []
        if content.endswith(_FLOWED_ENDS) and content not in _SIGNATURE_SEPARATORS:
            para_depth = depth  # flowed (section 4.1)
            if content[-1] == "\r":
                content = content[:-1]
            para.append(content[:-1] if delsp else content)
        elif para:
            para.append(content)
            out.append(_quoted(depth, "".join(para)))
            para = []
        else:
            out.append(f"{quotes} {content}" if depth else content)
    if para:
        out.append(_quoted(para_depth, "".join(para)))
    return "\n".join(out)


_FLOWED_LINE = re.compile(r"(>*) ?([^\n]*)\n")
"""A line of flowed text: its quote marks, then its content without one stuffed space
(and with the CR of a CRLF line end).

Every line, the last one too once a line break is added, matches where the
previous one ended, so the scan never tries a position in the middle of a line.
"""
_FLOWED_ENDS = (" ", " \r")
"""How the content of a flowed line ends (section 4.1), by LF or CRLF."""
_SIGNATURE_SEPARATORS = ("-- ", "-- \r")
"""The signature separator line, never flowed (section 4.3)."""


def _quoted(depth: int, content: str) -> str:
    return ">" * depth + " " + content if depth else content
