"""The bundled demo site: "Northbound Notes", a small slow-travel blog.

Eleven crawlable pages (depth 0-3) exercising what bara must handle on real
sites: prose in <main>/<article> between nav and footer boilerplate, eager
images, `loading=lazy` images far down a page, IntersectionObserver `data-src`
images (a placeholder `src` swapped on scroll), <picture>/srcset, a CSS
background, a <video> with <source>s and a poster, a same-site <iframe>
player, a link that only a script inserts, an off-site link, login and cart
links, a mailto, a 404 image and a robots.txt-disallowed link. Every page and
every media file is served by the same `Site`, with real bytes.

The upper-case constants are the site's ground truth (paths relative to the
server's base URL); the tests and the demo summary read them.
"""

from __future__ import annotations

import io
import random
import re
from functools import lru_cache

from PIL import Image, ImageDraw

from ..bench.media import VIDEO_TYPES, image_bytes, mp4_bytes, webm_bytes
from ..bench.server import Site

# path -> (bfs_index, depth, parent path) in the sequential BFS reference (D=3, W=20)
EXPECTED_PAGES: dict[str, tuple[int, int, str | None]] = {
    "/": (0, 0, None),
    "/destinations/": (1, 1, "/"),
    "/journal/": (2, 1, "/"),
    "/gear/": (3, 1, "/"),
    "/about/": (4, 1, "/"),
    "/journal/lofoten-in-winter/": (5, 1, "/"),
    "/destinations/lofoten/": (6, 2, "/destinations/"),
    "/destinations/kyoto/": (7, 2, "/destinations/"),
    "/journal/night-train-to-kyoto/": (8, 2, "/journal/"),
    "/about/press/": (9, 2, "/about/"),
    "/journal/night-train-to-kyoto/photos/": (10, 3, "/journal/night-train-to-kyoto/"),
}
SCRIPT_ONLY_PAGE = "/about/press/"  # only a script on /about/ links it
ROBOTS_DISALLOWED = "/drafts/ferry-to-shetland/"
TOO_DEEP = "/journal/night-train-to-kyoto/photos/page-2/"  # depth 4
# served and linked, never to be admitted
NEVER_CRAWLED = ("/login/", "/cart/", ROBOTS_DISALLOWED, TOO_DEEP)
OFFSITE_LINK = "http://example.com/partners/interrail-pass"
MAILTO = "mailto:hello@northbound-notes.example"
BROKEN_IMAGE = "/media/kyoto-lanterns-at-night.jpg"  # on /destinations/kyoto/; answers 404
LOGO = "/media/northbound-logo.jpg"  # in the masthead of every page: site furniture
PLACEHOLDER = "/media/placeholder.gif"  # the src of every data-src image before it loads
CSS_BACKGROUND = ("/", "/media/hero-fjord-dawn.jpg")
LOADING_LAZY: dict[str, tuple[str, ...]] = {  # `loading=lazy`, far below the fold
    "/gear/": ("/media/gear-stove.jpg", "/media/gear-dry-bags.jpg"),
    "/journal/night-train-to-kyoto/": ("/media/night-train-berth.jpg", "/media/night-train-dawn-fuji.jpg"),
}
DATA_SRC: dict[str, tuple[str, ...]] = {  # IntersectionObserver swaps `data-src` in
    "/destinations/lofoten/": ("/media/lofoten-rorbu.jpg", "/media/lofoten-stockfish.jpg"),
    "/destinations/kyoto/": ("/media/kyoto-kiyomizu.jpg", "/media/kyoto-fushimi-gates.jpg"),
    "/journal/night-train-to-kyoto/photos/": (
        "/media/photos-arashiyama.jpg", "/media/photos-nishiki.jpg", "/media/photos-gion-evening.jpg",
    ),
}
PICTURE = ("/destinations/", (
    "/media/lofoten-harbour-800.webp", "/media/lofoten-harbour-1600.webp",
    "/media/lofoten-harbour-800.jpg", "/media/lofoten-harbour-1600.jpg",
))
VIDEO = ("/journal/lofoten-in-winter/", ("/media/aurora-over-reine.mp4", "/media/aurora-over-reine.webm"),
         "/media/aurora-poster.jpg")
EMBED = ("/destinations/lofoten/", "/embed/route-map/lofoten")
# a sentence of each page's main text, and the footer boilerplate it should not carry
KEY_SENTENCES = {
    "/": "Nothing here was written from a departure lounge.",
    "/destinations/": "Two places we keep going back to, and how to reach them without flying.",
    "/journal/": "Long-form stories from the road, newest first.",
    "/gear/": "Everything fits in one 38-litre pack that goes under a couchette bunk.",
    "/about/": "I started writing these notes on a delayed ferry out of Bodø in 2016.",
    "/journal/lofoten-in-winter/": "The aurora came at two in the morning, when the harbour had gone quiet.",
    "/destinations/lofoten/": "The islands hang off the Norwegian coast like a broken spine of granite.",
    "/destinations/kyoto/": "Kyoto rewards the traveller who gets up before the tour buses do.",
    "/journal/night-train-to-kyoto/": "The Sunrise Express leaves Tokyo a few minutes before ten at night.",
    "/about/press/": "Journalists may use the photographs below with a credit to Northbound Notes.",
    "/journal/night-train-to-kyoto/photos/": "A handful of frames from three slow days in Kyoto.",
}
FOOTER_BOILERPLATE = "All photographs may not be reused without permission."

ROBOTS_TXT = "User-agent: *\nDisallow: /drafts/\n"

_NAV = (
    '<a href="/">Home</a><a href="/destinations/">Destinations</a><a href="/journal/">Journal</a>'
    '<a href="/gear/">Gear</a><a href="/about/">About</a>'
)
_FOOTER = f"""<p>Northbound Notes is written and photographed by Ingrid Halvorsen. Slow travel by rail and sea
since 2016.</p>
<p><a href="/about/">About</a> · <a href="{MAILTO}">Contact</a> · <a href="/login/?next=/journal/">Sign in</a> ·
<a href="/cart/">Print shop basket</a> · <a href="{OFFSITE_LINK}">Our rail pass partner</a></p>
<p class="legal">© 2024 Northbound Notes. {FOOTER_BOILERPLATE}</p>"""


def _page(title: str, main: str, head: str = "", scripts: str = "") -> str:
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} · Northbound Notes</title>
<link rel="stylesheet" href="/assets/site.css">
<link rel="icon" href="/favicon.ico">
{head}
</head>
<body>
<header class="masthead"><a class="brand" href="/"><img src="{LOGO}" alt="" width="40" height="25"> Northbound Notes</a>
<nav aria-label="Main">{_NAV}</nav></header>
<main>
{main}
</main>
<footer class="site-footer">
{_FOOTER}
</footer>
<script src="/assets/site.js" defer></script>
{scripts}
</body>
</html>
"""


def _og(image: str) -> str:
    return f'<meta property="og:image" content="{image}">\n<meta property="og:type" content="article">'


def _lazy(name: str, alt: str, caption: str) -> str:
    return (f'<figure><img class="lazy" src="{PLACEHOLDER}" data-src="/media/{name}" alt="{alt}" width="800" '
            f'height="500"><figcaption>{caption}</figcaption></figure>')


HOME = f"""<section class="hero" aria-label="Dawn over a Norwegian fjord">
<div class="hero-text"><h1>Slow travel, by rail and by sea</h1>
<p>Field notes from night trains, coastal ferries and the small harbours in between.</p></div>
</section>
<article class="intro">
<h2>Welcome aboard</h2>
<p>Northbound Notes is a journal about getting somewhere slowly. For eight years we have crossed Europe and
Asia on sleeper trains, cargo-ferry cabins and the occasional rattling regional bus, and written down what the
timetables do not tell you: which carriage is quietest, where the dining car still cooks from scratch, and
which harbour town is worth missing a connection for. {KEY_SENTENCES["/"]}</p>
<figure class="portrait"><img src="/media/ingrid-portrait.jpg" alt="Ingrid on the deck of a coastal ferry"
width="800" height="500"><figcaption>On the coastal ferry deck, somewhere past Bodø.</figcaption></figure>
<p>Every route on this site has been travelled at least twice, in different seasons, and every practical
detail was checked again before publication. When prices or timetables change we update the article and say
so at the top, because an out-of-date connection is worse than no advice at all.</p>
<h2>Latest from the journal</h2>
<p><a href="/journal/lofoten-in-winter/">Lofoten in winter: chasing the light north of the Arctic Circle</a>:
three weeks in a fisherman's cabin, a week of storms, and one night of aurora that made it all worth it.</p>
<p>Browse every story in the <a href="/journal/?utm_source=newsletter&amp;utm_medium=email#latest">journal
archive</a>.</p>
<p class="teaser">Coming soon: <a href="{ROBOTS_DISALLOWED}">the overnight ferry to Shetland</a>, still a
draft.</p>
</article>"""

DESTINATIONS = f"""<article>
<h1>Destinations</h1>
<p>{KEY_SENTENCES["/destinations/"]} Each guide covers the overland route in, where to sleep near the
station or the pier, and the season we would pick if we could only go once.</p>
<div class="cards">
<section class="card">
<picture>
<source type="image/webp" srcset="/media/lofoten-harbour-800.webp 800w, /media/lofoten-harbour-1600.webp 1600w"
sizes="(max-width: 740px) 100vw, 740px">
<img src="/media/lofoten-harbour-800.jpg" srcset="/media/lofoten-harbour-800.jpg 800w,
/media/lofoten-harbour-1600.jpg 1600w" sizes="(max-width: 740px) 100vw, 740px"
alt="Red fishing cabins along Reine harbour" width="800" height="500">
</picture>
<h2><a href="/destinations/lofoten/">Lofoten, Norway</a></h2>
<p>Granite peaks straight out of the sea, cod-drying racks and red cabins on stilts. Reached by the night
train to Bodø and a three-hour ferry to Moskenes.</p>
</section>
<section class="card">
<img src="/media/kyoto-card.jpg" alt="Wooden machiya houses on a quiet Kyoto lane" width="800" height="500">
<h2><a href="/destinations/kyoto/">Kyoto, Japan</a></h2>
<p>Temples before breakfast, markets at noon and lantern-lit lanes after dark. We arrive by sleeper from
Tokyo and leave on the slowest local train we can find.</p>
</section>
</div>
</article>"""

JOURNAL = f"""<article>
<h1 id="latest">Journal</h1>
<p>{KEY_SENTENCES["/journal/"]} Every story is written on the road and edited at home, with the practical
notes gathered at the end.</p>
<ul class="posts">
<li><img src="/media/night-train-thumb.jpg" alt="A sleeper compartment at night" width="800" height="500">
<div><h2><a href="/journal/night-train-to-kyoto/">Overnight on the Sunrise Express</a></h2>
<p class="meta">March 2024 · 9 minute read</p>
<p>A single-berth cabin, a bento from Tokyo Station and a dawn arrival in Himeji, then back east to Kyoto.</p>
</div></li>
<li><img src="/media/lofoten-thumb.jpg" alt="Snow on the peaks above Reine" width="800" height="500">
<div><h2><a href="/journal/lofoten-in-winter/">Lofoten in winter</a></h2>
<p class="meta">February 2024 · 7 minute read</p>
<p>Storm days, stockfish and the aurora over Reine.</p></div></li>
<li><img src="/media/shetland-thumb.jpg" alt="A ferry leaving Aberdeen harbour" width="800" height="500">
<div><h2><a href="{ROBOTS_DISALLOWED}">The overnight ferry to Shetland (draft)</a></h2>
<p class="meta">Coming soon</p><p>Fourteen hours across the North Sea in a reclining seat.</p></div></li>
</ul>
</article>"""

_PACKING_ROWS = "".join(
    f"<tr><td>{item}</td><td>{grams}</td><td>{why}</td></tr>"
    for item, grams, why in (
        ("38-litre travel pack", 1150, "fits under a couchette bunk and in ferry lockers"),
        ("Silk sleeping-bag liner", 130, "for hostel sheets and night-train blankets"),
        ("Merino base layers (2)", 380, "worn for days, they do not smell"),
        ("Down jacket", 340, "packs into its own pocket, doubles as a pillow"),
        ("Rain shell", 290, "Lofoten rain comes sideways"),
        ("Gas stove and pot", 410, "tea on every ferry deck"),
        ("Two dry bags", 90, "one for electronics, one for wet clothes"),
        ("Headtorch", 60, "for the top bunk and polar nights"),
        ("Earplugs and eye mask", 20, "the cheapest upgrade on any sleeper"),
        ("Paper timetable printouts", 40, "no signal in the mountains"),
        ("Universal sink plug", 15, "laundry in any washbasin"),
        ("Small first-aid kit", 150, "blisters, mostly"),
        ("Travel kettle cord adaptor", 70, "for Japanese and Norwegian sockets"),
        ("Compact binoculars", 280, "sea eagles from the ferry"),
        ("Notebook and pencil", 120, "these notes start there"),
    )
)

GEAR = f"""<article>
<h1>What we pack</h1>
<p>{KEY_SENTENCES["/gear/"]} Packing light is not a virtue on its own: it is what lets you change plans at a
platform without dragging a suitcase the length of a train.</p>
<h2>Sleeping on trains</h2>
<p>Sleeper cabins are warm, but couchettes can be cold near the window and stuffy near the corridor. A silk
liner and a light down jacket cover both cases, and the jacket makes a better pillow than the one the
attendant hands out. Earplugs matter more than anything else on this list.</p>
<h2>Cooking on the move</h2>
<p>Ferries have hot water and dining cars close early. A small gas stove, used only where it is allowed, means
tea on a windy deck and porridge on a station bench at six in the morning. Buy the gas cartridge on arrival:
you cannot carry it on most trains in a checked bag, and never on a plane.</p>
<h2>Keeping dry</h2>
<p>Rain in the north rarely falls straight down. A shell with a proper hood and two roll-top dry bags keep the
camera, passport and a spare layer dry through a day of squalls on the Lofoten coast.</p>
<h2>The full list</h2>
<table><thead><tr><th>Item</th><th>Grams</th><th>Why</th></tr></thead><tbody>{_PACKING_ROWS}</tbody></table>
<p>The total comes to just under seven kilograms before food and water, which is light enough to carry up the
stairs of any station without looking for the lift.</p>
<h2>In the bag</h2>
<figure><img src="/media/gear-stove.jpg" loading="lazy" alt="A small gas stove boiling water on a ferry deck"
width="800" height="500"><figcaption>Tea at sea: the stove on the Bodø ferry.</figcaption></figure>
<figure><img src="/media/gear-dry-bags.jpg" loading="lazy" alt="Two roll-top dry bags on a wooden bench"
width="800" height="500"><figcaption>Two dry bags, one for electronics and one for wet socks.</figcaption>
</figure>
</article>"""

ABOUT = f"""<article>
<h1>About Northbound Notes</h1>
<p>{KEY_SENTENCES["/about/"]} The ferry was four hours late, the café had run out of everything but waffles,
and a retired fisherman spent the wait explaining how to read the weather from the colour of the sea.</p>
<figure><img src="/media/ingrid-on-the-platform.jpg" alt="Ingrid waiting on a snowy station platform"
width="800" height="500"><figcaption>Waiting for the last train to Narvik.</figcaption></figure>
<p>Since then the notes have grown into a small independent site. There are no sponsored posts and no
affiliate links to hotels; the print shop and a rail-pass partnership pay for the hosting and the tickets.</p>
<p id="press-slot">Writing about slow travel? </p>
</article>"""

ABOUT_SCRIPT = """<script>
document.addEventListener("DOMContentLoaded", function () {
  var link = document.createElement("a");
  link.href = "/about/" + "press/";
  link.textContent = "Download the press kit";
  document.getElementById("press-slot").appendChild(link);
});
</script>"""

LOFOTEN_WINTER = f"""<article>
<h1>Lofoten in winter</h1>
<p class="meta">February 2024 · 7 minute read</p>
<p>We arrived in Moskenes on the afternoon ferry from Bodø, in the blue hour that passes for daylight in early
February. The cabin we had rented in Reine was a converted rorbu, a fisherman's hut on stilts over the water,
and the sea knocked against the floor all night.</p>
<p>The first week was storms: horizontal snow, closed roads and a ferry cancelled three days running. We read,
cooked stockfish stew with the owner's recipe and walked to the shop between squalls. The second week the wind
dropped and the peaks appeared one morning as if someone had pulled away a curtain.</p>
<figure class="video">
<video controls preload="metadata" poster="{VIDEO[2]}" width="800" height="450">
<source src="{VIDEO[1][0]}" type="video/mp4">
<source src="{VIDEO[1][1]}" type="video/webm">
Your browser cannot play this video.
</video>
<figcaption>Aurora over Reine: a forty-second time-lapse from the cabin porch.</figcaption>
</figure>
<p>{KEY_SENTENCES["/journal/lofoten-in-winter/"]} It started as a pale arc over Olstinden, grew green and
restless, and for ten minutes filled the whole sky with moving curtains. We stood on the porch in socks and
forgot the cold entirely.</p>
<h2>Practical notes</h2>
<p>The night train from Trondheim reaches Bodø in the morning; the ferry to Moskenes leaves twice a day in
winter and is cancelled in strong westerlies, so leave a spare day. Read our <a
href="/destinations/lofoten/">Lofoten guide</a> for where to stay.</p>
</article>"""

LOFOTEN = f"""<article>
<h1>Lofoten, Norway</h1>
<p>{KEY_SENTENCES["/destinations/lofoten/"]} The villages sit on narrow strips of land between the peaks and
the sea, joined by bridges and a single road that ends, quite literally, at a place called Å.</p>
<h2>Where to stay</h2>
<p>Book a rorbu: the red and ochre fishing cabins were built for seasonal cod fishermen and now house
travellers. The best ones still stand over the water, and in winter they are cheap.</p>
{_lazy("lofoten-rorbu.jpg", "Red rorbu cabins on stilts in Hamnøy", "Rorbuer in Hamnøy, late afternoon.")}
<h2>What to eat</h2>
<p>Stockfish is cod dried on wooden racks from February to May; the smell is part of the landscape. Try it as
bacalao stew, and look for fresh skrei in the harbour restaurants during the winter season.</p>
{_lazy("lofoten-stockfish.jpg", "Cod drying on wooden racks", "Cod drying on the hjell racks at Reine.")}
<h2>Getting there</h2>
<p>Take the night train to Bodø and the ferry to Moskenes, or the coastal ferry to Stamsund and Svolvær.
The route map below shows both.</p>
<iframe src="{EMBED[1]}" title="Route map: Bodø to Lofoten" width="800" height="360" loading="lazy"></iframe>
</article>"""

KYOTO = f"""<article>
<h1>Kyoto, Japan</h1>
<p>{KEY_SENTENCES["/destinations/kyoto/"]} At six in the morning the stone lanes of Higashiyama belong to
shopkeepers sweeping their doorsteps and the odd monk on a bicycle.</p>
<figure><img src="{BROKEN_IMAGE}" alt="Paper lanterns on a lane in Gion at night" width="800" height="500">
<figcaption>Lanterns in Gion after dark.</figcaption></figure>
<h2>Temples before breakfast</h2>
<p>Kiyomizu-dera opens at six. Walk up through the empty lanes of Sannenzaka and you will have the wooden
stage almost to yourself, with the city still in haze below.</p>
{_lazy("kyoto-kiyomizu.jpg", "The wooden stage of Kiyomizu-dera at dawn", "Kiyomizu-dera, just after six.")}
<h2>The thousand gates</h2>
<p>Fushimi Inari is open all night. The lower gates are crowded by nine; climb past the halfway viewpoint and
the vermilion tunnel empties out.</p>
{_lazy("kyoto-fushimi-gates.jpg", "Vermilion torii gates at Fushimi Inari", "The torii tunnel above the viewpoint.")}
<h2>Getting there</h2>
<p>Our favourite arrival is the overnight train: read <a href="/journal/night-train-to-kyoto/">Overnight on the
Sunrise Express</a>.</p>
</article>"""

NIGHT_TRAIN = f"""<article>
<h1>Overnight on the Sunrise Express</h1>
<p class="meta">March 2024 · 9 minute read</p>
<p>{KEY_SENTENCES["/journal/night-train-to-kyoto/"]} It is the last scheduled sleeper in Japan, and the
single cabins sell out within minutes of opening a month ahead, so we set an alarm for ten in the morning
exactly a month before departure and still only just got two.</p>
<p>We bought bento boxes at Tokyo Station: grilled salmon, pickles, a square of tamagoyaki. The cabin was
narrow and spotless, with a window that reached up over the bed so you could lie and watch the suburbs thin
out into dark fields and lit level crossings.</p>
<p>Sleep came in pieces. The train slows for long stretches in the night, to arrive on time rather than
early, and each stop and start rocked us half awake. Somewhere after three the carriage went completely
still, and we slept through until the attendant's chime.</p>
<p>Himeji at a quarter past five was blue and silent. We left the train, watched it slide away west towards
Okayama and walked out to see the castle, white against the brightening sky, before a bullet train carried
us back east to Kyoto in under an hour.</p>
<h2>Practical notes</h2>
<p>Tickets go on sale at ten in the morning one month before travel, at JR ticket offices and some online
agents. The single cabins are the best value; the open carpet berths are cheaper and surprisingly
comfortable. Shower cards sell out early, so buy one as soon as you board.</p>
<p>There is no dining car: bring food and water. Earplugs help, and a light jacket for the cool hours before
dawn. Our <a href="/destinations/kyoto/">Kyoto guide</a> picks up from the arrival.</p>
<h2>On board</h2>
<figure><img src="/media/night-train-berth.jpg" loading="lazy" alt="A single berth with a large window"
width="800" height="500"><figcaption>The single cabin: bed, window, reading light.</figcaption></figure>
<figure><img src="/media/night-train-dawn-fuji.jpg" loading="lazy" alt="First light over the fields"
width="800" height="500"><figcaption>First light from the berth window.</figcaption></figure>
<p>More pictures from the trip are in the <a href="/journal/night-train-to-kyoto/photos/">photo gallery</a>.</p>
</article>"""

PRESS = f"""<article>
<h1>Press kit</h1>
<p>{KEY_SENTENCES["/about/press/"]} Print-resolution files are available on request; please do not crop the
images in a way that changes their meaning.</p>
<p>Northbound Notes has been featured in rail-travel magazines in Norway, Germany and Japan, and its winter
Lofoten guide is among the most-read pages on the site. Ingrid is available for interviews in English and
Norwegian.</p>
<figure><img src="/media/press-harbour-1600.jpg" alt="Reine harbour under snow" width="1600" height="1000">
<figcaption>Reine harbour under snow (1600 × 1000).</figcaption></figure>
</article>"""

PHOTOS = f"""<article>
<h1>Kyoto photographs</h1>
<p>{KEY_SENTENCES["/journal/night-train-to-kyoto/photos/"]} They follow the route of the <a
href="/journal/night-train-to-kyoto/">Sunrise Express story</a>.</p>
<div class="gallery">
{_lazy("photos-arashiyama.jpg", "Bamboo grove at Arashiyama", "Arashiyama bamboo, before the crowds.")}
{_lazy("photos-nishiki.jpg", "Stalls in Nishiki market", "Pickles and skewers in Nishiki market.")}
{_lazy("photos-gion-evening.jpg", "A lane in Gion at dusk", "Gion at dusk.")}
</div>
<p><a href="{TOO_DEEP}">Older photos</a></p>
</article>"""

PAGES: dict[str, str] = {
    "/": _page("Slow travel by rail and sea", HOME),
    "/destinations/": _page("Destinations", DESTINATIONS),
    "/journal/": _page("Journal", JOURNAL),
    "/gear/": _page("What we pack", GEAR),
    "/about/": _page("About", ABOUT, scripts=ABOUT_SCRIPT),
    "/journal/lofoten-in-winter/": _page("Lofoten in winter", LOFOTEN_WINTER, _og(VIDEO[2])),
    "/destinations/lofoten/": _page("Lofoten, Norway", LOFOTEN),
    "/destinations/kyoto/": _page("Kyoto, Japan", KYOTO),
    "/journal/night-train-to-kyoto/": _page(
        "Overnight on the Sunrise Express", NIGHT_TRAIN, _og("/media/night-train-thumb.jpg")
    ),
    "/about/press/": _page("Press kit", PRESS),
    "/journal/night-train-to-kyoto/photos/": _page("Kyoto photographs", PHOTOS),
}
UNCRAWLED_PAGES: dict[str, str] = {
    "/login/": _page("Sign in", '<h1>Sign in</h1><form method="post"><input name="email"></form>'),
    "/cart/": _page("Basket", "<h1>Your basket is empty</h1>"),
    ROBOTS_DISALLOWED: _page("Draft: the ferry to Shetland", "<article><h1>Draft</h1><p>Not yet.</p></article>"),
    TOO_DEEP: _page("Older photos", "<article><h1>Older photos</h1><p>Page two.</p></article>"),
}

CSS = """:root { --ink: #1f2a33; --muted: #5b6770; --accent: #b5472d; --paper: #fbf8f3; --rule: #e4ddd2; }
* { box-sizing: border-box; }
body { margin: 0; font: 18px/1.65 Georgia, "Iowan Old Style", serif; color: var(--ink); background: var(--paper); }
a { color: var(--accent); }
.masthead { display: flex; justify-content: space-between; align-items: baseline; flex-wrap: wrap; gap: 1rem;
  padding: 1.1rem 2rem; border-bottom: 1px solid var(--rule); font-family: system-ui, sans-serif; }
.brand { font-weight: 700; font-size: 1.3rem; color: var(--ink); text-decoration: none; }
.masthead nav a { margin-left: 1.2rem; color: var(--muted); text-decoration: none; font-size: .95rem; }
main { max-width: 46rem; margin: 0 auto; padding: 2rem 1.25rem 4rem; }
h1, h2, h3 { font-family: system-ui, sans-serif; line-height: 1.2; }
h1 { font-size: 2.3rem; margin: .5rem 0 1rem; }
img, video, iframe { max-width: 100%; height: auto; display: block; border: 0; border-radius: 6px; }
iframe { width: 100%; height: 360px; }
figure { margin: 2rem 0; }
figcaption, .meta { font: .85rem/1.4 system-ui, sans-serif; color: var(--muted); margin-top: .5rem; }
.hero { background-image: url("/media/hero-fjord-dawn.jpg"); background-size: cover; background-position: center;
  min-height: 420px; border-radius: 10px; display: flex; align-items: flex-end; margin: 0 0 2rem; }
.hero-text { padding: 2rem; color: #fff; text-shadow: 0 1px 12px rgba(0, 0, 0, .6); }
.hero-text h1 { font-size: 2.6rem; margin: 0 0 .5rem; }
.cards { display: grid; gap: 2.5rem; }
.posts { list-style: none; padding: 0; }
.posts li { display: grid; grid-template-columns: 200px 1fr; gap: 1.2rem; padding: 1.2rem 0;
  border-bottom: 1px solid var(--rule); }
.posts h2 { margin: 0 0 .3rem; font-size: 1.25rem; }
table { width: 100%; border-collapse: collapse; font-size: .95rem; }
td, th { text-align: left; padding: .45rem .5rem; border-bottom: 1px solid var(--rule); }
img.lazy { background: #e9e3d8; aspect-ratio: 8 / 5; width: 100%; }
.gallery { display: grid; gap: 1.5rem; }
.teaser { background: #f1ebe0; padding: .8rem 1rem; border-radius: 6px; }
.site-footer { border-top: 1px solid var(--rule); padding: 2rem; text-align: center;
  font: .9rem/1.6 system-ui, sans-serif; color: var(--muted); }
"""

JS = """// Lazy images: swap data-src in when an image comes near the viewport.
(function () {
  var images = document.querySelectorAll("img.lazy[data-src]");
  function load(img) { img.src = img.getAttribute("data-src"); img.classList.add("is-loaded"); }
  if (!("IntersectionObserver" in window)) { images.forEach(load); return; }
  var observer = new IntersectionObserver(function (entries) {
    entries.forEach(function (entry) {
      if (entry.isIntersecting) { load(entry.target); observer.unobserve(entry.target); }
    });
  }, { rootMargin: "100px 0px" });
  images.forEach(function (img) { observer.observe(img); });
})();
"""

EMBED_MAP = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Route map</title></head>
<body style="margin:0;background:#dfe9ef;font:14px system-ui,sans-serif">
<svg viewBox="0 0 800 360" width="100%" height="360" role="img" aria-label="Ferry routes from Bodø to Lofoten">
<path d="M0 300 C200 260 420 330 800 280 L800 360 L0 360 Z" fill="#b9cfa8"/>
<path d="M120 40 L260 120 L330 90 L470 150 L560 110 L700 170" stroke="#5b6770" stroke-width="14" fill="none"
stroke-linecap="round"/>
<path d="M620 300 L360 140" stroke="#b5472d" stroke-width="3" stroke-dasharray="8 6" fill="none"/>
<text x="600" y="325">Bodø</text><text x="300" y="130">Moskenes</text></svg>
</body></html>"""

_PALETTES = (  # sky top, sky bottom, sun, far ridge, near ridge, foreground
    ((38, 70, 120), (244, 178, 140), (255, 226, 170), (84, 96, 128), (52, 62, 92), (30, 38, 60)),
    ((16, 24, 56), (60, 130, 140), (190, 255, 210), (40, 60, 80), (24, 36, 52), (12, 18, 30)),
    ((120, 170, 215), (225, 236, 240), (255, 250, 220), (120, 140, 150), (80, 104, 96), (54, 78, 70)),
    ((90, 50, 90), (250, 150, 100), (255, 210, 120), (120, 70, 90), (80, 44, 66), (44, 26, 40)),
    ((60, 110, 160), (200, 220, 200), (255, 245, 200), (96, 128, 96), (60, 92, 64), (36, 60, 44)),
)


@lru_cache(maxsize=64)
def scene(seed: str, size: tuple[int, int] = (800, 500), fmt: str = "JPEG") -> bytes:
    """A landscape picture (sky gradient, sun, ridges) in `fmt`, deterministic per seed.

    >>> scene("x", (64, 40))[:3] == b"\\xff\\xd8\\xff", scene("x", (64, 40)) == scene("x", (64, 40))
    (True, True)
    """
    rng = random.Random(seed)
    sky_top, sky_bottom, sun, *ridges = _PALETTES[rng.randrange(len(_PALETTES))]
    w, h = size
    img = Image.new("RGB", size)
    draw = ImageDraw.Draw(img)
    for y in range(h):
        t = y / max(h - 1, 1)
        draw.line([(0, y), (w, y)], fill=tuple(int(a + (b - a) * t) for a, b in zip(sky_top, sky_bottom, strict=True)))
    r, cx, cy = h * 0.08, rng.uniform(0.2, 0.8) * w, rng.uniform(0.18, 0.4) * h
    draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=sun)
    for i, colour in enumerate(ridges):
        base = h * (0.5 + 0.17 * i)
        points: list[tuple[float, float]] = [(0, h)]
        x, step = 0.0, w / rng.randint(5, 9)
        while x <= w + step:
            points.append((x, base - rng.uniform(0, h * 0.3 / (i + 1))))
            x += step * rng.uniform(0.6, 1.2)
        points.append((w, h))
        draw.polygon(points, fill=colour)
    buf = io.BytesIO()
    img.save(buf, format=fmt, quality=82)
    return buf.getvalue()


_MEDIA_REF = re.compile(r"/media/[\w.-]+\.(?:jpg|webp)")


def image_paths() -> list[str]:
    """Every image path the site's HTML and CSS reference, the broken one excluded."""
    text = "".join(PAGES.values()) + CSS
    return sorted(set(_MEDIA_REF.findall(text)) - {BROKEN_IMAGE})


def _image(path: str) -> tuple[bytes, str]:
    big = "-1600" in path
    size = (1600, 1000) if big else (800, 500)
    if path.endswith(".webp"):  # the same picture as the .jpg of the same name
        return scene(path.replace(".webp", ".jpg"), size, "WEBP"), "image/webp"
    return scene(path, size), "image/jpeg"


def build_demo_site() -> Site:
    """The demo site, ready for `SiteServer(build_demo_site())`."""
    site = Site()
    for path, html in {**PAGES, **UNCRAWLED_PAGES, EMBED[1]: EMBED_MAP}.items():
        site.add(path, html)
    site.add("/robots.txt", ROBOTS_TXT, content_type="text/plain; charset=utf-8")
    site.add("/assets/site.css", CSS, content_type="text/css; charset=utf-8")
    site.add("/assets/site.js", JS, content_type="text/javascript; charset=utf-8")
    for path in image_paths():
        body, ctype = _image(path)
        site.add(path, body, content_type=ctype)
    site.add(PLACEHOLDER, image_bytes("gif", "placeholder", (8, 5)), content_type="image/gif")
    site.add("/favicon.ico", image_bytes("png", "favicon", (16, 16)), content_type="image/png")
    site.add(VIDEO[1][0], mp4_bytes("aurora"), content_type=VIDEO_TYPES["mp4"])
    site.add(VIDEO[1][1], webm_bytes("aurora"), content_type=VIDEO_TYPES["webm"])
    return site
