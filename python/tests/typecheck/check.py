# SPDX-License-Identifier: MIT
"""The package as mypy sees it, with the interpreter and build the package was made for:
  1. the package's own code passes `mypy --strict` (python/plurnk/*.py with its stubs);
  2. construct_and_read.py, which builds every result type by hand and reads it back, passes
     `mypy --strict`, and runs;
  3. misuse.py gets exactly the errors its `# E: TEXT` comments plant, and no others;
  4. `python -m mypy.stubtest plurnk` finds the stubs (*.pyi) true to the runtime package, but
     for the differences stubtest-allowlist.txt lists, each with its reason (stubtest.ini: the
     modules that are their own stubs export what they define, not what they import).
Exits 77 (skipped) when mypy is not installed for this interpreter (Debian: python3-mypy).
usage: python check.py PACKAGE_PARENT_DIR   (build/python: where `import plurnk` finds the build)
"""
import os
import re
import subprocess
import sys

try:
    import mypy  # noqa: F401
except ImportError:
    print(f"mypy is not installed for {sys.executable} (Debian: python3-mypy); typing checks skipped")
    sys.exit(77)

here = os.path.dirname(os.path.abspath(__file__))
package_parent = os.path.abspath(sys.argv[1])
env = dict(os.environ, MYPYPATH=package_parent, PYTHONPATH=package_parent, PYTHONDONTWRITEBYTECODE="1")
failures = 0


def check(name, ok, detail=""):
    global failures
    print(("ok   " if ok else "FAIL ") + name + ("" if ok or not detail else ":\n" + detail))
    failures += 0 if ok else 1


def mypy_strict(*targets):
    out = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir", os.devnull,
                          *targets], capture_output=True, text=True, env=env, cwd=here)
    return out.returncode, out.stdout + out.stderr


status, out = mypy_strict("-p", "plurnk")
check("the package's own code passes mypy --strict", status == 0, out)

status, out = mypy_strict("construct_and_read.py")
check("constructing and reading the result types passes mypy --strict", status == 0, out)
ran = subprocess.run([sys.executable, "construct_and_read.py"], capture_output=True, text=True, env=env, cwd=here)
check("construct_and_read.py runs", ran.returncode == 0 and "READ" in ran.stdout, ran.stdout + ran.stderr)

planted = {}
for number, line in enumerate(open(os.path.join(here, "misuse.py"), encoding="utf-8"), 1):
    m = re.search(r"  # E: (.*)$", line)
    if m:
        planted[number] = m.group(1).strip()
status, out = mypy_strict("misuse.py")
reported = {}
for m in re.finditer(r"^misuse\.py:(\d+): error: (.*)$", out, re.M):
    reported.setdefault(int(m.group(1)), []).append(m.group(2))
check("misuse.py fails mypy --strict", status == 1, out)
for number, text in sorted(planted.items()):
    check(f"misuse.py:{number} reported ({text})", any(text in e for e in reported.get(number, [])),
          "\n".join(reported.get(number, ["(no error)"])))
stray = {n: e for n, e in reported.items() if n not in planted}
check("misuse.py: no error but the planted ones", not stray, "\n".join(f"{n}: {e}" for n, e in stray.items()))

out = subprocess.run([sys.executable, "-m", "mypy.stubtest", "plurnk", "--mypy-config-file",
                      os.path.join(here, "stubtest.ini"), "--allowlist", os.path.join(here, "stubtest-allowlist.txt")],
                     capture_output=True, text=True, env=env, cwd=here)
check("stubtest: the stubs match the runtime package", out.returncode == 0, out.stdout + out.stderr)

sys.exit(1 if failures else 0)
