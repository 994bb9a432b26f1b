"""trafilatura's precision mode, less the comparison with readability and jusText where it cannot change the result.

`bare_extraction` in precision mode, without comments or metadata (`text.trafilatura_xml`'s options), runs its
own extractor and then always compares it with two other algorithms (`trafilatura.external.compare_extraction`):
a second prune of the whole raw tree, readability on it, and jusText when the text is short or "unclean". On
CleanEval's pages that comparison is over a third of trafilatura's time, and it keeps trafilatura's own result on
nearly 9 pages of 10. Here it runs only when it could do otherwise. In precision mode it replaces the extraction only:

- with jusText, when the text is under `min_extracted_size` characters or holds an element of `SANITIZED_XPATH`;
- with readability, when trafilatura found no text, when readability's text is over twice as long, or when
  trafilatura's has no paragraph text or more tables than paragraphs.

Readability reads the same (pruned) tree, less its scripts and styles, which it drops first, and the only text it
writes is "VIDEO" in a video's `<iframe>`: its text cannot be longer than all of that tree's other text (text nodes
joined by spaces and trimmed as trafilatura trims) and that word once per `<iframe>`. So when trafilatura's text is
at least half of that, and none of the other cases holds, the comparison would return trafilatura's own result,
and is skipped. In precision mode the comparison first prunes that tree again (`OVERALL_DISCARD_XPATH`, most of
its time); where the whole tree says too much, the text left after the part of that prune named by an element's own
class or id (`_discarded`, a Python search as `re:test` searches) is the bound: on the article corpus 74 of the
96 pages the first bound left to the comparison, and 49 of 50 on CleanPortalEval, none of which it changed.
The result is `bare_extraction`'s, element for element: `tests/unit/test_precise.py` compares the two, and on the
983 pages of the three real corpora (`docs/benchmarks.md`) their XML differed on none.

The steps are trafilatura 2.3.1's `bare_extraction` and `trafilatura_sequence` for these options (the version is
pinned in `requirements.txt`); any other options, or any other version of trafilatura, go to `bare_extraction`
itself. Its prunes run as Python tests of each element (`prunes.py`), here, in the comparison (`compare_extraction`)
and in `extract_content`'s recovery of wild text (`recovery.py`): the same elements as its expressions, without a
call back into Python per element.
"""

from __future__ import annotations

from collections.abc import Iterable
from copy import copy

import trafilatura
from lxml.etree import Element, XPath, _Element, tostring
from lxml.html import HtmlElement
from trafilatura import bare_extraction
from trafilatura.core import _forum_thread_page, _prepare_tree
from trafilatura.external import (
    JUSTEXT_OVERRIDE_RATIO,
    SANITIZED_XPATH,
    _prefer_readability,
    justext_rescue,
    sanitize_tree,
    try_readability,
)
from trafilatura.settings import Document, Extractor
from trafilatura.utils import trim

from .prunes import (
    ad_boxes,
    comment_sections,
    comment_sections_and_lists,
    named_discard,
    overall_discard,
    prune,
    share_buttons,
)
from .recovery import extract_content

FOLLOWED = "2.3.1"  # the trafilatura whose steps `_sequence` follows
DROPPED = ("script", "style", "fencedframe")  # what readability drops before it reads the page (its `summary`)


def precise_extraction(tree: HtmlElement, options: Extractor) -> Document | None:
    """`bare_extraction(tree, options=options)` (see the module docstring); None where it gives nothing."""
    if not _covered(options):
        found = bare_extraction(tree, options=options)
        return found if isinstance(found, Document) else None
    try:
        body, text = _sequence(copy(tree), options)  # a copy, as bare_extraction: the prunes work in place
    except (TypeError, ValueError):  # as bare_extraction: the page gives nothing
        return None
    if len(text) < options.min_output_size and options.min_output_comm_size > 0:
        return None
    document = Document()
    document.raw_text, document.commentsbody, document.body = text, Element("body"), body
    return document


def _covered(options: Extractor) -> bool:
    """The options (and the trafilatura) whose steps `_sequence` follows."""
    return (trafilatura.__version__ == FOLLOWED and options.focus == "precision" and not options.comments
            and not options.with_metadata and not options.lang and not options.dedup and not options.max_tree_size
            and not options.fast and options.format != "python")


def _sequence(tree: HtmlElement, options: Extractor) -> tuple[Element, str]:
    """`trafilatura.core.trafilatura_sequence` in precision mode without comments (stages 3 and 4 are for the
    other modes)."""
    is_forum = _forum_thread_page(tree)
    for select in (ad_boxes, share_buttons, comment_sections_and_lists):  # RAW_TREE_PRUNE_XPATH, and the next
        prune(tree, select)
    cleaned, backup = _prepare_tree(tree, options, options.url)
    if not is_forum:
        prune(cleaned, comment_sections)  # REMOVE_COMMENTS_XPATH
    body, text = extract_content(cleaned, options)
    if comparison_may_change(body, text, tree, options):
        body, text = compare_extraction(backup, copy(tree), body, text, options)
    return body, text


def comparison_may_change(body: Element, text: str, tree: HtmlElement, options: Extractor) -> bool:
    """Whether `compare_extraction` in precision mode could give anything but (`body`, `text`), trafilatura's
    own extraction from `tree` (see the module docstring).

    >>> from lxml.html import fromstring
    >>> from lxml.etree import SubElement
    >>> options, prose = Extractor(precision=True), " ".join(["word"] * 100)
    >>> body = Element("body"); SubElement(body, "p").text = prose
    >>> page = fromstring(f"<html><body><p>{prose}</p><div>menu</div></body></html>")
    >>> comparison_may_change(body, prose, page, options)
    False
    >>> comparison_may_change(body, prose[:200], fromstring(f"<html><body><p>{prose}</p></body></html>"), options)
    True
    >>> more = fromstring(f"<html><body><p>{prose}</p><div>{prose} {prose}</div></body></html>")
    >>> comparison_may_change(body, prose, more, options)  # readability might find twice as much
    True
    """
    if len(text) < options.min_extracted_size or _UNCLEAN(body):
        return True  # jusText is tried
    if not _PROSE(body) or len(body.findall(".//table")) > len(body.findall(".//p")):
        return True  # readability is preferred when it has more than `2 * min_extracted_size` characters
    return _readable_longer_than(tree, 2 * len(text))


def compare_extraction(cleaned_tree: HtmlElement, raw_tree: HtmlElement, body: _Element, text: str,
                       options: Extractor) -> tuple[_Element, str]:
    """`trafilatura.external.compare_extraction` in precision mode, its prior prune of `raw_tree`
    (`OVERALL_DISCARD_XPATH`, whose `re:test`s call back into Python for each element: 6 ms of a CleanEval page it
    runs on) run as Python tests (`prunes.overall_discard`, a third of that). `prune_unwanted_nodes` deletes the
    first expression's elements, then the second's among those left; `overall_discard` gathers both first, in that
    order: an element of the second inside one the first took leaves a subtree already out of the tree, and the
    same elements leave it, in the same order."""
    len_text = len(text)
    prune(raw_tree, overall_discard)
    temppost_algo = try_readability(raw_tree)
    algo_text = trim(tostring(temppost_algo, method="text", encoding="utf-8").decode("utf-8"))
    len_algo = len(algo_text)
    use_readability = _prefer_readability(body, temppost_algo, algo_text, len_text, len_algo, options)
    if use_readability:
        body, text, len_text = temppost_algo, algo_text, len_algo
    unclean = bool(body.xpath(SANITIZED_XPATH))
    if unclean or len_text < options.min_extracted_size:
        body2, text2 = justext_rescue(cleaned_tree, options)
        len_text2 = len(text2)
        if unclean:
            accept = len_text <= JUSTEXT_OVERRIDE_RATIO * len_text2 and (
                len_text2 > len_text or not options.images or body.find(".//graphic") is None)
        else:
            accept = len_text < len_text2
        if text2 and accept:
            body, text, len_text = body2, text2, len_text2
            use_readability = False
    if use_readability:
        body, text = sanitize_tree(body, options)
    return body, text


# the tests `compare_extraction` makes on trafilatura's own result, compiled once and asked only whether they find
# anything (`body.xpath(SANITIZED_XPATH)` compiles the expression on each call and makes a proxy of each element found)
_UNCLEAN = XPath(f"boolean({SANITIZED_XPATH})")
_PROSE = XPath("boolean(.//p//text())")
_IFRAMES = XPath("count(descendant-or-self::iframe)")  # `tree.iter("iframe")` counted in C


def _readable_longer_than(tree: HtmlElement, limit: int) -> bool:
    """Whether the text readability could read in `tree` may be longer than `limit` characters: all the tree's text
    but that of the elements readability drops first (`DROPPED`: an article page's scripts often hold more
    characters than its article) and, where that says too much, but that of the elements the comparison prunes before
    readability reads the tree (`_discarded`, dearer); and "VIDEO" in each `<iframe>` (readability writes it into a
    video's); text nodes joined by spaces and trimmed as trafilatura trims.

    >>> from lxml.html import fromstring
    >>> page = fromstring('<html><body><p>one two</p><script>var x = "' + "y" * 50 + '";</script>three</body></html>')
    >>> _readable_longer_than(page, len("one two three")), _readable_longer_than(page, len("one two three") - 1)
    (False, True)
    >>> _readable_longer_than(fromstring('<html><body><p>one</p><iframe src="v"></iframe></body></html>'), 5)
    True
    >>> shared = fromstring('<html><body><p>one two</p><div class="share-bar">Share this story</div></body></html>')
    >>> _readable_longer_than(shared, len("one two"))
    False
    """
    limit -= len(" VIDEO") * int(_IFRAMES(tree))  # text readability may add
    pieces = _unscripted(tree)
    if _spaced_at_most(pieces) - 1 <= limit:
        return False  # (most pages, without splitting their text into words)
    left = _readable(tree, pieces) - 1  # n words take n - 1 spaces
    return left > limit and left - _pruned_text(_discarded(tree)) > limit


# the text nodes outside the scripts and styles readability drops (a page's scripts are most of its text: not read at
# all); two text nodes side by side count apart, which can only count more. `_unscripted` finds the same text nodes
# with the two searches below: this one's test of each text node's parent takes longer than both together
_UNSCRIPTED_TEXT = XPath(".//text()[not(parent::script or parent::style)]", smart_strings=False)
_TEXT = XPath(".//text()", smart_strings=False)
_SCRIPTED_TEXT = XPath(".//script/text()|.//style/text()", smart_strings=False)  # in document order, as `_TEXT`


def _readable(el: HtmlElement, pieces: list[str] | None = None) -> int:
    """`_spaced` of the text inside `el` outside the elements readability drops (`DROPPED`) (`pieces`: its
    `_unscripted` text nodes, when the caller has them).

    >>> from lxml.html import fromstring
    >>> _readable(fromstring('<div>One <script>var x;</script>two<fencedframe><p>ad</p></fencedframe><p>3</p></div>'))
    10
    """
    if el.tag in DROPPED:
        return 0
    frames = [f for f in el.iterdescendants("fencedframe")
              if not any(a.tag == "fencedframe" for a in f.iterancestors())]  # the outermost
    return _spaced(_unscripted(el) if pieces is None else pieces) - sum(_spaced(_unscripted(f)) for f in frames)


def _unscripted(el: HtmlElement) -> list[str]:
    """The text nodes inside `el` outside the scripts and styles (`_UNSCRIPTED_TEXT`), in an order `_spaced` does
    not heed: all of them less those of the scripts and styles. Both searches give document order, so each script's
    text is found in the first after the one before it; each piece taken out is one the second search gave (equal
    strings), so what is left is `_UNSCRIPTED_TEXT`'s pieces, whichever of two equal strings is taken. Were one not
    found after the one before it, `_UNSCRIPTED_TEXT` itself.

    >>> from lxml.html import fromstring
    >>> _unscripted(fromstring('<div>a<script>a</script>b<style>c</style><p>c<script>d</script></p>e</div>'))
    ['a', 'b', 'c', 'e']
    """
    pieces: list[str] = _TEXT(el)
    scripted: list[str] = _SCRIPTED_TEXT(el)
    if not scripted:
        return pieces
    kept: list[str] = []
    start = 0
    for piece in scripted:
        try:
            at = pieces.index(piece, start)
        except ValueError:
            return list(_UNSCRIPTED_TEXT(el))  # (not in document order)
        kept += pieces[start:at]
        start = at + 1
    return kept + pieces[start:]


def _pruned_text(pruned: list[HtmlElement]) -> int:
    """`_readable` of the `pruned` elements (none inside another: `_discarded`) that no element readability drops
    holds (counted out already); not their tails: `drop_tree` keeps those."""
    return sum(_readable(el) for el in pruned if not any(a.tag in DROPPED for a in el.iterancestors()))


def _spaced(pieces: Iterable[str]) -> int:
    """The characters of the pieces' words, each with a space after it (`sum(len(word) + 1 for piece in pieces for
    word in piece.split())`, split in one call: a newline parts two pieces' words).

    >>> _spaced(["one two", " three", "", "fo", "ur"])
    20
    """
    found = "\n".join(pieces).split()
    return len(found) + len("".join(found))


def _spaced_at_most(pieces: list[str]) -> int:
    """A bound of `_spaced` read from the pieces' lengths alone: a piece's words, each with a space after it, take at
    most its characters and one (two words stand apart by a space at least); its whitespace, the indentation
    between the tags of most text nodes, is counted too, so the bound is loose, but it is seldom near the limit.

    >>> pieces = ["one two", " three", "", "  "]
    >>> _spaced(pieces), _spaced_at_most(pieces)
    (14, 19)
    """
    return sum(map(len, pieces)) + len(pieces)


def _discarded(tree: HtmlElement) -> list[HtmlElement]:
    """Elements that compare_extraction's prune in precision mode (`OVERALL_DISCARD_XPATH`) removes from `tree`
    before readability reads it, none inside another: those whose own class or id one of its regular-expression
    tests names (`prunes.named_discard`). A part of what it removes (its other tests are left out), so the text left
    is still at least readability's.

    >>> from lxml.html import fromstring
    >>> t = fromstring('<html><body><p>Story</p><div class="share-bar"><p class="x">Tweet</p></div>'
    ...                '<span id="sidebar-1">More</span><a class="share-x">Mail</a></body></html>')
    >>> [el.text_content() for el in _discarded(t)]
    ['Tweet', 'More']
    """
    out, gone = [], set()
    for el in tree.iterdescendants():  # the expressions look at the descendants of the root
        if el.getparent() in gone:
            gone.add(el)
        elif isinstance(el.tag, str) and named_discard(el):
            out.append(el)
            gone.add(el)
    return out
