/* SPDX-License-Identifier: MIT */
/* Property test of the C stream's events, from plain C11: every event, through the callback and
 * through the poll queue, equals field by field (kind, position, source, severity, op, suffix,
 * message, text, JSON, statement JSON, span) the item at its index in the final result, and every
 * item is delivered exactly once, however the input is cut: whole, bursts where one feed closes
 * several statements, random chunks of 1 byte to 16 KB, and drafts fed after a checkpoint and
 * rejected (restore). Over every conformance vector and a generated 3,000-statement turn.
 * Also: restore drops the events and runaway events of the rejected draft, and a call from inside
 * a callback gets a one-line PLURNK_ERR_BUSY message that names the callback.
 * Usage: c_events_test VECTORS.jsonl */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plurnk/plurnk.h"
#include "c_vectors.h"

static long g_checks = 0;
static long g_failures = 0;

#define CHECK(cond)                                                                      \
    do {                                                                                 \
        ++g_checks;                                                                      \
        if (!(cond)) {                                                                   \
            if (++g_failures <= 20) fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                                \
    } while (0)

static char* copy_str(plurnk_str s) {
    char* out = (char*)xmalloc(s.len + 1);
    memcpy(out, s.data, s.len);
    out[s.len] = '\0';
    return out;
}

/* ---- an item, copied field by field ---- */

typedef struct owned_item {
    size_t index;
    int32_t kind, source, severity;
    uint32_t line, column;
    size_t span_begin, span_end;
    size_t len[6];
    char* s[6]; /* op, suffix, message, text, json, statement_json */
} owned_item;

static void own(owned_item* o, size_t index, const plurnk_item* it) {
    const plurnk_str parts[6] = {it->op, it->suffix, it->message, it->text, it->json, it->statement_json};
    int k;
    o->index = index;
    o->kind = it->kind;
    o->source = it->source;
    o->severity = it->severity;
    o->line = it->line;
    o->column = it->column;
    o->span_begin = PLURNK_HAS_FIELD(it, span_end) ? it->span_begin : SIZE_MAX;
    o->span_end = PLURNK_HAS_FIELD(it, span_end) ? it->span_end : SIZE_MAX;
    for (k = 0; k < 6; ++k) {
        o->len[k] = parts[k].len;
        o->s[k] = copy_str(parts[k]);
    }
}

static void drop(owned_item* o) {
    int k;
    for (k = 0; k < 6; ++k) free(o->s[k]);
}

static int same(const owned_item* a, const owned_item* b) {
    int k;
    if (a->kind != b->kind || a->source != b->source || a->severity != b->severity || a->line != b->line ||
        a->column != b->column || a->span_begin != b->span_begin || a->span_end != b->span_end) {
        return 0;
    }
    for (k = 0; k < 6; ++k) {
        if (a->len[k] != b->len[k] || memcmp(a->s[k], b->s[k], a->len[k]) != 0) return 0;
    }
    return 1;
}

typedef struct events {
    size_t count, cap;
    owned_item* at;
} events;

static void push(events* ev, size_t index, const plurnk_item* it) {
    if (ev->count == ev->cap) {
        ev->cap = ev->cap ? 2 * ev->cap : 64;
        ev->at = (owned_item*)realloc(ev->at, ev->cap * sizeof *ev->at);
        if (ev->at == NULL) abort();
    }
    own(&ev->at[ev->count++], index, it);
}

static void truncate_to(events* ev, size_t n) {
    while (ev->count > n) drop(&ev->at[--ev->count]);
}

static void on_event(void* user_data, size_t index, const plurnk_item* item) { push((events*)user_data, index, item); }

static void poll_all(plurnk_stream* s, events* ev) {
    size_t index;
    plurnk_item it = {.struct_size = sizeof it};
    while (plurnk_stream_next_event(s, &index, &it) == PLURNK_OK) push(ev, index, &it);
}

/* 0 when the events are the result's items, each exactly once and equal field by field; else
 * the number of events that are wrong (or 1 for a count that does not add up). */
static long wrong_events(const events* ev, const plurnk_result* r) {
    const size_t n = plurnk_result_item_count(r);
    char* seen = (char*)calloc(n + 1, 1);
    size_t i, unplaced = 0, placed = 0;
    long bad = 0;
    if (seen == NULL) abort();
    for (i = 0; i < ev->count; ++i) {
        plurnk_item it = {.struct_size = sizeof it};
        owned_item want;
        const size_t k = ev->at[i].index;
        if (k == PLURNK_NO_INDEX) {
            ++unplaced;
            continue;
        }
        if (k >= n || seen[k] || plurnk_result_item(r, k, &it) != PLURNK_OK) {
            ++bad;
            continue;
        }
        seen[k] = 1;
        ++placed;
        own(&want, k, &it);
        if (!same(&ev->at[i], &want)) ++bad;
        drop(&want);
    }
    if (bad == 0 && placed + unplaced != n) bad = 1;
    free(seen);
    return bad;
}

/* ---- runs ---- */

typedef struct cut {
    enum { WHOLE, FIXED, LOG_RANDOM } how;
    size_t size;    /* FIXED: the chunk size; LOG_RANDOM: the largest */
    uint64_t seed;  /* LOG_RANDOM */
} cut;

/* The next chunk length: 1 to `largest`, log-uniform (as likely 1-2 bytes as 8-16 KB). */
static size_t chunk_len(const cut* c, uint64_t* state, size_t left) {
    size_t n = left;
    if (c->how == FIXED) {
        n = c->size;
    } else if (c->how == LOG_RANDOM) {
        unsigned bits = 0, top = 0;
        while (((size_t)1 << (top + 1)) <= c->size) ++top;
        bits = (unsigned)(next_random(state) % (top + 1));
        n = ((size_t)1 << bits) + (size_t)(next_random(state) % ((size_t)1 << bits));
    }
    return n < left ? n : left;
}

static const char k_junk[] = "<<EDIT(j):draft body that is rejected\n<<SEND[200]:junk:SEND\n";

/* Streams `in`, polling or through the callback; with `draft_at` < len, a checkpoint is taken at
 * the first chunk boundary from there, junk fed and the checkpoint restored (the callback's
 * events since the checkpoint dropped, as a server drops a rejected draft's). Returns the number
 * of wrong events. */
static long run(const char* in, size_t len, plurnk_tier tier, const cut* c, int callback, size_t draft_at) {
    plurnk_stream* s = NULL;
    plurnk_result* r = NULL;
    events ev = {0, 0, NULL};
    uint64_t state = c->seed;
    size_t at = 0;
    int drafted = 0;
    long bad;
    if (plurnk_stream_create(tier, &s) != PLURNK_OK) return 1;
    if (callback) plurnk_stream_set_callback(s, on_event, &ev);
    while (at < len) {
        const size_t n = chunk_len(c, &state, len - at);
        if (!drafted && at >= draft_at) {
            plurnk_stream* cp = NULL;
            const size_t kept = ev.count;
            drafted = 1;
            CHECK(plurnk_stream_checkpoint(s, &cp) == PLURNK_OK);
            plurnk_stream_feed(s, k_junk, sizeof k_junk - 1);
            plurnk_stream_feed(s, in, len - at < 300 ? len - at : 300);
            CHECK(plurnk_stream_restore(s, cp) == PLURNK_OK);
            plurnk_stream_free(cp);
            truncate_to(&ev, kept);
        }
        CHECK(plurnk_stream_feed(s, in + at, n) == PLURNK_OK);
        at += n;
        if (!callback) poll_all(s, &ev);
    }
    CHECK(plurnk_stream_finish(s, &r) == PLURNK_OK);
    if (!callback) poll_all(s, &ev);
    bad = r == NULL ? 1 : wrong_events(&ev, r);
    truncate_to(&ev, 0);
    free(ev.at);
    plurnk_result_free(r);
    plurnk_stream_free(s);
    return bad;
}

/* ---- inputs ---- */

/* A turn of `statements` pieces of every shape an agent writes, chosen by a seeded generator. */
static char* generated_turn(size_t statements, uint64_t seed, size_t* len) {
    static const char* const pieces[] = {
        "<<EDIT(src/file%zu.py):line of body text\nline of body text\nline of body text\n:EDIT\n",
        "<<READ(a\\(%zu\\).md)<1-3>::READ\n",
        "<<EXEC[sh]:echo %zu && ls:EXEC\n",
        "<<FIND(src/**):/retry%zu/i:FIND\n",
        "<<SEND(worker://w):{\"b\":%zu,\"a\":[1,2]}:SEND\n",
        "<<READ(http://u:p@xn--ls8h.example.com:80/a/../b%zu?q#f)::READ\n",
        "<<READ(http://h\xc3\xa9%zu.example/p?q#f)::READ\n",
        "<<COPY(a%zu)<1>:worker:///d<2>:COPY\n",
        "<<READ[t%zu,u](x)::READ\n",
        "words %zu here, \xc3\xbcnicode \xf0\x9f\x98\x80\n",
        "<<FIND(a):$.x[?@.y>%zu]:FIND\n",
        "<<READ(a%zu):/(/:READ\n",
        "<<SEND[102]:still working %zu:SEND\n",
    };
    const size_t kinds = sizeof pieces / sizeof pieces[0];
    size_t cap = statements * 128 + 1, n = 0, i;
    char* out = (char*)xmalloc(cap);
    for (i = 0; i < statements; ++i) {
        const char* f = pieces[next_random(&seed) % kinds];
        n += (size_t)snprintf(out + n, cap - n, f, i);
    }
    *len = n;
    return out;
}

/* ---- the tests ---- */

static void check_input(const char* in, size_t len, plurnk_tier tier, size_t n, const char* what) {
    const cut whole = {WHOLE, 0, 0};
    const cut burst = {FIXED, 16 + n % 48, 0};
    const cut random = {LOG_RANDOM, 16384, 0xC0FFEEu + n};
    const cut small = {LOG_RANDOM, 256, 0xD1CEu + n};
    long bad = 0;
    int cb;
    for (cb = 0; cb <= 1; ++cb) {
        bad += run(in, len, tier, &whole, cb, SIZE_MAX);
        bad += run(in, len, tier, &burst, cb, SIZE_MAX);
        bad += run(in, len, tier, &random, cb, SIZE_MAX);
        bad += run(in, len, tier, &small, cb, len == 0 ? SIZE_MAX : n % len);
    }
    CHECK(bad == 0);
    if (bad != 0 && g_failures <= 20) fprintf(stderr, "  %s: %ld wrong events\n", what, bad);
}

static void check_vector(void* user_data, const char* id, const char* input, size_t len, plurnk_tier tier,
                         size_t n) {
    (void)user_data;
    check_input(input, len, tier, n, id);
}

static void test_vectors(const char* path) {
    CHECK(for_each_vector(path, check_vector, NULL) > 10000);
}

static void test_big_turn(void) {
    size_t len = 0, k;
    static const size_t sizes[] = {1, 7, 64, 103, 1024, 16384};
    char* turn = generated_turn(3000, 2, &len);
    for (k = 0; k < sizeof sizes / sizeof sizes[0]; ++k) {
        const cut c = {FIXED, sizes[k], 0};
        CHECK(run(turn, len, PLURNK_TIER_STATEMENTS, &c, 1, SIZE_MAX) == 0);
        CHECK(run(turn, len, PLURNK_TIER_PARSE, &c, 0, SIZE_MAX) == 0);
    }
    check_input(turn, len, PLURNK_TIER_PARSE, 7, "generated turn");
    check_input(turn, len, PLURNK_TIER_STATEMENTS, 8, "generated turn");
    free(turn);
}

/* ---- a rejected draft leaves nothing behind ---- */

static void count_runaway(void* user_data, const plurnk_open* info) {
    (void)info;
    ++*(size_t*)user_data;
}

static void test_rejected_draft_is_dropped(void) {
    static const char before[] = "<<PLAN:p:PLAN\n";
    static const char draft[] = "<<READ(a)::READ\n<<EDIT(x):a body that runs away past the limit";
    static const char accepted[] = "<<SEND[200]:done:SEND";
    plurnk_stream_options o = {.struct_size = sizeof o, .max_open_bytes = 24};
    plurnk_stream *s = NULL, *cp = NULL;
    plurnk_result* r = NULL;
    plurnk_open open = {.struct_size = sizeof open};
    events ev = {0, 0, NULL};
    size_t runaways = 0, n;

    /* Polling: the draft's queued events and runaway are gone after the restore. */
    CHECK(plurnk_stream_create_ex(PLURNK_TIER_PARSE, &o, &s) == PLURNK_OK);
    CHECK(plurnk_stream_feed(s, before, sizeof before - 1) == PLURNK_OK);
    poll_all(s, &ev);
    n = ev.count;
    CHECK(plurnk_stream_checkpoint(s, &cp) == PLURNK_OK);
    CHECK(plurnk_stream_feed(s, draft, sizeof draft - 1) == PLURNK_OK);
    CHECK(plurnk_stream_pending_events(s) > 0);
    CHECK(plurnk_stream_restore(s, cp) == PLURNK_OK);
    CHECK(plurnk_stream_pending_events(s) == 0);
    CHECK(plurnk_stream_next_runaway(s, &open) == PLURNK_NO_EVENT);
    CHECK(plurnk_stream_feed(s, accepted, sizeof accepted - 1) == PLURNK_OK);
    CHECK(plurnk_stream_finish(s, &r) == PLURNK_OK);
    poll_all(s, &ev);
    CHECK(plurnk_stream_next_runaway(s, &open) == PLURNK_NO_EVENT);
    CHECK(ev.count > n && wrong_events(&ev, r) == 0);
    plurnk_result_free(r);
    /* The same draft fed again on the accepted path runs away again (the limit's memory of
     * what it reported was rewound with the rest). */
    CHECK(plurnk_stream_restore(s, cp) == PLURNK_OK);
    CHECK(plurnk_stream_feed(s, draft, sizeof draft - 1) == PLURNK_OK);
    CHECK(plurnk_stream_next_runaway(s, &open) == PLURNK_OK);
    CHECK(plurnk_stream_restore(s, cp) == PLURNK_OK);
    CHECK(plurnk_stream_next_runaway(s, &open) == PLURNK_NO_EVENT);
    plurnk_stream_free(cp);
    plurnk_stream_free(s);
    truncate_to(&ev, 0);

    /* Callbacks: the runaway callback fires once per path that runs away. */
    CHECK(plurnk_stream_create_ex(PLURNK_TIER_PARSE, &o, &s) == PLURNK_OK);
    CHECK(plurnk_stream_set_runaway_callback(s, count_runaway, &runaways) == PLURNK_OK);
    CHECK(plurnk_stream_set_callback(s, on_event, &ev) == PLURNK_OK);
    CHECK(plurnk_stream_feed(s, before, sizeof before - 1) == PLURNK_OK);
    n = ev.count;
    CHECK(plurnk_stream_checkpoint(s, &cp) == PLURNK_OK);
    CHECK(plurnk_stream_feed(s, draft, sizeof draft - 1) == PLURNK_OK);
    CHECK(runaways == 1);
    CHECK(plurnk_stream_restore(s, cp) == PLURNK_OK);
    truncate_to(&ev, n);
    CHECK(plurnk_stream_feed(s, draft, sizeof draft - 1) == PLURNK_OK);
    CHECK(runaways == 2);
    CHECK(plurnk_stream_finish(s, &r) == PLURNK_OK);
    CHECK(wrong_events(&ev, r) == 0);
    plurnk_result_free(r);
    plurnk_stream_free(cp);
    plurnk_stream_free(s);
    truncate_to(&ev, 0);
    free(ev.at);
}

/* ---- a call from inside a callback ---- */

typedef struct reentry {
    plurnk_stream* s;
    plurnk_status feed, finish, checkpoint, open;
    char feed_message[256];
} reentry;

static void reenter(reentry* re) {
    plurnk_result* r = NULL;
    plurnk_stream* cp = NULL;
    plurnk_open o = {.struct_size = sizeof o};
    re->feed = plurnk_stream_feed(re->s, "x", 1);
    snprintf(re->feed_message, sizeof re->feed_message, "%s", plurnk_stream_last_error(re->s));
    re->finish = plurnk_stream_finish(re->s, &r);
    re->checkpoint = plurnk_stream_checkpoint(re->s, &cp);
    re->open = plurnk_stream_open(re->s, &o);
}

static void reenter_from_event(void* user_data, size_t index, const plurnk_item* item) {
    reentry* re = (reentry*)user_data;
    (void)index;
    (void)item;
    if (re->feed == PLURNK_OK) reenter(re);
}

static void reenter_from_runaway(void* user_data, const plurnk_open* info) {
    reentry* re = (reentry*)user_data;
    (void)info;
    if (re->feed == PLURNK_OK) reenter(re);
}

/* Feeds `input` to a new stream whose event (or, with a runaway limit, runaway) callback calls
 * back into it: every call is refused, with the one-line message that names `which` callback. */
static void check_reentry(const char* input, int runaway, const char* which) {
    plurnk_stream_options o = {.struct_size = sizeof o, .max_open_bytes = runaway ? 8 : 0};
    char want[256];
    reentry re;
    plurnk_result* r = NULL;
    memset(&re, 0, sizeof re);
    CHECK(plurnk_stream_create_ex(PLURNK_TIER_PARSE, &o, &re.s) == PLURNK_OK);
    if (runaway) {
        CHECK(plurnk_stream_set_runaway_callback(re.s, reenter_from_runaway, &re) == PLURNK_OK);
    } else {
        CHECK(plurnk_stream_set_callback(re.s, reenter_from_event, &re) == PLURNK_OK);
    }
    CHECK(plurnk_stream_feed(re.s, input, strlen(input)) == PLURNK_OK);
    CHECK(re.feed == PLURNK_ERR_BUSY && re.finish == PLURNK_ERR_BUSY && re.checkpoint == PLURNK_ERR_BUSY &&
          re.open == PLURNK_ERR_BUSY);
    snprintf(want, sizeof want,
             "plurnk_stream_feed: called from inside this stream's %s callback (during plurnk_stream_feed); "
             "call it after plurnk_stream_feed returns",
             which);
    CHECK(strcmp(re.feed_message, want) == 0);
    CHECK(plurnk_stream_finish(re.s, &r) == PLURNK_OK); /* and the stream goes on */
    plurnk_result_free(r);
    plurnk_stream_free(re.s);
}

int main(int argc, char** argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: c_events_test VECTORS.jsonl\n");
        return 2;
    }
    check_reentry("<<PLAN:p:PLAN\n", 0, "event");
    check_reentry("<<EDIT(a):runs away", 1, "runaway");
    test_rejected_draft_is_dropped();
    test_big_turn();
    test_vectors(argv[1]);
    printf("c_events_test: %ld checks, %ld failed\n", g_checks, g_failures);
    return g_failures == 0 ? 0 : 1;
}
