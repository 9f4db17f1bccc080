#!/bin/sh
# SPDX-License-Identifier: MIT
# `plurnk validate`: exit statuses (0 valid, 1 invalid, 2 usage), printed errors, --assert, --json,
# and --batch answering every line at once and in order (malformed and blank ones with an "error").
# usage: validate_cli_test.sh PLURNK
set -u
plurnk=$1
case $plurnk in /*) ;; *) plurnk=$PWD/$plurnk ;; esac
fails=0
expect() {  # expect STATUS DESCRIPTION -- command...
    want=$1 what=$2; shift 3
    "$@" > out.txt 2>&1; got=$?
    if [ "$got" != "$want" ]; then echo "FAIL $what: exit $got, expected $want"; cat out.txt; fails=$((fails + 1)); fi
}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT; cd "$tmp" || exit 1
printf '{"line":1,"column":0}' > good.json
printf '{"line":-1,"column":0}' > bad.json
printf '{"startLine":2,"startColumn":5,"endLine":1,"endColumn":1}' > region.json
expect 0 "valid file" -- "$plurnk" validate --contract=Position good.json
expect 1 "invalid file" -- "$plurnk" validate --contract=Position bad.json
grep -q '#/line -1 is less than 0. (minimum at #/properties/line/minimum)' out.txt || { echo "FAIL error line"; cat out.txt; fails=$((fails + 1)); }
expect 0 "valid stdin" -- sh -c "\"$plurnk\" validate --contract=Position - < good.json"
expect 1 "not JSON" -- sh -c "printf '{' | \"$plurnk\" validate --contract=Position"
expect 0 "validate ignores the assert rule" -- "$plurnk" validate --contract=TextRegion region.json
expect 1 "--assert applies it" -- "$plurnk" validate --contract=TextRegion --assert region.json
grep -q 'InvalidTextRegionError: TextRegion ends before it starts' out.txt || { echo "FAIL assert message"; fails=$((fails + 1)); }
expect 1 "--json" -- "$plurnk" validate --contract=Position --json bad.json
grep -q '^{"valid":false,"errors":\[{"instanceLocation":"#","keyword":"properties"' out.txt || { echo "FAIL --json"; cat out.txt; fails=$((fails + 1)); }
expect 2 "unknown contract" -- "$plurnk" validate --contract=Nope good.json
expect 2 "no contract" -- "$plurnk" validate good.json
expect 2 "missing file" -- "$plurnk" validate --contract=Position missing.json
expect 2 "unknown option" -- "$plurnk" validate --contract=Position --frob good.json
expect 2 "batch with a file" -- "$plurnk" validate --batch good.json
# An output that cannot be written: exit 2 and one line saying so, whatever the verdict.
if [ -w /dev/full ]; then
    for args in "--contract=Position good.json" "--contract=Position bad.json" "--contract=Position --json good.json" \
        "--contract=TextRegion --assert region.json"; do
        # shellcheck disable=SC2086
        "$plurnk" validate $args >/dev/full 2>err.txt; got=$?
        [ "$got" = 2 ] || { echo "FAIL validate $args to a full disk: exit $got, expected 2"; fails=$((fails + 1)); }
        [ "$(cat err.txt)" = "plurnk: cannot write standard output: No space left on device" ] ||
            { echo "FAIL validate $args to a full disk: stderr"; cat err.txt; fails=$((fails + 1)); }
    done
    printf '{"id":1,"contract":"Position","instance":1}\n' | "$plurnk" validate --batch >/dev/full 2>err.txt; got=$?
    [ "$got" = 2 ] || { echo "FAIL validate --batch to a full disk: exit $got"; fails=$((fails + 1)); }
fi
cat > requests.jsonl <<'REQ'
{"id":"a","contract":"Position","instance":{"line":1,"column":0}}

{"id":"b","contract":"TextRegion","instance":{"startLine":2,"startColumn":5,"endLine":1,"endColumn":1}}
not json
{"id":"c","contract":"Nope","instance":1}
{"id":"d","contract":"Position"}
{"id":"e","contract":"Problems.create","args":["a","x",404,"d"]}
{"id":"f","contract":"Problems.create","args":"no"}

REQ
expect 1 "batch with error answers" -- sh -c "\"$plurnk\" validate --batch < requests.jsonl"
cat > want.jsonl <<'WANT'
{"id":"a","valid":true,"asserted":true}
{"id":null,"error":"line 2: empty line (expected a request)"}
{"id":"b","valid":true,"asserted":false}
{"id":null,"error":"bad request line: not JSON"}
{"id":"c","error":"unknown contract \"Nope\""}
{"id":"d","error":"cannot validate: the request has no \"instance\""}
{"id":"e","ok":true,"result":{"type":"https://problems.plurnk.dev/a/x","title":"X","status":404,"detail":"d"}}
{"id":"f","ok":false,"result":null}
{"id":null,"error":"line 9: empty line (expected a request)"}
WANT
cmp -s out.txt want.jsonl || { echo "FAIL batch replies"; diff want.jsonl out.txt; fails=$((fails + 1)); }
# Hostile nesting (200,000 levels, far past k_json_max_depth): an error answer per line, no crash.
python3 -c "n = 200000; print('{\"id\":1,\"contract\":\"LoopFlags\",\"instance\":' + '[' * n + ']' * n + '}')
print('{\"id\":2,\"contract\":\"Problems.create\",\"args\":[\"a\",\"x\",400,\"d\",{\"e\":' + '[' * n + ']' * n + '}]}')" > deep.jsonl
expect 1 "batch on deep nesting" -- sh -c "\"$plurnk\" validate --batch < deep.jsonl"
cat > want.jsonl <<'WANT'
{"id":null,"error":"bad request line: nests deeper than 512 levels"}
{"id":null,"error":"bad request line: nests deeper than 512 levels"}
WANT
cmp -s out.txt want.jsonl || { echo "FAIL deep nesting replies"; diff want.jsonl out.txt | head -5; fails=$((fails + 1)); }
sed -n '1p;3p' requests.jsonl > clean.jsonl
expect 0 "batch with only answerable requests" -- sh -c "\"$plurnk\" validate --batch < clean.jsonl"
# A service: each answer is written before the next request is read (a client that sends one
# request and waits must not wait for end of input).
python3 - "$plurnk" <<'PY' || { echo "FAIL batch answers before end of input"; fails=$((fails + 1)); }
import select, subprocess, sys
p = subprocess.Popen([sys.argv[1], "validate", "--batch"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
p.stdin.write(b'{"id":1,"contract":"Position","instance":{"line":1,"column":0}}\n')
p.stdin.flush()
ready, _, _ = select.select([p.stdout], [], [], 10)
line = p.stdout.readline() if ready else b""
p.stdin.close()
p.wait()
sys.exit(0 if line == b'{"id":1,"valid":true,"asserted":true}\n' else 1)
PY
# --dialect=service: the service dialect's schemas (a regex path is a ParsedPath there only); in
# --batch a request's "dialect" overrides the flag; an unknown dialect is a one-line usage error.
printf '{"kind":"regex","raw":"#a#i","pattern":"a","flags":"i"}' > regex.json
expect 0 "a regex path in the service dialect" -- "$plurnk" validate --contract=ParsedPath --dialect=service regex.json
expect 0 "--dialect NAME" -- "$plurnk" validate --contract=ParsedPath --dialect service regex.json
expect 1 "a regex path in 1.4.0" -- "$plurnk" validate --contract=ParsedPath regex.json
expect 1 "--dialect=contracts" -- "$plurnk" validate --contract=ParsedPath --dialect=contracts --assert regex.json
expect 2 "an unknown dialect" -- "$plurnk" validate --contract=ParsedPath --dialect=sevrice regex.json
[ "$(head -n 1 out.txt)" = "plurnk: unknown dialect 'sevrice' (expected contracts or service)" ] ||
    { echo "FAIL unknown dialect message"; cat out.txt; fails=$((fails + 1)); }
expect 2 "an unknown dialect with --batch" -- sh -c "\"$plurnk\" validate --batch --dialect=x < clean.jsonl"
grep -q "^plurnk: unknown dialect 'x'" out.txt || { echo "FAIL unknown dialect with --batch"; cat out.txt; fails=$((fails + 1)); }
cat > requests.jsonl <<'REQ'
{"id":1,"contract":"ParsedPath","instance":{"kind":"regex","raw":"#a#","pattern":"a","flags":""}}
{"id":2,"contract":"ParsedPath","dialect":"contracts","instance":{"kind":"regex","raw":"#a#","pattern":"a","flags":""}}
{"id":3,"contract":"ParsedPath","dialect":"nope","instance":{"kind":"local","raw":"a"}}
{"id":4,"contract":"Position","instance":{"line":1,"column":0}}
REQ
cat > want.jsonl <<'WANT'
{"id":1,"valid":true,"asserted":true}
{"id":2,"valid":false,"asserted":false}
{"id":3,"error":"\"dialect\" must be \"contracts\" or \"service\""}
{"id":4,"valid":true,"asserted":true}
WANT
expect 1 "batch --dialect=service" -- sh -c "\"$plurnk\" validate --batch --dialect=service < requests.jsonl"
cmp -s out.txt want.jsonl || { echo "FAIL batch --dialect=service replies"; diff want.jsonl out.txt; fails=$((fails + 1)); }
sed -n 1p requests.jsonl > one.jsonl
expect 0 "a request's dialect" -- sh -c "sed 's/\"ParsedPath\",/\"ParsedPath\",\"dialect\":\"service\",/' one.jsonl | \"$plurnk\" validate --batch"
[ "$(cat out.txt)" = '{"id":1,"valid":true,"asserted":true}' ] || { echo "FAIL a request's dialect"; cat out.txt; fails=$((fails + 1)); }
expect 0 "batch without --dialect is 1.4.0" -- sh -c "\"$plurnk\" validate --batch < one.jsonl"
[ "$(cat out.txt)" = '{"id":1,"valid":false,"asserted":false}' ] || { echo "FAIL batch without --dialect"; cat out.txt; fails=$((fails + 1)); }
python3 -c "print('[' * 200000 + ']' * 200000)" > deep.json
expect 1 "deep instance file is invalid" -- "$plurnk" validate --contract=LoopFlags deep.json
[ $fails = 0 ] && echo "validate CLI: all checks passed"
[ $fails = 0 ]
