#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The score report's HTML page in a real browser, fed hostile text: no script may run, and the
text must show as text.

usage: score_html_hostile_test.py PLURNK SCORE_HTML_PAGE

1. JSON Lines whose model names, ids, turns and file name carry markup, script, attribute breaks,
   a javascript: URL and terminal controls, scored by `plurnk score --html` directly and through
   `--json` and `--merge`; 2. the page of a report built in memory with such text in every key and
   string (SCORE_HTML_PAGE writes it); 3. report files whose keys carry a script (as
   ../shared/repro/evil_report.py makes them): `plurnk score --merge` must refuse them, exit 2, one
   line. Each page is loaded in headless Chromium with time to run anything it would run, and its
   DOM (--dump-dom) checked: the title is the page's own, no element or attribute came from the
   text, and the text is there as text. Skipped (77) without Debian's chromium.
"""
import html.parser
import json
import os
import shutil
import subprocess
import sys
import tempfile

PLURNK, PAGE = sys.argv[1], sys.argv[2]
BROWSER = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
if BROWSER is None:
    print("chromium not found: install Debian's chromium to run this test")
    sys.exit(77)

# Each would set the title or add an element or attribute if it ran or parsed as markup.
PAYLOADS = [
    "<script>document.title='PWNED'</script>",
    "\"><img src=x onerror=\"document.title='PWNED'\">",
    "'><svg onload=\"document.title='PWNED'\">",
    "</style><script>document.title='PWNED'</script>",
    "</title></head><body><script>document.title='PWNED'</script>",
    "javascript:document.title='PWNED'",
]
CONTROLS = "\x1b]0;pwned\x07\x1b[31mred\r\n\x7f\u009b31m\u202eevil"
# The page's tags (tbody: the browser adds it to every table).
TAGS = {"html", "head", "meta", "title", "style", "body", "main", "h1", "h2", "p", "b", "div", "small", "section",
        "svg", "line", "text", "tspan", "rect", "table", "tbody", "tr", "th", "td", "br", "code", "span", "i",
        "pre", "mark"}
fails = 0


def check(name, ok, detail=""):
    global fails
    print(("ok   " if ok else "FAIL ") + name + ("" if ok or not detail else ": " + detail))
    fails += 0 if ok else 1


class Dom(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags, self.attrs, self.text, self.title, self._in_title = set(), [], [], None, False

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        self.attrs += [(tag, k, v) for k, v in attrs]
        self._in_title = tag == "title" and self.title is None  # the document's (SVG bars have theirs)
        if self._in_title:
            self.title = ""

    def handle_endtag(self, tag):
        self._in_title = False

    def handle_data(self, data):
        self.text.append(data)
        if self._in_title:
            self.title += data


def dom_of(page, tmp):
    """The DOM Chromium has after loading `page` and running whatever it would run."""
    out = subprocess.run([BROWSER, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                          "--disable-extensions", "--no-first-run", "--user-data-dir=" + os.path.join(tmp, "profile"),
                          "--virtual-time-budget=3000", "--dump-dom", "file://" + page],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    if out.returncode != 0 or b"<html" not in out.stdout:
        check("chromium dumped the DOM of " + os.path.basename(page), False, out.stderr.decode()[-2000:])
        return None
    d = Dom()
    d.feed(out.stdout.decode("utf-8", "replace"))
    return d


def check_page(what, page, tmp, expect_text):
    d = dom_of(page, tmp)
    if d is None:
        return
    check(f"{what}: the title is the page's own", d.title == "plurnk score", repr(d.title))
    check(f"{what}: no element came from the text", d.tags <= TAGS, str(sorted(d.tags - TAGS)))
    bad = [(t, k) for t, k, v in d.attrs if k.startswith("on") or k in ("href", "src", "xlink:href", "srcdoc", "data-pwned")]
    check(f"{what}: no event handler or URL attribute", not bad, str(bad))
    text = "".join(d.text)
    check(f"{what}: no script ran", "PWNED" not in d.title and "pwned" not in d.title)
    for p in expect_text:
        check(f"{what}: {p[:30]!r}... shows as text", p in text)
    check(f"{what}: no terminal control in the text", not any(c in text for c in "\x1b\x07\x7f\u009b\u202e"))


def run(*args):
    return subprocess.run([PLURNK, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)


with tempfile.TemporaryDirectory() as tmp:
    # 1. Hostile input, scored.
    records = os.path.join(tmp, "\"><svg onload=alert(1)> <script>x<\\script>.jsonl")  # no "/" in a name
    with open(records, "w", encoding="utf-8") as f:
        for i, p in enumerate(PAYLOADS + [CONTROLS]):
            f.write(json.dumps({"id": p, "model": p, "text": "<<PLAN:g:PLAN\n<<" + p + "\n<<SEND[200]:" + p + ":SEND"}) + "\n")
            f.write(json.dumps({"id": str(i), "model": p, "text": p}) + "\n")
        f.write("not a record " + PAYLOADS[0] + "\n")
    direct = os.path.join(tmp, "direct.html")
    r = run("score", "--html=" + direct, records)
    check("score --html of hostile input", r.returncode == 0, r.stderr.decode())
    report = os.path.join(tmp, "report.json")
    r = run("score", "--json", records)
    check("score --json of hostile input", r.returncode == 0, r.stderr.decode())
    with open(report, "wb") as f:
        f.write(r.stdout)
    merged = os.path.join(tmp, "merged.html")
    r = run("score", "--merge", "--html=" + merged, report)
    check("score --merge reads its own report back", r.returncode == 0, r.stderr.decode())
    crosstab = os.path.join(tmp, "crosstab.html")  # both keys hostile: the cross-tab's rows and columns
    r = run("score", "--group-by=model,id", "--html=" + crosstab, records)
    check("score --group-by=model,id --html of hostile input", r.returncode == 0, r.stderr.decode())
    for what, page in (("scored", direct), ("merged", merged), ("cross-tab", crosstab)):
        if os.path.exists(page):
            check_page(what, page, tmp, PAYLOADS)

    # 2. Every key and string hostile (a report built in memory).
    page = os.path.join(tmp, "keys.html")
    subprocess.run([PAGE, page], check=True)
    check_page("every key hostile", page, tmp, PAYLOADS)

    # 3. Report files with a script in a key: refused.
    good = json.loads(open(report, encoding="utf-8").read())
    payload = "<script>document.title='PWNED'</script>"
    edits = {
        "dispositions": lambda g: g.__setitem__("dispositions", {payload: g["shapeChecked"]}),
        "ops": lambda g: g.__setitem__("ops", {payload: g["statements"]}),
        "suffixes": lambda g: g.__setitem__("suffixes", {payload: g["statements"]}),
        "tiers": lambda g: g.__setitem__("tiers", {payload: g["turns"]}),
        "errors": lambda g: g["errors"].__setitem__(payload, next(iter(g["errors"].values()))),
        "rail": lambda g: g["rail"].__setitem__(payload, 0),
    }
    for name, edit in edits.items():
        evil = json.loads(json.dumps(good))
        for g in list(evil["groups"].values()) + [evil["total"]]:
            if name != "errors" or g["errors"]:
                edit(g)
        path = os.path.join(tmp, "evil-" + name + ".json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(evil, f)
        out = os.path.join(tmp, "evil-" + name + ".html")
        r = run("score", "--merge", "--html=" + out, path)
        err = r.stderr.decode()
        check(f"a script in a {name} key: refused, exit 2", r.returncode == 2, f"exit {r.returncode}")
        check(f"a script in a {name} key: one line", err.count("\n") == 1 and "not a score report" in err, repr(err))
        check(f"a script in a {name} key: no page written", not os.path.exists(out))
        if os.path.exists(out):
            check_page("evil " + name, out, tmp, [])

sys.exit(1 if fails else 0)
