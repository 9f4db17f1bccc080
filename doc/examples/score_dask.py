#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Score sharded JSON Lines of model output on a Dask cluster (doc/score.md).

usage: score_dask.py [--scheduler ADDRESS | --local N] [--group-by KEY] [--tier T] [--json] PATH...

PATH is a file or a directory (its files, recursively, in sorted order), as for `plurnk score`.
Each file is one task: a worker scores it with plurnk.score and returns the report as JSON (a
few kB, whatever the shard's size); the reports are merged here. Merging is exact, so the result
is what `plurnk score --json PATH...` prints on one machine, byte for byte.

--scheduler ADDRESS   an existing cluster (tcp://host:8786); every worker needs the plurnk
                      Python package and the shard paths (a shared file system)
--local N             a LocalCluster of N in-process workers (the default: 2)
"""
import os
import sys

from dask.distributed import Client, LocalCluster

import plurnk.score as score


def shard_report(path, group_by, tier):
    """Runs on a worker: one shard's report, as JSON (plain text pickles everywhere)."""
    return score.score_file(path, group_by=group_by, tier=tier).to_json()


def expand(paths):
    files = []
    for p in paths:
        if os.path.isdir(p):
            found = [os.path.join(d, f) for d, _, names in os.walk(p) for f in names]
            files += sorted(f for f in found if os.path.isfile(f))
        else:
            files.append(p)
    return files


def main(argv):
    scheduler, local, group_by, tier, as_json, paths = None, 2, "model", None, False, []
    it = iter(argv)
    for a in it:
        if a == "--scheduler":
            scheduler = next(it)
        elif a == "--local":
            local = int(next(it))
        elif a == "--group-by":
            group_by = next(it)
        elif a == "--tier":
            tier = next(it)
        elif a == "--json":
            as_json = True
        elif a.startswith("-"):
            print(__doc__, file=sys.stderr)
            return 2
        else:
            paths.append(a)
    files = expand(paths)
    if not files:
        print("no input files", file=sys.stderr)
        return 2
    if scheduler:
        client = Client(scheduler)
    else:
        # In-process workers keep the example fast; processes=True (the default) works the same.
        client = Client(LocalCluster(n_workers=local, threads_per_worker=1, processes=False,
                                     dashboard_address=None))
    try:
        futures = client.map(shard_report, files, group_by=group_by, tier=tier, pure=False)
        reports = [score.Report.from_json(text) for text in client.gather(futures)]
    finally:
        client.close()
    total = score.merge(reports)
    sys.stdout.write(total.to_json() + "\n" if as_json else total.to_table())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
