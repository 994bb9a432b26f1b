"""A page's content as `text` and `markdown`: trafilatura for prose, a structural pass for lists.

Cheap path first, escalate only when it falls short:

1. trafilatura (precision mode, then balanced when that kept little; see `text.py`)
   gives the main content of article-like pages, where it is excellent;
2. the structural pass prunes page furniture (`boilerplate.py`) and finds the page's
   repeated blocks (`lists.py`). When trafilatura's output misses more than
   `MISSED_SHARE` of the words of a repeated group (cards, comments, feed entries,
   rows, posts), the page is a list page: its content is the pruned tree in reading order;
3. when even that is little next to the rendered body text, the body text itself.

Both `text` and `markdown` are rendered from the same blocks (`blocks.py`).
`page_content` never raises.
"""

from __future__ import annotations

import bisect
import copy
import logging
import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, replace
from itertools import pairwise, takewhile
from urllib.parse import urljoin, urlsplit

from lxml import etree
from lxml.html import HtmlElement

from ..items import Comment
from .blocks import Block, page_address, page_links, placed_blocks, resolve, to_markdown, to_text, tree_blocks
from .blocks import seq as _seq
from .boilerplate import HEADINGS, LABEL_WORDS, drop_controls, main_root, named_omission, outside, prune_split
from .comments import comments_of, few_comments, threads
from .lists import Group, repeated_groups
from .missed import (
    ARTICLE_WORDS,
    FEW_WORDS,
    LONG_ARTICLE,
    article_frame,
    bare_entries,
    before_end,
    callout_titles,
    contents_trees,
    emptied_sections,
    entry_pairs,
    entry_titles,
    first_heading,
    follows,
    follows_in_document,
    forms_after,
    grid_names,
    inflow_cards,
    inserted_teasers,
    introduced_lists,
    is_plain_run,
    joined_seq,
    kept_container,
    labelled_indexes,
    linked_headline,
    listings_after,
    loose_before,
    main_frame,
    main_headline,
    missed_groups,
    notes,
    others_entries,
    page_hero,
    past_article,
    quote_attributions,
    rail_heading,
    seq_words,
    site_rails,
    standfirst,
    title_line,
    titled_heading,
    written_link_lists,
)
from .records import meta_rows, records
from .template import encode, entry_key, fingerprint, key, listed, page_keys, template_lines, title_key
from .text import (
    BROADER_FACTOR,
    ESCALATE_BELOW,
    LITTLE_BELOW,
    MAX_ELEMENTS,
    MAX_HTML_CHARS,
    MAX_TITLE_CHARS,
    BodyText,
    clean,
    inner_text,
    page_title,
    paragraphize,
    parse,
    tidy,
    trafilatura_blocks,
)
from .wordscan import word_at, word_count, word_list

SHORT_LINE_WORDS = 6
SHINGLE = 4  # words: a run this long found in the furniture is the furniture's
LOST_SHARE = 0.3  # furniture may take this much of trafilatura's words; more (and a paragraph's worth,
LOST_WORDS = 100  # not a related box beside a short list), and the pruning took the article: keep trafilatura's

DUMP_SHARE = 0.9  # one line of this much of the body's words is the body, not a paragraph of it
FRAME_LINE_WORDS = 6  # shorter lines of an article frame are bylines, dates, credits and labels ("1 comment")
FRAME_HEADING_WORDS = 1
DATELINE_SHARE = 3  # a line a third of whose words are numbers
DATELINE_WORDS = 16  # ... or a short line naming a year
_YEAR = re.compile(r"(?:19|20)\d\d")
# a time of day ("1:23 p.m.") or a date in three parts ("28-Nov-04", "2026/12/06", "12.05.19"); a month is a name or
# one or two digits (a phone number's "216-555-0142" is none)
_DATE_OR_TIME = re.compile(r"\b\d{1,2}:\d\d\b|\b\d{1,4}([-/.])(?:\d{1,2}|[^\W\d_]{3,9})\1\d{2,4}\b")
_URL_LINE = re.compile(r"^\S+://\S+$")
_CODE_LINE = re.compile(r"`[^`\n]+`")  # a line's Markdown that is one span of code, the whole line
_MD_LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")
FRAME_LINK_SHARE = 0.5
# what `tree.iter()` walks (elements, comments, processing instructions), counted without making a Python
# object of each node
_NODES = etree.XPath("count(descendant-or-self::*|descendant::comment()|descendant::processing-instruction())")

_NAMED = etree.XPath("descendant-or-self::*[@class or @id]")  # the elements `named_omission` may name

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Content:
    title: str = ""
    text: str = ""
    markdown: str = ""
    method: str = "none"  # trafilatura | trafilatura+lists | structure | body | none
    blocks: tuple[Block, ...] = ()
    comments: tuple[Comment, ...] = ()  # readers' comments and replies (also in `text`)
    document_title: str = ""  # the document's <title> (`title` is the page's own headline when that differs)
    fingerprint: str = ""  # the page's blocks by place and words, for its children (`template.py`)
    template_lines: int = 0  # lines left out because the parent's fingerprint holds them (the site's template)

    def article_text(self) -> str:
        """`text` without the comments: the page's own content alone."""
        return "\n".join(b.text for b in self.article_blocks())

    def article_blocks(self) -> list[Block]:
        """The blocks of `article_text`: those no comment holds."""
        drop = comment_lines((c.author, c.text) for c in self.comments)
        return [b for b in self.blocks if b.seq not in drop]


def comment_lines(comments: Iterable[tuple[str | None, str]]) -> set[str]:
    """The `seq`s of the lines of `text` the comments (author, text) hold: each line of a comment's text, the same
    line with the author before it (its byline, which the comment's text holds without the name:
    `comments.comment_text`) and the author's name alone.

    >>> sorted(comment_lines([("ann", "June 1\\nNice post!"), (None, "Thanks")]))
    [' ann ', ' ann june 1 ', ' ann nice post ', ' june 1 ', ' nice post ', ' thanks ']
    """
    out = set()
    for author, text in comments:
        for line in text.split("\n"):
            out.add(_seq(line))
            if author:
                out.add(_seq(f"{author} {line}"))
        if author:
            out.add(_seq(author))
    return out


def merge(structure: list[Block], kept: list[Block], furniture: str = "", url: str = "",
          names: AbstractSet[str] = frozenset(), others: str = "") -> list[Block]:
    """trafilatura's blocks, less page furniture, with the missed groups' blocks in the page's reading order.

    A block trafilatura kept is dropped only when its text is in the pruned `furniture` and
    nowhere in the pruned tree (`structure`): small differences between trafilatura's text and
    the tree's (spacing around links, split lines) never cost a paragraph of the article. When that would drop most
    of what it kept, the pruning took the article itself and nothing is dropped, but for the text of other pages'
    `<article>`s (`others`: `missed.others_entries`), which their permalinks name.
    A marked block (in a missed group) or a table's header row above kept rows, missing
    from trafilatura's text, goes just before the next block trafilatura kept. A heading is missing unless
    trafilatura kept it as a line: its words inside a kept line are another line's ("Tutorial" over "This tutorial
    builds…", an entry's title inside its excerpt's "Continue reading" for screen readers). Where the tree shows
    the line more often than trafilatura kept it, a heading is the line trafilatura kept only when it kept it as a
    heading of the same rank, or before the next line it kept after the heading's place (the headline the title
    names, again as the article's own `<h2>`): a post's `<h1>` headline, which trafilatura dropped, is not its recipe
    card's `<h2>` name further down, which it kept.
    A link to the site's own page (on `url`'s host) that names a kept line goes with it (`_name_over`: an author's
    name over her role).
    A grid's name (`names`, as `seq`s: `missed.grid_names`) right before a line trafilatura kept, or a marked one,
    was left out with it, whatever other line holds its words ("Loan" beside its description, "The loan desk" in
    another's).

    >>> p = lambda t, m=False: Block("p", t, t, marked=m)
    >>> intro = "An intro of several words"
    >>> [b.text for b in merge([p(intro), p("Item one", True), p("Outro")], [p(intro), p("Outro"), p("Menu")],
    ...                        "Menu")]
    ['An intro of several words', 'Item one', 'Outro']
    >>> [b.text for b in merge([Block("h", "Tutorial", "", 1, marked=True), p("This tutorial builds a ledger")],
    ...                        [p("This tutorial builds a ledger")])]
    ['Tutorial', 'This tutorial builds a ledger']

    A line the tree shows more than once (a method's summary, again over its details) goes where trafilatura kept
    each, when it kept each: what was missed before the first goes before the first.

    >>> said = "Adds a packet to the catalogue"
    >>> [b.text for b in merge([p("add()", True), p(said), p("Details"), p(said)], [p(said), p("Details"), p(said)])]
    ['add()', 'Adds a packet to the catalogue', 'Details', 'Adds a packet to the catalogue']
    >>> soup = lambda n: Block("h", "Leek soup", "", n, marked=True)
    >>> [b.text for b in merge([soup(1), p(intro), soup(2)], [p(intro), soup(2)])]
    ['Leek soup', 'An intro of several words', 'Leek soup']
    """
    struct_seqs = [b.seq for b in structure]
    letters = [found.replace(" ", "") for found in struct_seqs]  # lines by their letters (spaces aside)
    kept = _in_tree_order(_unglued(kept, structure, letters), letters)
    struct_seq, struct_lines, furn_seq = joined_seq(struct_seqs), set(struct_seqs), _seq(furniture)

    def in_structure(found: str) -> bool:  # a short line ("Share") must match a whole line
        return found in struct_lines or (len(found.split()) >= SHORT_LINE_WORDS and found in struct_seq)

    kept_seqs = [b.seq for b in kept]
    held = [in_structure(found) or found not in furn_seq for found in kept_seqs]
    kept_counts = [b.words for b in kept]  # a newline ends a word: the text's words are the blocks' words
    kept_words = sum(kept_counts)
    lost = kept_words - sum(n for n, keep in zip(kept_counts, held, strict=True) if keep)
    if lost > LOST_SHARE * kept_words and lost >= LOST_WORDS:  # the pruning took the article itself
        # (a <main> beside it, a wrapper named "sidebar"); not other pages' articles: their permalinks say so
        other_seq = _seq(others)
        held = [keep or not (found.strip() and found in other_seq) for found, keep in zip(kept_seqs, held, strict=True)]
    body = [b for b, keep in zip(kept, held, strict=True) if keep]
    body_seqs = [found for found, keep in zip(kept_seqs, held, strict=True) if keep]
    kept_seq, kept_lines, places = joined_seq(kept_seqs), set(kept_seqs), defaultdict[str, list[int]](list)
    kept_heads = {(b.seq, b.level) for b in body if b.kind == "h"}
    for n, found in enumerate(body_seqs):  # by their letters: trafilatura may glue two words ("mostpowerful")
        places[found.replace(" ", "")].append(n)
    counts, seen = Counter(letters), Counter[str]()
    anchors = []  # a line the tree repeats ("Read more" under every card) only where trafilatura kept each, in order
    for found in letters:
        at = places.get(found, ())
        anchors.append(at[seen[found]] if len(at) == counts[found] or (at and counts[found] == 1) else -1)
        seen[found] += 1
    following, nxt = [len(body)] * len(structure), len(body)
    for i in range(len(structure) - 1, -1, -1):
        following[i] = nxt
        nxt = anchors[i] if anchors[i] >= 0 else nxt

    def taken(i: int, kind: str, found: str, pos: int) -> bool:  # trafilatura kept the line's words: no missed line
        if kind == "h":  # a heading as a line of its own; one the tree shows more often than trafilatura kept it, as
            # a heading of its rank or at this place: not yet written, before the next line it kept after this one (a
            # post's <h1> headline, which it dropped, again as its recipe card's <h2> name, further down; an infobox's
            # row "History", written already, over the article's section)
            fewer = len(places.get(letters[i], ())) < counts[letters[i]]
            return found in kept_lines and (not fewer or (found, structure[i].level) in kept_heads
                                            or found in body_seqs[pos:following[i]])
        named = found in names and i + 1 < len(structure) and (  # a grid's name, before its line (kept, or marked)
            anchors[i + 1] >= 0 or structure[i + 1].marked)
        return (found in kept_seq and not named) or _holds_kept(found, body_seqs[:following[i]])

    out: list[Block] = []
    pos, added = 0, set[str]()
    anchored, host = set(anchors), urlsplit(url).hostname or ""
    for i, b in enumerate(structure):
        if anchors[i] >= pos:
            out.extend(body[pos : anchors[i]])
            out.append(_from_tree(body[anchors[i]], b))
            pos = anchors[i] + 1
            continue
        found = struct_seqs[i]
        if pos < len(body) and pos not in anchored and _fuller(body[pos], b):
            out.append(replace(body[pos], text=b.text, md=b.md))
            pos += 1
            continue
        header = b.kind == "row" and b.level == 1 and i + 1 < len(structure) and anchors[i + 1] >= 0
        framed = not (b.marked or header) and (_frame_content(b) or (i + 1 < len(structure) and _name_over(
            b, structure[i + 1], host) and (anchors[i + 1] >= 0 or _frame_content(structure[i + 1]))))
        if framed and found in added:
            continue  # a slideshow's caption repeated per slide
        if (b.marked or header or framed) and anchors[i] < 0 and not taken(i, b.kind, found, pos):
            out.extend(body[pos : following[i]])
            pos = max(pos, following[i])
            if b.kind == "code" and out and out[-1].kind == "code" and out[-1].seq in found:
                out.pop()  # trafilatura's copy of the block, cut at its first line break (Prism's <br> in a <code>)
            out.append(b)
            added.add(found)
    out += body[pos:]
    return [replace(b, level=0) if b.kind == "row" and b.level == 1 and n and out[n - 1].kind == "row" else b
            for n, b in enumerate(out)]  # a header row put back above trafilatura's first row: one table


def _without_orphans(blocks: list[Block], headlines: AbstractSet[str] = frozenset(),
                     structured: Sequence[Block] = ()) -> list[Block]:
    """Less the headings the frame added over nothing: the label of a section left out ("Suggested Topics" over
    a rail of other pages, "Related" over teasers), followed by no line before the next heading of its rank. A
    card's title (a heading inside the card's link) is the card's content on its own, and the page's headline
    (`headlines`, as `seq`s) heads the page, whatever rank its first section has (a blog theme's `<h2>` title
    over the post's own `<h2>`s). So is an entry's title the caller marked when the line after it in the tree
    (`structured`), not a heading, is in the text elsewhere: trafilatura read the first of a page's `<article>`s
    first, so its excerpt leads the text and its title stands over the next entry's. A heading followed by one of
    higher rank in the same repeated group (`Block.group`) heads its card: a pricing card's plan name in an `<h4>`
    over its price in an `<h1>` (a group's next item begins as this one does, with a heading of this rank).

    >>> h = lambda t, n: Block("h", t, t, n, framed=True)
    >>> p = Block("p", "Body", "Body")
    >>> [b.text for b in _without_orphans([h("Title", 1), p, h("Suggested", 3)])]
    ['Title', 'Body']
    >>> [b.text for b in _without_orphans([h("Part", 2), h("Step", 3), p, h("Related", 2), h("Next", 2), p])]
    ['Part', 'Step', 'Body', 'Next', 'Body']
    >>> [b.text for b in _without_orphans([h("FAQ", 2), h("Why", 2), p], {" faq "})]
    ['FAQ', 'Why', 'Body']
    >>> otters, gist = Block("h", "Otters", "", 3, marked=True, framed=True), Block("p", "Nine came back.", "")
    >>> [b.text for b in _without_orphans([gist, otters, h("Herons", 3), p], structured=[otters, gist])]
    ['Nine came back.', 'Otters', 'Herons', 'Body']
    >>> card = lambda t, n: Block("h", t, t, n, framed=True, group=0)
    >>> [b.text for b in _without_orphans([card("Starter", 4), card("$0", 1), p, card("Team", 4), card("$29", 1), p])]
    ['Starter', '$0', 'Body', 'Team', '$29', 'Body']
    >>> [b.text for b in _without_orphans([card("Rail", 3), card("Teaser", 3), card("Teaser 2", 3)])]
    []
    """
    after: dict[int, str] = {}  # a marked heading of the tree -> the line after it there
    if any(b.marked and b.kind == "h" for b in blocks):
        after = {id(b): nxt.seq for b, nxt in pairwise(structured) if b.marked and b.kind == "h" and nxt.kind != "h"}
    present = {b.seq for b in blocks} if after else set()
    bare = _bare_sections(blocks, structured, headlines)
    out = []
    for n, b in enumerate(blocks):
        if b.kind == "h" and b.framed and not b.carded and b.seq not in headlines and (
                id(b) in bare or _ends(b, blocks[n + 1] if n + 1 < len(blocks) else None)) \
                and after.get(id(b)) not in present:
            continue
        out.append(b)
    return out


def _bare_sections(blocks: Sequence[Block], structured: Sequence[Block], headlines: AbstractSet[str]) -> set[int]:
    """The ids of the framed headings of the tree (`structured`) whose section there, the lines after each up to the
    next heading of its rank or higher, has lines and none of them in the text (`blocks`): "Like this:" over a like
    button's "Like Loading...", a label over what was left out. A line is in the text when its words stand there,
    or a line of the text (`SHORT_LINE_WORDS` words or more) stands in it: trafilatura may cut a line in two. A
    section with no line is not judged here (Doxygen's "Enumeration Type Documentation", an `<h2>` over `<h2>`s),
    nor is a heading of no rank (level 0: the words of a heading before a block inside it), nor the headline's
    standfirst, right under it (`headlines`, as `seq`s), over a byline and a video's "close" button.

    >>> h = lambda t, n: Block("h", t, t, n, framed=True)
    >>> like, recent, said = h("Like this:", 3), h("Recent comments", 3), Block("p", "Ann: So sad.", "")
    >>> tree = [like, Block("p", "Like Loading...", ""), recent, said]
    >>> [b.text for b in _without_orphans([like, said], structured=tree)]
    ['Ann: So sad.']
    >>> title, gist = h("Sales miss", 1), h("The retailer earned $2.8 billion.", 2)
    >>> body = Block("p", "The story", "")
    >>> [b.text for b in _without_orphans([title, gist, body], {title.seq}, [title, gist, Block("p", "close", "")])]
    ['Sales miss', 'The retailer earned $2.8 billion.', 'The story']
    """
    heads = [n for n, b in enumerate(structured) if b.kind == "h" and b.framed and not b.carded and b.level
             and not (n and structured[n - 1].seq in headlines)]
    if not heads:
        return set()
    seqs = [b.seq for b in blocks]
    text, long = joined_seq(seqs), [found for found in seqs if word_count(found) >= SHORT_LINE_WORDS]
    bare = set()
    for n in heads:
        section = []
        for line in structured[n + 1:]:
            if line.level and _ends(structured[n], line):
                break
            if line.seq.strip():
                section.append(line.seq)
        if section and not any(found in text or any(kept in found for kept in long) for found in section):
            bare.add(id(structured[n]))
    return bare


def _ends(b: Block, nxt: Block | None) -> bool:
    """Whether heading `b`'s section ends before it holds a line: `nxt`, the line after it, is none or a heading of its
    rank or higher, but for a heading of higher rank in the same group, the same card's (its price in an <h1> under
    its <h4> title)."""
    return nxt is None or (nxt.kind == "h" and nxt.level <= b.level
                           and not (0 <= b.group == nxt.group and nxt.level < b.level))


def _without_repeats(blocks: list[Block]) -> list[Block]:
    """Less a line that repeats the line just before it word for word: a layout's copies of one box for two screen
    widths (Bootstrap's `hidden-xs` and `hidden-lg` bylines, "Associated Press November 19, 2019, 9:02 AM" twice), of
    which a reader sees one. Only paragraphs and quotes: a list may list a thing twice ("SOLD!" under each lot), a
    heading may head a section named as the one before, and a table's rows and a code block's lines are as written.

    >>> p = lambda t, k="p": Block(k, t, t)
    >>> [b.text for b in _without_repeats([p("AP, Nov 19"), p("AP, Nov 19"), p("Text."), p("SOLD!", "li"),
    ...                                    p("SOLD!", "li"), p("Text.")])]
    ['AP, Nov 19', 'Text.', 'SOLD!', 'SOLD!', 'Text.']
    """
    return [b for n, b in enumerate(blocks)
            if not (n and b.kind not in _AS_WRITTEN and b.text == blocks[n - 1].text and b.md == blocks[n - 1].md)]


_AS_WRITTEN = frozenset({"row", "code", "li", "h"})  # kinds of lines a page may repeat on purpose
# a line cut short: its words, an ellipsis, then a toggle's label of a word or two ("… more")
_CUT = re.compile(r"^(.+?)\s*(?:\.\.\.|…)\s+\S+(?:\s+\S+)?\s*$")
CUT_WORDS = 6  # the words a cut line keeps at least: shorter, it names no line of the text
PROMO_LABEL_WORDS = 3  # a promo's label ("Related:", "READ MORE:") at most
PROMO_TITLE_WORDS = 4  # ... and its link's title at least (words between spaces: a URL is one)
COUNTER_WORDS = 4  # a line of counters and buttons at most ("0 Replies: 1")


def _without_cut_copies(blocks: list[Block]) -> list[Block]:
    """Less a line that is the start of another line of the text cut short by an ellipsis and a toggle's label after
    it, outside any link: a gallery's truncated caption beside the full one ("… more" and "less" toggle between
    them), of which a reader sees one. An excerpt whose full text is on another page stays, and so do copies of one
    cut line, a summary closing on a link's "More..." to its details, and a sentence trailing off ("That is human
    nature..."), which another line may quote and go on from.

    >>> p = lambda t: Block("p", t, t)
    >>> full = "Nelson puts the winning goal behind the goaltender during the game in Pittsburgh. The Islanders won."
    >>> cut = p("Nelson puts the winning goal behind the goaltender during the game ... more")
    >>> teaser, trailing = p("A teaser of another story ... more"), p("Nelson puts the winning goal behind the...")
    >>> [b.text for b in _without_cut_copies([p(full + " less"), cut, teaser, trailing])][1:]
    ['A teaser of another story ... more', 'Nelson puts the winning goal behind the...']
    """
    cut = {n: found for n, b in enumerate(blocks) if ("..." in b.text[-24:] or "…" in b.text[-24:])
           and (m := _CUT.match(_MD_LINK.sub(" ", b.md))) and word_count(found := _seq(m[1]).rstrip()) >= CUT_WORDS}
    if not cut:
        return blocks
    return [b for n, b in enumerate(blocks) if n not in cut or not any(
        other.seq.startswith(cut[n]) and cut.get(k) != cut[n] for k, other in enumerate(blocks))]


def _without_promos(blocks: list[Block], url: str) -> list[Block]:
    """Less a paragraph set between two paragraphs that is a label (`PROMO_LABEL_WORDS` words at most, ending in a
    colon) and then one link to another page of the site, titled (`PROMO_TITLE_WORDS` words or more), and nothing
    after: a promo of another story inserted in the body ("Related: The 15 weirdest galaxies", "READ MORE: ..."),
    which trafilatura keeps as a paragraph. A mail address, a link elsewhere, a sentence around its link or a line
    closing the text stays.

    >>> p = lambda md: Block("p", _MD_LINK.sub(r"\\1", md), md)
    >>> body = [p("The simulation took two years."), p("Related: [The 15 Weirdest Galaxies in Our Universe](/g)"),
    ...         p("Email: [ann@example.org](mailto:ann@example.org)"), p("It ran on a supercomputer.")]
    >>> [b.text for b in _without_promos(body, "https://news.example/sim")]
    ['The simulation took two years.', 'Email: ann@example.org', 'It ran on a supercomputer.']
    """
    host = urlsplit(url).hostname or ""
    return [b for n, b in enumerate(blocks) if not (
        0 < n < len(blocks) - 1 and blocks[n - 1].kind == blocks[n + 1].kind == "p" and _promo_line(b, host))]


def _promo_line(b: Block, host: str) -> bool:
    """Whether a line is a label, then one titled link to a page on `host` (see `_without_promos`)."""
    if b.kind != "p" or "](" not in b.md:
        return False
    links = list(_MD_LINK.finditer(b.md))
    if len(links) != 1:
        return False
    link, target = links[0], urlsplit(links[0][2])
    label = b.md[:link.start()].strip(" *_")
    return target.scheme in ("http", "https", "") and (target.hostname or host) == host and len(
        link[1].split()) >= PROMO_TITLE_WORDS and label.endswith(":") and 0 < word_count(
        label) <= PROMO_LABEL_WORDS and not b.md[link.end():].strip(" *_.")


def _without_counters(blocks: list[Block], url: str) -> list[Block]:
    """Less a short line (`COUNTER_WORDS` words at most) of numbers and links back to the page itself: a post's
    counters beside a script's button (NodeBB's vote count "0" and its `<a href="#">` "Replies: 1", which opens the
    replies in place). A line of links alone ("Back to top", a table of contents's entry) is not read here.

    >>> here = "https://forum.test/topic/3/bees"
    >>> lines = [Block("li", "0 Replies: 1", f"0 [Replies: 1]({here})"), Block("li", "Top", f"[Top]({here})"),
    ...          Block("li", "3 Replies", "3 [Replies](https://forum.test/topic/4)")]
    >>> [b.text for b in _without_counters(lines, here + "#post-2")]
    ['Top', '3 Replies']
    """
    here = page_address(url)
    return [b for b in blocks if not _counter(b, here)]


def _counter(b: Block, here: str) -> bool:
    """Whether a line is numbers and links to the page `here` (a `page_address`) alone (see `_without_counters`)."""
    if b.kind not in ("p", "li") or "](" not in b.md or b.words > COUNTER_WORDS:
        return False
    links = list(_MD_LINK.finditer(b.md))
    outside = word_list(_MD_LINK.sub(" ", b.md))
    return bool(links) and bool(outside) and all(t.isdigit() for t in outside) and all(
        page_address(m[2]) == here for m in links)


def _without_bars(blocks: list[Block], structured: Sequence[Block], headlines: AbstractSet[str]) -> list[Block]:
    """Less the rows of links over the page's headline (`headlines`, as `seq`s) that trafilatura kept: a breadcrumb,
    an archive's "[Date Prev][Date Next][Thread Index]" bar. A row is a line of the tree of two links or more, holding
    more than half of its words (the current place may be no link: "[Date Prev]" on the first message).

    >>> bar = Block("p", "[Prev][Next]", "[[Prev](/1)][[Next](/2)]", link_words=2)
    >>> head, body = Block("h", "Star party", "Star party", 1), Block("p", "Dear all,", "Dear all,")
    >>> [b.text for b in _without_bars([replace(bar, link_words=0), head, body], [bar, head, body], {" star party "})]
    ['Star party', 'Dear all,']
    >>> [b.text for b in _without_bars([head, replace(bar, link_words=0), body], [bar, head, body], {" star party "})]
    ['Star party', '[Prev][Next]', 'Dear all,']
    """
    top = next((n for n, b in enumerate(blocks) if b.kind == "h" and b.seq in headlines), 0)
    if not top:
        return blocks
    rows = {b.seq for b in structured if 2 * b.link_words > b.words and b.md.count("](") >= 2}
    return [b for n, b in enumerate(blocks) if n >= top or b.seq not in rows]


def _without_chrome(blocks: list[Block], structured: list[Block], sizes: list[int]) -> list[Block]:
    """Less the link labels a list's items repeat word for word ("Read more" under each post of a blog's index): the
    list's controls, not its entries. A label is a link of `LABEL_WORDS` words or fewer alone on its line, in a
    group's item, that half of the group's items or more hold (`sizes`: the items of each group, by index), each
    leading to a page of its own: a reply's author, linked to the same profile in each, is no label. A label that
    leads where a title of its group leads (a heading or a longer line that is all a link) is one too, however few
    items hold it, unless it lies inside the card's own link with the title (`Block.carded`: the card's summary).
    A line naming a number is no label (the entry's date or price, linked to it; two comments of one day).

    >>> b = lambda t, g, to: Block("p", t, f"[{t}]({to})", group=g, link_words=len(t.split()))
    >>> rows = [b("Opening day at the harbour", 0, "/a"), b("Read more", 0, "/a"), b("Sea kale seeds", 0, "/b"),
    ...         b("Read more", 0, "/b"), b("wren", 1, "/u/wren"), b("wren", 1, "/u/wren")]
    >>> [x.text for x in _without_chrome(rows, rows, [2, 2])]
    ['Opening day at the harbour', 'Sea kale seeds', 'wren', 'wren']
    >>> [x.text for x in _without_chrome(rows[:3], rows[:3], [2])]
    ['Opening day at the harbour', 'Sea kale seeds']
    """
    seen: dict[tuple[int, str], list[str]] = {}  # each label, by group: its Markdown (the link) where it stands
    titled: set[tuple[int, str]] = set()  # where a group's other linked lines lead
    for b in structured:
        if _label(b):
            seen.setdefault((b.group, b.seq), []).append(b.md)
        elif b.group >= 0 and "](" in b.md and (b.kind == "h" or b.link_words >= b.words):  # a title, all link
            titled.update((b.group, href) for _, href in _MD_LINK.findall(b.md))
    if not seen:
        return blocks

    def control(b: Block) -> bool:  # a label that half the group's items repeat, or that leads where its title leads
        if any(c.isdigit() for c in b.text):
            return False  # a date or a price (two comments of one day, each linked to itself)
        links = seen.get((b.group, b.seq), ())
        if len(links) > 1 and 2 * len(links) >= sizes[b.group] and len(set(links)) > 1:
            return True
        return not b.carded and any((b.group, to) in titled for _, to in _MD_LINK.findall(b.md))

    return [b for b in blocks if not (_label(b) and control(b))]


def _label(b: Block) -> bool:
    """A link of a few words alone on its line in a group's item ("Read more", "Sign in here"), not a heading."""
    return b.group >= 0 and b.kind != "h" and b.words <= LABEL_WORDS and b.link_words >= b.words


_LINK_LABEL = re.compile(r"\[([^\]]*)\]\(")  # a link's label in a line's Markdown


def _holds_kept(found: str, kept: Sequence[str]) -> bool:
    """Whether lines trafilatura kept (`kept`: those before this one in the text) are most of a tree's line's words,
    two different lines or more: one element holding several of the article's paragraphs (a layout table's cell,
    apart by `<br>`s only), whose copy would read them twice.

    >>> kept = [" the fire department tapped into the city s system ", " a gis application allowed more records "]
    >>> _holds_kept(" with citizens safe" + kept[0] + kept[1][1:], kept), _holds_kept(" safe" + kept[0], kept)
    (True, False)
    """
    words = seq_words(found)
    if words < 2 * SHORT_LINE_WORDS:  # too short to hold two lines of a sentence's length, one after the other
        return False
    held = [n for line in set(kept) if (n := seq_words(line)) >= SHORT_LINE_WORDS and line in found]
    return len(held) > 1 and 2 * sum(held) > words


def _fuller(kept: Block, tree: Block) -> bool:
    """Whether the tree's line is trafilatura's with words it left out (an inline element it removed by its class
    name: "closed by <span class=author>ann</span>"): the same kind of line, all of the kept words in order, the
    kept words most of the line's, and the others outside its links or in a link trafilatura kept most of (a link
    it dropped whole is a menu's).

    >>> p = lambda text, md="": Block("p", text, md or text)
    >>> _fuller(p("Ticket 5 closed by"), p("Ticket 5 closed by ines", "[Ticket 5 closed by ines](/t/5)"))
    True
    >>> _fuller(p("Staff in the News"), p("Staff in the News TechBytes", "Staff in the News [TechBytes](/tb)"))
    False
    >>> _fuller(p("Posted by"), p("Posted by Ann Lee on May 4"))
    False

    A table's row is fuller when trafilatura emptied cells of it (a repository's file list, each commit message in
    a `td.message`, which it removes by its class name) and kept the others as they are.

    >>> row = lambda text: Block("row", text, "")
    >>> _fuller(row("docs |  | "), row("docs | Document the offsets | 3 days ago")), _fuller(row("a | "), row("b | c"))
    (True, False)
    """
    if kept.kind == tree.kind == "row":
        cells, full = kept.text.split(" | "), tree.text.split(" | ")
        return len(cells) == len(full) and cells != full and all(
            not cell.strip() or _seq(cell) == _seq(other) for cell, other in zip(cells, full, strict=True))
    if kept.kind != tree.kind or kept.kind not in ("p", "li", "h"):
        return False
    mine, theirs = kept.seq.split(), tree.seq.split()
    if not mine or len(theirs) <= len(mine) or 2 * len(mine) < len(theirs):
        return False
    it = iter(theirs)
    if not all(w in it for w in mine):
        return False
    if "](" not in tree.md:
        return True
    added, held = Counter(theirs) - Counter(mine), set(mine)
    dropped: Counter[str] = Counter()
    for link in _LINK_LABEL.findall(tree.md):
        words = _seq(link).split()
        if 2 * sum(w in held for w in words) < len(words):
            dropped.update(words)
    return not added & dropped


def _in_tree_order(kept: list[Block], letters: Sequence[str]) -> list[Block]:
    """trafilatura's lines in the tree's order: a line of a sentence's length (`SHORT_LINE_WORDS` words or more) that
    is one line of the tree, shown once there and kept once, stands where the tree shows it, and each other line
    stays before the next such line (after the last one: after it). trafilatura may write a page's intro after the
    first card of the grid under it (the order it walks a `<main>`'s children in); a reader reads the intro first. A
    short line ("enum hl_status {", a name) is no place: the tree may show it once where trafilatura kept it from a
    table row of other words.

    >>> b = lambda t: Block("p", t, t)
    >>> intro, ann = b("An intro to the people of the school"), b("Ann Reed studies the tides of the bay")
    >>> bob = b("Bob Lee counts the birds of the estuary")
    >>> tree = [x.seq.replace(" ", "") for x in (intro, b("Ann Reed"), ann, bob)]
    >>> [x.text[:12] for x in _in_tree_order([b("Ann Reed"), ann, intro, bob], tree)]
    ['An intro to ', 'Ann Reed', 'Ann Reed stu', 'Bob Lee coun']
    """
    shown = Counter(letters)  # the tree's lines (`letters`: by their letters)
    where = {found: i for i, found in enumerate(letters) if shown[found] == 1}
    kept_letters = [b.seq.replace(" ", "") for b in kept]
    kept_counts = Counter(kept_letters)
    places = [where.get(found, -1) if b.words >= SHORT_LINE_WORDS and kept_counts[found] == 1 else -1
              for b, found in zip(kept, kept_letters, strict=True)]
    keys, nxt = [0] * len(kept), next((place for place in reversed(places) if place >= 0), -1)
    for n in range(len(kept) - 1, -1, -1):  # each line without a place goes with the next one that has one
        nxt = places[n] if places[n] >= 0 else nxt
        keys[n] = nxt
    if all(a <= z for a, z in pairwise(keys)):
        return kept  # (most pages: trafilatura wrote them in order)
    return [b for _, b in sorted(zip(keys, kept, strict=True), key=lambda pair: pair[0])]


GLUE_KEY = 8  # letters: the tree's lines are looked up by their first letters


def _unglued(kept: list[Block], structure: Sequence[Block], letters: Sequence[str]) -> list[Block]:
    """trafilatura's lines, each that is two lines of the tree or more, one after the other, each of a block-level
    element of its own (`Block.here`), glued, as those lines: a card's name, role and email, each a `<div>` of its
    own, which trafilatura wrote as one paragraph ("Ann Reed Professor ann@uni.edu"). A reader sees them apart.
    Lines are compared by their letters (`letters`: the tree's lines'); the parts of one element's text (apart where
    an inline element is bounded: "Note:" in `<strong>`, "See TracTimeline") stay one line.

    >>> tree = [Block("h", "Ann Reed", "[Ann Reed](/ann)", 2, here=1), Block("p", "Professor", "Professor", here=2),
    ...         Block("p", "ann@uni.edu", "[ann@uni.edu](mailto:ann@uni.edu)", here=3)]
    >>> by = lambda blocks: [b.seq.replace(" ", "") for b in blocks]
    >>> [(b.kind, b.md) for b in _unglued([Block("p", "Ann Reed Professor ann@uni.edu", "")], tree, by(tree))]
    [('h', '[Ann Reed](/ann)'), ('p', 'Professor'), ('p', '[ann@uni.edu](mailto:ann@uni.edu)')]
    >>> kept = [Block("p", "Ann Reed Professor", ""), Block("p", "Professor", "")]
    >>> [b.text for b in _unglued(kept, tree[1:], by(tree[1:]))]
    ['Ann Reed Professor', 'Professor']
    >>> inline = [Block("p", "Note:", "", here=4), Block("p", "See the guide.", "", here=4)]
    >>> [b.text for b in _unglued([Block("p", "Note: See the guide.", "")], inline, by(inline))]
    ['Note: See the guide.']
    """
    lines = set(letters)
    starts: dict[str, list[int]] | None = None  # the tree's lines by their first letters, when a kept line is none
    out: list[Block] = []
    for b in kept:
        whole = b.seq.replace(" ", "")
        parts: Sequence[int] = ()
        if b.kind not in ("h", "row", "code") and whole not in lines:
            if starts is None:
                starts = defaultdict(list)
                for j, found in enumerate(letters):
                    if found:
                        starts[found[:GLUE_KEY]].append(j)
            parts = _glued_from(whole, letters, starts, structure)
        if parts:
            out.extend(replace(structure[j], marked=False, framed=False) for j in parts)
        else:
            out.append(b)
    return out


def _glued_from(whole: str, letters: Sequence[str], starts: Mapping[str, list[int]],
                structure: Sequence[Block]) -> range:
    """The tree's lines (`structure`, by their `letters`, indexed by their first letters in `starts`) that are
    `whole`, two or more, one after the other, each of another element (`Block.here`); empty when none are."""
    for n in range(1, min(GLUE_KEY, len(whole)) + 1):
        for j in starts.get(whole[:n], ()):
            rest, k = whole, j
            while k < len(letters) and rest and rest.startswith(letters[k]):
                rest, k = rest[len(letters[k]):], k + 1
            if not rest and k - j > 1 and len({structure[i].here for i in range(j, k)}) == k - j:
                return range(j, k)
    return range(0)


def _from_tree(kept: Block, tree: Block) -> Block:
    """trafilatura's block with the tree's text and Markdown when the two differ by spaces at most: the tree's
    spacing (trafilatura may drop the space `separate_words` put between two inline elements: "up.”by Ann"),
    and its links (trafilatura is not asked to mark links, `text.trafilatura_xml`).

    >>> _from_tree(Block("p", "up.”by Ann", "up.”by Ann"), Block("p", "up.” by Ann", "up.” by [Ann](/a)")).md
    'up.” by [Ann](/a)'
    >>> _from_tree(Block("p", "up. by Ann", "up. by Ann"), Block("p", "up by Ann", "up by Ann")).text
    'up. by Ann'

    A `<pre>` trafilatura took for a quote is the tree's code block, its lines kept:

    >>> _from_tree(Block("quote", "a,1 b,2", "a,1 b,2"), Block("code", "a,1\\nb,2", "a,1\\nb,2")).kind
    'code'

    The same text and Markdown: trafilatura's block itself, which `replace` would copy (most lines).

    >>> line = Block("p", "Hello", "Hello")
    >>> _from_tree(line, Block("p", "Hello", "Hello")) is line
    True
    """
    if kept.text == tree.text and kept.md == tree.md:
        return kept
    if kept.kind == "quote" and tree.kind == "code" and kept.text.split() == tree.text.split():
        return tree  # a <pre> with no mark of code in it (a data file's lines), which trafilatura makes a quote
    if kept.kind != tree.kind or kept.text.replace(" ", "") != tree.text.replace(" ", ""):
        return kept
    return replace(kept, text=tree.text, md=tree.md)


def relinked(blocks: list[Block], structure: list[Block],
             links: Callable[[Collection[str]], Mapping[str, str]]) -> list[Block]:
    """The links of the page put back in lines of trafilatura's that carry none (it is not asked to mark them,
    and a line it split otherwise does not take the tree's Markdown, `_from_tree`): a line that is part of one
    line of the pruned tree takes that line's links whose labels it holds, in order; a line that is a link's
    whole label anywhere on the page, that link (`links`: the page's links of the labels asked for, one address
    each, `blocks.page_links`: a menu or a directory it kept).

    >>> tree = [Block("li", "Unit studies: Africa, Asia", "Unit studies: [Africa](/af), [Asia](/as)")]
    >>> kept = [Block("li", "Africa, Asia", "Africa, Asia"), Block("p", "Asia", "Asia"), Block("li", "Home", "Home")]
    >>> [b.md for b in relinked(kept, tree, lambda labels: {"Home": "/"})]
    ['[Africa](/af), [Asia](/as)', '[Asia](/as)', '[Home](/)']
    >>> relinked([Block("p", "Edit it", "Edit it")], [Block("p", "Edit it", "Edit [it](/e)")], dict)[0].md
    'Edit [it](/e)'
    """
    joined, starts = "", []
    for b in structure:
        starts.append(len(joined))
        joined += b.seq
    # the tree lines with links, joined: a line part of none of them is loose wherever it stands first in the tree
    # (most are: the search of the whole tree is left for the few that are part of one)
    linked = "".join(b.seq for b in structure if "](" in b.md)
    out: list[Block] = []
    loose: list[int] = []  # the bare lines that are part of no tree line with links
    for b in blocks:
        bare = b.md == b.text and b.kind not in ("row", "code")  # a line with no Markdown of its own
        pos = joined.find(b.seq) if bare and b.seq.strip() and b.seq in linked else -1
        at = bisect.bisect_right(starts, pos) - 1 if pos >= 0 else -1
        if at < 0 or pos + len(b.seq) > starts[at] + len(structure[at].seq) or "](" not in structure[at].md:
            if bare:
                loose.append(len(out))
            out.append(b)
            continue
        md, cursor = b.text, 0
        for label, href in _MD_LINK.findall(structure[at].md):
            place = word_at(md, label, cursor)
            if place >= 0:
                link = f"[{label}]({href})"
                md, cursor = md[:place] + link + md[place + len(label):], place + len(link)
        out.append(replace(b, md=md) if md != b.text else b)
    whole = links({out[n].text for n in loose}) if loose else {}
    for n in loose:
        if href := whole.get(out[n].text):
            out[n] = replace(out[n], md=f"[{out[n].text}]({href})")
    return out


def _frame_content(b: Block) -> bool:
    """A block of the article frame that trafilatura left out and a reader takes for the page's own:
    a headline, standfirst, caption, a card's title, a paragraph holding a link; not a label, a byline
    or dateline, a bare URL or a row of links."""
    if not b.framed:
        return False  # (before its words are listed: most of the tree's lines are outside the frame)
    tokens = word_list(b.text)
    n = len(tokens)
    if n and b.kind == "p" and _CODE_LINE.fullmatch(b.md):
        return True  # code however short, no byline or label: `#include "hivelog.h"`, a command to type
    if n < (FRAME_HEADING_WORDS if b.kind == "h" else FRAME_LINE_WORDS):
        return False
    if b.kind != "code" and not (b.kind == "h" and b.level == 1) and _dateline(b, tokens, b.kind == "h"):
        return False  # a byline, dateline or timestamp ("Posted by Ann on November 19, 2019, 6:21 AM"), a copyright
        # line; a line naming a year and no day or time ("13th") is a reference, an event, a bio, no date ("recorded
        # by the society in 1972", MediaWiki's references); an <h1> with a year is a title ("Month: May 2026")
    if b.kind == "h" and b.carded:
        return True  # a card's title: a heading inside the card's link (a linked headline is not one)
    return b.link_words < FRAME_LINK_SHARE * n and not _URL_LINE.match(b.text)


def _name_over(b: Block, line: Block, host: str) -> bool:
    """Whether a short line of the frame names the `line` after it: the line is one link (a name, to its page on the
    site, on `host`) in a box of its own at the start of the box whose own line follows (an author card's "Marisol
    Quenby" over her role). The caller keeps it where it keeps that line. A link elsewhere ("Subscribe on YouTube")
    is a call to go there.

    >>> name = Block("p", "Ann Lee", "[Ann Lee](http://h/authors/ann)", framed=True, link_words=2,
    ...              path="/header/div.a/div.n")
    >>> role = Block("p", "Head librarian", "Head librarian", framed=True, path="/header/div.a")
    >>> _name_over(name, role, "h"), _name_over(name, replace(role, path="/header/div.b"), "h")
    (True, False)
    >>> _name_over(name, role, "elsewhere.example")
    False
    """
    if not (b.framed and not b.marked and line.framed and b.link_words == b.words < FRAME_LINE_WORDS
            and b.path.rpartition("/")[0] == line.path):
        return False
    link = _MD_LINK.fullmatch(b.md)
    return link is not None and urlsplit(link[2]).hostname == host


def _without_closing_dateline(blocks: list[Block], comments: Sequence[Comment]) -> list[Block]:
    """`blocks` less the last when it is a paragraph that dates the page or claims its copyright (`_dateline`), after
    its content: "Last modified: 2026/12/06 00:00 by ann", "Copyright © 2019 Press TV", "First Published on Nov 20,
    2019". A date closes a series when another line is one too: the last comment's byline ("Posted by: Ann at Nov
    27, 2004"), the last post's on a blog's page; it stays, as do the comments' bylines, a quotation's attribution
    ("— Ann (@ann) November 19, 2019"), a line opening with a number (a ranked list's "100. Beyonce (-)", an
    item's "30\"H x 21\"D") and one whose numbers name no date (no year, time of day or date in three parts: a
    contact line's phone number).

    >>> p = lambda t: Block("p", t, t)
    >>> [b.text for b in _without_closing_dateline([p("Otters came back."), p("Last modified: 2026/12/06")], [])]
    ['Otters came back.']
    >>> bylines = [p("Posted by: Bo at Nov 26, 2004 9:12 AM"), p("Nice."), p("Posted by: Ann at Nov 27, 2004 10:31 AM")]
    >>> len(_without_closing_dateline([p("Otters."), *bylines], [])), len(_without_closing_dateline(bylines[1:], []))
    (4, 1)
    >>> len(_without_closing_dateline(bylines[1:], [Comment(author="Ann", text=f"Nice.\\n{bylines[2].text}")]))
    2
    >>> contact = [p("Get in touch."), p("hello@fieldwork.co.uk · 0117 496 0732")]
    >>> _without_closing_dateline(contact, []) == contact
    True
    >>> phone = [p("Get in touch."), p("Call 216-555-0142")]
    >>> _without_closing_dateline(phone, []) == phone
    True
    """
    if len(blocks) < 2:
        return blocks
    last, tokens = blocks[-1], word_list(blocks[-1].text)
    claimed = "©" in last.text or "copyright" in last.seq
    if last.kind != "p" or not last.text[:1].isalpha() or not _dateline(last, tokens) or not (
            claimed or any(_YEAR.fullmatch(t) for t in tokens) or _DATE_OR_TIME.search(last.text)):
        return blocks  # (numbers naming no date are none: a contact line's phone, "hello@… · 0117 496 0732")
    if not claimed and any(
            b.kind == "p" and _dateline(b, word_list(b.text)) for b in blocks[:-1]):
        return blocks  # the last of a series
    return blocks if comments and last.seq in comment_lines((c.author, c.text) for c in comments) else blocks[:-1]


def _dateline(b: Block, tokens: list[str], heading: bool = False) -> bool:
    """Whether a line of the frame is a byline, dateline or timestamp, by its words outside its links (a reference's
    links back to where it is cited, "↑ 1.0 1.1", are no date): a third of them numbers, or a short line naming a
    year and a day or a time ("13th", "6:21"), or a copyright. A line naming a year alone is a sentence, a caption
    or a bio's ("Warden of the lower river since 2004; I count otters at dawn."), and a `heading` naming one is a
    section's name however few its words ("Flood of 1881"); a heading naming a year and a day is a date (Blogger's
    `<h2 class="date-header">`).

    >>> _dateline(Block("p", "Posted 13 May 2026", "Posted 13 May 2026"), ["Posted", "13", "May", "2026"])
    True
    >>> bio = "Warden of the lower river since 2004; I count otters at dawn."
    >>> _dateline(Block("p", bio, bio), word_list(bio))
    False
    >>> ref = Block("li", "↑ 1.0 1.1 The Navigation Act, 1791.", "↑ [1.0](#r-0) [1.1](#r-1) The Navigation Act, 1791.")
    >>> _dateline(ref, word_list(ref.text))
    False
    >>> [_dateline(Block("h", t, t), word_list(t), True) for t in ("Flood of 1881", "Monday, March 4, 2024")]
    [False, True]
    """
    words = word_list(_MD_LINK.sub(" ", b.md)) if "](" in b.md else tokens
    if not words:
        return False  # all of it a link: a card's title
    n = len(words)
    return (not heading and DATELINE_SHARE * sum(t.isdigit() for t in words) >= n) or (
        n < DATELINE_WORDS and any(_YEAR.fullmatch(t) for t in words)
        and (sum(any(c.isdigit() for c in t) for t in words) > 1 or "©" in b.text or "copyright" in b.seq))


def _outside_words(blocks: list[Block], furniture: str) -> int:
    """The words of `blocks` outside the page's `furniture`: each block's words less the share of its runs of
    `SHINGLE` words that the furniture holds (trafilatura's balanced mode may return a body dump as one line).

    >>> menu = " ".join(f"Section {i} of the school" for i in range(20))
    >>> _outside_words([Block("p", "Call us on Monday " + menu, "")], menu)
    4
    """
    if not furniture:
        return _words(blocks)
    known = set(_shingles(word_list(furniture.lower())))
    total = 0
    for b in blocks:
        tokens = word_list(b.text.lower())
        runs = _shingles(tokens)
        total += round(len(tokens) * (1 - sum(r in known for r in runs) / len(runs))) if runs else 0
    return total


def _shingles(tokens: list[str]) -> list[tuple[str, ...]]:
    return [tuple(tokens[i:i + SHINGLE]) for i in range(max(1, len(tokens) - SHINGLE + 1))] if tokens else []


def _words(blocks: list[Block]) -> int:
    """`words(to_text(blocks))` without writing the text: a newline ends a word."""
    return sum(b.words for b in blocks)


def _body_blocks(body: str) -> list[Block]:
    return [Block("p", line, line) for line in body.split("\n") if line.strip()]


def _little(n: int, body_words: int, fraction: float = LITTLE_BELOW) -> bool:
    """`text.is_little` of a text of `n` words, with the body's words counted once."""
    return n == 0 or n < fraction * body_words


def meta_contents(tree: HtmlElement, attribute: str, value: str) -> list[str]:
    """The `content` of the document's <meta> elements whose `attribute` is `value`, in document order: the XPath
    `//meta[@attribute="value"]/@content`, without compiling an XPath on each page (its <meta>s are few).

    >>> from lxml.html import fromstring
    >>> t = fromstring('<html><head><meta property="og:title" content="A"><meta property="og:title">'
    ...                '<meta name="og:title" content="B"></head><body><p>x<meta property="og:title" content="C">'
    ...                '</p></body></html>')
    >>> meta_contents(t.find("body/p"), "property", "og:title")
    ['A', 'C']
    """
    return [content for meta in tree.getroottree().getroot().iter("meta")
            if meta.get(attribute) == value and (content := meta.get("content")) is not None]


def site_names(tree: HtmlElement, url: str) -> set[str]:
    """What the page calls its site: og:site_name, application-name, and the labels of links to the
    site's root (the logo link of a header) or, by a relative `./` or `../`, to the section the page is in (a
    section's name over its pages), as word sequences. `./` on `/install/` is the page itself (a docs theme's
    current entry in its menu), not its site.

    >>> from lxml.html import fromstring
    >>> t = fromstring('<div><a href="./">Installation</a><a href="..">Widget Docs</a><a href="#/">App</a></div>')
    >>> sorted(site_names(t, "https://docs.example/install/")), sorted(site_names(t, ""))
    ([' app ', ' widget docs '], [' app ', ' installation '])
    >>> sorted(site_names(t, "https://example.org/views/points.php"))
    [' app ', ' installation ', ' widget docs ']
    """
    names = [*meta_contents(tree, "property", "og:site_name"), *meta_contents(tree, "name", "application-name")]
    root = (urljoin(url, "/") if url else "/").rstrip("/")
    here = url.split("#", 1)[0].split("?", 1)[0].rstrip("/")
    bound = len(root) + 1  # a longer href without dot segments resolves to a longer URL than the root
    for a in tree.iter("a"):
        href = (a.get("href") or "").strip()
        if href in ("/", "#/", "/#/") or (href == "./" and not url):
            pass
        elif not url or not (len(href.rstrip("/")) <= bound or href.startswith(".") or "/." in href):
            continue
        elif (target := resolve(url, href).rstrip("/")) != root and not (
                href.startswith(".") and target != here and here.startswith(target + "/")):
            continue
        names.append(a.text_content())
        names.extend(str(v) for v in a.xpath(".//img/@alt"))
    return {found for n in names if (found := _seq(n)).strip()}


def own_title(document_title: str, og_title: str, headline: str, sites: AbstractSet[str]) -> str:
    """The page's own title: the document title, unless it is only the site's name (one of `sites`):
    then `og:title` when it says more, else the page's headline.

    >>> own_title("Otters return | River News", "", "Otters return", {" river news "})
    'Otters return | River News'
    >>> own_title("Conduit", "", "How to train your dragon", {" conduit "})
    'How to train your dragon'
    >>> own_title("Conduit", "Dragons: a guide", "How to train your dragon", {" conduit "})
    'Dragons: a guide'
    """
    if document_title and _seq(document_title) not in sites:
        return document_title
    if og_title and _seq(og_title) not in sites:
        return og_title
    return headline or document_title or og_title


@dataclass(frozen=True)
class _Chosen:
    blocks: list[Block]
    method: str
    comments: list[Comment]
    headline: str
    fingerprint: str
    template_lines: int


def _hero_in(structure: HtmlElement, hero: HtmlElement) -> HtmlElement:
    """The page's hero (`missed.page_hero`) in its pruned copy `structure`, the top of its content: where the pruning
    left it (a `<div>` before the page's one `<article>`, inside the body the copy is), found as the wrapper as many
    levels above the one `<h1>` of the same words; else (outside a `<main>`, or a page-level `<header>` the pruning
    took) a pruned copy of it, put first in `structure`.

    >>> from lxml.html import fromstring
    >>> page = fromstring('<body><div><h1>Towpath open</h1><p>After four weekends.</p></div><article>x</article>'
    ...                   '</body>')
    >>> structure = copy.deepcopy(page)
    >>> _hero_in(structure, page[0]) is structure[0], len(structure)
    (True, 2)
    >>> main = fromstring('<main><p>Cards</p></main>')
    >>> _hero_in(main, page[0]) is main[0], main[0].text_content()
    (True, 'Towpath openAfter four weekends.')
    """
    headline = next(hero.iter("h1"))
    levels = sum(1 for _ in takewhile(lambda a: a is not hero, headline.iterancestors())) + 1
    words = _seq(headline.text_content())
    same = [h for h in structure.iter("h1") if _seq(h.text_content()) == words]
    if len(same) == 1:
        box = same[0]
        for _ in range(levels):
            box = box.getparent() if box.getparent() is not None else box
        return box
    top = prune_split(copy.deepcopy(hero))[0]
    structure.insert(0, top)
    return top


def _threads_after(tree: HtmlElement, url: str) -> list[HtmlElement]:
    """The lists of the comments the page puts after its `<main>` (`few_comments`): ikiwiki writes them in a
    `<div id="comments" role="complementary">` beside `<div id="content" role="main">`. Readers' comments are
    content wherever the page puts them; the pruning keeps the main alone.

    >>> from lxml.html import fromstring
    >>> page = fromstring('<html><body><main><p>Story</p></main><div role="complementary"><div class="comment">'
    ...                   '<p>Lovely walk.</p><span class="author">ann</span></div></div></body></html>')
    >>> [el.get("role") for el in _threads_after(page, "http://h/walk/")]
    ['complementary']
    """
    main = main_root(tree)
    if main.tag in ("body", "html"):
        return []
    after = [el for el in outside(main) if follows_in_document(el, main)]  # what follows the main
    lists = [g.parent for el in after for g in few_comments(el, [], None, url) if g.parent is el or el in
             g.parent.iterancestors()]
    return list(dict.fromkeys(lists))


def _closing_footers(structure: HtmlElement, end: HtmlElement | None) -> list[HtmlElement]:
    """The `<footer>`s of articles or sections after the last element trafilatura kept (`end`): what HTML puts
    there is about the text, not of it (its copyright notice, its tags, links to other posts), and a short article's
    frame is its whole `<main>` (NexT's post footer: "Copyright Notice", "Welcome to my other publishing channels").

    >>> from lxml.html import fromstring
    >>> t = fromstring('<main><article><p>Story</p><footer>Licensed under CC BY</footer></article></main>')
    >>> [f.text for f in _closing_footers(t, t[0][0])], _closing_footers(t, None)
    (['Licensed under CC BY'], [])
    """
    if end is None:
        return []
    return [f for f in structure.iter("footer") if follows_in_document(f, end)]  # (not one around `end`)


def _headline_in(structure: HtmlElement, line: HtmlElement) -> HtmlElement:
    """The title line before the `<main>` (`missed.title_line`) as the `<h1>` at the top of its pruned copy
    `structure`, which it stands outside of.

    >>> from lxml.html import fromstring
    >>> main = fromstring('<main><p>Cards</p></main>')
    >>> _headline_in(main, fromstring('<span> Grafting <em>old</em> varieties </span>')) is main[0], main[0].text
    (True, 'Grafting old varieties')
    """
    h1 = structure.makeelement("h1", {})
    h1.text = " ".join(line.text_content().split())
    structure.insert(0, h1)
    return h1


def _dropped(elements: Iterable[HtmlElement]) -> list[str]:
    """The visible text of `elements`, one line each, as they leave their tree (their tails stay)."""
    out = []
    for el in elements:
        if el.getparent() is not None:
            out.append(" ".join(" ".join(el.itertext()).split()))
            el.drop_tree()
    return out


def _without_template(blocks: list[Block], structured: list[Block], keys: list[bytes], parent: frozenset[bytes],
                      body_words: int, headlines: AbstractSet[str] = frozenset()) -> list[Block]:
    """`blocks` less the lines the parent shows at the same place (`template.py`), unless that leaves little. The
    headline the document title names (`headlines`, as `seq`s) stays: a blog's index shows each post's title in
    the markup the post heads its own page with. When the text was all template (trafilatura kept a project's title
    area over an index of links: Doxygen's), the page's own lines are the tree's lines the parent does not show
    (`structured`), when they are not little either.

    >>> from bara_scrapy.extraction.template import fingerprint
    >>> here = [Block("h", "Otters", "", 2, path="/article/h2"), Block("p", "Menu", "", path="/div"),
    ...         Block("p", "They came back to the river this spring, all of them.", "", path="/article/p")]
    >>> parent = fingerprint(page_keys(here[:2]))
    >>> [b.text for b in _without_template(here, here, [key(b) for b in here], parent, 12, {" otters "})]
    ['Otters', 'They came back to the river this spring, all of them.']
    >>> [b.text for b in _without_template(here[1:2], here, [key(b) for b in here], parent, 12)]
    ['They came back to the river this spring, all of them.']
    """
    drop = template_lines(structured, keys, parent) - headlines
    if not drop:
        return blocks
    kept = [b for b in blocks if b.seq not in drop]
    if not _little(_words(kept), body_words):
        return kept
    own = [b for b in structured if b.seq.strip() and b.seq not in drop]
    return blocks if _little(_words(own), body_words) else own


def _dump(blocks: list[Block], body_words: int, furniture: str = "", outside_words: int | None = None,
          area: HtmlElement | None = None) -> bool:
    """Whether trafilatura gave the page as one line: its last resort (`baseline`, the body's text; readability's
    summary of a page it could not read), menus and all, on a page of no paragraphs (a forum's list of topics, a
    blog's archive of links, a team of two). The line holds the whole body, or more than `LOST_SHARE` of its words
    are the page's furniture (`outside_words`: the others, `_outside_words` when the caller has not counted them), or
    it holds the whole text of one of the landmarks pruned as furniture (a line of `furniture`, `SHORT_LINE_WORDS` or
    more: a small site's menu) glued to the rest ("Skip to main content", the menu, then the list), or it is the whole
    text of the page's content `area` (the pruned tree) and that area has a heading: the heading glued to what it heads
    (Nikola's tag page: its title, its feed link and its posts in one line). A paragraph never holds a whole menu. Only
    a text of one line is counted.

    >>> line = [Block("p", "Skip to main content Home Blog About Archive January 12 - Opening day", "")]
    >>> _dump(line, 40, outside_words=7), _dump(line, 40, outside_words=12), _dump(line, 12, outside_words=12)
    (True, False, True)
    >>> menu = "Skip to main content Home Blog About Archive"
    >>> _dump(line, 40, menu + "\\nPrivacy", 12), _dump(line, 40, "Home Blog", 12)
    (True, False)
    >>> from lxml.html import fromstring
    >>> tag = fromstring("<article><h1>Posts about moths</h1><ul><li>May 2 <a href='/p'>Lamp safety</a></li></ul>"
    ...                  "</article>")
    >>> glued = [Block("p", "Posts about moths May 2 Lamp safety", "")]
    >>> _dump(glued, 40, outside_words=7, area=tag), _dump(glued, 40, outside_words=7, area=tag[1])
    (True, False)
    """
    if len(blocks) != 1:
        return False
    line = blocks[0]
    outside = _outside_words(blocks, furniture) if outside_words is None else outside_words
    return line.words >= DUMP_SHARE * body_words or outside < (1 - LOST_SHARE) * line.words or any(
        len(menu.split()) >= SHORT_LINE_WORDS and menu in line.seq and menu != line.seq
        for menu in map(_seq, furniture.split("\n"))) or (
        area is not None and next(area.iter(*HEADINGS), None) is not None
        and line.seq.strip() == _seq(" ".join(area.itertext())).strip())


def _choose(tree: HtmlElement, url: str, body: BodyText, title: str = "", parent: frozenset[bytes] = frozenset(),
            sites: frozenset[str] = frozenset(), comment_names: bool = True) -> _Chosen:
    """The blocks, method, comments, headline and fingerprint of a page (`comment_names`: its markup may name
    comments)."""
    pruned: list[tuple[HtmlElement, list[HtmlElement]]] = []
    structure, furniture = prune_split(copy.deepcopy(tree), pruned)
    # where the furniture stood, for the children: a short child keeps a sidebar this page prunes (`template.py`); a
    # key is a place and words, so no link's address is resolved
    furniture_keys = page_keys(placed_blocks(pruned))
    if comment_names and (structure.tag == "main" or structure.get("role") == "main"):
        for thread in _threads_after(tree, url):  # the page's comments, which it puts after its <main>
            structure.append(prune_split(copy.deepcopy(thread))[0])
    parts = urlsplit(url)
    home = parts.path in ("", "/") and not parts.query  # the site's own page: its name heads it
    hero_sites = frozenset() if home else sites  # what may not head the page: on its root page, nothing
    top = None if (hero := page_hero(tree, hero_sites, url)) is None else _hero_in(structure, hero)
    subheading = standfirst(top)  # however short: the frame would take it for a label
    if top is None and (line := title_line(tree, title, hero_sites)) is not None:
        top = _headline_in(structure, line)
    if top is None and main_headline(structure, title, sites) is None and (
            linked := linked_headline(tree, title, url, sites)) is not None:
        top = _headline_in(structure, linked)  # (the pruning took it with its breadcrumb trail)
    paragraphize(tree)
    blocks = trafilatura_blocks(tree, url, precise=True)
    body_words = body.words  # counted once: the body text is the page's longest string
    if _dump(blocks, body_words, furniture, area=structure):
        blocks = []  # no evidence of where the page's content is
    kept_words = _words(blocks)
    if _little(kept_words, body_words, ESCALATE_BELOW):
        broader = trafilatura_blocks(tree, url, precise=False)
        broader_words = _outside_words(broader, furniture)  # a short page's mega-menu is no more content
        if broader_words >= BROADER_FACTOR * kept_words and not _dump(broader, body_words, furniture, broader_words,
                                                                      structure):
            blocks = broader
            kept_words = _words(blocks)
    kept_seq = joined_seq(b.seq for b in blocks)
    in_main = structure.tag == "main" or structure.get("role") == "main"
    kept = kept_container(structure, kept_seq, {b.seq for b in blocks})
    container, end = kept.container, kept.end
    # other pages' <article>s on an article's page (their permalinks lead there): teasers, even where kept
    others = "\n".join(_dropped(others_entries(structure, url, title, sites)))
    # forms to fill in after the text (a reply box and its notes, a sign-up): none of their words are the page's
    furniture = "\n".join([furniture, others, *_dropped(forms_after(structure, kept))])
    groups = repeated_groups(structure)
    # lists of the site's pages, this one too or others of its kind beside its article: furniture, wherever they are
    rails = site_rails(groups, url, kept, kept_words)
    groups = [g for g in groups if g not in rails]
    rail_names = [head for g in rails if (head := rail_heading(g, container)) is not None]  # furniture too
    furniture = "\n".join([furniture, *_dropped([*rail_names, *(item for g in rails for item in g.items)])])
    missed = missed_groups(groups, kept_seq, kept_words, kept, in_main)
    pairs = entry_pairs(structure, url, kept, kept_seq, kept_words)
    left_out = {id(g) for g in missed}  # a run trafilatura kept after its "end" is the article's own
    thread = threads(groups, [is_plain_run(g) for g in groups],
                     [id(g) in left_out and end is not None and follows(g, end) for g in groups])
    # a thread too short to be a group: its comments are content too
    few = few_comments(structure, thread, kept.held, url) if comment_names else []
    if rows := meta_rows(structure):  # "Posted on <time>", "In <category>"; a comment's byline stays
        commented = {el for g in (*thread, *few) for item in g.items for el in item.iter()}
        furniture = "\n".join([furniture, *_dropped(row for row in rows if row not in commented)])
    titled = titled_heading(structure, title, sites)  # the headline the title names, any level, linked or not
    missed, groups = [*missed, *pairs], [*groups, *pairs]  # listings of two (after the threads: no replies)
    if len(alone := [item for g in few for item in g.items]) > 1:  # a short thread's comments, one group's items
        groups.append(Group(alone[0].getparent(), tuple(alone), sum(g.words for g in few),
                            sum(g.link_words for g in few)))
    promos = {item for g in missed for item in inserted_teasers(g, kept)}  # other pages' teasers in the body
    headline = main_headline(structure, title, sites)
    prose = _words([b for b in blocks if b.kind == "p"])  # an article, not a table or a list
    main = main_frame(structure, end, prose >= LONG_ARTICLE) if in_main else ()
    article = article_frame(structure, container)
    own = before_end(article, end) if article is not None else ()
    short = (structure,) if kept_words < FEW_WORDS else ()  # trafilatura found next to nothing: an app's view
    frame = frozenset(el for el in (headline, top, *own, *main, *short) if el is not None)
    # beside their descriptions (kept, in a group it missed or in the frame), even where their words stand elsewhere
    grid = grid_names(structure, joined_seq([kept_seq, *(_seq(item.text_content()) for g in missed for item in g.items
                                                          if item not in promos)]), frame)
    ends = {item for g in missed if g not in thread for item in past_article(g, kept, kept_words)}  # author, tags
    marks = frozenset([*(item for g in (*missed, *few, *thread) for item in g.items
                         if item not in promos and item not in ends), *grid,
                       *(() if titled is None else (titled,)),
                       *(bare_entries(structure, url) if kept_words < FEW_WORDS else ()),
                       *listings_after(structure, url, kept, kept_words), *contents_trees(structure, url, kept),
                       *labelled_indexes(structure, url, kept_seq, kept_words),
                       *emptied_sections(structure, kept, {b.seq for b in blocks if b.kind == "h"}),
                       *(() if subheading is None else (subheading,))])
    teasers = frame if short else ()  # no prose: the frame's sentences are the entries' teasers
    marks |= frozenset([*entry_titles(structure, url, kept_seq, teasers, kept_words < ARTICLE_WORDS),
                        *written_link_lists(structure, kept, frame),
                        *introduced_lists(structure, kept_seq, frame), *notes(structure, kept),
                        *callout_titles(structure, kept_seq, frame),
                        *quote_attributions(structure, kept_seq, frame),
                        # a long article's records are its own (trafilatura's)
                        *(records(structure, container, frame, end, headline) if prose < LONG_ARTICLE else ())])
    method = "trafilatura+lists" if missed else "trafilatura"
    unframe = frozenset([*(el for el in _NAMED(structure) if named_omission(el)), *_closing_footers(structure, end),
                         *(item for g in groups if inflow_cards(g, end, kept_words) for item in g.items)])
    items = {item: n for n, g in enumerate(groups) for item in g.items}  # a block goes with its innermost item
    structured = tree_blocks(structure, url, marks, frame, unframe, items, loose_before(own, end, kept))
    names = {_seq(name.text_content()) for name in grid}
    blocks = merge(structured, blocks, furniture, url, names, others)  # furniture out of trafilatura's too
    blocks = relinked(blocks, structured, lambda labels: page_links(tree, url, labels))
    titled_seqs = frozenset() if titled is None else {_seq(titled.text_content())}  # the title names it
    headlines = titled_seqs | ({_seq(headline.text_content())} if headline is not None else set())
    blocks = _without_orphans(_without_chrome(_without_bars(blocks, structured, headlines), structured,
                                              [len(g.items) for g in groups]), headlines, structured)
    if _little(_words(blocks), body_words):
        blocks, method = tree_blocks(structure, url), "structure"
    if _little(_words(blocks), body_words):
        blocks, method = _body_blocks(body.text), "body"
    if few:  # in document order with the others
        order = {el: n for n, el in enumerate(structure.iter())}
        thread = sorted([*thread, *few], key=lambda g: order[g.items[0]])
    thread_comments = comments_of(thread)
    blocks = _without_repeats(_without_closing_dateline(blocks, thread_comments))
    blocks = _without_promos(_without_cut_copies(blocks), url)
    blocks = _without_counters(blocks, url)
    chosen, keys = len(blocks), [key(b) for b in structured]
    if method != "body":
        blocks = _without_template(blocks, structured, keys, parent, body_words, titled_seqs)
    text_seq = joined_seq(b.seq for b in blocks) if thread_comments else ""
    comments = []  # only what `text` holds: a comment's byline may have stayed out of it
    for c in thread_comments:
        held = "\n".join(line for line in c.text.split("\n") if _seq(line) in text_seq)
        if held:
            comments.append(c if held == c.text else Comment(author=c.author, text=held))
    # no headline: a view's own first heading names it, when the parent shows that the <title> is the site's
    named = headline if headline is not None or not parent else first_heading(structure, items, sites)
    return _Chosen(blocks, method, comments, " ".join(named.text_content().split()) if named is not None else "",
                   encode(fingerprint([title_key(title), *page_keys(structured, listed(structure, url, items), keys),
                                       *furniture_keys, *(entry_key(b) for b in structured if b.group >= 0)])),
                   chosen - len(blocks))


def page_content(html: str | bytes, url: str, body_text: str = "", parent: frozenset[bytes] = frozenset()) -> Content:
    """Title, text and Markdown of a page (see the module docstring), less the lines its `parent`'s
    fingerprint shows at the same place (`template.py`). Never raises."""
    body = tidy(clean(body_text)) if isinstance(body_text, str) else ""
    try:
        return _page_content(html, url or "", body, parent)
    except Exception:  # a crawl must not die on one page
        logger.warning("text extraction failed on %s", url, exc_info=True)
        blocks = _body_blocks(body)
        return Content("", to_text(blocks), to_markdown(blocks), "body")


def speaks_of_comments(html: str) -> bool:
    """Whether the page holds "comment" or "reply" in any case (`re.search("comment|reply", html, re.IGNORECASE)`;
    a page without the words names no comment), searched as plain strings in its lower case, at several times the
    speed: no character but these letters in either case lowers into one of their letters, and each of them lowers
    into one character, the one the case-insensitive search matches it with (every code point, checked below for
    the running Python's Unicode tables), so the words are in the lower case where, and only where, the search
    finds them.

    >>> speaks_of_comments("<div class='CommentList'>"), speaks_of_comments("<p>RePlY</p>"), speaks_of_comments("x")
    (True, True, False)
    >>> every, letters = "".join(map(chr, range(0x110000))), "comentrply"
    >>> [x for x in letters if {c.lower() for c in re.findall(x, every, re.IGNORECASE)} != {x}]
    []
    >>> set(every[128:].lower()) & set(letters)
    set()
    """
    lower = html.lower()
    return "comment" in lower or "reply" in lower


def _nfc(text: str) -> str:
    """`text` in NFC, as trafilatura's text is (a page written in NFD, "Fo\\u0308rderung", gave each line twice,
    trafilatura's and the tree's); ASCII is.

    >>> _nfc("Fo\\u0308rderung") == "F\\u00f6rderung", _nfc("plain")
    (True, 'plain')
    """
    return text if text.isascii() or unicodedata.is_normalized("NFC", text) else unicodedata.normalize("NFC", text)


def _page_content(html: str | bytes, url: str, body: str, parent: frozenset[bytes]) -> Content:
    if isinstance(html, bytes):
        html = html.decode("utf-8", errors="replace")
    html = html[:MAX_HTML_CHARS] if isinstance(html, str) else ""
    html, body = _nfc(html), _nfc(body)  # as trafilatura's text is: the tree's lines must be the same
    tree = parse(html) if html.strip() else None
    if tree is None:
        blocks = _body_blocks(body)
        return Content("", to_text(blocks), to_markdown(blocks), "body" if blocks else "none")
    drop_controls(tree)  # "Name *", "Leave a Reply", "You must be logged in…", "Jump to navigation", "[edit]"
    title = clean(page_title(tree))  # <title>, else og:title, else the first <h1>
    page_body = BodyText(body, tidied=True) if body else inner_text(tree)
    sites = frozenset(site_names(tree, url))
    if title and parent and title_key(title) in parent:  # the parent has the same title: it is the site's
        sites |= {_seq(title)}
    if _NODES(tree) > MAX_ELEMENTS:
        chosen = _Chosen(_body_blocks(page_body.text), "body", [], "", "", 0)
    else:
        chosen = _choose(tree, url, page_body, title, parent, sites, speaks_of_comments(html))
    blocks = chosen.blocks
    og = " ".join(meta_contents(tree, "property", "og:title")[:1]).strip()
    own = clean(own_title(title, " ".join(og.split()), chosen.headline, sites))[:MAX_TITLE_CHARS]
    return Content(own, clean(to_text(blocks)), clean(to_markdown(blocks)), chosen.method, tuple(blocks),
                   tuple(chosen.comments), title, chosen.fingerprint, chosen.template_lines)


def main_text(html: str | bytes, url: str, body_text: str = "") -> tuple[str, str]:
    """(title, text) of a page: `page_content` without the Markdown."""
    content = page_content(html, url, body_text)
    return content.title, content.text
