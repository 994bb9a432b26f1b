"""What a reader skips: navigation, site header and footer, banners, share bars, ads, related boxes.

`prune(root)` removes those from a (copied) lxml tree, keeping everything else in
place, so the structural pass (`lists.py`, `blocks.py`) sees the page's content
in reading order. Three cheap signals, all explainable:

1. landmarks: <nav>, <aside>, <dialog>, and <header>/<footer> that are not inside
   an <article>/<section>/<main> (the HTML rule that makes them the page's banner and
   contentinfo); ARIA roles navigation, banner, contentinfo, complementary, search, dialog,
   alertdialog and tooltip (a popup describing a control, shown on hover or focus);
2. class/id tokens naming boilerplate (cookie, consent, share, related, ad, ...);
3. when the page has one <main> (or role=main), only it is content.

An element that holds the page's <main> or half its text is never removed (wrappers
named "page-sidebar-layout", an <article class="post has-sidebar">).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from lxml.etree import XPath
from lxml.html import HtmlElement

from ..urls import DenyPolicy, is_sign_in
from .lists import TITLE_WORDS  # links averaging fewer words are labels ("Home", "Share on X")
from .wordscan import word_count, word_seq

# what a reader does not read as text: scripts, styles, controls, and the fallback a browser shows only when it cannot
# play a <video> or <audio> ("Your browser does not support the video tag.")
INVISIBLE = frozenset("script style noscript template head svg iframe object canvas button select video audio".split())
HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
LANDMARK_TAGS = frozenset({"nav", "aside", "dialog"})
EDGE_TAGS = frozenset({"header", "footer"})  # boilerplate unless inside one of EDGE_SCOPES
# ... and, for text, the page's <address>: the contact information of the page (of its nearest article when inside
# one), as HTML defines it, a page's closing "Mail converted by MHonArc" or "webmaster@… / Last update: …"
TEXT_EDGE_TAGS = EDGE_TAGS | {"address"}
SECTIONING = frozenset({"article", "section", "main", "aside", "nav"})
# the elements a <header> or <footer> inside belongs to, not the page: an article's, a section's, and a quotation's
# attribution (`<blockquote><p>…</p><footer>— Ann Reed</footer>`: Bootstrap's `blockquote-footer`)
EDGE_SCOPES = SECTIONING | {"blockquote"}
# a tooltip: a popup describing a control, shown on hover or focus; a textbox or searchbox: a field a reader types
# into, its words a placeholder or her draft ("What are your thoughts?" under an article), as a <textarea>'s
BOILER_ROLES = frozenset({"navigation", "banner", "contentinfo", "complementary", "search", "dialog", "alertdialog",
                          "tooltip", "textbox", "searchbox"})
BOILER_TOKENS = frozenset(
    "cookie cookies consent gdpr cmp share sharing sharebar social socials related recommended recommendations "
    "advert adverts advertisement advertising ad ads adsbygoogle sponsor sponsored promo newsletter subscribe "
    "breadcrumb breadcrumbs pagination pager navbar menu megamenu sidebar skip toolbar masthead topbar "
    "signup paywall popup modal banner outbrain taboola popular trending hidden".split()
)
# Of those, the names that rarely label a page's own content: they corroborate trafilatura's leaving a block
# out (`content.py`); "banner", "hidden", "popular", "menu" or "sidebar" name heroes, headlines and answers too.
OMISSION_TOKENS = frozenset(
    "cookie cookies consent gdpr cmp share sharing sharebar social socials related recommended recommendations "
    "advert adverts advertisement advertising ad ads adsbygoogle sponsor sponsored promo newsletter subscribe "
    "breadcrumb breadcrumbs pagination pager signup paywall outbrain taboola".split()
)
EDGE_NAMES = frozenset({"header", "footer", "site-header", "site-footer", "page-header", "page-footer",
                        "global-header", "global-footer", "main-header", "main-footer", "top-bar", "bottom-bar",
                        "sr-only", "visually-hidden", "screen-reader-text"})
HOLDS_SHARE = 0.5
LABEL_WORDS = 3  # "Share", "Advertisement", "Skip to content"
FURNITURE_LINK_SHARE = 0.5
CONTROL_WORDS = 60  # a notice with buttons or a form (consent, newsletter) is short
EXPANDED_WORDS = 8  # the fewest words a text cut short shows before its "more"
PROMPT_WORDS = 20  # a prompt to sign in is a sentence or two: "You must be logged in to post a comment."
_DROPPED_TAGS = INVISIBLE | LANDMARK_TAGS  # furniture by its tag alone (a button only outside a heading)
_READ_ATTRIBUTES = frozenset({"role", "aria-hidden", "hidden", "style", "class", "id"})  # what `is_boilerplate` reads
_TOKEN_SPLIT = re.compile(r"[\s_\-]+|(?<=[a-z])(?=[A-Z])")
# The <main>s and the elements with role=main, compiled once: asked of every page, and of every furniture candidate.
# The elements whose role attribute says "main" are the parents of the role attributes that say it: the same
# elements as `//*[@role='main']`, found in half the time (libxml2 tests a predicate on an element slowly).
_MAINS = XPath("/descendant::main|/descendant::*/@role[.='main']/..")
_INNER_MAINS = XPath("descendant::main|descendant::*/@role[.='main']/..")


@lru_cache(maxsize=8192)  # class names repeat across a page and a site
def tokens(value: str) -> frozenset[str]:
    """Lower-case word tokens of a class or id attribute (split on space, -, _ and camelCase).

    >>> sorted(tokens("post-share_bar cookieConsent"))
    ['bar', 'consent', 'cookie', 'post', 'share']
    """
    return frozenset(t.lower() for t in _TOKEN_SPLIT.split(value) if t)


def invisible(el: HtmlElement) -> bool:
    """An element a reader does not read as text: scripts, styles, controls; but a button that is a heading's
    text is the heading (an accordion's question: `<h2><button aria-expanded="false">Question?</button></h2>`).

    >>> from lxml.html import fromstring
    >>> t = fromstring('<div><h2><button>Can I pay later?</button></h2><button>Follow</button></div>')
    >>> [invisible(b) for b in t.iter("button")]
    [False, True]
    """
    tag = el.tag if isinstance(el.tag, str) else ""
    if tag != "button":
        return tag in INVISIBLE
    parent = el.getparent()
    return parent is None or parent.tag not in HEADINGS


FORM_FIELDS = ("input", "textarea", "select")  # a form's controls (a comment holds none: `comments`)
CONTROLS = ("button", "input", "select", "form")  # what a reader presses, types into or picks from
# the fields a reader types into: a label of one names the control ("Name *", "Email (not published)", "Search")
TEXT_ENTRY = frozenset({"", "text", "email", "password", "search", "tel", "url", "number", "date", "datetime-local",
                        "month", "week", "time"})


def _entry_field(el: HtmlElement) -> bool:
    return el.tag in ("textarea", "select") or (el.tag == "input" and (el.get("type") or "").lower() in TEXT_ENTRY)


def entry_labels(root: HtmlElement) -> list[HtmlElement]:
    """The `<label>`s of fields a reader types into or picks from (a comment form's "Name *", a search box's
    "Enter search terms"), and of the checkboxes and radio buttons of a form one submits (a timeline's filters
    "Tickets opened and closed", a poll's options): they name the page's controls, not its content. The label of
    a checkbox or radio button outside such a form stays: CSS-only accordions and tabs put their question or title
    there.

    >>> from lxml.html import fromstring
    >>> t = fromstring('<form><label for="n">Name *</label><input id="n"><label><input type="search"> Find</label>'
    ...                '<input type="checkbox" id="q1"><label for="q1">Can I pay later?</label></form>')
    >>> [" ".join(label.text_content().split()) for label in entry_labels(t)]
    ['Name *', 'Find']
    >>> t = fromstring('<form><label><input type="checkbox"> Wiki changes</label><button>Update</button></form>')
    >>> [" ".join(label.text_content().split()) for label in entry_labels(t)]
    ['Wiki changes']
    """
    labels = list(root.iter("label"))
    if not labels:
        return []
    fields = {el.get("id") for el in root.iter(*FORM_FIELDS) if el.get("id") and _entry_field(el)}
    submitted = {form for form in root.iter("form") if _submitted(form)}
    return [label for label in labels
            if label.get("for") in fields or any(_entry_field(el) for el in label.iter(*FORM_FIELDS))
            or (submitted and any(form in submitted for form in label.iterancestors("form")))]


def form_rows(root: HtmlElement) -> list[HtmlElement]:
    """The table rows of a form one submits that hold a field a reader types into or picks from (`_entry_field`, a
    checkbox or a radio button): their words label the controls ("Sort on:", "Descending:" beside a `<select>` and a
    checkbox: an issue tracker's index controls), as a `<label>` does (`entry_labels`). A row of a layout table in a
    page-wide form (a table inside it, or more words than `ROW_LABEL_WORDS`) is the page's.

    >>> from lxml.html import fromstring
    >>> t = fromstring('<form><table><tr><th>Sort on:</th><td><select><option>title</option></select></td></tr>'
    ...                '<tr><th>Status</th><td>open</td></tr></table><input type="submit" value="Redisplay"></form>')
    >>> [" ".join(tr.itertext()).split() for tr in form_rows(t)]
    [['Sort', 'on:', 'title']]
    """
    return [tr for form in root.iter("form") if _submitted(form) for tr in form.iter("tr")
            if any(_entry_field(el) or (el.get("type") or "").lower() in PICKS for el in tr.iter(*FORM_FIELDS))
            and next(tr.iter("table"), None) is None and word_count(" ".join(_LABELS(tr))) <= ROW_LABEL_WORDS]


_LABELS = XPath("descendant::text()[not(ancestor::select)]")  # a row's words but its options'
ROW_LABEL_WORDS = 8  # the labels of a form's row at most: a row holding more is a layout's, a page's text
PICKS = frozenset({"checkbox", "radio"})  # the inputs a reader picks (`_entry_field`'s are typed into or chosen)
SUBMITS = frozenset({"submit", "image"})


def _submitted(form: HtmlElement) -> bool:
    """Whether a form is one a reader fills in and submits (a button, a submit input), not a page's wrapper."""
    return not _wraps_page(form) and any(el.tag == "button" or (el.get("type") or "").lower() in SUBMITS
                                         for el in form.iter("button", "input"))


def entry_forms(root: HtmlElement) -> list[HtmlElement]:
    """The forms a reader writes a message in (one holding a `<textarea>`: a comment, reply or contact form), with
    the heading just before such a form ("Leave a Reply"): its notes and title are the page's controls, not its
    content. A form that holds a heading or a page's section is a wrapper of the page (ASP.NET's `aspnetForm`), not
    one.

    >>> from lxml.html import fromstring
    >>> t = fromstring('<div><p>Post.</p><div id="respond"><h3>Leave a Reply</h3><form><p>Your email address will not '
    ...                'be published.</p><textarea></textarea></form></div></div>')
    >>> [el.tag for el in entry_forms(t)]
    ['form', 'h3']
    >>> entry_forms(fromstring('<form id="aspnetForm"><h1>Otters</h1><p>Story.</p><textarea></textarea></form>'))
    []
    """
    out: list[HtmlElement] = []
    for area in root.iter("textarea"):
        form = next(area.iterancestors("form"), None)
        if form is None or form in out or _wraps_page(form):
            continue
        out += _titled(form)
    return out


def _wraps_page(form: HtmlElement) -> bool:
    """Whether a form holds a heading or a page's section: a wrapper of the page (ASP.NET's `aspnetForm`), not a form
    of its own."""
    return next(form.iter(*HEADINGS, *SECTIONING), None) is not None


def _titled(el: HtmlElement) -> list[HtmlElement]:
    """The element, and the heading just before it (a form's "Leave a Reply"), unless that is an `<h1>`: the page's
    headline over the table of contents that opens it (javadoc's "JavaDoc Help"), a contact page's over its form.

    >>> from lxml.html import fromstring
    >>> [[e.tag for e in _titled(fromstring(f"<div><{h}>Help</{h}><ul><li>x</li></ul></div>")[1])]
    ...  for h in ("h3", "h1")]
    [['ul', 'h3'], ['ul']]
    """
    title = el.getprevious()
    return [el, title] if title is not None and title.tag in HEADINGS and title.tag != "h1" else [el]


def sign_in_prompts(root: HtmlElement) -> list[HtmlElement]:
    """The prompts to sign in that stand where a form would ("You must be logged in to post a comment."), with the
    heading just before one ("Leave a Reply"): one line of a few words (`PROMPT_WORDS`, most of them outside its
    links) with a link to where one logs in or registers (`urls.is_sign_in`), its links labels (`LABEL_WORDS`),
    alone in its element but for headings. A sentence of the page's own that links to its login page stands among
    others and stays; a menu's "Register" or "Log in" is all links; a title over its gist is two lines.

    >>> from lxml.html import fromstring
    >>> t = fromstring('<div><p>Post.</p><div id="respond"><h3>Leave a Reply</h3><p>You must be <a href="/wp-login.php'
    ...                '?redirect_to=x">logged in</a> to post a comment.</p></div></div>')
    >>> [el.tag for el in sign_in_prompts(t)]
    ['p', 'h3']
    >>> sign_in_prompts(fromstring('<div><p>See the <a href="/login">login page</a>.</p><p>Then go on.</p></div>'))
    []
    >>> sign_in_prompts(fromstring('<div><p><a href="/login">Log in</a> <a href="/register">Register</a></p></div>'))
    []

    A thread's box ends with its prompt, after the list of comments ("Please sign in to leave a comment."), or with
    one link that is the whole sentence (Mastodon's "Sign in to participate in the conversation"):

    >>> t = fromstring('<div><section><ul><li>First!</li></ul><p>Please <a href="/signin">sign in</a> to reply.</p>'
    ...                '</section><section><div>First!</div><div><a href="/auth/sign_in">Sign in to participate in the '
    ...                'conversation</a></div></section></div>')
    >>> [el.tag for el in sign_in_prompts(t)]
    ['p', 'div']
    >>> sign_in_prompts(fromstring('<div><p>Invoices.</p><p>To see them, <a href="/signin">sign in</a>.</p></div>'))
    []
    >>> [el.tag for el in sign_in_prompts(fromstring('<div><div><a href="/signup">Sign up for free</a> to join this '
    ...                                              'conversation. Have an account? <a href="/login">Sign in to '
    ...                                              'comment</a></div></div>'))]
    ['div']
    >>> [el.tag for el in sign_in_prompts(fromstring('<div><div><h2>Sign up for free <strong>to join this conversation'
    ...                                              '</strong>.</h2><p>Already have an account? <a href="/login">Sign '
    ...                                              'in to comment</a></p></div></div>'))]
    ['p', 'h2']
    """
    out: list[HtmlElement] = []
    for a in root.iter("a"):
        if not _signs_in(a):
            continue
        line = a.getparent()
        while line is not None and line.tag not in _PROMPT_LINES:
            line = line.getparent()
        box = line.getparent() if line is not None else None
        if box is None or line in out:
            continue
        link_words = [word_count(link.text_content()) for link in line.iter("a")]
        line_words = word_count(line.text_content())
        if link_words == [line_words] and _sign_up_box(box, line_words):
            out.append(box)  # a button's box: a newsletter's "Subscribe", its gist and "Subscribe Now"
            continue
        worded = 2 * sum(link_words) < line_words and max(link_words) <= LABEL_WORDS  # a sentence with its links
        linked = link_words == [line_words] and line_words > LABEL_WORDS  # a sentence that is one link
        # ... or sentences whose every link is to sign in or up (GitHub's "Sign up for free to join this conversation
        # on GitHub. Already have an account? Sign in to comment", or the question alone under a heading of the rest)
        # (not all links: a menu's; one link in a line of its own: a pricing card's "Sign up for free" is no prompt)
        signing = sum(link_words) < line_words and all(_signs_in(link) for link in line.iter("a")) and (
            len(link_words) > 1 or next(line.iterdescendants(*HEADINGS, "ul", "ol", "p"), None) is None)
        if line_words > PROMPT_WORDS or not (worded or linked or signing) or next(line.iter("br"), None) is not None \
                or (box.text or "").strip() or any((el.tail or "").strip() for el in box):
            continue
        others = [el for el in box if el is not line and el.tag not in HEADINGS and el.text_content().strip()]
        if others and not _ends_thread(line, others):
            continue
        out += _titled(line)
    return out


def _signs_in(a: HtmlElement) -> bool:
    """Whether a link leads to where one signs in or up (`urls.is_sign_in`)."""
    return is_sign_in((a.get("href") or "").strip())


def _sign_up_box(box: HtmlElement, button_words: int) -> bool:
    """Whether a box holding a button, a link to sign in or up of `button_words` words (`LABEL_WORDS` at most), is a
    call to sign up: a heading and a line or two of `PROMPT_WORDS` in all, and no other link (a newsletter's
    "Subscribe", "Sign up to our newsletter for exclusive updates", "Subscribe Now").

    >>> from lxml.html import fromstring
    >>> box = fromstring('<div><h4>Subscribe</h4><div>Sign up to our newsletter for updates</div><div><a href="/news/'
    ...                  'signup">Subscribe Now</a></div></div>')
    >>> _sign_up_box(box, 2), _sign_up_box(fromstring('<div><h4>Account</h4><a href="/login">Log in</a> <a '
    ...                                                'href="/help">Help</a></div>'), 2)
    (True, False)
    """
    words = word_count(box.text_content())
    return button_words <= LABEL_WORDS < words <= PROMPT_WORDS and next(box.iter(*HEADINGS), None) is not None \
        and sum(1 for _ in box.iter("a")) == 1


def _ends_thread(line: HtmlElement, others: list[HtmlElement]) -> bool:
    """Whether a line ends its box after a thread or list: the box's other elements with text all come before it,
    and none is a paragraph (a sentence among the page's own prose, "To change it, sign in and open Settings.",
    stands among paragraphs)."""
    box = line.getparent()
    at = box.index(line)
    return all(box.index(el) < at and el.tag not in _PROSE for el in others)


_PROMPT_LINES = frozenset({"p", "div", "li", "dd", "td"})
_PROSE = frozenset({"p", "blockquote", "pre"})  # a paragraph's elements: a line among them is one of the prose's
_ENDPOINTS = DenyPolicy()  # the built-in non-content endpoints: edit, login, share, print…


def heading_controls(root: HtmlElement) -> list[HtmlElement]:
    """A heading's links to a non-content endpoint (`urls.DEFAULT_DENY`: a wiki's "[edit]" beside each section's
    title, `?action=edit&section=1`), each with the wrapper that holds nothing else (its brackets): the heading's
    controls, not its words ("Timber chamber", not "Timber chamber[edit]").

    >>> from lxml.html import fromstring
    >>> t = fromstring('<h2><span>Timber chamber</span><span class="mw-editsection">[<a href="/index.php?title=M&'
    ...                'action=edit&section=1">edit</a>]</span></h2>')
    >>> for el in heading_controls(t):
    ...     el.drop_tree()
    >>> t.text_content()
    'Timber chamber'
    """
    out = []
    for h in root.iter(*HEADINGS):
        for a in h.iter("a"):
            if not _ENDPOINTS.is_denied((a.get("href") or "").strip()):
                continue
            own = word_count(a.text_content())
            box = a
            while (parent := box.getparent()) is not None and parent is not h \
                    and word_count(parent.text_content()) == own:
                box = parent
            out.append(box)
    return out


_IDENTIFIED = XPath("/descendant::*[@id]")
_ANCHOR_LISTS = XPath("//a[starts-with(@href, '#') and string-length(@href) > 1]/ancestor::*[self::ul or self::ol]")
_SKIP_TARGETS = frozenset({"nav", "main", "input", "form"})
_SKIP_ROLES = frozenset({"navigation", "search", "main"})


def skip_links(root: HtmlElement) -> list[HtmlElement]:
    """The links that move the reader within the page to its menu, its search box or its main content ("Jump to
    navigation", "Skip to content", "Back to top" over a page that starts with its menu): controls, however they are
    hidden (MediaWiki's `a.mw-jump-link` is clipped by the skin's CSS). A link to a heading, a footnote or a table
    of the page is the page's own (a table of contents).

    >>> from lxml.html import fromstring
    >>> t = fromstring('<body><div id="head"><nav>Menu</nav></div><div id="body"><a href="#head">Jump to navigation'
    ...                '</a> <a href="#q">Jump to search</a><p>See <a href="#s1">the first part</a>.</p><h2 id="s1">'
    ...                'One</h2><form><input id="q"></form></div></body>')
    >>> [a.text for a in skip_links(t)]
    ['Jump to navigation', 'Jump to search']
    >>> [a.text for a in skip_links(fromstring('<body><nav id="top">Menu</nav><p>Text</p><a href="#top">Back to top</a>'
    ...                                        '<p>More</p><a href="#top">Back to top</a></body>'))]
    ['Back to top', 'Back to top']
    """
    wanted: dict[str, list[HtmlElement]] = {}  # the links to each place in the page
    for a in root.iter("a"):
        if (href := (a.get("href") or "").strip()).startswith("#") and len(href) > 1:
            wanted.setdefault(href[1:], []).append(a)
    if not wanted:
        return []
    out = []
    for el in _IDENTIFIED(root):
        links = wanted.get(el.get("id"))
        if links and next((t for t in el.iter() if isinstance(t.tag, str) and (
                t.tag in _SKIP_TARGETS or role(t) in _SKIP_ROLES)), None) is not None:
            out += links
    return out


def jump_bars(root: HtmlElement) -> list[HtmlElement]:
    """The bars that jump to places in the page by a character each ("Jump to: C E F", an index's letters; a widget's
    "- A +"): two links or more, each to a place in the page (`#...`) under a label of one character, beside a label of
    `LABEL_WORDS` words at most. Controls, not text; the outermost element that is only the bar goes.

    >>> from lxml.html import fromstring
    >>> t = fromstring('<div><table><tr><th>Jump to:</th><td><a href="#C"><b>C</b></a> <a href="#E">E</a></td></tr>'
    ...                '</table><p>See <a href="#C">C</a> and <a href="#E">E</a> for the entries.</p></div>')
    >>> [el.tag for el in jump_bars(t)]
    ['table']
    """
    jumps = {a for a in _PLACE_LINKS(root) if len("".join(a.text_content().split())) == 1}
    if len(jumps) < 2:
        return []  # (most pages: their few links to places in the page are words)
    boxes = {el: None for a in jumps for el in a.iterancestors() if el.tag in _JUMP_BOXES}
    out: list[HtmlElement] = []
    for el in sorted(boxes, key=lambda b: sum(1 for _ in b.iterancestors())):  # the outermost first
        if any(a in out for a in el.iterancestors()):
            continue
        links = list(el.iter("a"))
        if len(links) < 2 or not all(a in jumps for a in links):
            continue
        if word_count(" ".join(el.itertext())) - len(links) <= LABEL_WORDS:
            out.append(el)
    return out


_PLACE_LINKS = XPath("//a[starts-with(normalize-space(@href), '#')]")
_JUMP_BOXES = frozenset({"table", "tr", "td", "div", "p", "ul", "ol"})


def contents_tables(root: HtmlElement) -> list[HtmlElement]:
    """The page's tables of contents inside its content, with their titles: a list of two links or more and nothing
    else, each to a heading of the page (or a section holding one), and the heading just before it ("Table of
    Contents" over DokuWiki's `div#dw__toc`), with the wrappers holding only them. The headings are the page's own and
    stay where they stand; the table repeats them.

    >>> from lxml.html import fromstring
    >>> t = fromstring('<div><div id="toc"><h3>Table of Contents</h3><div><ul><li><a href="#a">Origins</a></li><li>'
    ...                '<a href="#b">Lamps</a></li></ul></div></div><h1>Guild</h1><h2 id="a">Origins</h2><p>x</p>'
    ...                '<h2 id="b">Lamps</h2><p>See <a href="#a">Origins</a>.</p><ul><li><a href="/c">C</a></li></ul>'
    ...                '</div>')
    >>> [el.get("id") for el in contents_tables(t)]
    ['toc']
    """
    tables = []  # the lists of links to places in the page (most pages have none: the page's ids are not read)
    for lst in _ANCHOR_LISTS(root):
        links, targets = [], set()
        for a in lst.iter("a"):
            if not (href := (a.get("href") or "").strip()).startswith("#"):
                break  # (a menu's toggle among its pages' links)
            links.append(a)
            targets.add(href[1:])
        else:
            if len(links) >= 2:
                tables.append((lst, links, targets))
    if not tables:
        return []
    ids = {el.get("id"): el for el in _IDENTIFIED(root)}

    def headed(name: str) -> bool:  # a heading, inside one, or a section holding one
        el = ids.get(name)
        return el is not None and (el.tag in HEADINGS or any(a.tag in HEADINGS for a in el.iterancestors())
                                   or next(el.iter(*HEADINGS), None) is not None)

    out: list[HtmlElement] = []
    for lst, links, targets in tables:
        if any(a in out for a in lst.iterancestors()) or not all(headed(name) for name in targets) \
                or word_count(" ".join(lst.itertext())) != sum(word_count(" ".join(a.itertext())) for a in links):
            continue  # (inside a table already found: its sub-list)
        box = lst
        while (parent := box.getparent()) is not None and parent is not root and not (parent.text or "").strip() \
                and all(c is box or _titles(c) for c in parent if isinstance(c.tag, str)) \
                and not any((c.tail or "").strip() for c in parent):
            box = parent
        out += _titled(box) if next(box.iter(*HEADINGS), None) is None else [box]  # its title, unless the box holds it
    return out


def _titles(el: HtmlElement) -> bool:
    """Whether an element is a heading, or holds one and nothing more (MediaWiki's `div.toctitle`)."""
    return el.tag in HEADINGS or (len(el) == 1 and el[0].tag in HEADINGS and not (el.text or "").strip()
                                  and not (el[0].tail or "").strip())


def role(el: HtmlElement) -> str:
    """The element's ARIA role, as a browser reads it: trimmed, in lower case ("" for none)."""
    return (el.get("role") or "").strip().lower()


def expansion(el: HtmlElement) -> bool:
    """Whether a hidden element is the whole of the text a sibling shows cut short: a "more" link swaps the two (a
    review's first lines and "... more", the whole review `display: none` beside them). A reader opens it; it is the
    page's text. A run of the sibling's text ends in an ellipsis, its words (`EXPANDED_WORDS` or more) stand in the
    element's text in a row, and the element has more.

    >>> from lxml.html import fromstring
    >>> t = fromstring('<div><div><b>Review:</b> Tucked behind a high chocolate wall on the first lane... <a href="#">'
    ...                'more</a></div><div style="display:none"><p>Tucked behind a high chocolate wall on the first '
    ...                'lane, the hotel is a hideaway.</p></div><div style="display:none"><p>Sign up</p></div></div>')
    >>> [expansion(d) for d in t[1:]]
    [True, False]
    >>> t = fromstring('<div><h1>How to retire early so you can work and travel</h1><div style="display:none">How to '
    ...                'retire early so you can work and travel, 2019-11-13, Personal Finance</div></div>')
    >>> expansion(t[1])
    False
    """
    cuts = [cut for sibling in (el.getprevious(), el.getnext()) if sibling is not None and isinstance(sibling.tag, str)
            for run in sibling.itertext() if (cut := run.rstrip()).endswith(("...", "…"))
            and word_count(cut) >= EXPANDED_WORDS]  # the runs cut short, found before the element's text is read
    if not cuts:
        return False
    full = " ".join(el.itertext())
    words, count = f" {word_seq(full.lower())}", word_count(full)
    return any(f" {word_seq(cut.lower())}" in words and count > word_count(cut) for cut in cuts)


def tab_panel(el: HtmlElement) -> bool:
    """A tab's panel (`role="tabpanel"`): content a reader opens with its tab, though `hidden` until then."""
    return role(el) == "tabpanel"


def drop_controls(root: HtmlElement) -> None:
    """Remove the page's controls in place, each kind once the one before is gone: form labels and rows, reply forms,
    prompts to sign in where a form would be, skip links, a heading's edit links, tables of contents and jump bars. A
    reader uses them; none is the page's text."""
    for find in (entry_labels, form_rows, entry_forms, sign_in_prompts, skip_links, heading_controls,
                 contents_tables, jump_bars):
        for el in find(root):
            el.drop_tree()


def is_boilerplate(el: HtmlElement) -> bool:
    """Whether an element is page furniture, by evidence on the element (pure).

    Landmarks (<nav>, <aside>, <dialog>, a page-level <header>/<footer>/<address>), ARIA roles and hidden
    elements are furniture. A class or id naming furniture (`share-bar`, `cookie-notice`, `footer`)
    is only a hint: it removes the element when the element also looks like furniture, that is
    mostly links, form controls, or a label of a few words. A class name alone never removes a
    headline or a paragraph (`div.banner` holding an article's title, `div.hidden-xs`, `popular`).

    >>> from lxml.html import fromstring
    >>> [is_boilerplate(fromstring(h)) for h in ('<nav>x</nav>', '<div class="share-bar"><a href="/">Tweet</a></div>',
    ...  '<div class="card-header">x</div>', '<div id="footer"><a href="/">Legal</a> <a href="/p">Privacy</a></div>',
    ...  '<div class="banner"><h1>A headline of the article itself</h1></div>', '<div class="comment">x</div>')]
    [True, True, False, True, False, False]
    >>> page = fromstring('<body><article><p>Text</p><address>By Ann, ann@example.org</address></article>'
    ...                   '<address>Mail converted by MHonArc</address></body>')
    >>> [is_boilerplate(a) for a in page.iter("address")]
    [False, True]

    A heading is judged whole: its words are not furniture by their own class (Drupal's name field, whose label is
    hidden), unless a name says only screen readers get them.

    >>> h1 = fromstring('<h1><span class="field--label-hidden">Dr Ann Reed</span><span class="sr-only">(staff)</span>'
    ...                 '</h1>')
    >>> [is_boilerplate(span) for span in h1]
    [False, True]
    """
    tag = el.tag
    return _tagged_boilerplate(el, tag if isinstance(tag, str) else "")


def _tagged_boilerplate(el: HtmlElement, tag: str) -> bool:
    """`is_boilerplate` of an element whose tag is read already ("" for a comment): `prune_split` asks it of every
    element, and lxml makes a new string at each reading."""
    if tag in _DROPPED_TAGS and (tag != "button" or invisible(el)):  # `invisible`, or a landmark
        return True
    if _READ_ATTRIBUTES.isdisjoint(el.keys()):  # none of the attributes read below (most elements: <a href>,
        # <td>, <p>): they would all say no, so only a page-level <header>, <footer> or <address> is furniture
        return tag in TEXT_EDGE_TAGS and not any(a.tag in EDGE_SCOPES for a in el.iterancestors())
    if role(el) in BOILER_ROLES:
        return True
    if (el.get("aria-hidden") == "true" and not _named_by_label(el)) or (
            el.get("hidden") is not None and not tab_panel(el)):
        return True
    style = (el.get("style") or "").replace(" ", "").lower()
    if ("display:none" in style or "visibility:hidden" in style) and not expansion(el):
        return True
    if tag in TEXT_EDGE_TAGS and not any(a.tag in EDGE_SCOPES for a in el.iterancestors()):
        return True
    names = (el.get("class") or "", el.get("id") or "")
    if not (names_furniture(names[0]) or names_furniture(names[1])) or tab_panel(el):
        return False  # (a tab's panel is content a reader opens, whatever its class: Tailwind's `hidden` on a tab)
    if not _names_edge(names) and any(a.tag in HEADINGS for a in el.iterancestors()):
        return False  # a heading's own words, whatever their class says (Drupal's `<h1><span class="… field--label-
        # hidden">`, whose label is hidden): the heading is judged whole; a screen-reader-only part is not its words
    return looks_like_furniture(el)


def _names_edge(names: Iterable[str]) -> bool:
    """Whether one of a class and id's names is one of `EDGE_NAMES` (`sr-only`, `visually-hidden`: exactly)."""
    return any(name.lower() in EDGE_NAMES for value in names for name in value.split())


@lru_cache(maxsize=8192)  # class names repeat across a page and a site
def names_furniture(value: str) -> bool:
    """Whether a class or id attribute names furniture: one of its names is one of `EDGE_NAMES` or holds one of
    `BOILER_TOKENS` (a hint `is_boilerplate` checks against the element's content).

    >>> names_furniture("post share-bar"), names_furniture("Site-Footer"), names_furniture("card-header")
    (True, True, False)

    A name that says an element's label is hidden ("label-hidden": Drupal's `field--label-hidden` on every field shown
    without its label), or what overflows it (`overflow-hidden`, a utility class of Tailwind and Bootstrap), names no
    hidden element:

    >>> names_furniture("field field--label-hidden"), names_furniture("hidden"), names_furniture("is-hidden")
    (False, True, True)
    >>> names_furniture("flex overflow-hidden rounded-lg"), names_furniture("md:overflow-x-hidden")
    (False, False)
    """
    return any(name.lower() in EDGE_NAMES or _furniture_tokens(name) for name in value.split())


def _furniture_tokens(name: str) -> frozenset[str]:
    """The tokens of a class or id name that are `BOILER_TOKENS`, less "hidden" where it says the label is, or
    what overflows the element (Tailwind's and Bootstrap's `overflow-hidden`: its box clips, its words show)."""
    found = tokens(name) & BOILER_TOKENS
    if "hidden" in found and _NOT_HIDDEN.search(name) and name.lower().count("hidden") == 1:
        found -= {"hidden"}
    return found


# "field--label-hidden", "labelHidden"; "overflow-hidden", "overflow-x-hidden", "md:overflow-y-hidden"
_NOT_HIDDEN = re.compile(r"(?:label|overflow(?:[-_]*[xy])?)[-_]*hidden", re.IGNORECASE)


def named_omission(el: HtmlElement) -> bool:
    """Whether an element's class or id names what a reader skips (`OMISSION_TOKENS`): a share bar, a related box.
    A heading's id is its anchor, made of its own words ("Related pages" is `id="related-pages"` on Starlight and
    VitePress): it names no box.

    >>> from lxml.html import fromstring
    >>> [named_omission(fromstring(h)) for h in ('<div class="share-bar">x</div>', '<div class="banner">x</div>',
    ...                                           '<h2 id="related-pages">Related pages</h2>')]
    [True, False, False]
    """
    names = (el.get("class") or "").split() + ((el.get("id") or "").split() if el.tag not in HEADINGS else [])
    return any(tokens(n) & OMISSION_TOKENS for n in names)


FURNITURE_ROLES = frozenset({"navigation", "banner", "contentinfo"})


def in_site_furniture(el: HtmlElement) -> bool:
    """Whether an element sits in the site's furniture landmarks: a <nav>, the page-level <header> or
    <footer> (not one of an article or section), or role=navigation|banner|contentinfo. Where a logo or
    a menu icon is; mirrored by `furnitureOf` in `browser/collect_js.py`.

    >>> from lxml.html import fromstring
    >>> doc = fromstring('<body><header><img src="logo.png"></header><article><header><img src="h.png">'
    ...                  '</header><p><img src="a.png"></p></article><div role="contentinfo"><img src="f.png">'
    ...                  '</div></body>')
    >>> [in_site_furniture(img) for img in doc.iter("img")]
    [True, False, False, True]
    """
    node: HtmlElement | None = el
    while node is not None:
        tag = node.tag if isinstance(node.tag, str) else ""
        if tag == "nav" or role(node) in FURNITURE_ROLES:
            return True
        if tag in EDGE_TAGS and not any(a.tag in SECTIONING for a in node.iterancestors()):
            return True
        node = node.getparent()
    return False


def looks_like_furniture(el: HtmlElement) -> bool:
    """Mostly links, form controls, or a label of a few words: what menus, share bars, consent
    notices and ad slots are made of (the evidence a furniture-like class name needs).

    >>> from lxml.html import fromstring
    >>> looks_like_furniture(fromstring('<div><a href="/a">Home</a> <a href="/b">About us</a> More</div>'))
    True
    >>> looks_like_furniture(fromstring('<div><p>We use cookies.</p><button>Accept</button></div>'))
    True
    >>> looks_like_furniture(fromstring('<div><h1>The headline</h1><p>A standfirst of this story.</p></div>'))
    False
    >>> looks_like_furniture(fromstring('<div><a href="/s"><h3>A card title of a story</h3><p>Gist</p></a></div>'))
    False
    >>> looks_like_furniture(fromstring('<header class="page-header"><h1>Tag: <span>Soil</span></h1></header>'))
    False
    >>> looks_like_furniture(fromstring('<h2 class="anchorTargetStickyNavbar_Vzrq">What we learned</h2>'))
    False

    A link to write or call to is no way elsewhere: its words are an address or a number, a contact's values.

    >>> looks_like_furniture(fromstring('<div class="banner"><div>Email <a href="mailto:a@u.edu">a@u.edu</a></div>'
    ...                                 '<div>Phone <a href="tel:6084172290">608-417-2290</a></div></div>'))
    False
    """
    if any(_unlinked_chars(h) and not any(a.tag == "a" for a in h.iterancestors()) for h in el.iter("h1")):
        return False  # it holds a headline (not a logo link): a hero, an article's banner, an archive's "Tag: Soil"
    if el.tag in HEADINGS and _unlinked_chars(el):
        return False  # a heading titles what follows it (Docusaurus names each `anchorTargetStickyNavbar_…`)
    text_words = word_count(el.text_content())
    if text_words <= LABEL_WORDS:
        return True
    labels = [word_count(a.text_content()) for a in el.iter("a") if not value_link(a)]
    if sum(labels) >= FURNITURE_LINK_SHARE * text_words and sum(labels) < TITLE_WORDS * len(labels):
        return True  # mostly short link labels: a menu or a share bar (a card is one long link)
    return text_words <= CONTROL_WORDS and next(el.iter(*CONTROLS), None) is not None


def value_link(a: HtmlElement) -> bool:
    """Whether a link's words are a value, not a way elsewhere: an address to write to that it shows
    (`mailto:`, its words an address), a number to call (`tel:`, its words digits). A "Feedback" link that writes
    to an address is a menu's label.

    >>> from lxml.html import fromstring
    >>> [value_link(fromstring(h)) for h in ('<a href="mailto:a@u.edu">a@u.edu</a>', '<a href="tel:+16084">608-4</a>',
    ...                                      '<a href="mailto:a@u.edu">Feedback</a>', '<a href="/a@u">a@u</a>')]
    [True, True, False, False]
    """
    href = (a.get("href") or "").lstrip().lower()
    if href.startswith("mailto:"):
        return "@" in a.text_content()
    return href.startswith("tel:") and any(c.isdigit() for c in a.text_content())


def paragraph(el: HtmlElement) -> bool:
    """Whether an element is a paragraph, bare or in boxes holding it alone (Asciidoctor writes each block in a box
    of its kind: `div.paragraph > p`).

    >>> from lxml.html import fromstring
    >>> [paragraph(fromstring(h)) for h in ('<p>x</p>', '<div class="paragraph"><p>x</p></div>',
    ...                                     '<div>x<p>y</p></div>')]
    [True, True, False]
    """
    while el.tag in _PARAGRAPH_BOXES and len(el) == 1 and not (el.text or "").strip():
        el = el[0]
    return bool(el.tag == "p")


_PARAGRAPH_BOXES = frozenset({"div", "section"})


def written_aside(el: HtmlElement) -> bool:
    """Whether an `<aside>` is a note written in the text's flow (a documentation page's callout: "Caution: ..."),
    not a box beside it: it follows a paragraph of its parent, holds a paragraph of its own, its words are not
    links, nothing else on it says furniture (a role, a name, hidden), and its paragraphs do not repeat the text
    around it (a pull quote), and its links stand in its sentences. News pages' in-flow asides are ads, teasers of
    other stories (a linked headline over an excerpt) and pull quotes.

    >>> from lxml.html import fromstring
    >>> t = fromstring('<div><p>Set the nets at dawn.</p><aside aria-label="Note"><p>Ring only when trained.</p>'
    ...                '</aside><p>Then count.</p><aside><p>Set the nets at dawn.</p></aside></div>')
    >>> [written_aside(a) for a in t.iter("aside")]
    [True, False]
    """
    if _tagged_boilerplate(el, "section") or not any(paragraph(s) for s in el.itersiblings(preceding=True)):
        return False  # "section": the evidence on an element but its tag
    paragraphs = list(el.iter("p"))
    own = [" ".join(p.text_content().split()) for p in paragraphs]
    if not any(own) or _unlinked_chars(el) < FURNITURE_LINK_SHARE * len(el.text_content()):
        return False
    if any(not any(p in paragraphs for p in a.iterancestors("p")) for a in el.iter("a")):
        return False  # a link outside its sentences: a teaser's headline, a "read more"
    parent = el.getparent()
    around = " ".join(" ".join(s.text_content().split()) for s in parent if s is not el) if parent is not None else ""
    return not any(text and text in around for text in own)


def about_page(el: HtmlElement, root: HtmlElement) -> bool:
    """Whether a box beside the text is about the page's own subject: its first heading names what the page's `<h1>`
    names (outside the box), as a wiki's infobox is titled with the article's subject ("Captain Orsolya Venn" on the
    page of "Orsolya Venn"): its facts, picture and caption are the article's, not the site's.

    >>> from lxml.html import fromstring
    >>> t = fromstring('<div><h1>Orsolya Venn</h1><aside><h2>Captain Orsolya Venn</h2><h3>Born</h3><div>Year 412</div>'
    ...                '</aside><aside><h2>Popular pages</h2></aside></div>')
    >>> [about_page(a, t) for a in t.iter("aside")]
    [True, False]
    """
    heading = next(el.iter(*HEADINGS), None)
    if heading is None:
        return False
    named = " ".join(heading.text_content().split()).lower()
    return any(len(said := " ".join(h.text_content().split()).lower()) > 1 and said in named
               for h in root.iter("h1") if not any(up is el for up in h.iterancestors()))


def _named_by_label(el: HtmlElement) -> bool:
    """Whether an element hidden from assistive technology shows words spoken once elsewhere: the name an ancestor
    gives it in `aria-label` (a callout's visible title: Starlight), or the `alt` of its figure's image (a caption
    that repeats it: Hexo's renderer writes `<figcaption aria-hidden="true">`). A reader sees it.

    >>> from lxml.html import fromstring
    >>> t = fromstring('<aside aria-label="Keep warm"><p aria-hidden="true">Keep warm</p><p>Text</p></aside>')
    >>> _named_by_label(t[0]), _named_by_label(fromstring('<p aria-hidden="true">Icon</p>'))
    (True, False)
    >>> f = fromstring('<figure><img src="b.png" alt="The tenor bell"><figcaption aria-hidden="true">The tenor bell'
    ...                '</figcaption></figure>')
    >>> _named_by_label(f[1])
    True
    """
    words = " ".join(el.text_content().split())
    if not words:
        return False
    for a in el.iterancestors():
        if " ".join((a.get("aria-label") or "").split()) == words:
            return True
        if a.tag == "figure":
            return any(" ".join((img.get("alt") or "").split()) == words for img in a.iter("img"))
    return False


def _holds_content(el: HtmlElement, page_chars: int) -> bool:
    """An element wrapping the page's main content is never furniture, whatever its name:
    it is or holds the <main>, or it holds `HOLDS_SHARE` of the page's text outside links (`page_chars`:
    a short page's mega-menu holds most of its words, all of them links).

    >>> from lxml.html import fromstring
    >>> menu = fromstring('<nav>' + '<a href="/x">A section of the site</a>' * 30 + '</nav>')
    >>> _holds_content(menu, 60), _holds_content(fromstring('<div class="sidebar"><p>The story.</p></div>'), 12)
    (False, True)
    """
    if el.tag in ("html", "body", "main") or _INNER_MAINS(el):
        return True
    return _unlinked_chars(el) >= HOLDS_SHARE * page_chars


def _unlinked_chars(el: HtmlElement) -> int:
    """The length of an element's text outside links."""
    return len(el.text_content()) - sum(len(a.text_content()) for a in el.iter("a"))


def main_root(root: HtmlElement) -> HtmlElement:
    """The page's single <main> (or role=main) when it has one with text, else the body (or root)."""
    mains = _MAINS(root)
    if len(mains) == 1 and mains[0].text_content().strip():
        return mains[0]
    body = root.find(".//body")
    return body if body is not None else root


def prune(root: HtmlElement) -> HtmlElement:
    """Remove furniture from `root` in place (comments and processing instructions too); return the content root.

    >>> from lxml.html import fromstring
    >>> t = fromstring('<html><body><nav>Menu</nav><main><p>Story</p><div class="related">More</div>'
    ...                '</main><footer>Legal</footer></body></html>')
    >>> prune(t).text_content()
    'Story'
    """
    return prune_split(root)[0]


def outside(content: HtmlElement) -> list[HtmlElement]:
    """The elements beside the path from the body (or root) down to `content`, level by level from `content` up, but
    those a reader does not read (`INVISIBLE`)."""
    out: list[HtmlElement] = []
    node = content
    while node.tag not in ("body", "html") and node.getparent() is not None:
        parent = node.getparent()
        out.extend(c for c in parent if c is not node and isinstance(c.tag, str) and c.tag not in INVISIBLE)
        node = parent
    return out


def prune_split(root: HtmlElement, pruned: list[tuple[HtmlElement, list[HtmlElement]]] | None = None
                ) -> tuple[HtmlElement, str]:
    """`prune`, also returning the visible text it removed (one element per line): the page's furniture. `pruned`,
    when given, receives each visible element removed inside the content root, with the elements around it from that
    root down (where it stood: `blocks.placed_blocks`).

    >>> from lxml.html import fromstring
    >>> t = fromstring('<html><body><nav>Menu</nav><main><p>A long story</p>'
    ...                '<div class="share">Share</div></main></body></html>')
    >>> content, furniture = prune_split(t)
    >>> content.text_content(), furniture.split("\\n")
    ('A long story', ['Menu', 'Share'])

    A `<noscript>`'s words are furniture wherever they stand: a browser running scripts never shows them ("Theme NexT
    works best with JavaScript enabled"), though trafilatura's fallback may keep them.

    >>> prune_split(fromstring('<html><body><main><p>Story</p><noscript><p>Enable scripts</p></noscript></main>'
    ...                        '</body></html>'))[1]
    'Enable scripts'
    """
    content = main_root(root)
    page_chars: int | None = None  # counted when first needed: most pages have no furniture that might hold it
    removed = [" ".join(el.itertext()) for el in outside(content)]  # words apart across blocks
    removed += (" ".join(el.itertext()) for el in root.iter("noscript"))  # what a browser running scripts hides
    doomed: list[HtmlElement] = []
    skipping = False  # inside the last doomed element: not checked again, up to the node after it
    after: HtmlElement | None = None
    for el in content.iter():
        if skipping:
            if el is not after:
                continue
            skipping = False
        tag = el.tag
        if isinstance(tag, str):  # else a comment or a processing instruction: out
            if el is content or not _tagged_boilerplate(el, tag):
                continue
            if not invisible(el):
                if page_chars is None:
                    page_chars = _unlinked_chars(content)
                if _holds_content(el, page_chars) or (tag == "aside" and (written_aside(el) or about_page(el, root))):
                    continue
        doomed.append(el)
        skipping, after = True, _following(el, content)
    for el in doomed:
        if el.getparent() is not None:
            if isinstance(el.tag, str) and not invisible(el):
                removed.append(" ".join(el.itertext()))
                if pruned is not None:
                    around = list(el.iterancestors())
                    pruned.append((el, around[: around.index(content) + 1][::-1]))
            el.drop_tree()  # keeps the tail text, which belongs to the parent
    return content, "\n".join(" ".join(r.split()) for r in removed if r.strip())


def _following(el: HtmlElement, root: HtmlElement) -> HtmlElement | None:
    """The node after `el` and everything inside it in `root.iter()`'s document order, None when `root` ends there:
    the next sibling of `el` or of its nearest ancestor that has one (`getnext` and `iter` both count comments and
    processing instructions, not text).

    >>> from lxml.etree import Comment
    >>> from lxml.html import fromstring
    >>> t = fromstring('<div><section><p>a</p><p>b</p></section><!-- c --><p>d</p></div>')
    >>> section, a, b, comment, d = t.iter("section", "p", Comment)
    >>> _following(section, t) is comment, _following(a, t) is b, _following(b, t) is comment, _following(d, t)
    (True, True, True, None)
    """
    node = el
    while node is not root:
        nxt = node.getnext()
        if nxt is not None:
            return nxt
        node = node.getparent()
    return None
