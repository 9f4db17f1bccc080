#!/bin/sh
# The plurnk command's contract: exit statuses, --chunk equal to one-shot, --max-input-bytes,
# the UTF-8 refusal, and batch. usage: cli_test.sh PLURNK EXAMPLE_TURN
set -u
plurnk=$1 turn=$2
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
exit $((fails > 0))
