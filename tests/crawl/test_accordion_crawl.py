"""An FAQ a script writes as an accordion, crawled in the browser: the rendered DOM holds every answer, hidden until
its question's button opens it (`aria-controls`, `aria-expanded`; GOV.UK's script uses `hidden="until-found"`), and
the item's text holds each question and its answer (`text.open_panels`). Before, the text was the page's title and
intro alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from bara_scrapy.bench.server import Site, SiteServer

from ..crawl_utils import run_crawl

pytestmark = pytest.mark.browser

QUESTIONS = [f"Can I defer my place to the year {2027 + n}?" for n in range(4)]
ANSWERS = [f"Yes: write to admissions before the first of June {2027 + n}, giving the reason in a line or two."
           for n in range(4)]
# the script writes each question as a button over its answer's panel, hidden as `HIDE` says
WRITE = ("document.querySelector('.faq').innerHTML = ITEMS.map(([q, a], n) => '<h3><button aria-expanded=\"false\" '"
         " + 'aria-controls=\"a' + n + '\">' + q + '</button></h3><div id=\"a' + n + '\" HIDE><p>' + a + '</p></div>')"
         ".join('');")


def page(hide: str) -> str:
    items = [[q, a] for q, a in zip(QUESTIONS, ANSWERS, strict=True)]
    script = f"const ITEMS = {items!r};" + WRITE.replace("HIDE", hide.replace('"', '\\"'))
    return (f"<html><head><title>Admissions FAQ</title></head><body><header><nav><a href='/'>Home</a></nav>"
            f"</header><main><h1>Admissions: frequently asked questions</h1><p>What applicants ask us most, answered "
            f"by the admissions office.</p><div class='faq'></div></main><script>{script}</script></body></html>")


@pytest.mark.parametrize("hide", ["hidden", 'hidden="until-found"', 'style="display: none"'])
def test_the_answers_of_a_scripts_accordion_are_the_pages_text(tmp_path: Path, hide: str) -> None:
    site = Site()
    site.add("/faq", page(hide))
    with SiteServer(site) as server:
        items = list(run_crawl(server.url("/faq"), tmp_path=tmp_path, args={"max_pages": 1},
                               settings={"BARA_RENDER": "always"}))
    assert len(items) == 1 and items[0]["render"]["path"] == "browser", items
    lines = items[0]["text"].split("\n")
    for question, answer in zip(QUESTIONS, ANSWERS, strict=True):
        assert question in lines and answer in lines, lines
