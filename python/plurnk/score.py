# SPDX-License-Identifier: MIT
"""plurnk.score: the benchmark scorer of `plurnk score` (doc/score.md), with mergeable reports.

    import plurnk.score as score
    s = score.Scorer(group_by="model")              # tier=None, channels=("gemma", "think", "none")
    r = s.score_jsonl(open("run.jsonl").read(), file="run.jsonl")
    r = s.score_records([{"id": "1", "model": "m", "text": "<<PLAN:…"}], file="mem")
    r = s.score_texts(["<<PLAN:g:PLAN<<SEND[200]:d:SEND"], group="m")
    r.to_json(); score.Report.from_json(text); r.merge(other); score.merge([r1, r2, r3])
    r.to_dict()["total"]["rates"]["clean"]; r.to_table(); r.to_html(); r.to_csv(); r.to_latex()
    score.score_file("shard-000.jsonl")              # what `plurnk score FILE --json` counts

A Report is a value of counts: reports of disjoint inputs merge exactly (counts add, each class's
examples are a seeded sample of its turns that merges exactly), so shards scored on different
machines and merged equal one run. Reports pickle (as their JSON), so they travel between Dask or multiprocessing workers.
Scoring releases the GIL; a Scorer runs one call at a time, so give each thread its own.
"""
from __future__ import annotations

import json
import os
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Union

from ._score import Report, Scorer as _Scorer

__all__ = ["Report", "Scorer", "merge", "score_file", "CHANNELS"]

CHANNELS = ("gemma", "think", "none")
Text = Union[str, bytes]


class Scorer:
    """Scores turns into Reports. group_by: model, file, family, tier, id or a record field, or
    two of them ("model,task": a cross-tab, each group a cell keyed by the JSON array of its values);
    text_field: the record field holding the turn text (default: the first of text, output,
    completion, response, input); dialect: the one every turn is parsed in ("contracts" or
    "service", doc/dialects.md; the rail columns check that dialect's rail), as `plurnk score --dialect`."""

    def __init__(self, group_by: str = "model", tier: Optional[str] = None,
                 channels: Sequence[str] = CHANNELS, text_field: Optional[str] = None, *,
                 dialect: str = "contracts") -> None:
        self._s = _Scorer(group_by, tier, list(channels), text_field, dialect)

    @property
    def fields_seen(self) -> List[str]:
        """Field names of the records read that had no text field (at most 16, first seen first)."""
        return self._s.fields_seen

    def report(self) -> Report:
        """An empty report with this scorer's grouping and channels."""
        return self._s.report()

    def score_jsonl(self, text: Text, file: str = "", first_line: int = 1,
                    into: Optional[Report] = None) -> Report:
        """JSON Lines records ({"id","model","tier","text"}; doc/score.md), into a report."""
        r = self._s.report() if into is None else into
        self._s.score_jsonl(text, file, first_line, r)
        return r

    def score_records(self, records: Iterable[Mapping[str, Any]], file: str = "",
                      into: Optional[Report] = None) -> Report:
        """Records as dicts, numbered from line 1 as if they were JSON Lines."""
        text = "".join(json.dumps(rec, ensure_ascii=False) + "\n" for rec in records)
        return self.score_jsonl(text, file, 1, into)

    def score_texts(self, texts: Iterable[Text], group: str = "", file: str = "", tier: Optional[str] = None,
                    into: Optional[Report] = None) -> Report:
        """Raw turns, all in one group; ids are their positions ("0", "1", ...)."""
        r = self._s.report() if into is None else into
        for i, t in enumerate(texts):
            self._s.score_turn(t, str(i), group, file, tier, r)
        return r

    def score_file(self, path: str, into: Optional[Report] = None) -> Report:
        """A file as `plurnk score` reads it: *.jsonl / *.ndjson as records, anything else as one turn."""
        with open(path, "rb") as f:
            data = f.read()
        if os.path.splitext(path)[1] in (".jsonl", ".ndjson"):
            return self.score_jsonl(data, path, 1, into)
        r = self._s.report() if into is None else into
        self._s.score_turn_file(data, path, r)
        return r

    def on_rail(self, text: Text) -> Dict[str, bool]:
        """Whether `text` is a sentence of each channel's rail."""
        return self._s.on_rail(text)


def merge(reports: Iterable[Report]) -> Report:
    """The sum of reports (all of the same grouping and channels); ValueError otherwise."""
    it = iter(reports)
    try:
        total = next(it).copy()
    except StopIteration:
        raise ValueError("merge needs at least one report") from None
    for r in it:
        total.merge(r)
    return total


def score_file(path: str, group_by: str = "model", tier: Optional[str] = None,
               channels: Sequence[str] = CHANNELS, text_field: Optional[str] = None, *,
               dialect: str = "contracts") -> Report:
    """One file scored with a fresh Scorer (what a Dask task does per shard)."""
    return Scorer(group_by, tier, channels, text_field, dialect=dialect).score_file(path)


def _to_dict(self: Report) -> Dict[str, Any]:
    d: Dict[str, Any] = json.loads(self.to_json())
    return d


def _repr(self: Report) -> str:
    return f"<plurnk.score.Report {self.turns} turns, {len(self.groups)} groups by {self.group_by}>"


def _add(self: Report, other: Report) -> Report:
    out = self.copy()
    out.merge(other)
    return out


# The extension's Report gets these in Python (_score.pyi declares them); setattr, because a type
# checker rightly refuses assigning to a class's methods.
setattr(Report, "to_dict", _to_dict)
setattr(Report, "__repr__", _repr)
setattr(Report, "__add__", _add)
