"""A phpBB-style forum (board index, boards, threads), generated: every page carries the site's template
(header, breadcrumbs, "Who is online", board statistics, a footer) around its own content.

What a page shows of its own is listed in `Forum.own`; what the template prints on every page is
`TEMPLATE_LINES`. Each thread's title is also a row title on its board (another place, the same words),
as on real forums.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bara_scrapy.bench.server import Site

TEMPLATE_LINES = (
    "Users browsing this forum: No registered users and 3 guests",
    "Total posts 12873 • Total topics 1402 • Total members 388 • Our newest member kayak_kim",
)
WORDS = ("river", "canoe", "paddle", "weir", "lake", "current", "portage", "eddy", "spray", "deck", "varnish",
         "cedar", "strip", "stern", "bow", "rapid", "kayak", "rudder", "launch", "harbour")


def sentence(n: int, length: int = 14) -> str:
    """A sentence no other page has (the words are drawn from `n`)."""
    picked = [WORDS[(n * 7 + k * (n % 5 + 1)) % len(WORDS)] for k in range(length)]
    return f"Post {n} says the {' '.join(picked)} was remarkable this season."


def shell(title: str, inner: str) -> str:
    return f"""<!DOCTYPE html><html><head><meta charset="utf-8"><title>{title} - Riverside Forum</title></head>
<body id="phpbb" class="section-viewtopic"><div id="wrap" class="wrap">
<div id="page-header"><div class="headerbar" role="banner"><div class="inner"><div id="site-description">
<a id="logo" class="logo" href="/" title="Board index"><span class="site_logo"></span></a>
<h1>Riverside Forum</h1><p>A place to talk about boats, rivers and the people who love them</p></div></div></div>
<div class="navbar" role="navigation"><ul id="nav-main" class="nav-main linklist">
<li class="rightside"><a href="/ucp.php?mode=login">Login</a></li></ul></div></div>
<div id="page-body" class="page-body" role="main">
{inner}
<div class="stat-block online-list"><h3>Who is online</h3><p>{TEMPLATE_LINES[0]}</p></div>
<div class="stat-block statistics"><h3>Statistics</h3><p>{TEMPLATE_LINES[1].replace("kayak_kim",
    '<strong><span class="username">kayak_kim</span></strong>')}</p></div>
</div>
<div id="page-footer" class="page-footer" role="contentinfo"><div class="navbar" role="navigation">
<ul class="linklist"><li><a href="/">Board index</a></li><li>All times are UTC</li></ul></div>
<div class="copyright">Powered by phpBB Forum Software</div></div></div></body></html>"""


def post(n: int, author: str, text: str) -> str:
    return f"""<div id="p{n}" class="post has-profile bg{n % 2 + 1}"><div class="inner">
<dl class="postprofile"><dt><span class="username">{author}</span></dt>
<dd class="profile-joined"><strong>Joined:</strong> Mon Jan 02, 2023 9:14 am</dd></dl>
<div class="postbody"><div id="post_content{n}"><p class="author">by
<strong><span class="username">{author}</span></strong> » Tue Feb 14, 2023 7:22 pm</p>
<div class="content">{text}</div></div></div></div></div>"""


def row(href: str, title: str, n: int) -> str:
    return f"""<li class="row bg{n % 2 + 1}"><dl class="row-item topic_read"><dt><div class="list-inner">
<a href="{href}" class="topictitle">{title}</a><br><div class="topic-poster">by <span
class="username">user{n}</span> » Sun Mar 05, 2023 3:11 pm</div></div></dt><dd class="posts">{n + 3} Replies</dd>
</dl></li>"""


@dataclass
class Forum:
    boards: int = 3
    threads: int = 4  # per board
    posts: int = 3  # per thread
    pages: dict[str, str] = field(default_factory=dict)  # path -> html
    own: dict[str, list[str]] = field(default_factory=dict)  # path -> sentences only that page shows

    def build(self) -> Forum:
        board_rows = []
        n = 0
        for b in range(self.boards):
            board_path = f"/viewforum.php?f={b}"
            board_rows.append(row(board_path, f"Board {b}: {WORDS[b]} talk", b))
            rows, intro = [], f"Board {b} is where members discuss {WORDS[b]} trips and gear in depth."
            for t in range(self.threads):
                path = f"/viewtopic.php?t={b * 100 + t}"
                title = f"Thread {b}-{t} about the {WORDS[(b + t) % len(WORDS)]} and its {WORDS[t + 5]}"
                rows.append(row(path, title, t))
                posts = []
                for _ in range(self.posts):
                    n += 1
                    posts.append(sentence(n))
                body = f'<h2 class="topic-title"><a href="{path}">{title}</a></h2>' + "".join(
                    post(n, f"member{n % 9}", f"<p>{s}</p>") for n, s in enumerate(posts))
                self.pages[path] = shell(title, body)
                self.own[path] = posts
            self.pages[board_path] = shell(f"Board {b}", f'<h2 class="forum-title">Board {b}</h2><p>{intro}</p>'
                                           f'<ul class="topiclist topics">{"".join(rows)}</ul>')
            self.own[board_path] = [intro]
        self.pages["/"] = shell("Board index", f'<ul class="topiclist forums">{"".join(board_rows)}</ul>')
        self.own["/"] = []
        return self

    def install(self, site: Site) -> None:
        for path, html in self.pages.items():
            site.add(path, html)
        site.add("/robots.txt", "User-agent: *\nAllow: /\n", content_type="text/plain")
