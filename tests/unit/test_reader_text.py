"""What a reader sees, in real CMS and app markups: headlines in hero containers, article headers,
captions, card titles inside links, bios, comments, FAQ answers with links, code, words kept apart.
Class names here are the misleading ones real sites use (`banner`, `hidden-xs`, `popular`)."""

from __future__ import annotations

from bara_scrapy.extraction.content import page_content

URL = "http://127.0.0.1:8000/article/otters"
NAV = ('<nav class="navbar"><a class="navbar-brand" href="/">conduit</a><ul><li><a href="/">Home</a></li>'
       '<li><a href="/login">Sign in</a></li><li><a href="/register">Sign up</a></li></ul></nav>')
FOOTER = '<footer><div class="container"><a href="/">conduit</a> An interactive learning project.</div></footer>'
BODY = " ".join(f"<p>Paragraph {i}: the otters of the northern river were counted again this spring by the "
                f"volunteers, who walked each bank at dawn and noted every holt they found.</p>" for i in range(6))


def react_article() -> str:
    comments = "".join(
        f'<div class="card"><div class="card-block"><p class="card-text">{text}</p></div>'
        f'<div class="card-footer"><a class="comment-author" href="/profile/{who}">{who}</a>'
        f'<span class="date-posted">June {n}</span></div></div>'
        for n, (who, text) in enumerate([("bramble", "Lovely write-up, the dawn counts sound magical."),
                                         ("heron", "We saw two holts near the old mill last week."),
                                         ("wren", "Is there a map of the counting stretches?")], 1))
    return (f"<html><head><title>Conduit</title></head><body><div id='root'>{NAV}"
            "<div class='article-page'><div class='banner'><div class='container'>"
            "<h1>Otters return to the northern river</h1>"
            "<div class='article-meta'><a href='/profile/ann'>ann</a><span class='date'>June 1</span></div>"
            f"</div></div><div class='container page'><div class='row article-content'><div>{BODY}</div></div>"
            f"<div class='row'><div class='col-xs-12 comments'>{comments}</div></div></div></div>{FOOTER}</div>"
            "</body></html>")


def test_hero_headline_title_and_comments() -> None:
    content = page_content(react_article(), URL)
    assert content.title == "Otters return to the northern river"
    assert content.document_title == "Conduit"
    assert content.text.startswith("Otters return to the northern river")
    assert [(c.author, c.text) for c in content.comments] == [
        ("bramble", "Lovely write-up, the dawn counts sound magical.\nJune 1"),
        ("heron", "We saw two holts near the old mill last week.\nJune 2"),
        ("wren", "Is there a map of the counting stretches?\nJune 3"),
    ]
    assert "Lovely write-up" in content.text and "old mill" in content.text
    assert "Lovely write-up" not in content.article_text()
    assert "Sign up" not in content.text and "interactive learning project" not in content.text
    assert "brambleJune" not in content.text


def test_wordpress_article_header_and_captions() -> None:
    html = (f"<html><head><title>Otters return | River News</title></head><body>{NAV}<main id='primary'>"
            "<article class='post'><header class='entry-header'><h1 class='entry-title'>Otters return</h1>"
            "<p class='standfirst'>After thirty years away, the animals are breeding on every bank again.</p>"
            "</header><div class='entry-content'>"
            "<figure><img src='/o.jpg'><figcaption>A young otter on the mill weir at first light.</figcaption>"
            f"</figure>{BODY}</div></article></main>{FOOTER}</body></html>")
    text = page_content(html, URL).text
    for wanted in ("Otters return", "every bank again", "mill weir at first light", "Paragraph 5"):
        assert wanted in text


def test_card_titles_inside_links_and_hidden_named_content() -> None:
    cards = "".join(f'<div class="preview popular"><a href="/article/{n}" class="preview-link">'
                    f'<h1>Story number {n} about the river</h1><p>A summary of story {n} and its people.</p>'
                    f'<span>Read more...</span></a></div>' for n in range(8))
    html = (f"<html><head><title>Conduit</title></head><body>{NAV}<div class='home-page'>"
            "<div class='banner hidden-xs'><h1>conduit</h1><p>A place to share your knowledge.</p></div>"
            f"<div class='container'>{cards}</div></div>{FOOTER}</body></html>")
    text = page_content(html, "http://127.0.0.1:8000/").text
    for n in range(8):
        assert f"Story number {n} about the river" in text
        assert f"A summary of story {n}" in text
    # not yet: the home page's hero line beside a card grid ("A place to share your knowledge.")


def test_code_in_sentences() -> None:
    html = (f"<html><head><title>Conduit</title></head><body>{NAV}<div class='profile-page'>"
            "<div class='user-info'><div class='container'><h4>ann</h4>"
            "<p>Naturalist and volunteer counter of river otters since 2001.</p></div></div>"
            f"<div class='container'><p>The alias <code>Schema</code> was chosen because it reads well.</p>{BODY}"
            f"<pre><code>count = 12\nholts = 4</code></pre></div></div>{FOOTER}</body></html>")
    content = page_content(html, URL)
    # not yet: a profile's bio before the kept text (`div.user-info p`) is still left out
    assert "The alias Schema was chosen because it reads well." in content.text
    assert "The alias `Schema` was chosen" in content.markdown
    assert "```\ncount = 12\nholts = 4\n```" in content.markdown


def test_faq_answer_with_a_link_is_kept() -> None:
    faq = "".join(f"<details><summary>Question {n}: how do I join the count?</summary>"
                  f"<p>Answer {n}: write to the <a href='/club'>river club</a> before the first of March.</p>"
                  "</details>" for n in range(4))
    html = f"<html><head><title>FAQ</title></head><body>{NAV}<main><h1>FAQ</h1>{faq}</main>{FOOTER}</body></html>"
    text = page_content(html, URL).text
    for n in range(4):
        assert f"Question {n}: how do I join the count?" in text
        assert f"Answer {n}: write to the river club before the first of March." in text
