"""The report's inline CSS and JavaScript (no network: everything the file needs is in it)."""

from __future__ import annotations

CSS = """
* { box-sizing: border-box; }
body { font: 14px/1.4 system-ui, sans-serif; margin: 0; color: #1d232a; background: #f5f6f8; }
header { padding: 10px 16px; background: #23303d; color: #fff; }
header h1 { font-size: 18px; margin: 0 0 2px; } header a { color: #cfe3ff; }
#summary { display: flex; flex-wrap: wrap; gap: 10px; padding: 10px 16px; }
.card { background: #fff; border: 1px solid #dde1e6; border-radius: 6px; padding: 8px 12px; min-width: 170px; }
.card h2 { font-size: 12px; text-transform: uppercase; color: #5b6672; margin: 0 0 4px; }
.card .big { font-size: 22px; font-weight: 600; } .card table { border-collapse: collapse; }
.card td { padding: 0 8px 0 0; vertical-align: top; }
#app { display: grid; grid-template-columns: 24% 34% 1fr; gap: 10px; padding: 0 16px 16px; }
.panel { background: #fff; border: 1px solid #dde1e6; border-radius: 6px; padding: 8px; overflow: auto;
  max-height: calc(100vh - 40px); }
.panel h2 { font-size: 14px; margin: 0 0 6px; }
#tree ul { list-style: none; margin: 0; padding-left: 14px; } #tree > ul { padding-left: 0; }
#tree .row { white-space: nowrap; } #tree a { text-decoration: none; }
.tog { border: 0; background: none; width: 18px; cursor: pointer; padding: 0; }
.st-ok { color: #19743b; } .st-incomplete { color: #a15c00; } .st-failed { color: #b3261e; }
.dot { display: inline-block; width: 9px; height: 9px; border-radius: 50%; margin-right: 4px; }
.dot.ok { background: #2e9d57; } .dot.incomplete { background: #e39a19; } .dot.failed { background: #d1453b; }
.sel { background: #e4efff; }
#filters { display: flex; flex-wrap: wrap; gap: 6px; margin-bottom: 6px; } #filters input { flex: 1; }
#pages { border-collapse: collapse; width: 100%; } #pages td, #pages th { padding: 3px 4px;
  border-bottom: 1px solid #eef0f2; text-align: left; } #pages tbody tr { cursor: pointer; }
#pages tbody tr:hover { background: #f1f6ff; } .num { text-align: right; }
#pages td { white-space: nowrap; } #pages td:nth-child(4) { white-space: normal; word-break: break-all; }
.pager { display: flex; gap: 6px; align-items: center; margin-top: 6px; }
.thumbs { display: flex; flex-wrap: wrap; gap: 8px; }
.thumbs figure { margin: 0; width: 132px; font-size: 11px; word-break: break-all; }
.thumbs img { width: 128px; height: 96px; object-fit: contain; background: #eef0f2; border: 1px solid #dde1e6; }
.excerpt { white-space: pre-wrap; background: #f7f8fa; padding: 6px; border-radius: 4px; max-height: 220px;
  overflow: auto; } .muted { color: #6b7580; } ol.attempts li { margin-bottom: 4px; }
.kv td:first-child { color: #5b6672; padding-right: 8px; }
"""

JS = r"""
(function () {
  "use strict";
  const DATA = JSON.parse(document.getElementById("bara-data").textContent);
  const pages = DATA.pages, byIndex = new Map(), children = new Map(), roots = [];
  for (const p of pages) byIndex.set(p.i, p);
  for (const p of pages) {
    if (p.parent === null || p.parent === undefined || !byIndex.has(p.parent)) { roots.push(p); continue; }
    if (!children.has(p.parent)) children.set(p.parent, []);
    children.get(p.parent).push(p);
  }
  const PAGE_SIZE = 50, CHUNK = 200;
  const $ = (id) => document.getElementById(id);
  function el(tag, attrs, ...kids) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "text") e.textContent = v; else if (k === "class") e.className = v;
      else if (k === "on") e.addEventListener("click", v); else e.setAttribute(k, v);
    }
    for (const kid of kids) if (kid !== null && kid !== undefined) e.append(kid);
    return e;
  }
  const safeHref = (u) => (/^(https?|file):/i.test(u || "") ? u : "#");
  const link = (u, text) => el("a", {href: safeHref(u), text: text || u, target: "_blank", rel: "noopener"});
  function size(n) {
    if (n === undefined || n === null) return "size ?";
    if (n < 1024) return n + " B";
    return n < 1048576 ? (n / 1024).toFixed(1) + " KiB" : (n / 1048576).toFixed(1) + " MiB";
  }
  const base = DATA.meta.files_base ? DATA.meta.files_base.replace(/\/?$/, "/") : null;
  const mediaSrc = (m) => (m.path && base ? base + m.path : m.url);
  const label = (p) => "#" + p.i + " " + (p.title || p.url);

  // ---- BFS tree: children are rendered when a node is opened, CHUNK at a time
  const treeNodes = new Map();
  function renderKids(ul, kids, from) {
    for (const k of kids.slice(from, from + CHUNK)) ul.append(treeNode(k));
    if (kids.length > from + CHUNK) {
      const more = el("li", {}, el("button", {text: "show " + (kids.length - from - CHUNK) + " more", on: () => {
        more.remove(); renderKids(ul, kids, from + CHUNK); }}));
      ul.append(more);
    }
  }
  function treeNode(p) {
    const kids = children.get(p.i) || [];
    const li = el("li", {"data-i": p.i});
    const tog = el("button", {class: "tog", text: kids.length ? "\u25b8" : "\u00b7"});
    const a = el("a", {href: "#page=" + p.i, class: "st-" + p.status, title: p.url},
      el("span", {class: "dot " + p.status}), label(p));
    li.append(el("div", {class: "row"}, tog, a, kids.length ? el("span", {class: "muted", text: " " + kids.length}) : null));
    li.open = (show) => {
      if (!kids.length) return;
      if (!li.kids) { li.kids = el("ul"); renderKids(li.kids, kids, 0); li.append(li.kids); }
      li.kids.hidden = !show; tog.textContent = show ? "\u25be" : "\u25b8";
    };
    tog.addEventListener("click", () => li.open(!li.kids || li.kids.hidden));
    treeNodes.set(p.i, li);
    return li;
  }
  function reveal(i) {
    const chain = [];
    for (let p = byIndex.get(i); p && p.parent !== null && p.parent !== undefined; p = byIndex.get(p.parent)) chain.unshift(p.parent);
    for (const j of chain) {
      const node = treeNodes.get(j);
      if (!node) return;
      node.open(true);
      for (let more; (more = node.kids.querySelector(":scope > li > button"));) more.click();
    }
    document.querySelectorAll("#tree .sel").forEach((n) => n.classList.remove("sel"));
    const node = treeNodes.get(i);
    if (node) { node.firstChild.classList.add("sel"); node.firstChild.scrollIntoView({block: "nearest"}); }
  }
  const rootUl = el("ul");
  renderKids(rootUl, roots, 0);
  $("tree").append(rootUl);
  if (roots.length) treeNodes.get(roots[0].i).open(true);

  // ---- filtered, paginated list
  let filtered = pages, pageNo = 0;
  const hay = (p) => (p._hay || (p._hay = (p.url + " " + p.title + " " + p.text).toLowerCase()));
  function matches(p, f) {
    if (f.status && p.status !== f.status) return false;
    if (f.depth !== "" && p.depth !== Number(f.depth)) return false;
    const nImg = p.images.length, nVid = p.videos.length;
    if (f.media === "media" && !(nImg + nVid)) return false;
    if (f.media === "images" && !nImg) return false;
    if (f.media === "videos" && !nVid) return false;
    if (f.media === "none" && nImg + nVid) return false;
    if (f.media === "rejected" && !p.rejected.length) return false;
    return !f.q || hay(p).includes(f.q);
  }
  function applyFilters() {
    const f = {status: $("f-status").value, media: $("f-media").value, depth: $("f-depth").value,
      q: $("f-search").value.trim().toLowerCase()};
    filtered = pages.filter((p) => matches(p, f));
    pageNo = 0; renderList();
  }
  function renderList() {
    const pagesCount = Math.max(1, Math.ceil(filtered.length / PAGE_SIZE));
    pageNo = Math.min(pageNo, pagesCount - 1);
    const body = $("rows"); body.replaceChildren();
    for (const p of filtered.slice(pageNo * PAGE_SIZE, (pageNo + 1) * PAGE_SIZE)) {
      body.append(el("tr", {"data-i": p.i, on: () => { location.hash = "page=" + p.i; }},
        el("td", {class: "num", text: p.i}), el("td", {class: "num", text: p.depth}),
        el("td", {}, el("span", {class: "dot " + p.status}), el("span", {class: "st-" + p.status, text: p.status})),
        el("td", {text: p.title || p.url, title: p.url}), el("td", {class: "num", text: p.images.length}),
        el("td", {class: "num", text: p.videos.length}), el("td", {class: "num", text: p.rejected.length}),
        el("td", {class: "num", text: p.attempts.length})));
    }
    $("count").textContent = filtered.length + " of " + pages.length + " pages";
    $("pageno").textContent = "page " + (pageNo + 1) + " / " + pagesCount;
    $("prev").disabled = pageNo === 0; $("next").disabled = pageNo >= pagesCount - 1;
  }

  // ---- one page
  function section(title, ...kids) { return el("section", {}, el("h3", {text: title}), ...kids); }
  function renderDetail(p) {
    const d = $("detail"); d.replaceChildren();
    if (!p) { d.append(el("p", {class: "muted", text: "Pick a page in the tree or the list."})); return; }
    d.append(el("h2", {text: label(p)}));
    const kv = el("table", {class: "kv"});
    const row = (k, v) => kv.append(el("tr", {}, el("td", {text: k}), el("td", {}, v)));
    row("url", link(p.url));
    if (p.final_url && p.final_url !== p.url) row("final url", link(p.final_url));
    if (p.replay) row("replay", link(p.replay, "in the archive"));
    row("status", el("span", {class: "st-" + p.status, text: p.status + (p.http_status ? " (HTTP " + p.http_status + ")" : "")}));
    row("depth", String(p.depth));
    if (p.parent !== null && p.parent !== undefined) row("parent", el("a", {href: "#page=" + p.parent, text: label(byIndex.get(p.parent))}));
    if (p.error) row("error", p.error);
    row("extractor", (p.extractor || "") + (p.fetched_at ? ", fetched " + p.fetched_at : ""));
    d.append(kv);
    d.append(section("Text (" + p.text_chars + " chars)", el("div", {class: "excerpt", text: p.text || "(none)"})));
    const thumbs = el("div", {class: "thumbs"});
    for (const m of p.images) {
      thumbs.append(el("figure", {}, el("a", {href: safeHref(m.url), target: "_blank"},
        el("img", {class: "thumb", loading: "lazy", src: mediaSrc(m), alt: m.url})),
        el("figcaption", {text: (m.type || "?") + ", " + size(m.bytes) + (m.path ? ", stored" : "")})));
    }
    d.append(section("Images (" + p.images.length + ")", p.images.length ? thumbs : el("p", {class: "muted", text: "none"})));
    const vids = el("ul", {});
    for (const m of p.videos) {
      vids.append(el("li", {}, link(m.path && base ? mediaSrc(m) : m.url, m.url),
        el("span", {class: "muted", text: " " + (m.type || "?") + ", " + size(m.bytes)})));
    }
    for (const m of p.embeds) vids.append(el("li", {}, link(m.url), el("span", {class: "muted", text: " embed"})));
    d.append(section("Videos (" + p.videos.length + ")" + (p.embeds.length ? " and embeds (" + p.embeds.length + ")" : ""), vids));
    const rej = el("ul", {});
    for (const m of p.rejected) rej.append(el("li", {}, el("b", {text: m.reason || "?"}), " " + (m.kind || "") + " ", link(m.url)));
    d.append(section("Rejected media (" + p.rejected.length + ")", rej));
    const att = el("ol", {class: "attempts"});
    for (const a of p.attempts) {
      att.append(el("li", {}, el("b", {text: a.diagnosis.length ? a.diagnosis.join(", ") : "no problem found"}),
        el("span", {class: "muted", text: " \u2192 " + a.text_chars + " chars, " + a.images + " images, " + a.videos +
          " videos, " + Number(a.seconds).toFixed(1) + " s" + (a.error ? ", error: " + a.error : "")}),
        el("div", {text: "instructions: " + (a.instructions || "(first try)")})));
    }
    d.append(section("Attempts (" + p.attempts.length + ")", att));
  }
  function route() {
    const m = /page=(\d+)/.exec(location.hash);
    const p = m ? byIndex.get(Number(m[1])) : pages[0];
    renderDetail(p);
    if (p) reveal(p.i);
  }

  const depths = [...new Set(pages.map((p) => p.depth))].sort((a, b) => a - b);
  for (const dep of depths) $("f-depth").append(el("option", {value: String(dep), text: "depth " + dep}));
  for (const id of ["f-status", "f-media", "f-depth"]) $(id).addEventListener("change", applyFilters);
  $("f-search").addEventListener("input", applyFilters);
  $("prev").addEventListener("click", () => { pageNo -= 1; renderList(); });
  $("next").addEventListener("click", () => { pageNo += 1; renderList(); });
  window.addEventListener("hashchange", route);
  applyFilters();
  route();
  document.body.dataset.ready = "1";
})();
"""
