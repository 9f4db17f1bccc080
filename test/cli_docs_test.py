# SPDX-License-Identifier: MIT
"""The command's help against its documentation, read from the built command itself (so a
command or option added to the tables in app/main.cpp is checked too): `plurnk --help` lists the
commands; for each, `plurnk CMD --help` lists its options (and `plurnk help CMD` prints the same);
the synopsis at the top of that help, the synopsis in README.md ("The command-line tool") and
the one at the top of doc/cli.md must name exactly those options, each spelt with `=VALUE` when
it takes one and without when it does not; doc/cli.md has a section for every command.

usage: cli_docs_test.py PLURNK README.md doc/cli.md
"""
import re
import subprocess
import sys

plurnk, readme_path, cli_doc_path = sys.argv[1:4]
failures = 0


def check(name, ok, detail=""):
    global failures
    print(("ok   " if ok else "FAIL ") + name + ("" if ok or not detail else ": " + detail))
    failures += 0 if ok else 1


def run(*args):
    out = subprocess.run([plurnk, *args], capture_output=True, text=True)
    return out.returncode, out.stdout


# --help and --version are every command's; -h and -V their short forms.
GLOBAL = {"--help", "--version"}
OPTION = re.compile(r"--[a-z][a-z0-9-]*(=)?")


def options_of(text):
    """{"--tier": True (takes a value), "--pretty": False, ...} of the options named in `text`."""
    found = {}
    for m in OPTION.finditer(text):
        name = m.group(0).rstrip("=")
        if name not in GLOBAL:
            found[name] = found.get(name, False) or m.group(1) is not None
    return found


def synopses(markdown, first_block_only):
    """{command: the text of its synopsis lines} from the ``` blocks of `markdown` (only the first
    block when first_block_only): a line `plurnk CMD ...` and the indented lines after it, up to a
    `#` comment. `plurnk --help`/`--version` count as the help and version commands."""
    out = {}
    blocks = re.findall(r"^```[a-z]*\n(.*?)^```", markdown, re.S | re.M)
    for block in blocks[:1] if first_block_only else blocks:
        current = None
        for line in block.splitlines():
            m = re.match(r"plurnk (\S+)(.*)", line)
            if m:
                current = {"--help": "help", "--version": "version"}.get(m.group(1), m.group(1))
                out[current] = out.get(current, "") + " " + m.group(2).split("  #")[0]
            elif current and line.startswith(" ") and not line.lstrip().startswith("#"):
                out[current] += " " + line.split("  #")[0]
            else:
                current = None
    return out


def describe(opts):
    return " ".join(sorted(n + ("=" if v else "") for n, v in opts.items()))


status, global_help = run("--help")
check("plurnk --help exits 0", status == 0)
commands = re.findall(r"^  ([a-z]+)\b.*\n      \S", global_help, re.M)
check("plurnk --help lists commands", len(commands) >= 7, global_help)

readme = open(readme_path, encoding="utf-8").read()
cli_doc = open(cli_doc_path, encoding="utf-8").read()
readme_cli = readme.split("## The command-line tool", 1)[-1]
docs = {"README.md": synopses(readme_cli, True), "doc/cli.md": synopses(cli_doc, True)}

for cmd in commands:
    status, text = run(cmd, "--help")
    check(f"{cmd} --help exits 0", status == 0)
    check(f"{cmd} --help starts with its usage", text.startswith(f"usage: plurnk {cmd}"), text[:80])
    check(f"help {cmd} equals {cmd} --help", run("help", cmd) == (status, text))
    listed = {}
    for m in re.finditer(r"^  (--[a-z][a-z0-9-]*)(=\S+)? ", text, re.M):
        listed[m.group(1)] = m.group(2) is not None
    synopsis = text.splitlines()[0][len("usage: plurnk "):]
    check(f"{cmd}: the synopsis of --help names its options", options_of(synopsis) == listed,
          f"synopsis [{describe(options_of(synopsis))}], options [{describe(listed)}]")
    for doc, found in docs.items():
        if cmd not in found:
            check(f"{doc} has a synopsis of {cmd}", False)
            continue
        named = options_of(found[cmd])
        check(f"{doc}: the synopsis of {cmd} names its options", named == listed,
              f"missing [{describe({n: v for n, v in listed.items() if named.get(n) != v})}], "
              f"not in --help [{describe({n: v for n, v in named.items() if listed.get(n) != v})}]")
    check(f"doc/cli.md has a section for {cmd}", re.search(rf"^## .*\b{cmd}\b", cli_doc, re.M) is not None)

for doc, found in docs.items():
    unknown = sorted(set(found) - set(commands) - {"COMMAND"})
    check(f"{doc}: every synopsis is of a command", not unknown, " ".join(unknown))

sys.exit(1 if failures else 0)
