#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Regenerates the seed corpora under fuzz/corpus/<target>/ from the conformance vectors
(test/conformance/parser.jsonl) and the fenced examples of the spec (../shared/spec/SPEC.md,
plurnk.md), plus a few hand-written hostile seeds. Deterministic; keeps every corpus small
(at most PER_TARGET files of at most MAX_LEN bytes). Usage: fuzz/gen_corpus.py [SPEC_DIR]"""
import hashlib, json, os, re, shutil, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SPEC = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, '..', 'shared', 'spec')
OUT = os.path.join(ROOT, 'fuzz', 'corpus')
PER_TARGET = 300
SMALL_TARGETS = {'target_fast': 120, 'statement_fast': 120}  # seed corpora kept smaller than PER_TARGET
MAX_LEN = 2048

seeds = {t: [] for t in ['parse', 'statements', 'log', 'client', 'url', 'json', 'regex', 'xpath',
                         'jsonpath', 'path', 'target_fast', 'json_writer', 'wire', 'format', 'statement_fast']}

def add(target, text):
    data = text.encode('utf-8', 'surrogatepass') if isinstance(text, str) else text
    if 0 < len(data) <= MAX_LEN:
        seeds[target].append(data)

vectors = [json.loads(l) for l in open(os.path.join(ROOT, 'test', 'conformance', 'parser.jsonl'))]
FORMAT_TIERS = ['parse', 'statements', 'log', 'client']  # fuzz_format: the first byte picks the tier
for v in vectors:
    add(v['tier'], v['input'])
    add('statement_fast', v['input'])  # run in every tier
    add('format', bytes([FORMAT_TIERS.index(v['tier'])]) + v['input'].encode('utf-8', 'surrogatepass'))
    for it in v['expected'].get('items', []):
        if it['kind'] != 'statement':
            continue
        s = it['statement']
        if s['target']:
            add('path', s['target']['raw'])
            if s['target']['kind'] == 'url':
                add('url', s['target']['raw'])
                add('target_fast', s['target']['raw'])
        b = s['body']
        if isinstance(b, dict) and 'dialect' in b:
            d = b['dialect']
            if d == 'regex':
                add('regex', b['raw'][1:])
            elif d in ('xpath', 'jsonpath'):
                add(d, b['raw'])
        elif isinstance(b, dict) and 'raw' in b and 'json' in b:
            add('json', b['raw'])
        elif isinstance(b, dict) and 'target' in b:
            add('path', b['target']['raw'])
# Inputs whose validator rejected them: the body text between the fences of the error vectors.
for v in vectors:
    for m in re.finditer(r'<<(FIND|READ|OPEN|FOLD)[^:\n]*:(/[^\n]*?|\$[^\n]*?):\1', v['input']):
        body = m.group(2)
        if body.startswith('//'):
            add('xpath', body)
        elif body.startswith('/'):
            add('regex', body[1:])
        else:
            add('jsonpath', body)

# fuzz_wire: one byte choosing the contract (its index in wire.hpp's enum; 18 and up: the bytes
# after it are Problems.create's argument array), then the JSON text.
WIRE_CONTRACTS = ['Position', 'LineMarker', 'ParsedPath', 'MatcherBody', 'SendBody', 'ResourceSelection',
                  'PlurnkStatement', 'ClientStatement', 'Notice', 'ProblemDetails', 'OperationResult',
                  'EntryReadResult', 'TextRegion', 'LoopFlags', 'ProposalDisposition', 'ProposalProjection',
                  'ClientDisplayCapabilities', 'ProviderCost']
for name in ('wire.jsonl', 'wire-reference-cases.jsonl'):
    for l in open(os.path.join(ROOT, 'test', 'wire', name), encoding='utf-8'):
        v = json.loads(l)
        if 'args' in v:
            add('wire', bytes([18]) + json.dumps(v['args'], ensure_ascii=False).encode('utf-8', 'surrogatepass'))
        else:
            add('wire', bytes([WIRE_CONTRACTS.index(v['contract'])]) +
                json.dumps(v['instance'], ensure_ascii=False).encode('utf-8', 'surrogatepass'))

# Everything added from here on (spec examples, hand-written seeds) is always kept.
hand_written_from = {t: len(v) for t, v in seeds.items()}
for name in ('SPEC.md', 'plurnk.md'):
    path = os.path.join(SPEC, name)
    if not os.path.exists(path):
        continue
    for block in re.findall(r'```[a-z]*\n(.*?)```', open(path, encoding='utf-8').read(), re.S):
        if '<<' in block:
            add('parse', block)
            add('statements', block)
            add('client', block)
            add('log', '<<TURN:\n' + block + '\n:TURN')

hostile = [
    '<' * 64, '<<READ' * 16, '<<READ(' * 16, '<<READ:' + ':READX:REA:READ_' * 8,
    '<<TURN:' * 32, '<<TURN[a]:<<TURN_1:<<PLAN:x:PLAN:TURN_1:TURN', '<<READ(' + '(' * 64,
    '\r\n\r\r\n\n\r' * 8, '\x00\x01\x1f\x7f<<READ(\x00)::READ', '<<EDIT(a):\xed\xa0\x80\xc0\x80\xff:EDIT',
    '<<PLAN:p:PLAN\n<<SEND[200]:done:SEND', '<<think><<READ(x)::READ</think>',
]
for h in hostile:
    data = h.encode('latin-1')
    for t in ('parse', 'statements', 'log', 'client'):
        add(t, data)
for r in ['(' * 40 + ')' * 40, '[\\p{L}--[a-z]]/v', '(?<a>x)\\k<a>/gimsuyd', 'a{2,1}', '\\u{110000}/u']:
    add('regex', r)
for j in ['$' + '[?(' * 30 + '@.a' + ')]' * 30, '$..a[?@.b == 1 && length(@.c) > 2]', "$['a',1:2:-1,*]"]:
    add('jsonpath', j)
for x in ['//a' + '[' * 30 + '1' + ']' * 30, 'count(//a[@b and not(c)]) > 1', '//a/b/following-sibling::*']:
    add('xpath', x)
for j in ['[' * 100 + ']' * 100, '{"a":[1,-0,1e400,"\\ud800"]}', '"\xff"', '1.5e-324']:
    add('json', j.encode('latin-1'))
for u in ['http://[::1]:80/a?b#c', 'https://xn--nxasmq6b.com/%zz', 'file:///C:/x', 'web+demo:/.//p']:
    add('url', u)
    add('path', u)
# fuzz_wire: the shapes only the service dialect's schemas admit (a regex path, an OPEN scope, a
# FORK without a prompt, a regex MOVE destination), which fuzz_wire checks in both dialects.
AT = ',"position":{"line":1,"column":0}}'
RX = '{"kind":"regex","raw":"#b.*#i","pattern":"b.*","flags":"i"}'
for contract, w in [('ParsedPath', RX),
                    ('PlurnkStatement', '{"op":"OPEN","suffix":"","signal":null,"target":null,"lineMarker":{"marks":[1,10]},"body":null' + AT),
                    ('PlurnkStatement', '{"op":"FORK","suffix":"","signal":null,"target":null,"lineMarker":null,"body":null' + AT),
                    ('ClientStatement', '{"op":"MOVE","suffix":"","signal":null,"target":{"kind":"local","raw":"a"},"lineMarker":null,"body":{"target":' + RX + ',"lineMarker":null}' + AT)]:
    add('wire', bytes([WIRE_CONTRACTS.index(contract)]) + w.encode('utf-8'))
# fuzz_target_fast: what the fast path takes, and its near misses.
for u in ['worker://peer-4', 'worker:///src5.md', 'log:///1/7/7', 'src/module0/file0.ts',
          'http://example.com:8080/a/b?q#f', 'https://h:443', 'foo://h/p#a?b#c', 'worker://?#',
          'https://a.b.c-d/x/.y?%zz#%', 'ws://h:0/', 'http://a.1/', 'worker://h/a/..', 'HTTP://h/',
          'https://h:080/', 'worker://user@h/', 'https://h/%2e/x', 'http://xn--a.b/', 'a\\(b\\).md']:
    add('target_fast', u)

# fuzz_statement_fast: every shape the statement parser's fast path takes, in each context, and
# near misses it must leave to the productions (a slot twice, a scope before the disposition, no
# body for WORK, a stray token, a statement cut short).
for d in ['<<FIND[a,,b](src/)<1,2>:/re/:FIND<<READ<3>(a)[t]::READ<<KILL[200]:KILL<<EXEC[sh]:ls:EXEC',
          '<<PLAN:p:PLAN\ntext <<SEND[3]:a:SEND <<WORK[b]:go:WORK <<SEND(x)[200]<1>:d:SEND tail',
          '<<TURN:<<PLAN::PLAN<<OPEN[t](a)::OPEN<<SEND[102]:x:SEND:TURN<<TURN:x:TURN',
          '<<LOOK(a):b:LOOK<<BUFF[t]<1>::BUFF<<SEND[]:SEND<<SEND[499]:SEND',
          '<<READ(a)(b):READ<<FIND<1><2>:x:FIND<<WORK::WORK<<FORK[]:x:FORK<<SEND<1>[200]:x:SEND',
          '<<PLAN:p:PLAN <<SEND[200]<1><2>:x:SEND <<READ(a:x:READ <<KILL[x][y]:KILL <<READ']:
    add('statement_fast', d)

for target, items in seeds.items():
    # Only the folders generated here (amplify's seeds are hand-written).
    if os.path.isdir(os.path.join(OUT, target)):
        shutil.rmtree(os.path.join(OUT, target))
    # Deduplicate, prefer diversity: sort by hash, keep the first PER_TARGET.
    kept = set(items[hand_written_from[target]:])
    rest = sorted(set(items) - kept, key=lambda d: hashlib.sha1(d).hexdigest())
    uniq = sorted(kept) + rest[:max(0, SMALL_TARGETS.get(target, PER_TARGET) - len(kept))]
    # The writer target reads its bytes through FuzzedDataProvider: parser seeds serve as noise.
    if target == 'json_writer':
        uniq = sorted(set(seeds['statements']), key=lambda d: hashlib.sha1(d).hexdigest())[:60]
    os.makedirs(os.path.join(OUT, target))
    for d in uniq:
        with open(os.path.join(OUT, target, hashlib.sha1(d).hexdigest()[:16]), 'wb') as f:
            f.write(d)
    print(target, len(uniq), sum(map(len, uniq)))
