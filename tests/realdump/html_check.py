#!/usr/bin/env python3
"""Hold `orccrash --html PAGE` to the reports of the same dump and to what
headless Chromium made of it.

usage: html_check.py static NAME PAGE TEXT FOLDED LOG
         the page alone: its parts are the text report's (the header, the
         panic CPU's block), the icicle is --folded=state's stacks (every
         node's count the tasks through it, the root the report's TASKS),
         the log part a tail of --log; no attribute points outside the page
         and the Content-Security-Policy forbids every fetch
       html_check.py dom NAME PAGE DOM NETLOG
         Chromium's DOM after the page's script ran and a click on the
         widest frame below the states (the harness html.sh appends): the
         frame fills the width, what is not under it or above it is
         hidden; and Chromium's net log of that run (the page without its
         CSP): no request the page made
       html_check.py size PAGE
         the window size that shows the page down to its icicle
       html_check.py png NAME PNG
         the screenshot: a title's dark text at the top and the icicle's
         warm frames
Prints PASS/FAIL lines."""
import html
import html.parser
import json
import re
import sys

CSP = ("default-src 'none'; style-src 'unsafe-inline'; "
       "script-src 'unsafe-inline'")


class Page(html.parser.HTMLParser):
    """The parts by id, the icicle's nodes, every attribute that loads."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.text = {}          # id -> text of a <pre>, <h1>, <title>
        self.cur = None
        self.nodes = []         # (x, w, d, name, display) of the icicle
        self.loads = []         # attributes that would fetch
        self.csp = None
        self.total = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for k, v in attrs:
            if k in ("src", "href", "xlink:href", "srcset", "action",
                     "poster", "data") and v and not v.startswith("#"):
                self.loads.append("%s %s=%s" % (tag, k, v[:60]))
            if k == "style" and v and "url(" in v:
                self.loads.append("%s style=%s" % (tag, v[:60]))
        if tag == "meta" and a.get("http-equiv", "").lower() == \
                "content-security-policy":
            self.csp = a.get("content")
        if tag in ("link", "iframe", "object", "embed", "img"):
            self.loads.append(tag)
        if tag == "svg" and a.get("id") == "flame":
            self.total = int(a["data-total"])
        if tag == "g" and "data-x" in a:
            self.nodes.append([int(a["data-x"]), int(a["data-w"]),
                               int(a["data-d"]), a["data-n"],
                               a.get("style", ""), None])
        if tag == "rect" and self.nodes and self.nodes[-1][5] is None:
            self.nodes[-1][5] = float(a["width"])
        if (tag == "title" and "doctitle" not in self.text) or \
                (tag in ("pre", "h1") and a.get("id")):
            self.cur = "doctitle" if tag == "title" else a["id"]
            self.text[self.cur] = ""

    def handle_endtag(self, tag):
        if tag in ("pre", "h1", "title"):
            self.cur = None

    def handle_data(self, data):
        if self.cur:
            self.text[self.cur] += data


def parse(path):
    p = Page()
    p.feed(open(path, encoding="utf-8").read())
    return p


fails = []


def check(ok, what):
    if not ok:
        fails.append(what)


def static(name, page, text_path, folded_path, log_path):
    p = parse(page)
    text = open(text_path, encoding="utf-8").read()
    check(p.csp == CSP, "the Content-Security-Policy is %r" % p.csp)
    check(not p.loads, "it would load: %s" % "; ".join(p.loads[:3]))
    m = re.search(r"^     CRASH: (.*)$", text, re.M)
    for part in ("doctitle", "title"):
        check(m and p.text.get(part) == m.group(1),
              "the %s %r is not the report's CRASH: %r" %
              (part, p.text.get(part), m and m.group(1)))
    # the header: the report's, up to the log's tail (or the first part)
    head = text.split("\n\n", 1)[0] + "\n"
    check(p.text.get("summary") == head,
          "the summary is not the report's header (%r vs %r)" %
          (p.text.get("summary", "")[:80], head[:80]))
    # the panic CPU's part of the report, its heading to the blank line
    pm = re.search(r"^CPU \d+ \(panic\):.*?(?=\n\n|\Z)", text, re.M | re.S)
    if pm:
        check(p.text.get("panic") == pm.group(0).rstrip("\n") + "\n",
              "the panic CPU's trace is not the report's")
    else:
        check("panic" in p.text, "no CPU part")
    # the icicle against --folded=state
    folded = {}
    for line in open(folded_path, encoding="utf-8").read().splitlines():
        stack, count = line.rsplit(" ", 1)
        folded[stack] = int(count)
    tasks = sum(folded.values())
    tm = re.search(r"^     TASKS: (\d+)", text, re.M)
    check(tm and int(tm.group(1)) == tasks == p.total,
          "tasks: report %s, --folded %d, the icicle %s" %
          (tm and tm.group(1), tasks, p.total))
    # every node's count is the tasks whose stack starts with its path
    want = {}
    for stack, n in folded.items():
        parts = stack.split(";")
        for i in range(1, len(parts) + 1):
            key = tuple(parts[:i])
            want[key] = want.get(key, 0) + n
    path, got = [], {}
    for x, w, d, n, _, _ in p.nodes:
        if d == 0:
            check(w == tasks and x == 0, "the root is %d wide at %d" % (w, x))
            continue
        del path[d - 1:]
        path.append(n)
        got[tuple(path)] = (got.get(tuple(path), (0, 0))[0] + w, x)
    check({k: v[0] for k, v in got.items()} == want,
          "the icicle's nodes are not --folded's stacks (%d nodes, %d prefixes)"
          % (len(got), len(want)))
    # siblings side by side inside their parent
    for x, w, d, n, _, _ in p.nodes:
        check(0 <= x and x + w <= tasks, "node %s at %d+%d outside" % (n, x, w))
    # the log's tail
    log = open(log_path, encoding="utf-8").read()
    if "log" in p.text:
        check(p.text["log"] and log.endswith(p.text["log"]),
              "the log part is not the end of --log")
    report(name + ": the page", "%d icicle nodes, %d tasks" % (len(p.nodes), tasks))


def dom(name, dom_path, netlog_path):
    p = parse(dom_path)
    zoomed = [n for n in p.nodes if n[2] == 2]
    if zoomed:
        z = max(zoomed, key=lambda n: (n[1], -n[0]))
        check(abs(z[5] - 1199.5) < 0.01,
              "the clicked frame %s is %.2f wide, not the whole" % (z[3], z[5]))
        for x, w, d, n, style, width in p.nodes:
            inside = x >= z[0] and x + w <= z[0] + z[1] if d >= 2 else \
                x <= z[0] and x + w >= z[0] + z[1]
            hidden = "display: none" in style
            check(inside != hidden, "after the click %s (d %d) is %s" %
                  (n, d, "hidden" if hidden else "shown"))
    check(p.total is not None and p.nodes, "Chromium's DOM has no icicle")
    # the page's own requests: an initiator that is an origin (the page's
    # is "null" for file://), Chromium's own background ones have none
    reqs = []
    for e in json.load(open(netlog_path)).get("events", []):
        prm = e.get("params") or {}
        url = prm.get("url", "")
        if url and prm.get("initiator", "not an origin") != "not an origin" \
                and not url.startswith(("file:", "data:", "about:")):
            reqs.append(url[:80])
    check(not reqs, "the page made requests: %s" % ", ".join(sorted(set(reqs))[:3]))
    report(name + ": Chromium's DOM and net log",
           "%d nodes, zoom on the widest frame, no request" % len(p.nodes))


def png(name, path):
    from PIL import Image   # python3-pil
    img = Image.open(path).convert("RGB")
    w, h = img.size
    px = img.load()
    # the title: dark text in the top 60 pixels
    dark = sum(1 for y in range(min(60, h)) for x in range(w)
               if max(px[x, y]) < 80)
    check(dark > 200, "no title at the top of the screenshot (%d dark pixels)" % dark)
    # the icicle: the kernel frames' warm colours (src/report_html.c
    # fnode_colour: red 220-254, green 90-209, blue 40-89)
    warm = sum(n for n, (r, g, b) in img.getcolors(w * h)
               if r >= 220 and 90 <= g < 210 and b < 90)
    check(warm > 2000, "no icicle in the screenshot (%d warm pixels)" % warm)
    report(name + ": the screenshot", "%dx%d, %d dark title pixels, %d warm pixels"
           % (w, h, dark, warm))


def report(what, detail):
    global fails
    if fails:
        print("FAIL %s" % what)
        for f in fails[:8]:
            print("    %s" % f)
    else:
        print("PASS %s (%s)" % (what, detail))
    fails = []


def size(page):
    """A window tall enough for the page down to the end of its icicle:
    the lines of the parts above it at 16 px, the icicle's height, and
    room for the headings and text (a screenshot is of the window)."""
    s = open(page, encoding="utf-8").read()
    top = s.split('<svg id="flame"', 1)[0]
    m = re.search(r'<svg id="flame"[^>]* height="(\d+)"', s)
    lines = sum(p.count("\n") for p in re.findall(r"<pre[^>]*>(.*?)</pre>", top, re.S))
    graph = sum(int(float(h)) for h in re.findall(r'<svg width="[^"]*" height="([0-9.]+)pt"', top))
    print("1280,%d" % (900 + 16 * lines + graph * 4 // 3 + (int(m.group(1)) if m else 0)))


if __name__ == "__main__":
    if sys.argv[1] == "size":
        size(sys.argv[2])
        sys.exit(0)
    cmd, name = sys.argv[1:3]
    try:
        if cmd == "static":
            static(name, *sys.argv[3:7])
        elif cmd == "dom":
            dom(name, *sys.argv[3:5])
        elif cmd == "png":
            png(name, sys.argv[3])
    except Exception as e:  # a page it cannot read is a failure, said
        print("FAIL %s: %s: %s: %s" % (name, cmd, type(e).__name__, e))
