"""A tree of content as reading-order blocks, and the `text` and `markdown` written from them.

One `Block` per line a reader sees: a heading, a paragraph, a list item, a table row,
a quote, a code block. `text` and `markdown` are two renderings of the same blocks,
so they always agree: stripping the Markdown marks gives the text back.

`tree_blocks` walks HTML element names; trafilatura's XML output is renamed to HTML
first (`from_trafilatura_xml`), so both extraction paths share one walker.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Generic, TypeVar, overload
from urllib.parse import urljoin

from lxml import etree
from lxml.html import HtmlElement

from .boilerplate import HEADINGS, INVISIBLE, invisible
from .lists import class_stem, overlays
from .wordscan import word_count, word_seq

BLOCK_TAGS = frozenset(
    "address article aside blockquote body dd details dialog div dl dt fieldset figcaption figure footer form "
    "h1 h2 h3 h4 h5 h6 header hr li main nav ol p pre section summary table tbody thead tfoot tr ul".split()
)
_KIND = {"h1": "h", "h2": "h", "h3": "h", "h4": "h", "h5": "h", "h6": "h", "li": "li", "dt": "li", "dd": "li",
         "blockquote": "quote", "pre": "code"}
_XML_NAMES = {"head": "h2", "list": "ul", "item": "li", "row": "tr", "cell": "td", "quote": "blockquote",
              "code": "pre", "ref": "a", "hi": "span", "lb": "br", "graphic": "img", "main": "div", "doc": "div",
              "comments": "div"}
# the tags `_Walker._walk` reads apart; any other element is inline, its text and its children's
_WALKED = BLOCK_TAGS | {"br", "a", "code"}
_LINKABLE = ("http:", "https:", "/", "mailto:")
# where trafilatura's <code> is inline code (parents already renamed to HTML names)
_INLINE_CODE_PARENTS = frozenset({"p", "li", "td", "th", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "a", "span"})


_T = TypeVar("_T")


class _once(Generic[_T]):  # noqa: N801 (a decorator, named as `functools.cached_property`)
    """`functools.cached_property` without its lock: Python 3.11's takes one on each first read, most of the
    read's time, and a CleanEval page's blocks read their `seq` or `words` a few hundred times. The value goes into
    the instance's dict, which later reads find first (the descriptor defines no `__set__`).

    >>> class Line:
    ...     @_once
    ...     def n(self) -> int:
    ...         print("counted"); return 3
    >>> line = Line(); line.n, line.n
    counted
    (3, 3)
    """

    def __init__(self, func: Callable[[Any], _T]) -> None:
        self.func, self.name = func, func.__name__
        self.__doc__ = func.__doc__

    @overload
    def __get__(self, instance: None, owner: type | None = None) -> _once[_T]: ...

    @overload
    def __get__(self, instance: object, owner: type | None = None) -> _T: ...

    def __get__(self, instance: object | None, owner: type | None = None) -> _T | _once[_T]:
        if instance is None:
            return self
        value = instance.__dict__[self.name] = self.func(instance)
        return value


@dataclass(frozen=True)
class Block:
    kind: str  # h | p | li | row | quote | code
    text: str  # plain, one line
    md: str  # the same content as Markdown, one line
    level: int = 0  # heading level (h), 1 for a table's first row, an ordered list's item's number (li)
    marked: bool = False  # inside one of the elements the caller marked (a repeated group's items)
    link_words: int = 0  # words of `text` inside links (menus and teaser rails are mostly links)
    framed: bool = False  # inside the page's article frame (its headline, the article around the kept text)
    carded: bool = False  # inside a link that wraps block content: a card's <a><h3>title</h3><p>gist</p></a>
    path: str = ""  # the block-level elements around it, from the walk's root (`signature`): where it stands
    group: int = -1  # the repeated group (`lists.repeated_groups`, by index) one of whose items holds it
    # the element around the block-level element that holds it, by its number in the walk: the items of one list,
    # the paragraphs of one article share it (the box a line stands in, where `path` is only its place)
    box: int = field(default=-1, compare=False)
    # the block-level element that holds it, by its number in the walk: two lines of one element are parts of its
    # text, apart where an inline element the caller bounded starts or ends
    here: int = field(default=-1, compare=False)

    def __init__(self, kind: str, text: str, md: str, level: int = 0, marked: bool = False, link_words: int = 0,
                 framed: bool = False, carded: bool = False, path: str = "", group: int = -1, box: int = -1,
                 here: int = -1) -> None:
        """The fields, written into the instance's dict at once: the dataclass's own `__init__` of a frozen class
        sets each through `object.__setattr__`, which writes them there one call at a time (ten calls a block, a
        CleanEval page builds hundreds). `dataclass` keeps an `__init__` the class defines; this one's parameters
        are the fields, in their order, with their defaults.

        >>> Block("p", "x", "x", path="/div") == Block("p", "x", "x", 0, False, 0, False, False, "/div", -1)
        True
        """
        self.__dict__.update(kind=kind, text=text, md=md, level=level, marked=marked, link_words=link_words,
                             framed=framed, carded=carded, path=path, group=group, box=box, here=here)

    @_once
    def seq(self) -> str:
        """`seq` of the text: its words, case folded, space padded (computed once; every pass
        compares lines by it).

        >>> Block("p", "Hello, World!", "").seq
        ' hello world '
        """
        return _line_seq(self.text) if len(self.text) <= CACHED_LINE_CHARS else seq(self.text)

    @_once
    def words(self) -> int:
        """The number of words of the text (`text.words`)."""
        return word_count(self.text)


def seq(text: str) -> str:
    """Word sequence, case folded, space padded (for whole-word containment tests).

    >>> seq("Hello, World!")
    ' hello world '
    """
    return " " + word_seq(text.lower()) + " "


# A page's lines come back as new blocks with the same text (trafilatura's and the tree's, a line relinked or
# framed): half of the `seq`s a CleanEval page asks for are of a text it has seen. Lines up to 4,000 characters
# are kept: the cache holds at most 1,024 of them and their sequences.
CACHED_LINE_CHARS = 4000
_line_seq = lru_cache(maxsize=1024)(seq)


@lru_cache(maxsize=4096)  # a page links the same targets again and again, and its links are walked more than once
def resolve(base: str, href: str) -> str:
    """`urljoin(base, href)`, memoized.

    >>> resolve("http://h/a/b", "../c")
    'http://h/c'
    """
    return urljoin(base, href)


def page_address(url: str) -> str:
    """The page an address names: without its fragment and its trailing slash.

    >>> page_address("http://h/a/#comment-2") == page_address("http://h/a")
    True
    """
    return url.split("#", 1)[0].rstrip("/")


def leads_elsewhere(href: str | None, url: str) -> bool:
    """Whether a link leads to a page other than `url` (a link to a place in the page, "#comment-2", or to the
    page itself does not).

    >>> [leads_elsewhere(h, "http://h/a/") for h in ("/b", "#c", "/a/#comment-2", "?replytocom=2#respond", "")]
    [True, False, False, True, False]
    """
    href = (href or "").strip()
    if not href or href.startswith(("#", "javascript:", "mailto:")):
        return False
    return page_address(resolve(url, href)) != page_address(url)


def links_elsewhere(el: HtmlElement, url: str) -> bool:
    """Whether an element holds a link to a page other than `url` (`leads_elsewhere`): a heading that titles an
    entry of another page.

    >>> from lxml.html import fromstring
    >>> headings = ('<h2><a href="/b">B</a></h2>', '<h2><a href="#x">¶</a>A</h2>')
    >>> [links_elsewhere(fromstring(h), "http://h/a/") for h in headings]
    [True, False]
    """
    return any(leads_elsewhere(a.get("href"), url) for a in el.iter("a"))


def signature(el: HtmlElement) -> str:
    """An element's tag and class names without digits (a post's `bg1`/`bg2`, `post-17`): the same place
    on two pages of one site has the same signature; ids (`p123`) are left out, they name the instance.

    >>> from lxml.html import fromstring
    >>> signature(fromstring('<div id="p7" class="post bg2 has-profile">x</div>'))
    'div.bg.has-profile.post'
    """
    names = el.get("class")
    if not names:
        return str(el.tag)
    return ".".join([str(el.tag), *sorted({class_stem(n) for n in names.split()} - {""})])


def link_href(el: HtmlElement, base: str) -> str:
    """An <a>'s address as the Markdown writes it; "" when it leads to no page (a fragment, `javascript:`)."""
    href = resolve(base, el.get("href", "").strip()) if base else el.get("href", "").strip()
    return href.replace(" ", "%20").replace(")", "%29") if href.startswith(_LINKABLE) else ""


def page_links(root: HtmlElement, base: str, labels: Collection[str] | None = None) -> dict[str, str]:
    """The page's links by label, as the Markdown writes them, for the labels that lead to one address only
    (`labels`: only those labels; the others' addresses are not resolved).

    >>> from lxml.html import fromstring
    >>> t = fromstring('<p><a href="/a">Unit  studies</a> <a href="/b">More</a> <a href="/c">More</a>'
    ...                '<a href="/d">X</a></p>')
    >>> page_links(t, "https://s.org/"), page_links(t, "https://s.org/", {"X", "More"})
    ({'Unit studies': 'https://s.org/a', 'X': 'https://s.org/d'}, {'X': 'https://s.org/d'})
    """
    targets: dict[str, set[str]] = {}
    for a in root.iter("a"):
        label = _norm(_text(a))
        if label and (labels is None or label in labels) and (href := link_href(a, base)):
            targets.setdefault(label, set()).add(href)
    return {label: next(iter(hrefs)) for label, hrefs in targets.items() if len(hrefs) == 1}


def _text(el: HtmlElement) -> str:
    """`"".join(el.itertext())`: an element with no children (most links) is its text, read without an iterator.

    >>> from lxml.html import fromstring
    >>> [_text(fromstring(h)) for h in ('<a href="/"> Home </a>', '<a href="/">Top <b>news</b></a>', '<a></a>')]
    [' Home ', 'Top news', '']
    """
    return (el.text or "") if not len(el) else "".join(el.itertext())


# The characters that show nothing and are no space: the control characters (C0 but the spaces, DEL, C1 but NEL) and
# the format characters (soft hyphen, zero-width spaces and joiners, direction marks and embeddings, word joiner and
# invisible operators, byte order mark). trafilatura leaves them out of its text; so does the tree's (`_norm`).
INVISIBLE_CHARS = "\x00-\x08\x0e-\x1b\x7f-\x84\x86-\x9f\xad\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff"
_INVISIBLE_RE = re.compile(f"[{INVISIBLE_CHARS}]")


def _norm(s: str) -> str:
    """The words of `s` with one space between them (`str.split` and `\\s` agree on what a space is,
    `Py_UNICODE_ISSPACE`), less the characters that show nothing (`INVISIBLE_CHARS`), which trafilatura
    leaves out of its text too: a page in windows-1252 read as Latin-1 has "won\\x92t" where trafilatura has "wont",
    and the two lines must be the same line. A printable string's only space is " " (every other is a separator or a
    control character) and it holds no such character: with no two spaces running, its words already stand one space
    apart, and only its ends may have one to trim, without splitting it (a third of a page's lines, three quarters of
    trafilatura's text).

    >>> _norm(" One  two\\n three "), _norm(" One two three "), _norm("One"), _norm(" ")
    ('One two three', 'One two three', 'One', '')
    >>> _norm("won\\x92t\\u200b it\\n"), _norm("a\\x85b")
    ('wont it', 'a b')
    """
    if s.isprintable() and "  " not in s:
        return s.strip(" ")
    words = " ".join(s.split())  # printable but for the characters that show nothing, if any (never spaces)
    return words if words.isprintable() else " ".join(_INVISIBLE_RE.sub("", words).split())


def _is_data_row(tr: HtmlElement) -> bool:
    """A row whose cells hold only inline content (layout tables nest blocks in cells; a cell without children
    holds none, seen without walking its descendants).

    >>> from lxml.html import fromstring
    >>> [_is_data_row(fromstring(f"<table><tr><td>a</td><td>{c}</td></tr></table>").find(".//tr"))
    ...  for c in ("b", "<b>b</b>", "<div>b</div>")]
    [True, True, False]
    """
    return all(not len(cell) or not any(isinstance(d.tag, str) and d.tag in BLOCK_TAGS for d in cell.iterdescendants())
               for cell in tr if cell.tag in ("td", "th"))


def _covers(items: Mapping[HtmlElement, int]) -> dict[HtmlElement, HtmlElement]:
    """The items of the groups whose every item lies under a link laid over it (`lists.overlays`) -> that link."""
    groups: dict[int, list[HtmlElement]] = {}
    for item, n in items.items():
        groups.setdefault(n, []).append(item)
    return {item: cover for members in groups.values()
            for item, cover in zip(members, overlays(tuple(members)), strict=True) if cover is not None}


class _Walker:
    def __init__(self, base_url: str, marks: frozenset[HtmlElement], frame: frozenset[HtmlElement],
                 unframe: frozenset[HtmlElement] = frozenset(), items: Mapping[HtmlElement, int] | None = None,
                 framed_tails: frozenset[HtmlElement] = frozenset()) -> None:
        self.base = base_url
        self.marks = marks
        self.frame = frame
        self.framed_tails = framed_tails  # elements whose tail starting a line makes it framed: loose text
        self.line_framed = False  # the line being gathered started in such a tail
        self.unframe = unframe
        self.bounds = marks | frame | unframe  # the elements whose lines stand apart from those around them
        self.inside = 0  # depth of marked elements around the current one
        self.framed = 0  # depth of frame elements around the current one
        self.href = ""  # target of a link wrapping block-level content
        self.blocks: list[Block] = []
        self.text: list[str] = []
        self.md: list[str] = []
        self.plain = True  # `md` holds what `text` holds (no link or code gathered since the last block)
        self.rows = 0  # rows of the current table
        self.link_words = 0  # words inside links of the block being gathered
        self.path = ""  # the signatures of the block-level elements around the current one
        self.opened = 0  # the block-level elements entered so far: the last one's number
        self.here = 0  # the number of the innermost block-level element around the current one (0: the walk's root)
        self.box = -1  # ... of the one around that (`Block.box`)
        self.items = items or {}  # group items -> their group's index
        self.covers = _covers(self.items)  # the items under a link laid over them -> that link
        self.group = -1  # the group of the innermost item around the current element
        self.line_group = -1  # ... where the line being gathered started

    def flush(self, kind: str, level: int = 0) -> None:
        """The line gathered since the last block, as a block, unless it is only spaces (between two blocks' tags:
        half of the lines gathered); those are dropped and nothing else was gathered with them (a link or code
        counts only with words, which are not spaces)."""
        if not self.text:  # nothing gathered since the last block (`md` and `link_words` grow with `text`)
            return
        gathered = "".join(self.text)
        if not gathered or gathered.isspace():
            self.text, self.md, self.line_framed = [], [], False
            return
        if kind == "code":  # a code block keeps its lines (and their indentation)
            text = md = "\n".join(line.rstrip() for line in gathered.split("\n")).strip("\n")
        else:
            text = _norm(gathered)
            md = text if self.plain else _norm("".join(self.md))
        self.text, self.md, self.plain = [], [], True
        link_words, self.link_words = self.link_words, 0
        carded = bool(self.href and "](" not in md)
        if carded:
            md = f"[{md}]({self.href})"
            link_words = word_count(text)
        framed, self.line_framed = self.framed > 0 or self.line_framed, False
        self.blocks.append(Block(kind, text, md or text, level, self.inside > 0, link_words, framed,
                                 carded, self.path, self.line_group, self.box, self.here))

    def start(self) -> None:
        """Text is about to be gathered: a new line starts in the current group (if it is the first text)."""
        if not self.text:
            self.line_group = self.group

    def walk(self, el: HtmlElement, kind: str) -> None:
        tag = el.tag
        if not isinstance(tag, str) or (tag in INVISIBLE and invisible(el)):
            return
        outer_group, outer_href = self.group, self.href
        if self.items and (found := self.items.get(el)) is not None:
            self.group = found  # a group's item: the lines that start in it are the group's
            if (cover := self.covers.get(el)) is not None:
                self.href = link_href(cover, self.base) or self.href  # a card under a link laid over it
        if el in self.bounds:
            self._walk_bounded(el, tag, kind)
        elif tag in _WALKED:
            self._walk(el, tag, kind)
        else:  # an inline element (a span, an emphasis, a font): its text and its children's
            self._children(el, kind)
        self.group, self.href = outer_group, outer_href

    def _walk_bounded(self, el: HtmlElement, tag: str, kind: str) -> None:
        """A marked, framed or unframed element: its lines start and end with it."""
        marked, framed, unframed = el in self.marks, el in self.frame, el in self.unframe
        saved = self.framed
        self.flush(kind)
        self.inside += marked
        self.framed = 0 if unframed else self.framed + framed
        self._walk(el, tag, kind)
        self.flush(kind)
        self.inside -= marked
        self.framed = saved

    def _walk(self, el: HtmlElement, tag: str, kind: str) -> None:
        """An element of one of the tags `_WALKED` (or a bounded one): a line break, a data row, a link, inline code,
        a block."""
        if tag == "br":
            if kind == "code":  # a code block's line ends: the block goes on
                self._newline()
            else:
                self.flush(kind)
        elif tag == "tr" and len(el) and _is_data_row(el):
            self.flush(kind)
            cells = [_norm(_text(c)) for c in el if c.tag in ("td", "th")]
            if any(cells):
                md = " | ".join(c.replace("|", "\\|") for c in cells)  # a cell's "|" is escaped in Markdown only
                self.blocks.append(Block("row", " | ".join(cells), f"| {md} |",
                                         int(self.rows == 0), self.inside > 0, path=f"{self.path}/{signature(el)}",
                                         group=self.group, box=self.here))
                self.rows += 1
        elif tag == "a" and el.get("href"):
            href = link_href(el, self.base)
            if len(el) and any(isinstance(d.tag, str) and d.tag in BLOCK_TAGS for d in el.iterdescendants()):
                saved, self.href = self.href, href or self.href  # a card's <a><h3>title</h3></a>
                self._children(el, kind)
                self.href = saved
                return
            raw = _text(el)
            label = _norm(raw)
            if label:
                before, after = " " * raw[:1].isspace(), " " * raw[-1:].isspace()  # "reported<a> X</a>"
                self.start()
                self.text.append(before + label + after)
                if href:
                    self.md.append(f"{before}[{label}]({href}){after}")
                    self.plain = False
                else:
                    self.md.append(before + label + after)
                self.link_words += word_count(label)
            elif raw[:1].isspace():  # a link of a space alone sets the words around it apart ("located<a> </a>near")
                self.text.append(" ")
                self.md.append(" ")
        elif tag == "code" and kind != "code":  # inline code stays in its sentence
            raw = _text(el)
            label = _norm(raw)
            if label:
                self.start()
                self.text.append(raw if "\n" not in raw else f" {label} ")
                self.md.append(f"`{label}`" if "`" not in label else f"`` {label} ``")
                self.plain = False
        elif tag in BLOCK_TAGS and kind == "code":  # a line of a highlighted block (Prism's `div.token-line`)
            self._children(el, kind)
            self._newline()
        elif tag in BLOCK_TAGS:
            inner = _KIND.get(tag, "p" if kind == "row" else kind)
            self.flush(kind)
            if tag == "table":
                saved_rows, self.rows = self.rows, 0
            outer, outer_box, outer_here = self.path, self.box, self.here
            self.opened += 1
            self.path, self.box, self.here = f"{self.path}/{signature(el)}", self.here, self.opened
            self._children(el, inner)
            self.flush(inner, int(tag[1]) if tag in HEADINGS else 2 if inner == "h" else _ordinal(el) if tag == "li"
                       else 0)
            self.path, self.box, self.here = outer, outer_box, outer_here
            if tag == "table":
                self.rows = saved_rows
        else:
            self._children(el, kind)

    def _newline(self) -> None:
        """A code block's line ends here (once: Prism ends each line's `<div>` with a `<br>` too)."""
        if self.text and not self.text[-1].endswith("\n"):
            self.text.append("\n")
            self.md.append("\n")

    def _children(self, el: HtmlElement, kind: str) -> None:
        """The element's text and children, each followed by its tail (`start` and the appends, without the calls)."""
        if text := el.text:
            if not self.text:
                self.line_group = self.group
            self.text.append(text)
            self.md.append(text)
        for child in el:
            self.walk(child, kind)
            if tail := child.tail:
                if not self.text:
                    self.line_group = self.group
                    self.line_framed = child in self.framed_tails  # loose text between the frame's boxes
                self.text.append(tail)
                self.md.append(tail)


def tree_blocks(root: HtmlElement, base_url: str = "", marks: frozenset[HtmlElement] = frozenset(),
                frame: frozenset[HtmlElement] = frozenset(), unframe: frozenset[HtmlElement] = frozenset(),
                items: Mapping[HtmlElement, int] | None = None,
                framed_tails: frozenset[HtmlElement] = frozenset()) -> list[Block]:
    """The blocks of a tree in document order (`framed` inside `frame` elements, unless inside an `unframe` one, and
    a line that starts in the tail of one of `framed_tails`: text the article writes between its boxes).

    >>> from lxml.html import fromstring
    >>> [(b.kind, b.md) for b in tree_blocks(fromstring(
    ...     '<div><h2>Top</h2><ul><li>One <a href="/x">link</a></li></ul><p>Done<br>Next</p></div>'), "http://h/")]
    [('h', 'Top'), ('li', 'One [link](http://h/x)'), ('p', 'Done'), ('p', 'Next')]
    """
    walker = _Walker(base_url, marks, frame, unframe, items, framed_tails)
    walker.walk(root, "p")
    walker.flush("p")
    return walker.blocks


def placed_blocks(placed: Iterable[tuple[HtmlElement, Sequence[HtmlElement]]], base_url: str = "") -> list[Block]:
    """The blocks of elements taken out of a tree, each at the `path` it had there (`placed`: an element and the
    elements around it, from the tree's root down), as `tree_blocks` of the whole tree gives them.

    >>> from lxml.html import fromstring
    >>> t = fromstring('<body><div class="side"><p>Who is online</p></div><main><p>Story</p></main></body>')
    >>> side = t[0]
    >>> [(b.path, b.text) for b in placed_blocks([(side, [t])])] == [
    ...     (b.path, b.text) for b in tree_blocks(t)][:1]
    True
    """
    walker = _Walker(base_url, frozenset(), frozenset())
    for el, around in placed:
        walker.path = "".join(f"/{signature(a)}" for a in around if a.tag in BLOCK_TAGS)
        walker.opened += 1  # a box of its own: what stood around it is gone
        walker.here = walker.box = walker.opened
        walker.walk(el, "p")
        walker.flush("p")
    return walker.blocks


def _ordinal(li: HtmlElement) -> int:
    """An ordered list's item's number (its list's `start`, then one more an item), 0 for another list's item.

    >>> from lxml.html import fromstring
    >>> [_ordinal(li) for li in fromstring('<ol start="3"><li>a</li><li>b</li></ol>')]
    [3, 4]
    >>> _ordinal(fromstring('<ul><li>a</li></ul>')[0])
    0
    """
    parent = li.getparent()
    if parent is None or parent.tag != "ol":
        return 0
    start = parent.get("start", "1").strip()
    return (int(start) if start.isdigit() else 1) + sum(1 for el in li.itersiblings("li", preceding=True))


def from_trafilatura_xml(xml: str) -> HtmlElement | None:
    """trafilatura's XML output with HTML element names (head -> h2, list/item -> ul/li, row/cell -> tr/td, ...)."""
    try:
        root = etree.fromstring(xml.encode("utf-8"), etree.XMLParser(recover=True, huge_tree=True))
    except etree.XMLSyntaxError:
        return None
    if root is None:
        return None
    for code in list(root.iter("code")):
        _rejoin(code)
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        rend = el.get("rend") or ""
        if el.tag == "head":
            el.tag = rend if rend in ("h1", "h2", "h3", "h4", "h5", "h6") else "h2"
        elif el.tag == "ref":
            el.tag = "a"
            el.set("href", el.get("target") or "")
        elif el.tag == "list":
            el.tag = "ol" if rend == "ol" else "ul"
        elif el.tag == "cell":
            el.tag = "th" if el.get("role") == "head" else "td"
        elif el.tag == "code" and _inline_code(el):
            continue  # stays <code>: inline code in a sentence
        else:
            el.tag = _XML_NAMES.get(el.tag, el.tag)
    return root


def _rejoin(code: etree._Element) -> None:
    """Put a line of code back into the sentence trafilatura cut it out of: text loose in a `<div>` (a forum's quote)
    comes out as paragraphs between its `<code>`s, "Try adding " / `usb=1` / " to " / `config.txt` / " and see.".
    trafilatura trims a paragraph of the page; the space it left at the cut (the paragraph before ends with one,
    the one after opens with one or with punctuation) shows that the code stood inside the sentence. A code block of
    lines, or one after a paragraph of the page, stays a block.

    >>> x = etree.fromstring("<div><p>Try adding </p><code>usb=1</code><p> to </p><code>config.txt</code><p> and see."
    ...                      "</p><p>Run:</p><code>make</code></div>")
    >>> for code in list(x.iter("code")):
    ...     _rejoin(code)
    >>> etree.tostring(x, encoding="unicode")
    '<div><p>Try adding <code>usb=1</code> to <code>config.txt</code> and see.</p><p>Run:</p><code>make</code></div>'
    """
    before = code.getprevious()
    if before is None or before.tag != "p" or "\n" in "".join(code.itertext()) or not _ends_apart(before):
        return
    after = code.getnext()
    before.append(code)  # (takes its tail with it)
    if after is None or after.tag != "p" or (after.text or "")[:1] not in _REJOINED:
        return
    code.tail = (code.tail or "") + (after.text or "")
    for child in list(after):
        before.append(child)
    after.getparent().remove(after)


_REJOINED = frozenset(" \t\n.,;:!?)")  # how the rest of a sentence cut after its code opens


def _ends_apart(p: etree._Element) -> bool:
    """Whether an element's text ends in whitespace (its last child's tail, or its own text)."""
    last = p[-1] if len(p) else None
    end = (last.tail if last is not None else p.text) or ""
    return end[-1:].isspace()


def _inline_code(el: etree._Element) -> bool:
    """trafilatura writes inline code and code blocks alike as <code>: inline when inside a paragraph.

    >>> x = etree.fromstring("<div><p>The <code>a</code> b</p><code>block</code></div>")
    >>> [_inline_code(c) for c in x.iter("code")]
    [True, False]
    """
    parent = el.getparent()
    return parent is not None and parent.tag in _INLINE_CODE_PARENTS


def to_text(blocks: list[Block]) -> str:
    """One block per line."""
    return "\n".join(b.text for b in blocks)


def to_markdown(blocks: list[Block]) -> str:
    """Headings as #, list items as -, table rows as | | (a header rule after each table's first row),
    quotes as >, code fenced; consecutive items and rows stay together.

    >>> print(to_markdown([Block("h", "T", "T", 1), Block("li", "a", "a"), Block("li", "b", "b"), Block("p", "P", "P"),
    ...                    Block("li", "c", "c", 1), Block("li", "d", "d", 2),
    ...                    Block("row", "x | y", "| x | y |", 1), Block("row", "1 | 2", "| 1 | 2 |")]))
    # T
    <BLANKLINE>
    - a
    - b
    <BLANKLINE>
    P
    <BLANKLINE>
    1. c
    2. d
    <BLANKLINE>
    | x | y |
    | --- | --- |
    | 1 | 2 |
    """
    out: list[str] = []
    prev = ""
    for b in blocks:
        if b.kind == "h":
            line = "#" * max(1, min(b.level, 6)) + " " + b.md
        elif b.kind == "li":
            line = (f"{b.level}. " if b.level else "- ") + b.md  # an ordered list's item is numbered
        elif b.kind == "quote":
            line = "> " + b.md
        elif b.kind == "code":
            line = "```\n" + b.text + "\n```"
        else:
            line = b.md
        together = b.kind == prev and b.kind in ("li", "row", "quote") and not (b.kind == "row" and b.level)
        if out and not together:
            out.append("")
        out.append(line)
        if b.kind == "row" and b.level:
            out.append("|" + " --- |" * (b.md.count(" | ") + 1))
        prev = b.kind
    return "\n".join(out)
