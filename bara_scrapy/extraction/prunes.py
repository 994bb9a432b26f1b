"""trafilatura 2.3.1's prune expressions (`trafilatura.xpaths`) as Python tests of each element: the same elements,
in the same (document) order.

Each expression tests every element of its tags with `re:test`, an EXSLT function lxml runs in Python: a call back
into Python per element and test, most of trafilatura's pruning time (`OVERALL_DISCARD_XPATH` alone, 1.6 ms a
CleanEval page). Here each element is read once and its attributes searched with the same regular expressions.
What XPath reads, read the same way here:

- `@a` is the attribute's value, "" when it has none (a search or `contains` of "" finds none of these patterns);
- `@id|@class` is the first of the two in the element's own attribute order (XPath's string of a node-set is its
  first node's: `<p class="a" id="b">` tests "a", `<p id="b" class="a">` tests "b");
- `.//*` is every element below the root, not its comments or processing instructions.

`tests/unit/test_prunes.py` compares every selection with its expression's, on a page that exercises each test and
on the real corpora's trees. `precise.py` uses these only with trafilatura 2.3.1 (`FOLLOWED`).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from lxml.etree import Element
from lxml.html import HtmlElement
from trafilatura.xml import delete_element

_BLOCKS = ("div", "item", "list", "p", "section", "span")  # the tags of most of the expressions

_COOKIE = re.compile("cookie")
_DISCARD_ID = re.compile(
    "^shar|social|viral|newsletter|syndication|tags|sidebar|banner|bread-?crumb|button|author|^(?:jp-|dpsp-content)|"
    "bmdh|footer|Footer|share|Share|nav|Nav|menu|related|message-container|premium|^ad-")
_DISCARD_CLASS = re.compile(
    "^shar|social|viral|newsletter|syndication|tags|sidebar|banner|bread-?crumb|button|author|"
    "^(?:nav|post-nav|ZendeskForm)|subnav|avigation|navbar|navbox|menu|bar| ad |-ad-|(?:^| )ad-|dfp[Aa]d|outbrain|"
    "taboola|criteo|paid-?content|widget|footer|Footer|byline|Byline|share-|sociable|embedded|embed|tag-list|"
    "consent|modal-content|permission|elated|next-|-stories|most-popular|more-on|meta|rating|attachment|timestamp|"
    "user-info|user-profile|-icon|article-infos|message-container|slide|viewport|overlay|options|expand|obfuscated|"
    "blurred|mol-factbox|yin|zlylin|nfoline")
_HIDDEN = re.compile("hidden")
_READER_COMMENTS = re.compile("reader-comments|akismet")
_HIDING_CLASS = re.compile(
    "^hide-|comments-title|nocomments|-reply-|message|akismet|suggest-links|-hide-|hide-print| hidden| hide|noprint|"
    "notloaded")
_BOTTOM = re.compile(r"(^|\s)bottom|bottom(\s|$)")
_AD_BOX = re.compile("mvp-post-add-(?:box|wrap)|infinite-?scroll")
_AD_BOX_ONLY = re.compile("mvp-post-add-(?:box|wrap)")
_COMMENTS_ID = re.compile("^(?:[Cc]omment(?!ary)|comol|disqus_thread|dsq-comments)")
_COMMENTS_CLASS = re.compile("^[Cc]omment(?!ary)|(?:article|post)-comments")
_COMMENTS_LIST_ID = re.compile("^(?:[Cc]omment(?!ary)|comol)")
_BOXES = ("div", "section", "aside")
_SECTIONS = ("div", "list", "section", "details")
_LINK = re.compile(r"(^|\s)link(\s|$)")
# the attributes `overall_discard` reads (`_discards`, `_hides`)
_TESTED = frozenset({"data-lp-replacement-content", "role", "data-component", "id", "class", "style", "aria-hidden"})


def prune(tree: HtmlElement, select: Callable[[HtmlElement], list[HtmlElement]]) -> None:
    """`prune_unwanted_nodes(tree, [expression])` of the expression `select` stands for: each element it selects
    leaves the tree, its tail stays."""
    for element in select(tree):
        delete_element(element)


def _names(el: HtmlElement, attribute: str, pattern: re.Pattern[str]) -> bool:
    """`re:test(@attribute, pattern)`: a search of the attribute's value ("" when it has none)."""
    return pattern.search(el.get(attribute) or "") is not None


def _first(el: HtmlElement, names: tuple[str, str]) -> str:
    """XPath's string of `@a|@b`: the value of whichever of the two comes first among the element's attributes."""
    return _first_of(el.items(), names)


def overall_discard(tree: HtmlElement) -> list[HtmlElement]:
    """`OVERALL_DISCARD_XPATH`'s selections, one after the other, each element once (as `prune_unwanted_nodes`
    gathers them with a backup): boxes an attribute names navigation, sharing, ads, bylines...; then any element
    its attributes hide or name comments' furniture. Both in one walk of the elements below `tree` (`.//*`), each
    one's attributes read once; one with none of the attributes tested (`_TESTED`: nearly half of a page's elements
    have no attribute, and a link only its href) is in neither: an attribute it lacks reads "", which is none of the
    values tested, holds none of the patterns and starts with no "reply-"."""
    found, hidden = [], []
    for el in tree.iterdescendants(Element):
        if not (items := el.items()):
            continue
        attrs = dict(reversed(items))  # each name's first value, as `el.get` reads it
        if attrs.keys().isdisjoint(_TESTED):
            continue  # (a link's href, an image's src)
        if el.tag in _BLOCKS and _discards(attrs, items):
            found.append(el)
        if _hides(attrs, items):
            hidden.append(el)
    return list(dict.fromkeys([*found, *hidden]))


def _first_of(items: list[tuple[str, str]], names: tuple[str, str]) -> str:
    """`_first` of an element's attributes (`el.items()`, read once by a caller that tests several)."""
    for name, value in items:
        if name in names:
            return value
    return ""


def _discards(attrs: dict[str, str], items: list[tuple[str, str]]) -> bool:
    """The first expression's tests of a box's attributes (`attrs`, each name's first value; `items`, in order)."""
    return ("data-lp-replacement-content" in attrs
            or "nav" in attrs.get("role", "").replace("N", "n")
            or "MostPopularStories" in attrs.get("data-component", "")
            or _COOKIE.search(_first_of(items, ("id", "class"))) is not None
            or _DISCARD_ID.search(attrs.get("id", "")) is not None
            or _DISCARD_CLASS.search(attrs.get("class", "")) is not None)


def named_discard(el: HtmlElement) -> bool:
    """The tests of `OVERALL_DISCARD_XPATH` on an element's own id or class alone (`re:test(@id, ...)`,
    `re:test(@class, ...)`; not those on `@id|@class` nor on its other attributes): a part of what `overall_discard`
    tests, so an element it names is one `overall_discard` selects (or lies inside one)."""
    return ((el.tag in _BLOCKS and (_names(el, "id", _DISCARD_ID) or _names(el, "class", _DISCARD_CLASS)))
            or _names(el, "id", _READER_COMMENTS) or _names(el, "class", _HIDING_CLASS))


def _hides(attrs: dict[str, str], items: list[tuple[str, str]]) -> bool:
    """The second expression's tests of an element's attributes (as `_discards`)."""
    style = attrs.get("style", "")
    return (attrs.get("class") == "comments-title"
            or _first_of(items, ("id", "class")).startswith("reply-")
            or _HIDDEN.search(_first_of(items, ("id", "style"))) is not None
            or "display:none" in style or "display: none" in style
            or _READER_COMMENTS.search(attrs.get("id", "")) is not None
            or _HIDING_CLASS.search(attrs.get("class", "")) is not None
            or attrs.get("aria-hidden") == "true")


def teasers(tree: HtmlElement) -> list[HtmlElement]:
    """`TEASER_DISCARD_XPATH[0]`: boxes whose id or class holds "teaser" (or "Teaser")."""
    return [el for el in tree.iterdescendants(*_BLOCKS)
            if "teaser" in (el.get("id") or "").replace("T", "t")
            or "teaser" in (el.get("class") or "").replace("T", "t")]


def headers(tree: HtmlElement) -> list[HtmlElement]:
    """`PRECISION_DISCARD_XPATH[0]`: every `<header>`."""
    return list(tree.iterdescendants("header"))


def bottoms_and_links(tree: HtmlElement) -> list[HtmlElement]:
    """`PRECISION_DISCARD_XPATH[1]`: boxes whose id or class names a bottom or a link, or whose style a border."""
    out = []
    for el in tree.iterdescendants(*_BLOCKS):
        named = _first(el, ("id", "class"))
        if _BOTTOM.search(named) or _LINK.search(named) or "border" in (el.get("style") or ""):
            out.append(el)
    return out


def captions(tree: HtmlElement) -> list[HtmlElement]:
    """`DISCARD_IMAGE_ELEMENTS[0]`: boxes whose id or class holds "caption"."""
    return [el for el in tree.iterdescendants(*_BLOCKS)
            if "caption" in (el.get("id") or "") or "caption" in (el.get("class") or "")]


def ad_boxes(tree: HtmlElement) -> list[HtmlElement]:
    """`RAW_TREE_PRUNE_XPATH[0]`: the boxes an id or class names an ad box or infinite scroll, unless they hold an
    `<h1>` and the name is infinite scroll's."""
    return [el for el in tree.iterdescendants(*_BOXES)
            if (_names(el, "id", _AD_BOX) or _names(el, "class", _AD_BOX))
            and (next(el.iterdescendants("h1"), None) is None or _names(el, "id", _AD_BOX_ONLY)
                 or _names(el, "class", _AD_BOX_ONLY))]


def share_buttons(tree: HtmlElement) -> list[HtmlElement]:
    """`RAW_TREE_PRUNE_XPATH[1]`: the boxes whose class holds `elementor-share-buttons`."""
    return [el for el in tree.iterdescendants(*_BOXES) if "elementor-share-buttons" in (el.get("class") or "")]


def comment_sections_and_lists(tree: HtmlElement) -> list[HtmlElement]:
    """`REMOVE_COMMENTS_AND_LISTS_XPATH[0]`: `comment_sections`, and the lists an id or class names comments."""
    return [el for el in tree.iterdescendants(*_SECTIONS, "ol", "ul") if _comments(el) and (
        el.tag not in ("ol", "ul") or _names(el, "id", _COMMENTS_LIST_ID) or _names(el, "class", _COMMENTS_CLASS))]


def comment_sections(tree: HtmlElement) -> list[HtmlElement]:
    """`REMOVE_COMMENTS_XPATH[0]`: the sections an id or class names comments."""
    return [el for el in tree.iterdescendants(*_SECTIONS) if _comments(el)]


def _comments(el: HtmlElement) -> bool:
    return _names(el, "id", _COMMENTS_ID) or _names(el, "class", _COMMENTS_CLASS)


# `BODY_XPATH`'s tests, where trafilatura's main pass looks for the article (`_extract`): its expressions, one at a
# time, each asked for its first element in document order (`.//*[tests][1]` gives, for each parent, the first child
# that passes; the first of those in document order is the first element that passes)
_BODY_TAGS = ("article", "div", "main", "section")
_ARTICLE_ID = re.compile("(?:entry|article|art)-content|article__content|article(?:-|__)?body|articleBody|body-text")
_ARTICLE_CLASS = re.compile(
    "post[-_]text|post-body|post-?entry|post[-_]?content|postContent|post_inner_wrapper|article-?text|articleText|"
    "(?:entry|page|text|article|art)-content|article__content|article(?:-|__)?body|articleBody|ArticleContent|"
    "body-text|article__container")
_STORY_ID = re.compile("^primary|story-body")
_FULLTEXT = re.compile("fulltext", re.IGNORECASE)
_STORY_CLASS = re.compile(
    "^article |post-bodycopy|story-?content|(?:theme|blog|section|single)-content|single-post|main-column|"
    "wpb_text_column|story-body|field-body")
_CONTENT_ID = re.compile("content-main|content-body|contentBody")
_CONTENT_CLASS = re.compile("content[-_]main|content(?:-|__)body")


def _article_body(el: HtmlElement) -> bool:
    """`BODY_XPATH[0]`'s tests of a box."""
    cls, id_ = el.get("class") or "", el.get("id") or ""
    return (cls in ("post", "entry") or el.get("itemprop") == "articleBody" or id_ == "articleContent"
            or _ARTICLE_ID.search(id_) is not None or _ARTICLE_CLASS.search(cls) is not None)


def _story(el: HtmlElement) -> bool:
    """`BODY_XPATH[2]`'s tests of a box."""
    cls, id_ = el.get("class") or "", el.get("id") or ""
    return (el.get("role") == "article" or id_ in ("article", "story")
            or cls in ("postarea", "art-postcontent", "text", "cell", "story")
            or _STORY_ID.search(id_) is not None or _FULLTEXT.search(cls) is not None
            or _STORY_CLASS.search(cls) is not None)


def _content(el: HtmlElement) -> bool:
    """`BODY_XPATH[3]`'s tests of a box (`translate` lowers the letters named)."""
    cls, id_ = el.get("class") or "", el.get("id") or ""
    return (id_ == "content" or cls == "content" or _CONTENT_ID.search(id_) is not None
            or _CONTENT_CLASS.search(cls) is not None
            or "main-content" in id_.replace("C", "c").replace("M", "m")
            or "main-content" in cls.replace("C", "c").replace("M", "m")
            or "page-content" in cls.replace("C", "c").replace("P", "p"))


def _main(el: HtmlElement) -> bool:
    """`BODY_XPATH[4]`: a `<main>` (its second part), or a box whose class, id or role starts with "main"."""
    return el.tag == "main" or ((el.get("class") or "").startswith("main") or (el.get("id") or "").startswith("main")
                                or (el.get("role") or "").startswith("main"))


def _first_passing(tree: HtmlElement, tags: tuple[str, ...], test: Callable[[HtmlElement], bool]) -> HtmlElement | None:
    """The first element below `tree` of one of the tags that passes the test, in document order."""
    return next((el for el in tree.iterdescendants(*tags) if test(el)), None)


def body_subtree(tree: HtmlElement, n: int) -> HtmlElement | None:
    """The first element `BODY_XPATH[n]` selects in `tree` (None when none)."""
    if n == 0:
        return _first_passing(tree, _BODY_TAGS, _article_body)
    if n == 1:
        return next(tree.iterdescendants("article"), None)
    if n == 2:
        return _first_passing(tree, _BODY_TAGS, _story)
    if n == 3:
        return _first_passing(tree, _BODY_TAGS, _content)
    return _first_passing(tree, ("article", "div", "section", "main"), _main)  # `<main>`s: the union's second part
