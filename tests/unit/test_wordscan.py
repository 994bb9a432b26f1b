"""wordscan: the words `\\w+` finds, by the ASCII shortcut or the regular expression, on texts of every kind."""

from __future__ import annotations

import random
import re

from bara_scrapy.extraction.wordscan import word_count, word_list, word_seq

_WORD = re.compile(r"\w+")
# ASCII, punctuation and spaces beyond it, letters, digits and marks beyond it, a lone surrogate, an emoji
_ALPHABET = [chr(c) for c in range(0x80)] + list(
    "’“”—–\u00a0\u2028\u2003\u0301\u0338éİßΣςKµ٣²Ⅷ\ufeff\ud800\U0001f600Жاא一"
)


def _texts(n: int) -> list[str]:
    rng = random.Random(7)
    texts = []
    for _ in range(n):
        text = "".join(rng.choice(_ALPHABET) for _ in range(rng.randrange(40)))
        if rng.random() < 0.5:  # only ASCII word characters: the shortcut
            text = "".join(c for c in text if c.isascii() or not c.isalnum())
        texts += [text, text.lower()]
    return texts


def test_word_functions_agree_with_the_regular_expression() -> None:
    for text in _texts(20_000):
        found = _WORD.findall(text)
        assert word_list(text) == found, text
        assert word_count(text) == len(found), text
        assert word_seq(text) == " ".join(found), text


def test_shortcut_keeps_words_apart_at_non_ascii_punctuation() -> None:
    assert word_list("don’t\u00a0stop—now") == ["don", "t", "stop", "now"]
    assert word_list("naïve café") == ["naïve", "café"]
