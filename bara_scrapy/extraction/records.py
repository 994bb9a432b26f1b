"""Records: a page's pairs of a label and its value, such as an archive item's Creator, Date, Subjects and Rights,
a course's facts, or an event's When and Where.

A record is written as a description list (`<dl>`: each `<dt>` followed by its `<dd>`), as a run of boxes of one
kind, each a short heading over its value (Omeka's `div.element`, DSpace's field wrappers), or as a list of fields, a
label, a colon and a value on each item's line (MHonArc's mail header: "To:", "Subject:", "From:", "Date:"), or as a
table whose every row is a `<th>` label over its value's cells (Roundup's "Author | gwen", "Date | …"). A
reader takes it for the page's data, as with a table's rows (which trafilatura keeps). trafilatura drops it by class
name (`meta` anywhere in a class: `item-metadata`), and the article frame drops its lines by length: a one-word label
and a two-word value are as short as a byline or a date.

So a record's lines are content where the page's text is: inside or around the kept text's container, or in the
article frame. The caller asks for records only when the page is no long article: a record over one is the
article's own (a masthead, a fact box), and trafilatura decides it with the article. Three guards apply:

- the record is the only one of its kind on the page: a forum post's profile (`dl.postprofile`) repeats on every
  post;
- the record is not mostly links: that would be a menu;
- the record is not a byline: its values are not all the page's author and dates, as the markup says.

By the same markup, an article's meta row ("Posted on <time>", "In <category>": `meta_rows`) is the page's furniture.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection
from itertools import pairwise

from lxml.etree import XPath, iterwalk
from lxml.html import HtmlElement

from .blocks import BLOCK_TAGS, signature
from .boilerplate import FORM_FIELDS, HEADINGS, value_link
from .lists import lowest_common
from .missed import follows_in_document
from .text import words

MIN_PAIRS = 2  # a record's labels at least: one pair is a line
LABEL_WORDS = 4  # a field's label at most ("Date of publication"): a longer heading is a title
LINK_SHARE = 0.5  # a record's words inside links below this share: more is a menu


def records(root: HtmlElement, container: HtmlElement, frame: Collection[HtmlElement] = (),
            end: HtmlElement | None = None, headline: HtmlElement | None = None) -> list[HtmlElement]:
    """The page's records (description lists, runs of labelled boxes, lists of fields and tables of labelled rows,
    `MIN_PAIRS` pairs or more) that stand where its text is (`_placed`: by the kept text's `container`, in the
    article's `frame`, or between the page's `headline` and the kept text's `end`: a page of no wrappers, as a mail
    archive's), each the only one of its kind (signature) on the page, less than `LINK_SHARE` of its words in links,
    and no byline (`_byline`). A list of fields after the kept text's `end` is the article's footer ("Post author:
    …", "Copyright Notice: …"), not its record.

    >>> from lxml.html import fromstring
    >>> t = fromstring('<main><h1>Letter, 1862</h1><div class="item-metadata"><dl><dt>Creator</dt><dd><a href="/c">'
    ...                'Hale, Mary</a></dd><dt>Date</dt><dd>1862-03-14</dd><dt>Rights</dt><dd>Public domain</dd>'
    ...                '</dl></div><p>A letter describing the flood at the mill.</p></main>')
    >>> [el.tag for el in records(t, t)]
    ['dl']
    >>> posts = fromstring('<main><div><dl class="profile"><dt>ann</dt><dd>Posts: 12</dd><dt>x</dt><dd>y</dd></dl>'
    ...                    '<p>Post</p></div><div><dl class="profile"><dt>bob</dt><dd>Posts: 3</dd><dt>x</dt><dd>y</dd>'
    ...                    '</dl><p>Reply</p></div></main>')
    >>> records(posts, posts)
    []
    >>> byline = fromstring('<main><dl><dt>Author:</dt><dd><a rel="author" href="/a">Ann</a></dd><dt>Published:</dt>'
    ...                     '<dd><time>Oct 4, 2018</time></dd></dl><p>Four things to do in October.</p></main>')
    >>> records(byline, byline)
    []
    """
    found: list[HtmlElement] = []
    for dl in root.iter("dl"):
        if _pairs(dl) >= MIN_PAIRS:
            found.append(dl)
    fields = _labelled_runs(root)  # a run's parent -> its fields, the record's lines (not its other boxes: a button)
    found += fields
    found += (el for el in _labelled_lists(root) if end is None or not follows_in_document(el, end))
    found += _labelled_tables(root)
    kinds: defaultdict[str, list[HtmlElement]] = defaultdict(list)
    for el in found:
        kinds[_kind(el)].append(el)
    span = None if headline is None or end is None else (headline, end)
    return [field for kind in kinds.values() if _one_record(kind) for el in kind
            if _placed(el, container, frame, span) and _few_links(el) and not _byline(el)
            for field in fields.get(el, (el,))]


def _one_record(kind: list[HtmlElement]) -> bool:
    """Whether the records of one kind (in document order) are the page's record: one of its kind, or parts of one,
    nothing but headings between each and the next (an event's details, organiser and venue, three description lists
    under their headings), not one beside each post of a thread (a poster's profile, her post's words after it). One
    walk of the smallest element holding them all.

    >>> from lxml.html import fromstring
    >>> t = fromstring('<div><h2>Details</h2><dl><dt>Date</dt><dd>June 14</dd><dt>Cost</dt><dd>£45</dd></dl><div><h2>'
    ...                'Venue</h2><dl><dt>Farm</dt><dd>Low Moss</dd></dl></div><p>Bring boots.</p><dl></dl></div>')
    >>> _one_record(list(t.iter("dl"))[:2]), _one_record(list(t.iter("dl")))
    (True, False)
    """
    if len(kind) == 1:
        return True
    last, root = kind[-1], lowest_common(kind)
    if root is None:
        return False
    parts, started, skipped = set(kind), False, None  # `skipped`: the record or heading the walk is inside
    for event, el in iterwalk(root, events=("start", "end")):
        if event == "start":
            if skipped is None and (el in parts or (started and el.tag in HEADINGS)):
                if el is last:
                    return True
                skipped, started = el, True
            elif skipped is None and started and (el.text or "").strip():
                return False
        else:
            if el is skipped:
                skipped = None
            if skipped is None and started and el is not root and (el.tail or "").strip():
                return False
    return False


def _pairs(dl: HtmlElement) -> int:
    """The terms of a description list each followed by a description (HTML lets a `<div>` wrap a term and its
    descriptions); 0 when a term is not."""
    children = [el for wrap in dl for el in (wrap if wrap.tag == "div" else (wrap,)) if isinstance(el.tag, str)]
    terms = 0
    for el, nxt in pairwise([*children, None]):
        if el.tag == "dt":
            if nxt is None or nxt.tag not in ("dd", "dt"):
                return 0
            terms += nxt.tag == "dd"
    return terms


def _labelled_runs(root: HtmlElement) -> dict[HtmlElement, list[HtmlElement]]:
    """The parents of runs of boxes of one signature, each with its fields, every box of that signature in its
    parent a field (`_labelled`): a label and its value, `MIN_PAIRS` of them or more a value of one line (a paragraph
    at most and no list; an archive item's Description may be several, beside its Creator and Date, and an issue's
    "Fix versions" a list, beside its Priority and Resolution: a run of titled paragraphs or lists alone is a
    page's sections, "About us", "Latest news").

    >>> from lxml.html import fromstring
    >>> item = '<div><h3>{}</h3><div class="value"><p>{}</p></div></div>'
    >>> fields = [("Description", "A letter.</p><p>Four pages."), ("Creator", "Rennie, Agnes"), ("Date", "1899")]
    >>> len(_labelled_runs(fromstring("<div>" + "".join(item.format(*f) for f in fields) + "</div>")))
    1
    >>> sections = [("About us", "We count.</p><p>We map."), ("History", "Since 1990.</p><p>Then more.")]
    >>> _labelled_runs(fromstring("<div>" + "".join(item.format(*f) for f in sections) + "</div>"))
    {}
    """
    runs: dict[tuple[HtmlElement, str], list[HtmlElement]] = defaultdict(list)
    lines: set[HtmlElement] = set()  # the boxes whose value is one line (a paragraph at most)
    for h in root.iter(*HEADINGS):
        label = _outer(h)  # with the wrappers holding it alone (Jira's `<div><h3>Priority</h3></div>` beside the value)
        box = label.getparent()
        up = None if box is None else _outer(box).getparent()
        if box is not None and up is not None and _labelled(box, h, label, _VALUE_LISTS):
            runs[(up, signature(box))].append(box)
            if len(box.findall(".//p")) <= 1 and next(box.iter(*_VALUE_LISTS), None) is None:
                lines.add(box)
    out = {up: [_outer(box) for box in boxes] for (up, kind), boxes in runs.items()
           if sum(box in lines for box in boxes) >= MIN_PAIRS
           and len(boxes) == sum(1 for el in up.iterdescendants() if signature(el) == kind
                                 and _outer(el).getparent() is up and words(el.text_content()))}
    return out | {up: [_outer(box) for box in boxes] for up, boxes in _label_pairs(root).items() if up not in out}


def _label_pairs(root: HtmlElement) -> dict[HtmlElement, list[HtmlElement]]:
    """The runs of fields whose label is no heading: blocks of two elements and no words of their own (no table's
    row, no `<span>`s inside a line: a catalogue's "Language: English" among the line's other spans), a label of
    `LABEL_WORDS` words at most (a word, no link, control or sentence) and its value of one line at most, some of it
    outside links and no code block (a code block's language over it, "sh"; `_labelled`), `MIN_PAIRS` of them or
    more under one parent (each in its wrappers: Drupal writes each field in a block of its own), their labels of one
    signature and their values of another, each label its own ("Date", "Time", "Location": a thread's posters
    repeat). A label's class is what makes it one: two `<div>`s side by side are a box's parts, not a field.

    >>> from lxml.html import fromstring
    >>> field = '<div class="block"><div class="f"><div class="label">{}</div><div class="item">{}</div></div></div>'
    >>> t = fromstring('<div>' + field.format("Date", "Thursday, October 16") + field.format("Time", "4:00pm") +
    ...                '<p>Body</p></div>')
    >>> [[el.get("class") for el in boxes] for boxes in _label_pairs(t).values()]
    [['f', 'f']]
    >>> t = fromstring('<div>' + field.format("Ann", "Nice.") + field.format("Ann", "Thanks.") + '</div>')
    >>> _label_pairs(t)
    {}
    """
    runs: dict[tuple[HtmlElement, str], list[HtmlElement]] = defaultdict(list)
    labels: dict[HtmlElement, str] = {}
    for box in _TWO_PARTS(root):
        said = _field_label(box)
        if said and (up := _outer(box).getparent()) is not None:
            label, value = (el for el in box if isinstance(el.tag, str))
            runs[(up, signature(label) + " " + signature(value))].append(box)
            labels[box] = said.lower()
    return {up: boxes for (up, _kind), boxes in runs.items() if len(boxes) >= MIN_PAIRS
            and len({labels[box] for box in boxes}) == len(boxes)}


# the elements of two elements, the first classed: a box of a field's label and value may be one (found in C, as the
# markers are, not by a walk of every element in Python)
_TWO_PARTS = XPath("descendant-or-self::*[count(*) = 2 and *[1][@class]]")


def _field_label(box: HtmlElement) -> str:
    """The label of a block of two elements that is a field (`_label_pairs`), "" when it is none."""
    label, value = (el for el in box if isinstance(el.tag, str))
    if box.tag not in _BOXES or label.tag in HEADINGS or (box.text or "").strip() or (label.tail or "").strip() \
            or (value.tail or "").strip():
        return ""
    said = " ".join(label.itertext()).strip()
    if said[-1:] in _SENTENCE_ENDS or not any(c.isalpha() for c in said) \
            or next(label.iter("a", "img", *FORM_FIELDS, *_STRUCTURE), None) is not None:
        return ""
    if len(value.findall(".//p")) > 1 or next(value.iter("pre"), None) is not None \
            or not (words(" ".join(_UNLINKED(value))) or any(value_link(a) for a in value.iter("a"))):
        return ""
    return said if _labelled(box, label) else ""


_SENTENCE_ENDS = frozenset(".!?")
_BOXES = BLOCK_TAGS - {"tr", "table", "tbody", "thead", "tfoot", "ul", "ol", "dl"}  # (a table's, a list's: theirs)


def _outer(box: HtmlElement) -> HtmlElement:
    """The outermost element around a box that holds nothing else: the wrappers a component framework writes around
    each field (DSpace's `<ds-generic-item-page-field><div><ds-metadata-values>…`), or the box itself.

    >>> from lxml.html import fromstring
    >>> t = fromstring('<div><x-field><div><div class="f"><h3>Date</h3>1899</div></div></x-field><p>Note</p></div>')
    >>> _outer(t.find(".//div[@class='f']")).tag
    'x-field'
    >>> card = fromstring('<div><div class="c"><a href="/s/1"><img src="1.jpg"></a><div class="v"><h3>Otters</h3>Back'
    ...                   '</div></div><p>Note</p></div>')
    >>> _outer(card.find(".//h3").getparent()).get("class")
    'v'
    """
    item = box
    while (up := item.getparent()) is not None and not (up.text or "").strip() and all(
            el is item or _empty(el) for el in up) and not (item.tail or "").strip():
        item = up
    return item


def _empty(el: HtmlElement) -> bool:
    """Whether a node shows nothing and leads nowhere: a comment, or an element with no text, link or picture (a
    card's picture and the link laid over it make it a card, not a field's wrapper)."""
    if (el.tail or "").strip():
        return False
    return not isinstance(el.tag, str) or not (el.text_content().strip() or next(el.iter("a", "img"), None) is not None)


def _labelled_tables(root: HtmlElement) -> list[HtmlElement]:
    """The tables of `MIN_PAIRS` rows or more, each row a header cell of a label (`LABEL_WORDS` words at most) and
    the cells of its value, at least `MIN_PAIRS` of them with words, and no table inside: a message's
    "Author | gwen", "Recipients |", "Date | 2026-11-10" (Roundup), a record's fields written as a table, under a
    `<thead>` naming its columns or not (Hyrax's "Attribute Name | Values").

    >>> from lxml.html import fromstring
    >>> t = fromstring('<div><table><tr><th>Author</th><td>gwen</td></tr><tr><th>Recipients</th><td></td></tr>'
    ...                '<tr><th>Date</th><td>2026-11-10</td></tr></table><table><tr><th>Name</th><th>Size</th></tr>'
    ...                '<tr><td>a.txt</td><td>2 KB</td></tr></table></div>')
    >>> [len(el.findall(".//tr")) for el in _labelled_tables(t)]
    [3]
    """
    out = []
    for table in root.iter("table"):
        rows = [tr for tr in table.iter("tr") if tr.getparent().tag != "thead"]  # a header row names the columns
        if len(rows) < MIN_PAIRS or table.find(".//table") is not None:
            continue
        valued = 0
        for tr in rows:
            cells = [c for c in tr if isinstance(c.tag, str)]
            label = words(" ".join(cells[0].itertext())) if cells else 0
            if len(cells) < 2 or cells[0].tag != "th" or any(c.tag != "td" for c in cells[1:]) or not (
                    0 < label <= LABEL_WORDS):
                break
            valued += words(" ".join(t for c in cells[1:] for t in c.itertext())) > 0
        else:
            if valued >= MIN_PAIRS:
                out.append(table)
    return out


def _labelled_lists(root: HtmlElement) -> list[HtmlElement]:
    """The lists of `MIN_PAIRS` items or more, each item a field written on its line (`_field_line`): a mail's
    header in an archive ("To: …", "Subject: …", "From: …"), a product's or an event's facts.

    >>> from lxml.html import fromstring
    >>> t = fromstring('<div><ul><li><em>Subject</em>: Dusty mirror</li><li><em>From</em>: Helen Cotterill</li></ul>'
    ...                '<ul><li>Prev: <a href="/1">Star party</a></li><li>Index:<ul><li>Date</li></ul></li></ul>'
    ...                '<ul><li>http://a.example/</li><li>http://b.example/</li></ul></div>')
    >>> [len(el) for el in _labelled_lists(t)]
    [2]
    """
    return [el for el in root.iter("ul", "ol") if sum(isinstance(li.tag, str) for li in el) >= MIN_PAIRS
            and all(li.tag == "li" and _field_line(li) for li in el if isinstance(li.tag, str))]


def _field_line(li: HtmlElement) -> bool:
    """Whether a list's item is a field on its line: a label of `LABEL_WORDS` words at most (with a letter), a colon,
    then its value (not a URL's "//"), and no structure (`_STRUCTURE`) inside."""
    label, colon, value = " ".join(li.itertext()).partition(":")
    return bool(colon) and 0 < words(label) <= LABEL_WORDS and any(c.isalpha() for c in label) \
        and words(value) > 0 and not value.startswith("//") and next(li.iterdescendants(*_STRUCTURE), None) is None


# a box's words but those of links to places in the page (a heading's "¶" anchor, "Section titled …" for screen
# readers, after each heading of a docs page): its label's and its value's
_VALUE = XPath("descendant::text()[not(ancestor::a[starts-with(normalize-space(@href), '#')])]")


def _byline(el: HtmlElement) -> bool:
    """Whether every value of a record is its page's author or a date, as the markup says (a `<time>`, a link
    `rel="author"`, schema.org's `itemprop` author or date): an article's byline ("Author: / Publish date:")."""
    values = el.findall("dd") if el.tag == "dl" else [value for box in el for value in list(box)[1:]]
    return bool(values) and all(_BYLINE(value) for value in values)


def meta_rows(root: HtmlElement) -> list[HtmlElement]:
    """The article meta rows under `root`: an element of two boxes or more (not a bare `<time>` or link each: a
    listing's entry is its date beside its title link), half of them or more a date or the author, as the markup
    says (`_dated`), under a label of `LABEL_WORDS` words at most, the others as short (NexT's "Posted on <time>",
    "Edited on <time>", "In <category>"). Each box has a word outside its links and holds no heading: a box that is
    a link alone is an entry's title (an archive's "03-14" over its post's title link, a post's `<h1>` over its date).
    An event listing's rows link their titles beside their dates.

    >>> from lxml.html import fromstring
    >>> t = fromstring('<div><div class="meta"><span>Posted on <time>2026-01-20</time></span><span>In <a href="/c">'
    ...                'Tower</a></span></div><ul><li><time>2026-11-08</time><a href="/p/1">Winter moths</a></li>'
    ...                '<li><span><a href="/e/1">Otter count</a> <time>14 March</time></span><span>Free</span></li>'
    ...                '</ul></div>')
    >>> [el.get("class") for el in meta_rows(t)]
    ['meta']
    >>> t = fromstring('<div><header><h1>Otters</h1><p><time>2026-03-04</time></p></header><div class="entry">'
    ...                '<div><time>03-14</time></div><div><a href="/p/1">Otter count</a></div></div></div>')
    >>> meta_rows(t)
    []

    A row of a table of labelled rows is a record's field, whatever its value's markup (Hyrax's "Date Created" over
    `<span itemprop="dateCreated">`):

    >>> meta_rows(fromstring('<table><tr><th>Date Created</th><td><span itemprop="dateCreated">2023-05-12</span></td>'
    ...                      '</tr><tr><th>Rights</th><td>CC BY 4.0</td></tr></table>'))
    []

    So is a field of a run of labelled boxes that are not all dates and authors (an event's Date, Time and Place):

    >>> field = '<div><div class="label">{}</div><div class="item">{}</div></div>'
    >>> meta_rows(fromstring('<div>' + field.format("Date", "<time>Thursday, October 16</time>") +
    ...                      field.format("Place", "Hartley Hall") + '</div>'))
    []
    """
    rows = dict[HtmlElement, None]()  # the elements around a date or an author, the only ones that can be a row
    for marker in _MARKERS(root):
        for el in marker.iterancestors():
            if el in rows:
                break
            rows[el] = None
            if el is root:
                break
    out = []
    for el in rows:  # (in the markers' order, innermost first: the same page gives the same order)
        boxes = [box for box in el if isinstance(box.tag, str)]
        if len(boxes) >= 2 and not any(box.tag in _BARE for box in boxes) \
                and 2 * sum(_dated(box) for box in boxes) >= len(boxes) and all(_meta_box(box) for box in boxes):
            out.append(el)
    if out:  # less a record's fields ("Date Created | 2023-05-12"), as a table of labelled rows or a run writes them
        # (a run's labels that are headings make no meta row: a meta row's boxes hold none)
        fields = {row for table in _labelled_tables(root) for row in table.iter("tr")} | {
            el for up, boxes in _label_pairs(root).items() if not all(_BYLINE(box) for box in boxes)
            for el in (up, *(el for box in boxes for el in box.iter()))}
        out = [el for el in out if el not in fields]
    return [el for el in out if not any(a in out for a in el.iterancestors())]


_BARE = frozenset({"time", "a", "br", "img"})  # a listing entry's parts, not the boxes of a meta row


def _meta_box(box: HtmlElement) -> bool:
    """A meta row's box: a few words, none a heading's, some outside its links (a label, "In", or a date): a box
    that is a link alone is an entry's title."""
    if next(box.iter(*HEADINGS), None) is not None or words(" ".join(box.itertext())) > 2 * LABEL_WORDS:
        return False
    return words(" ".join(_UNLINKED(box))) > 0


_UNLINKED = XPath("descendant::text()[not(ancestor::a)]")


def _dated(item: HtmlElement) -> bool:
    """An item that is a date or an author by its markup, under a short label, with no other link."""
    if not _BYLINE(item) or any("author" not in (a.get("rel") or "").split() and a.get("itemprop") != "author"
                                for a in item.iter("a")):
        return False
    dates = sum(words(" ".join(el.itertext())) for el in item.iter("time"))
    return words(" ".join(item.itertext())) - dates <= LABEL_WORDS


# a date or the page's author, by the markup: a <time>, a link rel="author", schema.org's itemprop author or date*
_DATE_OR_AUTHOR = ("self::time or contains(concat(' ', normalize-space(@rel), ' '), ' author ') or @itemprop='author' "
                   "or starts-with(@itemprop, 'date')")
_BYLINE = XPath(f"boolean(descendant-or-self::*[{_DATE_OR_AUTHOR}])")
# (the first test keeps the string functions off most elements: 2.5 times faster on a whole page)
_MARKERS = XPath(f"descendant::*[self::time or @rel or @itemprop][{_DATE_OR_AUTHOR}]")


def _labelled(box: HtmlElement, h: HtmlElement, label: HtmlElement | None = None,
              lists: Collection[str] = ()) -> bool:
    """Whether a box is a field: its first element a heading (or the `label` holding the heading alone) of
    `LABEL_WORDS` words at most and no link (a card's title links), with words after it (`_VALUE`) written as a
    value, not as a section (`_STRUCTURE`: a list, but of the `lists` allowed, a table, an entry, another heading: a
    home page's "Latest news" and "Coming up" are sections). A value may be paragraphs (an archive item's
    Description); a run of such boxes alone is a page's sections (`_labelled_runs`).

    >>> from lxml.html import fromstring
    >>> field = fromstring('<div><h3>Rights</h3><div>Public domain</div></div>')
    >>> section = fromstring('<section><h2>Coming up</h2><ul><li><a href="/e/1">Otter count</a> 14 March</li></ul>'
    ...                      '</section>')
    >>> _labelled(field, field[0]), _labelled(section, section[0])
    (True, False)
    >>> wrapped = fromstring('<div><div class="heading"><h3>Priority</h3></div><div><span>High</span></div></div>')
    >>> _labelled(wrapped, wrapped[0][0], wrapped[0])
    True
    """
    count = words(" ".join(h.itertext()))
    return 0 < count <= LABEL_WORDS and next(h.iter("a"), None) is None and words(" ".join(_VALUE(box))) > count \
        and _first(box) is (h if label is None else label) \
        and next((el for el in box.iterdescendants(*_STRUCTURE) if el is not h and el.tag not in lists), None) is None


_STRUCTURE = ("ul", "ol", "dl", "table", "article", "section", "form", "figure", *HEADINGS)  # a section's, no value's
_VALUE_LISTS = ("ul", "ol")  # ... but for a list of values in a run of one-line fields (Jira's "Fix versions")


def _first(box: HtmlElement) -> HtmlElement | None:
    """A box's first child element."""
    return next((el for el in box if isinstance(el.tag, str)), None)


def _kind(el: HtmlElement) -> str:
    """A record's kind: its signature, and, for a run, its boxes' (the first's)."""
    box = el if el.tag == "dl" else _first(el)
    return signature(el) + ("" if box is None or box is el else " " + signature(box))


def _placed(el: HtmlElement, container: HtmlElement, frame: Collection[HtmlElement],
            span: tuple[HtmlElement, HtmlElement] | None = None) -> bool:
    """Whether a record stands where the page's text is: inside the kept text's container (not the whole page),
    around it, in the article's frame, or within the `span` of the article (after its headline, before its end)."""
    ancestors = [el, *el.iterancestors()]
    if any(up in frame for up in ancestors):
        return True
    if span is not None and follows_in_document(el, span[0]) and follows_in_document(span[1], el):
        return True
    return container.tag not in ("html", "body") and (container in ancestors or any(
        up is el for up in container.iterancestors()))


def _few_links(el: HtmlElement) -> bool:
    """Whether less than `LINK_SHARE` of a record's words are inside links to pages (not to write or call to: an
    address or a number is a value)."""
    total = words(" ".join(el.itertext()))  # a term and its description apart
    linked = sum(words(" ".join(a.itertext())) for a in el.iter("a") if not value_link(a))
    return total > 0 and linked < LINK_SHARE * total
