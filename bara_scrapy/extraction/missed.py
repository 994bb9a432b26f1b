"""Which repeated groups trafilatura missed are content (`content.py` adds them to its text).

A group (`lists.py`) is content when trafilatura left most of its words out and it sits
in the kept text's container, is plain text in the page's <main>, or outweighs a short
kept text (a list page). It is not when it is an in-article gallery, a link-title list
beside prose, an article's comment thread (the page declares og:type=article), or, after
a long article, a run past the article's last paragraph (teasers, tags, comments).
"""

from __future__ import annotations

import re
from collections import defaultdict

from lxml.html import HtmlElement

from .boilerplate import tokens
from .lists import Group
from .text import words

MISSED_SHARE = 0.3  # a repeated group trafilatura left out this much of is content it missed
CONTAINER_SHARE = 0.8
DOMINANT = 2.0  # a group with twice the words trafilatura kept is the page's content (a list page)
ARTICLE_WORDS = 150  # ... unless trafilatura kept an article: then comments and teasers beside it stay out
LONG_ARTICLE = 300  # after an article this long, a run past its last paragraph is teasers, tags or comments
FEW_WORDS = 50  # ... and a list of link titles only when trafilatura found no prose at all
TEXT_TAGS = ("p", "li", "h1", "h2", "h3", "h4", "h5", "h6", "td", "th", "dd", "dt", "blockquote", "pre", "figcaption")
PLAIN_LINKS = 0.1  # a group in <main> outside the kept text's container: its share of link words at most
COMMENT_NAMES = frozenset("comment comments commentlist reply replies respond responses discussion".split())
MEDIA_NAMES = frozenset("figure photo photos image images img gallery inlinegallery caption media tweet widget embed "
                        "slide slider swiper carousel".split())

_WORD_RE = re.compile(r"\w+")


def seq(text: str) -> str:
    """Word sequence, case folded, space padded (for whole-word containment tests).

    >>> seq("Hello, World!")
    ' hello world '
    """
    return " " + " ".join(_WORD_RE.findall(text.lower())) + " "


def kept_container(root: HtmlElement, kept: str) -> tuple[HtmlElement, HtmlElement | None]:
    """The deepest element holding `CONTAINER_SHARE` of the words trafilatura kept (the article body,
    the list's section): repeated groups inside it belong to the main content; and the last element
    whose text trafilatura kept (the article's end).

    >>> from lxml.html import fromstring
    >>> t = fromstring('<div><section><p>One two three</p><p>Four five</p></section><ul><li>x</li></ul></div>')
    >>> [e.text_content() for e in kept_container(t, "One two three\\nFour five")]
    ['One two threeFour five', 'Four five']
    """
    kept_seq, total, end = seq(kept), 0, None
    counts: defaultdict[HtmlElement, int] = defaultdict(int)
    for el in root.iter(*TEXT_TAGS):
        found = seq(el.text_content())
        if found.strip() and found in kept_seq:
            n, end = len(found.split()), el
            total += n
            for holder in (el, *el.iterancestors()):
                counts[holder] += n
    node = root
    while total:
        inner = [c for c in node if counts.get(c, 0) >= CONTAINER_SHARE * total]
        if not inner:
            break
        node = inner[0]
    return node, end


def is_media_run(g: Group) -> bool:
    """An in-article gallery, figure run or embed run: its captions are not the article's text.

    >>> from lxml.html import fromstring
    >>> is_media_run(Group(fromstring("<div/>"), (fromstring('<div class="photo-item">x</div>'),), 1, 0))
    True
    """
    first = g.items[0]
    names = {first.tag} | {t for n in (first.get("class") or "").split() for t in tokens(n)}
    return bool(names & MEDIA_NAMES)


def is_comment_run(g: Group) -> bool:
    """Readers' comments below a post (named so on the items or their list).

    >>> from lxml.html import fromstring
    >>> is_comment_run(Group(fromstring('<ol class="comment-list"/>'), (fromstring('<li>x</li>'),), 1, 0))
    True
    """
    names = [*(g.items[0].get("class") or "").split(), g.items[0].get("id") or "",
             *(g.parent.get("class") or "").split(), g.parent.get("id") or ""]
    return any(tokens(n) & COMMENT_NAMES for n in names if n)


def declares_article(tree: HtmlElement) -> bool:
    """The page says it is an article (Open Graph type), so readers' comments are not its content."""
    return any(str(v).strip().lower() == "article" for v in tree.xpath('//meta[@property="og:type"]/@content'))


def follows(g: Group, end: HtmlElement) -> bool:
    """Whether the group's first item comes after `end` in document order (and is not inside it).

    >>> from lxml.html import fromstring
    >>> t = fromstring('<div><p>End</p><ul><li>a</li></ul></div>')
    >>> follows(Group(t[1], (t[1][0],), 1, 0), t[0]), follows(Group(t, (t[0],), 1, 0), t[1][0])
    (True, False)
    """
    chain = {g.items[0], *g.items[0].iterancestors()}
    node: HtmlElement | None = end
    while node is not None:
        if any(sib in chain for sib in node.itersiblings()):
            return True
        node = node.getparent()
    return False


def missed_groups(groups: list[Group], kept: str, container: HtmlElement, in_main: bool = False,
                  article: bool = False, end: HtmlElement | None = None) -> list[Group]:
    """The groups trafilatura mostly left out of `kept` (word sequences, case folded) that are content:
    inside the kept text's container, or outweighing the kept text (a list page); a group of link
    titles only when there is no prose beside it (else it is a related-links box); on a page declaring
    itself an article, a comment thread outside the article's container is left out (the gallery post or
    forum thread that does not declare one keeps its comments); after a long article (`LONG_ARTICLE`
    words kept), a run wholly past its last kept element (`end`) is teasers, tags or comments."""
    kept_seq, kept_words = seq(kept), words(kept)
    informative = container.tag not in ("html", "body")  # all of the page says nothing
    out = []
    for g in groups:
        dominant = g.words >= DOMINANT * kept_words and kept_words < ARTICLE_WORDS
        near = informative and (g.parent is container or container in g.parent.iterancestors())
        plain = in_main and g.link_words <= PLAIN_LINKS * g.words  # in the page's <main>, items with their own text
        inside = (near or plain) and not is_media_run(g)
        if article and not near and is_comment_run(g):  # an article's comment thread: not the article
            continue
        if kept_words >= LONG_ARTICLE and end is not None and follows(g, end):
            continue
        if (g.link_dense and not (dominant and kept_words < FEW_WORDS)) or not (dominant or inside):
            continue
        missing = 0
        for item in g.items:
            item_seq = seq(" ".join(item.itertext()))
            if item_seq.strip() and item_seq not in kept_seq:
                missing += len(item_seq.split())
        if missing > MISSED_SHARE * g.words:
            out.append(g)
    return out
