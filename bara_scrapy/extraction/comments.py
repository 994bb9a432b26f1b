"""Readers' comments and replies: which repeated groups they are, and who wrote each.

Comments are part of a page's `text` (a reader sees them) and are also returned
on their own (`PageItem.comments`), so a user who wants the article alone can
leave them out. A group of alike items (`lists.py`) is a comment thread when its
items are plain text (few links, no title links: not teasers of other pages)
and it either comes after the article's last kept paragraph or says what it is:
class/id names of the items or their list (`comment`, `reply`...), or schema.org
`Comment` microdata. Naming only labels a group here; it never removes text.
"""

from __future__ import annotations

import re

from lxml.html import HtmlElement

from ..items import Comment
from .blocks import tree_blocks
from .boilerplate import tokens
from .lists import Group

COMMENT_NAMES = frozenset("comment comments commentlist reply replies respond responses discussion".split())
AUTHOR_NAMES = frozenset("author user username name fn nick nickname poster commenter byline".split())
MAX_AUTHOR_WORDS = 6
# a thread the page names as comments may hold more links than a plain run (each comment's author, its
# permalink date and a reply link): up to this share of its words
NAMED_LINK_SHARE = 0.3
_SPACES = re.compile(r"\s+")


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
    """Who wrote a comment: an element marked as its author (itemprop, class names, <cite>), short.

    >>> from lxml.html import fromstring
    >>> comment_author(fromstring('<li><span class="comment-author">bramble</span><p>Nice post.</p></li>'))
    'bramble'
    >>> comment_author(fromstring('<li><p>No name here at all.</p></li>')) is None
    True
    """
    for el in item.iter():
        if not isinstance(el.tag, str) or el is item:
            continue
        named = (el.get("itemprop") or "").lower() == "author" or el.tag == "cite" or bool(_names(el) & AUTHOR_NAMES)
        if named:
            text = _SPACES.sub(" ", el.text_content()).strip()
            if text and len(text.split()) <= MAX_AUTHOR_WORDS:
                return text
    return None


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
