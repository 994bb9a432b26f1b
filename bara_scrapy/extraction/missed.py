"""Which repeated groups trafilatura missed are content (`content.py` adds them to its text).

A group (`lists.py`) is content when trafilatura left most of its words out and it sits
in the kept text's container, is plain text (comments, replies, posts: few links, no title
links), or outweighs a short kept text (a list page). It is not when it is a link-title list
beside prose, or, after a long article, a run of titles past the article's last paragraph
(teaser rails, tags). Also here: the article frame (the article around the kept text and
the page's headline), whose blocks trafilatura dropped are the article's too.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from itertools import chain, islice
from urllib.parse import urlsplit

from lxml.etree import XPath, iterwalk
from lxml.html import HtmlElement

from .blocks import leads_elsewhere, links_elsewhere, resolve, seq, signature
from .boilerplate import CONTROLS, FORM_FIELDS, HEADINGS, main_root, paragraph, role
from .lists import LINK_DENSE, MIN_ITEMS, TITLE_WORDS, Group, link_stats, overlay, overlays
from .text import words

MISSED_SHARE = 0.3  # a repeated group trafilatura left out this much of is content it missed
CONTAINER_SHARE = 0.8
DOMINANT = 2.0  # a group with twice the words trafilatura kept is the page's content (a list page)
ARTICLE_WORDS = 150  # ... unless trafilatura kept an article: then comments and teasers beside it stay out
LONG_ARTICLE = 300  # after an article this long, a run past its last paragraph is teasers, tags or comments
FEW_WORDS = 50  # ... and a list of link titles only when trafilatura found no prose at all
TEXT_TAGS = ("p", "li", "h1", "h2", "h3", "h4", "h5", "h6", "td", "th", "dd", "dt", "blockquote", "pre", "figcaption")
LIST_LABEL_WORDS = 5  # a link's label in a list written in the article's flow, at most: a page's name
HEADED_LABEL_WORDS = 12  # ... in such a list under a heading of its own: a page's title
ENTRY_TEXT_WORDS = 6  # an entry's excerpt under its title: shorter, a date or a byline
_EXCERPT_TAGS = ("p", "div", "blockquote", "li")  # the blocks an entry's excerpt is written in
PLAIN_LINKS = 0.1  # a group of plain text: its share of link words at most
SENTENCE_WORDS = 6  # a paragraph of the frame this long is a sentence of it; a callout's title is shorter
NAME_DEPTH = 2  # the boxes around a grid's name's link at most (javadoc's `div > code > a`)
NAME_CHILDREN = 6  # a grid's name's children at most: a method's name, its parameters' types and breaks
NAME_CHARS = 20 * HEADED_LABEL_WORDS  # ... and its characters (a method's signature): longer is no name
NOTE_MARK_CHARS = 6  # a note's mark at most ("[12]", "†"), no letter in it: "(iv)" is a word


def joined_seq(seqs: Iterable[str]) -> str:
    """`seq` of lines joined by newlines, from the lines' own `seq`s, without a pass over the text:
    a newline ends a word and is no context of a case mapping (Greek final sigma), so the lines' word
    sequences follow one another.

    >>> lines = ["Hello, World!", "", "ΟΔΟΣ Ünïcode_9"]
    >>> joined_seq(seq(line) for line in lines) == seq("\\n".join(lines))
    True
    """
    return " " + " ".join(inner for found in seqs if (inner := found.strip())) + " "


def seq_words(found: str) -> int:
    """The number of words of a `seq` (or `joined_seq`): one space between words and one at each end, so one
    fewer than its spaces; `len(found.split())` without making the words.

    >>> [seq_words(seq(text)) == len(seq(text).split()) for text in ("", " , ", "One", "One, two  three")]
    [True, True, True, True]
    """
    return found.count(" ") - 1 if len(found) > 2 else 0


def find_after(text: str, part: str, after: int) -> int:
    """Where `part` stands in `text`, looking from `after` first (the place of the last line found: the text tags
    come in the order of the kept text, so the next one is near), then before it; -1 when nowhere. Whether it is
    found is `part in text`; a search of the whole kept text per tag from its start took most of `kept_container`.

    >>> find_after("a b a c", "a", 2), find_after("a b a c", "b", 3), find_after("a b", "c", 1)
    (4, 2, -1)
    """
    at = text.find(part, after)
    return at if at >= 0 else text.find(part, 0, after + len(part) - 1)


def find_before(text: str, part: str, before: int) -> int:
    """Where `part` stands in `text`, at or before `before` first (the place of the last line found, going through
    the lines last first), then after it; -1 when nowhere. Whether it is found is `part in text` (`find_after`).

    >>> find_before("a b a c", "a", 3), find_before("a b a c", "c", 3), find_before("a b", "c", 1)
    (0, 6, -1)
    """
    at = text.rfind(part, 0, before + len(part))
    return at if at >= 0 else text.find(part, before + 1)


@dataclass(frozen=True)
class Kept:
    """Where the text trafilatura kept lies in the tree."""

    container: HtmlElement  # the deepest element holding `CONTAINER_SHARE` of its words
    end: HtmlElement | None  # the last element whose text it kept (the article's end)
    held: Mapping[HtmlElement, int]  # the kept words each element holds
    total: int  # the kept words found in the tree

    def share(self, elements: Iterable[HtmlElement]) -> float:
        """The share of the kept words that `elements` (none inside another) hold."""
        return sum(self.held.get(el, 0) for el in elements) / self.total if self.total else 0.0


def kept_container(root: HtmlElement, kept_seq: str, lines: AbstractSet[str] | None = None) -> Kept:
    """Where the words trafilatura kept (`kept_seq`, their `seq`) lie: the deepest element holding
    `CONTAINER_SHARE` of them (the article body, the list's section: repeated groups inside it belong to the
    main content), the last element whose text it kept (the article's end), and the words each element holds. With
    the kept `lines` (their `seq`s), a heading of one word is held only as a line of its own: "ring" over a struct's
    last field is not the words "the ring" of another line.

    >>> from lxml.html import fromstring
    >>> t = fromstring('<div><section><p>One two three</p><p>Four five</p></section><ul><li>x</li></ul></div>')
    >>> kept = kept_container(t, seq("One two three\\nFour five"))
    >>> kept.container.text_content(), kept.end.text_content(), kept.share([t[0][0]]), kept.share([t[1]])
    ('One two threeFour five', 'Four five', 0.6, 0.0)
    """
    found = _held_tags(root, kept_seq, lines)
    end = found[-1][0] if found else None
    if sum(count for _, count in found) < CONTAINER_SHARE * seq_words(kept_seq):  # the text tags held little
        loose = _held_loose(root, kept_seq)
        if loose:  # the end is the last element of either kind in document order
            order = {el: i for i, el in enumerate(root.iter())}
            found += loose
            end = max((el for el, _ in found), key=order.__getitem__)
    total = 0
    counts: defaultdict[HtmlElement, int] = defaultdict(int)
    for el, count in found:
        total += count
        for holder in (el, *el.iterancestors()):
            counts[holder] += count
    node = root
    while total:
        inner = [c for c in node if counts.get(c, 0) >= CONTAINER_SHARE * total]
        if not inner:
            break
        node = inner[0]
    return Kept(node, end, counts, total)


def _held_tags(root: HtmlElement, kept_seq: str, lines: AbstractSet[str] | None = None
               ) -> list[tuple[HtmlElement, int]]:
    """The text tags (`TEXT_TAGS`) whose `seq` the kept text (`kept_seq`) holds, in document order, with their words.

    They are looked at last first, so that a tag comes after the ones it holds. A tag whose text holds the text of
    one not held (with words the kept text does not hold), between whitespace or at an end, is not held either and
    its `seq` is never made (the outer cells of nested layout tables: a page's longest texts): whitespace is no
    word character, `lower` maps it to itself and it is neither cased nor case-ignorable (no final sigma looks
    across it), so the inner text's `seq` is a part of the outer one's, and `seq`s are looked for whole. The text
    tried is that of the last tag looked at and not held: the first in the tag not held, when there is one.

    >>> from lxml.html import fromstring
    >>> t = fromstring('<div><td>A b <p>Not kept</p> <li>Kept line</li></td><td>c<p>D</p></td><p>E</p></div>')
    >>> [(el.tag, count) for el, count in _held_tags(t, seq("Kept line\\nCD\\nE"))]
    [('li', 2), ('td', 1), ('p', 1)]
    """
    found: list[tuple[HtmlElement, int]] = []  # last first
    missed, before = "", len(kept_seq)
    for el in reversed(list(root.iter(*TEXT_TAGS))):
        text = el.text_content()
        if missed and _apart(text, missed):
            missed = text
            continue
        line = seq(text)
        if not line.strip() or (lines is not None and el.tag in HEADINGS and line not in lines and
                                seq_words(line) == 1):
            continue  # a heading of one word is kept as a line of its own, not as a word of another ("the ring.")
        place = find_before(kept_seq, line, before)
        if place < 0:
            missed = text
            continue
        before = place
        found.append((el, seq_words(line)))
    return found[::-1]


def _apart(text: str, part: str) -> bool:
    """Whether `part` stands in `text` with whitespace or an end of `text` on each side (where it first stands).

    >>> _apart("a b c", "b"), _apart("b", "b"), _apart("a bc", "b"), _apart("a\\xa0b", "b"), _apart("a", "b")
    (True, True, False, True, False)
    """
    at = text.find(part)
    stop = at + len(part)
    return at >= 0 and (at == 0 or text[at - 1].isspace()) and (stop == len(text) or text[stop].isspace())


def _held_loose(root: HtmlElement, kept_seq: str) -> list[tuple[HtmlElement, int]]:
    """The elements outside the text tags with text of their own (`_loose_text`) whose `seq` the kept text
    (`kept_seq`) holds, in document order, with their words."""
    out, at = [], 0
    for el in _loose_text(root):
        found = seq(el.text_content())
        place = find_after(kept_seq, found, at) if found.strip() else -1
        if place >= 0:
            at = place
            out.append((el, seq_words(found)))
    return out


def _loose_text(root: HtmlElement) -> Iterator[HtmlElement]:
    """The elements outside the text tags (`TEXT_TAGS`) with text of their own: where an app's markup holds
    its lines (a card's `<span class="text">` in a `<div>`, prose loose in a `<div>`).

    >>> from lxml.html import fromstring
    >>> t = fromstring('<div><p>A <span>b</span></p><div class="q"><span>Quoted</span> <span> </span></div> x</div>')
    >>> [e.tag + ":" + e.text_content() for e in _loose_text(t)]
    ['span:Quoted']
    """
    if root.tag in TEXT_TAGS or any(a.tag in TEXT_TAGS for a in root.iterancestors()):
        return
    stack = [root]
    while stack:  # document order, not entering the text tags
        el = stack.pop()
        if el is not root and ((el.text or "").strip() or any((c.tail or "").strip() for c in el)):
            yield el
        stack.extend(c for c in reversed(el) if isinstance(c.tag, str) and c.tag not in TEXT_TAGS)


def follows(g: Group, end: HtmlElement) -> bool:
    """Whether the group's first item comes after `end` in document order (and is not inside it).

    >>> from lxml.html import fromstring
    >>> t = fromstring('<div><p>End</p><ul><li>a</li></ul></div>')
    >>> follows(Group(t[1], (t[1][0],), 1, 0), t[0]), follows(Group(t, (t[0],), 1, 0), t[1][0])
    (True, False)
    """
    return follows_in_document(g.items[0], end)


def is_teaser_run(g: Group) -> bool:
    """Most items carry a title link (a link of `TITLE_WORDS` words or more, or a heading inside a link), or every
    item lies under a link laid over it (`lists.overlays`): cards or teasers of other pages, not replies.

    >>> from lxml.html import fromstring
    >>> item = lambda: fromstring('<li><a href="/s">Otters return to the river</a> A summary of the story.</li>')
    >>> plain = lambda: fromstring('<li>A reply with <a href="/u">a link</a></li>')
    >>> [is_teaser_run(Group(fromstring("<ul/>"), items, 14, 5)) for items in [(item(), item()), (item(), plain()),
    ...                                                                        (plain(), item(), item())]]
    [True, False, True]
    """
    if overlays(g.items)[0] is not None:
        return True  # cards under links laid over them
    majority = len(g.items) // 2 + 1
    titled = untitled = 0
    for item in g.items:  # no further once the rest cannot change the answer
        if any(is_title_link(a) for a in item.iter("a")):
            titled += 1
        else:
            untitled += 1
        if titled >= majority or untitled > len(g.items) - majority:
            break
    return titled >= majority


def is_title_link(a: HtmlElement) -> bool:
    """A link of `TITLE_WORDS` words or more, or a heading inside a link: the title of a teaser or card."""
    return words(a.text_content()) >= TITLE_WORDS or next(a.iter(*HEADINGS), None) is not None


def is_plain_run(g: Group) -> bool:
    """Items with text of their own: few link words and no title links (comments, replies, reviews, posts)."""
    return g.link_words <= PLAIN_LINKS * g.words and not is_teaser_run(g)


def missed_groups(groups: list[Group], kept_seq: str, kept_words: int, kept: Kept,
                  in_main: bool = False) -> list[Group]:
    """The groups trafilatura mostly left out of the text it kept (given as its `seq` and its number of
    words) that are content: inside the kept text's container, or anywhere in the page's `<main>` (`in_main`: the
    walk's root is it) when the kept text is short (under `ARTICLE_WORDS`: a shop collection's description in its
    own box over its product grid, of cards of a title link and a price); items with text of their own (comments,
    replies, reviews, posts: few links and no title links; or posts shown whole, `posts_shown_whole`) anywhere; or
    outweighing a short kept text (a list page). A group of link titles only when there is no prose beside it (else
    it is a related-links box); after a long article (`LONG_ARTICLE` words kept), a run wholly past its last kept
    element (`end`) only when it is plain text (replies; teaser rails and tags stay out). A group of links holding
    what trafilatura kept, spread over its items, is the page's content (a grid of card links whose summaries
    it kept, not their titles). The body's children (or a page-wide wrapper's, `_page_wide`), one of them holding
    the kept text or the kept text standing among them, are the page's regions (Asciidoctor's class-less
    `div#header`, `div#content`, `div#footer`; MHonArc's lists around a message's `<pre>`: its header, follow-ups,
    references and "Prev by Date" links; Hacker News's rows), no list."""
    container, end = near_container(kept, kept_words), kept.end
    informative = container.tag not in ("html", "body")  # all of the page says nothing
    holding = {container, *container.iterancestors()}
    out = []
    for g in groups:
        if _page_wide(g.parent) and (not holding.isdisjoint(g.items) or _among(kept.container, g)):
            continue  # the page's regions, one of them the content: a header, the content and a footer
        dominant = _dominant(g, kept_words)
        # a short kept text in the page's <main> introduces the <main>'s list, wherever in it that list stands
        near = (informative and (g.parent is container or container in g.parent.iterancestors())) \
            or (in_main and kept_words < ARTICLE_WORDS)
        plain = is_plain_run(g) or posts_shown_whole(g, kept)
        if kept_words >= LONG_ARTICLE and end is not None and follows(g, end) and not plain:
            continue  # after a long article, a run of link titles is a teaser rail or tags
        if inflow_cards(g, end, kept_words):
            continue
        if (g.link_dense and not (dominant and kept_words < FEW_WORDS) and not _spread(g, kept)) \
                or not (dominant or near or plain):
            continue
        if mostly_missed(g, kept_seq):
            out.append(g)
        elif (rest := rest_of(g, kept)) is not None:
            out.append(rest)
    return out


def rest_of(g: Group, kept: Kept) -> Group | None:
    """The items of a group trafilatura kept most of that it left out, of the kind (`signature`) of the kept ones,
    when the kept text is the group's (`_spread`): the rest of a grid's cards, three people of twelve in a directory,
    a reader sees alike; None when there are none. An item of a few words ("sponsored links") is a label, and one
    whose words are mostly links is the rest only of items like it: an article's paragraphs are followed by "You may
    also like" links and "« Previous Post Next Post »" in paragraphs of their kind.

    >>> from lxml.html import fromstring
    >>> t = fromstring('<div>' + ''.join(f'<div class="card"><h2>Ann {n}</h2><p>Reader in tides {n}</p></div>'
    ...                                  for n in range(4)) + '</div>')
    >>> kept = kept_container(t, seq(" ".join(f"Ann {n} Reader in tides {n}" for n in (0, 1, 3))))
    >>> [item.text_content() for item in rest_of(Group(t, tuple(t), 24, 0), kept).items]
    ['Ann 2Reader in tides 2']
    """
    taken = [item for item in g.items if kept.held.get(item, 0)]
    left = [item for item in g.items if not kept.held.get(item, 0)]
    if 2 * len(taken) < len(g.items) or not left or not _spread(g, kept):
        return None  # (an article's rail of which trafilatura kept some titles is not its text)
    kinds = {signature(item) for item in taken}
    linked = any(_linked(item) for item in taken)
    rest = tuple(item for item in left if signature(item) in kinds
                 and words(item.text_content()) >= TITLE_WORDS and (linked or not _linked(item)))
    if not rest:
        return None
    return Group(g.parent, rest, sum(words(item.text_content()) for item in rest), link_stats(rest)[0])


def forms_after(root: HtmlElement, kept: Kept) -> list[HtmlElement]:
    """The `<form>`s after the last element whose text trafilatura kept (`Kept.end`) that do not hold where that
    text is written (`Kept.container`): forms to fill in or press after the text, none of whose words are the page's
    (a comment or answer box with its notes on the formats it allows, or its prompt that a script makes the box, a
    sign-up box, a donation button). A page written wholly in one form (ASP.NET's) holds its text in it; a tracker's
    issue shows its properties in the form that edits them, over its messages; a form of hidden fields alone shows
    its words (`_hidden_fields_alone`: old Reddit wraps each comment's text in one, to edit it in place).

    >>> from lxml.html import fromstring
    >>> t = fromstring('<div><p>Story.</p><form><ul><li>Lines break.</li><li>Links.</li></ul><textarea></textarea>'
    ...                '</form><form><input type="hidden" name="id"><p>A comment, shown in its form.</p></form></div>')
    >>> len(forms_after(t, kept_container(t, seq("Story.")))), len(forms_after(t, kept_container(t, seq("Links."))))
    (1, 0)
    """
    if kept.end is None:
        return []
    holding = {kept.container, *kept.container.iterancestors()}
    return [form for form in root.iter("form")
            if form not in holding and follows_in_document(form, kept.end) and not _hidden_fields_alone(form)]


def _hidden_fields_alone(form: HtmlElement) -> bool:
    """Whether a form's fields are hidden `<input>`s, one or more: no text area, list, button or other input."""
    fields = [(el.tag, (el.get("type") or "").strip().lower()) for el in form.iter(*FORM_FIELDS, "button")]
    return bool(fields) and all(field == ("input", "hidden") for field in fields)


def past_article(g: Group, kept: Kept, kept_words: int) -> set[HtmlElement]:
    """The items of a group that follow a long article's last kept element (`Kept.end`, `LONG_ARTICLE` words kept)
    when the group holds that article: its items before the end hold what trafilatura kept (the article's body
    written in wrappers, one per paragraph), and they are not of a signature (`blocks.signature`) of those items.
    What follows in the same run in other boxes is where the article ends: its source line, the author's box, the
    topic tags, a feedback form; not the article's, though the run is one it missed in part. More items like the
    kept ones are more of the same (the next posts of a blog's index; a thread is a group of its own).

    >>> from lxml.html import fromstring
    >>> body = " ".join(["The river rose again overnight."] * 12)
    >>> t = fromstring(f'<div><div><p>{body}</p></div><div><p>{body}</p></div><div class="author"><h3>About the '
    ...                'author</h3><p>Ann covers rivers.</p></div><div><p>More.</p></div></div>')
    >>> g = Group(t, tuple(t), 10, 0)
    >>> kept = kept_container(t, seq(f"{body} {body}"))
    >>> [el.text_content() for el in past_article(g, kept, 320)], past_article(g, kept, 200)
    (['About the authorAnn covers rivers.'], set())
    """
    end = kept.end
    if kept_words < LONG_ARTICLE or end is None:
        return set()
    after = {item for item in g.items if follows_in_document(item, end)}
    held = {signature(item) for item in g.items if item not in after and kept.held.get(item, 0)}
    return {item for item in after if signature(item) not in held} if held else set()


def posts_shown_whole(g: Group, kept: Kept) -> bool:
    """Whether a group is posts shown whole, of which trafilatura kept one: every item headed alike (its first
    heading of one tag and class), `ARTICLE_WORDS` words an item on average, a fifth of them in links at most, and
    the kept text in one item alone. A blog's index showing each post whole (TypePad's `div.entry` under its
    `h3.entry-header`), whose first post trafilatura took for the article; the page's layout columns (a post beside
    a sidebar) are not headed alike.

    >>> from lxml.html import fromstring
    >>> post = "<div class='entry'><h3 class='entry-header'>Post {}</h3><p>{}</p></div>"
    >>> t = fromstring("<div>" + "".join(post.format(n, f"Post {n} says this. " * 40) for n in range(3)) + "</div>")
    >>> g = Group(t, tuple(t), 3 * 162, 0)
    >>> kept = kept_container(t, seq(t[0].text_content()))
    >>> posts_shown_whole(g, kept), posts_shown_whole(Group(t, tuple(t), 3 * 100, 0), kept)
    (True, False)
    """
    if g.link_words * 5 > g.words or g.words < ARTICLE_WORDS * len(g.items):
        return False
    if sum(1 for item in g.items if kept.held.get(item, 0)) != 1:
        return False
    heads = [next(item.iter(*HEADINGS), None) for item in g.items]
    return None not in heads and len({(h.tag, h.get("class")) for h in heads if h is not None}) == 1


def _dominant(g: Group, kept_words: int) -> bool:
    """Whether a group outweighs a short kept text (`DOMINANT` times its words): a list page's list."""
    return g.words >= DOMINANT * kept_words and kept_words < ARTICLE_WORDS


def inflow_cards(g: Group, end: HtmlElement | None, kept_words: int) -> bool:
    """Whether a group is cards each wholly a link to another page (`lists.overlays`) in the text's flow, before the
    article's last kept element (`end`), not outweighing what trafilatura kept: teasers of other pages ("Most read in
    world news" between an article's paragraphs), none of its lines the page's.

    >>> from lxml.html import fromstring
    >>> t = fromstring('<div><p>Lead.</p><div><h3>Randy Andy</h3><a href="/n/1"></a></div><div><h3>Time traveller'
    ...                '</h3><a href="/n/2"></a></div><p>End.</p></div>')
    >>> g = Group(t, (t[1], t[2]), 4, 0)
    >>> inflow_cards(g, t[3], 200), inflow_cards(g, t[0], 200), inflow_cards(g, t[3], 1)
    (True, False, False)
    """
    return end is not None and not _dominant(g, kept_words) and follows_in_document(end, g.items[-1]) \
        and overlays(g.items)[0] is not None


def _page_wide(el: HtmlElement) -> bool:
    """Whether `el` is the body, or wraps all of it: it and each element up to the body its parent's only element
    child but for scripts (Hacker News's `<center><table id="hnmain">`, whose rows are the page's header, its
    content and its footer).

    >>> from lxml.html import fromstring
    >>> t = fromstring('<html><body><center><table><tr><td>a</td></tr><tr><td>b</td></tr></table></center><script>'
    ...                '</script></body></html>')
    >>> _page_wide(t.find(".//table")), _page_wide(t.find(".//tr")), _page_wide(t.find("body"))
    (True, False, True)
    """
    while el.tag != "body":
        up = el.getparent()
        if up is None or sum(isinstance(c.tag, str) and c.tag not in _UNSEEN for c in up) > 1:
            return False
        el = up
    return True


_UNSEEN = frozenset({"script", "style", "noscript", "template"})  # children of a page that show nothing


def _among(el: HtmlElement, g: Group) -> bool:
    """Whether `el` is a sibling of the group's items between the first and the last of them.

    >>> from lxml.html import fromstring
    >>> t = fromstring('<body><ul><li>To: a</li></ul><pre>Hello</pre><ul><li>Re: b</li></ul><ul><li>c</li></ul></body>')
    >>> g = Group(t, (t[0], t[2], t[3]), 6, 0)
    >>> _among(t[1], g), _among(t[1], Group(t, (t[2], t[3]), 4, 0))
    (True, False)
    """
    return el.getparent() is g.parent and follows_in_document(el, g.items[0]) and follows_in_document(g.items[-1], el)


def near_container(kept: Kept, kept_words: int) -> HtmlElement:
    """Where the kept text is written: its container (`kept_container`), or, when that is one short block of text
    (`kept_words` below `ARTICLE_WORDS`: a listing's intro paragraph) or a quotation of any length (never a page's
    whole content: arXiv's abstract, its record's table after it), the block's parent, which holds the listing after
    it.

    >>> from lxml.html import fromstring
    >>> t = fromstring('<main><p>Every walk the trust keeps open.</p><div><h3>Weir</h3><p>A loop</p></div></main>')
    >>> kept = kept_container(t, seq("Every walk the trust keeps open."))
    >>> kept.container.tag, near_container(kept, 6).tag, near_container(kept, ARTICLE_WORDS).tag
    ('p', 'main', 'p')
    >>> t[0].tag = "blockquote"
    >>> near_container(kept_container(t, seq("Every walk the trust keeps open.")), ARTICLE_WORDS).tag
    'main'
    """
    container = kept.container
    if container.tag in TEXT_TAGS and (kept_words < ARTICLE_WORDS or container.tag == "blockquote") \
            and (up := container.getparent()) is not None:
        return up  # a quotation is never a page's whole content: what it is quoted in is (arXiv's abstract)
    return container


def entry_pairs(root: HtmlElement, url: str, kept: Kept, kept_seq: str, kept_words: int) -> list[Group]:
    """The entries of other pages that come in twos, too few for a group (`lists.MIN_ITEMS`): two elements of one
    signature in one parent, each headed by a title that links to another page (a heading, or, beside a short kept
    text, a link of a title's length with no words before it: `_entry_title`) or lying under a link laid over it
    (`lists.overlay`), over words of its own (`_entry`: an excerpt, a date and a place) — a listing of two cards.
    They are content where a group would be (`missed_groups`): in the kept text's container (`near_container`) when
    the kept text is short (not an article with a related-stories pair after it), or when one of the two holds kept
    text; and, as a group, when trafilatura left most of it out (`mostly_missed`, of `kept_seq`). Each pair is a group
    of two, so its items' lines go as a group's do.

    >>> from lxml.html import fromstring
    >>> card = '<div class="card"><h3><a href="/w/{0}">Walk {0}</a></h3><p>A loop past the otters holt.</p></div>'
    >>> cards = card.format(1) + card.format(2)
    >>> t = fromstring(f'<main><p>Every walk the trust keeps open.</p><div>{cards}</div></main>')
    >>> kept = kept_container(t, seq("Every walk the trust keeps open."))
    >>> intro = seq("Every walk the trust keeps open.")
    >>> [[el.text_content()[:6] for el in g.items] for g in entry_pairs(t, "http://h/walks/", kept, intro, 6)]
    [['Walk 1', 'Walk 2']]
    >>> entry_pairs(t, "http://h/walks/", kept, intro, ARTICLE_WORDS)
    []
    """
    near = near_container(kept, kept_words) if kept_words < ARTICLE_WORDS else None
    found: list[Group] = []
    seen: set[HtmlElement] = set()
    runs: dict[HtmlElement, dict[str, list[HtmlElement]]] = {}
    for h in root.iter(*HEADINGS, *(("a",) if near is not None else ())):  # a title link, only beside a short text
        if h.tag == "a" and not (is_title_link(h) and next(h.iterancestors(*HEADINGS), None) is None):
            continue  # a title is a heading, or a link of a title's length
        pair = _pair_of(h, root, runs)
        if pair is None or (parent := pair[0].getparent()) in seen:
            continue
        seen.add(parent)
        placed = (near is not None and (near is parent or near in parent.iterancestors())) or any(
            kept.held.get(el, 0) for el in pair)
        if placed and all(_entry(item, url) for item in pair):
            group = Group(parent, pair, sum(words(el.text_content()) for el in pair), link_stats(pair)[0])
            found += [group] if mostly_missed(group, kept_seq) else []
    return found


def _pair_of(h: HtmlElement, root: HtmlElement,
             runs: dict[HtmlElement, dict[str, list[HtmlElement]]]) -> tuple[HtmlElement, HtmlElement] | None:
    """The two elements of one signature in one parent that the innermost of a heading's boxes (below `root`) with
    a sibling of its signature is one of, None when that box has more such siblings or none (`runs`: each parent's
    children by signature, filled as they are needed)."""
    for box in h.iterancestors():
        up = box.getparent()
        if box is root or up is None:
            return None
        if (alike := runs.get(up)) is None:
            alike = runs[up] = defaultdict(list)
            for child in up:
                if isinstance(child.tag, str):
                    alike[signature(child)].append(child)
        run = alike[signature(box)]
        if len(run) > 1:
            return (run[0], run[1]) if len(run) == 2 else None
    return None


def _entry(item: HtmlElement, url: str) -> bool:
    """Whether an element is an entry of another page: its title (`_entry_title`) links elsewhere, or a link laid
    over it (`lists.overlay`) does, and the entry says something besides its title: a word or more outside its
    heading and links (an excerpt, a date and a place, a person's role). It holds no table of words and no form (a
    widget of market figures, a column of the page's layout, a search box).

    >>> from lxml.html import fromstring
    >>> event = '<li><h3><a href="/e/1">Otter count</a></h3><p>Saturday 14 March, 7am</p><p>Mill car park</p></li>'
    >>> bare = '<li><h3><a href="/e/1">Otter count</a></h3></li>'
    >>> _entry(fromstring(event), "http://h/events/"), _entry(fromstring(bare), "http://h/events/")
    (True, False)
    """
    if any(el.tag == "form" or el.text_content().strip() for el in item.iter("table", "form")):
        return False  # a column of the page's layout, a widget of figures, a form (a table may draw a progress bar)
    title = _entry_title(item)
    cover = overlay(item)
    if title is None or not (links_elsewhere(title, url) or (
            cover is not None and leads_elsewhere(cover.get("href"), url))):
        return False
    return any(text.strip() for text in _OWN_TEXT(item))


def _entry_title(item: HtmlElement) -> HtmlElement | None:
    """An entry's title: its one heading, or, with none, its first link when that is a title's (`is_title_link`)
    and no words come before it (Drupal's `views-field-title`, a bare link over the summary)."""
    headings = list(item.iter(*HEADINGS))
    if headings:
        return headings[0] if len(headings) == 1 else None
    first = next(item.iter("a"), None)
    if first is None or not is_title_link(first):
        return None
    before = "".join(t for t in item.itertext() if t is not None)
    return first if not before.split(first.text_content(), 1)[0].strip() else None


# an entry's words besides its title: outside its headings and links, and outside tables and forms (a market data
# box's figures, a search form's labels)
_OWN_TEXT = XPath("descendant::text()[not(ancestor::a or ancestor::h1 or ancestor::h2 or ancestor::h3 or "
                  "ancestor::h4 or ancestor::h5 or ancestor::h6 or ancestor::table or ancestor::form)]")


def mostly_missed(g: Group, kept_seq: str) -> bool:
    """Whether the words of the group's items that trafilatura left out (of the items whose words the kept text,
    `kept_seq`, does not hold) are more than `MISSED_SHARE` of the group's. The items are looked for in the kept
    text from where the last one was found (`find_after`), and no further once the missed words are enough: they
    only add up.

    >>> from lxml.html import fromstring
    >>> ul = fromstring('<ul><li>One two</li><li>Three four</li><li>Five six</li></ul>')
    >>> g = Group(ul, tuple(ul), 6, 0)
    >>> mostly_missed(g, seq("Five six\\nOne two\\nThree four")), mostly_missed(g, seq("One two\\nThree"))
    (False, True)
    """
    missing, at, most = 0, 0, MISSED_SHARE * g.words
    for item in g.items:
        item_seq = seq(" ".join(item.itertext()))
        if not item_seq.strip():
            continue
        if (place := find_after(kept_seq, item_seq, at)) >= 0:
            at = place
            continue
        missing += seq_words(item_seq)
        if missing > most:
            return True
    return False


def links_here(targets: Sequence[str], url: str) -> bool:
    """Whether a group whose titled items lead to `targets` (`_title_targets`) lists pages, this one among them: each
    item's title link (`is_title_link`) leads to a page of its own, and one of them to `url` (a link to a fragment
    of the page is an anchor in it, such as a blog archive's permalinks). Items that all lead to one page are not a
    list of pages.

    >>> from lxml.html import fromstring
    >>> t = fromstring('<ul><li><a href="/a">A story of otters</a></li><li><a href="b">This story of otters</a></li>'
    ...                '<li><a href="#">More</a> <a href="http://">A link with no address</a></li></ul>')
    >>> here = lambda g, url: links_here(_title_targets(g, url), url)
    >>> g = Group(t, tuple(t), 16, 16)
    >>> here(g, "https://s.org/b"), here(g, "https://s.org/c"), here(g, "https://s.org/")
    (True, False, False)
    >>> same = fromstring('<ul><li><a href="/b">Story of the otters</a></li>'
    ...                   '<li><a href="/b">More on the otters</a></li></ul>')
    >>> here(Group(same, tuple(same), 8, 8), "https://s.org/b")
    False
    """
    return url.split("#", 1)[0] in targets and len(set(targets)) == len(targets)


def _title_targets(g: Group, url: str) -> list[str]:
    """The pages the group's titled items lead to, each by its first title link (`is_title_link`) to a page, resolved
    against `url`."""
    targets = []
    for item in g.items:
        found = next((resolve(url, href) for a in item.iter("a") if is_title_link(a)
                      and _page_link(href := (a.get("href") or "").strip())), None)
        if found is not None:
            targets.append(found)
    return targets


def _page_link(href: str) -> bool:
    """An address of a page, not an anchor in this one or an empty one (`#`, `http://`)."""
    parts = urlsplit(href)
    return bool(parts.netloc or parts.path or parts.query) and not parts.fragment


def inserted_teasers(g: Group, kept: Kept) -> set[HtmlElement]:
    """The items of a group set between the article's own lines (text trafilatura kept lies between its first and
    last item) that are mostly a title link (`is_title_link`): promos of other pages inserted in the body ("Read
    more: ..."), not its content. Its other items (a figure and its caption, an embedded post) stay.

    >>> from lxml.html import fromstring
    >>> t = fromstring('<div><p>First part of the story.</p><div class="x"><a href="/o">Another story from us</a>'
    ...                '</div><p>Second part.</p><div class="x"><img src="a.jpg"> A caption</div></div>')
    >>> kept = kept_container(t, seq("First part of the story. Second part."))
    >>> [el.text_content() for el in inserted_teasers(Group(t, (t[1], t[3]), 6, 4), kept)]
    ['Another story from us']
    """
    children = list(g.parent)
    first, last = children.index(g.items[0]), children.index(g.items[-1])
    items = set(g.items)
    if not any(kept.held.get(c, 0) for c in children[first:last] if c not in items):
        return set()
    return {item for item in g.items if _promo(item)}


def _linked(item: HtmlElement) -> bool:
    """Whether half of an element's words or more are in links."""
    return 2 * link_stats((item,))[0] >= words(item.text_content())


def _promo(item: HtmlElement) -> bool:
    """An element that is mostly a title link: half of its words or more in links, one of them a title."""
    return any(is_title_link(a) for a in item.iter("a")) and _linked(item)


def site_rails(groups: Iterable[Group], url: str, kept: Kept, kept_words: int = 0) -> list[Group]:
    """The groups that list the site's pages, this one among them: teaser runs (`is_teaser_run`) that link to the
    page itself (`links_here`: a news ticker, "latest posts" on every page), none of whose items holds the kept
    text's container (the article). They are site furniture, never this page's content, wherever they sit and
    whatever trafilatura kept of them. So are the teaser runs of other pages of this page's own kind
    (`_links_beside`) beside the kept text's container (`_beside`: outside it, or in a section of it of their own),
    where it is one (not the whole page) and holds an article (`kept_words`, `ARTICLE_WORDS` or more: a mail archive's
    index lists its messages beside its few words)."""
    if not url:
        return []
    article = {kept.container, *kept.container.iterancestors()}
    inside = kept.container.tag not in ("html", "body") and kept_words >= ARTICLE_WORDS
    return [g for g in groups if is_teaser_run(g) and not article.intersection(g.items) and (
        links_here(targets := _title_targets(g, url), url) or (
            inside and _beside(g, kept) and _links_beside(targets, url)))]


def _beside(g: Group, kept: Kept) -> bool:
    """Whether a group stands beside the kept text's container (`Kept.container`) rather than in its text: outside
    it, or in a section of it of its own, one of its children that wraps the group and holds none of the kept text
    but the group's and its heading's (`rail_heading`): a shop's "You may also like" in a section of the product
    page's `<main>` after the product's and the reviews'. A list that is the container's own child is in its text.

    >>> from lxml.html import fromstring
    >>> t = fromstring('<main><section><p>One two three</p></section><section><p>Four five</p></section><section>'
    ...                '<h2>More</h2><ul><li>A</li><li>B</li></ul></section><ul><li>C</li><li>D</li></ul></main>')
    >>> kept = kept_container(t, seq("One two three\\nFour five"))
    >>> own, listed = t[2][1], t[3]
    >>> _beside(Group(own, tuple(own), 2, 2), kept), _beside(Group(listed, tuple(listed), 2, 2), kept)
    (True, False)
    """
    container = kept.container
    section = next((el for el in (g.parent, *g.parent.iterancestors()) if el.getparent() is container), None)
    if section is None:
        return container is not g.parent and container not in g.parent.iterancestors()
    own = sum(kept.held.get(el, 0) for el in (*g.items, rail_heading(g, section)) if el is not None)
    return section is not g.parent and kept.held.get(section, 0) <= own


RAIL_HEADING_LEVELS = 3  # a rail's heading stands before its items, their list or their list's wrappers


def rail_heading(g: Group, within: HtmlElement) -> HtmlElement | None:
    """The heading that names a group: the element before its first item is a heading (`<h2>` to `<h6>`: the page's
    `<h1>` names the page), or before the item's parent when the item opens it, and so on up to
    `RAIL_HEADING_LEVELS` levels, never outside `within` (the section the group stands in). A shop's "You may also
    like" over its cards, "More from UK" over a promo's list: when the group is furniture, so is its name.

    >>> from lxml.html import fromstring
    >>> t = fromstring('<div><h3>More from UK</h3><ul><li>A</li><li>B</li></ul></div>')
    >>> rail_heading(Group(t[1], tuple(t[1]), 2, 2), t).text
    'More from UK'
    >>> u = fromstring('<div><h3>Otters</h3><p>They came back.</p><ul><li>A</li><li>B</li></ul></div>')
    >>> rail_heading(Group(u[2], tuple(u[2]), 2, 2), u) is None
    True
    """
    el = g.items[0]
    for _ in range(RAIL_HEADING_LEVELS):
        if (before := _element_before(el)) is not None:
            return before if before.tag in HEADINGS and before.tag != "h1" else None
        parent = el.getparent()
        if parent is None or parent is within or (parent.text or "").strip():
            return None
        el = parent
    return None


_INDEXES = frozenset({"index", "default", "home"})  # a folder's own page, by the names servers give it


def _links_beside(targets: Sequence[str], url: str) -> bool:
    """Whether a group whose titled items lead to `targets` (`_title_targets`) lists other pages of this page's own
    kind: each leads to a page of its own in the folder of the page at `url`, which is an entry of that folder (a
    last segment of its own, not the folder's index): LinkedIn's "Similar jobs" beside a job's page, a shop's other
    products beside one.

    >>> from lxml.html import fromstring
    >>> t = fromstring('<ul><li><a href="/jobs/view/embedded-31?trk=similar">Embedded Software Engineer at '
    ...                'Northstar</a></li><li><a href="/jobs/view/firmware-ii-42">Firmware Engineer II at Voltline</a>'
    ...                '</li></ul>')
    >>> g = Group(t, tuple(t), 6, 6)
    >>> [_links_beside(_title_targets(g, u), u) for u in ("https://s.org/jobs/view/senior-firmware-7", "https://s.org/jobs/view/",
    ...                                "https://s.org/jobs/search?q=firmware")]
    [True, False, False]
    """
    parts = urlsplit(url)
    folder, _, own = parts.path.rstrip("/").rpartition("/")
    if not own or parts.query or own.partition(".")[0].lower() in _INDEXES:
        return False
    pages = [urlsplit(found) for found in targets]
    paths = [t.path.rstrip("/") for t in pages]
    kind = _kind_of(folder)
    return len(pages) >= 2 and len(set(paths)) == len(paths) and all(
        t.netloc == parts.netloc and ((up := path.rpartition("/")[0]) == folder or (kind and _kind_of(up) == kind))
        for t, path in zip(pages, paths, strict=True))


def _kind_of(folder: str) -> str:
    """A folder's kind of page: its depth and its last segment (`/leeds-rust/events` holds events, as
    `/pydata-leeds/events` does: Meetup's other groups' events beside one); "" for a folder of one segment or none,
    whose pages are of its kind alone.

    >>> _kind_of("/leeds-rust/events"), _kind_of("/products"), _kind_of("")
    ('2 events', '', '')
    """
    segments = folder.strip("/").split("/")
    return f"{len(segments)} {segments[-1]}" if len(segments) > 1 else ""


def _spread(g: Group, kept: Kept) -> bool:
    """Whether the group's items hold `CONTAINER_SHARE` of what trafilatura kept, no one item most of it: the
    kept text is the group's (a feed of cards), not one item's (an article expanded in a list of others).

    >>> from lxml.html import fromstring
    >>> t = fromstring('<div><p>Intro</p><ul><li><a href="/a">A b c</a></li><li><a href="/b">D e f</a></li></ul></div>')
    >>> g = Group(t[1], tuple(t[1]), 6, 6)
    >>> _spread(g, kept_container(t, seq("A b c\\nD e f"))), _spread(g, kept_container(t, seq("A b c")))
    (True, False)
    """
    return kept.share(g.items) >= CONTAINER_SHARE and max(kept.share((item,)) for item in g.items) < CONTAINER_SHARE


def article_frame(root: HtmlElement, container: HtmlElement) -> HtmlElement | None:
    """The article around the kept text: the nearest <article> (or role=article) holding its
    container, else the container itself when it says something (not the whole page). Of it, the
    frame is what comes up to the article's last kept element (`before_end`): past that, an article's
    own footer holds its tags, share and "support us" appeals, the author box, the comment form.

    >>> from lxml.html import fromstring
    >>> t = fromstring('<div><article><header><h1>T</h1></header><div><p>Body</p></div></article></div>')
    >>> article_frame(t, t[0][1]).tag
    'article'
    """
    for el in (container, *container.iterancestors()):
        if el.tag == "article" or (el.get("role") or "").lower() == "article":
            return el
        if el is root:
            break
    return container if container is not root and container.tag not in ("html", "body") else None


def before_end(root: HtmlElement, end: HtmlElement | None) -> tuple[HtmlElement, ...]:
    """The part of `root` up to the article's last kept element (`end`): that element and, at each level
    up to `root`, what precedes it and what follows of the same kind; all of `root` when `end` is not in it.

    >>> from lxml.html import fromstring
    >>> t = fromstring('<main><h1>T</h1><div><p>Lead</p><p>Body</p><ul><li>More</li></ul></div><p>Bio</p></main>')
    >>> [e.text_content() for e in before_end(t, t[1][1])], [e.tag for e in before_end(t, t[0])]
    (['Body', 'Lead', 'T'], ['h1'])
    >>> [e.tag for e in before_end(t[1], t[0])]
    ['div']

    A sibling of the article's own kind (its tag and class) goes on with it (a body split in chunks):

    >>> a = fromstring('<article><div class="c"><p>One</p></div><aside>Ad</aside><div class="c"><p>Two</p></div>'
    ...                '<div class="f">Support us</div></article>')
    >>> [e.text_content() for e in before_end(a, a[0][0])]
    ['One', 'Two']
    """
    if end is None or not any(el is root for el in end.iterancestors()):
        return (root,)
    out, node = [end], end
    while node is not root and node.getparent() is not None:
        out.extend(node.itersiblings(preceding=True))
        if node is not end and node.get("class"):  # the article goes on in a sibling of its own kind
            out.extend(s for s in node.itersiblings() if s.tag == node.tag and s.get("class") == node.get("class"))
        node = node.getparent()
    return tuple(out)


def loose_before(own: Iterable[HtmlElement], end: HtmlElement | None, kept: Kept) -> frozenset[HtmlElement]:
    """The elements of the article frame (`own`, `before_end`) whose tail is the article's text too: loose text
    written between its boxes, before a paragraph trafilatura kept in the same parent (a blog post's first paragraph
    after a `<div style="clear:both">` the parser took out of its `<p>`). Not the end's tail, nor text before a list
    only (an API reference's "The documentation for this struct was generated from the following file:").

    >>> from lxml.html import fromstring
    >>> t = fromstring('<div><div></div>Loose words of the post.<p>Kept paragraph.</p><hr/>Files:<ul><li>a.h</li>'
    ...                '</ul></div>')
    >>> kept = kept_container(t, seq("Kept paragraph. a.h"))
    >>> [el.tag for el in loose_before(t, kept.end, kept)]
    ['div']
    """
    before: dict[HtmlElement, set[HtmlElement]] = {}  # a parent -> its children before its last kept paragraph
    out = []
    for el in own:
        parent = el.getparent()
        if el is end or parent is None:
            continue
        if parent not in before:
            children = list(parent)
            last = max((n for n, child in enumerate(children) if child.tag == "p" and kept.held.get(child)), default=0)
            before[parent] = set(children[:last])
        if el in before[parent]:
            out.append(el)
    return frozenset(out)


def main_frame(main: HtmlElement, end: HtmlElement | None, long: bool) -> tuple[HtmlElement, ...]:
    """The parts of the page's <main> whose blocks trafilatura dropped are content too: all of it, or after a
    long article (`long`) only what comes before the article's last kept element (`end`) and that element:
    what follows a long article is teasers, bios, forms and comments (repeated groups decide comments).

    >>> from lxml.html import fromstring
    >>> t = fromstring('<main><h1>T</h1><div><p>Lead</p><p>Body</p><ul><li>More</li></ul></div><p>Bio</p></main>')
    >>> [e.text_content() for e in main_frame(t, t[1][1], True)], [e.tag for e in main_frame(t, t[1][1], False)]
    (['Body', 'Lead', 'T'], ['main'])
    """
    return before_end(main, end) if long else (main,)


def main_headline(root: HtmlElement, title: str, sites: Collection[str] = ()) -> HtmlElement | None:
    """The page's own headline: its one <h1>, or the <h1> the document title starts with or contains; not one
    that is what the page calls its site (`sites`, as `seq`s: a logo's `<h1>` in the header).

    >>> from lxml.html import fromstring
    >>> t = fromstring('<div><h1>Site</h1><h1>Otters return</h1></div>')
    >>> main_headline(t, "Otters return | Site").text
    'Otters return'
    >>> print(main_headline(fromstring('<div><h1>Site</h1><h2>Otters return</h2></div>'), "Site", {" site "}))
    None
    """
    found = [h for h in root.iter("h1") if (inner := seq(h.text_content())).strip() and inner not in sites]
    if len(found) == 1:
        return found[0]
    wanted = seq(title)
    named = [h for h in found if seq(h.text_content()) in wanted]
    return max(named, key=lambda h: len(h.text_content())) if named else None


def others_entries(root: HtmlElement, url: str, title: str, sites: Collection[str] = ()) -> list[HtmlElement]:
    """The `<article>`s of other pages on an article's page: each `<article>` whose permalink (its own link of type
    `bookmark`, which HTML defines as the permalink of the nearest `<article>` around it) leads to another page,
    when the page has an `<article>` of its own (whose permalink is the page, or holding its headline with no
    permalink elsewhere: a blog's index heads its newest post with its title, linked to the post). A blog's
    "You may like…" box of other posts, each an `<article>` with its picture linked to its page, its share buttons
    and its first lines (which trafilatura keeps as the post's): teasers, not this page's text. A listing, whose
    `<article>`s are all other pages', is their content.

    >>> from lxml.html import fromstring
    >>> other = '<article><a rel="bookmark" href="/b"><img src="b.jpg"></a><p>The start of another post…</p></article>'
    >>> t = fromstring(f'<div><article><h1>Otters</h1><p>They came back.</p></article>{other}</div>')
    >>> [el.text_content() for el in others_entries(t, "http://h/a", "Otters - News")]
    ['The start of another post…']
    >>> others_entries(t, "http://h/a", "Otters - News", {" otters "})  # a logo's <h1>: no article of its own
    []
    >>> listing = fromstring(f'<div><article><h1><a rel="bookmark" href="/c">Newest</a></h1></article>{other}</div>')
    >>> others_entries(listing, "http://h/", "News")
    []

    An `<article>` with no permalink in a run most of which are other pages' is one of them too:

    >>> t = fromstring(f'<div><article><h1>Otters</h1></article><div>{other}{other}<article><p>First lines…</p>'
    ...                '</article></div></div>')
    >>> len(others_entries(t, "http://h/a", "Otters - News"))
    3
    """
    articles = list(root.iter("article"))
    if len(articles) < 2:
        return []
    headline = main_headline(root, title, sites)  # (the page's headline: `title` and `sites` name it)
    permalinks = {a: _permalink(a) for a in articles}
    own = {a for a, link in permalinks.items() if (link is not None and not leads_elsewhere(link, url)) or (
        link is None and headline is not None and any(h is headline for h in a.iter("h1")))}
    if not own:
        return []
    others = [a for a, link in permalinks.items() if a not in own and link is not None and leads_elsewhere(link, url)
              and not any(o in own for o in a.iterdescendants("article"))]  # not a wrapper of the page's own
    found = set(others)
    for parent in {a.getparent() for a in others} - {None}:  # a run of them: its <article>s with no permalink too
        run = list(parent.iterchildren("article"))
        if 2 * sum(a in found for a in run) > len(run):
            others += [a for a in run if a not in found and permalinks.get(a) is None and a not in own]
    return others


def _permalink(article: HtmlElement) -> str | None:
    """The `href` of an `<article>`'s own `rel="bookmark"` link (not one of an `<article>` inside it), or None."""
    for a in article.iterdescendants("a"):
        if "bookmark" in (a.get("rel") or "").lower().split() and next(a.iterancestors("article"), None) is article:
            href = a.get("href")
            return None if href is None else str(href)
    return None


def standfirst(hero: HtmlElement | None) -> HtmlElement | None:
    """The line a hero (`page_hero`) sets under its headline, however short ("This is what I do."): the element right
    after its `<h1>`, holding words and no link, no element that is a block, and no digit (a dateline, "Posted on
    May 2"), and not the headline's words again. The frame takes a longer one; one this short would go for a label.

    >>> from lxml.html import fromstring
    >>> standfirst(fromstring('<header><h1>About me</h1><span>This is what I do.</span></header>')).text
    'This is what I do.'
    >>> [standfirst(fromstring(f'<header><h1>Post</h1>{x}</header>')) for x in ('<p>Posted on May 2</p>',
    ...                                                                          '<p><a href="/">Home</a></p>')]
    [None, None]
    """
    h1 = None if hero is None else next(hero.iter("h1"), None)
    if h1 is None:
        return None
    line = _element_after(h1)
    if line is None or next(line.iterdescendants("a", *_BLOCKS), None) is not None:
        return None
    text = seq(line.text_content())
    return line if text.strip() and text != seq(h1.text_content()) and not any(c.isdigit() for c in text) else None


_BLOCKS = ("p", "div", "ul", "ol", "table", "section", "form", "h1", "h2", "h3", "h4", "h5", "h6")  # under a line


def page_hero(tree: HtmlElement, sites: Collection[str] = (), url: str = "") -> HtmlElement | None:
    """The hero the page's headline stands in, before and outside its single `<main>` (Docusaurus's landing pages
    and blog archive: `<header class="hero"><h1>…</h1><p>tagline</p></header><main>…`): the `<h1>`'s widest
    wrapper that does not hold the `<main>`, when the `<main>` holds no `<h1>` and the page has one other `<h1>`, not
    a link (but to the page itself, `url`: Stack Exchange's question title), not what the page calls its site (`sites`,
    as `seq`s), and not in a menu, an aside, a dialog, a footer or what
    declares itself the site's header (`role="banner"`: phpBB's board name), and a hero that holds no menu (a
    WordPress home page's `<h1>` is the site's title, in the header with the site's menu; a breadcrumb trail is
    none). A page-level `<header>` holding the page's own headline is its hero. A page with no `<main>` and one
    `<article>` has its content there: the hero stands before that (Start Bootstrap's Clean Blog: `<header
    class="masthead"><h1>…</h1><h2>subheading</h2></header><article>…`).

    >>> from lxml.html import fromstring
    >>> t = fromstring('<body><nav><h1><a href="/">Seeds</a></h1></nav><div><header class="hero"><h1>About us</h1>'
    ...                '<p>A cooperative of growers.</p></header><main><p>Cards</p></main></div></body>')
    >>> page_hero(t).tag
    'header'
    >>> print(page_hero(fromstring('<body><div><h1>About us</h1></div><main><h1>Story</h1></main></body>')))
    None
    >>> print(page_hero(fromstring('<body><header><h1>Gardeners</h1><nav>Menu</nav></header><main>x</main></body>')))
    None
    >>> page_hero(fromstring('<body><header><h1>Towpath open</h1></header><article><p>x</p></article></body>')).tag
    'header'

    A breadcrumb trail in the header is no menu (`_trail`: Moodle's course header):

    >>> trail = '<nav><ol><li><a href="/my">My courses</a></li><li>HIST210</li></ol></nav>'
    >>> page_hero(fromstring(f'<body><header>{trail}<h1>Maritime trade</h1></header><main>x</main></body>')).tag
    'header'
    """
    main = main_root(tree)
    if main.tag != "main" and role(main) != "main":
        articles = _ARTICLES(tree)
        if len(articles) != 1:
            return None
        main = articles[0]
    if any(_heads(h, url) for h in main.iter("h1")):  # (not a popup's: Stack Exchange's "Subscribe to RSS")
        return None
    found = [h for h in tree.iter("h1") if (inner := seq(h.text_content())).strip() and inner not in sites
             and _heads(h, url)]
    if len(found) != 1 or not follows_in_document(main, found[0]):
        return None
    around_main, box = set(main.iterancestors()), found[0]
    while (parent := box.getparent()) is not None and parent not in around_main:
        box = parent
    menus = (el for el in box.iter() if isinstance(el.tag, str)
             and (el.tag == "nav" or role(el) == "navigation") and not _trail(el))
    return None if next(menus, None) is not None else box  # the site's header holds its menu


def _heads(h1: HtmlElement, url: str) -> bool:
    """Whether an `<h1>` may head the page: not in a menu, an aside, a dialog, the site's footer or what declares
    itself the site's, nor in a link but to the page itself (`url`)."""
    return not any((a.tag in _NOT_HERO and not _self_link(a, url)) or role(a) in _NOT_HERO_ROLES
                   for a in h1.iterancestors())


def linked_headline(tree: HtmlElement, title: str, url: str, sites: Collection[str] = ()) -> HtmlElement | None:
    """The page's one `<h1>` that is a link to the page itself (`url`) and that the document title names, not what
    the page calls its site (`sites`, even on its home page) nor in a menu, an aside, a dialog or a footer:
    Confluence's `h1#title-text`, beside its breadcrumb trail in a box the pruning takes for the trail's. A logo's
    `<h1>` links to the site's home, which is no page's headline, the home page's own neither.

    >>> from lxml.html import fromstring
    >>> t = fromstring('<body><div class="with-breadcrumbs"><ol><li><a href="/ops">Ops</a></li></ol><h1><a href='
    ...                '"/ops/rotating">Rotating the credentials</a></h1></div><div><h1><a href="/">Wiki</a></h1></div>'
    ...                '</body>')
    >>> linked_headline(t, "Rotating the credentials - Ops - Wiki", "https://wiki.example/ops/rotating").text_content()
    'Rotating the credentials'
    >>> print(linked_headline(t, "Rotating the credentials - Ops - Wiki", "https://wiki.example/ops/other"))
    None
    >>> print(linked_headline(fromstring('<body><h1><a href="/">Millbrook Orchard</a></h1></body>'),
    ...                       "Millbrook Orchard", "https://millbrook.example/"))
    None
    """
    wanted = seq(title)
    found = [h for h in tree.iter("h1") if (line := seq(h.text_content())).strip() and line in wanted
             and line not in sites and _heads(h, url) and (links := h.findall(".//a"))
             and all(_self_link(a, url) and urlsplit(resolve(url, a.get("href", ""))).path.strip("/") for a in links)]
    return found[0] if len(found) == 1 else None


def _self_link(el: HtmlElement, url: str) -> bool:
    """Whether an element is a link to the page itself (`url`): the page's headline linked to its own address (Stack
    Exchange's question title), not a logo's link to the home page."""
    return bool(url) and el.tag == "a" and bool(el.get("href")) and not leads_elsewhere(el.get("href"), url)


def _trail(nav: HtmlElement) -> bool:
    """Whether a navigation is a breadcrumb trail, not a menu: its last item is the page itself, as trails end: its
    name with no link and no control (a menu's last item may be a "More" button or a search box), or a link marked
    as the current page (`aria-current`).

    >>> from lxml.html import fromstring
    >>> _trail(fromstring('<nav><ol><li><a href="/my">My courses</a></li><li><span>HIST210</span></li></ol></nav>'))
    True
    >>> [_trail(fromstring(f'<nav><ul><li><a href="/">Home</a></li><li>{last}</li></ul></nav>'))
    ...  for last in ('<a href="/news">News</a>', '<button>More</button>', '<a href="/n" aria-current="page">News</a>')]
    [False, False, True]
    """
    items = list(nav.iter("li"))
    if len(items) < 2:
        return False
    last = items[-1]
    links = [a for a in last.iter("a") if a.get("href")]
    if links:
        return all(a.get("aria-current") for a in links)
    return bool(last.text_content().strip()) and next(last.iter(*CONTROLS), None) is None


def title_line(tree: HtmlElement, title: str, sites: Collection[str] = ()) -> HtmlElement | None:
    """The line that heads a page with no `<h1>` the title names (none at all, or only its sections': Doxygen's related
    pages; an `<h1>` that is the site's name names none), before and outside its single `<main>` (anywhere on a page
    without one, or whose `<main>` holds the site's menu: NodeBB's wraps the whole page) and before its first `<h1>`:
    the first innermost element whose words are the document title's (the whole title, or a part of it of two words or
    more), not what the page calls its site (`sites`), not in a link, a menu, an aside or a footer (ikiwiki prints a
    page's title as `<span class="title">` in its header, the `<main>` after it; Doxygen as `div.title` in
    `div.headertitle`, with no `<main>`).

    >>> from lxml.html import fromstring
    >>> t = fromstring('<body><div class="header"><span><a href="/">Orchard</a>/</span><span class="title">Grafting '
    ...                'the old varieties</span></div><div role="main"><p>Text</p></div></body>')
    >>> title_line(t, "Grafting the old varieties").text
    'Grafting the old varieties'
    >>> print(title_line(t, "Orchard"))
    None
    >>> t = fromstring('<body><div id="titlearea">Hivelog</div><div class="header"><div class="title">hl_log Struct '
    ...                'Reference</div></div><div class="contents"><p>The state behind a handle.</p></div></body>')
    >>> title_line(t, "Hivelog: hl_log Struct Reference").text
    'hl_log Struct Reference'
    >>> t.find(".//p").addnext(fromstring("<h1>Building the library</h1>"))
    >>> title_line(t, "Hivelog: hl_log Struct Reference").text, title_line(t, "Hivelog: Building the library")
    ('hl_log Struct Reference', None)
    """
    main = main_root(tree)
    wanted = seq(title)
    h1 = [h for h in tree.iter("h1") if seq(h.text_content()) not in sites]  # a logo's <h1> heads no page
    if not wanted.strip() or any((line := seq(h.text_content())).strip() and line in wanted for h in h1):
        return None  # an <h1> the title names heads the page
    if (main.tag != "main" and role(main) != "main") or next(main.iter("nav"), None) is not None:
        main = None  # (a <main> holding the site's menu is the page's wrapper: NodeBB's `main#panel`)
    around = set(main.iterancestors()) if main is not None else set()  # the page's wrappers: the whole page's words
    most = 2 * len(title.split()) + 2  # an element of more tokens than this holds more than the title's words
    for el in tree.iter():
        if el is main or (h1 and el is h1[0]):
            return None  # the line heads the page: before its <main> and its sections' <h1>s
        if not isinstance(el.tag, str) or el.tag in _NOT_LINE or el in around or len(
                (text := el.text_content()).split(None, most)) > most:
            continue
        line = seq(text)
        if any(isinstance(c.tag, str) and seq(c.text_content()) == line for c in el):
            continue  # an element whose child holds all its words: the child is the line
        if line.strip() and (line == wanted or (line in wanted and seq_words(line) > 1)) and line not in sites \
                and not any(a.tag in _NOT_HERO or role(a) in _NOT_HERO_ROLES for a in el.iterancestors()):
            return el
    return None


_NOT_LINE = frozenset({"html", "head", "title", "body", "a", "nav", "aside", "footer", "script", "style", "meta"})


_ARTICLES = XPath("//article")
_NOT_HERO = frozenset({"a", "nav", "aside", "dialog", "footer"})  # a logo's link, the menus, the site's footer
_NOT_HERO_ROLES = frozenset({"navigation", "banner", "complementary", "contentinfo", "dialog"})  # declared: the site's


def follows_in_document(el: HtmlElement, other: HtmlElement) -> bool:
    """Whether `el` comes after `other` in document order, and not inside it."""
    chain = {el, *el.iterancestors()}
    node: HtmlElement | None = other
    while node is not None:
        if any(sib in chain for sib in node.itersiblings()):
            return True
        node = node.getparent()
    return False


def first_heading(root: HtmlElement, items: Collection[HtmlElement], sites: Collection[str] = ()) -> HtmlElement | None:
    """The first heading (h1-h6) outside the repeated groups' `items` and not what the page calls its site: a view's
    own heading when it has no headline (a profile's `<h4>` name above the user's cards).

    >>> from lxml.html import fromstring
    >>> t = fromstring('<div><h1>Conduit</h1><h4>bramble</h4><ul><li><h1>A</h1></li><li><h1>B</h1></li></ul></div>')
    >>> first_heading(t, set(t[2]), {" conduit "}).text
    'bramble'
    """
    for h in root.iter(*HEADINGS):
        found = seq(h.text_content())
        if found.strip() and found not in sites and not any(a in items for a in (h, *h.iterancestors())):
            return h
    return None


def entry_titles(root: HtmlElement, url: str, kept_seq: str, frame: Collection[HtmlElement] = (),
                 short: bool = False) -> list[HtmlElement]:
    """The titles of the page's entries of other pages whose text trafilatura kept: a heading (h1-h4) linking to
    another page, followed in its parent (or its `<header>`'s) by a block whose words the kept text holds (an
    archive's post title over the excerpt it kept), or with such a block after it in the list item it heads (a
    forum's row of topics: the title in one column, the latest post's teaser in another), and then the titles of
    the list's other items. A run of three entries or more is a group (`missed_groups`); this is an archive of one
    or two. Beside a short kept text (`short`: no article), a title may also be a bare link, the whole of its block
    (`_bare_title`: Drupal's `views-field-title` over the summary it kept).

    >>> from lxml.html import fromstring
    >>> t = fromstring('<ul><li><h2><a href="/leeks/">Late leeks</a></h2><p>The first frost came on the last night '
    ...                'of October.</p></li><li><h2><a href="/beans/">Beans</a></h2><p>Not kept.</p></li></ul>')
    >>> kept = " the first frost came on the last night of october "
    >>> [h.text_content() for h in entry_titles(t, "http://h/tag/soil/", kept)]
    ['Late leeks']
    >>> row = fromstring('<ul><li><div><h2><a href="/t/3">Bees on a balcony</a></h2></div><div class="teaser">'
    ...                  '<p>The first frost came on the last night of October.</p></div></li></ul>')
    >>> [h.text_content() for h in entry_titles(row, "http://h/c/5", kept)]
    ['Bees on a balcony']
    >>> row[0].addnext(fromstring('<li><div><h2><a href="/t/2">Swarm cells in May</a></h2></div></li>'))
    >>> [h.text_content() for h in entry_titles(row, "http://h/c/5", kept)]
    ['Bees on a balcony', 'Swarm cells in May']
    >>> view = fromstring('<div><div><span><a href="/n/1">Otters return to the weir</a></span></div><div><p>The '
    ...                   'first frost came on the last night of October.</p></div></div>')
    >>> [h.text_content() for h in entry_titles(view, "http://h/news/", kept, short=True)]
    ['Otters return to the weir']
    >>> entry_titles(view, "http://h/news/", kept)
    []
    """
    found = []
    for h in root.iter("h1", "h2", "h3", "h4", *(("a",) if short else ())):
        if h.tag == "a" and (h := _bare_title(h)) is None:
            continue
        if not links_elsewhere(h, url):
            continue
        nxt = (up if (up := h.getparent()) is not None and up.tag == "header" else h).getnext()
        while nxt is not None and not isinstance(nxt.tag, str):
            nxt = nxt.getnext()
        if nxt is not None and _kept_excerpt(nxt, kept_seq):
            found.append(h)
        elif h.tag in HEADINGS and (item := _item_kept(h, kept_seq, frame)) is not None:  # and the list's other titles
            found.extend(other for other in _item_titles(item) if links_elsewhere(other, url))
    return list(dict.fromkeys(found))


def _bare_title(a: HtmlElement) -> HtmlElement | None:
    """The block a title link (`is_title_link`, outside a heading) is the whole of: its outermost ancestor with no
    words but the link's, None when the link shares its parent's words."""
    if not is_title_link(a) or next(a.iterancestors(*HEADINGS), None) is not None:
        return None
    label, block = words(a.text_content()), None
    for up in a.iterancestors():
        if words(up.text_content()) != label:
            break
        block = up
    return block


def _kept_excerpt(el: HtmlElement, kept_seq: str) -> bool:
    """Whether an element's words are an excerpt the kept text holds (`ENTRY_TEXT_WORDS` or more)."""
    return seq_words(words := seq(" ".join(el.itertext()))) >= ENTRY_TEXT_WORDS and words in kept_seq


def _item_kept(h: HtmlElement, kept_seq: str, frame: Collection[HtmlElement] = ()) -> HtmlElement | None:
    """The list item a heading heads (its nearest `<li>`, the heading its first) when it holds after the heading a
    block the kept text holds (`_kept_excerpt`), or a sentence of the `frame` (`_framed_sentence`: the caller gives
    the frame of a page with no prose, whose teasers are its text, as a forum's row of one topic's latest post)."""
    item = next(h.iterancestors("li"), None)
    if item is None or next(item.iter(*HEADINGS)) is not h:
        return None
    after = (el for el in item.iter(*_EXCERPT_TAGS) if follows_in_document(el, h))
    return item if any(_kept_excerpt(el, kept_seq) or _framed_sentence(el, frame) for el in after) else None


def _item_titles(item: HtmlElement) -> list[HtmlElement]:
    """The first heading of each item of the list an item is in, where the item's own stands (the same signature)."""
    place = signature(next(item.iter(*HEADINGS)))
    up = item.getparent()
    titles = (next(li.iter(*HEADINGS), None) for li in (up.iterchildren("li") if up is not None else [item]))
    return [h for h in titles if h is not None and signature(h) == place]


def bare_entries(root: HtmlElement, url: str) -> list[HtmlElement]:
    """The `<article>`s of other pages whose only words are one title link (`is_title_link`) and a date, and the list
    items whose only words are such a link and a `<time>`: a listing's entries of one or two, on a page where
    trafilatura found no prose (a tag's or category's page of posts by title: NexT's articles, Nikola's list). Three
    or more are a group (`missed_groups` takes a list of link titles when there is no prose beside it).

    >>> from lxml.html import fromstring
    >>> t = fromstring('<main><h1>Practice</h1><article><time>02-25</time><div><a href="/2026/bells/">Teaching bell '
    ...                'handling to learners</a></div></article><article><a href="/p/">Next</a></article></main>')
    >>> [a.text_content() for a in bare_entries(t, "http://h/categories/practice/")]
    ['Teaching bell handling to learners']
    >>> t = fromstring('<ul><li><time>2026-03-21</time><a href="/posts/first/">First night at the reedbed hide</a>'
    ...                '</li><li><a href="/about/">About the moth trappers group</a></li></ul>')
    >>> [a.text_content() for a in bare_entries(t, "http://h/categories/reedbed/")]
    ['First night at the reedbed hide']
    """
    found = []
    for entry in root.iter("article", "li"):
        links = [a for a in entry.iter("a") if leads_elsewhere(a.get("href"), url)]
        if len(links) != 1 or not is_title_link(links[0]):
            continue
        dates = sum(words(t.text_content()) for t in entry.iter("time"))
        if (entry.tag == "article" or dates) and words(" ".join(entry.itertext())) == words(
                links[0].text_content()) + dates:
            found.append(links[0])  # an item of a list: dated, no menu's
    return found


def written_link_lists(root: HtmlElement, kept: Kept, frame: Collection[HtmlElement] = ()) -> list[HtmlElement]:
    """The items of the lists of links written in the text's own flow, which trafilatura leaves out as lists of
    links. Each item is one link and nothing else, a label of `LIST_LABEL_WORDS` words at most (a page's name) to a
    page of its own (not a place in this one), and the list stands (`_written_at`):

    - in the same parent as a paragraph trafilatura kept (`kept`), after it, two items or more: Markdown's "See also"
      and "Further reading" (Jekyll, Hexo, VitePress, MediaWiki);
    - in a wrapper of nothing but such lists and their headings, right after a paragraph that opens its section
      (kept, or a sentence of the frame): a wiki's category listing ("The following 2 pages are in this category",
      then letter headings over lists);
    - in such a wrapper under a heading, after a section of the text and before the end of what trafilatura kept: a
      wiki page's section of links ("Where to begin").

    A template's related-stories box or tag list stands in a wrapper of its own after the text's end, and a list of
    other stories' headlines has longer labels. A list that opens a section under its heading (`_headed`: ikiwiki's
    "Start here", a chapter list under "What is in this guide", a post's "Related posts") is the author's, and its
    labels may be pages' titles (`HEADED_LABEL_WORDS`).

    >>> from lxml.html import fromstring
    >>> t = fromstring('<div><p>Where to go next.</p><ul><li><a href="/a">Where we rehearse</a></li><li><a href='
    ...                '"/b">About the choir</a></li></ul><div><ul><li><a href="/t/x">Sweden</a></li><li><a href="/t/'
    ...                'y">Music</a></li></ul></div></div>')
    >>> [li.text_content() for li in written_link_lists(t, kept_container(t, seq("Where to go next.")))]
    ['Where we rehearse', 'About the choir']
    """
    out: list[HtmlElement] = []
    wrappers = set()
    for lst in _LINK_LISTS(root):
        at = _written_at(lst, kept, frame)
        if at is None:
            continue
        label = HEADED_LABEL_WORDS if _headed(at) else LIST_LABEL_WORDS
        if at is lst:
            items = [li for li in at if isinstance(li.tag, str)]
            out += items if len(items) > 1 and _written_links(items, label) else []
        elif at not in wrappers:  # a listing's wrapper: its lists together
            wrappers.add(at)
            lists = _LINK_LISTS(at)
            items = [li for one in lists for li in one if isinstance(li.tag, str)]
            # one item too: "only the following page"
            if len(lists) == len(_LISTS(at)) and _written_links(items, label):
                out += items
    return out


def listings_after(root: HtmlElement, url: str, kept: Kept, kept_words: int) -> list[HtmlElement]:
    """On a page where trafilatura found no prose (fewer than `FEW_WORDS` words: a title, a count), the listings that
    follow the last element it kept in that element's parent: each a box of links to pages of their own, two or more,
    mostly links (`lists.LINK_DENSE` of its words), or one link that is an entry's title (`is_title_link`: a card laid
    out as one link, its title and summary). A tag cloud under "9 tags in total", a category list with its counts, a
    wiki's nested map of pages under the line that introduces it, a listing of one card: the page's content, which is
    links (not a list of the page's relations, `_relations`: "Prev by Date:"). So is a table of data (a header cell in
    its first row) inside the kept text's container whose words trafilatura mostly left out, wherever it stands:
    Texinfo's index, its entries between two tables of letters ("Jump to: C E F") that trafilatura kept, with the
    index's header cells.

    >>> from lxml.html import fromstring
    >>> t = fromstring('<div><div>3 tags in total</div><div><a href="/t/a">Bells</a> <a href="/t/b">Ropes</a> '
    ...                '<a href="/t/c">Tenor</a></div></div>')
    >>> [el.text_content() for el in listings_after(t, "http://h/tags/", kept_container(t, seq("3 tags in total")), 4)]
    ['Bells Ropes Tenor']
    >>> card = fromstring('<div><p>News from the river.</p><div><a href="/n/1"><p>Otters return to the weir</p><p>'
    ...                   'Nine otters were counted.</p></a></div><div><a href="/privacy">Privacy</a></div></div>')
    >>> [el.text_content()[:6] for el in listings_after(card, "http://h/news/", kept_container(card, seq("News from "
    ...  "the river.")), 4)]
    ['Otters']
    >>> row = '<tr><td><a href="/t">cold proof</a>:</td><td><a href="/t">Temperatures</a></td></tr>'
    >>> letters = '<table><tr><th>Jump to:</th><td><a href="#c">C</a></td></tr></table>'
    >>> index = fromstring(f'<div>{letters}<table><tr><th>Entry</th><th>Section</th></tr>{row * 2}</table>{letters}'
    ...                    '</div>')
    >>> [el.text_content()[:17] for el in listings_after(index, "http://h/ix", kept_container(index, seq(
    ...  "Jump to: C\\nEntry Section\\nJump to: C")), 6)]
    ['EntrySectioncold ']
    """
    end = kept.end
    if kept_words >= FEW_WORDS or end is None:
        return []
    found = []
    boxes = [*end.itersiblings()]  # and the tables of data whose rows it left out, before its end too
    if kept.container.tag not in ("html", "body"):
        boxes += [t for t in _HEADED_TABLES(kept.container) if 2 * kept.held.get(t, 0) < words(t.text_content())]
    for box in dict.fromkeys(boxes):
        if not isinstance(box.tag, str) or _relations(box):
            continue
        links = [a for a in box.iter("a") if leads_elsewhere(a.get("href"), url) and words(a.text_content())]
        total = words(box.text_content())
        if (len(links) > 1 or (links and is_title_link(links[0]))) and \
                sum(words(a.text_content()) for a in links) >= LINK_DENSE * total:
            found.append(box)
    return found


def labelled_indexes(root: HtmlElement, url: str, kept_seq: str, kept_words: int) -> list[HtmlElement]:
    """On a page where trafilatura found no prose (fewer than `FEW_WORDS` words: the site's title), the indexes it left
    out: lists of `lists.MIN_ITEMS` items or more, each item a label of words of its own, then links to other pages
    and nothing else (no block inside), none of it kept. An API reference's index of fields or functions, "battery :
    hl_reading", each name beside the links to where it is declared: the page's content, whose words are half links.
    A menu's items are links alone, and a list of entries under prose is decided with the prose.

    >>> from lxml.html import fromstring
    >>> fields = ''.join(f'<li>{n} : <a href="/s{n}.html#a1">hl_log</a></li>' for n in ("capacity", "count", "head"))
    >>> page = fromstring('<div><div>Hivelog 1.2</div><ul><li><a href="/">Main Page</a></li><li><a href="/f">Files'
    ...                   f'</a></li><li><a href="/g">Globals</a></li></ul><ul>{fields}</ul></div>')
    >>> [" ".join(el.text_content().split()) for el in labelled_indexes(page, "http://h/fields", seq("Hivelog 1.2"), 2)]
    ['capacity : hl_log', 'count : hl_log', 'head : hl_log']
    """
    if kept_words >= FEW_WORDS:
        return []
    found = []
    for lst in _LISTS(root):
        items = [li for li in lst if isinstance(li.tag, str)]
        if len(items) >= MIN_ITEMS and all(li.tag == "li" and _labelled(li, url) for li in items) and \
                not any(seq(li.text_content()).strip() in kept_seq for li in items):
            found += items
    return found


def _labelled(item: HtmlElement, url: str) -> bool:
    """Whether a list item is a label of its own words, then links to other pages and nothing else (`labelled_indexes`).

    >>> from lxml.html import fromstring
    >>> [_labelled(fromstring(li), "http://h/") for li in ('<li>count : <a href="/log">hl_log</a></li>',
    ...  '<li><a href="/log">hl_log</a> count</li>', '<li>count <a href="#c">here</a></li>', '<li>count <p>x</p></li>')]
    [True, False, False, False]
    """
    links = list(item.iter("a"))
    return bool(links) and next(item.iterdescendants(*_NAME_BLOCKS), None) is None and bool(words(_label(item))) and \
        all(leads_elsewhere(a.get("href"), url) for a in links)


def contents_trees(root: HtmlElement, url: str, kept: Kept) -> list[HtmlElement]:
    """The tables of contents that trafilatura left out after the text: a list of links to pages of the site, nested
    (`_tree`: each item one link, some holding a list of the same kind), under a heading of its own (`_headed`), after
    the last element it kept and in the same container (the end's parent when the container does not hold the end: a
    paragraph holding most of the words). A manual's top node ("Table of Contents": its chapters, their sections under
    them), a documentation index. A list of related stories is flat, and a site's menu tree stands beside the text (a
    sidebar), not in its container.

    >>> from lxml.html import fromstring
    >>> toc = ('<div><p>This manual is for Leaven 1.4.</p><div><h2>Table of Contents</h2><ul><li><a href="o">1 '
    ...        'Overview</a></li><li><a href="i">2 Invoking</a><ul><li><a href="op">2.1 Options</a></li></ul></li></ul>'
    ...        '</div></div>')
    >>> t = fromstring(toc)
    >>> [el.text_content() for el in contents_trees(t, "http://h/", kept_container(t, seq("This manual is for L"
    ...                                                                                    "eaven 1.4.")))]
    ['1 Overview2 Invoking2.1 Options']
    >>> flat = fromstring(toc.replace('<ul><li><a href="op">2.1 Options</a></li></ul>', ''))
    >>> contents_trees(flat, "http://h/", kept_container(flat, seq("This manual is for Leaven 1.4.")))
    []
    """
    end = kept.end
    if end is None:
        return []
    container = kept.container if any(a is kept.container for a in end.iterancestors()) else end.getparent()
    if container is None or container.tag in ("html", "body"):
        return []
    return [lst for lst in _LISTS(container) if lst.getparent() is not None and lst.getparent().tag != "li"
            and follows_in_document(lst, end) and _tree(lst, url) == 2 and _headed(lst)]


def emptied_sections(root: HtmlElement, kept: Kept, headings: AbstractSet[str]) -> list[HtmlElement]:
    """The sections of the text whose heading trafilatura kept as a line (`headings`, as `seq`s) and nothing under it,
    before the last element it kept: what the heading heads (the elements after it in its parent, up to a heading of
    its rank or above), when it has words and is lists and tables, none of them a list of links alone (a menu, a
    rail of headlines) or a byline (`_BYLINE`: an author's or a time's markup, as CBS's list of authors under its
    standfirst); the `<h1>`'s section is the page itself. A kept heading is the author's, and so is its section
    (javadoc's "Class Hierarchy" over its tree, between kept sections). A section after the text's end (a "Related
    posts" rail, the comments) is not the text's.

    >>> from lxml.html import fromstring
    >>> t = fromstring('<div><h2>Why the loans</h2><ul><li>by <a rel="author" href="/m">Mo</a></li></ul>'
    ...                '<section><h2>Class Hierarchy</h2><ul><li>Object<ul><li>Loan</li></ul></li></ul></section>'
    ...                '<section><h2>Interface Hierarchy</h2><ul><li>Borrower is the one who takes the seed</li></ul>'
    ...                '</section><h2>Related</h2><ul><li>Other story</li></ul></div>')
    >>> kept = kept_container(t, seq("Class Hierarchy\\nInterface Hierarchy\\nBorrower is the one who takes the seed"))
    >>> [el.text_content() for el in emptied_sections(t, kept, {seq(h) for h in ("Why the loans", "Class Hierarchy",
    ...                                                                          "Related")})]
    ['ObjectLoan']
    """
    end = kept.end
    if end is None or not headings:
        return []
    found = []
    for h in root.iter(*HEADINGS):
        if h.tag == "h1" or seq(h.text_content()) not in headings:
            continue  # (under the headline: its byline and date)
        rank, section = h.tag, []
        for sib in h.itersiblings():
            if not isinstance(sib.tag, str):
                continue
            if any(x.tag <= rank for x in sib.iter(*HEADINGS)):  # a heading of its rank or above, or one inside
                break
            section.append(sib)
        listed = all(el.tag in _INTRODUCED and not _links_alone(el) and not _BYLINE(el) for el in section)
        if section and listed and not any(kept.held.get(el, 0) for el in section) and any(
                words(el.text_content()) for el in section) and follows_in_document(end, section[-1]):
            found += section
    return found


def _links_alone(lst: HtmlElement) -> bool:
    """Whether a list's items are each a link and nothing else (a menu, a rail of headlines).

    >>> from lxml.html import fromstring
    >>> _links_alone(fromstring('<ul><li><a href="/a">Alerts</a></li><li> <a href="/b">RSS Feeds</a></li></ul>')), \\
    ...     _links_alone(fromstring('<ul><li>org.example.<a href="Loan.html">Loan</a></li></ul>'))
    (True, False)
    """
    items = [li for li in lst if isinstance(li.tag, str)]
    return bool(items) and all(li.tag == "li" and (a := next(li.iter("a"), None)) is not None and
                               seq(a.text_content()) == seq(li.text_content()) for li in items)


def _tree(lst: HtmlElement, url: str) -> int:
    """How many levels deep a list of links is, at most 2 (its items each one link to a page of its own, then at most
    one list of the same kind), 0 when it is no such list.

    >>> from lxml.html import fromstring
    >>> [_tree(fromstring(h), "http://h/") for h in ('<ul><li><a href="a">A</a><ol><li><a href="b">B</a></li></ol>'
    ...  '</li></ul>', '<ul><li><a href="a">A</a></li></ul>', '<ul><li><a href="#a">A</a></li></ul>',
    ...  '<ul><li>Due: <a href="a">A</a></li></ul>')]
    [2, 1, 0, 0]
    """
    depth = 1
    for li in lst:
        if not isinstance(li.tag, str):
            continue
        if li.tag != "li" or not len(li):
            return 0
        link, *rest = li
        if link.tag != "a" or not _page_link((link.get("href") or "").strip()) or not leads_elsewhere(
                link.get("href"), url) or (li.text or "").strip() or (link.tail or "").strip() or len(rest) > 1:
            return 0
        if rest:
            inner = _tree(rest[0], url) if rest[0].tag in ("ul", "ol") and not (rest[0].tail or "").strip() else 0
            if not inner:
                return 0
            depth = 2
    return depth


def _relations(box: HtmlElement) -> bool:
    """Whether a list names the page's relations: most of its items a label and a colon before their first link
    ("Prev by Date: <subject>", "Next: Overview", "Up: Contents"): a mail's or a manual's neighbours, not a listing.

    >>> from lxml.html import fromstring
    >>> _relations(fromstring('<ul><li>Prev by Date: <a href="/8">Camera</a></li><li>Next by Date: <a href="/10">Re: '
    ...                       'Camera</a></li><li>Index(es):<ul><li><a href="/d">Date</a></li></ul></li></ul>'))
    True
    >>> _relations(fromstring('<ul><li><a href="/t/a">Bells</a> (3)</li><li><a href="/t/b">Ropes: a guide</a></li>'
    ...                       '</ul>'))
    False
    """
    items = [li for li in box if li.tag == "li"]
    labelled = 0
    for li in items:
        before = _label(li).strip()
        labelled += before.endswith(":") and any(c.isalpha() for c in before)
    return bool(items) and 2 * labelled > len(items)


def _label(item: HtmlElement) -> str:
    """The text of an item before its first link with words ("" with no such link, or when it is that link): "Prev by
    Date:", "battery :".

    >>> from lxml.html import fromstring
    >>> _label(fromstring('<li>Prev by <b>Date</b>: <a href="/8"><i></i>Camera</a> (Ann)</li>')), _label(
    ...     fromstring('<li><a href="/"></a>x</li>'))
    ('Prev by Date: ', '')
    >>> _label(fromstring('<li>hl_log <!-- x --><b>:</b> <a href="/h">hl_log</a></li>'))
    'hl_log : '
    """
    first = next((a for a in item.iter("a") if a.text_content().strip()), None)
    if first is None or first is item:
        return ""
    parts = [item.text or ""]
    for event, el in iterwalk(item, events=("start", "end")):
        if el is first:
            break
        if el is not item:  # an element's text at its start, its tail at its end (a comment's text is no text)
            parts.append((el.text or "") if event == "start" and isinstance(el.tag, str) else
                         (el.tail or "") if event == "end" else "")
    return "".join(parts)


def grid_names(root: HtmlElement, kept_seq: str, frame: Collection[HtmlElement] = ()) -> list[HtmlElement]:
    """The names of a grid's rows whose descriptions trafilatura kept (`kept_seq`: with the items of the groups it
    missed, `missed_groups`, whose words are the page's too) or the page's frame holds (a sentence inside a `frame`
    element, which `content` keeps as the frame's): the cell just before such a description,
    a name (`_name_cell`: a link first, a few words), where a grid (one parent's cells, or the rows of one table) pairs
    two names or more so, and most of its rows. javadoc's summaries are a grid of `<div>`s, a class's name (a link
    alone) beside its description, and trafilatura keeps the descriptions alone, as it does a table's description cells
    beside their links. A menu's link beside the page's text pairs it once.

    >>> from lxml.html import fromstring
    >>> t = fromstring('<div><div><a href="/a">Loan</a></div><div>A packet lent to a borrower in spring.</div><div>'
    ...                '<code><a href="#f">find</a>(String v)</code></div><div>Finds the freshest packet of a variety.'
    ...                '</div></div>')
    >>> kept_seq = seq("A packet lent to a borrower in spring.\\nFinds the freshest packet of a variety.")
    >>> [el.text_content() for el in grid_names(t, kept_seq)]
    ['Loan', 'find(String v)']
    >>> toc = fromstring('<ul><li><a href="#a">Who is it for?</a></li><li><a href="#b">What sort of support can I '
    ...                  'get?</a></li><li><a href="#c">Who pays?</a></li><li><a href="#d">How long will an assessment '
    ...                  'take?</a></li></ul>')
    >>> grid_names(toc, seq("What sort of support can I get?\\nHow long will an assessment take?"))  # no other name
    []
    >>> overview = fromstring('<main><div><div><a href="/s">seedlib</a></div><div>The catalogue of seed packets held '
    ...                       'by the library.</div><div><a href="/l">loans</a></div><div>Lending packets to gardeners '
    ...                       'and taking saved seed back.</div></div></main>')
    >>> grid_names(overview, ""), [el.text_content() for el in grid_names(overview, "", {overview})]
    ([], ['seedlib', 'loans'])
    """
    grids: defaultdict[HtmlElement, list[HtmlElement]] = defaultdict(list)
    for a in root.iter("a"):
        if not _in_cell(a) or not _name_cell(name := a):
            continue
        for _ in range(NAME_DEPTH):
            if (up := name.getparent()) is None or not _name_cell(up):
                break
            name = up  # the cell: the outermost box that is still a name, `NAME_DEPTH` boxes around the link at most
        cell = _element_after(name)
        if cell is None or name.tag not in _CELLS or cell.tag not in _CELLS or seq_words(
                said := seq(cell.text_content())) < SENTENCE_WORDS or _name_cell(cell) or (
                said not in kept_seq and not _in_frame(cell, frame)):
            continue  # a description is a sentence (a word of it would be found anywhere in the text), not a name
        up = name.getparent()
        grids[up.getparent() if up.tag == "tr" and up.getparent() is not None else up].append(name)
    found = []
    for grid, names in grids.items():
        names = list(dict.fromkeys(names))
        rows = sum(isinstance(el.tag, str) for el in grid) / (1 if names[0].getparent() is not grid else 2)
        if len({seq(n.text_content()) for n in names}) > 1 and len(names) >= rows / 2:
            found += names  # the pairs are the grid: most of its rows (two cells a row, at least)
    return found


def _in_cell(a: HtmlElement) -> bool:
    """Whether a link stands in a box that could be a grid's name: the link or one of its `NAME_DEPTH` nearest
    ancestors, below the first with more than `NAME_CHILDREN` children (where `_name_cell` stops), is a cell followed
    by a cell long enough for a sentence.
    Read without counting words: most links stand in no such box (a paragraph's, a menu's)."""
    for el in islice(chain((a,), a.iterancestors()), NAME_DEPTH + 1):
        if el.tag in _CELLS and (after := _element_after(el)) is not None and after.tag in _CELLS and len(
                after.text_content().strip()) >= 2 * SENTENCE_WORDS - 1:
            return True  # (a sentence's words, one character each at least)
        if len(el) > NAME_CHILDREN:
            return False
    return False


def _name_cell(el: HtmlElement) -> bool:
    """Whether an element is a name: a link first (no word before it: a method's name, then its parameters' types),
    at most `HEADED_LABEL_WORDS` words, no block inside. An element of more than `NAME_CHILDREN` children is none and
    is not read (a wrapper of the page's links: reading it whole for each of its links would cost the page's length
    over again).

    >>> from lxml.html import fromstring
    >>> [_name_cell(fromstring(h)) for h in ('<div><code><a href="#f">find</a>(String v)</code></div>', '<div>Use <a '
    ...  'href="/a">x</a></div>', '<div><a href="/a">x</a><p>y</p></div>', '<div><a href="/a">x</a>' + '<b>y</b>' * 9 +
    ...  '</div>')]
    [True, False, False, False]
    """
    if len(el) > NAME_CHILDREN or len(text := el.text_content()) > NAME_CHARS or not \
            0 < words(text) <= HEADED_LABEL_WORDS:
        return False
    return any(words(a.text_content()) for a in el.iter("a")) and not words(_label(el)) and next(
        el.iterdescendants(*_NAME_BLOCKS), None) is None


_NAME_BLOCKS = (*_BLOCKS, "li", "dl", "blockquote", "pre")
_CELLS = frozenset({"div", "td", "th", "dt", "dd", "li"})  # a grid's cells: boxes, not a line's words or paragraphs


def introduced_lists(root: HtmlElement, kept_seq: str, frame: Collection[HtmlElement] = ()) -> list[HtmlElement]:
    """The list or table right after a sentence that ends with a colon, which trafilatura kept (`kept_seq`) or the
    article's frame holds (`SENTENCE_WORDS` words or more): what the sentence introduces, every item of it, links and
    all. Doxygen opens each index so ("Here is a list of all documented struct and union fields with links to the
    struct/union documentation for each field:"), and trafilatura drops the list of short links below. A box holding
    only the list (Doxygen's `div.directory` around its table) is passed through.

    >>> from lxml.html import fromstring
    >>> t = fromstring('<div><div>Here are the data structures with brief descriptions:</div><div><table><tr><td>'
    ...                '<a href="/l">hl_log</a></td></tr></table></div><p>Tags:</p><ul><li>x</li></ul></div>')
    >>> [el.tag for el in introduced_lists(t, seq("Here are the data structures with brief descriptions:\\nTags:"))]
    ['table']
    """
    found = []
    for lst in root.iter(*_INTRODUCED):
        box = lst  # the list, or the box it alone fills
        while (up := box.getparent()) is not None and len(up) == 1 and not ((up.text or "") + (box.tail or "")).strip():
            box = up
        line = _element_before(box)
        if line is None or not line.text_content().strip().endswith(":"):
            continue
        if _framed_sentence(line, frame, kept_seq):
            found.append(lst)
    return found


_INTRODUCED = frozenset({"ul", "ol", "dl", "table"})
# a table of data: its first row holds a header cell
_HEADED_TABLES = XPath("descendant::table[(tr | */tr)[1]/th]")


def notes(root: HtmlElement, kept: Kept) -> list[HtmlElement]:
    """The notes the kept text marks: the paragraph or list item holding the element that a note's mark (a link of a
    kept line whose label is a number or a sign, no letter: "1", "[2]", "*") names (`href="#id"`), after it, or, when
    that element stands in a heading (a note's number), the heading and the paragraph after it. trafilatura drops a
    page's footnotes (Texinfo's `div.footnote` after the node: "(1)" over the note); the text's own mark says they are
    its. A link to a box (a thread, the page's top) names no note.

    >>> from lxml.html import fromstring
    >>> t = fromstring('<div><p>Warmth halves the time.<a href="#F1">1</a> <a href="#top">Top</a></p><div id="top">'
    ...                '<h5><a id="F1">(1)</a></h5><p>A rough fit to two winters.</p></div><a href="#S2">Sowing</a><h2 '
    ...                'id="S2">Sowing</h2><p>Sow in spring.</p></div>')
    >>> [el.text_content() for el in notes(t, kept_container(t, seq("Warmth halves the time.1 Top")))]
    ['(1)', 'A rough fit to two winters.']
    """
    marks = [a for a in root.iter("a") if (a.get("href") or "").startswith("#") and len(a.get("href")) > 1
             and _note_mark(a.text_content())]
    lines = [next((el for el in a.iterancestors() if el.tag in TEXT_TAGS), None) for a in marks]
    marks = [a for a, line in zip(marks, lines, strict=True) if line is not None and kept.held.get(line, 0)]
    if not marks:
        return []
    named = {el.get("id") or el.get("name"): el for el in _NAMED_TARGETS(root)}
    found: list[HtmlElement] = []
    for a in marks:
        target = named.get(a.get("href")[1:])
        block = None if target is None else next(
            (el for el in (target, *target.iterancestors()) if el.tag in _NOTE_BLOCKS), None)
        if block is None and target is not None and target.tag == "a" and _note_mark(target.text_content()):
            note = _note_after(target)  # the note's own number, a link back to the mark, its words in a box after it
        elif block is None or any(el is block for el in a.iterancestors()):
            continue
        else:
            note = [block, after] if block.tag in HEADINGS and (after := _element_after(block)) is not None and \
                after.tag == "p" else [block]
        if note and follows_in_document(note[0], a) and not kept.held.get(note[-1], 0):
            found += note  # (a note is after its mark, apart from it)
    return found


def _note_after(number: HtmlElement) -> list[HtmlElement]:
    """The paragraphs of the box after a note's number (Substack's `div.footnote`: the number, a link back to its
    mark, then `div.footnote-content` of the note's paragraphs), or the paragraph after it.

    >>> from lxml.html import fromstring
    >>> t = fromstring('<div><a id="f1" href="#m1">1</a><div><p>The change took effect later.</p><p>So it goes.</p>'
    ...                '</div></div>')
    >>> [p.text for p in _note_after(t[0])]
    ['The change took effect later.', 'So it goes.']
    """
    after = _element_after(number)
    if after is None:
        return []
    return [after] if after.tag == "p" else list(after.iter("p"))


def _note_mark(label: str) -> bool:
    """Whether a link's label is a note's mark: a few characters and no letter ("1", "[2]", "¹", "*", "†").

    >>> [_note_mark(t) for t in ("1", " [2] ", "¹", "†", "Top", "", "[note 1]")]
    [True, True, True, True, False, False, False]
    """
    mark = label.strip()
    return 0 < len(mark) <= NOTE_MARK_CHARS and not any(c.isalpha() for c in mark)


def _element_after(el: HtmlElement) -> HtmlElement | None:
    """The element just after `el` in its parent (not a comment), None when it is the last."""
    return next((sib for sib in el.itersiblings() if isinstance(sib.tag, str)), None)


_NOTE_BLOCKS = frozenset({"p", "li", "dd", *HEADINGS})
_NAMED_TARGETS = XPath("descendant::*[@id or self::a[@name]]")


def quote_attributions(root: HtmlElement, kept_seq: str, frame: Collection[HtmlElement] = ()) -> list[HtmlElement]:
    """The attribution of each quotation whose words are content (trafilatura kept them, or the article's frame holds
    the quotation: `_framed_sentence`): a `<footer>` or `<cite>` that is a child of
    the `<blockquote>` (Bootstrap's `blockquote-footer`), or the `<figcaption>` of a `<figure>` around it (the form
    HTML recommends). trafilatura leaves it out, and the frame takes a line that short for a byline; it is the
    quote's author.

    >>> from lxml.html import fromstring
    >>> t = fromstring('<div><blockquote><p>We had not seen an otter here for thirty years.</p><footer>Ann Reed'
    ...                '</footer></blockquote><figure><blockquote><p>Not kept at all.</p></blockquote><figcaption>Bob'
    ...                '</figcaption></figure></div>')
    >>> [el.text for el in quote_attributions(t, seq("We had not seen an otter here for thirty years."))]
    ['Ann Reed']
    """
    found: list[HtmlElement] = []
    for quote in root.iter("blockquote"):
        said = [p for p in quote if p.tag not in ("footer", "cite") and isinstance(p.tag, str)]
        if not any(_framed_sentence(p, frame, kept_seq) for p in said):
            continue
        found.extend(child for child in quote if child.tag in ("footer", "cite"))
        up = quote.getparent()
        if up is not None and up.tag == "figure":
            found.extend(child for child in up if child.tag == "figcaption")
    return found


def callout_titles(root: HtmlElement, kept_seq: str, frame: Collection[HtmlElement]) -> list[HtmlElement]:
    """The titles of the callouts written in the text's flow ("Note", "Ask the librarian" over a tip): a box after a
    paragraph of its parent whose first child is a line of plain text shorter than `SENTENCE_WORDS` (no link, no
    block inside), and whose other children are the body, paragraphs (or boxes or lists holding them) of
    `SENTENCE_WORDS` words or more that trafilatura kept or the frame holds (`frame`). Too short for frame content,
    the title would go (a byline is as short): the paragraphs under it say it heads text. Docusaurus writes a tip
    so (`div.admonitionHeading` over `div.admonitionContent`), Starlight in an `<aside>`, MkDocs and Sphinx with
    `p.admonition-title`. A byline over a dateline, a label over a figure and a link, head no paragraph.

    >>> from lxml.html import fromstring
    >>> t = fromstring('<div><p>Test ten seeds.</p><div><div>Why ten?</div><div><p>Ten fit neatly on half a towel.'
    ...                '</p></div></div><div><div>By Ann</div><div>November 18, 2019 12:02 PM, in the city</div></div>'
    ...                '</div>')
    >>> kept = seq("Test ten seeds. Ten fit neatly on half a towel. November 18, 2019 12:02 PM, in the city")
    >>> [el.text_content() for el in callout_titles(t, kept, ())]
    ['Why ten?']
    """
    out = []
    for title in _CALLOUT_TITLES(root):
        if not 0 < seq_words(seq(title.text_content())) < SENTENCE_WORDS:
            continue
        body = [el for el in title.itersiblings() if isinstance(el.tag, str)]
        paragraphs = [p for el in body for p in el.iter("p")]
        if body and paragraphs and all(el.tag in _CALLOUT_BODY for el in body) and all(
                _framed_sentence(p, frame, kept_seq) for p in paragraphs):
            out.append(title)
    return out


_CALLOUT_BODY = frozenset({"p", "div", "ul", "ol", "dl", "section", "blockquote", "pre"})
# the first child of a box after a paragraph (or alone in a box after one: Asciidoctor's sidebar), a paragraph or a
# box of its own with siblings, holding no link and no block: a callout's title
_PARAGRAPH = "self::p or self::div[count(*) = 1][p]"  # `boilerplate.paragraph`, one box deep
_CALLOUT_TITLES = XPath(f"//*[self::div or self::aside or self::section][preceding-sibling::*[{_PARAGRAPH}] or "
                        f"(count(../*) = 1 and ../preceding-sibling::*[{_PARAGRAPH}])]"
                        "/*[1][self::p or self::div][following-sibling::*][not(.//a)][not(.//*[self::p or self::div "
                        "or self::ul or self::ol or self::table or self::li or self::section])]")


def _headed(el: HtmlElement) -> bool:
    """Whether a list opens a section of its own under a heading: the element before it (or, when it is the first,
    before the box it opens), elements without words passed over, is a heading, or a paragraph introducing it that
    has a heading so before it."""
    node, intro = el, True
    while node is not None and node.tag not in _FLOW_ROOTS:
        before = next((sib for sib in node.itersiblings(preceding=True) if isinstance(sib.tag, str)
                       and (sib.text_content().strip() or next(sib.iter("img"), None) is not None)), None)
        if before is None:
            node = node.getparent()
        elif before.tag in HEADINGS:
            return True
        elif intro and paragraph(before):
            node, intro = before, False
        else:
            return False
    return False


def _written_links(items: list[HtmlElement], label_words: int = LIST_LABEL_WORDS) -> bool:
    """Whether list items, each one link and nothing else (`_LINK_LISTS`), are written links: labels of
    `LIST_LABEL_WORDS` words at most, the whole item, to pages of their own, none twice."""
    links = [next(li.iter("a")) for li in items]
    targets = [(a.get("href") or "").strip() for a in links]
    return len(set(targets)) == len(items) and all(_page_link(t) for t in targets) and all(
        (label := seq(li.text_content())) == seq(a.text_content()) and 0 < seq_words(label) <= label_words
        for li, a in zip(items, links, strict=True))


def _written_at(lst: HtmlElement, kept: Kept, frame: Collection[HtmlElement]) -> HtmlElement | None:
    """Where a list is written in the text's flow (see `written_link_lists`): the list itself, beside a kept
    paragraph; or the first of its wrappers with an element before it, holding no text outside lists and headings,
    when that element is a paragraph opening its section or a heading between the text's sections; else None."""
    if any(kept.held.get(sib, 0) and paragraph(sib) for sib in lst.itersiblings(preceding=True)):
        return lst
    node = lst.getparent()
    while node is not None and node.tag not in _FLOW_ROOTS:
        before = _element_before(node)
        if before is None:
            node = node.getparent()
            continue
        if before.tag in HEADINGS:  # a section of links: a section of the text before it, more text after it
            text = _element_before(before)
            placed = text is not None and bool(kept.held.get(text, 0)) and kept.end is not None and \
                follows_in_document(kept.end, node)
        else:  # a listing: its section's opening paragraph before it
            placed = paragraph(before) and _intro(before) and bool(
                kept.held.get(before, 0) or _framed_sentence(before, frame))
        return node if placed and not "".join(_LOOSE_TEXT(node)).strip() else None
    return None


def _element_before(el: HtmlElement) -> HtmlElement | None:
    """The element just before `el` in its parent (not a comment), None when it is the first."""
    return next((sib for sib in el.itersiblings(preceding=True) if isinstance(sib.tag, str)), None)


def _framed_sentence(p: HtmlElement, frame: Collection[HtmlElement], kept_seq: str = "") -> bool:
    """Whether a paragraph is a sentence (`SENTENCE_WORDS`) that trafilatura kept (`kept_seq`) or the article's frame
    holds: content either way."""
    return seq_words(text := seq(p.text_content())) >= SENTENCE_WORDS and (
        (bool(kept_seq) and text in kept_seq) or _in_frame(p, frame))


def _in_frame(el: HtmlElement, frame: Collection[HtmlElement]) -> bool:
    """Whether an element is one of the `frame` elements or inside one."""
    return any(up in frame for up in (el, *el.iterancestors()))


def _intro(p: HtmlElement) -> bool:
    """Whether a paragraph opens its section: the first element of its parent, or the first after a heading, with
    words of its own (not a link: a footer's column label)."""
    before = _element_before(p)
    return (before is None or before.tag in HEADINGS) and len(p.text_content().strip()) > sum(
        len(a.text_content().strip()) for a in p.iter("a"))


_FLOW_ROOTS = frozenset({"body", "main", "article", "html"})
# the text of an element outside its lists and headings
_LOOSE_TEXT = XPath("descendant::text()[not(ancestor::ul or ancestor::ol or ancestor::h1 or ancestor::h2 or "
                    "ancestor::h3 or ancestor::h4 or ancestor::h5 or ancestor::h6)]")


# lists of <li>s, each holding one link (read in C: most lists are not)
_LISTS = XPath("descendant-or-self::*[self::ul or self::ol]")
# a byline's markup: a <time>, a link to its author (`rel="author"`), microdata naming the author
_BYLINE = XPath("descendant-or-self::*[self::time or contains(concat(' ', @rel, ' '), ' author ') or "
                "@itemprop='author']")
_LINK_LISTS = XPath("descendant-or-self::*[self::ul or self::ol][*][not(*[not(self::li)])]"
                    "[not(li[count(.//a) != 1])]")


def titled_heading(root: HtmlElement, title: str, sites: Collection[str] = ()) -> HtmlElement | None:
    """The longest heading (h1-h6) of at least two words that the document title holds, and that is not
    what the page calls its site (`sites`, as `seq`s: the blog's name above every post): the page's
    headline whatever its level, even a link to the page itself (a forum thread's `<h2><a>Topic</a></h2>`,
    a blog theme's `<h1 class="entry-title"><a href=permalink>`).

    A one-word heading is the headline only when it is all the title says but the site's name ("Installation -
    Widget Blog"), or what the title says before a separator ("Options (GNU Leaven Manual)", "News - City"): a single
    word the title merely holds may be a section's label. A heading's section number ("2.1 Options", Texinfo's and a
    specification's) is no word of its title.

    >>> from lxml.html import fromstring
    >>> t = fromstring('<div><h1>Riverside Forum</h1><h2><a href="?t=7">Winter storage</a></h2></div>')
    >>> titled_heading(t, "Winter storage - Riverside Forum", {" riverside forum "}).text_content()
    'Winter storage'
    >>> t = fromstring('<div><h1><a href="/">Widget Blog</a></h1><h3>Widget</h3>'
    ...                '<h2><a href="i">Installation</a></h2></div>')
    >>> titled_heading(t, "Widget Blog - Installation", {" widget blog "}).text_content()
    'Installation'
    >>> print(titled_heading(t, "Installation of the widget", {" widget blog "}))
    None
    >>> t = fromstring('<div><h2>2 Invoking leaven</h2><h3>2.1 Options</h3></div>')
    >>> titled_heading(t, "Options (GNU Leaven Manual)").text, titled_heading(t, "Invoking leaven (GNU Leaven)").text
    ('2.1 Options', '2 Invoking leaven')
    """
    wanted = seq(title)
    own = wanted
    for name in sites:
        own = own.replace(name, " ")
    own = " ".join(own.split())
    lead = seq(_TITLE_PARTS.split(title.strip(), maxsplit=1)[0]).strip()  # the title's first part
    if len(wanted.split()) < 2 and not own:
        return None
    found = [(len(inner), h) for h in root.iter(*HEADINGS)
             if (inner := seq(h.text_content())).strip() and inner not in sites
             and (bare := _SECTION_NUMBER.sub("", inner) or inner)
             and ((len(bare.split()) >= 2 and bare in wanted) or bare.strip() in (own, lead))]
    return max(found, key=lambda pair: pair[0])[1] if found else None


# a title's parts: "Options (GNU Leaven Manual)", "News - City", "Page | Site", "Page · Site", "Page » Site"
_TITLE_PARTS = re.compile(r"\s+(?:[-|–—·»]\s+|\()")
_SECTION_NUMBER = re.compile(r"^(?: \d+)+(?= \D)")  # a section's number ("2.1 Options") as `seq` writes it
