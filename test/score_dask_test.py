#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""doc/examples/score_dask.py on a LocalCluster of 2 workers gives exactly what
`plurnk score --json` gives on the same shards. Skipped (77) without Dask.
usage: score_dask_test.py PLURNK SOURCE_ROOT"""
import os
import subprocess
import sys
import tempfile

try:
    import dask.distributed  # noqa: F401
except ImportError:
    print(f"dask.distributed is not installed for {sys.executable} (Debian: python3-distributed)")
    sys.exit(77)

plurnk, root = sys.argv[1], sys.argv[2]
examples = os.path.join(root, "doc", "examples")
with tempfile.TemporaryDirectory() as tmp:
    shards = os.path.join(tmp, "shards")
    subprocess.run([sys.executable, os.path.join(examples, "score_sample.py"), "--turns", "200", "--shards", "4",
                    shards], check=True)
    failed = False
    for extra in ([], ["--group-by", "file"]):
        cli_args = ["--group-by=" + extra[1]] if extra else []
        cli = subprocess.run([plurnk, "score", "--json", *cli_args, shards], stdout=subprocess.PIPE,
                             check=True).stdout
        dask = subprocess.run([sys.executable, os.path.join(examples, "score_dask.py"), "--local", "2", "--json",
                               *extra, shards], stdout=subprocess.PIPE, check=True).stdout
        same = cli == dask and len(cli) > 1000
        print(("ok   " if same else "FAIL ") + "score_dask.py " + " ".join(extra) + " = plurnk score --json")
        failed = failed or not same
sys.exit(1 if failed else 0)
