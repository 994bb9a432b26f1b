"""Sites that real site generators build from one content, crawled and scored: what the text keeps of it.

The 50-site bench writes its own markup; real sites are written by generators and their themes. Here one
small documentation-and-blog content (`PAGES`: paragraphs with inline code, a code block and the sentence after
it, a note, a table, lists, a figure, FAQ answers holding links, a closing "Continue on to" line) is built by
MkDocs (Material, and its own two themes), Sphinx through MyST (alabaster, Furo, Read the Docs, PyData) and
Pelican (notmyidea, simple), each as its authors ship it, served as static files and crawled by the product
with its defaults. Each page's key sentences are its blocks' plain text; the site's furniture is what the
generator was told to print around every page (a copyright line, a tagline, a blogroll) and what its theme
prints ("Skip to content", "Back to top", "Made with ..."). A generator that is not installed is skipped
(`requirements.txt` pins them all).

An application that needs a server and a database is kept as a mirror instead (`mirrors/<name>`: its pages as
an anonymous visitor fetched them, and a `truth.json` of each page's key sentences and the furniture it
prints): `spirit-forum` is a Spirit forum (Django) with categories, topics of none to four replies and profiles;
`wp-twentytwentyone` and `wp-twentytwentythree` are a WordPress 6.1 blog (Debian's package) in its classic and its
block default theme: posts with a figure, a list, a quote, a table, comments and a reply, a page, category, tag,
month and author archives. `docusaurus` is a Docusaurus 3.10 site as `docusaurus build` writes it, less its
scripts (npm; a site needs no server, but Node and its packages are no Python requirement): docs with tabs,
admonitions, code blocks and a table, a blog with authors, tags and archive, a landing page and a custom page.
`mediawiki-vector` and `mediawiki-vector-2022` are a MediaWiki 1.39 wiki (Debian's package, SQLite) in its legacy
and its new default skin: articles with a table of contents, tables, a figure and references, a talk page with
signed comments, a disambiguation page, category pages. `asciidoctor` is the user guide of a tide-gauge logger as
Asciidoctor 2.0 (Debian's package) converts AsciiDoc with its default HTML5 template, less its stylesheet: an
author and revision line under each title, a table of contents (above the text or to its left), titled code blocks
with callouts, admonitions in their table, description and Q&A lists, a checklist, titled tables and a figure, a
sidebar, an example block, a quote, a footnote, and the "Version / Last updated" footer. `trac` is a Trac 1.6
tracker (PyPI, SQLite, its default theme, as tracd served it to an anonymous visitor): wiki pages with lists, a table
and code, tickets with comments and replies, milestones, the roadmap, the report list and two reports, a custom
query, the timeline. `ikiwiki` is an ikiwiki 3.20200202 wiki and blog (Debian's package, its default div-based
page template, a sidebar, cgiurl set as on a wiki that takes edits): wiki pages with a table of contents, tables
and a code block, a Discussion page of signed comments, a blog index inlining its posts whole, posts with a
captioned image and static comments, tag pages, an archive and a map of the site. `hexo-next` is
a bell-ringers' blog on Hexo 8.1 with the NexT 8.29 theme in its Gemini scheme (npm), less its scripts and
stylesheets: posts with read-more excerpts on the index, a captioned figure, tables, lists, quotes, code and note
tags, under a sidebar of the post's table of contents and the author's overview, and above a reward button, a
copyright box, a follow-me row and the post navigation; an About page, tag, category and archive listings. `nodebb` is
a NodeBB 1.4 forum (npm's last release, Redis, its default theme Persona, as an anonymous visitor with JavaScript off
sees it): the category index with descriptions and each category's newest post as a teaser, category pages, topics of
one to four replies (some quoting), recent and popular lists, tags, and profiles with a bio and the user's posts.
`mhonarc` is a mailing-list archive as MHonArc 2.6.19 (Debian's package, its default resources) converts an mbox of
a village astronomy society's members' list: plain-text messages in a <pre> under their header block, replies quoting
their parent, signatures, a URL and a configuration snippet, between the "[Date Prev][Date Next]..." links and the
follow-ups, references and "Prev by Date" lists, and the date and thread indexes (the seed: MHonArc writes no other
top page).
`doxygen` is the API reference of a small C library (a ring buffer of beehive scale readings) as Doxygen 1.9.4
(Debian's package) writes it in HTML with its default layout and static top tabs (HTML_DYNAMIC_MENUS off), no search,
tree view or graphs, less its scripts, stylesheets and icons: a Markdown main page and a related page, file, struct
and directory pages with member tables and detailed function docs, the headers' source listings, and the indexes.
`texinfo` is the manual of a small GNU-style command-line tool (a sourdough bake scheduler) as GNU Texinfo 6.8's
makeinfo (Debian's package) writes it with `--html`, split by node as GNU manuals are published: a page per node under
the "Next: / Previous: / Up: [Contents][Index]" navigation line, numbered chapter, section and subsection headings, an
example block, bulleted and numbered lists, a table of options, cross references, a footnote at the foot of its node,
each node's menu as a list of its sections, the table of contents in the Top node (the seed, index.html), and the
concept index with its "Jump to:" letters.
`javadoc` is the API reference of a small Java library (a community seed library's catalogue and loan desk) as the
JDK 17 javadoc (Debian's package) writes it with the standard doclet, less its scripts, stylesheets and images: an
overview page, package summaries, class, record, enum, interface and exception pages with summary tables (a member's
signature and first sentence) over detail sections of parameters, return values, exceptions and "See Also" links,
the class trees, the deprecated list, constant values, serialized form, the one-page index and the help page, each
under the navigation bar ("Overview Package Class Tree Deprecated Index Help", "Summary: Nested | Field | Constr |
Method") and its search box.
`roundup` is a Roundup 2.6 issue tracker (PyPI, SQLite, its classic template, as roundup-server served it to an
anonymous visitor, less its scripts and stylesheets) of a seed library's catalogue app: the home page's index of open
issues grouped by priority, issues whose fields stand in a form table above their messages (plain text in a <pre>
under an "Author: / Date:" header row, some replies quoting) and the history table, and each message's own page; no
user pages (anonymous may not view them) and no view with a query string (the mirror serves paths).

    scrapy bara-bench --sites 0 --generators all
"""

from __future__ import annotations

import importlib.util
import mimetypes
import re
import struct
import subprocess
import sys
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote, urlsplit

from ..extraction.blocks import seq
from .server import Site

COPYRIGHT = "Copyright 2026 the Widget Ledger authors"
TAGLINE = "Notes from the people who keep the widget ledger"
BLOGROLL = "The Otter Survey Handbook"


@dataclass(frozen=True)
class Page:
    slug: str
    title: str
    parts: tuple[tuple[str, Any], ...]  # (kind, body): p, h2, code, ul, ol, table, note, figure


PAGES = (
    Page("index", "Widget Ledger", (
        ("p", "Widget Ledger keeps an exact record of every widget a team ships, from the first prototype to the "
              "last spare part."),
        ("ul", ("Fast lookups by `widget_id` in the ledger", "Signed exports that the auditors accept as they are",
                "A plugin interface for remote archives and cold storage buckets")),
        ("p", "The ledger never rewrites history: a correction is a new entry that points at the one it corrects."),
        ("p", "Continue on to [Installation](install.md) to set it up."),
    )),
    Page("install", "Installation", (
        ("p", "Install the package with `pip install widget-ledger` and check the version with `ledger --version` "
              "afterwards."),
        ("code", "pip install widget-ledger\nledger --version"),
        ("p", "The alias `Schema` was chosen because the parser reads the whole file before it validates anything."),
        ("note", "The cold cache is created on the first run and never shared between two users."),
        ("h2", "Configuration"),
        ("p", "Two settings matter on a new machine, and both can be left alone on a laptop."),
        ("table", (("Setting", "Default", "Meaning"),
                   (("`LEDGER_HOME`", "`~/.ledger`", "Where the signed archive lives"),
                    ("`LEDGER_WORKERS`", "4", "How many workers merge the batches")))),
        ("p", "Continue on to [the tutorial](tutorial.md) for a first ledger."),
    )),
    Page("tutorial", "Tutorial", (
        ("p", "This tutorial builds a small ledger with three widgets and one remote archive."),
        ("ol", ("Create the ledger with `ledger init demo` in an empty folder",
                "Add three widgets with `ledger add` and a short label for each",
                "Export the ledger and compare the signed digest with the archive's")),
        ("code", "from ledger import Ledger\nbook = Ledger('demo')\nbook.add('gear', label='Gear')"),
        ("p", "After the code above runs, the ledger holds one widget named gear and its label."),
        ("h2", "Remote archives"),
        ("p", "A remote archive receives every signed batch once, and answers with the digest it computed."),
        ("figure", "The remote archive receives a signed copy of every batch"),
        ("p", "When the two digests differ, the batch is sent again and the mismatch is logged."),
    )),
    Page("reference", "API reference", (
        ("p", "The `Ledger` class is the only entry point most programs need."),
        ("h2", "Ledger.add"),
        ("p", "`add(name, label=None)` stores a widget and returns its numeric identifier."),
        ("h2", "Ledger.export"),
        ("p", "`export(path, signed=True)` writes the archive and returns the digest of the signed file."),
        ("note", "Exports are atomic: a partial file is never left behind when the disk fills up."),
    )),
    Page("faq", "Frequently asked questions", (
        ("h2", "Can two users share one ledger?"),
        ("p", "Yes, as long as each user signs with their own key; see [the reference](reference.md) for the "
              "export options."),
        ("h2", "Does the ledger work offline?"),
        ("p", "It does, and the remote archive catches up when the network comes back."),
        ("h2", "Where are the logs?"),
        ("p", "In the `logs` folder under `LEDGER_HOME`, one file per day."),
    )),
)


def plain(text: str) -> str:
    """A Markdown line as a reader sees it: link labels, no code ticks or emphasis.

    >>> plain("Run `ledger` and see [the reference](reference.md).")
    'Run ledger and see the reference.'
    """
    return re.sub(r"\[([^\]]+)\]\([^)]+\)", r"\1", text).replace("`", "").replace("*", "")


def key_sentences(page: Page) -> list[str]:
    """What a reader of the page sees as its content, one string each: the headline and every block (a code
    block by its lines, a table by its body cells).

    >>> key_sentences(PAGES[2])[:3], key_sentences(PAGES[2])[5:8]
    (['Tutorial', 'This tutorial builds a small ledger with three widgets and one remote archive.', \
'Create the ledger with ledger init demo in an empty folder'], \
['from ledger import Ledger', "book = Ledger('demo')", "book.add('gear', label='Gear')"])
    """
    keys = [page.title]
    for kind, body in page.parts:
        if kind in ("ul", "ol"):
            keys += [plain(item) for item in body]
        elif kind == "table":
            keys += [plain(cell) for row in body[1] for cell in row]
        elif kind == "code":
            keys += body.splitlines()
        else:
            keys.append(plain(body))
    return keys


def markdown(page: Page, note: Callable[[str], str], link: Callable[[str], str], image: str) -> str:
    """The page in Markdown, with a generator's note syntax (`note`), page links (`link`: "install" -> href)
    and the figure's image path."""
    out = [f"# {page.title}", ""]
    for kind, body in page.parts:
        if kind == "p":
            out += [re.sub(r"\]\((\w+)\.md\)", lambda m: f"]({link(m.group(1))})", body), ""]
        elif kind == "h2":
            out += [f"## {body}", ""]
        elif kind == "code":
            out += ["```python", body, "```", ""]
        elif kind in ("ul", "ol"):
            out += [f"{'-' if kind == 'ul' else f'{n}.'} {item}" for n, item in enumerate(body, 1)] + [""]
        elif kind == "table":
            head, rows = body
            out += ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
            out += ["| " + " | ".join(row) + " |" for row in rows] + [""]
        elif kind == "note":
            out += [note(body), ""]
        elif kind == "figure":
            out += [f"![{body}]({image})", "", f"*{body}*", ""]
    return "\n".join(out)


def png(path: Path) -> None:
    """A small valid PNG (the figure)."""
    width = height = 40
    raw = b"".join(b"\x00" + b"\x80\x40\x20" * width for _ in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
                     + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def _run(*args: str, cwd: Path | None = None) -> None:
    done = subprocess.run([sys.executable, "-m", *args], cwd=cwd, capture_output=True, text=True, check=False)
    if done.returncode:
        raise RuntimeError(f"{' '.join(args[:2])} failed: {done.stderr.strip()[-2000:]}")


def build_mkdocs(theme: str, src: Path, out: Path) -> None:
    docs = src / "docs"
    docs.mkdir(parents=True)
    for page in PAGES:
        text = markdown(page, lambda body: f"!!! note\n    {body}", lambda slug: f"{slug}.md", f"{page.slug}.png")
        (docs / f"{page.slug}.md").write_text(text, encoding="utf-8")
        png(docs / f"{page.slug}.png")
    nav = "\n".join(f"  - '{page.title}': {page.slug}.md" for page in PAGES)
    extensions = "[admonition, tables, attr_list, pymdownx.superfences]" if theme == "material" else \
        "[admonition, tables, attr_list]"
    (src / "mkdocs.yml").write_text(
        f"site_name: Widget Ledger Docs\nsite_description: {TAGLINE}\ntheme:\n  name: {theme}\n"
        f"nav:\n{nav}\nmarkdown_extensions: {extensions}\ncopyright: {COPYRIGHT}\n", encoding="utf-8")
    _run("mkdocs", "build", "--quiet", "--config-file", str(src / "mkdocs.yml"), "--site-dir", str(out))


def build_sphinx(theme: str, src: Path, out: Path) -> None:
    src.mkdir(parents=True)
    for page in PAGES:
        text = markdown(page, lambda body: f"```{{note}}\n{body}\n```", lambda slug: f"{slug}.md",
                        f"{page.slug}.png")
        if page.slug == "index":
            text += "\n```{toctree}\n:hidden:\n\n" + "\n".join(p.slug for p in PAGES[1:]) + "\n```\n"
        (src / f"{page.slug}.md").write_text(text, encoding="utf-8")
        png(src / f"{page.slug}.png")
    (src / "conf.py").write_text(
        f"project = 'Widget Ledger'\ncopyright = '{COPYRIGHT.removeprefix('Copyright ')}'\n"
        f"extensions = ['myst_parser']\nhtml_theme = '{theme}'\nsource_suffix = {{'.md': 'markdown'}}\n"
        f"html_title = 'Widget Ledger documentation'\n", encoding="utf-8")
    _run("sphinx", "-q", "-b", "html", str(src), str(out))


def build_pelican(theme: str, src: Path, out: Path) -> None:
    content = src / "content"
    (content / "images").mkdir(parents=True)
    for n, page in enumerate(PAGES):
        body = markdown(page, lambda text: f"> {text}", lambda slug: f"{{filename}}/{slug}.md",
                        f"{{static}}/images/{page.slug}.png").split("\n", 2)[2]
        png(content / "images" / f"{page.slug}.png")
        slug = "welcome" if page.slug == "index" else page.slug  # the blog's index is index.html
        (content / f"{page.slug}.md").write_text(
            f"Title: {page.title}\nDate: 2026-11-{10 + n:02d} 10:00\nCategory: Guides\nTags: ledger, widgets\n"
            f"Slug: {slug}\nAuthor: Ann Archivist\nSummary: {summary(page)}\n\n{body}", encoding="utf-8")
    (src / "pelicanconf.py").write_text(
        f"AUTHOR = 'Ann Archivist'\nSITENAME = 'Widget Ledger Blog'\nSITESUBTITLE = '{TAGLINE}'\nSITEURL = ''\n"
        f"PATH = 'content'\nTIMEZONE = 'UTC'\nDEFAULT_LANG = 'en'\nSTATIC_PATHS = ['images']\nTHEME = '{theme}'\n"
        f"LINKS = (('{BLOGROLL}', 'https://otters.example/'),)\nDEFAULT_PAGINATION = False\nRELATIVE_URLS = True\n"
        "FEED_ALL_ATOM = None\nCATEGORY_FEED_ATOM = None\nAUTHOR_FEED_ATOM = None\nAUTHOR_FEED_RSS = None\n",
        encoding="utf-8")
    _run("pelican", "--quiet", str(content), "--output", str(out), "--settings", str(src / "pelicanconf.py"))


def summary(page: Page) -> str:
    return f"What the {page.title.lower()} page says, in a sentence for the blog's readers."


@dataclass(frozen=True)
class Generator:
    name: str
    module: str  # what must be importable
    build: Callable[[Path, Path], None]  # (source dir, output dir)
    blog: bool = False  # pages are posts: /<slug>.html, the home page lists them
    furniture: tuple[str, ...] = ()  # what the theme prints around every page
    mirror: str = ""  # a committed copy of an application's pages (`MIRRORS`/<mirror>), not a build of `PAGES`
    seed: str = "/"  # where the crawl starts (a wiki's main page is no root)
    max_depth: int = 2  # how deep it goes (a docs site's pages sit under their categories)
    bare_index: bool = False  # a directory's index.html is also its path without the slash (Trac's /report, /report/1)


MIRRORS = Path(__file__).parent / "mirrors"


def _copy_mirror(name: str) -> Callable[[Path, Path], None]:
    """A mirror's "build": its committed pages, copied (`mirrors/<name>/site`)."""
    import shutil

    def copy(src: Path, out: Path) -> None:
        shutil.copytree(MIRRORS / name / "site", out)

    return copy


@cache
def mirror_truth(name: str) -> dict[str, Any]:
    """A mirror's `truth.json`: the software it shows, the furniture its pages print, each page's key sentences
    by URL path (read once: the bench asks for its furniture and for its pages)."""
    import json

    truth: dict[str, Any] = json.loads((MIRRORS / name / "truth.json").read_text(encoding="utf-8"))
    return truth


def _theme(build: Callable[[str, Path, Path], None], theme: str) -> Callable[[Path, Path], None]:
    return lambda src, out: build(theme, src, out)


GENERATORS = {g.name: g for g in (
    Generator("mkdocs-material", "material", _theme(build_mkdocs, "material"), furniture=(
        COPYRIGHT, "Skip to content", "Initializing search", "Table of contents", "Material for MkDocs")),
    Generator("mkdocs-readthedocs", "mkdocs", _theme(build_mkdocs, "readthedocs"), furniture=(
        COPYRIGHT, "Built with MkDocs", "using a theme provided by Read the Docs", "« Previous", "Next »")),
    Generator("mkdocs", "mkdocs", _theme(build_mkdocs, "mkdocs"), furniture=(
        COPYRIGHT, "Documentation built with MkDocs", "From here you can search these documents",
        "Keyboard Shortcuts", "Open this help")),
    Generator("sphinx-alabaster", "myst_parser", _theme(build_sphinx, "alabaster"), furniture=(
        COPYRIGHT, "Related Topics", "Documentation overview", "Powered by Sphinx", "Page source", "Quick search")),
    Generator("sphinx-furo", "furo", _theme(build_sphinx, "furo"), furniture=(
        COPYRIGHT, "Skip to content", "Back to top", "View this page", "Made with Sphinx", "On this page",
        "Light mode")),
    Generator("sphinx-rtd", "sphinx_rtd_theme", _theme(build_sphinx, "sphinx_rtd_theme"), furniture=(
        COPYRIGHT, "View page source", "Built with Sphinx using a theme provided by Read the Docs")),
    Generator("sphinx-pydata", "pydata_sphinx_theme", _theme(build_sphinx, "pydata_sphinx_theme"), furniture=(
        COPYRIGHT, "Skip to main content", "Back to top", "System Settings", "Section Navigation", "On this page",
        "Show Source", "Created using Sphinx", "PyData Sphinx Theme")),
    Generator("pelican-notmyidea", "pelican", _theme(build_pelican, "notmyidea"), blog=True, furniture=(
        TAGLINE, BLOGROLL, "Proudly powered by Pelican", "which takes great advantage of Python",
        "The theme is by Smashing Magazine")),
    Generator("pelican-simple", "pelican", _theme(build_pelican, "simple"), blog=True, furniture=(
        TAGLINE, BLOGROLL, "Proudly powered by Pelican", "which takes great advantage of Python")),
    Generator("spirit-forum", "lxml", _copy_mirror("spirit-forum"), mirror="spirit-forum"),
    Generator("wp-twentytwentyone", "lxml", _copy_mirror("wp-twentytwentyone"), mirror="wp-twentytwentyone"),
    Generator("wp-twentytwentythree", "lxml", _copy_mirror("wp-twentytwentythree"), mirror="wp-twentytwentythree"),
    Generator("docusaurus", "lxml", _copy_mirror("docusaurus"), mirror="docusaurus", max_depth=3),
    *(Generator(f"mediawiki-{skin}", "lxml", _copy_mirror(f"mediawiki-{skin}"), mirror=f"mediawiki-{skin}",
                seed="/index.php/Main_Page", max_depth=3) for skin in ("vector", "vector-2022")),
    *(Generator(name, "lxml", _copy_mirror(name), mirror=name) for name in ("bootstrap-business",
                                                                             "bootstrap-clean-blog")),
    *(Generator(name, "lxml", _copy_mirror(name), mirror=name, max_depth=3) for name in (
        "jekyll-minima", "hexo-landscape", "hexo-next", "vitepress", "eleventy-base-blog", "nikola", "starlight")),
    Generator("dokuwiki", "lxml", _copy_mirror("dokuwiki"), mirror="dokuwiki", seed="/start", max_depth=3),
    Generator("asciidoctor", "lxml", _copy_mirror("asciidoctor"), mirror="asciidoctor", max_depth=3),
    Generator("trac", "lxml", _copy_mirror("trac"), mirror="trac", seed="/wiki/WikiStart", max_depth=3,
              bare_index=True),
    Generator("ikiwiki", "lxml", _copy_mirror("ikiwiki"), mirror="ikiwiki", max_depth=3),
    Generator("nodebb", "lxml", _copy_mirror("nodebb"), mirror="nodebb", max_depth=3, bare_index=True),
    # MHonArc: the thread index links 22 messages and the date index, past the default width of 20 links a page; the
    # last three messages are reached down the "Next by thread" chain, the last at depth 4
    Generator("mhonarc", "lxml", _copy_mirror("mhonarc"), mirror="mhonarc", seed="/threads.html", max_depth=4),
    Generator("doxygen", "lxml", _copy_mirror("doxygen"), mirror="doxygen", seed="/index.html", max_depth=3),
    Generator("texinfo", "lxml", _copy_mirror("texinfo"), mirror="texinfo", seed="/index.html", max_depth=3),
    Generator("javadoc", "lxml", _copy_mirror("javadoc"), mirror="javadoc", seed="/index.html", max_depth=3),
    # Roundup: the two resolved issues are off the home page's index (open issues only) and reached through the
    # messages that name them, at depth 2; their messages' own pages at depth 3
    Generator("roundup", "lxml", _copy_mirror("roundup"), mirror="roundup", seed="/seeds/", max_depth=3),
)}


def available(names: list[str]) -> tuple[list[str], list[str]]:
    """(installed, missing) among `names`."""
    installed = [n for n in names if importlib.util.find_spec(GENERATORS[n].module) is not None]
    return installed, [n for n in names if n not in installed]


def static_site(root: Path, bare_index: bool = False) -> Site:
    """Every file under `root` at its path (and at its path percent-encoded as a crawler asks for it:
    `Saddler%27s_Bridge`), `index.html` also at its directory's path (and at that path without its slash when
    `bare_index`: an application's `/report` beside `/report/1`); a file without an extension is a page (a
    wiki's `/index.php/Mill_Lock`)."""
    site = Site()
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        rel = "/" + path.relative_to(root).as_posix()
        kind = mimetypes.guess_type(path.name)[0] or ("text/html" if not path.suffix else "application/octet-stream")
        kind += "; charset=utf-8" if kind.startswith("text/") or kind.endswith("javascript") else ""
        body = path.read_bytes()
        for at in dict.fromkeys((rel, quote(rel, safe="/:@!$&()*+,;=-._~"))):
            site.add(at, body, content_type=kind)
        if path.name == "index.html":
            site.add(rel.removesuffix("index.html"), body, content_type=kind)
            if bare_index and rel != "/index.html":
                site.add(rel.removesuffix("/index.html"), body, content_type=kind)
    site.add("/robots.txt", "User-agent: *\nAllow: /\n", content_type="text/plain")
    return site


def page_of(path: str, blog: bool) -> str | None:
    """The content page a URL path shows (a `PAGES` slug, "blog" for a blog's index), None for others (tag,
    category, search and index pages).

    >>> page_of("/install/", False), page_of("/faq.html", False), page_of("/", True), page_of("/welcome.html", True)
    ('install', 'faq', 'blog', 'index')
    """
    name = path.strip("/").removesuffix(".html").removesuffix("/index") or "index"
    if blog:
        name = {"index": "blog", "welcome": "index"}.get(name, name)
    return name if name == "blog" or any(p.slug == name for p in PAGES) else None


def printed(root: Path, furniture: tuple[str, ...]) -> tuple[str, ...]:
    """The furniture strings the built site's pages print (as text, outside tags; a page is an `.html` file or one
    without an extension, as a wiki's): only those can leak."""
    from lxml.html import fromstring

    pages = " ".join(seq(" ".join(fromstring(path.read_bytes()).itertext())) for path in sorted(root.rglob("*"))
                     if path.is_file() and path.suffix in ("", ".html") and path.stat().st_size)
    return tuple(f for f in furniture if seq(f) in pages)


def site_furniture(generator: Generator) -> tuple[str, ...]:
    """What the site prints around its pages (a mirror's, read from its truth when asked: the package's data files
    need not be there for the module to load, as in a Scrapyd egg)."""
    return tuple(mirror_truth(generator.mirror)["furniture"]) if generator.mirror else generator.furniture


def expected(generator: Generator) -> tuple[dict[str, list[str]], dict[str, str], Callable[[str], str | None]]:
    """What a site's pages hold: key sentences by page, the page's own headline where one is known, and the page a
    URL path shows (None for the others: tags, archives, search)."""
    if generator.mirror:
        pages: dict[str, list[str]] = mirror_truth(generator.mirror)["pages"]  # by path as written (`'`, not %27)
        return pages, {}, lambda path: page if (page := unquote(path)) in pages else None
    keys = {p.slug: key_sentences(p) for p in PAGES}
    if generator.blog:  # the index lists the posts, the newest whole
        keys["blog"] = [p.title for p in PAGES] + [summary(p) for p in PAGES[:-1]]
    return keys, {p.slug: p.title for p in PAGES}, lambda path: page_of(path, generator.blog)


def score_generator(generator: Generator, items: list[dict[str, Any]], furniture: tuple[str, ...]) -> dict[str, Any]:
    """Key-sentence recall over the content pages, the share of them titled by their own headline (where the
    truth knows it), and which of the planted and theme `furniture` the site prints is found in any page's text
    (with what was missed or leaked, for the report)."""
    keys, titles, locate = expected(generator)
    found = total = titled = pages = 0
    missed: list[str] = []
    leaked: set[str] = set()
    seen: set[str] = set()
    code = {line for p in PAGES for kind, body in p.parts if kind == "code" for line in body.splitlines()}
    for item in items:
        text, raw = seq(item.get("text", "")), item.get("text", "")
        leaked |= {f for f in furniture if seq(f) in text}
        page = locate(urlsplit(item["url"]).path or "/")
        if page is None or page in seen:
            continue
        seen.add(page)
        pages += 1
        wanted = keys[page]
        lost = [k for k in wanted if (k not in raw if k in code else seq(k) not in text)]  # code: as written
        found, total = found + len(wanted) - len(lost), total + len(wanted)
        missed += [f"{page}: {k}" for k in lost]
        titled += page not in titles or seq(titles[page]) in seq(item.get("title", ""))
    return {"pages": pages, "expected_pages": len(keys), "recall": round(found / max(total, 1), 4),
            "key_sentences": total, "titled": f"{titled}/{pages}", "missed": missed,
            "furniture_leaked": sorted(leaked), "furniture_planted": len(furniture)}
