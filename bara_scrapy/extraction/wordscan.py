"""Words of a text as `\\w+` finds them, sooner: every pass counts or compares words, over a page's text many times.

`re.findall(r"\\w+", text)` looks up each character's Unicode category: about 20 ns a character, a few
milliseconds a page. When no character beyond ASCII is a word character (`\\w` on ASCII is `[0-9A-Za-z_]`), the
same words come from the ASCII bytes with every other byte made a space, at a few nanoseconds a character:
characters beyond ASCII (curly quotes, dashes, no-break spaces) are encoded as `?`, which is no word character
either. Whether one is a word character is asked of those characters alone (`_beyond_ascii`); a text holding
a word character beyond ASCII (an accented letter) goes to the regular expression.
"""

from __future__ import annotations

import re

_WORD = re.compile(r"\w+")
_WIDE_WORD = re.compile(r"[^\W\x00-\x7f]")  # a word character beyond ASCII
_ASCII = bytes(range(128))


def is_word_char(char: str) -> bool:
    """What `\\w` matches (the `re` module asks `str.isalnum` too); False for the empty string."""
    return char.isalnum() or char == "_"


# each byte to itself when `\w` matches it, else to a space (bytes beyond ASCII never come: `encode` replaced them)
_SPACED = bytes(b if b < 128 and is_word_char(chr(b)) else ord(" ") for b in range(256))


def _narrow(text: str) -> bytes | None:
    """The text as ASCII bytes with only word characters and spaces; None when a word character is beyond ASCII."""
    if not text.isascii() and _WIDE_WORD.search(_beyond_ascii(text)):
        return None
    return text.encode("ascii", "replace").translate(_SPACED)


def _beyond_ascii(text: str) -> str:
    """The characters of the text beyond ASCII, in order: the UTF-8 bytes of a character beyond ASCII are all
    beyond ASCII too, so deleting the ASCII bytes leaves whole characters (a few times sooner than a search of the
    whole text for a word character beyond ASCII).

    >>> _beyond_ascii("It’s a café\\u00a0\\ud800")
    '’é\\xa0\\ud800'
    """
    return text.encode("utf-8", "surrogatepass").translate(None, _ASCII).decode("utf-8", "surrogatepass")


def word_list(text: str) -> list[str]:
    """`re.findall(r"\\w+", text)`.

    >>> word_list("It’s a_b, 9\u00a0lives!"), word_list("Café déjà-vu")
    (['It', 's', 'a_b', '9', 'lives'], ['Café', 'déjà', 'vu'])
    """
    narrow = _narrow(text)
    return narrow.decode("ascii").split() if narrow is not None else _WORD.findall(text)


def word_count(text: str) -> int:
    """`len(re.findall(r"\\w+", text))`.

    >>> word_count("It’s a_b, 9\u00a0lives!"), word_count("Café déjà-vu")
    (5, 3)
    """
    narrow = _narrow(text)
    return len(narrow.split()) if narrow is not None else len(_WORD.findall(text))


def word_seq(text: str) -> str:
    """The words of the text joined by single spaces: `" ".join(re.findall(r"\\w+", text))`.

    >>> word_seq("  Hello,   World! ")
    'Hello World'
    """
    narrow = _narrow(text)
    return b" ".join(narrow.split()).decode("ascii") if narrow is not None else " ".join(_WORD.findall(text))


def word_at(text: str, words: str, start: int) -> int:
    """Where `words` first stand in `text` from `start` with no word character right before or after them
    (`(?<!\\w)words(?!\\w)`, without compiling a pattern for each label), or -1.

    >>> word_at("Asian Asia", "Asia", 0), word_at("a_b b", "b", 0), word_at("Asia", "Asia", 1), word_at("x", "y", 0)
    (6, 4, -1, -1)
    """
    at = text.find(words, start)
    while at >= 0:
        end = at + len(words)
        if not is_word_char(text[at - 1:at]) and not is_word_char(text[end:end + 1]):
            return at
        at = text.find(words, at + 1)
    return -1
