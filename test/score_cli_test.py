#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""plurnk score from the outside.

usage: score_cli_test.py PLURNK SOURCE_ROOT

- On the public conformance inputs grouped by family, every count agrees with what
  `plurnk batch` answers for the same requests, item by item (turns, clean turns, statements,
  text items, ops, suffixes, turn shape and SEND dispositions recomputed from the statements;
  error, advisory and unparsedTail items: the same number, each class's example is one of the
  messages batch gave and fits the class's template, no class counts more messages than fit
  its template, and every message fits a class).
- The report does not depend on --jobs; shards scored apart and merged with --merge equal one
  run over all of them, byte for byte; reports of different groupings refuse to merge.
- Directories of turn files, usage errors, the table and the page.
"""
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict

PLURNK, ROOT = sys.argv[1], sys.argv[2]
fails = 0


def check(name, ok, detail=""):
    global fails
    print(("ok   " if ok else "FAIL ") + name + ("" if ok else ": " + detail))
    fails += 0 if ok else 1


def run(*args, stdin=None):
    return subprocess.run([PLURNK, *args], input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def family(vid):
    return re.match(r"[A-Za-z]*", vid).group(0)


DISPOSITIONS = {102, 200, 202, 300, 499}


def expected_groups(vectors, answers):
    groups = defaultdict(lambda: defaultdict(Counter))
    for v in vectors:
        res = answers[v["id"]]
        g = groups[family(v["id"])]
        c = g["n"]
        c["turns"] += 1
        c["bytes"] += len(v["input"].encode("utf-8"))
        items = res["items"]
        errs = [i["error"] for i in items if i["kind"] == "error"]
        stmts = [i["statement"] for i in items if i["kind"] == "statement"]
        c["clean"] += not errs and "unparsedTail" not in res
        c["statements"] += len(stmts)
        c["textItems"] += sum(i["kind"] == "text" for i in items)
        c["turnsWithErrors"] += any(e["severity"] == "error" for e in errs)
        c["turnsWithWarnings"] += any(e["severity"] == "warning" for e in errs)
        c["turnsWithTail"] += "unparsedTail" in res
        for s in stmts:
            g["ops"][s["op"]] += 1
            g["suffixes"][s["suffix"]] += 1
        for e in errs:
            g["errors" if e["severity"] == "error" else "warnings"][e["message"]] += 1
        if "unparsedTail" in res:
            g["tails"][res["unparsedTail"]["reason"]] += 1
        if v["tier"] == "parse":
            c["shapeChecked"] += 1
            if not stmts or stmts[0]["op"] != "PLAN":
                g["shape"]["no-plan-first"] += 1
            term = next((k for k, s in enumerate(stmts) if s["op"] == "SEND" and s["signal"] in DISPOSITIONS), None)
            if term is None:
                g["shape"]["no-terminal-send"] += 1
                g["dispositions"]["none"] += 1
            else:
                g["dispositions"][str(stmts[term]["signal"])] += 1
                at = items.index({"kind": "statement", "statement": stmts[term]})
                if any(i["kind"] == "statement" or (i["kind"] == "error" and i["error"]["severity"] == "error")
                       for i in items[at + 1:]):
                    g["shape"]["ops-after-send"] += 1
    return groups


def template_regex(template):
    """A message table template ("unexpected {found}; expected {expected}") as a regex."""
    parts = re.split(r"\{[a-z_]+\}", template)
    return re.compile("(?s)" + ".*".join(re.escape(p) for p in parts))


def conformance():
    corpus = os.path.join(ROOT, "test", "conformance", "parser.jsonl")
    vectors = [json.loads(line) for line in open(corpus, encoding="utf-8")]
    requests = "".join(json.dumps({"id": v["id"], "tier": v["tier"], "input": v["input"]}, ensure_ascii=False) + "\n"
                       for v in vectors).encode("utf-8")
    batch = run("batch", stdin=requests)
    answers = {}
    for line in batch.stdout.decode("utf-8").splitlines():
        rec = json.loads(line)
        answers[rec["id"]] = rec["result"]
    check("batch answers every vector", len(answers) == len(vectors))
    score = run("score", "--group-by=family", "--json", corpus)
    check("score exits 0", score.returncode == 0, score.stderr.decode())
    report = json.loads(score.stdout)
    want = expected_groups(vectors, answers)
    check("the same families", sorted(report["groups"]) == sorted(want), f"{sorted(report['groups'])} {sorted(want)}")
    for fam, exp in sorted(want.items()):
        got = report["groups"].get(fam, {})
        for k, n in exp["n"].items():
            check(f"family {fam}: {k} = {n}", got.get(k) == n, f"score says {got.get(k)}")
        for k in ("ops", "suffixes", "dispositions"):
            check(f"family {fam}: {k}", got.get(k) == dict(exp[k]), f"{got.get(k)} != {dict(exp[k])}")
        counts = {c: t["count"] for c, t in got.get("shape", {}).items()}
        check(f"family {fam}: shape", counts == dict(exp["shape"]), f"{counts} != {dict(exp['shape'])}")
        for k in ("errors", "warnings", "tails"):
            classes = got.get(k, {})
            messages = exp[k]  # rendered message -> items, from plurnk batch
            check(f"family {fam}: {k}: {sum(messages.values())} items in {len(classes)} classes",
                  sum(t["count"] for t in classes.values()) == sum(messages.values()))
            patterns = {}
            for c, t in classes.items():
                if c.startswith("external: "):
                    patterns[c] = re.compile(re.escape(c[len("external: "):]))
                elif "template" not in t:
                    check(f"family {fam}: class {c} has a template", False)
                    continue
                else:
                    patterns[c] = template_regex(t["template"])
                matching = sum(n for m, n in messages.items() if patterns[c].fullmatch(m))
                exs = [e["message"] for e in t["examples"]]
                check(f"family {fam}: {k} {c}: {t['count']} items, examples fit the template",
                      0 < len(exs) <= min(3, t["turns"]) and t["count"] <= matching and
                      all(patterns[c].fullmatch(ex) is not None and ex in messages for ex in exs),
                      f"{exs!r}, {t['count']} > {matching}")
            unclassed = [m for m in messages if not any(p.fullmatch(m) for p in patterns.values())]
            check(f"family {fam}: every {k} message fits a class found", not unclassed, repr(unclassed[:3]))
    print(f"conformance: {len(vectors)} vectors, {len(want)} families")
    near_misses_on_prose(vectors, report)


def near_misses_on_prose(vectors, report):
    """Near-misses (doc/score.md) on the prose of the vectors: the text items of their expected
    results. The only lines flagged are in family g (mutated statements), 162 of its 3,915 text
    lines, each one read and found to be statement debris; prose elsewhere, and the docs'
    English with their fenced statements, has none."""
    lines = Counter()
    for v in vectors:
        seen = set()
        for i in v["expected"]["items"]:
            if i["kind"] == "text":
                seen.update(i["position"]["line"] + n for n in range(i["text"].count("\n") + 1))
        lines[family(v["id"])] += len(seen)
    flagged = {f: sum(t["count"] for t in g.get("nearMisses", {}).values()) for f, g in report["groups"].items()}
    total = sum(lines.values())
    print(f"near-misses on the vectors' prose: {sum(flagged.values())} of {total} text lines, {dict(flagged)}")
    check("near-misses on the vectors' prose: only in the mutated statements of family g, at most 162 lines",
          all(n == 0 for f, n in flagged.items() if f != "g") and 0 < flagged.get("g", 0) <= 162, str(flagged))
    docs = [os.path.join(ROOT, "README.md")] + sorted(
        os.path.join(ROOT, "doc", f) for f in os.listdir(os.path.join(ROOT, "doc")) if f.endswith(".md"))
    r = run("score", "--json", "--channel=", *docs)
    got = json.loads(r.stdout) if r.returncode == 0 else {}
    check("near-misses on the docs' prose: none", r.returncode == 0 and got["total"]["textItems"] > 10000 and
          not got["total"].get("nearMisses"), repr(got.get("total", {}).get("nearMisses")))


def merging(tmp):
    sample = os.path.join(ROOT, "doc", "examples", "score_sample.py")
    shards = os.path.join(tmp, "shards")
    subprocess.run([sys.executable, sample, "--turns", "120", "--shards", "3", shards], check=True)
    files = sorted(os.path.join(shards, f) for f in os.listdir(shards))
    one = run("score", "--json", "--jobs=1", *files)
    many = run("score", "--json", "--jobs=3", *files)
    check("--jobs does not change the report", one.stdout == many.stdout and one.returncode == 0)
    by_dir = run("score", "--json", shards)
    check("a directory is its files, sorted", by_dir.stdout == one.stdout)
    parts = []
    for k, f in enumerate(reversed(files)):
        part = os.path.join(tmp, f"part{k}.json")
        with open(part, "wb") as out:
            out.write(run("score", "--json", f).stdout)
        parts.append(part)
    merged = run("score", "--merge", "--json", *parts)
    check("merged shards equal one run, byte for byte", merged.stdout == one.stdout, merged.stderr.decode())
    report = json.loads(one.stdout)
    check("three models", sorted(report["groups"]) == ["model-a", "model-b", "model-c"])
    check("360 turns", report["total"]["turns"] == 360)
    other = os.path.join(tmp, "byfile.json")
    with open(other, "wb") as out:
        out.write(run("score", "--json", "--group-by=file", files[0]).stdout)
    bad = run("score", "--merge", parts[0], other)
    check("different groupings refuse to merge", bad.returncode == 2 and b"grouped differently" in bad.stderr)
    table = run("score", *files).stdout.decode()
    check("the table lists the models", all(m in table for m in ("model-a", "model-b", "model-c")))
    # The classes per model in the table: a column per model, each cell the JSON's turns.
    block = table.split("\nclasses per model ", 1)[1].split("\n\n", 1)[0].splitlines() if "\nclasses per model " in table else []
    head = block[1].split() if len(block) > 1 else []
    rows = [re.findall(r"(\S+)\s", line + " ")[:1] + re.findall(r"\((\d[\d,]*)\)", line) for line in block[2:]]
    kinds = ("errors", "warnings", "tails", "shape", "nearMisses")
    def turns(g, c):
        return next((g[k][c]["turns"] for k in kinds if c in g.get(k, {})), 0)
    models = ["model-a", "model-b", "model-c"]
    check("the table has the classes per model, each cell the JSON's turns",
          head == ["class"] + models + ["total"] and len(rows) == 10 and all(
              [int(n.replace(",", "")) for n in r[1:]] == [turns(report["groups"][m], r[0]) for m in models] +
              [turns(report["total"], r[0])] for r in rows), repr(block[:4]))
    html = os.path.join(tmp, "r.html")
    page = run("score", "--html=" + html, *files)
    text = open(html, encoding="utf-8").read() if page.returncode == 0 else ""
    check("--html writes a page", "<svg" in text and "model-c" in text and "<script" not in text)
    # stdin, and JSON Lines with an invalid line
    lines = open(files[0], "rb").read() + b"oops\n"
    got = json.loads(run("score", "--json", stdin=lines).stdout)
    check("stdin; an invalid line is counted", got["invalidRecords"]["count"] == 1 and
          got["invalidRecords"]["example"]["file"] == "-")


def progress_and_fields(tmp):
    import pty
    path = os.path.join(tmp, "fields.jsonl")
    with open(path, "w") as f:
        for i in range(50):
            f.write(json.dumps({"id": i, "task": ["a", "b"][i % 2], "text": "<<PLAN:g:PLAN<<SEND[200]:d:SEND"}) + "\n")
    got = json.loads(run("score", "--json", "--group-by=task", path).stdout)
    check("--group-by=FIELD", {k: g["turns"] for k, g in got["groups"].items()} == {"a": 25, "b": 25})
    check("a number id is its JSON text", got["groups"]["a"]["rail"] == {"none": 25} and
          run("score", "--json", "--group-by=id", path).stdout.count(b'"49"') >= 1)
    quiet = run("score", path)
    check("no progress when stderr is not a terminal", quiet.stderr == b"")
    master, slave = pty.openpty()
    p = subprocess.run([PLURNK, "score", path], stdout=subprocess.PIPE, stderr=slave)
    os.close(slave)
    shown = os.read(master, 4096)
    os.close(master)
    check("progress on a terminal", p.returncode == 0 and b"turns/s" in shown and b"MB/s" in shown, repr(shown))


def text_field(tmp):
    path = os.path.join(tmp, "prompt-answer.jsonl")
    with open(path, "w") as f:
        for i in range(30):
            f.write(json.dumps({"id": i, "prompt": "do it", "answer\x1b[2J": "<<PLAN:g:PLAN<<SEND[200]:d:SEND"}) + "\n")
    r = run("score", path)
    err = r.stderr.decode()
    check("no record yields a turn: exit 2, one line naming the fields seen",
          r.returncode == 2 and r.stdout == b"" and err.count("\n") == 1 and "30 lines are not records" in err and
          '"answer\\u001b[2J", "id", "prompt"' in err and "--text-field" in err and "\x1b" not in err, repr(err))
    r = run("score", "--json", "--text-field=answer\x1b[2J", path)
    got = json.loads(r.stdout) if r.returncode == 0 else {}
    check("--text-field=NAME reads the text there", got.get("total", {}).get("clean") == 30, repr(r.stderr))
    r = run("score", "--json", "--text-field=prompt", path)
    got = json.loads(r.stdout) if r.returncode == 0 else {}
    check("--text-field=NAME reads only that field", got.get("total", {}).get("statements") == 0 and
          got["total"]["turns"] == 30, repr(r.stderr))
    r = run("score", "--text-field=missing", path)
    check("--text-field naming a field no record has: exit 2", r.returncode == 2 and
          b'no string field \\"missing\\"' not in r.stderr and b'no string field "missing"' in r.stderr, repr(r.stderr))
    r = run("score", "-", stdin=b"")
    check("no records at all: exit 2", r.returncode == 2 and b"no records" in r.stderr, repr(r.stderr))
    r = run("score", "--text-field=", path)
    check("--text-field= is a usage error", r.returncode == 2 and b"needs a field name" in r.stderr)


def tables(tmp):
    """--format=csv and --format=latex against the JSON report of three models."""
    import csv
    import io
    sample = os.path.join(tmp, "three.jsonl")
    with open(sample, "wb") as f:
        f.write(subprocess.run([sys.executable, os.path.join(ROOT, "doc/examples/score_sample.py"), "--turns", "300"],
                               stdout=subprocess.PIPE, check=True).stdout)
    rep = json.loads(run("score", "--json", sample).stdout)
    rows = list(csv.DictReader(io.StringIO(run("score", "--format=csv", sample).stdout.decode())))
    by = defaultdict(list)
    for row in rows:
        by[row["table"]].append(row)
    check("csv: the tables", sorted(by) == ["classes", "comparisons", "rates", "total_classes", "total_rates"], str(sorted(by)))
    near = lambda a, b: abs(float(a) - b) < 2e-6

    def rates_ok(rs, g):
        want = {"clean": (g["clean"], g["rates"]["clean"]), "errors": (g["turnsWithErrors"], g["rates"]["errors"]),
                "warnings": (g["turnsWithWarnings"], g["rates"]["warnings"]), "tail": (g["turnsWithTail"], g["rates"]["tail"])}
        for ch, rt in g["rates"]["rail"].items():
            want["rail/" + ch] = (g["rail"].get(ch, 0), rt)
        got = {r["metric"]: r for r in rs}
        return sorted(got) == sorted(want) and all(
            int(got[m]["count"]) == k and int(got[m]["of"]) == g["turns"] and near(got[m]["value"], rt["rate"]) and
            near(got[m]["low"], rt["low"]) and near(got[m]["high"], rt["high"]) for m, (k, rt) in want.items())

    def classes_ok(rs, g):
        want = {f"{kind}/{c}": t for kind in ("errors", "warnings", "tails", "shape", "nearMisses", "offRail")
                for c, t in g[kind].items()}
        got = {r["metric"]: r for r in rs}
        return sorted(got) == sorted(want) and all(
            int(got[m]["count"]) == t["turns"] and int(got[m]["events"]) == t["count"] and
            int(got[m]["of"]) == (g["shapeChecked"] if m.startswith("shape/") else g["turns"]) for m, t in want.items())

    check("csv: total_rates are the JSON total's", rates_ok(by["total_rates"], rep["total"]))
    check("csv: rates per group are the JSON groups'", sorted({r["group"] for r in by["rates"]}) == sorted(rep["groups"]) and
          all(rates_ok([r for r in by["rates"] if r["group"] == k], g) for k, g in rep["groups"].items()))
    check("csv: every class of the total", classes_ok(by["total_classes"], rep["total"]))
    check("csv: every class of every group", len(rep["groups"]) == 3 and
          all(classes_ok([r for r in by["classes"] if r["group"] == k], g) for k, g in rep["groups"].items()))
    items = rep["comparisons"]["items"]
    check("json: comparisons of 3 pairs on clean and 10 classes, Holm-corrected",
          len(items) == 33 and rep["comparisons"]["correction"] == "holm" and
          all(i["pHolm"] >= i["p"] - 1e-9 and i["low"] <= i["difference"] <= i["high"] for i in items), str(len(items)))
    check("csv: the comparisons are the JSON's", len(by["comparisons"]) == len(items) and all(
        (r["group"], r["other"], r["metric"]) == (i["a"], i["b"], i["metric"]) and
        (int(r["count"]), int(r["of"]), int(r["other_count"]), int(r["other_of"])) ==
        (i["aCount"], i["aTurns"], i["bCount"], i["bTurns"]) and
        all(near(r[c], i[j]) for c, j in (("value", "difference"), ("low", "low"), ("high", "high"), ("p", "p"),
                                          ("p_holm", "pHolm")))
        for r, i in zip(by["comparisons"], items)))
    tex = run("score", "--format=latex", "--top=5", sample).stdout.decode()
    check("latex: four booktabs tables", tex.count("\\begin{tabular}") == 4 and tex.count("\\toprule") == 4)
    pct = lambda x: f"{x * 100:.1f}\\%"
    off = tex[tex.find("rule & "):] if "rule & " in tex else ""
    check("latex: the off-rail table, each rule's share per group as in the JSON", rep["total"]["offRail"] and all(
        "\\texttt{" + rule + "}" + "".join(
            " & " + pct(g["offRail"].get(rule, {"turns": 0})["turns"] / g["turns"]) for g in rep["groups"].values()) +
        " & " + pct(t["turns"] / rep["total"]["turns"]) in off
        for rule, t in sorted(rep["total"]["offRail"].items(), key=lambda x: -x[1]["turns"])[:5]))
    pts = lambda x: f"{x * 100:+.1f}"
    rates_in = all(f"{k} & {g['turns']} & {pct(g['rates']['clean']['rate'])} [{pct(g['rates']['clean']['low'])}, "
                   f"{pct(g['rates']['clean']['high'])}]" in tex for k, g in rep["groups"].items())
    check("latex: each group's clean rate and interval as in the JSON", rates_in)
    cmp_in = all(f"{pts(i['difference'])} [{pts(i['low'])}, {pts(i['high'])}]" in tex for i in items)
    check("latex: every comparison's difference and interval as in the JSON", cmp_in)
    r = run("score", "--format=latex", "--format=csv", sample)
    check("--format=latex --format=csv is a usage error", r.returncode == 2)


def crosstab(tmp):
    """--group-by=A,B: a group per cell, laid out as a cross-tab in every output; merging stays exact."""
    import csv
    import io
    lines = subprocess.run([sys.executable, os.path.join(ROOT, "doc/examples/score_sample.py"), "--turns", "60"],
                           stdout=subprocess.PIPE, check=True).stdout.decode().splitlines()
    halves = [os.path.join(tmp, "ct-a.jsonl"), os.path.join(tmp, "ct-b.jsonl")]
    lost = json.loads(lines[0])
    del lost["model"]  # a record without the first key: the value null
    lost["id"] = "lost"
    for i, path in enumerate(halves):
        with open(path, "w") as f:
            f.write("\n".join(lines[i::2] + ([json.dumps(lost)] if i else [])) + "\n")
    rep = json.loads(run("score", "--json", "--group-by=model,file", *halves).stdout)
    cells = {tuple(json.loads(k)): g for k, g in rep["groups"].items()}
    check("json: a group per (model, file) cell, a missing model as null",
          rep["groupBy"] == "model,file" and len(cells) == 7 and (None, halves[1]) in cells and
          all(len(k) == 2 for k in cells) and sum(g["turns"] for g in cells.values()) == 181, str(sorted(cells, key=str)))
    pct = lambda x: f"{x * 100:.1f}"
    def cell(g, p, dash):
        c = g["rates"]["clean"]
        return f"{pct(c['rate'])}{p} [{pct(c['low'])}{p}{dash}{pct(c['high'])}{p}] ({g['turns']})"
    table = run("score", "--group-by=model,file", *halves).stdout.decode()
    check("table: the cross-tab, a cell per (model, file)", "clean by model \u00d7 file" in table and
          all(cell(g, "%", "\u2013") in table for g in cells.values()) and "(missing)" in table)
    rows = [r for r in csv.DictReader(io.StringIO(run("score", "--format=csv", "--group-by=model,file", *halves).stdout.decode()))
            if r["table"] == "crosstab"]
    check("csv: the crosstab rows are the JSON cells'", len(rows) == len(cells) and all(
        (int(r["count"]), int(r["of"])) == (g["clean"], g["turns"]) and
        all(abs(float(r[c]) - g["rates"]["clean"][j]) < 2e-6 for c, j in (("value", "rate"), ("low", "low"), ("high", "high")))
        for r in rows for g in [cells[(r["group"] or None, r["other"])]]), str(rows[:2]))
    tex = run("score", "--format=latex", "--group-by=model,file", *halves).stdout.decode()
    check("latex: the cross-tab table, each cell as in the JSON", "model $\\backslash$ file" in tex and
          all(cell(g, "\\%", ", ") in tex for g in cells.values()))
    page = os.path.join(tmp, "ct.html")
    run("score", "--group-by=model,file", "--html=" + page, *halves)
    html = open(page, encoding="utf-8").read()
    section = html[html.find('<section id="crosstab">'):]
    section = section[:section.find("</section>")]
    check("html: the cross-tab section, a cell per (model, file)", section and
          all(cell(g, "%", "\u2013") in section for g in cells.values()))
    one = run("score", "--format=csv", "--group-by=model", *halves).stdout.decode()
    check("one key: no cross-tab", "crosstab," not in one and "clean by" not in run("score", *halves).stdout.decode())
    reports = []
    for i, path in enumerate(halves):
        reports.append(os.path.join(tmp, f"ct-{i}.json"))
        with open(reports[-1], "wb") as f:
            f.write(run("score", "--json", "--group-by=model,file", path).stdout)
    merged = run("score", "--merge", "--json", *reports).stdout
    check("a merge of the two halves equals one run, byte for byte",
          merged == run("score", "--json", "--group-by=model,file", *halves).stdout)
    bad = dict(json.loads(open(reports[0]).read()))
    bad["groups"] = {"model-a": g for g in list(bad["groups"].values())[:1]}
    bad["total"] = next(iter(bad["groups"].values()))
    path = os.path.join(tmp, "ct-bad.json")
    with open(path, "w") as f:
        json.dump(bad, f)
    r = run("score", "--merge", "--json", path)
    check("--merge refuses a cross-tab report whose group key is not a cell", r.returncode == 2 and b"cross-tab cell" in r.stderr,
          repr(r.stderr))
    r = run("score", "--group-by=model,file,tier", halves[0])
    check("three keys are a usage error", r.returncode == 2 and b"one key or two" in r.stderr, repr(r.stderr))


def sarif(tmp):
    """--format=sarif: one artifact per turn, one result per diagnostic and per unparsedTail; valid
    against the official schema when jsonschema is installed for this interpreter."""
    sample = os.path.join(tmp, "sarif.jsonl")
    subprocess.run([sys.executable, os.path.join(ROOT, "doc", "examples", "score_sample.py"), "--turns", "30",
                    sample], check=True)
    out = run("score", "--format=sarif", sample)
    check("--format=sarif exits 0", out.returncode == 0, out.stderr.decode())
    log = json.loads(out.stdout)
    recs = [json.loads(line) for line in open(sample, encoding="utf-8")]
    answers = run("batch", stdin="".join(json.dumps({"id": r["id"], "tier": r["tier"], "input": r["text"]}) + "\n"
                                         for r in recs).encode()).stdout.decode().splitlines()
    want = 0
    for line in answers:
        res = json.loads(line)["result"]
        want += sum(i["kind"] == "error" for i in res["items"]) + ("unparsedTail" in res)
    run0 = log["runs"][0]
    check("SARIF 2.1.0", log.get("version") == "2.1.0")
    check("an artifact per record", len(run0.get("artifacts", [])) == len(recs), str(len(run0.get("artifacts", []))))
    check(f"a result per diagnostic and tail ({want})", len(run0.get("results", [])) == want,
          str(len(run0.get("results", []))))
    check("records are FILE#ID", run0["artifacts"][0]["location"]["uri"] == sample + "#p00000")
    # Enough records for the artifacts to pass the writer's 64 KB spool (a temporary file): each
    # result still points at its own record's artifact, and they come out in order.
    many = os.path.join(tmp, "many.jsonl")
    with open(many, "w") as f:
        for i in range(3000):
            f.write(json.dumps({"id": f"r{i}", "text": "<<PLAN:p:PLAN\n<<READ(a" + "x" * (i % 7)}) + "\n")
    big = json.loads(run("score", "--format=sarif", many).stdout)["runs"][0]
    uris = [a["location"]["uri"] for a in big["artifacts"]]
    check("3,000 artifacts, in record order", uris == [f"{many}#r{i}" for i in range(3000)], str(len(uris)))
    check("each result at its record's artifact", len(big["results"]) == 3000 and all(
        r["locations"][0]["physicalLocation"]["artifactLocation"] == {"uri": f"{many}#r{i}", "index": i}
        for i, r in enumerate(big["results"])))
    check("each artifact's length is its turn's", [a["length"] for a in big["artifacts"]] ==
          [len("<<PLAN:p:PLAN\n<<READ(a" + "x" * (i % 7)) for i in range(3000)])
    try:
        import jsonschema
    except ImportError:
        print(f"(jsonschema not installed for {sys.executable}: schema check left to test/sarif)")
        return
    schema = json.load(open(os.path.join(ROOT, "test", "sarif", "sarif-schema-2.1.0.json"), encoding="utf-8"))
    errors = list(jsonschema.Draft4Validator(schema).iter_errors(log))
    check("the log validates against the SARIF schema", not errors, str(errors[:1]))


def limits(tmp):
    """Counts up to 2^53 - 1 read back; a merge past them, or counts that disagree, is an error."""
    recs = os.path.join(tmp, "one.jsonl")
    with open(recs, "w") as f:
        f.write(json.dumps({"id": "a", "model": "m", "text": "<<PLAN:g:PLAN\n<<SEND[200]:d:SEND"}) + "\n")
    report = json.loads(run("score", "--json", recs).stdout)

    def scaled(node, f):
        if isinstance(node, dict):
            return {k: (v if k in ("example", "examples", "template") else scaled(v, f)) for k, v in node.items() if k != "rates"}
        return node * f if isinstance(node, int) else node

    def largest(node):
        if isinstance(node, dict):
            return max((largest(v) for k, v in node.items() if k not in ("rates", "example", "examples", "template")), default=0)
        return node if isinstance(node, int) else 0

    factor = (2 ** 53 - 1) // largest(report["total"])  # the largest count (bytes) just under 2^53
    big = dict(report, total=scaled(report["total"], factor), groups=scaled(report["groups"], factor))
    path = os.path.join(tmp, "big.json")
    with open(path, "w") as f:
        json.dump(big, f)
    r = run("score", "--merge", "--json", path)
    counts = lambda rep: {k: scaled(v, 1) for k, v in rep.items()}  # the counts (rates are derived)  # noqa: E731
    check("a report with counts near 2^53 - 1 reads back as written",
          r.returncode == 0 and counts(json.loads(r.stdout)) == counts(big), r.stderr.decode())
    r = run("score", "--merge", "--json", path, path)
    err = r.stderr.decode()
    check("a merge past 2^53 - 1 is an error, one line, exit 2", r.returncode == 2 and err.count("\n") == 1 and
          "2^53" in err, repr(err))
    bad = json.loads(json.dumps(report))
    for g in list(bad["groups"].values()) + [bad["total"]]:
        g["clean"] = 10 * g["turns"]
    path = os.path.join(tmp, "bad.json")
    with open(path, "w") as f:
        json.dump(bad, f)
    r = run("score", "--merge", path)
    err = r.stderr.decode()
    check("more clean turns than turns is an error, not 1000.0%", r.returncode == 2 and "inconsistent" in err and
          "1000" not in r.stdout.decode(), repr(err))


def turn_files(tmp):
    d = os.path.join(tmp, "turns")
    os.makedirs(os.path.join(d, "sub"))
    for name, text in (("a.plurnk", "<<PLAN:g:PLAN\n<<SEND[200]:d:SEND"), ("sub/b.txt", "<<READ(a)::READ")):
        with open(os.path.join(d, name), "w") as f:
            f.write(text)
    got = json.loads(run("score", "--json", "--group-by=file", d).stdout)
    check("a directory of turn files, one turn each", sorted(got["groups"]) == [os.path.join(d, "a.plurnk"),
                                                                                   os.path.join(d, "sub", "b.txt")])
    check("turn files are scored", got["total"]["turns"] == 2 and got["total"]["clean"] == 1)
    for args, what in ((["--jobs=0"], "--jobs=0"), (["--channel=gemmma"], "unknown channel"),
                       (["--tier=x"], "unknown tier"), (["--merge"], "--merge without files"),
                       (["--bogus"], "unknown option"), ([os.path.join(d, "missing.jsonl")], "missing file")):
        r = run("score", *args)
        check(f"usage or file error: {what}", r.returncode == 2, str(r.returncode))
    # Every error is one line of text, whatever the name or key it quotes.
    odd = os.path.join(d, "two\nlines \x1b[31mred.jsonl")
    with open(odd + ".report", "w") as f:
        f.write('{"plurnkScore":3,"groupBy":"model","channels":[],"invalidRecords":{"count":0,"example":null},'
                '"total":{},"groups":{"m":{"turns":1,"ops":{"\\n\\u001b[2J":1}}}}')
    for args, what in (([odd], "a missing file with a line break and ESC in its name"),
                       (["--merge", odd + ".report"], "a report named so, with such a key")):
        r = run("score", *args)
        err = r.stderr.decode()
        check(f"one line, exit 2: {what}", r.returncode == 2 and err.count("\n") == 1 and "\x1b" not in err, repr(err))


with tempfile.TemporaryDirectory() as tmp:
    conformance()
    merging(tmp)
    progress_and_fields(tmp)
    text_field(tmp)
    tables(tmp)
    crosstab(tmp)
    sarif(tmp)
    limits(tmp)
    turn_files(tmp)
sys.exit(1 if fails else 0)
