#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Write synthetic model output as JSON Lines for trying `plurnk score` (doc/score.md).

usage: score_sample.py [--turns N] [--shards K] [--seed S] [OUT]

Three made-up models answer the same prompts: each record is {"id","model","tier","text"}.
The turns are built from well-formed pieces and then damaged the way models damage them
(a missing close, no terminal SEND, a statement after SEND, PLAN not first, a suffix mismatch,
prose around the turn), at a different rate per model, so the report has something to show.
The output is deterministic for a seed. With --shards K, OUT is a directory that gets
shard-000.jsonl ... (records dealt round robin); without OUT, standard output.
"""
import json
import os
import random
import sys

CHANNELS = {
    "gemma": ("<|channel>thought\n", "<channel|>"),
    "think": ("<think>\n", "\n</think>"),
    "none": ("", ""),
}
THOUGHTS = ["Check the tests first.", "The config is in lib/.", "Read before editing.", "Look for the retry logic."]
GOALS = ["Fix the failing test.", "Add a retry option.", "Rename the helper.", "Find the slow query."]
FILES = ["src/app.py", "lib/config.json", "README.md", "tests/test_app.py", "docs/guide.md"]


def statement(rng):
    f = rng.choice(FILES)
    return rng.choice([
        f"<<READ({f})<1,40>:/TODO|FIXME/i:READ",
        f"<<FIND({f}):retryCount:FIND",
        f"<<EDIT({f})<3>:retries = 3:EDIT",
        "<<EXEC[sh]:pytest -q:EXEC",
        f"<<OPEN({f})::OPEN",
        f"<<COPY({f}):backup/{f}:COPY",
        "<<WORK[main](worker://reviewer):Review the change.:WORK",
        f"<<EDIT1({f})<1,2>:a body with :EDIT inside:EDIT1",
        f"<<FOLD({f}):$.settings:FOLD",
    ])


def clean_turn(rng, channel):
    opener, closer = CHANNELS[channel]
    parts = [f"<<PLAN:{rng.choice(GOALS)}:PLAN"]
    parts += [statement(rng) for _ in range(rng.randint(1, 5))]
    parts.append(f"<<SEND[{rng.choice(['102', '200', '200', '202', '499'])}]:{rng.choice(GOALS)}:SEND")
    head = f"{opener}{rng.choice(THOUGHTS)}{closer}\n" if channel != "none" else ""
    return head + "\n".join(parts)


def damage(rng, text):
    kind = rng.randrange(7)
    if kind == 0:  # the terminal SEND is missing
        return text[: text.rfind("<<SEND")].rstrip()
    if kind == 1:  # a close tag is lost
        at = text.rfind(":READ")
        return text if at < 0 else text[:at] + text[at + 5:]
    if kind == 2:  # a statement after the terminal SEND
        return text + "\n<<EXEC[sh]:ls:EXEC"
    if kind == 3:  # PLAN not first
        return text.replace("<<PLAN:", "<<EXEC[sh]:git status:EXEC\n<<PLAN:", 1)
    if kind == 4:  # a suffix mismatch
        return text.replace(":EDIT1", ":EDIT2", 1) if ":EDIT1" in text else text.replace(":FIND", ":FIND1", 1)
    if kind == 5:  # prose around the turn
        return "Sure! Here is the turn:\n" + text + "\nLet me know if this helps."
    return text.replace("<<", "<", 1)  # a broken opener


MODELS = [("model-a", "gemma", 0.08), ("model-b", "think", 0.3), ("model-c", "none", 0.55)]


def records(turns, seed):
    rng = random.Random(seed)
    for i in range(turns):
        for model, channel, rate in MODELS:
            text = clean_turn(rng, channel)
            while rng.random() < rate:
                text = damage(rng, text)
            yield {"id": f"p{i:05d}", "model": model, "tier": "parse", "text": text}


def main(argv):
    turns, shards, seed, out = 100, 0, 1, None
    i = 0
    while i < len(argv):
        if argv[i] in ("--turns", "--shards", "--seed") and i + 1 < len(argv):
            value = int(argv[i + 1])
            if argv[i] == "--turns":
                turns = value
            elif argv[i] == "--shards":
                shards = value
            else:
                seed = value
            i += 2
        elif not argv[i].startswith("-") and out is None:
            out = argv[i]
            i += 1
        else:
            print(__doc__, file=sys.stderr)
            return 2
    lines = [json.dumps(r, ensure_ascii=False) + "\n" for r in records(turns, seed)]
    if shards:
        if out is None:
            print("--shards needs an output directory", file=sys.stderr)
            return 2
        os.makedirs(out, exist_ok=True)
        for k in range(shards):
            with open(os.path.join(out, f"shard-{k:03d}.jsonl"), "w", encoding="utf-8") as f:
                f.writelines(lines[k::shards])
    elif out is None:
        sys.stdout.writelines(lines)
    else:
        with open(out, "w", encoding="utf-8") as f:
            f.writelines(lines)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
