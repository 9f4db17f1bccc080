#!/bin/sh
# SPDX-License-Identifier: MIT
# The plurnk command's contract: exit statuses, --chunk equal to one-shot, --max-input-bytes,
# the UTF-8 refusal, file and stream errors as one line (never an abort), batch answering every
# line in order, help and "did you mean", conflicting options, bench's report, --version.
# usage: cli_test.sh PLURNK EXAMPLE_TURN VERSION
set -u
plurnk=$1 turn=$2 version=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
check() {  # check NAME EXPECTED ACTUAL
    if [ "$2" = "$3" ]; then echo "ok   $1"; else echo "FAIL $1: expected [$2], got [$3]"; fails=$((fails + 1)); fi
}

"$plurnk" parse "$turn" >"$tmp/one.json"; check "clean turn exits 0" 0 $?
for n in 1 3 64; do
    "$plurnk" parse --chunk=$n "$turn" >"$tmp/chunk.json"
    check "--chunk=$n equals one-shot" "$(cat "$tmp/one.json")" "$(cat "$tmp/chunk.json")"
done

printf '<<PLAN:p:PLAN\n<<SEND[200]:done:SEND\n' >"$tmp/t.plurnk"
out=$("$plurnk" parse --tier=statements --max-input-bytes=14 "$tmp/t.plurnk"); status=$?
check "--max-input-bytes cut exits 1" 1 $status
check "--max-input-bytes result" '{"items":[{"kind":"statement","statement":{"op":"PLAN","suffix":"","signal":null,"target":null,"lineMarker":null,"body":"p","position":{"line":1,"column":0}}},{"kind":"error","error":{"line":2,"column":0,"source":"lexer","severity":"error","message":"input is 36 bytes; only the first 14 were parsed (the max_input_bytes limit)"}}]}' "$out"
check "--max-input-bytes with --chunk=5" "$out" "$("$plurnk" parse --tier=statements --max-input-bytes=14 --chunk=5 "$tmp/t.plurnk")"
"$plurnk" parse --max-input-bytes=0 "$tmp/t.plurnk" >/dev/null 2>&1; check "--max-input-bytes=0 is a usage error" 2 $?

printf '<<PLAN:p' >"$tmp/open.plurnk"
"$plurnk" parse "$tmp/open.plurnk" >/dev/null; check "unparsedTail exits 1" 1 $?

printf 'a\377b' >"$tmp/bad.plurnk"
"$plurnk" parse "$tmp/bad.plurnk" >/dev/null 2>"$tmp/err"; check "invalid UTF-8 refused" 2 $?
check "refusal names the byte" "plurnk: '$tmp/bad.plurnk' is not valid UTF-8 (byte 1); pass --allow-invalid-utf8 to parse it anyway" "$(cat "$tmp/err")"
"$plurnk" parse --allow-invalid-utf8 --tier=statements "$tmp/bad.plurnk" >/dev/null; check "--allow-invalid-utf8 parses" 1 $?

out=$(printf '{"id":7,"tier":"statements","input":"<<READ(a.md)::READ"}\n' | "$plurnk" batch)
check "batch answers by id" '{"id":7,"result":{"items":[{"kind":"statement","statement":{"op":"READ","suffix":"","signal":null,"target":{"kind":"local","raw":"a.md"},"lineMarker":null,"body":null,"position":{"line":1,"column":0}}}]}}' "$out"

# --dialect (doc/dialects.md): the service dialect reads a `#` regex target; the flag and its
# two spellings, a batch line's "dialect" overriding it, and a one-line usage error.
printf '<<FIND(#a(b)?#i)::FIND' >"$tmp/svc.plurnk"
svc='{"items":[{"kind":"statement","statement":{"op":"FIND","suffix":"","signal":null,"target":{"kind":"regex","raw":"#a(b)?#i","pattern":"a(b)?","flags":"i"},"lineMarker":null,"body":null,"position":{"line":1,"column":0}}}]}'
check "parse --dialect=service" "$svc" "$("$plurnk" parse --tier=statements --dialect=service "$tmp/svc.plurnk")"
check "parse --dialect service --chunk=1" "$svc" "$("$plurnk" parse --tier=statements --dialect service --chunk=1 "$tmp/svc.plurnk")"
check "parse --dialect=contracts is the default" "$("$plurnk" parse --tier=statements "$tmp/svc.plurnk")" \
    "$("$plurnk" parse --tier=statements --dialect=contracts "$tmp/svc.plurnk")"
out=$(printf '%s\n' '{"id":1,"tier":"statements","input":"<<FIND(#a(b)?#i)::FIND"}' \
    '{"id":2,"tier":"statements","dialect":"contracts","input":"<<READ(x):/a/:READ"}' \
    '{"id":3,"dialect":"klingon","input":""}' | "$plurnk" batch --dialect=service)
check "batch --dialect and a line's dialect" "{\"id\":1,\"result\":$svc}
{\"id\":2,\"result\":{\"items\":[{\"kind\":\"statement\",\"statement\":{\"op\":\"READ\",\"suffix\":\"\",\"signal\":null,\"target\":{\"kind\":\"local\",\"raw\":\"x\"},\"lineMarker\":null,\"body\":{\"dialect\":\"regex\",\"raw\":\"/a/\",\"pattern\":\"a\",\"flags\":\"\"},\"position\":{\"line\":1,\"column\":0}}}]}}
{\"id\":3,\"error\":\"line 3: \\\"dialect\\\" must be \\\"contracts\\\" or \\\"service\\\"\"}" "$out"
for cmd in parse batch bench score fmt gbnf; do
    "$plurnk" $cmd --dialect=klingon </dev/null >/dev/null 2>"$tmp/err"; check "$cmd --dialect=klingon is a usage error" 2 $?
    check "$cmd: the usage error names the dialect" "plurnk: unknown dialect 'klingon' (expected contracts or service)" "$(head -1 "$tmp/err" | sed 's/\\n(run .*//')"
done
"$plurnk" gbnf --dialect=service >"$tmp/service.gbnf" 2>&1; check "gbnf --dialect=service prints the service rail" 0 $?
check "the service rail writes #pattern#flags regexes" 1 "$(grep -c '^    "#" (rx-seq1' "$tmp/service.gbnf")"
check "the default rail writes /pattern/flags regexes" 1 "$("$plurnk" gbnf | grep -c '^    "/" (rx-seq1')"
check "fmt --dialect=service keeps a regex target" "$(cat "$tmp/svc.plurnk")" "$("$plurnk" fmt --tier=statements --dialect=service "$tmp/svc.plurnk")"

# --spans: the default output plus one "span" member per item; batch the same.
printf '<<PLAN:p:PLAN\nhello <<SEND[200]:done:SEND\n' >"$tmp/s.plurnk"
"$plurnk" parse "$tmp/s.plurnk" >"$tmp/plain.json"
"$plurnk" parse --spans "$tmp/s.plurnk" >"$tmp/spans.json"; check "--spans exits 0" 0 $?
check "--spans: the PLAN, the word, the SEND" '"span":{"start":0,"end":13} "span":{"start":14,"end":19} "span":{"start":20,"end":41}' \
    "$(grep -o '"span":{"start":[0-9]*,"end":[0-9]*}' "$tmp/spans.json" | tr '\n' ' ' | sed 's/ $//')"
check "--spans without the spans is the default output" "$(cat "$tmp/plain.json")" \
    "$(sed 's/,"span":{"start":[0-9]*,"end":[0-9]*}//g' "$tmp/spans.json")"
check "--spans --chunk=1 equals --spans" "$(cat "$tmp/spans.json")" "$("$plurnk" parse --spans --chunk=1 "$tmp/s.plurnk")"
out=$(printf '{"id":1,"input":"<<PLAN:p:PLAN\\nhello <<SEND[200]:done:SEND\\n"}\n' | "$plurnk" batch --spans)
check "batch --spans" "{\"id\":1,\"result\":$(cat "$tmp/spans.json")}" "$out"

# --max-open-bytes: a runaway line on stderr, the result unchanged.
printf '<<PLAN:p:PLAN\n<<READ[oops(b.py)::READ\n<<EXEC[sh]:ls:EXEC\n<<SEND[200]:x:SEND' >"$tmp/runaway.plurnk"
"$plurnk" parse "$tmp/runaway.plurnk" >"$tmp/r1.json"
"$plurnk" parse --chunk=1 --max-open-bytes=32 "$tmp/runaway.plurnk" >"$tmp/r2.json" 2>"$tmp/r2.err"
check "--max-open-bytes exits as the parse" 1 $?
check "--max-open-bytes leaves the result alone" "$(cat "$tmp/r1.json")" "$(cat "$tmp/r2.json")"
check "runaway line at 1-byte chunks" \
    '{"runaway":{"op":"READ","suffix":"","where":"signal","begin":14,"bytes":33,"openers":1,"turnDepth":0,"limit":32}}' \
    "$(cat "$tmp/r2.err")"
check "runaway line in one chunk" \
    '{"runaway":{"op":"READ","suffix":"","where":"body","begin":14,"bytes":61,"openers":2,"turnDepth":0,"limit":32}}' \
    "$("$plurnk" parse --max-open-bytes=32 "$tmp/runaway.plurnk" 2>&1 >/dev/null)"
check "no runaway under the limit" "" "$("$plurnk" parse --max-open-bytes=65536 "$tmp/runaway.plurnk" 2>&1 >/dev/null)"
"$plurnk" parse --max-open-bytes=0 "$tmp/runaway.plurnk" >/dev/null 2>&1; check "--max-open-bytes=0 is a usage error" 2 $?

"$plurnk" parse --no-such-option >/dev/null 2>&1; check "unknown option exits 2" 2 $?
"$plurnk" gbnf --channel=gemma >"$tmp/gemma.gbnf"; check "gbnf --channel=gemma exits 0" 0 $?
check "--channel=gemma is the default" "$("$plurnk" gbnf)" "$(cat "$tmp/gemma.gbnf")"
check "--channel=think opens with <think>" 1 "$("$plurnk" gbnf --channel=think | grep -c '^channel ::= "<think>"')"
check "--channel=none starts at PLAN" 1 "$("$plurnk" gbnf --channel=none | grep -c '^root ::= plan sep tail$')"
check "--channel-close alone: the opener is in the prompt" 1 \
    "$("$plurnk" gbnf --channel-close='</think>' | grep -c '^channel ::= \[^<\]\* ("<" channel-seg)\* "</think>"$')"
"$plurnk" gbnf --channel=harmony >/dev/null 2>&1; check "unknown --channel exits 2" 2 $?
"$plurnk" gbnf --channel=none --channel-close=x >/dev/null 2>&1; check "--channel with --channel-close exits 2" 2 $?
"$plurnk" gbnf --channel-open='<r>' >/dev/null 2>&1; check "--channel-open without a close exits 2" 2 $?

# File and stream errors: one line on stderr, exit 2, nothing on stdout (never SIGABRT's 134).
for cmd in parse bench; do
    "$plurnk" $cmd "$tmp" >"$tmp/out" 2>"$tmp/err"; check "$cmd DIRECTORY exits 2" 2 $?
    check "$cmd DIRECTORY message" "plurnk: cannot read '$tmp': Is a directory" "$(cat "$tmp/err")"
    [ $cmd = bench ] || check "$cmd DIRECTORY writes nothing" "" "$(cat "$tmp/out")"
done
"$plurnk" parse "$tmp/missing" 2>"$tmp/err"; check "missing file exits 2" 2 $?
check "missing file message" "plurnk: cannot read '$tmp/missing': No such file or directory" "$(cat "$tmp/err")"
if [ -r /proc/self/mem ]; then  # opens, then fails with EIO at the first read
    "$plurnk" parse /proc/self/mem 2>"$tmp/err"; check "read error exits 2" 2 $?
    check "read error message" "plurnk: cannot read '/proc/self/mem': Input/output error" "$(cat "$tmp/err")"
fi
"$plurnk" parse <&- 2>"$tmp/err"; check "parse with closed stdin exits 2" 2 $?
check "closed stdin message" "plurnk: cannot read standard input: Bad file descriptor" "$(cat "$tmp/err")"
"$plurnk" batch <&- >"$tmp/out" 2>"$tmp/err"; check "batch with closed stdin exits 2" 2 $?
check "batch closed stdin message" "plurnk: cannot read standard input: Bad file descriptor" "$(cat "$tmp/err")"
"$plurnk" parse "$turn" >&- 2>"$tmp/err"; check "closed stdout exits 2" 2 $?
check "closed stdout message" "plurnk: cannot write standard output: Bad file descriptor" "$(cat "$tmp/err")"
if [ -w /dev/full ]; then
    "$plurnk" parse "$turn" >/dev/full 2>"$tmp/err"; check "full disk exits 2" 2 $?
    check "full disk message" "plurnk: cannot write standard output: No space left on device" "$(cat "$tmp/err")"
    "$plurnk" gbnf >/dev/full 2>/dev/null; check "gbnf to a full disk exits 2" 2 $?
    # Every command that writes standard output: exit 2 and that one line, nothing else.
    for args in "parse $turn" "parse --format=sarif $turn" "fmt $turn" "gbnf" "score $turn" "score --json $turn" \
        "score --format=sarif $turn" "bench --repeat=1 $turn" "version" "help" "parse --help"; do
        # shellcheck disable=SC2086
        "$plurnk" $args >/dev/full 2>"$tmp/err"; check "$args to a full disk exits 2" 2 $?
        check "$args to a full disk says so in one line" "plurnk: cannot write standard output: No space left on device" \
            "$(grep -v ': warning: \|: error: ' "$tmp/err")"
    done
    printf '{"id":1,"input":"x"}\n' | "$plurnk" batch >/dev/full 2>"$tmp/err"; check "batch to a full disk exits 2" 2 $?
    check "batch to a full disk message" "plurnk: cannot write standard output: No space left on device" "$(cat "$tmp/err")"
fi

# --max-input-bytes bounds the read: no more than N bytes and one more are read, so an endless
# input (/dev/zero, a FIFO its writer keeps open) cannot hold the command. A regular file's total
# is its size; a pipe's, N + 1. fmt and validate refuse a longer input.
limit_message() { grep -o '"message":"input is [^"]*"' "$1"; }
printf '<<PLAN:p:PLAN\nhello world' >"$tmp/eleven"
"$plurnk" parse --max-input-bytes=16 "$tmp/eleven" >"$tmp/out"; check "cut file exits 1" 1 $?
check "cut file total" '"message":"input is 25 bytes; only the first 16 were parsed (the max_input_bytes limit)"' \
    "$(limit_message "$tmp/out")"
"$plurnk" parse --max-input-bytes=16 - <"$tmp/eleven" >"$tmp/out2"; check "cut stdin file equals the file" "$(cat "$tmp/out")" "$(cat "$tmp/out2")"
cat "$tmp/eleven" | "$plurnk" parse --max-input-bytes=16 >"$tmp/out"; check "cut pipe exits 1" 1 $?
check "cut pipe total" '"message":"input is 17 bytes; only the first 16 were parsed (the max_input_bytes limit)"' \
    "$(limit_message "$tmp/out")"
timeout 20 "$plurnk" parse --max-input-bytes=100 /dev/zero >"$tmp/out"; check "/dev/zero with a limit exits 1" 1 $?
check "/dev/zero total" '"message":"input is 101 bytes; only the first 100 were parsed (the max_input_bytes limit)"' \
    "$(limit_message "$tmp/out")"
mkfifo "$tmp/fifo"
{ printf '<<PLAN:p:PLAN\n'; printf 'x%.0s' $(seq 200); sleep 30; } >"$tmp/fifo" &
writer=$!
timeout 20 "$plurnk" parse --max-input-bytes=64 "$tmp/fifo" >"$tmp/out"; check "an open FIFO with a limit exits 1" 1 $?
kill "$writer" 2>/dev/null
printf '<<PLAN:\303\251\303\251:PLAN\n' >"$tmp/utf8"
"$plurnk" parse --max-input-bytes=9 "$tmp/utf8" >/dev/null 2>"$tmp/err"; check "a character the limit cuts is no UTF-8 error" 1 $?
"$plurnk" parse --max-input-bytes=99999999999999999999999 "$tmp/eleven" >"$tmp/out"; check "a limit past 2^64 acts as the largest" 1 $?
check "a limit past 2^64 parses it all" "" "$(limit_message "$tmp/out")"
refused="fmt"
"$plurnk" --help | grep -q "^  validate " && refused="fmt validate"  # validate: built with plurnk_wire
for cmd in $refused; do
    opts=""
    [ "$cmd" = validate ] && opts="--contract=Position"
    # shellcheck disable=SC2086
    timeout 20 "$plurnk" $cmd $opts --max-input-bytes=10 /dev/zero >/dev/null 2>"$tmp/err"; check "$cmd refuses a longer input" 2 $?
    check "$cmd refusal" "plurnk: '/dev/zero' is longer than --max-input-bytes=10" "$(cat "$tmp/err")"
done

# batch: every line gets exactly one answer, in order; id null when the line is no JSON object.
printf '%s\n' 'not json' '{"id":1,"input":5}' '[1,2]' '{"id":"a","tier":"nope","input":""}' '' \
    '{"id":[2],"tier":"statements","input":"<<READ(a)::READ"}' '{"tier":7,"id":3,"input":""}' '"s"' >"$tmp/req"
printf '{"id":4,"tier":"statements","input":""}' >>"$tmp/req"  # a last line without its newline
"$plurnk" batch <"$tmp/req" >"$tmp/out" 2>"$tmp/err"; check "batch with bad lines exits 1" 1 $?
check "batch answers every line in order" '{"id":null,"error":"line 1: not a JSON value (expected {\"id\",\"tier\",\"input\"})"}
{"id":1,"error":"line 2: \"input\" must be a string"}
{"id":null,"error":"line 3: not a JSON object (expected {\"id\",\"tier\",\"input\"})"}
{"id":"a","error":"line 4: \"tier\" must be one of \"parse\", \"statements\", \"log\", \"client\""}
{"id":null,"error":"line 5: empty line (expected a request)"}
{"id":[2],"result":{"items":[{"kind":"statement","statement":{"op":"READ","suffix":"","signal":null,"target":{"kind":"local","raw":"a"},"lineMarker":null,"body":null,"position":{"line":1,"column":0}}}]}}
{"id":3,"error":"line 7: \"tier\" must be one of \"parse\", \"statements\", \"log\", \"client\""}
{"id":null,"error":"line 8: not a JSON object (expected {\"id\",\"tier\",\"input\"})"}
{"id":4,"result":{"items":[]}}' "$(cat "$tmp/out")"
check "batch answers on stdout only" "" "$(cat "$tmp/err")"
check "batch answer count" "$(wc -l <"$tmp/req" | tr -d ' ')" "$(($(wc -l <"$tmp/out" | tr -d ' ') - 1))"
printf '{"id":1,"input":""}\r\n' | "$plurnk" batch >"$tmp/out"; check "batch CRLF line" 0 $?
printf '' | "$plurnk" batch >"$tmp/out"; check "batch on empty input exits 0" 0 $?
check "batch on empty input writes nothing" "" "$(cat "$tmp/out")"

# Options taking a value accept a space as well as '='; a missing value is a usage error.
check "--tier statements equals --tier=statements" "$("$plurnk" parse --tier=statements "$tmp/t.plurnk")" \
    "$("$plurnk" parse --tier statements "$tmp/t.plurnk")"
"$plurnk" parse "$tmp/t.plurnk" --tier 2>/dev/null; check "--tier without a value exits 2" 2 $?

# Help: each command has its own (test/cli_docs_test.py checks it against the documentation);
# only commands with --tier list the tiers; help has its own help.
for cmd in parse batch bench gbnf score fmt help version; do
    "$plurnk" $cmd --help >"$tmp/cmdhelp"; check "$cmd --help exits 0" 0 $?
    check "$cmd --help is $cmd's usage" "usage: plurnk $cmd" "$(head -n 1 "$tmp/cmdhelp" | cut -d' ' -f1-3)"
    check "$cmd --help lists the tiers when it takes --tier" "$(grep -c '^  --tier=' "$tmp/cmdhelp")" \
        "$(grep -c '^tiers (T):' "$tmp/cmdhelp")"
done
"$plurnk" help help >"$tmp/out"; check "help help exits 0" 0 $?
check "help help equals help --help" "$(cat "$tmp/out")" "$("$plurnk" help --help)"
"$plurnk" help parse extra >/dev/null 2>&1; check "help with two commands exits 2" 2 $?

# A mistyped command or option names the nearest one; an unknown one names none.
"$plurnk" pasre "$turn" >/dev/null 2>"$tmp/err"; check "a mistyped command exits 2" 2 $?
check "a mistyped command: did you mean" "plurnk: unknown command 'pasre' (did you mean 'parse'?)" "$(head -n 1 "$tmp/err")"
"$plurnk" help fmat >/dev/null 2>"$tmp/err"; check "help of a mistyped command exits 2" 2 $?
check "help of a mistyped command: did you mean" "plurnk: unknown command 'fmat' (did you mean 'fmt'?)" "$(head -n 1 "$tmp/err")"
"$plurnk" parse --pretyy "$turn" >/dev/null 2>"$tmp/err"; check "a mistyped option exits 2" 2 $?
check "a mistyped option: did you mean" "plurnk: unknown option '--pretyy' for parse (did you mean '--pretty'?)" "$(head -n 1 "$tmp/err")"
"$plurnk" parse --Spans=3 "$turn" >/dev/null 2>"$tmp/err"
check "a mistyped option with a value: did you mean" "plurnk: unknown option '--Spans' for parse (did you mean '--spans'?)" "$(head -n 1 "$tmp/err")"
"$plurnk" score --chanel=none - </dev/null >/dev/null 2>"$tmp/err"
check "score --chanel: did you mean" "plurnk: unknown option '--chanel' for score (did you mean '--channel'?)" "$(head -n 1 "$tmp/err")"
"$plurnk" parse --max-open "$turn" >/dev/null 2>"$tmp/err"
check "the start of one option: did you mean" "plurnk: unknown option '--max-open' for parse (did you mean '--max-open-bytes'?)" "$(head -n 1 "$tmp/err")"
"$plurnk" gbnf --tier=statements >/dev/null 2>"$tmp/err"; check "an option of another command exits 2" 2 $?
check "an option of another command: no guess" "plurnk: unknown option '--tier' for gbnf" "$(head -n 1 "$tmp/err")"
"$plurnk" nonsense >/dev/null 2>"$tmp/err"
check "an unknown command: no guess" "plurnk: unknown command 'nonsense'" "$(head -n 1 "$tmp/err")"
"$plurnk" parse --pretty=yes "$turn" >/dev/null 2>"$tmp/err"; check "a value for a flag exits 2" 2 $?
check "a value for a flag" "plurnk: --pretty takes no value" "$(head -n 1 "$tmp/err")"

# Options that contradict each other are a usage error, not a silent choice.
"$plurnk" parse --format=sarif --pretty "$turn" >"$tmp/out" 2>/dev/null; check "parse --format=sarif --pretty exits 2" 2 $?
check "parse --format=sarif --pretty prints nothing" "" "$(cat "$tmp/out")"
"$plurnk" parse --spans --format=sarif "$turn" >/dev/null 2>&1; check "parse --spans --format=sarif exits 2" 2 $?
"$plurnk" parse --format=json --pretty "$turn" >/dev/null; check "parse --format=json --pretty exits 0" 0 $?
printf '{"id":"1","model":"m","text":"<<PLAN:p:PLAN"}\n' >"$tmp/rec.jsonl"
"$plurnk" score --json --format=sarif "$tmp/rec.jsonl" >"$tmp/out" 2>"$tmp/err"; check "score --json --format=sarif exits 2" 2 $?
check "score --json --format=sarif prints nothing" "" "$(cat "$tmp/out")"
check "score --json --format=sarif names both" "plurnk: --format=sarif conflicts with --json (one output format)" "$(head -n 1 "$tmp/err")"
"$plurnk" score --format=sarif --format=json "$tmp/rec.jsonl" >/dev/null 2>&1; check "score two formats exits 2" 2 $?
"$plurnk" score --json --format=json "$tmp/rec.jsonl" >/dev/null; check "score --json --format=json agree" 0 $?
"$plurnk" score --pretty "$tmp/rec.jsonl" >/dev/null 2>&1; check "score --pretty without JSON exits 2" 2 $?
"$plurnk" score --format=sarif --html="$tmp/x.html" "$tmp/rec.jsonl" >/dev/null 2>&1; check "score --format=sarif --html exits 2" 2 $?
"$plurnk" score --format=nonsense "$tmp/rec.jsonl" >/dev/null 2>&1; check "score --format=nonsense exits 2" 2 $?
"$plurnk" --version >"$tmp/out"; check "--version exits 0" 0 $?
check "--version carries the project version and the commit" 1 \
    "$(grep -c -E "^plurnk $version \(commit ([0-9a-f]{12}(-dirty)?|unknown); PLURNK language 1\.4\.0\)\$" "$tmp/out")"
check "version equals --version" "$(cat "$tmp/out")" "$("$plurnk" version)"

# bench counts statements, errors and text items apart and warns when the input has errors.
"$plurnk" bench --repeat=3 --tier=statements "$turn" >"$tmp/out" 2>"$tmp/err"; check "bench exits 0" 0 $?
grep -q "^$turn: [0-9]* bytes, [0-9]* statements, [0-9]* errors, [0-9]* warnings, [0-9]* text items" "$tmp/out"
check "bench counts the kinds apart" 0 $?
grep -q "warning: $turn parses with [1-9][0-9]* error items" "$tmp/err"; check "bench warns on a wrong tier" 0 $?
"$plurnk" bench --repeat=3 "$turn" >"$tmp/out" 2>"$tmp/err"; check "bench on a clean turn exits 0" 0 $?
grep -q "0 errors" "$tmp/out"; check "bench clean turn: 0 errors" 0 $?
grep -q "error items" "$tmp/err"; check "bench clean turn: no error warning" 1 $?
grep -q "streamed/one-shot" "$tmp/out"; check "bench without --chunk: no streamed ratio" 1 $?
"$plurnk" bench --repeat=3 --chunk=4 "$turn" >"$tmp/out" 2>"$tmp/err"; check "bench --chunk exits 0" 0 $?
grep -q "^  stream best .* in 4-byte chunks, CPU time$" "$tmp/out"; check "bench --chunk times the stream" 0 $?
grep -q "^  streamed/one-shot: [0-9]*\.[0-9][0-9]x$" "$tmp/out"; check "bench --chunk prints the ratio" 0 $?
"$plurnk" bench --chunk=0 "$turn" 2>/dev/null; check "bench --chunk=0 exits 2" 2 $?
"$plurnk" bench --repeat=3 --chunk=4 --events "$turn" >"$tmp/out" 2>"$tmp/err"; check "bench --chunk --events exits 0" 0 $?
grep -q "^  stream best .* in 4-byte chunks with events, CPU time$" "$tmp/out"; check "bench --events times the stream with events" 0 $?
grep -q "^  streamed/one-shot: [0-9]*\.[0-9][0-9]x$" "$tmp/out"; check "bench --events prints the ratio" 0 $?
grep -q "internal error" "$tmp/err"; check "bench --events: every item reported once" 1 $?
"$plurnk" bench --events "$turn" 2>/dev/null; check "bench --events without --chunk exits 2" 2 $?
# fmt: the canonical form, --check, diagnostics on stderr, statements with errors left alone.
"$plurnk" fmt --check "$turn" >"$tmp/out" 2>"$tmp/err"; check "fmt --check on the example turn exits 0" 0 $?
check "fmt --check prints nothing" "" "$(cat "$tmp/out")$(cat "$tmp/err")"
"$plurnk" fmt "$turn" >"$tmp/out"; check "fmt on a canonical turn exits 0" 0 $?
check "fmt on a canonical turn prints it unchanged" "$(cat "$turn")" "$(cat "$tmp/out")"
printf '<<PLAN:p:PLAN\n<<READ<1-3> (f(1).md):READ\n<<FIND(x) :/(/:FIND\n<<SEND[102] :go:SEND\n' >"$tmp/nc.plurnk"
"$plurnk" fmt "$tmp/nc.plurnk" >"$tmp/out" 2>"$tmp/err"; check "fmt with an error exits 1" 1 $?
check "fmt output" '<<PLAN:p:PLAN
<<READ(f\(1\).md)<1,3>::READ
<<FIND(x) :/(/:FIND
<<SEND[102]:go:SEND' "$(cat "$tmp/out")"
check "fmt reports the error at 1-based FILE:LINE:COLUMN" "plurnk: $tmp/nc.plurnk:3:1: error: pattern leads with \`/\` but is not a valid \`/pattern/flags\` regex - Invalid regular expression: /(/: Unterminated group: \`/(/\` (left as it is)" "$(cat "$tmp/err")"
"$plurnk" fmt --check "$tmp/nc.plurnk" >"$tmp/out" 2>"$tmp/err"; check "fmt --check on a non-canonical file exits 1" 1 $?
check "fmt --check names the file" 1 "$(grep -c "^plurnk: '$tmp/nc.plurnk' is not in canonical form" "$tmp/err")"
"$plurnk" fmt "$tmp/nc.plurnk" 2>/dev/null | "$plurnk" fmt --check - 2>"$tmp/err"; check "fmt output passes --check but for its error" 1 $?
check "fmt output: only the error is reported" 0 "$(grep -c "not in canonical form" "$tmp/err")"
printf '<<READ<1-3>(a.md):READ\n' | "$plurnk" fmt --tier=statements - >"$tmp/out"; check "fmt - --tier=statements exits 0" 0 $?
check "fmt - --tier=statements" "<<READ(a.md)<1,3>::READ" "$(cat "$tmp/out")"
# fmt --from --to: the migration between the dialects (doc/dialects.md).
printf '<<FIND(src/**):#a/b#i:FIND\n<<READ(x):/etc/hosts:READ\n  <<OPEN(log:///**)<1,10>::OPEN\n' >"$tmp/mig.plurnk"
"$plurnk" fmt --tier=statements --from=service --to=contracts "$tmp/mig.plurnk" >"$tmp/out" 2>"$tmp/err"
check "fmt --to with a statement left as it is exits 1" 1 $?
check "fmt --from=service --to=contracts" '<<FIND(src/**):/a\/b/i:FIND
<<READ(x):\/etc/hosts:READ
  <<OPEN(log:///**)<1,10>::OPEN' "$(cat "$tmp/out")"
check "fmt --to reports what it leaves, at FILE:LINE:COLUMN" "plurnk: $tmp/mig.plurnk:3:3: error: <<OPEN: OPEN and FOLD take no scope in 1.4.0 (left as it is)" "$(cat "$tmp/err")"
head -n 2 "$tmp/mig.plurnk" | "$plurnk" fmt --tier=statements --dialect=service --to contracts - >"$tmp/out" 2>"$tmp/err"
check "fmt --dialect=service --to contracts (all migrates) exits 0" 0 $?
"$plurnk" fmt --tier=statements "$tmp/out" >/dev/null 2>&1; check "the migrated text is clean in contracts" 0 $?
"$plurnk" fmt --tier=statements --to=contracts "$tmp/out" >"$tmp/out2" 2>&1; check "fmt --to the dialect read is fmt" "$(cat "$tmp/out")" "$(cat "$tmp/out2")"
"$plurnk" fmt --from=service --to=nope "$turn" >/dev/null 2>"$tmp/err"; check "fmt --to=nope exits 2" 2 $?
check "fmt --to=nope says why" "plurnk: unknown dialect 'nope' (expected contracts or service)" "$(head -n 1 "$tmp/err")"
"$plurnk" fmt --tier=nope "$turn" >/dev/null 2>&1; check "fmt --tier=nope exits 2" 2 $?
"$plurnk" fmt "$tmp/missing" >/dev/null 2>&1; check "fmt on a missing file exits 2" 2 $?
exit $((fails > 0))
