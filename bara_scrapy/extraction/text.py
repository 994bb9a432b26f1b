"""The visible main text of a page: trafilatura first, the rendered body text when it falls short.

Cheap path first, escalate only when it falls short (trafilatura's own shape):

0. a leaf <div> holding prose becomes a <p> (Readability's rule), because trafilatura
   drops text in bare <div>s that sit next to <p>s;
1. trafilatura in precision mode (drops nav/footer/related blocks best);
2. when that kept little of the page, the balanced mode, if it finds much more;
3. when even that is little next to the rendered body text (`document.body.innerText`,
   or an approximation from the HTML when the caller has none), the body text itself.

`main_text` never raises: empty, non-HTML, huge or badly encoded input gives the
best text available, possibly "".
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from functools import cached_property

from lxml import etree
from lxml.html import HtmlComment, HtmlElement, HtmlEntity, HtmlProcessingInstruction, fromstring
from trafilatura.settings import Extractor
from trafilatura.utils import decode_file, is_dubious_html, repair_faulty_html

from .blocks import INVISIBLE_CHARS, Block, from_trafilatura_xml, tree_blocks
from .boilerplate import HEADINGS, role, tab_panel
from .precise import precise_extraction
from .wordscan import word_count
from .xmloutput import xml_string

MAX_HTML_CHARS = 4_000_000  # larger documents are cut (what a reader sees is near the top)
MAX_ELEMENTS = 40_000  # trafilatura costs ~50 us per element: beyond ~2 s, keep the body text
MAX_TITLE_CHARS = 500
INCLUDE_COMMENTS = False
# Measured on the article-extraction-benchmark (see bara_scrapy/bench/articles.py):
ESCALATE_BELOW = 0.10  # precise text under 10% of the body's words: try the balanced mode
BROADER_FACTOR = 3.0  # ... and keep it when it has at least three times the words
LITTLE_BELOW = 0.02  # final text under 2% of the body's words (or empty): use the body text

_WORD_RE = re.compile(r"\w+")
# runs of spaces, but a lone " " (which they become): most spaces between words are one, left as they are
_SPACES_RE = re.compile(r" [ \t\r\f\v\u00a0]+|[\t\r\f\v\u00a0][ \t\r\f\v\u00a0]*")
_BLANK_LINES_RE = re.compile(r"\n\s*\n+")
_CONTROL_RE = re.compile(f"[\x0b\x0c\x1c-\x1f{INVISIBLE_CHARS}]")  # and the spaces a line has none of
_INVISIBLE = "script", "style", "noscript", "template", "head", "svg", "iframe", "object", "canvas", "video", "audio"
_DIV_BLOCKERS = frozenset(
    "address article aside audio blockquote canvas dd details dialog div dl dt fieldset figcaption figure "
    "footer form h1 h2 h3 h4 h5 h6 header hr iframe img li main nav ol p picture pre section svg table ul "
    "video".split()
)
_BLOCKS = frozenset(
    "address article aside blockquote br dd details dialog div dl dt fieldset figcaption figure footer "
    "form h1 h2 h3 h4 h5 h6 header hr li main nav ol p pre section summary table td th tr ul".split()
)

# The elements with a `hidden` attribute (the parents of the `hidden` attributes: the same elements in the same order
# as `//*[@hidden]`, without a predicate tested on each element, which libxml2 does slowly) and the <template>s
_UNRENDERED = etree.XPath("/descendant::*/@hidden/..|/descendant::template")
_RUBY_NOTES = etree.XPath("/descendant::rt|/descendant::rp")
_DISCLOSED = etree.XPath("/descendant::*[@aria-expanded]/@aria-controls")  # the ids of the panels controls open
_UNNAMING = etree.XPath("/descendant::*[@aria-expanded][not(@aria-controls)]")  # controls that name no panel
_DIALOG_OPENERS = etree.XPath("/descendant::*[@aria-haspopup='dialog'][@aria-controls]")  # ... and that open a dialog
_EDGES = frozenset({"header", "nav", "footer", "aside"})  # where the site's own controls stand (sign in, settings)
_EDGE_ROLES = frozenset({"banner", "navigation", "contentinfo", "complementary"})
_DIALOG_ROLES = frozenset({"dialog", "alertdialog"})
_OPENING = ("aria-expanded", "aria-haspopup", "until-found")  # words of the markup that opens panels
_WITH_ID = etree.XPath("/descendant::*[@id]")
_UNTIL_FOUND = etree.XPath("/descendant::*[@hidden='until-found']")
_HIDING = re.compile(r"(?:display\s*:\s*none|visibility\s*:\s*hidden)\s*(?:!important\s*)?;?", re.IGNORECASE)
_INLINE = ("a", "span", "time", "b", "strong", "em", "i", "small", "label", "abbr", "cite", "code", "img", "mark",
           "u", "s", "sub", "sup")
_BOXES = frozenset({"input", "img", "svg"})  # empty elements that take a box of their own between two inline ones
_CLOSING = frozenset(".,;:!?)]}\"'”’»")  # punctuation that ends a phrase: a word right after it is another
_FORMATTING = frozenset({"b", "strong", "em", "i", "u", "s", "sub", "sup", "mark", "small", "abbr"})

logger = logging.getLogger(__name__)


def words(text: str) -> int:
    """Number of word tokens (`\\w+`).

    >>> words("Hello, wide world!")
    3
    """
    return word_count(text)


def tidy(text: str) -> str:
    """Collapse runs of spaces and blank lines.

    >>> tidy("  a \\u00a0 b\\n\\n\\n c  ")
    'a b\\n\\nc'
    """
    return _BLANK_LINES_RE.sub("\n\n", "\n".join(_tidy_lines(text))).strip()


def _tidy_lines(text: str) -> Iterator[str]:
    """The text's lines, runs of spaces collapsed and each line trimmed (blank lines kept)."""
    return (line.strip() for line in _SPACES_RE.sub(" ", text).split("\n"))  # the spaces never hold a newline


def is_little(text: str, body: str, fraction: float = LITTLE_BELOW) -> bool:
    """Whether `text` holds less than `fraction` of the words of `body` (or nothing).

    >>> is_little("", "anything")
    True
    >>> is_little("one two", " ".join(["w"] * 200))
    True
    >>> is_little("one two three four five", " ".join(["w"] * 200))
    False
    """
    n = words(text)
    return n == 0 or n < fraction * words(body)


@dataclass(frozen=True)
class BodyText:
    """A page's body text: `document.body.innerText` as the browser gave it (`tidied`), or read from the tree
    (`inner_text`), whose lines are tidied only when they are written (`text`, a fallback's lines). Its words are
    counted on the text as it is: tidying trims lines, drops blank ones and collapses runs of spaces, and none of
    those is a word character, so the words are the same.

    >>> raw = BodyText("  One  two\\n\\n \\t three\\u00a0 ")
    >>> raw.words, raw.text, BodyText("One two", tidied=True).text
    (3, 'One two\\nthree', 'One two')
    """

    raw: str
    tidied: bool = False

    @cached_property
    def words(self) -> int:
        return words(self.raw)

    @cached_property
    def text(self) -> str:
        return self.raw if self.tidied else _nonblank_lines(self.raw)


def approx_inner_text(tree: HtmlElement) -> str:
    """A stand-in for `document.body.innerText` when only the HTML is at hand."""
    return inner_text(tree).text


def inner_text(tree: HtmlElement) -> BodyText:
    """`approx_inner_text`, its lines not tidied yet (`BodyText`)."""
    body = tree.find(".//body")
    root = body if body is not None else tree
    parts: list[str] = []

    def walk(el: HtmlElement) -> None:
        tag = el.tag
        if not isinstance(tag, str):
            tag = ""
        if tag in _INVISIBLE or (el.attrib and _hidden(el)):
            return
        block = tag in _BLOCKS
        if block:
            parts.append("\n")
        text = el.text  # lxml decodes the text (and the tail) on each access
        if text and tag:
            parts.append(text)
        for child in el:
            walk(child)
            tail = child.tail
            if tail:
                parts.append(tail)
        if block:
            parts.append("\n")

    walk(root)  # recursion is safe: libxml2 caps the tree depth at 256
    return BodyText("".join(parts))


def _nonblank_lines(text: str) -> str:
    """`tidy`, blank lines dropped: the text's lines that hold more than spaces, trimmed, runs of spaces collapsed.

    Trimming the lines first leaves fewer runs to collapse (a page's indentation goes with the trimming), and the
    same lines: no run of spaces spans a newline or crosses a line's first or last character that is not a space.

    >>> _nonblank_lines("  a \\u00a0 b\\n \\t\\n\\n c\\u2003 ")
    'a b\\nc'
    """
    return _SPACES_RE.sub(" ", "\n".join([line for raw in text.split("\n") if (line := raw.strip())]))


def _hidden(el: HtmlElement) -> bool:
    """The `hidden` attribute, or an inline style of `display: none`."""
    return el.get("hidden") is not None or "display:none" in (el.get("style") or "").replace(" ", "").lower()


def paragraphize(tree: HtmlElement) -> None:
    """Turn each <div> with text and no block-level descendant into a <p>, unless mostly links.

    >>> from lxml.html import fromstring
    >>> t = fromstring('<div><p>a b</p><div>Plain prose</div><div><a href="/">Menu</a></div></div>')
    >>> paragraphize(t)
    >>> [e.tag for e in t]
    ['p', 'p', 'div']
    """
    for div in _leaf_divs(tree):  # whether one turns into a <p> changes nothing for the others: both are blocks
        n = words(div.text_content())
        if n and 2 * sum(words(a.text_content()) for a in div.iter("a")) <= n:
            div.tag = "p"


def _leaf_divs(tree: HtmlElement) -> list[HtmlElement]:
    """The <div>s with no block-level descendant (`_DIV_BLOCKERS`).

    Only the block-level elements are looked at, not every element: each marks its ancestors, up to the first one
    already marked (whose own ancestors already are). The set keeps the marked elements' proxies, so the <div>s
    found after are the same objects.

    >>> from lxml.html import fromstring
    >>> t = fromstring('<div id="a"><div id="b"><span>x</span></div><div id="c"><p>y</p></div></div>')
    >>> [d.get("id") for d in _leaf_divs(t)]
    ['b']
    """
    blocked: set[HtmlElement] = set()  # elements with a block-level descendant
    for el in tree.iter(*_DIV_BLOCKERS):
        parent = el.getparent()
        while parent is not None and parent not in blocked:
            blocked.add(parent)
            parent = parent.getparent()
    return [div for div in tree.iter("div") if div not in blocked]


def separate_words(tree: HtmlElement) -> None:
    """Put a space between two adjacent inline elements that would glue two words into one.

    A card's `<a>bramble</a><span>June 1</span>` renders as two boxes (the page's CSS sets them
    apart); read as text it would be "brambleJune 1". So does a count after a word (`_badge_apart`). The same
    after closing punctuation: a quote's `<span>“…friends.”</span><span>by Ann</span>` is not "friends.”by".
    Two formatting elements (`<b>`, `<em>`...) side by side stay glued: they style parts of one word. Code stays
    as written: the spans inside a `<pre>` or `<code>` are a highlighter's colours of one text (`book` `.` `add`).

    >>> from lxml.html import fromstring
    >>> t = fromstring('<p><a href="/u">bramble</a><span>June 1</span> <b>in</b><i>credible</i>'
    ...                ' <span>“Go.”</span><span>by Ann</span><span>(</span><a href="/a">about</a></p>')
    >>> separate_words(t)
    >>> t.text_content()
    'bramble June 1 incredible “Go.” by Ann(about'
    >>> t = fromstring('<div><pre><span>book</span><span>.</span><span>add</span></pre>'
    ...                '<code><span>x.</span><span>y</span></code><span>z</span></div>')
    >>> separate_words(t)
    >>> t.text_content()
    'book.addx.y z'

    An empty box between the two (VitePress's code-group tabs: a radio button before each label) sets them apart too:

    >>> t = fromstring('<div><input type="radio"><label>From the terminal</label><input type="radio">'
    ...                '<label>Inside a script</label><b>super</b><wbr><b>califragilistic</b></div>')
    >>> separate_words(t)
    >>> t.text_content()
    'From the terminal Inside a script supercalifragilistic'

    Two cells of a row are two boxes, whatever the row holds (a block in one of them makes it no data row, read as
    text): a job's location and its date.

    >>> t = fromstring('<table><tr><td>PA - READING</td><td><span>5 Days Ago</span></td><td>(new)</td></tr></table>')
    >>> separate_words(t)
    >>> t.text_content()
    'PA - READING 5 Days Ago(new)'
    """
    verbatim = {el for code in tree.iter("pre", "code") for el in code.iterdescendants()}
    for el in tree.iter(*_INLINE):
        if el.tag not in _FORMATTING and el not in verbatim and (el.text or "").strip().isdigit():
            _badge_apart(el)
        nxt, boxed = el.getnext(), False
        while nxt is not None and not el.tail and nxt.tag in _BOXES and not nxt.tail and not len(nxt):
            nxt, boxed = nxt.getnext(), True  # a radio button or an icon between two labels: their boxes are apart
        if nxt is None or el.tail or not isinstance(nxt.tag, str) or nxt.tag not in _INLINE or el in verbatim:
            continue
        if el.tag in _FORMATTING and nxt.tag in _FORMATTING and not boxed:
            continue
        _set_apart(el, nxt)
    for cell in tree.iter("td", "th"):  # two cells of a row are two boxes, whatever the row holds
        if not cell.tail and (nxt := cell.getnext()) is not None and nxt.tag in ("td", "th"):
            _set_apart(cell, nxt)


def _set_apart(el: HtmlElement, nxt: HtmlElement) -> None:
    """A space after `el` (two boxes side by side, nothing between) where its last character and the first of `nxt`
    would glue a word, or closing punctuation, to the next word."""
    before, after = _last_char(el), _first_char(nxt)
    if (before.isalnum() or before in _CLOSING) and after.isalnum():
        el.tail = " "


def _first_char(el: HtmlElement) -> str:
    """The first character of an element's text (`text_content()[:1]`), found without reading all of it.

    >>> from lxml.html import fromstring
    >>> _first_char(fromstring("<td><!-- c --><b></b><i>5 Days</i></td>")), _first_char(fromstring("<td> 5</td>"))
    ('5', ' ')
    """
    text: str = el.text or ""
    for child in el:
        if text:
            break
        text = (_first_char(child) if isinstance(child.tag, str) else "") or child.tail or ""
    return text[:1]


def _last_char(el: HtmlElement) -> str:
    """The last character of an element's text (`text_content()[-1:]`), found from its end.

    >>> from lxml.html import fromstring
    >>> _last_char(fromstring("<td>PA - <b>READING</b><!-- c --></td>")), _last_char(fromstring("<td>Ago. </td>"))
    ('G', ' ')
    """
    for child in reversed(el):
        tail: str = child.tail or ""
        if found := tail or (_last_char(child) if isinstance(child.tag, str) else ""):
            return found[-1:]
    text: str = el.text or ""
    return text[-1:]


def _badge_apart(el: HtmlElement) -> None:
    """A count that ends its element right after a word (`<a>Announcements<span>2</span></a>`, a tag's number of
    posts) is a badge of its own: "Announcements 2", not "Announcements2". A number inside a run of text is the
    text's (`CO<span style="vertical-align: sub">2</span> lasers`).

    >>> from lxml.html import fromstring
    >>> t = fromstring('<ul><li><a href="/t">Announcements<span>2</span></a></li><li>CO<span>2</span> lasers</li>'
    ...                '<li>Seeds<b>3</b></li></ul>')
    >>> separate_words(t)
    >>> [li.text_content() for li in t]
    ['Announcements 2', 'CO2 lasers', 'Seeds3']
    """
    if (el.tail or "").strip() or el.getnext() is not None or len(el):
        return
    prev, parent = el.getprevious(), el.getparent()
    if prev is None and parent is not None and (parent.text or "")[-1:].isalpha():
        parent.text += " "
    elif prev is not None and (prev.tail or "")[-1:].isalpha():
        prev.tail += " "


def quote_headers(tree: HtmlElement) -> None:
    """A `<cite>` that opens a quote (the quote's first content, in the `<blockquote>` or its first wrapper)
    is the quote's header, on a line of its own as forums show it ("riverrat wrote:"), not glued to the
    quoted text; a `<cite>` inside the quoted sentence stays inline.

    >>> from lxml.html import fromstring
    >>> t = fromstring('<blockquote><div><cite>ann wrote: <span>May 1</span></cite>Keep it dry.</div></blockquote>')
    >>> quote_headers(t)
    >>> [(e.tag, e.text_content()) for e in t.iter("div")]
    [('div', 'ann wrote: May 1Keep it dry.'), ('div', 'ann wrote: May 1')]
    >>> t = fromstring('<blockquote><p>As <cite>Hamlet</cite> says.</p></blockquote>')
    >>> quote_headers(t)
    >>> t.find(".//cite") is not None
    True
    """
    for cite in tree.iter("cite"):
        holder = cite.getparent()
        if holder is None or cite.getprevious() is not None or (holder.text or "").strip():
            continue  # something comes before it: inline
        if holder.tag != "blockquote":
            outer = holder.getparent()
            if outer is None or outer.tag != "blockquote" or holder.getprevious() is not None \
                    or (outer.text or "").strip():
                continue
        cite.tag = "div"


def page_title(tree: HtmlElement) -> str:
    """<title>, else og:title, else the first <h1>."""
    for xpath in ("//head/title", '//meta[@property="og:title"]/@content', "//h1"):
        for found in tree.xpath(xpath):
            value = found if isinstance(found, str) else found.text_content()
            value = " ".join(str(value).split())
            if value:
                return value[:MAX_TITLE_CHARS]
    return ""


def trafilatura_xml(tree: HtmlElement, url: str, precise: bool) -> str | None:
    """`trafilatura.extract(tree, output_format="xml", ...)` without the document's simhash fingerprint.

    `extract` computes the fingerprint (a `<doc>` attribute, a tenth of its time) for XML output;
    `bare_extraction` and `determine_returnstring` are the rest of `extract`, so the XML is the same
    but for that attribute, which `from_trafilatura_xml` drops anyway. The precise pass skips the comparison with
    readability and jusText where it cannot change the result (`precise.py`), and the output cleans its plain text
    itself (`xmloutput.py`). Links are not marked (`links=False`):
    marking them changes which text trafilatura keeps, for the worse on every corpus (F1 article 0.9434
    against 0.9429, CleanEval 0.8979 against 0.8960, CleanPortalEval 0.9465 against 0.9457); a kept block takes
    its links from the page's tree (`content.merge`, `content.relinked`).
    """
    options = trafilatura_options(url, precise)
    document = precise_extraction(tree, options)  # bare_extraction's result, sooner
    return xml_string(document, options) if document is not None else None  # None: nothing


def trafilatura_options(url: str, precise: bool) -> Extractor:
    """The options of bara's trafilatura passes, precise or broader (`trafilatura_xml`)."""
    return Extractor(output_format="xml", precision=precise, comments=INCLUDE_COMMENTS, tables=True, links=False,
                     url=url or None)


def trafilatura_blocks(tree: HtmlElement, url: str, precise: bool) -> list[Block]:
    """trafilatura's main content as blocks; tables kept (readers see them), comments left out."""
    try:
        found = trafilatura_xml(tree, url, precise)
        root = from_trafilatura_xml(found) if found else None
        return tree_blocks(root, url) if root is not None else []
    except Exception:  # trafilatura on hostile input: the fallback handles it
        logger.debug("trafilatura failed on %s", url, exc_info=True)
        return []


def clean(text: str) -> str:
    """Valid UTF-8 without control characters or others that show nothing (lone surrogates become "?").

    >>> clean("Wärme\\xadpumpen\\x0c won\\x92t")
    'Wärmepumpen wont'
    """
    return _CONTROL_RE.sub("", text.encode("utf-8", "replace").decode("utf-8"))


def parse(html: str) -> HtmlElement | None:
    """lxml tree of a document; a fragment or plain text is parsed as a body's content."""
    tree = _load(html)
    if tree is None:  # only then the cleaned copy (a pass over the whole document)
        tree = _load(f"<html><body>{clean(html)}</body></html>")
    if tree is None:
        return None
    if any(word in html for word in _OPENING):  # most pages have no panel to open: no pass over them
        open_panels(tree)
    # not rendered, whatever the CSS says; but a tab panel is its tab's: every panel in the DOM is the page's
    # content (Docusaurus hides all but the first)
    for el in _UNRENDERED(tree):
        if not tab_panel(el):
            el.drop_tree()
    # a ruby's annotations (furigana over Japanese words): the line's words are its base text's, as in trafilatura's
    # text (else the two copies of each line differ, and both are printed)
    for el in _RUBY_NOTES(tree):
        el.drop_tree()
    if 'role="table"' in html:
        aria_tables(tree)
    if 'role="heading"' in html:
        aria_headings(tree)
    drop_permalinks(tree)
    inline_quotes(tree)
    separate_words(tree)
    quote_headers(tree)
    return tree


def open_panels(tree: HtmlElement) -> None:
    """Show the panels a reader opens: an element whose id a control names in `aria-controls` beside its
    `aria-expanded` (an accordion's question, a "Read more" button), hidden until the click (`hidden`, `aria-hidden`,
    an inline `display: none`), and an element `hidden="until-found"` (HTML's hidden until a reader's search in the
    page finds it: GOV.UK's accordion sections). Their text is the page's, as a tab panel's is: an FAQ's answers.

    >>> t = fromstring('<div><h3><button aria-expanded="false" aria-controls="a1">Can I renew online?</button></h3>'
    ...                '<div id="a1" hidden aria-hidden="true" style="color: red; display: none"><p>Yes.</p></div>'
    ...                '<section hidden="until-found"><p>Opening hours</p></section><ul id="m" hidden><li>Home</li>'
    ...                '</ul></div>')
    >>> open_panels(t)
    >>> [sorted(el.keys()) for el in t[1:]], t[1].get("style")
    ([['id', 'style'], [], ['hidden', 'id']], 'color: red; ')
    """
    dialogs: dict[str, HtmlElement] = {}  # a dialog's id -> the first control of the page's content that opens it
    for control in _DIALOG_OPENERS(tree):
        if not _at_edge(control):
            for name in control.get("aria-controls", "").split():
                dialogs.setdefault(name, control)
    named = {name for value in _DISCLOSED(tree) for name in value.split()} | dialogs.keys()
    opened = [el for el in _WITH_ID(tree) if el.get("id") in named] if named else []
    for el in (*_UNTIL_FOUND(tree), *opened, *_beside_controls(tree)):
        for attribute in ("hidden", "aria-hidden"):
            el.attrib.pop(attribute, None)
        if style := el.get("style"):
            el.set("style", _HIDING.sub("", style))
        if (control := dialogs.get(el.get("id", ""))) is not None:
            _undialog(el)
            _move_after(el, control)


def _move_after(el: HtmlElement, control: HtmlElement) -> None:
    """Move a dialog to just after the `control` that opens it, where a reader reads it: a script writes it at the
    end of the `<body>`, after the footer. The text after it stays where it stood. Not where one holds the other.

    >>> t = fromstring('<div><main><p>Sideboard</p><button>Details</button> more</main><footer>Shop</footer><div '
    ...                'id="d"><p>Oak</p></div> tail</div>')
    >>> _move_after(t[2], t[0][1])
    >>> [el.tag for el in t[0]], t[0][2].tail, t[1].tail
    (['p', 'button', 'div'], ' more', ' tail')
    """
    if el in control.iterancestors() or control in el.iterancestors():
        return
    tail, el.tail = el.tail, None
    if tail:
        previous, parent = el.getprevious(), el.getparent()
        if previous is not None:
            previous.tail = (previous.tail or "") + tail
        elif parent is not None:
            parent.text = (parent.text or "") + tail
    el.tail, control.tail = control.tail, None
    control.addnext(el)


def _at_edge(control: HtmlElement) -> bool:
    """Whether a control stands in the site's header, footer, menus or a sidebar (by tag or role): its dialog is the
    site's (sign in, cookie settings), not the page's details."""
    return any(a.tag in _EDGES or role(a) in _EDGE_ROLES for a in control.iterancestors())


def _undialog(panel: HtmlElement) -> None:
    """A dialog the page's own content opens (a product's "Product details" sheet, `aria-haspopup="dialog"`) holds
    the page's text: its dialog roles and `<dialog>` tags go, so that no landmark takes it for a popup of the site.

    >>> t = fromstring('<div><div id="m"><dialog><div role="dialog" aria-modal="true"><p>Oak</p></div></dialog>'
    ...                '</div></div>')
    >>> _undialog(t[0])
    >>> [(el.tag, sorted(el.keys())) for el in t[0].iter()]
    [('div', ['id']), ('div', []), ('div', []), ('p', [])]
    """
    for el in panel.iter():
        if el.tag == "dialog":
            el.tag = "div"
            el.attrib.pop("open", None)
        if role(el) in _DIALOG_ROLES:
            el.attrib.pop("role")
            el.attrib.pop("aria-modal", None)


def _beside_controls(tree: HtmlElement) -> list[HtmlElement]:
    """The panels of the controls with `aria-expanded` that name none in `aria-controls` (`_panel_after`).

    >>> t = fromstring('<div><div><button aria-expanded="false">Materials</button><div hidden><p>Oak veneer</p>'
    ...                '</div></div><div><div><button aria-expanded="false">Care</button></div><div><i aria-hidden='
    ...                '"true">v</i><p style="display: none">Wipe clean.</p></div></div><p hidden>Unrelated</p>'
    ...                '<header><a href="/">Logo</a><button aria-expanded="false">Menu</button></header><div hidden>'
    ...                'Cookies</div></div>')
    >>> [el.text_content() for el in _beside_controls(t)]
    ['Oak veneer', 'Wipe clean.']
    """
    controls = _UNNAMING(tree)
    ours = set(controls)
    return [panel for control in controls if (panel := _panel_after(control, ours)) is not None]


def _panel_after(control: HtmlElement, controls: AbstractSet[HtmlElement]) -> HtmlElement | None:
    """The panel of a disclosure `control` that names none: the first hidden element (`hidden`, `display: none`;
    `aria-hidden` alone hides an icon from screen readers, not from sight) with text after it, before any other of the
    `controls`, inside the box the control begins (no text before it there). Notion's toggle, an accordion's item:
    `<button aria-expanded="false">` then `<div hidden>`. A menu's button after a logo opens nothing further off (a
    cookie box at the end of the page)."""
    node = control
    while True:
        for el in (el for sibling in node.itersiblings() for el in sibling.iter()):
            if el in controls:
                return None  # the next control's panel, not this one's
            if isinstance(el.tag, str) and _hidden(el) and el.text_content().strip():
                return el
        parent = node.getparent()
        if parent is None or (parent.text or "").strip() or any(
                (sibling.text_content() + (sibling.tail or "")).strip()
                for sibling in node.itersiblings(preceding=True)):
            return None
        node = parent


_ARIA_TABLES = etree.XPath("/descendant::*[@role='table']")
_TABLE_PARTS = {"row": "tr", "rowgroup": "tbody", "cell": "td", "gridcell": "td", "columnheader": "th",
                "rowheader": "th"}


def aria_tables(tree: HtmlElement) -> None:
    """Make a table of each element whose `role` says it is one, and of its rows and cells: a React app's `<div
    role="table">` (Notion's page properties) is read as a `<table>`, its rows a label's and a value's, not as loose
    short lines. Only a table's own parts: a cell's content keeps its tags.

    >>> t = fromstring('<div><div role="table"><div role="row"><div role="rowheader">Owner</div><div role="cell">'
    ...                '<div>Maya Okafor</div></div></div></div></div>')
    >>> aria_tables(t)
    >>> [el.tag for el in t[0].iter()]
    ['table', 'tr', 'th', 'td', 'div']
    """
    for table in _ARIA_TABLES(tree):
        parts = {el: part for el in table.iter() if el is not table and isinstance(el.tag, str)
                 and (part := _TABLE_PARTS.get(role(el))) is not None}
        if "tr" not in parts.values():
            continue
        table.tag = "table"
        for el, part in parts.items():
            el.tag = part


_ARIA_HEADINGS = etree.XPath("/descendant::*[@role='heading']")
# what a heading of one line holds none of
_HEADING_BLOCKS = ("p", "div", "ul", "ol", "li", "dl", "table", "section", "article", "blockquote", "pre", "figure",
                   *HEADINGS)


def aria_headings(tree: HtmlElement) -> None:
    """Make a heading of each element whose `role` says it is one (`aria-level`, 2 when it names none, as ARIA has
    it), when it is a line: no link (a link stays one) and no block inside it. Lobsters writes a story's title as
    `<span role="heading" aria-level="1">`: the page's headline.

    >>> t = fromstring('<div><span role="heading" aria-level="1"><a href="https://x.org/p">Otters return</a></span>'
    ...                '<div role="heading"><p>A comment.</p></div><a role="heading" href="/s">A story</a></div>')
    >>> aria_headings(t)
    >>> [el.tag for el in t]
    ['h1', 'div', 'a']
    """
    for el in _ARIA_HEADINGS(tree):
        if el.tag in HEADINGS or el.tag == "a" or next(el.iterdescendants(*_HEADING_BLOCKS), None) is not None \
                or not el.text_content().strip():
            continue
        level = (el.get("aria-level") or "").strip()
        el.tag = f"h{level}" if level in ("1", "2", "3", "4", "5", "6") else "h2"


def inline_quotes(tree: HtmlElement) -> None:
    """A `<q>` as a browser shows it: its words between quotation marks, in the sentence around it (trafilatura
    makes it a quote block of its own, and the sentence came out in three lines). A quotation inside another takes
    single marks.

    >>> from lxml.html import fromstring
    >>> t = fromstring('<p>The chair said <q>it is <q>soon</q>, <b>very</b></q> on Monday.</p>')
    >>> inline_quotes(t)
    >>> t.text_content()
    'The chair said “it is ‘soon’, very” on Monday.'
    """
    quotes = [(q, any(a.tag == "q" for a in q.iterancestors())) for q in tree.iter("q")]
    for q, inner in quotes:
        opening, closing = ("‘", "’") if inner else ("“", "”")
        q.tag = "span"
        q.text = opening + (q.text or "")
        if len(q):
            q[-1].tail = (q[-1].tail or "") + closing
        else:
            q.text += closing


def drop_permalinks(tree: HtmlElement) -> None:
    """Remove a heading's permalink: a link to a fragment of the page whose label has no word (Sphinx's and MkDocs'
    "¶", a "#" or an icon), which a reader sees only on hover; the heading's words stay.

    >>> from lxml.html import fromstring
    >>> t = fromstring('<div><h2 id="use">Basic use<a class="headerlink" href="#use">¶</a></h2>'
    ...                '<h3><a href="#x">Setup</a></h3><p>See <a href="#use">¶</a></p></div>')
    >>> drop_permalinks(t)
    >>> [h.text_content() for h in t], t[1].find("a") is not None
    (['Basic use', 'Setup', 'See ¶'], True)

    So is a permalink of another element, to the element that holds it (Texinfo's option `<dt>`, Sphinx's API entry):

    >>> t = fromstring('<dl><dt id="opt-r"><code>--recipe</code><a href="#opt-r">¶</a></dt><dd>Read it.</dd></dl>')
    >>> drop_permalinks(t)
    >>> t[0].text_content()
    '--recipe'

    A heading whose words are a link to the heading itself (its own id, its link's, or its section's: Markdown
    renderers' anchored headings) is a heading, not a link: the link goes, its words stay.

    >>> t = fromstring('<section id="count"><h2 id="how"><a href="#how">How we <em>counted</em></a></h2>'
    ...                '<h2><a name="w" href="#w">Weir</a></h2><h2><a href="#count">Count</a></h2>'
    ...                '<h2><a href="#other">Other</a></h2></section>')
    >>> drop_permalinks(t)
    >>> [(h.text_content(), h.find("a") is not None) for h in t]
    [('How we counted', False), ('Weir', False), ('Count', False), ('Other', True)]
    """
    doomed, selves = [], []
    for a in tree.iter("a"):
        href = a.get("href") or ""
        if not href.startswith("#"):
            continue
        if not _WORD_RE.search(a.text_content()):
            if any(h.tag in HEADINGS or (href[1:] and h.get("id") == href[1:]) for h in a.iterancestors()):
                doomed.append(a)  # a heading's, or a term's that links to the term itself (Texinfo's <dt>)
        elif href[1:] and (heading := _heading_of(a)) is not None and href[1:] in _anchors(a, heading):
            selves.append(a)
    for a in doomed:
        a.drop_tree()  # keeps the tail
    for a in selves:
        a.drop_tag()  # keeps its words


def _heading_of(a: HtmlElement) -> HtmlElement | None:
    """The heading a link is the words of: its parent or grandparent (`<h2><a>`, `<h2><span><a>`)."""
    up = a.getparent()
    for _ in range(2):
        if up is None or up.tag in HEADINGS:
            return up
        up = up.getparent()
    return None


def _anchors(a: HtmlElement, heading: HtmlElement) -> set[str]:
    """The names a heading's link may point it at: the link's `id` and `name`, the heading's `id` and its parent's."""
    parent = heading.getparent()
    return {v for v in (a.get("id"), a.get("name"), heading.get("id"), None if parent is None else parent.get("id"))
            if v}


def _parser() -> etree.HTMLParser:
    """trafilatura's HTML parser, whose elements are `HtmlElement`s found without a call into Python.

    `lxml.html.HTMLParser` picks each element's class in a Python method (`HtmlElementClassLookup.lookup`: form
    fields get classes of their own), called whenever lxml hands an element to Python: thousands of times a page,
    by our passes and trafilatura's. Every element here is an `HtmlElement` (text_content, drop_tree, ... as
    before); form fields' own methods are not used.
    """
    parser = etree.HTMLParser(collect_ids=False, default_doctype=False, encoding="utf-8", remove_comments=True,
                              remove_pis=True)
    parser.set_element_class_lookup(etree.ElementDefaultClassLookup(
        element=HtmlElement, comment=HtmlComment, pi=HtmlProcessingInstruction, entity=HtmlEntity))
    return parser


_PARSER = _parser()


def _load(html: str) -> HtmlElement | None:
    """trafilatura's `load_html` with `_parser()`; None when it fails."""
    try:
        html = decode_file(html)
        beginning = html[:50].lower()
        dubious = is_dubious_html(beginning)
        html = repair_faulty_html(html, beginning)
        try:
            tree = fromstring(html, parser=_PARSER)
        except ValueError:  # a string with an encoding declaration
            tree = None
        if tree is None or len(tree) < 1:
            tree = fromstring(html.encode("utf-8", "surrogatepass"), parser=_PARSER)
    except Exception:
        return None
    return None if tree is None or (dubious and len(tree) < 2) else tree
