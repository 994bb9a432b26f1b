"""Readers' comments and replies: which repeated groups they are, and who wrote each.

Comments are part of a page's `text` (a reader sees them) and are also returned
on their own (`PageItem.comments`), so a user who wants the article alone can
leave them out. A group of alike items (`lists.py`) is a comment thread when its
items are plain text (few links, no title links: not teasers of other pages)
and it either comes after the article's last kept paragraph or says what it is:
class/id names of the items or their list (`comment`, `reply`...), or schema.org
`Comment` microdata. Naming only labels a group here; it never removes text.
A thread too short to be a group (one comment, two replies) is found by naming alone (`few_comments`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from lxml import etree
from lxml.html import HtmlElement

from ..items import Comment
from .blocks import BLOCK_TAGS, leads_elsewhere, tree_blocks
from .boilerplate import FORM_FIELDS, tokens
from .lists import Group, link_stats, lowest_common, signature
from .text import words

COMMENT_NAMES = frozenset("comment comments commentlist reply replies respond responses discussion".split())
AUTHOR_NAMES = frozenset("author user username name fn nick nickname poster commenter byline".split())
ITEM_NAMES = frozenset({"comment", "reply"})  # what one comment is called (`_item_named`)
MAX_AUTHOR_WORDS = 6
# a thread the page names as comments may hold more links than a plain run (each comment's author, its
# permalink date and a reply link): up to this share of its words
NAMED_LINK_SHARE = 0.3
_SPACES = re.compile(r"\s+")
_ATTRIBUTED = etree.XPath("descendant-or-self::*[@class or @id or @itemtype]")  # in C, over every element
_NAME_VALUES = etree.XPath("descendant-or-self::*/@class|descendant-or-self::*/@id", smart_strings=False)
_TYPE_VALUES = etree.XPath("descendant-or-self::*/@itemtype", smart_strings=False)
_COMMENT_FOLD = str.maketrans("COMENTRPLY", "comentrply")  # the letters of "comment" and "reply" in lower case
_REPLY_FOLD = str.maketrans("REPLY", "reply")


def named_comments(root: HtmlElement) -> list[HtmlElement]:
    """The elements whose class, id or itemtype holds "comment", or whose class or id holds "reply", in any case
    (`few_comments` names them exactly), in document order. Only an element with one of these attributes can: they
    are found in C, and only their values are read here (an XPath testing each element's folded names took 3 to 4
    times as long over a page).

    >>> from lxml.html import fromstring
    >>> t = fromstring('<div><p class="x">a</p><li id="Comment-4">b</li><ol class="reply-list"><li>c</li></ol>'
    ...                '<div itemtype="https://schema.org/UserComments">d</div><p itemtype="reply">e</p></div>')
    >>> [e.tag for e in named_comments(t)]
    ['li', 'ol', 'div']
    """
    if not _may_name_comments(root):
        return []
    out = []
    for el in _ATTRIBUTED(root):
        names = f"{el.get('class') or ''} {el.get('id') or ''}"
        if "comment" in f"{names} {el.get('itemtype') or ''}".translate(_COMMENT_FOLD) \
                or "reply" in names.translate(_REPLY_FOLD):
            out.append(el)
    return out


def _may_name_comments(root: HtmlElement) -> bool:
    """Whether an element's class, id or itemtype may name comments as `named_comments` reads them: whether the
    values of all of them, read in C without an element's proxy and joined by newlines (in none of the words),
    hold one of the words. Most pages whose text speaks of comments name none in their markup.

    >>> from lxml.html import fromstring
    >>> [_may_name_comments(fromstring(h)) for h in ('<div id="REPLY-4">a</div>', '<p itemtype="x-Comment">b</p>',
    ...  '<div class="x"><p id="comm" class="ent">c</p><p itemtype="reply">Comment</p></div>')]
    [True, True, False]
    """
    names = "\n".join(_NAME_VALUES(root))
    if "comment" in names.translate(_COMMENT_FOLD) or "reply" in names.translate(_REPLY_FOLD):
        return True
    return "comment" in "\n".join(_TYPE_VALUES(root)).translate(_COMMENT_FOLD)


def _names(el: HtmlElement) -> set[str]:
    return {t for n in ((el.get("class") or "").split() + (el.get("id") or "").split()) for t in tokens(n)}


def is_comment_run(g: Group) -> bool:
    """Readers' comments, as the page names them (class/id of the items, their list or its holder, or of a
    part of every item; schema.org Comment).

    >>> from lxml.html import fromstring
    >>> is_comment_run(Group(fromstring('<ol class="comment-list"/>'), (fromstring('<li>x</li>'),), 1, 0))
    True
    >>> is_comment_run(Group(fromstring('<ul/>'), (fromstring('<li itemtype="https://schema.org/Comment">x</li>'),),
    ...                      1, 0))
    True
    >>> card = lambda: fromstring('<div class="card"><p>Nice.</p><a class="comment-author">ann</a></div>')
    >>> is_comment_run(Group(fromstring('<div/>'), (card(), card()), 2, 1))
    True
    """
    first = g.items[0]
    if "comment" in (first.get("itemtype") or "").lower():
        return True
    holders = [first, g.parent, *list(g.parent.iterancestors())[:2]]
    if any(_names(el) & COMMENT_NAMES for el in holders):
        return True
    # or every item's parts say so (a card whose footer names its `comment-author`)
    return all(any(_names(el) & COMMENT_NAMES for el in item.iterdescendants() if isinstance(el.tag, str))
               for item in g.items)


def comment_author(item: HtmlElement) -> str | None:
    """Who wrote a comment: an element marked as its author (itemprop, class names, <cite>), short; the innermost
    of nested ones (WordPress's `<div class="comment-author"><b class="fn">ann</b> says:</div>`).

    >>> from lxml.html import fromstring
    >>> comment_author(fromstring('<li><span class="comment-author">bramble</span><p>Nice post.</p></li>'))
    'bramble'
    >>> comment_author(fromstring('<li><div class="comment-author"><b class="fn">ann</b> says:</div><p>Hi.</p></li>'))
    'ann'
    >>> comment_author(fromstring('<li><p>No name here at all.</p></li>')) is None
    True

    schema.org's author comes first, by its name where it gives one: Stack Overflow's `div.user-details` (with the
    name twice, once hidden, and the poster's badges) after a `div.user-action-time` ("answered Mar 11, 2024"),
    which its class names as the user's.

    >>> comment_author(fromstring('<li><div class="user-action-time">answered Mar 11</div><div itemprop="author" '
    ...                           'itemscope><a href="/u/7">Ann Lee</a><span itemprop="name">Ann Lee</span> 12k</div>'
    ...                           '<p>Use a weak reference.</p></li>'))
    'Ann Lee'
    """
    for el in item.iter():
        if el is not item and "author" in _props(el):
            named = next((n for n in el.iter() if "name" in _props(n)), el)
            text = _SPACES.sub(" ", named.text_content()).strip()
            if text and len(text.split()) <= MAX_AUTHOR_WORDS:
                return text
    marked: dict[HtmlElement, str] = {
        el: _SPACES.sub(" ", el.text_content()).strip() for el in item.iter()
        if el is not item and isinstance(el.tag, str) and _author_marked(el) and _a_name(" ".join(el.itertext()))}
    for el, text in marked.items():
        if not any(d in marked for d in el.iterdescendants()):  # a marker around the name: the name's own is inside
            return text
    return None


def _a_name(text: str) -> bool:
    """Whether an author's marker's text (its elements' texts apart) may be a name: a few words (`MAX_AUTHOR_WORDS`),
    a letter among them. Yelp's `user-passport-stats` ("6 159 416": friends, reviews, photos) is no name, nor is the
    `user-passport-info` around it, with the reviewer's name and town.

    >>> _a_name("Priya N."), _a_name("6 159 416"), _a_name("")
    (True, False, False)
    """
    return bool(text) and len(text.split()) <= MAX_AUTHOR_WORDS and any(ch.isalpha() for ch in text)


def _props(el: HtmlElement) -> list[str]:
    """The microdata properties an element gives (`itemprop`, space-separated), in lower case."""
    return (el.get("itemprop") or "").lower().split()


def _author_marked(el: HtmlElement) -> bool:
    return (el.get("itemprop") or "").lower() == "author" or el.tag == "cite" or bool(_names(el) & AUTHOR_NAMES)


def comment_text(item: HtmlElement, author: str | None) -> str:
    """The comment's words, one line per block, without its author's name leading a line.

    >>> from lxml.html import fromstring
    >>> comment_text(fromstring('<li><p>Nice post.</p><div><a>ann</a> June 1</div></li>'), "ann")
    'Nice post.\\nJune 1'
    """
    lines = []
    for b in tree_blocks(item):
        line = b.text[len(author):].strip() if author and b.text.startswith(author) else b.text
        if line:
            lines.append(line)
    return "\n".join(lines)


def threads(groups: list[Group], plain: list[bool], after: list[bool]) -> list[Group]:
    """The comment threads among `groups` (outermost first): plain-text runs after the article or named
    as comments, a reply run inside a chosen thread's item belonging to that thread. A run named as
    comments need not be plain: its items' author, permalink and reply links may take up to
    `NAMED_LINK_SHARE` of its words (a permalink date is as long as a title link).

    >>> from lxml.html import fromstring
    >>> ol = fromstring('<ol class="comment-list">' + '<li><a href="/u">Ann</a> on <a href="#c">May 1, 2019 at 4 pm</a>'
    ...                 ' said: a reply of a dozen words or so about the post above it here.</li>' * 3 + '</ol>')
    >>> g = Group(ol, tuple(ol), 3 * 24, 3 * 7)
    >>> len(threads([g], [False], [False])), len(threads([g], [False], [True]))
    (1, 1)
    >>> len(threads([Group(fromstring('<ul/>'), g.items, g.words, g.link_words)], [False], [True]))
    0
    """
    chosen: list[Group] = []
    held: set[HtmlElement] = set()
    for g, is_plain, is_after in zip(groups, plain, after, strict=True):
        named = is_comment_run(g)
        if not (is_plain or (named and g.link_words <= NAMED_LINK_SHARE * g.words)) or not (is_after or named):
            continue
        if any(a in held for a in g.parent.iterancestors()) or g.parent in held:
            continue
        chosen.append(g)
        held.update(g.items)
    return chosen


def few_comments(root: HtmlElement, chosen: list[Group], kept: Mapping[HtmlElement, int] | None = None,
                 url: str = "") -> list[Group]:
    """Comment threads of fewer items than a repeated group has (`lists.MIN_ITEMS`: one comment, two replies),
    which `threads` cannot see, found by what the page names (their comments are content: `content.py` marks
    them, as it does the groups trafilatura missed). A comment is
    an element named as one (`ITEM_NAMES`, schema.org Comment) whose list is not (an element whose children are
    such comments is their list), with a named author (`comment_author`) and no form field; or, where two
    authors or more are named as a comment's (`comment-author`), each child of the element holding them all
    that holds one of them, the children alike (a card per comment); where one is, the comment around it
    (`_lone_card`, given the words trafilatura kept per element, `kept`). Outside `chosen`'s items; a comment inside
    another (a reply) goes with it; link words at most `NAMED_LINK_SHARE` of a comment's (links to a place in the
    page at `url` apart).

    >>> from lxml.html import fromstring
    >>> t = fromstring('<div><p>Story.</p><ol class="comment-list"><li class="comment"><b class="fn">ann</b>'
    ...                '<p>Nice post.</p></li></ol><div id="respond" class="comment-respond"><p class="comment-form'
    ...                '-author"><label>Name</label><input name="author"></p></div></div>')
    >>> [g.items[0].get("class") for g in few_comments(t, [])]
    ['comment']
    >>> card = '<div class="card"><p>I said so {} times.</p><a class="comment-author" href="/u">u{}</a></div>'
    >>> cards = fromstring('<div><form class="card"><textarea></textarea></form>'
    ...                    + card.format(1, 1) + card.format(2, 2) + '</div>')
    >>> [len(g.items) for g in few_comments(cards, [])], few_comments(cards, [Group(cards, tuple(cards[1:]), 4, 2)])
    ([2], [])
    """
    held = {item for g in chosen for item in g.items}

    def free(el: HtmlElement) -> bool:  # outside the chosen threads' items
        return el not in held and not any(a in held for a in el.iterancestors())

    candidates = named_comments(root)
    named = [el for el in candidates if _item_named(el) or "comment" in (el.get("itemtype") or "").lower()]
    lists = {el.getparent() for el in named}  # an element whose children are comments is their list
    items = [unit for el in named if el not in lists and free(el)
             and (unit := el if _comment(el, url) else _under_byline(el, named, url)) is not None]
    inner = set(items)
    found = [_thread(el.getparent(), (el,)) for el in items
             if not any(a in inner for a in el.iterancestors())]  # a reply goes with its comment
    listed = _listed_cards(candidates, inner, free, url)
    found += listed
    inner.update(card for g in listed for card in g.items)
    # WordPress's li.comment-author-ann holds her comment; Confluence's comment section holds a listed thread
    holding = {a for el in inner for a in el.iterancestors()}
    marks = [el for el in candidates if _comment_author_mark(el) and free(el) and el not in holding
             and not any(a in inner for a in el.iterancestors())]
    outer = set(marks)
    authors = [el for el in marks if not any(a in outer for a in el.iterancestors())]  # a name inside the byline
    if len(authors) >= 2:
        common = lowest_common(authors)
        cards = [next((c for c in (el, *el.iterancestors()) if c.getparent() is common), None) for el in authors] \
            if common is not None else []
        if cards and None not in cards and len(set(cards)) == len(cards) and len({signature(c) for c in cards}) == 1 \
                and all(_comment(c, url) for c in cards if c is not None):
            found.append(_thread(common, tuple(cards)))
    elif len(authors) == 1 and kept:
        card = _lone_card(root, authors[0], kept)
        if card is not None and card not in holding and _comment(card, url):  # no comments area around those found
            found.append(_thread(card.getparent(), (card,)))
    return found


def _listed_cards(candidates: list[HtmlElement], inner: set[HtmlElement], free: Callable[[HtmlElement], bool],
                  url: str) -> list[Group]:
    """The threads of comments no name marks one by one, in an element named as their list (`comments`, `replies`:
    Commento's `div.commento-comments` of `div.commento-card`s, the Ghost theme's `section.article-comments`
    around it): its children of one signature, two or more, each a comment (`_comment`) apart from the comments found
    (`inner`: neither inside one nor holding one) and the threads chosen (`free`). A reply inside a card goes with
    it.

    >>> from lxml.html import fromstring
    >>> card = '<div class="c-card"><div class="c-name">{}</div><div class="c-body"><p>{}</p></div></div>'
    >>> t = fromstring('<div id="c-comments">' + card.format("Mira", "A callout.") + card.format("Dev", "Try S3."))
    >>> [len(g.items) for g in _listed_cards(named_comments(t), set(), lambda el: True, "")]
    [2]
    """
    out = []
    holding = {a for el in inner for a in el.iterancestors()}
    for el in candidates:
        if not _NAMES_LIST & _names(el) or not free(el) or el in inner or any(a in inner for a in el.iterancestors()):
            continue
        cards = [c for c in el if isinstance(c.tag, str)]
        if len(cards) >= 2 and len({signature(c) for c in cards}) == 1 and all(
                c not in inner and c not in holding and free(c) and _comment(c, url) for c in cards):
            out.append(_thread(el, tuple(cards)))
    return out


_NAMES_LIST = frozenset({"comments", "replies"})  # what a list of comments is called


def _under_byline(body: HtmlElement, named: list[HtmlElement], url: str) -> HtmlElement | None:
    """The comment a comment's body names no author of stands in: its parent, when the author is there, beside it
    (Trac's `div.comment` under `<h3>… by <span class="trac-author">`), the body the parent's one named element
    without an author of its own; None when it is not one, nor when the parent holds two comments or more that name
    their authors (a comment section, its "add a comment" box the named element).

    >>> from lxml.html import fromstring
    >>> change = fromstring('<div class="change"><h3 id="comment:1"><a href="#comment:1">comment:1</a> by <span '
    ...                     'class="trac-author">ines</span></h3><div class="comment"><p>The loop never ends when the '
    ...                     'slot wraps into the next day.</p></div></div>')
    >>> named = [change[0], change[1]]
    >>> _under_byline(change[1], named, "http://h/ticket/2").get("class")
    'change'
    """
    if comment_author(body) is not None or (parent := body.getparent()) is None:
        return None
    bodies = [c for c in parent if c in named and comment_author(c) is None]
    if sum(parent in c.iterancestors() and comment_author(c) is not None for c in named) >= 2:
        return None  # a section holding comments of their own (Confluence's, beside its "add a comment" box)
    return parent if bodies == [body] and _comment(parent, url) else None


def _lone_card(root: HtmlElement, mark: HtmlElement, kept: Mapping[HtmlElement, int]) -> HtmlElement | None:
    """The comment a lone author mark is part of: its highest ancestor holding none of the words trafilatura kept
    (`kept`: kept words per element, `missed.Kept.held`: the article's) and no form field, if that ancestor holds a
    block of text beside the mark (the comment's words, not only its byline).

    >>> from lxml.html import fromstring
    >>> t = fromstring('<div><article><p>Story.</p></article><div class="c"><div class="card"><p>So true.</p>'
    ...                '<footer><a class="comment-author">ann</a> May 1</footer></div></div></div>')
    >>> _lone_card(t, t.find(".//a"), {t: 1, t[0]: 1, t[0][0]: 1}).get("class")
    'c'
    """
    card = None
    for above in mark.iterancestors():
        if above is root or kept.get(above, 0) or next(above.iter(*FORM_FIELDS), None) is not None:
            break
        card = above
    if card is None:
        return None
    beside = (el for el in card.iter(*BLOCK_TAGS) if el is not card and mark not in el.iterdescendants())
    return card if any(words("".join(el.itertext())) for el in beside) else None


def _item_named(el: HtmlElement) -> bool:
    """A class or id that is the name of one comment (`comment`, `comment-42`, `reply`), not of a part of one
    (`comment-author`, `comment-body`) nor of their list (`comment-list`).

    >>> from lxml.html import fromstring
    >>> [_item_named(fromstring(h)) for h in ('<li class="comment even" id="comment-42">x</li>',
    ...  '<div class="comment-author">x</div>', '<ol class="comment-list">x</ol>', '<p id="reply_7">x</p>')]
    [True, False, False, True]
    """
    for name in (el.get("class") or "").split() + (el.get("id") or "").split():
        parts = {t for t in tokens(name) if not t.isdigit()}
        if len(parts) == 1 and parts <= ITEM_NAMES:
            return True
    return False


def _comment_author_mark(el: HtmlElement) -> bool:
    """Named as a comment's author (`comment-author`, `reply-username`)."""
    names = _names(el)
    return bool(ITEM_NAMES & names and AUTHOR_NAMES & names)


def _thread(parent: HtmlElement, items: tuple[HtmlElement, ...]) -> Group:
    return Group(parent, items, sum(words(el.text_content()) for el in items), link_stats(items)[0])


def _comment(el: HtmlElement, url: str = "") -> bool:
    """An element holding one comment: an author, words beyond the author's, few link words, no form field. Given
    the page's `url`, the links to a place in the page do not count (a one-line comment's permalink date, WordPress's
    "April 3, 2026 at 7:42 am", is a third of its words).

    >>> from lxml.html import fromstring
    >>> li = fromstring('<li class="comment"><b class="fn">Tomasz</b> says: <a href="/heron/#comment-2">April 3, 2026 '
    ...                 'at 7:42 am</a><p>I saw it take an eel last Tuesday.</p><a href="?replytocom=2">Reply</a></li>')
    >>> _comment(li), _comment(li, "http://h/heron/")
    (False, True)
    """
    author, n = comment_author(el), words(el.text_content())
    if author is None or n <= words(author) or next(el.iter(*FORM_FIELDS), None) is not None:
        return False
    link_words = link_stats((el,))[0] if not url else \
        sum(words(a.text_content()) for a in el.iter("a") if leads_elsewhere(a.get("href"), url))
    return link_words <= NAMED_LINK_SHARE * n


def comments_of(groups: list[Group]) -> list[Comment]:
    """One `Comment` per item of the comment groups, in document order."""
    out: list[Comment] = []
    for g in groups:
        for item in g.items:
            author = comment_author(item)
            text = comment_text(item, author)
            if text:
                out.append(Comment(author=author, text=text))
    return out
