"""Site template by repetition: a line that stands at the same place on the page's parent is the site's.

A crawler sees more than one page of a site. The blocks a site's template prints on every page
(a "who is online" box, board statistics, a sidebar's widgets, a rail of the same teasers) stand at
the same place (the same block-level elements, by tag and class: `blocks.signature`) with the same
words on the page and on its parent; a page's own content does not. Comparing place *and* words
keeps a page's headline that its parent lists as a card's title (another place), and keeps what
only looks alike (a "Share" label in another container). This is the site style tree's idea (Yi,
Liu & Li, KDD 2003) reduced to the one page every crawl fetched first: the parent BFS admitted the
page from, so a page's text never depends on crawl order, concurrency, a resume or which Redis worker
took its parent. The seed has no parent: its text is decided by the page alone.

A page's *fingerprint* is the set of its blocks' (place, words) digests, carried to its children
encoded (`encode`) on their admission; the children's extraction drops the lines it names
(`template_lines`), unless that would leave the page (almost) nothing: a page that repeats its parent
(a print view, another sort order of the same list) keeps its text. The lines of the parent's entries of
other pages (`listed`: a blog's index showing each post whole, under a heading that links to it) are those
pages' content, not the template: the fingerprint leaves them out, so the post keeps them. It names the
furniture the page pruned too, where it stood (`blocks.placed_blocks`): a short page keeps a sidebar (there it holds
most of the words) that its parent, a long post, pruned. And it names its repeated groups' lines as entries
(`entry_key`): a child that shows one of them alone shows the parent's entry, its own content (a message's page under
the issue that lists the messages). And it names each box whole (`box_key`: one list's items together): a child
showing some of a parent's list, each line at its place there, shows a selection of it, its own content (an API
reference's index of macros under its index of all globals); a list the parent shows in part is the page's own whole,
and a box the parent shows whole is the template's, whichever of its items either page marks as current (tabs).
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Iterable, Sequence

from lxml.html import HtmlElement

from .blocks import Block, links_elsewhere, seq

_HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")

DIGEST_BYTES = 6  # 48 bits: no collision to speak of among a page's few thousand blocks
TITLE_PLACE = "<title>"  # the document title's place in a fingerprint (no block stands there)
MAX_KEYS = 4000  # a fingerprint's keys at most (the page's first ones): 32 KB once encoded
_CLASSES = re.compile(r"\.[^/]*")  # an element's classes in a `Block.path`


def key(block: Block) -> bytes:
    """The digest of a block's place and words.

    >>> online = Block("p", "Who is online", "", path="/div.stat")
    >>> key(online) == key(Block("p", "who is  ONLINE!", "", path="/div.stat"))
    True
    >>> key(online) == key(Block("p", "Who is online", "", path="/aside"))
    False
    """
    return hashlib.blake2b(f"{block.path}\n{block.seq}".encode(), digest_size=DIGEST_BYTES).digest()


def entry_key(block: Block) -> bytes:
    """The digest of a block of one of a page's repeated groups (`Block.group`: an item of a list, a feed, a thread),
    beside its `key`: a child showing that block alone, at the same place, shows one of its parent's entries (a
    message's own page under the issue that lists its messages), its own content.

    >>> b = Block("p", "The seed tins were damp.", "", path="/table.messages/tr/td.content", group=0)
    >>> entry_key(b) != key(b), entry_key(b) == entry_key(Block("p", "The seed tins were damp.", "", path=b.path))
    (True, True)
    """
    return hashlib.blake2b(f"{block.path}\n{block.seq}\nentry".encode(), digest_size=DIGEST_BYTES).digest()


def title_key(title: str) -> bytes:
    """The digest of a document title, in a fingerprint beside the blocks': a title the parent has too is the
    site's (an app titled with its name on every page), not the page's own.

    >>> title_key("Conduit") == title_key("conduit"), title_key("Conduit") == key(Block("h", "Conduit", ""))
    (True, False)
    """
    return key(Block("title", title, "", path=TITLE_PLACE))


def listed(root: HtmlElement, url: str, items: Iterable[HtmlElement]) -> str:
    """The `seq` of the page's entries of other pages, joined: each `<article>` and each item of a repeated group
    (`items`) whose heading links to another page (a post's title on a blog's index, a card's). A heading's link to
    the page itself (a permalink) or to a place in it (a "¶" anchor) makes no entry.

    >>> from lxml.html import fromstring
    >>> t = fromstring('<main><article><h2><a href="/a">Otters</a></h2><p>They came back.</p></article>'
    ...                '<article><h1><a href="/here">Here</a></h1><h2><a href="#why">¶</a>Why</h2><p>Own</p></article>'
    ...                '<aside><p>Who is online</p></aside></main>')
    >>> listed(t, "http://h/here", [])
    ' otters they came back '
    """
    entries = []
    for unit in (*root.iter("article"), *items):
        for heading in unit.iter(*_HEADINGS):
            if links_elsewhere(heading, url):
                entries.append(seq(" ".join(unit.itertext())).strip())  # words apart across blocks
                break
    return " " + " ".join(e for e in entries if e) + " " if entries else ""


def _tags(path: str) -> str:
    """A `Block.path`'s tags, without their classes: a menu marks its current item by a class (`li.current`).

    >>> _tags("/div.contents/ul/li.current")
    '/div/ul/li'
    """
    return _CLASSES.sub("", path)


def boxes(structure: Sequence[Block]) -> list[list[int]]:
    """The page's lines (their indexes) by the box they stand in (`Block.box`) and the tags of their place (`_tags`:
    a menu's current item stands in the box with the others), in the order of their boxes' first lines: one list's
    items, one article's paragraphs, one footer's lines.

    >>> lines = [Block("li", "All", "", path="/ul/li", box=3), Block("h", "Globals", "", path="/ul/h2", box=3),
    ...          Block("li", "Functions", "", path="/ul/li.current", box=3), Block("li", "Open", "", path="/ul/li",
    ...                                                                           box=7)]
    >>> boxes(lines)
    [[0, 2], [1], [3]]
    """
    found: dict[tuple[int, str], list[int]] = {}
    for n, block in enumerate(structure):
        found.setdefault((block.box, _tags(block.path)), []).append(n)
    return list(found.values())


def box_key(lines: Sequence[Block]) -> bytes:
    """The digest of a box's place (its tags) and all its lines' words, in order: the parent shows the same box whole
    (whichever of its items either page marks as current).

    >>> a, b = Block("li", "HL_OK : hivelog.h", "", path="/ul/li"), Block("li", "HL_FULL", "", path="/ul/li.current")
    >>> box_key([a, b]) == box_key([a, Block("li", "HL_FULL", "", path="/ul/li")]), box_key([a]) == box_key([a, b])
    (True, False)
    >>> box_key([a]) == key(a)
    False
    """
    text = "\n".join([_tags(lines[0].path), "box", *(b.seq for b in lines)])
    return hashlib.blake2b(text.encode(), digest_size=DIGEST_BYTES).digest()


def page_keys(structure: Sequence[Block], entries: str = "", keys: Sequence[bytes] | None = None) -> list[bytes]:
    """The keys a fingerprint names of a page's lines: each line's `key` (`keys`, when the caller has them), but those
    of the page's entries of other pages (`entries`, `listed`: their pages' content, not the template), and each box's
    `box_key`, before its first line's (a fingerprint cut short names a box only with its first line), but a box of
    those entries' lines (a post's author card on a blog's index that shows each post whole).

    >>> lines = [Block("p", "Otters", "", path="/p", box=1), Block("p", "Herons", "", path="/p", box=1)]
    >>> page_keys(lines) == [box_key(lines), key(lines[0]), key(lines[1])], page_keys(lines, " herons ")[2:]
    (True, [])
    >>> page_keys(lines, " otters herons ")
    []
    """
    first = {members[0]: members for members in boxes(structure)}
    found = []
    for n, block in enumerate(structure):
        if (members := first.get(n)) is not None and not (entries and all(
                structure[m].seq in entries for m in members if structure[m].seq.strip())):
            found.append(box_key([structure[m] for m in members]))
        if not (entries and block.seq.strip() and block.seq in entries):
            found.append(key(block) if keys is None else keys[n])
    return found


def fingerprint(keys: Sequence[bytes]) -> frozenset[bytes]:
    """A page's fingerprint from its keys (`page_keys` and the others: the first `MAX_KEYS`)."""
    return frozenset(keys[:MAX_KEYS])


def encode(keys: frozenset[bytes]) -> str:
    """A fingerprint as ASCII (sorted: the same page gives the same string), for requests, journal and Redis.

    >>> keys = fingerprint([key(Block("p", "a b", "", path="/p")), key(Block("p", "c", "", path="/p"))])
    >>> decode(encode(keys)) == keys, len(encode(keys))
    (True, 16)
    """
    return base64.b64encode(b"".join(sorted(keys))).decode("ascii")


def decode(text: str) -> frozenset[bytes]:
    """The fingerprint `encode` wrote; an empty or damaged one is no evidence (the empty set)."""
    try:
        raw = base64.b64decode(text.encode("ascii"), validate=True) if text else b""
    except ValueError:
        return frozenset()
    if len(raw) % DIGEST_BYTES:
        return frozenset()
    return frozenset(raw[i:i + DIGEST_BYTES] for i in range(0, len(raw), DIGEST_BYTES))


def template_lines(structure: Sequence[Block], keys: Sequence[bytes], parent: frozenset[bytes]) -> set[str]:
    """The word sequences (`missed.seq`) of this page's lines (`structure`, with their `keys`) that its
    parent has at the same place, and that the page shows nowhere else. A repeated group (a list, a grid, a
    feed: `Block.group`) goes whole or not at all: a category page lists some of the posts its parent
    lists, in the same markup, and each of them is its content; a sidebar the same on both is the site's. A box
    (`boxes`: one list's items) whose every line the parent shows, but not as a whole box there (`box_key`), is a
    selection of the parent's lines, this page's own: a sub-index listing some of its index's entries (an API
    reference's "Functions" under "All"), and so is a list (a box of list items) some of whose lines the parent shows
    there but not all: the same index with two entries written otherwise. A box the parent shows whole is the
    template's, whichever of its items either page marks as current (Doxygen's tabs "All", "Variables"), but for its
    lines of a group. A line outside any group here that is an entry of one of the parent's
    groups (`entry_key`) is this page's own: the page of one of the parent's entries (a message's page, under the
    issue that lists the messages).

    >>> parent = fingerprint(page_keys([Block("h", "Who is online", "", path="/div/div.stat"),
    ...                                 Block("h", "Otters", "", path="/ul/li")]))
    >>> here = [Block("h", "Otters", "", path="/main/h1"), Block("h", "Who is online", "", path="/div/div.stat")]
    >>> sorted(template_lines(here, [key(b) for b in here], parent))
    [' who is online ']
    >>> posts = [Block("li", "Otters", "", path="/ul/li", group=0), Block("li", "Herons", "", path="/ul/li", group=0)]
    >>> template_lines(posts, [key(b) for b in posts], parent), template_lines(posts[:1], [key(posts[0])], parent)
    (set(), {' otters '})
    >>> from dataclasses import replace
    >>> index = [Block("li", name, "", path="/div/ul/li", box=2) for name in ("HL_FULL : hivelog.h",
    ...          "HL_OK : hivelog.h", "hl_open() : hivelog.h")]
    >>> whole = fingerprint(page_keys(index))
    >>> len(template_lines(index, [key(b) for b in index], whole)), template_lines(index[:2], [key(b) for b in
    ...                                                                                           index[:2]], whole)
    (3, set())
    >>> other = [*index[:2], Block("li", "hl_open() : hivelog.c", "", path="/div/ul/li", box=2)]
    >>> template_lines(other, [key(b) for b in other], whole)
    set()
    >>> tabs = [Block("li", "All", "", path="/div.tabs/ul/li.current", box=1), Block("li", "Variables", "",
    ...                                                                              path="/div.tabs/ul/li", box=1)]
    >>> moved = [replace(tabs[0], path="/div.tabs/ul/li"), replace(tabs[1], path="/div.tabs/ul/li.current")]
    >>> sorted(template_lines(moved, [key(b) for b in moved], fingerprint(page_keys(tabs))))
    [' all ', ' variables ']
    >>> message = Block("p", "The seed tins were damp.", "", path="/table/tr/td")
    >>> listed_there = fingerprint([*page_keys([message]), entry_key(replace(message, group=0))])
    >>> template_lines([message], [key(message)], listed_there), template_lines([message], [key(message)],
    ...                                                                        fingerprint(page_keys([message])))
    (set(), {' the seed tins were damp '})
    """
    if not parent:
        return set()
    entries = [block.group < 0 and entry_key(block) in parent for block in structure]  # one of the parent's entries
    hits = [digest in parent and not entry for digest, entry in zip(keys, entries, strict=True)]
    for members in boxes(structure):
        lines = [structure[n] for n in members]
        if box_key(lines) in parent:  # the parent shows the box whole, whichever item either page marks as current
            for n in members:
                hits[n] = hits[n] or not (entries[n] or structure[n].group >= 0)
        elif all(hits[n] for n in members) or (any(hits[n] for n in members) and all(b.kind == "li" for b in lines)):
            for n in members:  # a selection of the parent's lines, or a list it shows in part: this page's own
                hits[n] = False
    partial = {b.group for b, hit in zip(structure, hits, strict=True) if b.group >= 0 and not hit}
    found, elsewhere = set[str](), set[str]()
    for block, hit in zip(structure, hits, strict=True):
        (found if hit and block.group not in partial else elsewhere).add(block.seq)
    return found - elsewhere
