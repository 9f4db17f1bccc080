// SPDX-License-Identifier: MIT
// The rail on xgrammar (the structured-output engine of vLLM, SGLang and MLC), through its WASM
// build @mlc-ai/web-xgrammar: every grammar the rail sentences name (each channel option and the
// other rail options, in both dialects: the 1.4.0 rail and `--dialect=service`) must load as
// `plurnk gbnf` writes it, accept every sampled sentence, and agree with the test's recognizer on
// every mutant ("rail" in the JSON line); broken grammars are refused. Each dialect's rail must
// have sampled sentences and mutants, some of them refused. Strings are matched with a GrammarMatcher over a one-token vocabulary (the string
// accepted, then the stop token: the grammar may end there), which answers as
// Testings.isGrammarAcceptString does (checked on a sample of each file) at a fraction of its cost.
// usage: node rail_xgrammar_check.mjs XGRAMMAR_CJS PLURNK SAMPLES.jsonl MUTANTS.jsonl
import {execFileSync} from "node:child_process";
import {readFileSync} from "node:fs";
import {createRequire} from "node:module";

const [xgPath, plurnk, samplesPath, mutantsPath] = process.argv.slice(2);
const xg = createRequire(import.meta.url)(xgPath);
const tokenizer = await xg.TokenizerInfo.createTokenizerInfo(["<eos>"], "raw", false, 1, [0]);
const compiler = await xg.GrammarCompiler.createGrammarCompiler(tokenizer, false);
const grammars = new Map();  // JSON of the gbnf arguments -> {grammar, matcher}
let failures = 0;

function fail(message) {
    if (++failures <= 10) console.log(`FAIL ${message}`);
}

async function grammarFor(args) {
    const key = JSON.stringify(args);
    if (!grammars.has(key)) {
        const text = execFileSync(plurnk, ["gbnf", ...args], {encoding: "utf8", maxBuffer: 1 << 26});
        const grammar = await xg.Grammar.fromEBNF(text, "root");
        const matcher = await xg.GrammarMatcher.createGrammarMatcher(await compiler.compileGrammar(grammar), [0], false);
        grammars.set(key, {grammar, matcher, checked: 0});
        console.log(`ok   xgrammar loads plurnk gbnf ${args.join(" ")} (${text.length} bytes)`);
    }
    return grammars.get(key);
}

async function accepts(g, text) {
    g.matcher.reset();
    const verdict = g.matcher._acceptString(text) && g.matcher.acceptToken(0);
    // The matcher's answer is xgrammar's own string test's, on the first few of each grammar.
    if (g.checked < 5) {
        g.checked++;
        if ((await xg.Testings.isGrammarAcceptString(g.grammar, text)) !== verdict) {
            fail(`the matcher and Testings.isGrammarAcceptString disagree on ${JSON.stringify(text)}`);
        }
    }
    return verdict;
}

// The dialect whose rail a line's `plurnk gbnf` arguments name.
function dialectOf(args) {
    return args.includes("--dialect=service") ? "service" : "contracts";
}
const dialects = {contracts: {sentences: 0, mutants: 0, refused: 0}, service: {sentences: 0, mutants: 0, refused: 0}};

function lines(path) {
    return readFileSync(path, "utf8").split("\n").filter((l) => l.length > 0).map((l) => JSON.parse(l));
}

const perGrammar = new Map();
for (const s of lines(samplesPath)) {
    const g = await grammarFor(s.gbnf);
    const key = JSON.stringify(s.gbnf);
    const n = perGrammar.get(key) ?? {sentences: 0, refused: 0};
    n.sentences++;
    dialects[dialectOf(s.gbnf)].sentences++;
    if (!(await accepts(g, s.text))) {
        n.refused++;
        fail(`xgrammar refuses a rail sentence of gbnf ${s.gbnf.join(" ")}: ${JSON.stringify(s.text)}`);
    }
    perGrammar.set(key, n);
}
for (const [key, n] of perGrammar) {
    console.log(`${n.refused ? "FAIL" : "ok  "} gbnf ${JSON.parse(key).join(" ")}: xgrammar accepts ${n.sentences - n.refused} of ${n.sentences} sampled sentences`);
}

let mutants = 0, disagreements = 0, refused = 0;
for (const m of lines(mutantsPath)) {
    const g = await grammarFor(m.gbnf);
    mutants++;
    const d = dialects[dialectOf(m.gbnf)];
    d.mutants++;
    const verdict = await accepts(g, m.text);
    if (!verdict) {
        refused++;
        d.refused++;
    }
    if (verdict !== m.rail) {
        disagreements++;
        fail(`xgrammar and the recognizer disagree (recognizer: ${m.rail}): ${JSON.stringify(m.text)}`);
    }
}
console.log(`${disagreements ? "FAIL" : "ok  "} xgrammar agrees with the recognizer on ${mutants - disagreements} of ${mutants} mutants (${refused} refused)`);

for (const bad of ['root ::= x\n', 'root ::= "a" (\n', 'rot ::= "a"\n']) {
    let isRefused = false;
    try {
        await xg.Grammar.fromEBNF(bad, "root");
    } catch {
        isRefused = true;
    }
    if (!isRefused) failures++;
    console.log(`${isRefused ? "ok  " : "FAIL"} xgrammar refuses ${JSON.stringify(bad)}`);
}
if (mutants === 0 || perGrammar.size < 5 || refused === 0) {
    console.log("FAIL too few sentences, grammars or refused mutants to say anything");
    failures++;
}
for (const [name, d] of Object.entries(dialects)) {
    const enough = d.sentences > 0 && d.mutants > 0 && d.refused > 0;
    if (!enough) failures++;
    console.log(`${enough ? "ok  " : "FAIL"} the ${name} rail: ${d.sentences} sampled sentences, ${d.mutants} mutants (${d.refused} refused)`);
}
process.exit(failures > 0 ? 1 : 0);
