"""The site's template by repetition: a line the parent shows at the same place leaves the page's text;
the parent's fingerprint travels with the pages it admits (frontier, journal) so the text never depends
on crawl order or a resume."""

from __future__ import annotations

import pickle
from pathlib import Path

from bara_scrapy.extraction.content import page_content
from bara_scrapy.extraction.template import decode, encode, fingerprint
from bara_scrapy.frontier import Frontier
from bara_scrapy.journal import completion_record, read_journal, replay
from bara_scrapy.journal import encode as journal_line

from ..forum_site import TEMPLATE_LINES, Forum

BASE = "https://forum.example.org"


def _lines(text: str) -> set[str]:
    return {" ".join(line.split()) for line in text.split("\n")}


def test_the_lines_a_thread_shares_with_its_board_at_the_same_place_leave_its_text() -> None:
    forum = Forum().build()
    board = page_content(forum.pages["/viewforum.php?f=1"], f"{BASE}/viewforum.php?f=1")
    thread = "/viewtopic.php?t=102"
    alone = page_content(forum.pages[thread], BASE + thread)
    child = page_content(forum.pages[thread], BASE + thread, parent=decode(board.fingerprint))
    assert set(TEMPLATE_LINES) <= _lines(alone.text)  # the page alone cannot tell them from its own
    assert not set(TEMPLATE_LINES) & _lines(child.text)
    assert child.template_lines >= 2
    for own in forum.own[thread]:
        assert own in child.text
    assert (child.title, child.fingerprint) == (alone.title, alone.fingerprint)  # the evidence it gives is its own


def test_a_headline_its_parent_lists_elsewhere_stays() -> None:
    """The parent's card title and the child's headline: the same words at another place."""
    parent = ('<html><body><main><ul class="cards">' + "".join(
        f'<li class="card"><h2>{t}</h2><p>Teaser number {i} of a story worth reading today.</p></li>'
        for i, t in enumerate(["Otters return to the river after forty years away", "A second story", "A third"]))
        + '</ul><div class="box"><p>Sign up for the weekly letter about rivers and their wildlife.</p></div>'
        '</main></body></html>')
    child = ('<html><body><main><article><h1>Otters return to the river after forty years away</h1>'
             '<p>The otters came back in spring, and the villagers were the first to see them swim past.</p>'
             '<p>Biologists counted eleven animals along the lower reach, more than anyone had hoped.</p>'
             '</article><div class="box"><p>Sign up for the weekly letter about rivers and their wildlife.</p>'
             '</div></main></body></html>')
    evidence = decode(page_content(parent, "http://h/").fingerprint)
    content = page_content(child, "http://h/otters", parent=evidence)
    assert "Otters return to the river after forty years away" in content.text
    assert "Biologists counted eleven animals" in content.text
    assert "Sign up for the weekly letter" not in content.text
    assert "Sign up for the weekly letter" in page_content(child, "http://h/otters").text


def test_a_page_that_repeats_its_parent_keeps_its_text() -> None:
    """A print view or another sort order of the same list: dropping every line would leave nothing."""
    forum = Forum().build()
    html = forum.pages["/viewforum.php?f=0"]
    same = page_content(html, f"{BASE}/viewforum.php?f=0")
    again = page_content(html, f"{BASE}/viewforum.php?f=0&sk=t", parent=decode(same.fingerprint))
    assert again.text == same.text and again.template_lines == 0


def test_a_fingerprint_is_the_same_for_the_same_page_and_survives_damage() -> None:
    forum = Forum().build()
    html = forum.pages["/"]
    first, second = page_content(html, BASE + "/").fingerprint, page_content(html, BASE + "/").fingerprint
    assert first == second and first
    assert decode(first) == decode(encode(decode(first)))
    assert decode("not base64!") == frozenset() and decode(first[:-4] + "AAA=") in (frozenset(), decode(first[:-4]))
    assert fingerprint([]) == frozenset()


def test_admitted_pages_carry_their_parents_fingerprint_through_completion_order_pickling_and_replay() -> None:
    bfs = Frontier(max_depth=3, max_pages=20)
    bfs.admit_seed("http://s/")
    journal = [journal_line({"seed": "http://s/"})]

    def complete(index: int, children: list[str]) -> None:
        template = f"T{index}"
        bfs.complete(index, children, template=template)
        journal.append(journal_line(completion_record(index, bfs.admitted[index].url, children, [], None, template)))

    complete(0, ["http://s/a", "http://s/b"])
    complete(2, ["http://s/b1"])  # out of order: held until page 1 finished
    complete(1, ["http://s/a1", "http://s/b"])
    by_url = {a.url: a.parent_template for a in bfs.admitted}
    assert by_url == {"http://s/": "", "http://s/a": "T0", "http://s/b": "T0", "http://s/a1": "T1",
                      "http://s/b1": "T2"}
    assert {a.url: a.parent_template for a in pickle.loads(pickle.dumps(bfs)).admitted} == by_url
    replayed = replay(read_journal(b"".join(journal)), max_depth=3, max_pages=20)
    assert {a.url: a.parent_template for a in replayed.admitted} == by_url
    assert b'"t":' not in journal_line(completion_record(0, "http://s/", [], []))  # no evidence, no field


def test_a_document_title_the_parent_has_too_is_the_sites_and_the_page_is_titled_by_its_headline() -> None:
    """An app titled with its name on every page (nothing else names the site): the title is the site's."""
    def page(h1: str, para: str) -> str:
        return (f'<html><head><title>Riverside</title></head><body><div id="app"><main><h1>{h1}</h1><p>{para}</p>'
                '</main></div></body></html>')

    home = page_content(page("Welcome to the river pages", "Stories about the river and the people along it."),
                        "http://app.test/")
    story = page("Otters return after forty years", "The otters came back in spring and stayed all summer long.")
    assert page_content(story, "http://app.test/otters").title == "Riverside"  # alone: nothing says it is the site's
    child = page_content(story, "http://app.test/otters", parent=decode(home.fingerprint))
    assert (child.title, child.document_title) == ("Otters return after forty years", "Riverside")
    assert "Otters return after forty years" in child.text


def test_a_list_the_parent_shows_in_part_is_the_pages_own_and_one_it_shows_whole_is_the_sites() -> None:
    """A category page lists three of the posts its parent (the blog's home) lists, and one more, in the same
    markup: every one is the page's content. The "Recent posts" box is the same on both: the site's."""
    def post(n: int) -> str:
        return (f'<article class="post"><h2 class="entry-title"><a href="/p{n}">Post {n} about the river and its '
                f'birds</a></h2><p>Summary {n}: the herons came back to the reeds below the mill this spring.</p>'
                "</article>")

    recent = '<ul class="recent">' + "".join(f'<li><a href="/p{n}">Post {n} about the river</a> and a note on '
                                              f'day {n} of the count</li>' for n in range(5)) + "</ul>"

    def page(title: str, posts: range | list[int]) -> str:
        return (f"<html><head><title>{title} | River Blog</title></head><body><main><h1>{title}</h1>"
                f'<div class="posts">{"".join(post(n) for n in posts)}</div><div class="widget"><h3>Recent posts</h3>'
                f"{recent}</div></main></body></html>")

    home = page_content(page("Latest", range(6)), "http://b.test/")
    category = page_content(page("Herons", [1, 3, 5, 9]), "http://b.test/c/herons", parent=decode(home.fingerprint))
    for n in (1, 3, 5, 9):
        assert f"Summary {n}: the herons came back" in category.text, n
    assert "day 2 of the count" not in category.text and "day 2 of the count" in home.text


def test_a_sidebar_its_parent_prunes_leaves_a_short_page_that_keeps_it() -> None:
    """A long post prunes its sidebar as furniture; a short tag page of the same site keeps it (the sidebar holds
    much of that page's words), at the same place: the parent's fingerprint names its pruned furniture too."""
    side = ('<aside class="sidebar"><div class="author"><p class="name">Hester Ravenscroft</p>'
            '<div class="description">The practice log of a tower of change ringers in a market town on the fen '
            'edge</div></div></aside>')
    story = "".join(f"<p>Paragraph {i} of the long report on the striking competition, the bands, the judges and "
                    f"the tea that followed in the village hall.</p>" for i in range(12))
    parent = (f'<html><body><div class="column">{side}<div class="main-inner"><article><h1>Whittlesey</h1>{story}'
              '</article></div></div></body></html>')
    entries = "".join(f'<article><header><div class="meta"><time>{day}</time></div><div class="title"><a href="/{n}">'
                      f'{title}</a></div></header></article>' for n, (day, title) in enumerate(
                          [("02-25", "Teaching Bell Handling to New Learners"),
                           ("01-03", "Ringing in the New Year with Plain Bob Doubles")]))
    child = (f'<html><body><div class="column">{side}<div class="main-inner"><div class="title"><h1>Learners '
             f'<small>Tag</small></h1></div><div class="year"><span>2026</span></div>{entries}</div></div>'
             '</body></html>')
    evidence = decode(page_content(parent, "http://h/").fingerprint)
    alone, content = page_content(child, "http://h/tags/learners/"), page_content(
        child, "http://h/tags/learners/", parent=evidence)
    assert "The practice log of a tower" in alone.text  # the page alone keeps what it cannot tell from its own
    assert "The practice log of a tower" not in content.text
    assert content.text.split("\n") == [line for line in alone.text.split("\n") if "practice log" not in line]
    assert "Teaching Bell Handling to New Learners" in content.text


def test_the_page_of_one_of_the_parents_entries_keeps_it() -> None:
    """Roundup (the committed mirror) shows each message whole in its issue's messages table, and on the message's
    own page at the same place (`td.content pre`). On the issue the message is one item of a repeated group; on its
    page it stands alone: the page of one of the parent's entries, whose text is its own (`template.entry_key`). A
    line of the site's template (the history table's header) still leaves."""
    site = Path(__file__).parents[2] / "bara_scrapy/bench/mirrors/roundup/site/seeds"
    issue = page_content((site / "issue3").read_text(), "http://127.0.0.1:8000/seeds/issue3")
    message = page_content((site / "msg8").read_text(), "http://127.0.0.1:8000/seeds/msg8",
                           parent=decode(issue.fingerprint))
    assert "I agree that this matters for onions and parsnips" in message.text
    assert "Author | nell" in message.text


def test_a_page_all_template_but_its_own_lines_keeps_those() -> None:
    """Doxygen's index of functions (the committed mirror), under the index of all globals: trafilatura keeps the
    project's title area alone, which the parent shows at the same place, and drops the list of entries. The page's
    text is then its own lines, those of its tree the parent does not show (the entries the parent writes otherwise),
    not the template it would otherwise keep whole."""
    site = Path(__file__).parents[2] / "bara_scrapy/bench/mirrors/doxygen/site"
    parent = page_content((site / "globals.html").read_text(), "http://127.0.0.1:8000/globals.html")
    child = page_content((site / "globals_func.html").read_text(), "http://127.0.0.1:8000/globals_func.html",
                         parent=decode(parent.fingerprint))
    lines = child.text.split("\n")
    assert "hl_append() : hivelog.h, hivelog.c" in lines and "hl_close() : hivelog.h, hivelog.c" in lines, lines
    assert "A ring buffer for beehive scale readings" not in child.text and "Functions" not in lines, lines


def test_a_list_the_parent_shows_in_part_is_the_pages_own_whole() -> None:
    """Doxygen's index of functions (the committed mirror) lists eight entries; its parent, the index of all globals,
    lists six of them word for word at the same place, the other two with their files in another order. The list
    is the page's own, every entry, not the six the parent happens to write alike (`template.template_lines`)."""
    site = Path(__file__).parents[2] / "bara_scrapy/bench/mirrors/doxygen/site"
    parent = page_content((site / "globals.html").read_text(), "http://127.0.0.1:8000/globals.html")
    child = page_content((site / "globals_func.html").read_text(), "http://127.0.0.1:8000/globals_func.html",
                         parent=decode(parent.fingerprint))
    lines = child.text.split("\n")
    assert len([line for line in lines if line.startswith("hl_") and line.endswith((".c", ".h"))]) == 8, lines


def test_a_page_repeating_its_parent_keeps_its_list_not_its_tabs() -> None:
    """Doxygen's index of variables (the committed mirror) shows the same list as its parent, the index of all fields,
    at the same place: a page repeating its parent keeps its text. The tabs over it ("All", "Variables") are the
    parent's too, whole, though each page marks another tab as the current one (`template.box_key`): they never
    become the page's own lines."""
    site = Path(__file__).parents[2] / "bara_scrapy/bench/mirrors/doxygen/site"
    parent = page_content((site / "functions.html").read_text(), "http://127.0.0.1:8000/functions.html")
    child = page_content((site / "functions_vars.html").read_text(), "http://127.0.0.1:8000/functions_vars.html",
                         parent=decode(parent.fingerprint))
    lines = child.text.split("\n")
    assert "battery : hl_reading" in lines and "All" not in lines and "Variables" not in lines, lines


def test_a_post_shown_whole_on_its_index_keeps_its_author_card() -> None:
    """Docusaurus's blog index (the committed mirror) shows each post whole, author cards and all, in the markup the
    post's own page uses. Those are the posts' content, not the index's template: the index's fingerprint leaves out
    their lines and their boxes (`template.page_keys`), and the post keeps its authors' names and roles."""
    site = Path(__file__).parents[2] / "bara_scrapy/bench/mirrors/docusaurus/site"
    parent = page_content((site / "blog/index.html").read_text(), "http://127.0.0.1:8000/blog/")
    child = page_content((site / "blog/sea-kale-cold-stratification/index.html").read_text(),
                         "http://127.0.0.1:8000/blog/sea-kale-cold-stratification/", parent=decode(parent.fingerprint))
    lines = child.text.split("\n")
    assert "Marisol Quenby" in lines and "Head Librarian and keeper of the brine drawers" in lines, lines


def test_a_list_showing_some_of_the_parents_entries_is_the_pages_own() -> None:
    """Doxygen's index of macros (the committed mirror), under the index of all globals: its two entries stand in
    the parent's list at the same place, word for word, with the other fifteen. The list is a selection of the
    parent's, not its template (`template.box_key`): the page keeps it; the title area both show whole stays out."""
    site = Path(__file__).parents[2] / "bara_scrapy/bench/mirrors/doxygen/site"
    parent = page_content((site / "globals.html").read_text(), "http://127.0.0.1:8000/globals.html")
    child = page_content((site / "globals_defs.html").read_text(), "http://127.0.0.1:8000/globals_defs.html",
                         parent=decode(parent.fingerprint))
    lines = child.text.split("\n")
    assert "HL_DEFAULT_CAPACITY : hivelog_config.h" in lines and "HL_MAX_GRAMS : hivelog_config.h" in lines, lines
    assert "A ring buffer for beehive scale readings" not in child.text
