"""trafilatura's XML output of a document (`determine_returnstring`), with its text cleaning made cheaper.

`determine_returnstring` for XML drops empty elements, builds the `<doc>` tree and cleans every text and tail
(`trafilatura.utils.sanitize_tree`: control characters out, spaces collapsed, empty lines dropped, line by
line), then serialises the tree. The cleaning took a millisecond a page on CleanEval (130 elements), and nearly
all pieces hold no control character (all but spaces printable), no `&` (`&nbsp;` written as text) and no `␤`:
cleaning them only splits lines and collapses spaces (`_plain_words`), done here, and most of them (a paragraph's
one line of text) it leaves as they are (`_clean`), seen without splitting them; every other piece goes to
trafilatura's own `sanitize`. The rest of the steps are trafilatura 2.3.1's (`FOLLOWED` in `precise.py`);
`tests/unit/test_xmloutput.py` compares the output with `determine_returnstring`'s, and on the 983 pages of the
three real corpora (`docs/benchmarks.md`) it was the same string on every page.
"""

from __future__ import annotations

import trafilatura
from lxml.etree import _Element, fromstring, tostring
from trafilatura.core import determine_returnstring
from trafilatura.settings import Document, Extractor
from trafilatura.utils import FORMATTING_PROTECTED, SPACING_PROTECTED, normalize_unicode, sanitize
from trafilatura.xml import (
    CONTROL_PARSER,
    build_xml_output,
    delete_element,
    keeps_empty,
    remove_empty_elements,
    strip_double_tags,
)

from .precise import FOLLOWED


def xml_string(document: Document, options: Extractor) -> str:
    """`determine_returnstring(document, options)` for XML output (which it is for bara's passes)."""
    if options.format != "xml" or trafilatura.__version__ != FOLLOWED:
        return determine_returnstring(document, options)
    for element in document.body.iter("*"):  # "last cleaning"
        if len(element) == 0 and not element.text and not element.tail and not keeps_empty(element):
            delete_element(element, keep_tail=False)
    # `control_xml_output`
    strip_double_tags(document.body)
    remove_empty_elements(document.body)
    output = _sanitize_tree(build_xml_output(document))
    output = fromstring(tostring(output, encoding="unicode"), CONTROL_PARSER)
    return normalize_unicode(tostring(output, pretty_print=True, encoding="unicode").strip())


def _sanitize_tree(tree: _Element) -> _Element:
    """`trafilatura.utils.sanitize_tree`, plain text cleaned here (`_sanitized`) and left alone when cleaning keeps
    it."""
    for elem in tree.iter():
        tag, parent = elem.tag, elem.getparent()
        parent_tag = parent.tag if parent is not None else ""
        preserve_space = tag in SPACING_PROTECTED or parent_tag in SPACING_PROTECTED
        trailing_space = tag in FORMATTING_PROTECTED or parent_tag in FORMATTING_PROTECTED or preserve_space
        for attribute in elem.keys():  # a list: attributes may go
            if ":" in attribute and (not elem.attrib[attribute] or attribute.split(":", 1)[0] not in tree.nsmap):
                elem.attrib.pop(attribute)
        if (text := elem.text) and (clean := _sanitized(text, preserve_space, trailing_space)) != text:
            elem.text = clean
        if (tail := elem.tail) and (clean := _sanitized(tail, preserve_space, trailing_space)) != tail:
            elem.tail = clean
    return tree


def _sanitized(text: str, preserve_space: bool, trailing_space: bool) -> str | None:
    """`trafilatura.utils.sanitize(text, preserve_space, trailing_space)`.

    >>> _sanitized(" A  b\\u00a0c\\n\\n d ", False, False), _sanitized(" A  b\\u00a0c\\n\\n d ", False, True)
    ('A b c\\nd', ' A b c d ')
    """
    if preserve_space:
        return sanitize(text, preserve_space, trailing_space)
    if _clean(text, trailing_space):
        return text
    words = _plain_words(text)
    if words is None:
        return sanitize(text, preserve_space, trailing_space)
    if not words:  # only spaces: an empty line, dropped
        return None if trailing_space else ""
    if not trailing_space:  # line by line, empty lines dropped
        return "\n".join(line for line in (" ".join(line.split()) for line in text.splitlines()) if line)
    return " " * text[0].isspace() + " ".join(words) + " " * text[-1].isspace()


def _plain_words(text: str) -> list[str] | None:
    """The words of a text that `sanitize` (not preserving spaces) only splits in lines, trims and collapses; None
    for any other. Plain text has no character but spaces that is not printable (no control character to drop),
    and none of the entities `sanitize` replaces (`&nbsp;`, `&#13;`, `&#10;`) nor `␤`.

    >>> _plain_words(" Plain\\u00a0text,\\n\\ttwice  spaced "), _plain_words("a\\u200bb"), _plain_words("&nbsp;")
    (['Plain', 'text,', 'twice', 'spaced'], None, None)
    """
    if "&" in text or "\u2424" in text:
        return None
    words = text.split()
    return words if "".join(words).isprintable() else None


def _clean(text: str, trailing_space: bool) -> bool:
    """Plain text (`_plain_words`) that cleaning keeps as it is, most of a page's: printable, so its only space is " "
    (every other space is a separator or a control character) and it is one line, with no two spaces running,
    nor a space at either end unless `trailing_space` keeps them (a lone space is emptied all the same).

    >>> [_clean(text, True) for text in ("A b, c.", " A b ", " ", "a\\tb", "a  b", "a&amp;b")]
    [True, True, False, False, False, False]
    >>> _clean("A b, c.", False), _clean(" A b", False)
    (True, False)
    """
    if not text.isprintable() or "  " in text or "&" in text or "\u2424" in text:
        return False
    return text != " " if trailing_space else text[0] != " " and text[-1] != " "
