"""Which mail header fields are scanned for URIs, by the class the RFCs give each field.

RFC 5322 section 3.6 sorts the fields of a message. Its structured fields hold
addresses, message identifiers, dates and trace data, whose angle brackets and colons
are no URI's (``<user@host>``, ``<id@host>``, ``10:23:45``): they are never scanned.
Its unstructured fields (``Subject``, ``Comments``, and every optional field, section
3.6.8: ``optional-field = field-name ":" unstructured``, so ``X-Mailer``, ``User-Agent``,
``Organization`` and the spam filters' reports) are free text, scanned as text. Fields
that other RFCs define as structured are treated as RFC 5322's are: MIME's (RFC 2045,
2183, 3282), signatures and authentication results (DKIM RFC 6376, ARC RFC 8617,
Authentication-Results RFC 8601, Received-SPF RFC 7208), Usenet's identifiers and
trace (RFC 5536), and opaque data a machine writes in optional fields (base64 blobs of
anti-spam systems, X-Face images, Autocrypt keys). Besides, some fields hold URIs by
design: ``List-*`` (RFC 2369, RFC 2919), ``Archived-At`` (RFC 5064), ``Content-Base``
(RFC 2110) and ``Content-Location`` (RFC 2557).
"""

from __future__ import annotations

import re

LINK, TEXT = 0, 1
"""Kinds of field scanned: one that holds URIs by design, an unstructured one."""

LINK_NAMES = ("archived-at", "content-base", "content-location")
"""Fields that hold a URI by design, besides ``List-*`` (RFC 5064, RFC 2110, RFC 2557)."""
LINK_PREFIX = "list-"
"""RFC 2369 (``List-Help``, ``-Unsubscribe``, ``-Subscribe``, ``-Post``, ``-Owner``,
``-Archive``) and RFC 2919 (``List-Id``)."""

NEVER_NAMES = (
    # RFC 5322 section 3.6: date, originator, destination, identification, trace.
    "date",
    "from",
    "sender",
    "reply-to",
    "to",
    "cc",
    "bcc",
    "message-id",
    "in-reply-to",
    "references",
    "return-path",
    "received",
    # Addresses in other fields (RFC 9228 Delivered-To, RFC 8098, list software).
    "delivered-to",
    "x-original-to",
    "envelope-to",
    "x-envelope-to",
    "x-envelope-from",
    "apparently-to",
    "errors-to",
    "mail-followup-to",
    "mail-reply-to",
    "return-receipt-to",
    "disposition-notification-to",
    "original-recipient",
    "x-original-from",
    "x-original-sender",
    "x-delivered-to",
    "old-return-path",
    "x-from",  # an mbox envelope line kept by an archive: address and date
    # MIME (RFC 2045 section 4).
    "mime-version",
    # Signatures, authentication and trace (RFC 6376, 4870, 8601, 7208).
    "dkim-signature",
    "domainkey-signature",
    "authentication-results",
    "x-original-authentication-results",
    "received-spf",
    "x-received",
    "x-clientproxiedby",
    "x-originalarrivaltime",
    "x-mailman-approved-at",
    "reply-by",  # RFC 2156: a date
    "x-developer-signature",
    "x-developer-key",
    "x-sonic-dkim-sign",
    "feedback-id",  # colon-separated identifiers
    # Usenet (RFC 5536): newsgroup names, message identifiers, trace.
    "newsgroups",
    "followup-to",
    "path",
    "xref",
    "supersedes",
    "injection-info",
    # Opaque data: images (X-Face), keys (Autocrypt), base64 blobs.
    "x-face",
    "face",
    "autocrypt",
    "thread-index",
    "x-gm-message-state",
    "x-google-smtp-source",
    "x-authority-analysis",
    "x-ipas-result",
)
"""Structured fields, never scanned (exact names, lower case)."""

NEVER_PREFIXES = (
    "resent-",  # RFC 5322 section 3.6.6: the originator, destination and id fields again
    "arc-",  # RFC 8617: ARC-Seal, ARC-Message-Signature, ARC-Authentication-Results
    "content-",  # MIME (RFC 2045, 2183, 3282), but for the three named below
    "x-google-dkim-",
    "x-ms-",
    "x-microsoft-",
    "x-forefront-",
    "ironport-",
    "x-ironport-",
    "x-me-",  # Fastmail's opaque tokens, <xms:...>
    "x-proofpoint-",  # a filter's stamps: vendor=... engine=2.50.10434:6.0.425
)
"""Families of structured fields, never scanned."""
NEVER_SUFFIX = "-date"
"""A field whose name ends so holds a date-time (``X-Original-Date``, ``Expiry-Date``)."""
CONTENT_TEXT = ("content-description",)
"""The ``Content-*`` field that is free text (RFC 2045 section 8: ``*text``)."""

_NAME = re.compile(rb"[!-9;-~]{1,64}")
"""A field name (RFC 5322 section 3.6.8: ``ftext``) short enough to label a hit with."""
_KINDS: dict[bytes, int | None] = {}
_MAX_KINDS = 4096


def field_kind(key: bytes) -> int | None:
    """The kind of a field named *key* (lower case): :data:`LINK`, :data:`TEXT`, or
    None: never scanned."""
    if key in _KINDS:
        return _KINDS[key]
    name = key.decode("latin-1")
    kind: int | None = TEXT
    if name.startswith(LINK_PREFIX) or name in LINK_NAMES:
        kind = LINK
    elif name in CONTENT_TEXT:
        kind = TEXT
    elif name in NEVER_NAMES or name.startswith(NEVER_PREFIXES) or name.endswith(NEVER_SUFFIX):
        kind = None
    if len(_KINDS) < _MAX_KINDS and len(key) <= 64:
        _KINDS[key] = kind
    return kind


def label(key: bytes) -> str:
    """The context of a hit in the field named *key* (lower case): ``header:subject``;
    ``header:other`` for a name that is no RFC 5322 name or is over 64 characters."""
    if _NAME.fullmatch(key):
        return "header:" + key.decode("ascii")
    return "header:other"
