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

import copy
import logging
import re
from collections import defaultdict
from dataclasses import dataclass

from lxml.html import HtmlElement

from .blocks import Block, to_markdown, to_text, tree_blocks
from .boilerplate import prune, tokens
from .lists import Group, repeated_groups
from .text import (
    BROADER_FACTOR,
    ESCALATE_BELOW,
    MAX_ELEMENTS,
    MAX_HTML_CHARS,
    approx_inner_text,
    clean,
    is_little,
    page_title,
    paragraphize,
    parse,
    tidy,
    trafilatura_blocks,
    words,
)

MISSED_SHARE = 0.3  # a repeated group trafilatura left out this much of is content it missed
CONTAINER_SHARE = 0.8
DOMINANT = 2.0  # a group with twice the words trafilatura kept is the page's content (a list page)
ARTICLE_WORDS = 150  # ... unless trafilatura kept an article: then comments and teasers beside it stay out
FEW_WORDS = 50  # ... and a list of link titles only when trafilatura found no prose at all
TEXT_TAGS = ("p", "li", "h1", "h2", "h3", "h4", "h5", "h6", "td", "th", "dd", "dt", "blockquote", "pre", "figcaption")
PLAIN_LINKS = 0.1  # a group in <main> outside the kept text's container: its share of link words at most
SHORT_LINE_WORDS = 6
LOST_SHARE = 0.3  # the reading-order merge may lose this much of trafilatura's words
MEDIA_NAMES = frozenset("figure photo photos image images img gallery inlinegallery caption media tweet widget embed "
                        "slide slider swiper carousel".split())

_WORD_RE = re.compile(r"\w+")
logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Content:
    title: str = ""
    text: str = ""
    markdown: str = ""
    method: str = "none"  # trafilatura | trafilatura+lists | structure | body | none
    blocks: tuple[Block, ...] = ()


def _seq(text: str) -> str:
    return " " + " ".join(_WORD_RE.findall(text.lower())) + " "


def kept_container(root: HtmlElement, kept: str) -> HtmlElement:
    """The deepest element holding `CONTAINER_SHARE` of the words trafilatura kept (the article body,
    the list's section): repeated groups inside it belong to the main content."""
    seq, total = _seq(kept), 0
    counts: defaultdict[HtmlElement, int] = defaultdict(int)
    for el in root.iter(*TEXT_TAGS):
        found = _seq(el.text_content())
        if found.strip() and found in seq:
            n = len(found.split())
            total += n
            for holder in (el, *el.iterancestors()):
                counts[holder] += n
    node = root
    while total:
        inner = [c for c in node if counts.get(c, 0) >= CONTAINER_SHARE * total]
        if not inner:
            break
        node = inner[0]
    return node


def is_media_run(g: Group) -> bool:
    """An in-article gallery, figure run or embed run: its captions are not the article's text.

    >>> from lxml.html import fromstring
    >>> is_media_run(Group(fromstring("<div/>"), (fromstring('<div class="photo-item">x</div>'),), 1, 0))
    True
    """
    first = g.items[0]
    names = {first.tag} | {t for n in (first.get("class") or "").split() for t in tokens(n)}
    return bool(names & MEDIA_NAMES)


def missed_groups(groups: list[Group], kept: str, container: HtmlElement, in_main: bool = False) -> list[Group]:
    """The groups trafilatura mostly left out of `kept` (word sequences, case folded) that are content:
    inside the kept text's container, or outweighing the kept text (a list page); a group of link
    titles only when there is no prose beside it (else it is a related-links box)."""
    seq, kept_words = _seq(kept), words(kept)
    informative = container.tag not in ("html", "body")  # all of the page says nothing
    out = []
    for g in groups:
        dominant = g.words >= DOMINANT * kept_words and kept_words < ARTICLE_WORDS
        near = informative and (g.parent is container or container in g.parent.iterancestors())
        plain = in_main and g.link_words <= PLAIN_LINKS * g.words  # in the page's <main>, items with their own text
        inside = (near or plain) and not is_media_run(g)
        if (g.link_dense and not (dominant and kept_words < FEW_WORDS)) or not (dominant or inside):
            continue
        missing = 0
        for item in g.items:
            item_seq = _seq(" ".join(item.itertext()))
            if item_seq.strip() and item_seq not in seq:
                missing += len(item_seq.split())
        if missing > MISSED_SHARE * g.words:
            out.append(g)
    return out


def _heads_kept_rows(blocks: list[Block], keep: list[bool], n: int) -> bool:
    """A table's header row above rows that are kept (trafilatura often drops <thead>)."""
    b = blocks[n]
    return b.kind == "row" and b.level == 1 and n + 1 < len(blocks) and blocks[n + 1].kind == "row" and keep[n + 1]


def merge(structure: list[Block], kept: list[Block]) -> list[Block]:
    """trafilatura's blocks plus the missed groups' blocks, in the page's reading order.

    The structural blocks trafilatura kept, or that sit in a missed group (`marked`), in
    document order; when that loses more than `LOST_SHARE` of trafilatura's words (it kept
    text the pruning removed), trafilatura's blocks followed by the groups' instead.
    """
    seq, lines = _seq(to_text(kept)), {_seq(b.text) for b in kept}

    def was_kept(b: Block) -> bool:  # a short line ("Share", "Advertisement") must match a whole kept line
        found = _seq(b.text)
        return found in lines or (len(found.split()) >= SHORT_LINE_WORDS and found in seq)

    keep = [b.marked or was_kept(b) for b in structure]
    chosen = [b for n, b in enumerate(structure) if keep[n] or _heads_kept_rows(structure, keep, n)]
    chosen_seq = _seq(to_text(chosen))
    lost = sum(len(_seq(b.text).split()) for b in kept if _seq(b.text) not in chosen_seq)
    if lost <= LOST_SHARE * words(to_text(kept)):
        return chosen
    return kept + [b for b in structure if b.marked and _seq(b.text) not in seq]


def _body_blocks(body: str) -> list[Block]:
    return [Block("p", line, line) for line in body.split("\n") if line.strip()]


def _choose(tree: HtmlElement, url: str, body: str) -> tuple[list[Block], str]:
    structure = prune(copy.deepcopy(tree))
    paragraphize(tree)
    blocks = trafilatura_blocks(tree, url, precise=True)
    if is_little(to_text(blocks), body, ESCALATE_BELOW):
        broader = trafilatura_blocks(tree, url, precise=False)
        if words(to_text(broader)) >= BROADER_FACTOR * words(to_text(blocks)):
            blocks = broader
    kept = to_text(blocks)
    in_main = structure.tag == "main" or structure.get("role") == "main"
    missed = missed_groups(repeated_groups(structure), kept, kept_container(structure, kept), in_main)
    marks = frozenset(item for g in missed for item in g.items)
    method = "trafilatura+lists" if missed else "trafilatura"
    blocks = merge(tree_blocks(structure, url, marks), blocks)  # furniture out of trafilatura's text too
    if is_little(to_text(blocks), body):
        blocks, method = tree_blocks(structure, url), "structure"
    if is_little(to_text(blocks), body):
        blocks, method = _body_blocks(body), "body"
    return blocks, method


def page_content(html: str | bytes, url: str, body_text: str = "") -> Content:
    """Title, text and Markdown of a page (see the module docstring). Never raises."""
    body = tidy(clean(body_text)) if isinstance(body_text, str) else ""
    try:
        return _page_content(html, url or "", body)
    except Exception:  # a crawl must not die on one page
        logger.warning("text extraction failed on %s", url, exc_info=True)
        blocks = _body_blocks(body)
        return Content("", to_text(blocks), to_markdown(blocks), "body")


def _page_content(html: str | bytes, url: str, body: str) -> Content:
    if isinstance(html, bytes):
        html = html.decode("utf-8", errors="replace")
    html = html[:MAX_HTML_CHARS] if isinstance(html, str) else ""
    tree = parse(html) if html.strip() else None
    if tree is None:
        blocks = _body_blocks(body)
        return Content("", to_text(blocks), to_markdown(blocks), "body" if blocks else "none")
    title = clean(page_title(tree))
    body = body or approx_inner_text(tree)
    if sum(1 for _ in tree.iter()) > MAX_ELEMENTS:
        blocks, method = _body_blocks(body), "body"
    else:
        blocks, method = _choose(tree, url, body)
    return Content(title, clean(to_text(blocks)), clean(to_markdown(blocks)), method, tuple(blocks))


def main_text(html: str | bytes, url: str, body_text: str = "") -> tuple[str, str]:
    """(title, text) of a page: `page_content` without the Markdown."""
    content = page_content(html, url, body_text)
    return content.title, content.text
