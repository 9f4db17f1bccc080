// SPDX-License-Identifier: MIT
// The official OpenAI SDK for Node as the client of doc/examples/openai_server.py: for every
// recorded turn, a streamed request (the chunks' deltas assembled by hand, reasoning_content
// included), the SDK's own stream helper (finalChatCompletion), a non-streamed request, and a
// streamed request to the server acting as an adapter that is never told the turn ended, must
// each give exactly the expected content, reasoning and tool calls (name and arguments, ids
// distinct) and finish reason (test/openai/expected.json).
// usage: node openai_sdk_check.mjs EXPECTED.json PYTHON SERVER.py   (run with NODE_PATH-free
// resolution: a node_modules holding `openai` beside this script)
import {spawn} from "node:child_process";
import {readFileSync} from "node:fs";
import {isDeepStrictEqual} from "node:util";
import OpenAI from "openai";

const [expectedPath, python, server] = process.argv.slice(2);
const expected = JSON.parse(readFileSync(expectedPath, "utf8"));
let failures = 0, checks = 0;

const child = spawn(python, [server, "--port", "0"], {stdio: ["ignore", "pipe", "inherit"]});
const port = await new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (b) => {
        out += b;
        const m = out.match(/listening on http:\/\/127\.0\.0\.1:(\d+)/);
        if (m) resolve(Number(m[1]));
    });
    child.on("exit", (code) => reject(new Error(`the server exited (${code})`)));
});
const client = new OpenAI({baseURL: `http://127.0.0.1:${port}/v1`, apiKey: "none"});

function compare(what, name, got, want) {
    checks++;
    const calls = (got.tool_calls ?? []).map((c) => ({name: c.function.name, arguments: JSON.parse(c.function.arguments)}));
    const ids = new Set((got.tool_calls ?? []).map((c) => c.id));
    const problems = [];
    if ((got.content ?? "") !== want.content) problems.push(`content ${JSON.stringify(got.content)}`);
    if (got.reasoning_content !== undefined && (got.reasoning_content ?? "") !== want.reasoning_content) {
        problems.push(`reasoning_content (${(got.reasoning_content ?? "").length} chars) differs`);
    }
    if (got.reasoning_content === undefined && want.reasoning_content !== "" && !got.noReasoning) {
        problems.push("no reasoning_content");
    }
    if (!isDeepStrictEqual(calls, want.tool_calls)) problems.push(`tool calls ${JSON.stringify(calls).slice(0, 400)}`);
    if (ids.size !== calls.length || [...ids].some((id) => typeof id !== "string" || id === "")) problems.push("tool call ids");
    if (got.finish_reason !== want.finish_reason) problems.push(`finish_reason ${got.finish_reason}`);
    if (problems.length) {
        failures++;
        console.log(`FAIL ${name} (${what}): ${problems.join("; ")}`);
    } else {
        console.log(`ok   ${name} (${what}): ${want.content.length} chars of content, ${want.reasoning_content.length} of reasoning, ${calls.length} tool calls, ${got.finish_reason}`);
    }
}

async function streamed(name, extra = {}) {
    const stream = await client.chat.completions.create({model: name, messages: [{role: "user", content: "go"}], stream: true, ...extra});
    const got = {content: "", reasoning_content: "", tool_calls: [], finish_reason: null};
    for await (const chunk of stream) {
        const choice = chunk.choices[0];
        const d = choice.delta ?? {};
        if (d.content) got.content += d.content;
        if (d.reasoning_content) got.reasoning_content += d.reasoning_content;
        for (const t of d.tool_calls ?? []) {
            const slot = (got.tool_calls[t.index] ??= {id: "", function: {name: "", arguments: ""}});
            if (t.id) slot.id = t.id;
            if (t.function?.name) slot.function.name += t.function.name;
            if (t.function?.arguments) slot.function.arguments += t.function.arguments;
        }
        if (choice.finish_reason) got.finish_reason = choice.finish_reason;
    }
    return got;
}

async function check(what, name, want, get) {
    try {
        compare(what, name, await get(), want);
    } catch (e) {
        checks++;
        failures++;
        console.log(`FAIL ${name} (${what}): ${e}`);
    }
}

for (const [name, want] of Object.entries(expected)) {
    await check("streamed", name, want, () => streamed(name));

    // The helper assembles the fields the SDK knows (content, tool calls); reasoning_content is not one.
    await check("stream helper", name, want, async () => {
        const final = await client.chat.completions.stream({model: name, messages: [{role: "user", content: "go"}]}).finalChatCompletion();
        const m = final.choices[0].message;
        return {content: m.content, tool_calls: m.tool_calls, finish_reason: final.choices[0].finish_reason, noReasoning: true};
    });
    await check("not streamed", name, want, async () => {
        const whole = await client.chat.completions.create({model: name, messages: [{role: "user", content: "go"}]});
        return {...whole.choices[0].message, finish_reason: whole.choices[0].finish_reason};
    });
    await check("never told the end", name, want, () => streamed(name, {plurnk_never_told_end: true}));
}
child.kill();
if (checks === 0) failures++;
console.log(`${checks - failures} passed, ${failures} failed`);
process.exit(failures > 0 ? 1 : 0);
