// SPDX-License-Identifier: MIT
// Loads every grammar the rail sentences name into llama.cpp's own grammar engine (through the
// node-llama-cpp bindings, prebuilt, no model, nothing downloaded: build "never") and requires
// that it parses each grammar, accepts every sampled sentence and agrees with the test's
// recognizer on every mutant ("rail" in the JSON line), and that it refuses broken grammars.
// usage: node rail_llama_check.mjs PLURNK SAMPLES.jsonl MUTANTS.jsonl
import {execFileSync} from "node:child_process";
import {readFileSync} from "node:fs";
import {getLlama} from "node-llama-cpp";

const [plurnk, samplesPath, mutantsPath] = process.argv.slice(2);
const llama = await getLlama({build: "never", gpu: false, logLevel: "error", progressLogs: false});
const grammars = new Map();  // JSON of the gbnf arguments -> LlamaGrammar
let failures = 0;

async function grammarFor(args) {
    const key = JSON.stringify(args);
    if (!grammars.has(key)) {
        const text = execFileSync(plurnk, ["gbnf", ...args], {encoding: "utf8", maxBuffer: 1 << 26});
        grammars.set(key, await llama.createGrammar({grammar: text}));
        console.log(`ok   llama.cpp parses plurnk gbnf ${args.join(" ")} (${text.length} bytes)`);
    }
    return grammars.get(key);
}

function lines(path) {
    return readFileSync(path, "utf8").split("\n").filter((l) => l.length > 0).map((l) => JSON.parse(l));
}

// Sampled sentences: every one is on its rail.
const perGrammar = new Map();
for (const s of lines(samplesPath)) {
    const g = await grammarFor(s.gbnf);
    const key = JSON.stringify(s.gbnf);
    const n = perGrammar.get(key) ?? {sentences: 0, refused: 0};
    n.sentences++;
    if (!g._testText(s.text)) {
        n.refused++;
        if (++failures <= 5) console.log(`FAIL llama.cpp refuses a rail sentence of gbnf ${s.gbnf.join(" ")}: ${JSON.stringify(s.text)}`);
    }
    perGrammar.set(key, n);
}
for (const [key, n] of perGrammar) {
    console.log(`${n.refused ? "FAIL" : "ok  "} gbnf ${JSON.parse(key).join(" ")}: llama.cpp accepts ${n.sentences - n.refused} of ${n.sentences} sampled sentences`);
}

// Mutants: llama.cpp and the test's recognizer agree on each.
let mutants = 0, disagreements = 0;
for (const m of lines(mutantsPath)) {
    const g = await grammarFor(m.gbnf);
    mutants++;
    if (g._testText(m.text) !== m.rail) {
        disagreements++;
        if (++failures <= 10) console.log(`FAIL llama.cpp and the recognizer disagree (recognizer: ${m.rail}): ${JSON.stringify(m.text)}`);
    }
}
console.log(`${disagreements ? "FAIL" : "ok  "} llama.cpp agrees with the recognizer on ${mutants - disagreements} of ${mutants} mutants`);

// Broken grammars are refused.
for (const bad of ['root ::= x\n', 'root ::= "a"\n| "b"\n', 'root ::= "a" (\n']) {
    let refused = false;
    try {
        await llama.createGrammar({grammar: bad});
    } catch {
        refused = true;
    }
    if (!refused) failures++;
    console.log(`${refused ? "ok  " : "FAIL"} llama.cpp refuses ${JSON.stringify(bad)}`);
}
if (mutants === 0 || perGrammar.size === 0) {
    console.log("FAIL no sentences to check");
    failures++;
}
process.exit(failures > 0 ? 1 : 0);
