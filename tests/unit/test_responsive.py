"""The source a browser loads for a responsive image, read from markup (the HTTP path's `currentSrc`)."""

from __future__ import annotations

import pytest

from bara_scrapy.extraction.responsive import current_src
from bara_scrapy.extraction.static import snapshot_from_html

BASE = "https://www.example.org/blog/"


@pytest.mark.parametrize(("img", "sources", "chosen"), [
    ({"src": "a.jpg"}, [], "a.jpg"),
    # width descriptors against the slot `sizes` gives at 1280 px, device scale 1
    ({"src": "a.jpg", "srcset": "a-480.jpg 480w, a-960.jpg 960w, a-1440.jpg 1440w",
      "sizes": "(max-width: 600px) 480px, 960px"}, [], "a-960.jpg"),
    ({"src": "a.jpg", "srcset": "a-300.jpg 300w, a-1024.jpg 1024w, a-2048.jpg 2048w"}, [], "a-1024.jpg"),  # 100vw
    ({"src": "a.jpg", "srcset": "a-300.jpg 300w, a-768.jpg 768w", "sizes": "50vw"}, [], "a-768.jpg"),
    # WordPress: sizes "(max-width: 1024px) 100vw, 1024px"
    ({"src": "h.jpg", "srcset": "h-300x200.jpg 300w, h-768x512.jpg 768w, h.jpg 1024w",
      "sizes": "(max-width: 1024px) 100vw, 1024px"}, [], "h.jpg"),
    # density descriptors: the src is the 1x candidate
    ({"src": "a.jpg", "srcset": "a@2x.jpg 2x"}, [], "a.jpg"),
    # <picture>: the first source whose type Chromium decodes and whose media matches
    ({"src": "a.jpg"}, [{"srcset": "a.avif", "type": "image/avif"}, {"srcset": "a.webp", "type": "image/webp"}],
     "a.avif"),
    ({"src": "a.jpg"}, [{"srcset": "a.jxl", "type": "image/jxl"}, {"srcset": "a.webp", "type": "image/webp"}],
     "a.webp"),
    ({"src": "a.jpg"}, [{"srcset": "small.jpg", "media": "(max-width: 600px)"}, {"srcset": "big.jpg"}], "big.jpg"),
    # what cannot be evaluated is not guessed
    ({"src": "a.jpg", "srcset": "a-1.jpg 400w, a-2.jpg 800w", "sizes": "calc(100vw - 2rem)"}, [], None),
    ({"src": "a.jpg"}, [{"srcset": "p.jpg", "media": "(orientation: portrait)"}], None),
    ({"src": "data:image/gif;base64,R0"}, [], None),
])
def test_current_src(img: dict[str, str], sources: list[dict[str, str]], chosen: str | None) -> None:
    assert current_src(img, sources, BASE) == (BASE + chosen if chosen else None)


def test_the_http_snapshot_reads_picture_sources_and_the_chosen_one() -> None:
    html = ('<html><body><picture><source type="image/webp" srcset="/i/a.webp"><img src="/i/a.jpg" alt="A">'
            "</picture></body></html>")
    snap = snapshot_from_html(BASE, BASE, 200, html)
    found = [(c.found_in, c.url) for c in snap.candidates]
    assert found == [("img@src", "https://www.example.org/i/a.jpg"),
                     ("img@currentSrc", "https://www.example.org/i/a.webp"),
                     ("picture>source@srcset", "https://www.example.org/i/a.webp")]
    assert len({c.group for c in snap.candidates}) == 1
