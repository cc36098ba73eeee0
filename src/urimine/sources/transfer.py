"""Content-Transfer-Encoding (RFC 2045 section 6): which one to undo, and undoing it.

Quoted-printable and base64 are decoded with :mod:`binascii`, once, and only for the
parts that are read; a broken body is salvaged as far as it decodes, with a defect.
"""

from __future__ import annotations

import binascii
import re

_B64_JUNK = re.compile(rb"[^A-Za-z0-9+/]")


def decode_base64(data: bytes, defects: list[str]) -> bytes:
    """Decode base64, salvaging what can be decoded from a broken body."""
    try:
        return binascii.a2b_base64(data)
    except binascii.Error:
        pass
    defects.append("bad base64")
    clean = _B64_JUNK.sub(b"", data)
    whole = len(clean) // 4 * 4
    out = binascii.a2b_base64(clean[:whole]) if whole else b""
    rest = clean[whole:]
    if len(rest) >= 2:
        out += binascii.a2b_base64(rest + b"=" * (4 - len(rest)))
    return out


def transfer_encoding(cte: str | None, defects: list[str]) -> str:
    """The Content-Transfer-Encoding to undo, or ``""`` for an identity one.

    RFC 2045 section 6.1: ``7bit``, ``8bit`` and ``binary`` (and no field) mean
    the body is as it stands; any other unknown value is noted as a defect.
    """
    enc = (cte or "").strip().lower()
    if enc in ("quoted-printable", "base64"):
        return enc
    if enc and enc not in ("7bit", "8bit", "binary"):
        defects.append(f"unknown transfer encoding {enc!r}")
    return ""


_QP_SOFT_BREAK_PADDED = re.compile(rb"=[ \t]+(?=\r?\n|\Z)")
"""A quoted-printable soft line break with white space after its "=" (RFC 2045 6.7)."""


def undo_transfer(body: bytes, enc: str, defects: list[str]) -> bytes:
    """Undo the transfer encoding *enc* (from :func:`transfer_encoding`)."""
    if enc == "quoted-printable":  # RFC 2045 section 6.7
        if b"= " in body or b"=\t" in body:
            # Rule (3): trailing white space on a line "must be deleted" when decoding
            # (transport may add it), so "=" before it is still a soft line break;
            # binascii keeps the "=" and the break ("http://a.example/y=" cut short).
            body = _QP_SOFT_BREAK_PADDED.sub(b"=", body)
        return binascii.a2b_qp(body)
    if enc == "base64":
        return decode_base64(body, defects)  # RFC 2045 section 6.8
    return body


EXPANSION = {"quoted-printable": 3, "base64": 2}
"""Encoded bytes per decoded byte at most, by transfer encoding (identity: 1)."""
