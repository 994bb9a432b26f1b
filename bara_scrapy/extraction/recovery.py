"""trafilatura 2.3.1's `extract_content` in precision mode, its prunes run as Python tests (`prunes.py`).

When its extractor keeps little (under `min_extracted_size` characters: most pages without an article element, 640
of CleanEval's 753 calls), `extract_content` recovers the page's "wild" paragraphs from a copy of the whole tree,
after pruning it (`prune_unwanted_sections`): five prune expressions whose `re:test`s call back into Python for
each element, 2.4 ms of a CleanEval page; its main pass (`_extract`) prunes the subtree it reads the same way. The
steps below are trafilatura's (`trafilatura.main_extractor`, `extract_content`, `_extract`, `recover_wild_text`,
`prune_unwanted_sections`), line for line but for logging, and for those prunes, which
select the same elements (`tests/unit/test_prunes.py`). `precise.py` calls them only with trafilatura 2.3.1
(`FOLLOWED`); its tests compare the result with `bare_extraction`'s.
"""

from __future__ import annotations

from collections.abc import Callable
from copy import deepcopy

from lxml.etree import Element, _Element, strip_elements, strip_tags
from lxml.html import HtmlElement
from trafilatura.htmlprocessing import delete_by_link_density, link_density_test_tables, process_node
from trafilatura.main_extractor import NOT_AT_THE_END, REBUILT_BLOCKS, _elem_text, handle_textelem
from trafilatura.settings import DEDUPE_SCAN_CAP, INLINE_FORMATTABLE, MIN_DUPLICATE_LENGTH, TAG_CATALOG, Extractor
from trafilatura.utils import SPACING_PROTECTED, text_chars_test, trim
from trafilatura.xml import delete_element
from trafilatura.xpaths import BODY_XPATH

from .prunes import body_subtree, bottoms_and_links, captions, headers, overall_discard, prune, teasers


def extract_content(cleaned_tree: HtmlElement, options: Extractor) -> tuple[_Element, str]:
    """`trafilatura.main_extractor.extract_content` (precision mode)."""
    backup_tree = deepcopy(cleaned_tree)
    order = list(cleaned_tree.iter())  # source order before the main pass moves elements, the backup keeps it
    result_body, temp_text, potential_tags = _extract(cleaned_tree, options)
    if len(result_body) == 0 or len(temp_text) < options.min_extracted_size:
        consumed = {twin for elem, twin in zip(order, backup_tree.iter(), strict=True) if elem.tag == "done"}
        result_body = _recover_wild_text(backup_tree, result_body, options, potential_tags, consumed)
        temp_text = " ".join(result_body.itertext()).strip()
    previous = None
    for el in list(result_body):
        current = _elem_text(el)
        if current and current == previous and len(current) > MIN_DUPLICATE_LENGTH:
            delete_element(el, keep_tail=False)
        else:
            previous = current
    strip_elements(result_body, "done")
    strip_tags(result_body, "div")
    for linebreak in result_body.iter("lb"):
        if (linebreak.tail and not text_chars_test(linebreak.tail)
                and not any(anc.tag in SPACING_PROTECTED for anc in linebreak.iterancestors())):
            linebreak.tail = None
    return result_body, temp_text


def _extract(tree: HtmlElement, options: Extractor) -> tuple[_Element, str, set[str]]:
    """`trafilatura.main_extractor._extract` (precision mode): the main pass over the first subtree a `BODY_XPATH`
    expression finds that gives content, pruned by `_prune_unwanted_sections` (on CleanEval, a subtree on 126 of 732
    pages: its prunes' expressions took 0.9 ms a page, these tests 0.4). The subtrees are found by Python tests
    (`prunes.body_subtree`): the expressions' `re:test`s took 2 ms of a CleanEval page, most of whose trees none of
    them finds anything in, so that all five are asked."""
    potential_tags = set(TAG_CATALOG)
    if options.tables is True:
        potential_tags.update(["table", "td", "th", "tr"])
    if options.images is True:
        potential_tags.add("graphic")
    if options.links is True:
        potential_tags.add("ref")
    result_body = Element("body")
    for n in range(len(BODY_XPATH)):  # each expression's first element, found by Python tests (`prunes.py`)
        subtree = body_subtree(tree, n)
        if subtree is None:
            continue
        subtree = _prune_unwanted_sections(subtree, potential_tags, options)
        if len(subtree) == 0:
            continue
        ptest = subtree.xpath("//p//text()")
        factor = 1 if options.focus == "precision" else 3
        if not ptest or len("".join(ptest)) < options.min_extracted_size * factor:
            potential_tags.add("div")
        subelems = subtree.xpath(".//*")
        tags = {e.tag for e in subelems}
        if tags == {"lb"} or (subtree.tag == "div" and "div" in potential_tags and tags <= INLINE_FORMATTABLE | {"lb"}):
            subelems = [subtree]
        lead, start = None, len(result_body)
        if subelems != [subtree] and text_chars_test(subtree.text):
            lead = Element("p")
            lead.text = subtree.text
            lead = process_node(lead, options)
        for elem in subelems:
            if elem.getroottree().getroot() is result_body:
                continue
            tag, tail = elem.tag, elem.tail
            processed_elem = handle_textelem(elem, potential_tags, options)
            if processed_elem is not None:
                result_body.append(processed_elem)
                if elem.getroottree().getroot() is not result_body:
                    elem.tag = "done"
            if (tag in REBUILT_BLOCKS and text_chars_test(tail)
                    and (processed_elem is None or processed_elem.tail is None)):
                tail_elem = Element("p")
                tail_elem.text = tail
                if process_node(tail_elem, options) is not None:
                    result_body.append(tail_elem)
        while len(result_body) > 0 and (result_body[-1].tag in NOT_AT_THE_END):
            delete_element(result_body[-1], keep_tail=False)
        if sum(e.tag != "graphic" for e in result_body) > 1:
            if lead is not None:
                result_body.insert(start, lead)
            break
    temp_text = " ".join(result_body.itertext()).strip()
    return result_body, temp_text, potential_tags


def _recover_wild_text(tree: HtmlElement, result_body: _Element, options: Extractor, potential_tags: set[str],
                       consumed: set[_Element]) -> _Element:
    """`trafilatura.main_extractor.recover_wild_text` (precision mode)."""
    potential_tags = set(potential_tags)  # a copy, as trafilatura's (`_extract` always gives a set)
    search_tree = _prune_unwanted_sections(tree, potential_tags, options)
    subelems = search_tree.xpath(".//code|.//p|.//quote|.//table|.//div[contains(@class, 'w3-code')]")
    elem_texts = [_elem_text(el) for el in result_body]
    existing = "\n".join(filter(None, elem_texts))
    existing_elems = set(elem_texts)
    handled: set[_Element] = set()
    for subelem in subelems:
        if (consumed and subelem in consumed) or any(a in handled for a in subelem.iterancestors()):
            continue
        processed = handle_textelem(subelem, potential_tags, options)
        if processed is None:
            continue
        if processed is subelem:
            handled.add(subelem)
        text = _elem_text(processed)
        images = {img.get("src") for img in processed.iter("graphic")}
        if not text and images and images <= {g.get("src") for g in result_body.iter("graphic")}:
            continue
        under_cap = len(existing) <= DEDUPE_SCAN_CAP
        fragment = trim(text + (processed.tail or "")) if text_chars_test(processed.tail) else ""
        if text and (text in existing_elems or (under_cap and (
                (len(text) > MIN_DUPLICATE_LENGTH and text in existing) or (fragment and fragment in existing)))):
            continue
        result_body.append(processed)
        if under_cap:
            existing += "\n" + (fragment or text)
        existing_elems.add(text)
    return result_body


def _prune_unwanted_sections(tree: HtmlElement, potential_tags: set[str], options: Extractor) -> HtmlElement:
    """`trafilatura.main_extractor.prune_unwanted_sections` in precision mode, teasers not kept."""
    _prune_with_backup(tree, overall_discard)
    if "graphic" not in potential_tags:
        prune(tree, captions)
    prune(tree, teasers)
    prune(tree, headers)
    prune(tree, bottoms_and_links)
    for _ in range(2):
        tree = delete_by_link_density(tree, "div", backtracking=True, favor_precision=True)
        tree = delete_by_link_density(tree, "list", backtracking=False, favor_precision=True)
        tree = delete_by_link_density(tree, "p", backtracking=False, favor_precision=True)
    boilerplate_tables = [elem for elem in tree.iter("table") if link_density_test_tables(elem) is True]
    for elem in boilerplate_tables:
        delete_element(elem, keep_tail=False)
    while len(tree) > 0 and (tree[-1].tag == "head"):
        delete_element(tree[-1], keep_tail=False)
    tree = delete_by_link_density(tree, "head", backtracking=False, favor_precision=True)
    tree = delete_by_link_density(tree, "quote", backtracking=False, favor_precision=True)
    strip_tags(tree, "span", *(() if "ref" in potential_tags else ("ref",)))
    return tree


def _prune_with_backup(tree: HtmlElement, select: Callable[[HtmlElement], list[HtmlElement]]) -> None:
    """`prune_unwanted_nodes(tree, expressions, with_backup=True)`: the outermost elements selected go, unless that
    would leave a seventh of the tree's text or less."""
    matches = dict.fromkeys(select(tree))
    outer = [elem for elem in matches if not any(a in matches for a in elem.iterancestors())]
    old_len = len(tree.text_content())
    if old_len - sum(len(elem.text_content()) for elem in outer) > old_len / 7:
        for elem in outer:
            delete_element(elem)
