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
from dataclasses import dataclass, replace

from lxml.html import HtmlElement

from .blocks import Block, to_markdown, to_text, tree_blocks
from .boilerplate import prune_split
from .lists import repeated_groups
from .missed import declares_article, kept_container, missed_groups
from .missed import seq as _seq
from .text import (
    BROADER_FACTOR,
    ESCALATE_BELOW,
    LITTLE_BELOW,
    MAX_ELEMENTS,
    MAX_HTML_CHARS,
    approx_inner_text,
    clean,
    page_title,
    paragraphize,
    parse,
    tidy,
    trafilatura_blocks,
    words,
)

SHORT_LINE_WORDS = 6
LOST_SHARE = 0.3  # furniture may take this much of trafilatura's words; more (and a paragraph's worth,
LOST_WORDS = 100  # not a related box beside a short list), and the pruning took the article: keep trafilatura's

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Content:
    title: str = ""
    text: str = ""
    markdown: str = ""
    method: str = "none"  # trafilatura | trafilatura+lists | structure | body | none
    blocks: tuple[Block, ...] = ()


def merge(structure: list[Block], kept: list[Block], furniture: str = "") -> list[Block]:
    """trafilatura's blocks, less page furniture, with the missed groups' blocks in the page's reading order.

    A block trafilatura kept is dropped only when its text is in the pruned `furniture` and
    nowhere in the pruned tree (`structure`): small differences between trafilatura's text and
    the tree's (spacing around links, split lines) never cost a paragraph of the article.
    A marked block (in a missed group) or a table's header row above kept rows, missing
    from trafilatura's text, goes just before the next block trafilatura kept.

    >>> p = lambda t, m=False: Block("p", t, t, marked=m)
    >>> intro = "An intro of several words"
    >>> [b.text for b in merge([p(intro), p("Item one", True), p("Outro")], [p(intro), p("Outro"), p("Menu")],
    ...                        "Menu")]
    ['An intro of several words', 'Item one', 'Outro']
    """
    struct_seqs = [_seq(b.text) for b in structure]
    struct_seq, struct_lines, furn_seq = _seq(to_text(structure)), set(struct_seqs), _seq(furniture)

    def in_structure(found: str) -> bool:  # a short line ("Share") must match a whole line
        return found in struct_lines or (len(found.split()) >= SHORT_LINE_WORDS and found in struct_seq)

    kept_seqs = [_seq(b.text) for b in kept]
    body = [b for b, found in zip(kept, kept_seqs, strict=True) if in_structure(found) or found not in furn_seq]
    lost = words(to_text(kept)) - words(to_text(body))
    if lost > LOST_SHARE * words(to_text(kept)) and lost >= LOST_WORDS:
        body = kept  # the pruning took the article itself (a <main> beside it, a wrapper named "sidebar")
    kept_seq, index = _seq(to_text(kept)), dict[str, int]()
    for n, b in enumerate(body):
        index.setdefault(_seq(b.text), n)
    anchors = [index.get(found, -1) for found in struct_seqs]
    following, nxt = [len(body)] * len(structure), len(body)
    for i in range(len(structure) - 1, -1, -1):
        following[i] = nxt
        nxt = anchors[i] if anchors[i] >= 0 else nxt
    out: list[Block] = []
    pos = 0
    for i, b in enumerate(structure):
        if anchors[i] >= pos:
            out.extend(body[pos : anchors[i] + 1])
            pos = anchors[i] + 1
            continue
        found = struct_seqs[i]
        header = b.kind == "row" and b.level == 1 and i + 1 < len(structure) and anchors[i + 1] >= 0
        if (b.marked or header) and anchors[i] < 0 and found not in kept_seq:
            out.extend(body[pos : following[i]])
            pos = max(pos, following[i])
            out.append(b)
    out += body[pos:]
    return [replace(b, level=0) if b.kind == "row" and b.level == 1 and n and out[n - 1].kind == "row" else b
            for n, b in enumerate(out)]  # a header row put back above trafilatura's first row: one table


def _body_blocks(body: str) -> list[Block]:
    return [Block("p", line, line) for line in body.split("\n") if line.strip()]


def _little(blocks: list[Block], body_words: int, fraction: float = LITTLE_BELOW) -> bool:
    """`text.is_little` with the body's words counted once."""
    n = words(to_text(blocks))
    return n == 0 or n < fraction * body_words


def _choose(tree: HtmlElement, url: str, body: str) -> tuple[list[Block], str]:
    structure, furniture = prune_split(copy.deepcopy(tree))
    paragraphize(tree)
    blocks = trafilatura_blocks(tree, url, precise=True)
    body_words = words(body)  # counted once: the body text is the page's longest string
    if _little(blocks, body_words, ESCALATE_BELOW):
        broader = trafilatura_blocks(tree, url, precise=False)
        if words(to_text(broader)) >= BROADER_FACTOR * words(to_text(blocks)):
            blocks = broader
    kept = to_text(blocks)
    in_main = structure.tag == "main" or structure.get("role") == "main"
    container, end = kept_container(structure, kept)
    missed = missed_groups(repeated_groups(structure), kept, container, in_main, declares_article(tree), end)
    marks = frozenset(item for g in missed for item in g.items)
    method = "trafilatura+lists" if missed else "trafilatura"
    blocks = merge(tree_blocks(structure, url, marks), blocks, furniture)  # furniture out of trafilatura's text too
    if _little(blocks, body_words):
        blocks, method = tree_blocks(structure, url), "structure"
    if _little(blocks, body_words):
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
