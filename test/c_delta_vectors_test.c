/* SPDX-License-Identifier: MIT */
/* Property test of the C delta streams (plurnk.h, "Serving"), from plain C11, as
 * test/serve_test.cpp runs it in C++ and python/tests/test_deltas.py in Python: every conformance
 * vector fed in chunks of 1, 7 and 64 bytes, with seeded random checkpoints (a copy fed junk and
 * freed, or restored after junk was fed), drafts (accepted whole, accepted in part, rejected, and
 * rejected drafts of junk) and peek_end calls on the way, gives deltas whose concatenation is the
 * one-shot split of the turn (plurnk_openai_message_json): the same content, reasoning and tool
 * calls; each statement equals the one-shot result's item (statement JSON, byte span, index) and
 * is tool call number first_call + i; each peek_end equals what end gives a checkpoint at that
 * point; the runaways are those of a plain plurnk_stream fed the chunks kept; finish equals
 * plurnk_parse. With the service dialect over its vectors (a second file), the reference is the
 * result of plurnk_parse_ex and the stream's deltas fed whole (the C API splits whole turns in the
 * contracts dialect only).
 * Usage: c_delta_vectors_test PARSER.jsonl [SERVICE.jsonl] */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c_vectors.h"
#include "plurnk/plurnk.h"

static long g_runs = 0;
static long g_failures = 0;

#define CHECK(cond)                                                                                      \
    do {                                                                                                 \
        if (!(cond)) {                                                                                   \
            if (++g_failures <= 20) fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                                                \
    } while (0)

/* ---- growable byte strings ---- */

typedef struct buf {
    char* p;
    size_t len, cap;
} buf;

static void buf_add(buf* b, const char* data, size_t n) {
    if (b->len + n + 1 > b->cap) {
        b->cap = (b->len + n + 1) * 2;
        b->p = (char*)realloc(b->p, b->cap);
        if (b->p == NULL) abort();
    }
    if (n != 0) memcpy(b->p + b->len, data, n);
    b->len += n;
    b->p[b->len] = '\0';
}

static void buf_str(buf* b, plurnk_str s) { buf_add(b, s.data, s.len); }
static int buf_is(const buf* b, const char* data, size_t n) { return b->len == n && (n == 0 || memcmp(b->p, data, n) == 0); }

/* ---- what a whole turn gives ---- */

typedef struct statement_ref {
    size_t index, span_begin, span_end;
    char* json;
    size_t json_len;
} statement_ref;

typedef struct want {
    buf content, reasoning, tool_calls; /* tool_calls: the message's array, "" when it has none */
    statement_ref* statements;
    size_t statement_count;
    char* result_json; /* plurnk_result_json, compact */
    size_t result_len;
} want;

static void want_free(want* w) {
    size_t i;
    free(w->content.p);
    free(w->reasoning.p);
    free(w->tool_calls.p);
    for (i = 0; i < w->statement_count; ++i) free(w->statements[i].json);
    free(w->statements);
    free(w->result_json);
    memset(w, 0, sizeof *w);
}

/* The statements and JSON of a one-shot result. */
static void want_result(want* w, const plurnk_result* r) {
    const size_t n = plurnk_result_item_count(r);
    size_t i;
    plurnk_str json;
    w->statements = (statement_ref*)xmalloc(n * sizeof *w->statements);
    for (i = 0; i < n; ++i) {
        plurnk_item it;
        it.struct_size = sizeof it;
        CHECK(plurnk_result_item(r, i, &it) == PLURNK_OK);
        if (it.kind != PLURNK_ITEM_STATEMENT) continue;
        statement_ref* s = &w->statements[w->statement_count++];
        s->index = i;
        s->span_begin = it.span_begin;
        s->span_end = it.span_end;
        s->json = (char*)xmalloc(it.statement_json.len + 1);
        memcpy(s->json, it.statement_json.data, it.statement_json.len);
        s->json_len = it.statement_json.len;
    }
    CHECK(plurnk_result_json(r, PLURNK_JSON_COMPACT, &json) == PLURNK_OK);
    w->result_json = (char*)xmalloc(json.len + 1);
    memcpy(w->result_json, json.data, json.len);
    w->result_len = json.len;
}

/* Reads plurnk_openai_message_json's {"role":"assistant","content":…,"reasoning_content":…,
 * "tool_calls":[…]} into `w`, member by member in that order. */
static int want_message(want* w, const char* msg, size_t len) {
    static const char head[] = "{\"role\":\"assistant\",\"content\":";
    static const char reasoning[] = ",\"reasoning_content\":\"";
    static const char calls[] = ",\"tool_calls\":";
    const char* p = msg;
    size_t n = 0;
    if (strncmp(p, head, sizeof head - 1) != 0) return 0;
    p += sizeof head - 1;
    if (strncmp(p, "null", 4) == 0) {
        p += 4;
    } else if (*p == '"') {
        char* s = json_string_at(p + 1, &n, &p);
        buf_add(&w->content, s, n);
        free(s);
    } else {
        return 0;
    }
    if (strncmp(p, reasoning, sizeof reasoning - 1) == 0) {
        char* s = json_string_at(p + sizeof reasoning - 1, &n, &p);
        buf_add(&w->reasoning, s, n);
        free(s);
    }
    if (strncmp(p, calls, sizeof calls - 1) == 0) {
        p += sizeof calls - 1;
        buf_add(&w->tool_calls, p, (size_t)(msg + len - 1 - p));
        p = msg + len - 1;
    }
    return p == msg + len - 1 && *p == '}';
}

/* ---- one run ---- */

typedef struct got {
    buf content, reasoning, tool_calls;
    size_t statements;   /* statements received so far */
    int bad;             /* a statement differed */
    buf runaways;        /* "begin/bytes/where " of each runaway */
} got;

static void got_free(got* g) {
    free(g->content.p);
    free(g->reasoning.p);
    free(g->tool_calls.p);
    free(g->runaways.p);
}

static void add_runaway(buf* b, const plurnk_open* o) {
    char text[64];
    const int n = snprintf(text, sizeof text, "%zu/%zu/%d ", o->begin, o->bytes, (int)o->where);
    buf_add(b, text, (size_t)n);
}

/* Adds the last delta of `s` to `g`, checking its statements against `w`. */
static void take(plurnk_delta_stream* s, const plurnk_delta* d, got* g, const want* w) {
    size_t i;
    buf_str(&g->content, d->content);
    buf_str(&g->reasoning, d->reasoning);
    for (i = 0; i < d->statement_count; ++i) {
        plurnk_item it;
        size_t index = 0;
        char* call = NULL;
        size_t call_len = 0;
        const size_t k = g->statements++;
        it.struct_size = sizeof it;
        if (plurnk_delta_stream_statement(s, i, &index, &it) != PLURNK_OK || d->first_call + i != k ||
            k >= w->statement_count) {
            g->bad = 1;
            continue;
        }
        if ((index != PLURNK_NO_INDEX && index != w->statements[k].index) || it.span_begin != w->statements[k].span_begin ||
            it.span_end != w->statements[k].span_end || it.statement_json.len != w->statements[k].json_len ||
            memcmp(it.statement_json.data, w->statements[k].json, it.statement_json.len) != 0) {
            g->bad = 1;
        }
        if (plurnk_statement_tool_call(it.statement, d->first_call + i, NULL, 0, &call, &call_len) != PLURNK_OK) {
            g->bad = 1;
            continue;
        }
        buf_add(&g->tool_calls, g->tool_calls.len == 0 ? "[" : ",", 1);
        buf_add(&g->tool_calls, call, call_len);
        plurnk_free_string(call);
    }
    for (i = 0; i < d->runaway_count; ++i) {
        plurnk_open o;
        o.struct_size = sizeof o;
        CHECK(plurnk_delta_stream_runaway(s, i, &o) == PLURNK_OK);
        add_runaway(&g->runaways, &o);
    }
}

/* The last delta's chunk JSON, copied (it is borrowed). */
static char* chunk_of(plurnk_delta_stream* s) {
    plurnk_str c;
    char* out;
    if (plurnk_delta_stream_chunk_json(s, NULL, &c) != PLURNK_OK) return NULL;
    out = (char*)xmalloc(c.len + 1);
    memcpy(out, c.data, c.len);
    out[c.len] = '\0';
    return out;
}

/* peek_end equals what end gives a checkpoint taken now. */
static int peek_is_end(plurnk_delta_stream* s) {
    plurnk_delta_stream* cp = NULL;
    plurnk_delta d;
    char *peek, *end;
    int same;
    d.struct_size = sizeof d;
    if (plurnk_delta_stream_checkpoint(s, &cp) != PLURNK_OK || plurnk_delta_stream_end(cp, &d) != PLURNK_OK) return 0;
    end = chunk_of(cp);
    d.struct_size = sizeof d;
    CHECK(plurnk_delta_stream_peek_end(s, &d) == PLURNK_OK);
    peek = chunk_of(s);
    same = peek != NULL && end != NULL && strcmp(peek, end) == 0;
    free(peek);
    free(end);
    plurnk_delta_stream_free(cp);
    return same;
}

static const char* const k_junk[] = {"<<SEND[200]:junk:SEND\n", "<think>", ":EDIT", "<<EDIT(x):", "</think> x",
                                     "\xE2\x82", "<<READ(j)::READ "};
#define JUNK_COUNT (sizeof k_junk / sizeof k_junk[0])

static const char* junk(uint64_t* rng) { return k_junk[next_random(rng) % JUNK_COUNT]; }

/* Streams `in` in `chunk`-byte pieces with random checkpoints, drafts and peeks; 0 when the deltas
 * add up to `w` (else 1, after saying what differs). */
static int run(const char* id, const char* in, size_t len, plurnk_tier tier, int32_t dialect, size_t chunk,
               uint64_t seed, const want* w) {
    uint64_t rng = seed;
    plurnk_stream_options o;
    plurnk_delta_stream* s = NULL;
    plurnk_stream* plain = NULL;
    plurnk_result* r = NULL;
    plurnk_delta d;
    plurnk_open ro;
    plurnk_str json;
    got g;
    buf plain_runaways = {NULL, 0, 0};
    size_t at = 0;
    int ok = 1;
    memset(&g, 0, sizeof g);
    memset(&o, 0, sizeof o);
    o.struct_size = sizeof o;
    o.dialect = dialect;
    o.max_open_bytes = next_random(&rng) % 3 == 0 ? 8 + next_random(&rng) % 64 : 0; /* sometimes a runaway limit */
    o.release_threshold = next_random(&rng) % 2 == 0 ? 1 : 0;
    if (plurnk_delta_stream_create(tier, &o, &s) != PLURNK_OK || plurnk_stream_create_ex(tier, &o, &plain) != PLURNK_OK) {
        plurnk_delta_stream_free(s);
        return 1;
    }
    ++g_runs;
    d.struct_size = sizeof d;
    while (at < len && ok) {
        size_t n = len - at < chunk ? len - at : chunk;
        switch (next_random(&rng) % 16) {
            case 0: { /* a checkpoint fed junk, then freed */
                plurnk_delta_stream* cp = NULL;
                CHECK(plurnk_delta_stream_checkpoint(s, &cp) == PLURNK_OK);
                const char* j = junk(&rng);
                CHECK(plurnk_delta_stream_feed(cp, j, strlen(j), &d) == PLURNK_OK);
                plurnk_delta_stream_free(cp);
                break;
            }
            case 1: { /* junk fed, then the checkpoint restored */
                plurnk_delta_stream* cp = NULL;
                CHECK(plurnk_delta_stream_checkpoint(s, &cp) == PLURNK_OK);
                const char* j = junk(&rng);
                CHECK(plurnk_delta_stream_feed(s, j, strlen(j), &d) == PLURNK_OK);
                CHECK(plurnk_delta_stream_restore(s, cp) == PLURNK_OK);
                plurnk_delta_stream_free(cp);
                break;
            }
            case 2: { /* a rejected draft of junk */
                unsigned k = 1 + (unsigned)(next_random(&rng) % 3);
                CHECK(plurnk_delta_stream_draft(s) == PLURNK_OK);
                for (; k > 0; --k) {
                    const char* j = junk(&rng);
                    CHECK(plurnk_delta_stream_feed(s, j, strlen(j), &d) == PLURNK_OK);
                }
                CHECK(plurnk_delta_stream_reject(s) == PLURNK_OK);
                break;
            }
            case 3: { /* a draft of the next chunks, accepted whole or in part (the rest fed again) */
                size_t pieces = 1 + (size_t)(next_random(&rng) % 4), k, keep, kept_bytes = 0, bytes = 0;
                CHECK(plurnk_delta_stream_draft(s) == PLURNK_OK);
                for (k = 0; k < pieces && at + bytes < len; ++k) {
                    const size_t m = len - at - bytes < chunk ? len - at - bytes : chunk;
                    CHECK(plurnk_delta_stream_feed(s, in + at + bytes, m, &d) == PLURNK_OK);
                    if (d.content.len != 0 || d.reasoning.len != 0 || d.statement_count != 0 || d.runaway_count != 0) {
                        fprintf(stderr, "%s: a draft's feed returned a delta\n", id);
                        ok = 0;
                    }
                    bytes += m;
                }
                pieces = k;
                keep = next_random(&rng) % 2 == 0 ? pieces : (size_t)(next_random(&rng) % (pieces + 1));
                d.struct_size = sizeof d;
                CHECK(plurnk_delta_stream_accept(s, keep == pieces ? PLURNK_ALL_CHUNKS : keep, &d) == PLURNK_OK);
                take(s, &d, &g, w);
                for (k = 0; k < keep; ++k) {
                    const size_t m = len - at - kept_bytes < chunk ? len - at - kept_bytes : chunk;
                    CHECK(plurnk_stream_feed(plain, in + at + kept_bytes, m) == PLURNK_OK);
                    kept_bytes += m;
                }
                at += kept_bytes;
                continue;
            }
            case 4:
                if (!peek_is_end(s)) {
                    fprintf(stderr, "%s chunk %zu: peek_end differs from end at byte %zu\n", id, chunk, at);
                    ok = 0;
                }
                break;
            default: break;
        }
        d.struct_size = sizeof d;
        CHECK(plurnk_delta_stream_feed(s, in + at, n, &d) == PLURNK_OK);
        take(s, &d, &g, w);
        CHECK(plurnk_stream_feed(plain, in + at, n) == PLURNK_OK);
        at += n;
    }
    if (ok && !peek_is_end(s)) {
        fprintf(stderr, "%s chunk %zu: peek_end differs from end at the end\n", id, chunk);
        ok = 0;
    }
    d.struct_size = sizeof d;
    CHECK(plurnk_delta_stream_end(s, &d) == PLURNK_OK);
    take(s, &d, &g, w);
    CHECK(plurnk_delta_stream_finish(s, &r) == PLURNK_OK);
    if (r == NULL || plurnk_result_json(r, PLURNK_JSON_COMPACT, &json) != PLURNK_OK ||
        !(json.len == w->result_len && memcmp(json.data, w->result_json, json.len) == 0)) {
        fprintf(stderr, "%s chunk %zu: finish differs from the one-shot parse\n", id, chunk);
        ok = 0;
    }
    plurnk_result_free(r);
    r = NULL;
    CHECK(plurnk_stream_finish(plain, &r) == PLURNK_OK);
    plurnk_result_free(r);
    ro.struct_size = sizeof ro;
    while (plurnk_stream_next_runaway(plain, &ro) == PLURNK_OK) add_runaway(&plain_runaways, &ro);
    if (g.tool_calls.len != 0) buf_add(&g.tool_calls, "]", 1);
    if (ok && (g.bad || g.statements != w->statement_count || !buf_is(&g.content, w->content.p, w->content.len) ||
               !buf_is(&g.reasoning, w->reasoning.p, w->reasoning.len) ||
               !buf_is(&g.tool_calls, w->tool_calls.p, w->tool_calls.len))) {
        fprintf(stderr,
                "%s chunk %zu seed %llu: the deltas differ from the one-shot split\n got content [%s]\nwant content [%s]\n"
                " got reasoning [%s]\nwant reasoning [%s]\n got calls %s\nwant calls %s\n(%zu of %zu statements, %s)\n",
                id, chunk, (unsigned long long)seed, g.content.p ? g.content.p : "", w->content.p ? w->content.p : "",
                g.reasoning.p ? g.reasoning.p : "", w->reasoning.p ? w->reasoning.p : "",
                g.tool_calls.p ? g.tool_calls.p : "", w->tool_calls.p ? w->tool_calls.p : "", g.statements,
                w->statement_count, g.bad ? "a statement differs" : "the statements agree");
        ok = 0;
    }
    if (ok && !buf_is(&g.runaways, plain_runaways.p, plain_runaways.len)) {
        fprintf(stderr, "%s chunk %zu: runaways [%s] against [%s]\n", id, chunk, g.runaways.p ? g.runaways.p : "",
                plain_runaways.p ? plain_runaways.p : "");
        ok = 0;
    }
    free(plain_runaways.p);
    got_free(&g);
    plurnk_stream_free(plain);
    plurnk_delta_stream_free(s);
    return ok ? 0 : 1;
}

/* ---- over the vectors ---- */

typedef struct vectors_run {
    int32_t dialect;
    long failed;
} vectors_run;

static const size_t k_chunks[] = {1, 7, 64};

/* The reference in the service dialect: the one-shot parse, and the deltas of one feed. */
static int want_by_one_feed(want* w, const char* in, size_t len, plurnk_tier tier, int32_t dialect) {
    plurnk_stream_options o;
    plurnk_delta_stream* s = NULL;
    plurnk_delta d;
    got g;
    int ok;
    memset(&o, 0, sizeof o);
    o.struct_size = sizeof o;
    o.dialect = dialect;
    memset(&g, 0, sizeof g);
    if (plurnk_delta_stream_create(tier, &o, &s) != PLURNK_OK) return 0;
    d.struct_size = sizeof d;
    ok = plurnk_delta_stream_feed(s, in, len, &d) == PLURNK_OK;
    take(s, &d, &g, w);
    ok = ok && plurnk_delta_stream_end(s, &d) == PLURNK_OK;
    take(s, &d, &g, w);
    if (g.tool_calls.len != 0) buf_add(&g.tool_calls, "]", 1);
    w->content = g.content;
    w->reasoning = g.reasoning;
    w->tool_calls = g.tool_calls;
    free(g.runaways.p);
    plurnk_delta_stream_free(s);
    return ok && !g.bad && g.statements == w->statement_count;
}

static void check_vector(void* user_data, const char* id, const char* in, size_t len, plurnk_tier tier, size_t n) {
    vectors_run* v = (vectors_run*)user_data;
    plurnk_stream_options o;
    plurnk_result* r = NULL;
    want w;
    size_t k;
    memset(&w, 0, sizeof w);
    memset(&o, 0, sizeof o);
    o.struct_size = sizeof o;
    o.dialect = v->dialect;
    if (plurnk_parse_ex(in, len, tier, &o, &r) != PLURNK_OK) {
        fprintf(stderr, "%s: plurnk_parse_ex failed\n", id);
        ++v->failed;
        return;
    }
    want_result(&w, r);
    plurnk_result_free(r);
    if (v->dialect == PLURNK_PARSE_DIALECT_CONTRACTS) {
        char* msg = NULL;
        size_t msg_len = 0;
        CHECK(plurnk_openai_message_json(in, len, tier, NULL, &msg, &msg_len) == PLURNK_OK);
        if (msg == NULL || !want_message(&w, msg, msg_len)) {
            fprintf(stderr, "%s: the message does not read: %s\n", id, msg ? msg : "(none)");
            ++v->failed;
        }
        plurnk_free_string(msg);
    } else if (!want_by_one_feed(&w, in, len, tier, v->dialect)) {
        fprintf(stderr, "%s: one feed of the whole turn differs from the one-shot parse\n", id);
        ++v->failed;
    }
    for (k = 0; k < sizeof k_chunks / sizeof k_chunks[0] && v->failed < 10; ++k) {
        v->failed += run(id, in, len, tier, v->dialect, k_chunks[k], 0x5EED0000u + n * 3 + k, &w);
    }
    want_free(&w);
}

static void test_file(const char* path, int32_t dialect, long at_least) {
    vectors_run v = {dialect, 0};
    const long n = for_each_vector(path, check_vector, &v);
    if (n < at_least) fprintf(stderr, "%s: %ld vectors, expected at least %ld\n", path, n, at_least);
    CHECK(n >= at_least);
    CHECK(v.failed == 0);
}

int main(int argc, char** argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: c_delta_vectors_test PARSER.jsonl [SERVICE.jsonl]\n");
        return 2;
    }
    test_file(argv[1], PLURNK_PARSE_DIALECT_CONTRACTS, 12000);
    if (argc > 2) test_file(argv[2], PLURNK_PARSE_DIALECT_SERVICE, 400);
    printf("c_delta_vectors_test: %ld runs, %ld failed checks\n", g_runs, g_failures);
    return g_failures == 0 ? 0 : 1;
}
