"""Resolving a URI reference against a base URI (RFC 3986 section 5.2).

Two path treatments are offered. ``mode="rfc3986"`` removes dot segments with RFC 3986
5.2.4 everywhere RFC 3986 5.2.2 does (Appendix C of RFC 3986: ``../../../g`` gives
``http://a/g``). ``mode="rfc2396bis"`` follows seed 002's own merge steps 1-8 literally:
excess ".." segments are retained (step 7) and paths of references with a scheme, an
authority or an absolute path are left alone, which reproduces 002 Appendix C exactly
(``../../../g`` gives ``http://a/../g``, ``/./g`` gives ``http://a/./g``).

RFC 3986 5.2 needs an absolute base. For a relative base (no scheme) ``rfc3986`` mode
keeps unresolvable leading ".." segments of a relative result instead of dropping them,
so that ``resolve("../", "bar")`` is ``"../bar"`` (as tkem/uritools does).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from urimine.normalize import remove_dot_segments
from urimine.parser import split_reference

__all__ = ["resolve"]

_MODES = ("rfc3986", "rfc2396bis")
# 002 5.2 merge step 3: "./" where "." is a complete path segment.
_DOT_SLASH = re.compile(r"(?<![^/])\./")
# Step 5: "<segment>/../" where <segment> is a complete segment not equal to "..".
_SEG_DOTDOT_SLASH = re.compile(r"(?<![^/])(?!\.\./)[^/]+/\.\./")
# Step 6: a trailing "<segment>/.." where <segment> is not "..".
_SEG_DOTDOT_END = re.compile(r"(?<![^/])(?!\.\./)[^/]+/\.\.\Z")


def _merge_2396bis(base_path: str, ref_path: str) -> str:
    """002 5.2 merge steps 1-8, literally (string-buffer form)."""
    # 1. all but the last segment of the base path; "/" if the base path is empty
    buf = base_path[: base_path.rfind("/") + 1] if base_path else "/"
    buf += ref_path  # 2.
    buf = _DOT_SLASH.sub("", buf)  # 3.
    if buf == "." or buf.endswith("/."):  # 4.
        buf = buf[:-1]
    while True:  # 5. iteratively, leftmost first
        shorter = _SEG_DOTDOT_SLASH.sub("", buf, count=1)
        if shorter == buf:
            break
        buf = shorter
    buf = _SEG_DOTDOT_END.sub("", buf, count=1)  # 6.
    return buf  # 7. leading ".." segments are retained; 8. the result is the path


def _merge_3986(base_authority: str | None, base_path: str, ref_path: str) -> str:
    """RFC 3986 5.2.3 merge (before remove_dot_segments)."""
    if base_authority is not None and not base_path:
        return "/" + ref_path
    return base_path[: base_path.rfind("/") + 1] + ref_path


def _relative_dots(path: str) -> str:
    """Dot-segment removal that keeps unresolvable ".." at the head of a relative path."""
    if path.startswith("/"):
        return remove_dot_segments(path)
    segments = path.split("/")
    out: list[str] = []
    for i, seg in enumerate(segments):
        if seg == ".." and out and out[-1] != "..":
            out.pop()
        elif seg != ".":
            out.append(seg)  # a segment, or a ".." with nothing left to remove
        if seg in (".", "..") and i == len(segments) - 1:
            out.append("")  # a trailing "." or ".." leaves a directory: "a/.." -> ""
    result = "/".join(out)
    return "./" if path and not result else result


def _identity(path: str) -> str:
    """002 mode: paths of scheme, authority and absolute-path references stay as written."""
    return path


def resolve(base: str, ref: str, *, strict: bool = True, mode: str = "rfc3986") -> str:
    """Resolve ``ref`` against ``base`` by RFC 3986 section 5.2 (or the draft's steps, see
    ``mode``); the result is recomposed as in section 5.3.

    ``strict=False`` is the backward-compatible reading (RFC 3986 section 5.2.2), which
    ignores a scheme in ``ref`` equal to the base's (``http:g`` -> ``http://a/b/c/g``).
    An empty reference gives the base without its fragment; ``#s`` gives that plus
    ``#s``. Raises ValueError only for an unknown ``mode``; the inputs are not validated.
    """
    if mode not in _MODES:
        raise ValueError(f"mode must be one of {_MODES}, not {mode!r}")
    b, r = split_reference(base), split_reference(ref)
    if mode == "rfc2396bis":
        dots: Callable[[str], str] = _identity
    else:
        dots = remove_dot_segments if b.scheme is not None else _relative_dots
    r_scheme = r.scheme
    if not strict and r_scheme is not None and r_scheme.lower() == (b.scheme or "").lower():
        r_scheme = None
    scheme, authority, query = b.scheme, b.authority, r.query
    if r_scheme is not None:
        scheme, authority, path = r_scheme, r.authority, dots(r.path)
    elif r.authority is not None:
        authority, path = r.authority, dots(r.path)
    elif not r.path:
        path = b.path  # 002: the current document, or its path with the new query
        query = b.query if r.query is None else r.query
    elif r.path.startswith("/"):
        path = dots(r.path)
    elif mode == "rfc2396bis":
        path = _merge_2396bis(b.path, r.path)
    else:
        path = dots(_merge_3986(b.authority, b.path, r.path))
    return _recompose(scheme, authority, path, query, r.fragment)


def _recompose(
    scheme: str | None, authority: str | None, path: str, query: str | None, frag: str | None
) -> str:
    """002 5.2 recomposition of the target components and the reference's fragment."""
    parts = []
    if scheme is not None:
        parts += [scheme, ":"]
    if authority is not None:
        parts += ["//", authority]
    parts.append(path)
    if query is not None:
        parts += ["?", query]
    if frag is not None:
        parts += ["#", frag]
    return "".join(parts)
