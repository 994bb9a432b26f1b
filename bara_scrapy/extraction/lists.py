"""The repeated blocks of a page: cards, list items, comments, feed entries, table rows, posts.

A group is a run of at least `MIN_ITEMS` siblings that share a signature (tag and first
class name, digits dropped) and each carry text. Items that are mere wrappers of inner
groups (layout columns holding lists) leave the choice to the inner groups. Runs of bare
<p>/<span>/<a> are prose, not items. A group made mostly of short link labels (a menu
that no landmark or class name gave away) is not content; a grid of links with
title-length labels (post titles on a user page) may be: `content.py` keeps it only
when there is no prose beside it (a related-links box next to an article is not content).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import islice

from lxml.etree import XPath
from lxml.html import HtmlElement

from .wordscan import word_count

PROSE = frozenset({"p", "br", "span", "a", "em", "strong", "b", "i", "img", "source", "td", "th"})
MIN_ITEMS = 3
MIN_ITEM_WORDS = 4  # median words per item (2 for table rows)
WRAPPER_SHARE = 0.8  # items whose text lies this much in inner groups are wrappers (layout columns)
MIN_GROUP_WORDS = 12
MIN_SHAPE = 2  # child elements of an item a script marked (a heading and its text): one alone says little
LINK_DENSE = 0.7  # share of a group's words inside links ...
THREAD_LINKS = 0.1  # a thread's share of link words at most (`_thread_of`): comments are plain text
TITLE_WORDS = 4.0  # ... is content only when its links average this many words (titles, not labels)

_DIGITS = re.compile(r"\d+")
_LISTS = frozenset({"ul", "ol"})
# `root` and the elements under it with at least two element children (the parents of an element that is a second
# child), in document order: one makes no run, and a run of two is a thread at most (`_thread_of`; comments do not
# count)
_PARENTS = XPath("descendant-or-self::*/*[2]/..")


@dataclass(frozen=True)
class Group:
    parent: HtmlElement
    items: tuple[HtmlElement, ...]
    words: int
    link_words: int  # words inside links: a list of titles (or a related box) is mostly links

    @property
    def link_dense(self) -> bool:
        return self.link_words >= LINK_DENSE * self.words


def signature(el: HtmlElement) -> str:
    """Tag plus first class name with digits dropped (`post-12` and `post-13`, `comment even` and
    `comment odd` are alike).

    >>> from lxml.html import fromstring
    >>> signature(fromstring('<div class="post-12 b a">x</div>')), signature(fromstring('<li>x</li>'))
    ('div.post-', 'li')
    """
    return _signature(str(el.tag), el.get("class"))


@lru_cache(maxsize=8192)  # tags and class attributes repeat across a page and a site
def _signature(tag: str, classes: str | None) -> str:
    """`signature` of an element with that tag and class attribute (a pure function of the two strings)."""
    first = (classes or "").split(None, 1)[:1]
    return f"{tag}.{class_stem(first[0])}" if first else tag


@lru_cache(maxsize=8192)  # class names repeat across a page and a site
def class_stem(name: str) -> str:
    """A class name without its digits (`post-12` -> `post-`, `bg2` -> `bg`)."""
    return _DIGITS.sub("", name)


def lowest_common(elements: Sequence[HtmlElement]) -> HtmlElement | None:
    """The innermost element holding all of `elements` (the first of them, when it holds the others); None when they
    are in different trees.

    >>> from lxml.html import fromstring
    >>> t = fromstring('<div><p><b>a</b></p><ul><li>b</li></ul></div>')
    >>> lowest_common([t[0][0], t[1][0]]).tag, lowest_common([t[1], t[1][0]]).tag
    ('div', 'ul')
    """
    held = [{el, *el.iterancestors()} for el in elements[1:]]
    return next((up for up in (elements[0], *elements[0].iterancestors()) if all(up in h for h in held)), None)


def overlay(item: HtmlElement) -> HtmlElement | None:
    """The empty link laid over a card, if it has one: a child `<a>` with a page's address and nothing inside it, no
    word and no element, which the card's style stretches over the whole card (a "stretched link"): the card is that
    link, every word of it.

    >>> from lxml.html import fromstring
    >>> card = fromstring('<div><h3>Randy Andy</h3><span>Parties in pics</span><a href="/news/1" class="x"></a></div>')
    >>> overlay(card) is card[2], overlay(fromstring('<div><p>Reply</p><a href="#c2"></a></div>'))
    (True, None)
    """
    for child in item.iterchildren("a"):
        if not len(child) and not (child.text or "").strip():
            href = (child.get("href") or "").strip()
            if href and not href.startswith(("#", "javascript:", "mailto:")):
                return child
    return None


def overlays(items: tuple[HtmlElement, ...]) -> list[HtmlElement | None]:
    """Each item's `overlay` when every item has one (cards of one kind, each a link), else none (an empty link left
    in one item of a list is no card's).

    >>> from lxml.html import fromstring
    >>> ul = fromstring('<ul><li><a href="/a"></a>Appraisals</li><li>Valuations</li></ul>')
    >>> overlays(tuple(ul)), [c is not None for c in overlays(tuple(ul)[:1])]
    ([None, None], [True])
    """
    covers = []
    for item in items:  # no further than the first item without one
        if (cover := overlay(item)) is None:
            return [None] * len(items)
        covers.append(cover)
    return covers


def link_stats(items: tuple[HtmlElement, ...], counted: dict[HtmlElement, int] | None = None) -> tuple[int, int]:
    """(words inside links, number of links) over the items; `counted`: each link's words counted already, added to
    as counted (an outer run holds the links of the runs inside it, and a link's words stay the same while the tree
    does)."""
    counted = {} if counted is None else counted
    words = links = 0
    for item in items:
        for a in item.iter("a"):
            n = counted.get(a)
            if n is None:
                n = counted[a] = word_count(a.text_content())
            words += n
            links += 1
    return words, links


def is_content_group(items: tuple[HtmlElement, ...], counts: list[int]) -> bool:
    """The decision for one run of alike siblings with their word counts (pure)."""
    return _content_link_words(items, counts) is not None


def _content_link_words(items: tuple[HtmlElement, ...], counts: list[int],
                        counted: dict[HtmlElement, int] | None = None, least: int = MIN_ITEMS) -> int | None:
    """`is_content_group`'s decision, with the words inside the group's links when it is one (a `Group`'s
    `link_words`: counted once), else None (`counted`: as `link_stats`; `least`: the fewest items, fewer for a
    thread whose replies make up the rest).

    >>> from lxml.html import fromstring
    >>> items = tuple(fromstring('<ul>' + '<li>A card with <a href="/">its own title</a></li>' * 3 + '</ul>'))
    >>> _content_link_words(items, [6, 6, 6]), _content_link_words(items[:2], [6, 6])
    (9, None)
    """
    total = sum(counts)
    median = sorted(counts)[len(counts) // 2]
    if len(items) < least or total < MIN_GROUP_WORDS or median < _item_floor(items):
        return None
    link_words, links = link_stats(items, counted)
    return None if link_words >= LINK_DENSE * total and links and link_words / links < TITLE_WORDS else link_words


def _item_floor(items: tuple[HtmlElement, ...]) -> int:
    """The fewest words the median item of a group has: `MIN_ITEM_WORDS`, 2 for table rows."""
    return 2 if items[0].tag == "tr" else MIN_ITEM_WORDS


def _item_words(items: tuple[HtmlElement, ...]) -> list[int] | None:
    """The words of each item, or None once more than half of them have fewer than `_item_floor`: the median item
    (`sorted(counts)[len(counts) // 2]`) has fewer then, and the items are no group (`_content_link_words`), whatever
    the words of the others (a menu's run of one-word items is seen to be one sooner).

    >>> from lxml.html import fromstring
    >>> _item_words(tuple(fromstring('<ul><li>Home</li><li>About</li><li>A b c d</li></ul>'))) is None
    True
    """
    floor, most = _item_floor(items), len(items) // 2
    counts, short = [], 0
    for item in items:
        n = word_count(item.text_content())
        short += n < floor
        if short > most:
            return None
        counts.append(n)
    return counts


def repeated_groups(root: HtmlElement) -> list[Group]:
    """Every content group under `root`, outermost first in document order.

    >>> from lxml.html import fromstring
    >>> t = fromstring('<div><ul><li><a href="/">Home</a></li><li><a href="/a">About</a></li>'
    ...   '<li><a href="/b">Blog</a></li></ul><ol>' + '<li>A comment with several words in it</li>' * 3 + '</ol></div>')
    >>> [(g.parent.tag, len(g.items), g.words) for g in repeated_groups(t)]
    [('ol', 3, 21)]
    """
    groups: list[Group] = []
    counted: dict[HtmlElement, int] = {}  # each link's words, counted once for all the runs that hold it
    for parent in reversed(_PARENTS(root)):  # inner groups first: wrappers are judged by them
        alike: dict[str, list[HtmlElement]] = defaultdict(list)
        for child in parent:
            tag = child.tag
            if isinstance(tag, str):
                alike[_signature(tag, child.get("class"))].append(child)
        if len(alike) > 1:
            if all(len(members) == 1 for members in alike.values()):
                if not _hashed_items(parent):
                    continue  # no two children alike: no run, nor a thread (most parents of two)
                alike = {"li": list(parent)}
            else:
                _fold_marked(parent, alike)
        for sig, members in alike.items():
            # runs of bare paragraphs are prose (trafilatura's domain), cells go by row, and a shorter run is
            # no group (`is_content_group`): its words need no counting
            if sig in PROSE or (len(members) < MIN_ITEMS and not _thread_of(members, sig)):
                continue
            items = tuple(members)
            counts = _item_words(items)
            thread = len(items) < MIN_ITEMS  # each item a comment of its own, in plain text
            if counts is None or (thread and min(counts) < _item_floor(items)):
                continue
            link_words = _content_link_words(items, counts, counted, len(items) if thread else MIN_ITEMS)
            if link_words is not None and not (thread and link_words > THREAD_LINKS * sum(counts)) \
                    and not _wrappers(items, sum(counts), groups):
                groups.append(Group(parent, items, sum(counts), link_words))
    return groups[::-1]


def _hashed_items(parent: HtmlElement) -> bool:
    """Whether a list's items, each classed apart, are classed by a script's hash: every child an `<li>` whose first
    class name is one stem and a part of its own after the stem's last "-" or "_" (Yelp's `y-css-c0wayf`,
    `y-css-9ab0x1`; emotion's `css-1dbjc4n`). They are items of one list. Names of their own ("weather", "sensex";
    a layout's "narrow-browser-and-phone", "wide-browser") say each item is a thing of its own.

    >>> from lxml.html import fromstring
    >>> li = lambda *names: fromstring("<ul>" + "".join(f'<li class="{n} x">A</li>' for n in names) + "</ul>")
    >>> _hashed_items(li("y-css-c0wayf", "y-css-9ab0x1")), _hashed_items(li("weather", "sensex"))
    (True, False)
    >>> _hashed_items(li("narrow-browser-and-phone", "wide-browser-and-larger"))
    False
    """
    if parent.tag not in _LISTS:
        return False
    stems = set()
    for child in parent:
        first = (child.get("class") or "").split(None, 1)[:1] if child.tag == "li" else []
        cut = max(first[0].rfind("-"), first[0].rfind("_")) if first else -1
        if cut <= 0:
            return False
        stems.add(first[0][:cut])
    return len(stems) == 1


def _thread_of(members: list[HtmlElement], sig: str) -> bool:
    """Whether a run too short for a group (two items, fewer than `MIN_ITEMS`) is a thread: items of one shape (the
    signatures of their children, `MIN_SHAPE` or more) that, with the elements of their signature and shape nested in
    them (the replies under a comment, in the comment's own markup), are `MIN_ITEMS`. Layout columns nest rows and
    columns of other shapes. `repeated_groups` then asks a thread for plain text in every item (`THREAD_LINKS`).

    >>> from lxml.html import fromstring
    >>> c = '<div class="d-flex"><img><div><b>ann</b> A comment.{}</div></div>'
    >>> t = fromstring('<div><form></form>' + c.format(c.format("") * 2) + c.format("") + '</div>')
    >>> _thread_of(list(t)[1:], "div.d-flex"), _thread_of(list(t)[2:], "div.d-flex")
    (True, False)
    """
    if len(members) < 2:
        return False
    tag = members[0].tag
    shape = _shape(members[0])
    if len(shape) < MIN_SHAPE or any(_shape(m) != shape for m in members[1:]):
        return False
    wanted = MIN_ITEMS - len(members)
    nested = (d for m in members for d in m.iterdescendants(tag)
              if _signature(tag, d.get("class")) == sig and _shape(d) == shape)
    return sum(1 for _ in islice(nested, wanted)) == wanted


def _fold_marked(parent: HtmlElement, alike: dict[str, list[HtmlElement]]) -> None:
    """Put back into its run the one item a script marked: scroll-spy's `<section class="active">` among bare
    `<section>`s, a menu's `<li class="current item">` among `<li class="item">`s. Alone under its own signature,
    an element joins the run of its tag whose first class it has (any class, for a run of the bare tag) and whose
    items are all built as it is, of several child elements (the same ones, by signature: a page's
    `<div class="footer">` after a bare header `<div>` and a bare body `<div>` is not one of them, nor a layout
    table's footer row among its one-cell rows), so that the run's items are all there, in document order.

    >>> from lxml.html import fromstring
    >>> s = '<section{}><h2>{}</h2><p>Text</p></section>'
    >>> t = fromstring('<div>' + s.format("", "a") + s.format(' class="active"', "b") + s.format("", "c")
    ...                + '<section class="footer"><p>d</p><p>e</p></section></div>')
    >>> alike = {"section": [t[0], t[2]], "section.active": [t[1]], "section.footer": [t[3]]}
    >>> _fold_marked(t, alike)
    >>> {sig: [el.text_content() for el in members] for sig, members in alike.items()}
    {'section': ['aText', 'bText', 'cText'], 'section.footer': ['de']}
    >>> li = '<li class="{}"><a href="/{}">{}</a><span>new</span></li>'
    >>> t = fromstring('<ul>' + li.format("on item", "a", "a") + li.format("item", "b", "b")
    ...                + li.format("item", "c", "c") + '<li>d</li></ul>')
    >>> alike = {"li.on": [t[0]], "li.item": [t[1], t[2]], "li": [t[3]]}
    >>> _fold_marked(t, alike)
    >>> {sig: [el.text_content() for el in members] for sig, members in alike.items()}
    {'li.item': ['anew', 'bnew', 'cnew'], 'li': ['d']}
    """
    for sig, members in list(alike.items()):
        if len(members) != 1 or not (names := (members[0].get("class") or "").split()):
            continue
        tag, stems, shape = str(members[0].tag), {class_stem(n) for n in names}, _shape(members[0])
        if len(shape) < MIN_SHAPE:
            continue
        for run, others in alike.items():
            if run != sig and len(others) > 1 and others[0].tag == tag \
                    and (run == tag or run[len(tag) + 1:] in stems) and all(_shape(o) == shape for o in others):
                held = {*others, members[0]}
                others[:] = [child for child in parent if child in held]
                del alike[sig]
                break


def _shape(el: HtmlElement) -> list[str]:
    """The signatures of an element's child elements, in order."""
    return [_signature(child.tag, child.get("class")) for child in el if isinstance(child.tag, str)]


def _wrappers(items: tuple[HtmlElement, ...], words: int, inner: list[Group]) -> bool:
    """Whether the items' text lies mostly in groups found inside them."""
    held = set(items)
    inside = sum(g.words for g in inner if any(a in held for a in g.parent.iterancestors()) or g.parent in held)
    return inside >= WRAPPER_SHARE * words
