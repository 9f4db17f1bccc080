#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""SARIF output (app/sarif.cpp) against the official SARIF 2.1.0 schema (draft-04, vendored as
test/sarif/sarif-schema-2.1.0.json) for every conformance vector whose result has a diagnostic
or an unparsed tail, and against SPEC §14's mapping: one result per diagnostic (in item order)
and one for the tail, levels error/warning, 1-based code-point columns (columnKind
unicodeCodePoints), zero-width regions, every ruleId a rule whose index matches. Then the same
for `plurnk parse --format=sarif` on a file. Needs python3-jsonschema (exits 77 without it).
usage: sarif_test.py SARIF_VECTORS VECTORS.jsonl SCHEMA PLURNK"""
import json
import subprocess
import sys
import tempfile

try:
    import jsonschema
except ImportError:
    print("skipped: python3-jsonschema is not installed (apt-get install python3-jsonschema)")
    sys.exit(77)

exe, vectors, schema_path, plurnk = sys.argv[1:5]
validator = jsonschema.Draft4Validator(json.load(open(schema_path, encoding="utf-8")))
failures = []


def check_log(name, log, result):
    errors = sorted(validator.iter_errors(log), key=lambda e: list(e.path))
    if errors:
        failures.append(f"{name}: not valid SARIF 2.1.0: {errors[0].message} at {list(errors[0].path)}")
        return
    run = log["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    if run.get("columnKind") != "unicodeCodePoints":
        failures.append(f"{name}: columnKind is {run.get('columnKind')}")
    want = [(i["error"]["severity"], i["error"]["message"], i["error"]["line"], i["error"]["column"])
            for i in result["items"] if i["kind"] == "error"]
    if "unparsedTail" in result:
        t = result["unparsedTail"]
        want.append(("error", t["reason"], t["from"]["line"], t["from"]["column"]))
    got = run["results"]
    if len(got) != len(want):
        failures.append(f"{name}: {len(got)} results for {len(want)} diagnostics")
        return
    for k, (r, (level, message, line, column)) in enumerate(zip(got, want)):
        region = r["locations"][0]["physicalLocation"]["region"]
        at = f"{name}: result {k}"
        if r["level"] != level or r["message"]["text"] != message:
            failures.append(f"{at}: level/message {r['level']}/{r['message']['text']!r} for {level}/{message!r}")
        if (region["startLine"], region["startColumn"]) != (line, column + 1):
            failures.append(f"{at}: region starts at {region['startLine']}:{region['startColumn']} for {line}:{column}")
        if (region["endLine"], region["endColumn"]) != (region["startLine"], region["startColumn"]):
            failures.append(f"{at}: region is not zero-width")
        if rules[r["ruleIndex"]]["id"] != r["ruleId"] or not rules[r["ruleIndex"]]["shortDescription"]["text"]:
            failures.append(f"{at}: ruleId {r['ruleId']} is not rule {r['ruleIndex']}")
    if "unparsedTail" in result and not got[-1]["ruleId"].startswith("tail_"):
        failures.append(f"{name}: the tail's result has rule {got[-1]['ruleId']}")


out = subprocess.run([exe, vectors], check=True, capture_output=True, text=True).stdout
count = 0
for line in out.splitlines():
    v = json.loads(line)
    check_log(v["id"], v["log"], v["result"])
    count += 1
total = sum(1 for _ in open(vectors, encoding="utf-8"))
print(f"{count} of {total} vectors have a diagnostic or a tail; every SARIF log checked")
if count < 5000:
    failures.append(f"only {count} vectors with diagnostics: the vectors were not all read")

with tempfile.NamedTemporaryFile("w", suffix=".plurnk", encoding="utf-8") as f:
    f.write("<<PLAN:p:PLAN\n<<FIND(x):/(/:FIND <<GET(a):GET\n\u00e9\u00e9 <<EDIT(b):open")
    f.flush()
    p = subprocess.run([plurnk, "parse", "--format=sarif", f.name], capture_output=True, text=True)
    if p.returncode != 1:
        failures.append(f"parse --format=sarif exited {p.returncode}")
    j = subprocess.run([plurnk, "parse", f.name], capture_output=True, text=True)
    log = json.loads(p.stdout)
    check_log("parse --format=sarif", log, json.loads(j.stdout))
    if log["runs"][0]["artifacts"][0]["location"]["uri"] != f.name:
        failures.append("parse --format=sarif: the artifact is not the file")
    if not any(r["level"] == "warning" for r in log["runs"][0]["results"]):
        failures.append("parse --format=sarif: the near-miss warning is missing")

for m in failures[:20]:
    print("FAIL", m)
sys.exit(1 if failures else 0)
