"""What the rules read right before a scheme (``urimine.rules.before``): each context
rule's reader answers only after a character it declares, and the bare shortcut, which
leaves a URI after those characters to the readers, answers as the plain path after
every character (seed 002 Appendix E's delimiters, and what trim pairs)."""

from __future__ import annotations

import string

import pytest

from urimine import Scanner, Speed
from urimine.rules.before import CHARS, READERS
from urimine.rules.config import Config
from urimine.rules.context import Context

# Every printable ASCII character, and the non-ASCII quotes and brackets prose uses.
BEFORE = string.punctuation + string.ascii_letters[:3] + string.digits[:2] + " \t\n«»“”‘’「」"
# What may stand before that character: the openers the readers look for.
LEADS = ("", "x", "URL:", "URL: ", "&lt", "&lt;", "&quot", "\\url", "\\href", "<")


@pytest.mark.parametrize(("rules", "reader", "chars"), READERS, ids=lambda v: str(v)[:24])
def test_a_reader_answers_only_after_the_characters_it_declares(
    rules: frozenset[str], reader: object, chars: str
) -> None:
    ctx = Context(Config.build(sorted(rules | {"bare"}), 8192, ()), Speed.all())
    answered = set()
    for lead in LEADS:
        for c in BEFORE:
            buf = f"see {lead}{c}http://a.example/b"
            found = reader(ctx, buf, buf.index("http"), 0)  # type: ignore[operator]
            if found is not None:
                answered.add(c)
    assert answered, "no reader answered: the leads miss its openers"
    assert answered <= set(chars)
    assert set(chars) <= CHARS


@pytest.mark.parametrize("rules", ["default", "lenient", "default,email,unwrap"])
@pytest.mark.parametrize("c", sorted(set(BEFORE)))
def test_the_shortcut_answers_as_the_plain_path_after_every_character(rules: str, c: str) -> None:
    for lead in LEADS:
        for text in (
            f"see {lead}{c}http://a.example/b{c} and on",
            f"{lead}{c}mailto:a@b.example{c}",
            f"{lead}{c}urn:isbn:0451450523{c}.",
        ):
            fast = list(Scanner(rules=rules).hits([text]))
            plain = list(Scanner(rules=rules, speed=Speed.none()).hits([text]))
            assert fast == plain, text
