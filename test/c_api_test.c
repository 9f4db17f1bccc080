/* SPDX-License-Identifier: MIT */
/* Tests the C API (include/plurnk/plurnk.h) from plain C11: every function, results checked
 * against known JSON, argument errors, both event interfaces, checkpoint/restore, and the
 * property that streaming one byte at a time gives exactly the one-shot result.
 * Usage: c_api_test [TURN_FILE]   (TURN_FILE, e.g. doc/examples/turn.plurnk, joins the inputs) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plurnk/plurnk.h"

#ifndef PLURNK_EXPECTED_VERSION
#define PLURNK_EXPECTED_VERSION "0.1.0"
#endif

static int g_checks = 0;
static int g_failures = 0;

#define CHECK(cond)                                                                  \
    do {                                                                             \
        ++g_checks;                                                                  \
        if (!(cond)) {                                                               \
            ++g_failures;                                                            \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                            \
    } while (0)

#define CHECK_STATUS(expr, want)                                                                       \
    do {                                                                                               \
        const int got_ = (int)(expr);                                                                  \
        ++g_checks;                                                                                    \
        if (got_ != (int)(want)) {                                                                     \
            ++g_failures;                                                                              \
            fprintf(stderr, "%s:%d: %s returned %d (%s), expected %d\n", __FILE__, __LINE__, #expr, got_, \
                    plurnk_status_message(got_), (int)(want));                                         \
        }                                                                                              \
    } while (0)

/* A borrowed string equals a NUL-terminated literal. */
static int str_is(plurnk_str s, const char* want) {
    return s.data != NULL && s.len == strlen(want) && memcmp(s.data, want, s.len) == 0 && s.data[s.len] == '\0';
}

static int bytes_equal(const char* a, size_t alen, const char* b, size_t blen) {
    return alen == blen && (alen == 0 || memcmp(a, b, alen) == 0);
}

/* ---- known inputs and their results (from test/conformance/parser.jsonl) ---- */

static const char k_read_input[] = "<<READ(a.md)::READ"; /* r0001, statements tier */
static const char k_read_json[] =
    "{\"items\":[{\"kind\":\"statement\",\"statement\":{\"op\":\"READ\",\"suffix\":\"\",\"signal\":null,"
    "\"target\":{\"kind\":\"local\",\"raw\":\"a.md\"},\"lineMarker\":null,\"body\":null,"
    "\"position\":{\"line\":1,\"column\":0}}}]}";
static const char k_read_statement_json[] =
    "{\"op\":\"READ\",\"suffix\":\"\",\"signal\":null,\"target\":{\"kind\":\"local\",\"raw\":\"a.md\"},"
    "\"lineMarker\":null,\"body\":null,\"position\":{\"line\":1,\"column\":0}}";

static const char k_mixed_input[] = "<<PLAN:t:PLAN <<CLOSE(log://x)::CLOSE <<SEND[200]:d:SEND"; /* r0170 */
static const char k_mixed_json[] =
    "{\"items\":[{\"kind\":\"statement\",\"statement\":{\"op\":\"PLAN\",\"suffix\":\"\",\"signal\":null,"
    "\"target\":null,\"lineMarker\":null,\"body\":\"t\",\"position\":{\"line\":1,\"column\":0}}},"
    "{\"kind\":\"text\",\"text\":\"<<CLOSE(log://x)::CLOSE\",\"position\":{\"line\":1,\"column\":14}},"
    "{\"kind\":\"error\",\"error\":{\"line\":1,\"column\":14,\"source\":\"parser\",\"severity\":\"warning\","
    "\"message\":\"`<<CLOSE` is not a Plurnk operation, so it was read as text; did you mean `<<FOLD`?\"}},"
    "{\"kind\":\"statement\",\"statement\":{\"op\":\"SEND\",\"suffix\":\"\",\"signal\":200,\"target\":null,"
    "\"lineMarker\":null,\"body\":{\"raw\":\"d\",\"json\":null},\"position\":{\"line\":1,\"column\":38}}}]}";

static const char k_tail_input[] = "}<<PLAN:Insert a new line "; /* g1-00286 */
static const char k_tail_json[] =
    "{\"items\":[{\"kind\":\"text\",\"text\":\"}\",\"position\":{\"line\":1,\"column\":0}}],"
    "\"unparsedTail\":{\"from\":{\"line\":1,\"column\":1},\"reason\":\"body of `<<PLAN` opened at line 1 but "
    "never closed - add `:PLAN` to terminate\"}}";

static const char k_error_input[] = "<<PLAN:think:PLAN"; /* r0158 */
static const char k_error_json[] =
    "{\"items\":[{\"kind\":\"statement\",\"statement\":{\"op\":\"PLAN\",\"suffix\":\"\",\"signal\":null,"
    "\"target\":null,\"lineMarker\":null,\"body\":\"think\",\"position\":{\"line\":1,\"column\":0}}},"
    "{\"kind\":\"error\",\"error\":{\"line\":1,\"column\":17,\"source\":\"parser\",\"severity\":\"error\","
    "\"message\":\"a turn must end with a terminal `<<SEND[code]:\xe2\x80\xa6:SEND` carrying the loop status\"}}]}";

static const char k_pretty_prefix[] = "{\n  \"items\": [\n    {\n      \"kind\": \"statement\",\n";

/* Parses `input` and checks the result JSON (borrowed and library-allocated, both equal `want`). */
static void check_parse_json(const char* input, size_t len, plurnk_tier tier, const char* want) {
    plurnk_result* r = NULL;
    plurnk_str js;
    char* owned = NULL;
    size_t owned_len = 0;
    CHECK_STATUS(plurnk_parse(input, len, tier, &r), PLURNK_OK);
    CHECK(r != NULL);
    CHECK_STATUS(plurnk_result_json(r, PLURNK_JSON_COMPACT, &js), PLURNK_OK);
    CHECK(str_is(js, want));
    CHECK_STATUS(plurnk_parse_to_json(input, len, tier, PLURNK_JSON_COMPACT, &owned, &owned_len), PLURNK_OK);
    CHECK(owned != NULL && owned_len == strlen(want) && strcmp(owned, want) == 0);
    plurnk_free_string(owned);
    plurnk_result_free(r);
}

static void test_versions_and_names(void) {
    int i;
    CHECK(strcmp(plurnk_version(), PLURNK_EXPECTED_VERSION) == 0);
    CHECK(strcmp(plurnk_language_version(), "1.4.0") == 0);
    CHECK(strcmp(plurnk_tier_name(PLURNK_TIER_PARSE), "parse") == 0);
    CHECK(strcmp(plurnk_tier_name(PLURNK_TIER_STATEMENTS), "statements") == 0);
    CHECK(strcmp(plurnk_tier_name(PLURNK_TIER_LOG), "log") == 0);
    CHECK(strcmp(plurnk_tier_name(PLURNK_TIER_CLIENT), "client") == 0);
    CHECK(plurnk_tier_name(4) == NULL);
    CHECK(plurnk_tier_name(-1) == NULL);
    CHECK(strcmp(plurnk_status_message(PLURNK_OK), "ok") == 0);
    for (i = 0; i < PLURNK_STATUS_COUNT; ++i) CHECK(plurnk_status_message(i) != NULL && plurnk_status_message(i)[0]);
    CHECK(strcmp(plurnk_status_message(PLURNK_STATUS_COUNT), "unknown status") == 0);
    CHECK(strcmp(plurnk_status_message(-3), "unknown status") == 0);
}

static void test_one_shot(void) {
    plurnk_result* r = NULL;
    plurnk_item it = {.struct_size = sizeof(plurnk_item)};
    plurnk_str js, reason;
    uint32_t line = 99, column = 99;
    char* owned = NULL;
    size_t owned_len = 0;

    check_parse_json(k_read_input, sizeof k_read_input - 1, PLURNK_TIER_STATEMENTS, k_read_json);
    check_parse_json(k_mixed_input, sizeof k_mixed_input - 1, PLURNK_TIER_PARSE, k_mixed_json);
    check_parse_json(k_tail_input, sizeof k_tail_input - 1, PLURNK_TIER_PARSE, k_tail_json);
    check_parse_json(k_error_input, sizeof k_error_input - 1, PLURNK_TIER_PARSE, k_error_json);
    check_parse_json(NULL, 0, PLURNK_TIER_STATEMENTS, "{\"items\":[]}");

    /* A statement item. */
    CHECK_STATUS(plurnk_parse(k_read_input, sizeof k_read_input - 1, PLURNK_TIER_STATEMENTS, &r), PLURNK_OK);
    CHECK(plurnk_result_item_count(r) == 1);
    CHECK(plurnk_result_clean(r) == 1);
    CHECK(plurnk_result_tail(r, &line, &column, &reason) == 0);
    CHECK(line == 99 && column == 99);
    CHECK_STATUS(plurnk_result_item(r, 0, &it), PLURNK_OK);
    CHECK(it.kind == PLURNK_ITEM_STATEMENT);
    CHECK(it.line == 1 && it.column == 0);
    CHECK(it.source == -1 && it.severity == -1);
    CHECK(str_is(it.op, "READ"));
    CHECK(str_is(it.suffix, ""));
    CHECK(str_is(it.message, ""));
    CHECK(str_is(it.text, ""));
    CHECK(str_is(it.statement_json, k_read_statement_json));
    CHECK(it.json.len == strlen(k_read_json) - strlen("{\"items\":[]}"));
    CHECK(it.json.len > 0 && memcmp(it.json.data, k_read_json + strlen("{\"items\":["), it.json.len) == 0);
    CHECK_STATUS(plurnk_result_item(r, 1, &it), PLURNK_ERR_OUT_OF_RANGE);
    CHECK_STATUS(plurnk_result_item(r, (size_t)-1, &it), PLURNK_ERR_OUT_OF_RANGE);
    CHECK_STATUS(plurnk_result_json(r, PLURNK_JSON_PRETTY, &js), PLURNK_OK);
    CHECK(js.len > sizeof k_pretty_prefix && memcmp(js.data, k_pretty_prefix, sizeof k_pretty_prefix - 1) == 0);
    CHECK(js.data[js.len] == '\0' && js.data[js.len - 1] == '}');
    CHECK_STATUS(plurnk_parse_to_json(k_read_input, sizeof k_read_input - 1, PLURNK_TIER_STATEMENTS,
                                      PLURNK_JSON_PRETTY, &owned, NULL),
                 PLURNK_OK);
    CHECK(owned != NULL && str_is(js, owned));
    plurnk_free_string(owned);
    plurnk_result_free(r);

    /* Statement, text, warning, statement: every field of every kind. */
    CHECK_STATUS(plurnk_parse(k_mixed_input, sizeof k_mixed_input - 1, PLURNK_TIER_PARSE, &r), PLURNK_OK);
    CHECK(plurnk_result_item_count(r) == 4);
    CHECK(plurnk_result_clean(r) == 0); /* a warning counts, as in the reference CLI */
    CHECK_STATUS(plurnk_result_item(r, 0, &it), PLURNK_OK);
    CHECK(it.kind == PLURNK_ITEM_STATEMENT && str_is(it.op, "PLAN") && it.line == 1 && it.column == 0);
    CHECK_STATUS(plurnk_result_item(r, 1, &it), PLURNK_OK);
    CHECK(it.kind == PLURNK_ITEM_TEXT && it.line == 1 && it.column == 14);
    CHECK(str_is(it.text, "<<CLOSE(log://x)::CLOSE"));
    CHECK(str_is(it.op, "") && str_is(it.statement_json, "") && it.source == -1 && it.severity == -1);
    CHECK(str_is(it.json, "{\"kind\":\"text\",\"text\":\"<<CLOSE(log://x)::CLOSE\",\"position\":{\"line\":1,\"column\":14}}"));
    CHECK_STATUS(plurnk_result_item(r, 2, &it), PLURNK_OK);
    CHECK(it.kind == PLURNK_ITEM_ERROR && it.line == 1 && it.column == 14);
    CHECK(it.source == PLURNK_SOURCE_PARSER && it.severity == PLURNK_SEVERITY_WARNING);
    CHECK(str_is(it.message, "`<<CLOSE` is not a Plurnk operation, so it was read as text; did you mean `<<FOLD`?"));
    CHECK(str_is(it.text, "") && str_is(it.statement_json, ""));
    CHECK_STATUS(plurnk_result_item(r, 3, &it), PLURNK_OK);
    CHECK(it.kind == PLURNK_ITEM_STATEMENT && str_is(it.op, "SEND") && it.column == 38);
    CHECK(str_is(it.statement_json,
                 "{\"op\":\"SEND\",\"suffix\":\"\",\"signal\":200,\"target\":null,\"lineMarker\":null,"
                 "\"body\":{\"raw\":\"d\",\"json\":null},\"position\":{\"line\":1,\"column\":38}}"));
    plurnk_result_free(r);

    /* An error item and an unparsed tail. */
    CHECK_STATUS(plurnk_parse(k_error_input, sizeof k_error_input - 1, PLURNK_TIER_PARSE, &r), PLURNK_OK);
    CHECK_STATUS(plurnk_result_item(r, 1, &it), PLURNK_OK);
    CHECK(it.kind == PLURNK_ITEM_ERROR && it.severity == PLURNK_SEVERITY_ERROR && it.column == 17);
    CHECK(plurnk_result_clean(r) == 0);
    plurnk_result_free(r);
    CHECK_STATUS(plurnk_parse(k_tail_input, sizeof k_tail_input - 1, PLURNK_TIER_PARSE, &r), PLURNK_OK);
    CHECK(plurnk_result_tail(r, &line, &column, &reason) == 1);
    CHECK(line == 1 && column == 1);
    CHECK(str_is(reason, "body of `<<PLAN` opened at line 1 but never closed - add `:PLAN` to terminate"));
    CHECK(plurnk_result_tail(r, NULL, NULL, NULL) == 1);
    CHECK(plurnk_result_clean(r) == 0);
    plurnk_result_free(r);

    /* Text items keep NUL and invalid bytes (the length says where they end); JSON replaces
     * invalid bytes with U+FFFD. */
    {
        static const char input[] = "<<PLAN:p:PLAN a\0b\xff <<SEND[200]:d:SEND";
        size_t i, n;
        int found = 0;
        CHECK_STATUS(plurnk_parse(input, sizeof input - 1, PLURNK_TIER_PARSE, &r), PLURNK_OK);
        n = plurnk_result_item_count(r);
        for (i = 0; i < n; ++i) {
            CHECK_STATUS(plurnk_result_item(r, i, &it), PLURNK_OK);
            if (it.kind == PLURNK_ITEM_TEXT && bytes_equal(it.text.data, it.text.len, "a\0b\xff", 4)) found = 1;
            if (it.kind == PLURNK_ITEM_TEXT) CHECK(strstr(it.json.data, "\xef\xbf\xbd") != NULL);
        }
        CHECK(found);
        plurnk_result_free(r);
    }

    /* Argument errors. */
    r = (plurnk_result*)&line; /* any non-NULL value: must be reset to NULL */
    CHECK_STATUS(plurnk_parse(NULL, 3, PLURNK_TIER_PARSE, &r), PLURNK_ERR_INVALID_ARGUMENT);
    CHECK(r == NULL);
    CHECK_STATUS(plurnk_parse("x", 1, (plurnk_tier)7, &r), PLURNK_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(plurnk_parse("x", 1, PLURNK_TIER_PARSE, NULL), PLURNK_ERR_INVALID_ARGUMENT);
    owned = (char*)&line;
    CHECK_STATUS(plurnk_parse_to_json("x", 1, (plurnk_tier)-1, 0, &owned, &owned_len), PLURNK_ERR_INVALID_ARGUMENT);
    CHECK(owned == NULL && owned_len == 0);
    CHECK_STATUS(plurnk_parse_to_json("x", 1, PLURNK_TIER_PARSE, 0, NULL, NULL), PLURNK_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(plurnk_result_json(NULL, 0, &js), PLURNK_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(plurnk_result_item(NULL, 0, &it), PLURNK_ERR_INVALID_ARGUMENT);
    CHECK(plurnk_result_item_count(NULL) == 0);
    CHECK(plurnk_result_clean(NULL) == 0);
    CHECK(plurnk_result_tail(NULL, NULL, NULL, NULL) == 0);
    plurnk_result_free(NULL);
    plurnk_free_string(NULL);
}

/* ---- streaming ---- */

/* Collected events: each event's index and item JSON. */
typedef struct events {
    size_t count;
    size_t cap;
    size_t* index;
    char** json;
    int mismatched_json; /* the callback saw item.json differ from what its fields imply */
    int busy_ok;         /* re-entrant calls from the callback returned PLURNK_ERR_BUSY */
    plurnk_stream* self; /* the stream delivering (for the re-entrancy check), or NULL */
} events;

static void events_push(events* ev, size_t index, plurnk_str json) {
    if (ev->count == ev->cap) {
        ev->cap = ev->cap ? ev->cap * 2 : 16;
        ev->index = (size_t*)realloc(ev->index, ev->cap * sizeof *ev->index);
        ev->json = (char**)realloc(ev->json, ev->cap * sizeof *ev->json);
        if (!ev->index || !ev->json) abort();
    }
    ev->index[ev->count] = index;
    ev->json[ev->count] = (char*)malloc(json.len + 1);
    if (!ev->json[ev->count]) abort();
    memcpy(ev->json[ev->count], json.data, json.len + 1);
    ++ev->count;
}

static void events_truncate(events* ev, size_t n) {
    while (ev->count > n) free(ev->json[--ev->count]);
}

static void events_free(events* ev) {
    events_truncate(ev, 0);
    free(ev->index);
    free(ev->json);
}

static void on_event(void* user_data, size_t index, const plurnk_item* item) {
    events* ev = (events*)user_data;
    if (item->json.data[item->json.len] != '\0') ev->mismatched_json = 1;
    if (item->kind == PLURNK_ITEM_STATEMENT && strncmp(item->json.data, "{\"kind\":\"statement\"", 19) != 0)
        ev->mismatched_json = 1;
    if (ev->self != NULL) {
        plurnk_result* r = NULL;
        plurnk_stream* cp = NULL;
        size_t i;
        plurnk_item it = {.struct_size = sizeof(plurnk_item)};
        if (plurnk_stream_feed(ev->self, "x", 1) != PLURNK_ERR_BUSY) ev->busy_ok = 0;
        if (plurnk_stream_finish(ev->self, &r) != PLURNK_ERR_BUSY) ev->busy_ok = 0;
        if (plurnk_stream_checkpoint(ev->self, &cp) != PLURNK_ERR_BUSY) ev->busy_ok = 0;
        if (plurnk_stream_next_event(ev->self, &i, &it) != PLURNK_ERR_BUSY) ev->busy_ok = 0;
        if (plurnk_stream_set_callback(ev->self, NULL, NULL) != PLURNK_ERR_BUSY) ev->busy_ok = 0;
    }
    events_push(ev, index, item->json);
}

/* Drains the poll queue of `s` into `ev`. */
static void drain(plurnk_stream* s, events* ev) {
    size_t index;
    plurnk_item it = {.struct_size = sizeof(plurnk_item)};
    int st;
    while ((st = plurnk_stream_next_event(s, &index, &it)) == PLURNK_OK) events_push(ev, index, it.json);
    CHECK_STATUS(st, PLURNK_NO_EVENT);
    CHECK(plurnk_stream_pending_events(s) == 0);
}

/* Every event with an index carries exactly that item of the final result; there is one event
 * per item and no index repeats. */
static void check_events(const events* ev, const plurnk_result* r) {
    const size_t n = plurnk_result_item_count(r);
    size_t i, j;
    CHECK(ev->count == n);
    for (i = 0; i < ev->count; ++i) {
        plurnk_item it = {.struct_size = sizeof(plurnk_item)};
        if (ev->index[i] == PLURNK_NO_INDEX) continue;
        CHECK(ev->index[i] < n);
        if (ev->index[i] >= n) continue;
        CHECK_STATUS(plurnk_result_item(r, ev->index[i], &it), PLURNK_OK);
        CHECK(strcmp(ev->json[i], it.json.data) == 0);
        for (j = 0; j < i; ++j) CHECK(ev->index[j] != ev->index[i]);
    }
}

/* The streamed result's spans are the one-shot result's, inside the input; a text item's span
 * holds its text; the tail's span runs to the end of the input. */
static void check_spans(const plurnk_result* streamed, const plurnk_result* one_shot, const char* input, size_t len) {
    const size_t n = plurnk_result_item_count(one_shot);
    size_t i, b1 = 0, e1 = 0, b2 = 0, e2 = 0;
    CHECK(plurnk_result_item_count(streamed) == n);
    for (i = 0; i < n && i < plurnk_result_item_count(streamed); ++i) {
        plurnk_item a = {.struct_size = sizeof a}, b = {.struct_size = sizeof b};
        CHECK_STATUS(plurnk_result_item(streamed, i, &a), PLURNK_OK);
        CHECK_STATUS(plurnk_result_item(one_shot, i, &b), PLURNK_OK);
        CHECK(a.span_begin == b.span_begin && a.span_end == b.span_end);
        CHECK(b.span_begin <= b.span_end && b.span_end <= len);
        if (b.kind == PLURNK_ITEM_TEXT) CHECK(bytes_equal(input + b.span_begin, b.span_end - b.span_begin, b.text.data, b.text.len));
        if (b.kind == PLURNK_ITEM_STATEMENT) CHECK(b.span_end - b.span_begin >= 2 && memcmp(input + b.span_begin, "<<", 2) == 0);
    }
    CHECK(plurnk_result_tail_span(streamed, &b1, &e1) == plurnk_result_tail_span(one_shot, &b2, &e2));
    CHECK(b1 == b2 && e1 == e2);
    if (plurnk_result_tail_span(one_shot, NULL, NULL)) CHECK(e2 == len && b2 < len);
}

/* Streams `input` in `chunk`-byte pieces (polling, or through the callback) and requires the
 * final result to be the one-shot result, and the events to match it. */
static void check_stream(const char* input, size_t len, plurnk_tier tier, size_t chunk, int use_callback) {
    plurnk_stream* s = NULL;
    plurnk_result* r = NULL;
    plurnk_str streamed, one_shot_json;
    plurnk_result* one_shot = NULL;
    events ev;
    size_t at = 0;
    memset(&ev, 0, sizeof ev);
    CHECK_STATUS(plurnk_stream_create(tier, &s), PLURNK_OK);
    if (s == NULL) return;
    if (use_callback) CHECK_STATUS(plurnk_stream_set_callback(s, on_event, &ev), PLURNK_OK);
    while (at < len) {
        const size_t n = len - at < chunk ? len - at : chunk;
        CHECK_STATUS(plurnk_stream_feed(s, input + at, n), PLURNK_OK);
        at += n;
        CHECK(plurnk_stream_size(s) == at);
        CHECK(plurnk_stream_safe_prefix(s) <= at);
        if (!use_callback) drain(s, &ev);
    }
    CHECK(plurnk_stream_finished(s) == 0);
    CHECK_STATUS(plurnk_stream_finish(s, &r), PLURNK_OK);
    CHECK(plurnk_stream_finished(s) == 1);
    CHECK(plurnk_stream_safe_prefix(s) <= len);
    if (!use_callback) drain(s, &ev);
    CHECK_STATUS(plurnk_parse(input, len, tier, &one_shot), PLURNK_OK);
    CHECK_STATUS(plurnk_result_json(r, 0, &streamed), PLURNK_OK);
    CHECK_STATUS(plurnk_result_json(one_shot, 0, &one_shot_json), PLURNK_OK);
    CHECK(bytes_equal(streamed.data, streamed.len, one_shot_json.data, one_shot_json.len));
    if (!bytes_equal(streamed.data, streamed.len, one_shot_json.data, one_shot_json.len))
        fprintf(stderr, "  chunk %zu: streamed %s\n  one-shot %s\n", chunk, streamed.data, one_shot_json.data);
    check_spans(r, one_shot, input, len);
    check_events(&ev, r);
    CHECK(ev.mismatched_json == 0);
    plurnk_result_free(one_shot);
    plurnk_result_free(r);
    plurnk_stream_free(s);
    events_free(&ev);
}

static void test_stream_basics(void) {
    plurnk_stream* s = NULL;
    plurnk_result* r = NULL;
    plurnk_str js;
    size_t index;
    plurnk_item it = {.struct_size = sizeof(plurnk_item)};
    events ev;
    memset(&ev, 0, sizeof ev);

    s = (plurnk_stream*)&index;
    CHECK_STATUS(plurnk_stream_create((plurnk_tier)9, &s), PLURNK_ERR_INVALID_ARGUMENT);
    CHECK(s == NULL);
    CHECK_STATUS(plurnk_stream_create(PLURNK_TIER_PARSE, NULL), PLURNK_ERR_INVALID_ARGUMENT);

    /* Polling, one feed, known result. */
    CHECK_STATUS(plurnk_stream_create(PLURNK_TIER_PARSE, &s), PLURNK_OK);
    CHECK(plurnk_stream_size(s) == 0 && plurnk_stream_pending_events(s) == 0 && plurnk_stream_finished(s) == 0);
    CHECK_STATUS(plurnk_stream_next_event(s, &index, &it), PLURNK_NO_EVENT);
    CHECK_STATUS(plurnk_stream_feed(s, NULL, 0), PLURNK_OK);
    CHECK_STATUS(plurnk_stream_feed(s, NULL, 1), PLURNK_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(plurnk_stream_feed(s, k_mixed_input, sizeof k_mixed_input - 1), PLURNK_OK);
    CHECK(plurnk_stream_size(s) == sizeof k_mixed_input - 1);
    CHECK_STATUS(plurnk_stream_finish(s, NULL), PLURNK_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(plurnk_stream_finish(s, &r), PLURNK_OK);
    CHECK_STATUS(plurnk_result_json(r, 0, &js), PLURNK_OK);
    CHECK(str_is(js, k_mixed_json));
    CHECK(plurnk_stream_pending_events(s) == 4 - ev.count); /* nothing taken yet */
    drain(s, &ev);
    check_events(&ev, r);
    CHECK(plurnk_stream_safe_prefix(s) == sizeof k_mixed_input - 1);
    CHECK_STATUS(plurnk_stream_feed(s, "x", 1), PLURNK_ERR_FINISHED);
    plurnk_result_free(r);
    r = (plurnk_result*)&index;
    CHECK_STATUS(plurnk_stream_finish(s, &r), PLURNK_ERR_FINISHED);
    CHECK(r == NULL);
    CHECK(plurnk_stream_size(s) == sizeof k_mixed_input - 1);
    plurnk_stream_free(s);
    events_free(&ev);

    /* The callback: re-entrant calls are refused. */
    memset(&ev, 0, sizeof ev);
    ev.busy_ok = 1;
    CHECK_STATUS(plurnk_stream_create(PLURNK_TIER_PARSE, &s), PLURNK_OK);
    ev.self = s;
    CHECK_STATUS(plurnk_stream_set_callback(s, on_event, &ev), PLURNK_OK);
    CHECK_STATUS(plurnk_stream_feed(s, k_mixed_input, sizeof k_mixed_input - 1), PLURNK_OK);
    CHECK_STATUS(plurnk_stream_finish(s, &r), PLURNK_OK);
    CHECK(ev.count == 4);
    CHECK(ev.busy_ok == 1);
    CHECK(plurnk_stream_pending_events(s) == 0);
    check_events(&ev, r);
    plurnk_result_free(r);
    plurnk_stream_free(s);
    events_free(&ev);

    /* Switching the callback off queues again. */
    memset(&ev, 0, sizeof ev);
    CHECK_STATUS(plurnk_stream_create(PLURNK_TIER_STATEMENTS, &s), PLURNK_OK);
    CHECK_STATUS(plurnk_stream_set_callback(s, on_event, &ev), PLURNK_OK);
    CHECK_STATUS(plurnk_stream_set_callback(s, NULL, NULL), PLURNK_OK);
    CHECK_STATUS(plurnk_stream_feed(s, k_read_input, sizeof k_read_input - 1), PLURNK_OK);
    CHECK_STATUS(plurnk_stream_finish(s, &r), PLURNK_OK);
    CHECK(ev.count == 0);
    CHECK(plurnk_stream_pending_events(s) == 1);
    CHECK_STATUS(plurnk_stream_next_event(s, &index, &it), PLURNK_OK);
    CHECK(index == 0 && it.kind == PLURNK_ITEM_STATEMENT && str_is(it.op, "READ"));
    CHECK(str_is(it.statement_json, k_read_statement_json));
    CHECK_STATUS(plurnk_stream_next_event(s, &index, &it), PLURNK_NO_EVENT);
    CHECK_STATUS(plurnk_stream_next_event(s, NULL, &it), PLURNK_ERR_INVALID_ARGUMENT);
    plurnk_result_free(r);
    plurnk_stream_free(s);

    /* NULL handles. */
    CHECK_STATUS(plurnk_stream_feed(NULL, "x", 1), PLURNK_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(plurnk_stream_finish(NULL, &r), PLURNK_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(plurnk_stream_set_callback(NULL, on_event, NULL), PLURNK_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(plurnk_stream_next_event(NULL, &index, &it), PLURNK_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(plurnk_stream_checkpoint(NULL, &s), PLURNK_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(plurnk_stream_restore(NULL, NULL), PLURNK_ERR_INVALID_ARGUMENT);
    CHECK(plurnk_stream_size(NULL) == 0 && plurnk_stream_safe_prefix(NULL) == 0);
    CHECK(plurnk_stream_finished(NULL) == 0 && plurnk_stream_pending_events(NULL) == 0);
    plurnk_stream_free(NULL);
}

/* Checkpoint before a draft, feed junk, restore, finish: the junk leaves no trace. */
static void test_checkpoint_restore(const char* input, size_t len, plurnk_tier tier) {
    static const char junk[] = ":PLAN\n<<READ(junk)::READ\n<<EDIT(j):\xe2\x80";
    plurnk_stream* s = NULL;
    plurnk_stream* cp = NULL;
    plurnk_result* r = NULL;
    plurnk_result* want = NULL;
    plurnk_str a, b;
    events ev;
    size_t mark;
    memset(&ev, 0, sizeof ev);
    mark = len / 2;

    CHECK_STATUS(plurnk_stream_create(tier, &s), PLURNK_OK);
    CHECK_STATUS(plurnk_stream_feed(s, input, mark), PLURNK_OK);
    CHECK_STATUS(plurnk_stream_checkpoint(s, NULL), PLURNK_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(plurnk_stream_checkpoint(s, &cp), PLURNK_OK);
    CHECK(plurnk_stream_size(cp) == mark);
    CHECK(plurnk_stream_pending_events(cp) == plurnk_stream_pending_events(s));
    CHECK_STATUS(plurnk_stream_feed(s, junk, sizeof junk - 1), PLURNK_OK);
    CHECK(plurnk_stream_size(s) == mark + sizeof junk - 1);
    CHECK(plurnk_stream_size(cp) == mark);
    CHECK_STATUS(plurnk_stream_restore(s, cp), PLURNK_OK);
    CHECK(plurnk_stream_size(s) == mark);
    CHECK_STATUS(plurnk_stream_restore(s, s), PLURNK_OK);
    /* Restore twice from the same checkpoint, with junk (and even a finish) in between. */
    CHECK_STATUS(plurnk_stream_feed(s, junk, 5), PLURNK_OK);
    CHECK_STATUS(plurnk_stream_finish(s, &r), PLURNK_OK);
    plurnk_result_free(r);
    r = NULL;
    CHECK_STATUS(plurnk_stream_restore(s, cp), PLURNK_OK);
    CHECK(plurnk_stream_finished(s) == 0);
    CHECK_STATUS(plurnk_stream_feed(s, input + mark, len - mark), PLURNK_OK);
    CHECK_STATUS(plurnk_stream_finish(s, &r), PLURNK_OK);
    drain(s, &ev);
    CHECK_STATUS(plurnk_parse(input, len, tier, &want), PLURNK_OK);
    CHECK_STATUS(plurnk_result_json(r, 0, &a), PLURNK_OK);
    CHECK_STATUS(plurnk_result_json(want, 0, &b), PLURNK_OK);
    CHECK(bytes_equal(a.data, a.len, b.data, b.len));
    check_events(&ev, r);
    plurnk_result_free(r);
    r = NULL;

    /* The checkpoint itself is a live stream: finishing it gives the prefix's result. */
    CHECK_STATUS(plurnk_stream_finish(cp, &r), PLURNK_OK);
    plurnk_result_free(want);
    CHECK_STATUS(plurnk_parse(input, mark, tier, &want), PLURNK_OK);
    CHECK_STATUS(plurnk_result_json(r, 0, &a), PLURNK_OK);
    CHECK_STATUS(plurnk_result_json(want, 0, &b), PLURNK_OK);
    CHECK(bytes_equal(a.data, a.len, b.data, b.len));

    plurnk_result_free(r);
    plurnk_result_free(want);
    plurnk_stream_free(cp);
    plurnk_stream_free(s);
    events_free(&ev);
}

/* Reads a whole file; NULL when it cannot. */
static char* read_file(const char* path, size_t* len) {
    FILE* f = fopen(path, "rb");
    char* buf = NULL;
    size_t cap = 0, n = 0, got;
    if (!f) return NULL;
    do {
        if (n == cap) {
            char* next;
            cap = cap ? cap * 2 : 4096;
            next = (char*)realloc(buf, cap);
            if (!next) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = next;
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
    } while (got > 0);
    fclose(f);
    *len = n;
    return buf;
}

typedef struct sample {
    const char* input;
    size_t len;
    plurnk_tier tier;
} sample;

/* ---- growth: struct_size, options, messages, typed statements ---- */

/* `msg` contains `want`. */
static int says(const char* msg, const char* want) { return msg != NULL && strstr(msg, want) != NULL; }

static void test_struct_size(void) {
    plurnk_result* r = NULL;
    /* A caller whose struct is larger (a newer header): the library fills only what it knows. */
    struct {
        plurnk_item item;
        unsigned char future[32];
    } big;
    plurnk_item small = {.struct_size = sizeof(size_t) + 4};
    size_t i;

    CHECK_STATUS(plurnk_parse(k_mixed_input, sizeof k_mixed_input - 1, PLURNK_TIER_PARSE, &r), PLURNK_OK);
    memset(&big, 0xAB, sizeof big);
    big.item.struct_size = sizeof big;
    CHECK_STATUS(plurnk_result_item(r, 0, &big.item), PLURNK_OK);
    CHECK(big.item.struct_size == sizeof(plurnk_item));
    CHECK(str_is(big.item.op, "PLAN"));
    CHECK(big.item.statement != NULL);
    for (i = 0; i < sizeof big.future; ++i) CHECK(big.future[i] == 0xAB);
    CHECK(PLURNK_HAS_FIELD(&big.item, statement));
    /* Text and error items have no statement. */
    CHECK_STATUS(plurnk_result_item(r, 1, &big.item), PLURNK_OK);
    CHECK(big.item.kind == PLURNK_ITEM_TEXT && big.item.statement == NULL);
    CHECK_STATUS(plurnk_result_item(r, 2, &big.item), PLURNK_OK);
    CHECK(big.item.kind == PLURNK_ITEM_ERROR && big.item.statement == NULL);
    /* Too small (or never set) is refused, and the message says which argument. */
    CHECK_STATUS(plurnk_result_item(r, 0, &small), PLURNK_ERR_INVALID_ARGUMENT);
    CHECK(says(plurnk_result_last_error(r), "plurnk_result_item: out->struct_size is"));
    CHECK(says(plurnk_last_error(), "set it to sizeof(plurnk_item)"));
    CHECK(small.kind == 0 && small.op.data == NULL); /* untouched */
    CHECK_STATUS(plurnk_result_item(r, 9, &big.item), PLURNK_ERR_OUT_OF_RANGE);
    CHECK(says(plurnk_result_last_error(r), "index 9 is out of range: the result has 4 items"));
    plurnk_result_free(r);
    CHECK(strcmp(plurnk_result_last_error(NULL), "") == 0);
    CHECK(strcmp(plurnk_stream_last_error(NULL), "") == 0);
}

static void on_event_size(void* user_data, size_t index, const plurnk_item* item) {
    (void)index;
    *(size_t*)user_data = item->struct_size;
}

static void test_messages(void) {
    plurnk_result* r = NULL;
    plurnk_stream* s = NULL;
    size_t index, seen = 0;
    plurnk_item it = {.struct_size = sizeof(plurnk_item)};
    CHECK_STATUS(plurnk_parse(NULL, 5, PLURNK_TIER_PARSE, &r), PLURNK_ERR_INVALID_ARGUMENT);
    CHECK(says(plurnk_last_error(), "plurnk_parse: input is NULL but len is 5"));
    CHECK_STATUS(plurnk_parse("x", 1, (plurnk_tier)7, &r), PLURNK_ERR_INVALID_ARGUMENT);
    CHECK(says(plurnk_last_error(), "plurnk_parse: tier is 7, not a plurnk_tier"));
    CHECK_STATUS(plurnk_parse("x", 1, PLURNK_TIER_PARSE, NULL), PLURNK_ERR_INVALID_ARGUMENT);
    CHECK(says(plurnk_last_error(), "plurnk_parse: out is NULL"));
    CHECK_STATUS(plurnk_stream_create(PLURNK_TIER_PARSE, &s), PLURNK_OK);
    CHECK(strcmp(plurnk_stream_last_error(s), "") == 0);
    CHECK_STATUS(plurnk_stream_feed(s, NULL, 3), PLURNK_ERR_INVALID_ARGUMENT);
    CHECK(says(plurnk_stream_last_error(s), "plurnk_stream_feed: data is NULL but len is 3"));
    CHECK_STATUS(plurnk_stream_next_event(s, NULL, &it), PLURNK_ERR_INVALID_ARGUMENT);
    CHECK(says(plurnk_stream_last_error(s), "plurnk_stream_next_event: index is NULL"));
    it.struct_size = 0;
    CHECK_STATUS(plurnk_stream_next_event(s, &index, &it), PLURNK_ERR_INVALID_ARGUMENT);
    CHECK(says(plurnk_stream_last_error(s), "item->struct_size is 0"));
    it.struct_size = sizeof it;
    CHECK_STATUS(plurnk_stream_feed(s, "<<PLAN:a:PLAN <<SEND[200]:b:SEND", 32), PLURNK_OK);
    CHECK(says(plurnk_stream_last_error(s), "item->struct_size is 0")); /* a success leaves the message */
    CHECK_STATUS(plurnk_stream_set_callback(s, on_event_size, &seen), PLURNK_OK);
    CHECK_STATUS(plurnk_stream_finish(s, &r), PLURNK_OK);
    CHECK(seen == sizeof(plurnk_item)); /* the callback's item carries the library's size */
    plurnk_result_free(r);
    CHECK_STATUS(plurnk_stream_finish(s, &r), PLURNK_ERR_FINISHED);
    CHECK(says(plurnk_stream_last_error(s), "plurnk_stream_finish: the stream has already finished"));
    CHECK_STATUS(plurnk_stream_restore(s, NULL), PLURNK_ERR_INVALID_ARGUMENT);
    CHECK(says(plurnk_stream_last_error(s), "plurnk_stream_restore: checkpoint is NULL"));
    plurnk_stream_free(s);
}

/* Streams `input` with options and returns the final result's JSON in buf. */
static int stream_json(const plurnk_stream_options* o, plurnk_tier tier, const char* input, size_t len, char* buf,
                       size_t cap, size_t* max_retained) {
    plurnk_stream* s = NULL;
    plurnk_result* r = NULL;
    plurnk_str js;
    size_t i;
    int ok = 0;
    if (plurnk_stream_create_ex(tier, o, &s) != PLURNK_OK) return 0;
    *max_retained = 0;
    for (i = 0; i < len; ++i) {
        plurnk_stream_feed(s, input + i, 1);
        if (plurnk_stream_retained(s) > *max_retained) *max_retained = plurnk_stream_retained(s);
    }
    if (plurnk_stream_finish(s, &r) == PLURNK_OK && plurnk_result_json(r, PLURNK_JSON_COMPACT, &js) == PLURNK_OK &&
        js.len < cap) {
        memcpy(buf, js.data, js.len + 1);
        ok = 1;
    }
    plurnk_result_free(r);
    plurnk_stream_free(s);
    return ok;
}

static void test_create_ex(void) {
    static const char t[] = "<<PLAN:p:PLAN\n<<SEND[200]:done:SEND\n";
    static const char cut[] =
        "{\"items\":[{\"kind\":\"statement\",\"statement\":{\"op\":\"PLAN\",\"suffix\":\"\",\"signal\":null,\"target\":null,"
        "\"lineMarker\":null,\"body\":\"p\",\"position\":{\"line\":1,\"column\":0}}},{\"kind\":\"error\",\"error\":{\"line\":2,"
        "\"column\":0,\"source\":\"lexer\",\"severity\":\"error\",\"message\":\"input is 36 bytes; only the first 14 were "
        "parsed (the max_input_bytes limit)\"}}]}";
    static const char nested[] = "<<TURN:\n<<TURN:\n<<PLAN:a:PLAN\n<<SEND[200]:b:SEND\n:TURN\n:TURN";
    struct {
        plurnk_stream_options o;
        unsigned char future[16];
    } big;
    plurnk_stream_options o = {.struct_size = sizeof(plurnk_stream_options)};
    plurnk_stream* s = NULL;
    char a[4096], b[4096];
    size_t held_default = 0, held_all = 0, held_one = 0;
    char many[8192];
    size_t n = 0;

    /* Defaults: the same as plurnk_stream_create. */
    CHECK(stream_json(NULL, PLURNK_TIER_STATEMENTS, t, sizeof t - 1, a, sizeof a, &held_default));
    CHECK(stream_json(&o, PLURNK_TIER_STATEMENTS, t, sizeof t - 1, b, sizeof b, &held_default));
    CHECK(strcmp(a, b) == 0);
    /* max_input_bytes: the parse of the prefix plus the limit's error item (as the CLI's). */
    o.max_input_bytes = 14;
    CHECK(stream_json(&o, PLURNK_TIER_STATEMENTS, t, sizeof t - 1, a, sizeof a, &held_default));
    CHECK(strcmp(a, cut) == 0);
    o.max_input_bytes = 0;
    /* max_turn_depth: 1 refuses the nested TURN. */
    CHECK(stream_json(&o, PLURNK_TIER_LOG, nested, sizeof nested - 1, a, sizeof a, &held_default));
    o.max_turn_depth = 1;
    CHECK(stream_json(&o, PLURNK_TIER_LOG, nested, sizeof nested - 1, b, sizeof b, &held_default));
    CHECK(strcmp(a, b) != 0);
    CHECK(strstr(b, "\"source\":\"lexer\"") != NULL && strstr(a, "\"source\":\"lexer\"") == NULL);
    o.max_turn_depth = 0;
    /* release_threshold: keeping all input holds it all; a threshold of 1 releases at once. */
    while (n + 40 < sizeof many) {
        memcpy(many + n, "<<READ(a.md)::READ\n", 19);
        n += 19;
    }
    o.release_threshold = PLURNK_KEEP_ALL_INPUT;
    CHECK(stream_json(&o, PLURNK_TIER_STATEMENTS, many, n, a, sizeof a, &held_all) == 0); /* JSON too big for a */
    o.release_threshold = 1;
    stream_json(&o, PLURNK_TIER_STATEMENTS, many, n, a, sizeof a, &held_one);
    stream_json(NULL, PLURNK_TIER_STATEMENTS, many, n, a, sizeof a, &held_default);
    CHECK(held_all == n);
    CHECK(held_one < 40);
    CHECK(held_default > held_one && held_default < n);
    o.release_threshold = 0;
    /* struct_size: too small refused; larger accepted when the unknown bytes are zero. */
    o.struct_size = sizeof(size_t);
    CHECK_STATUS(plurnk_stream_create_ex(PLURNK_TIER_PARSE, &o, &s), PLURNK_ERR_INVALID_ARGUMENT);
    CHECK(s == NULL);
    CHECK(says(plurnk_last_error(), "plurnk_stream_create_ex: options->struct_size is"));
    memset(&big, 0, sizeof big);
    big.o.struct_size = sizeof big;
    CHECK_STATUS(plurnk_stream_create_ex(PLURNK_TIER_PARSE, &big.o, &s), PLURNK_OK);
    plurnk_stream_free(s);
    s = NULL;
    big.future[3] = 1;
    CHECK_STATUS(plurnk_stream_create_ex(PLURNK_TIER_PARSE, &big.o, &s), PLURNK_ERR_INVALID_ARGUMENT);
    CHECK(says(plurnk_last_error(), "does not know"));
    CHECK_STATUS(plurnk_stream_create_ex((plurnk_tier)-1, NULL, &s), PLURNK_ERR_INVALID_ARGUMENT);
    CHECK(says(plurnk_last_error(), "tier is -1"));
}

static plurnk_stream* g_runaway_stream = NULL;

static void on_runaway_count(void* user_data, const plurnk_open* o) {
    size_t* seen = (size_t*)user_data;
    plurnk_open again = {.struct_size = sizeof again};
    ++seen[0];
    /* The stream is busy inside its callback: open() too (the callback has the view). */
    if (g_runaway_stream != NULL && plurnk_stream_open(g_runaway_stream, &again) == PLURNK_ERR_BUSY) ++seen[5];
    seen[1] = o->begin;
    seen[2] = (size_t)o->where;
    seen[3] = o->bytes;
    seen[4] = str_is(o->op, "EDIT") ? 1 : 0;
}

static void test_runaway(void) {
    static const char turn[] = "<<PLAN:p:PLAN\n<<READ[oops(b.py)::READ\n<<EXEC[sh]:ls:EXEC\n<<SEND[200]:x:SEND";
    const size_t len = sizeof turn - 1, limit = 64 * 1024, big_len = (size_t)1 << 20;
    plurnk_stream_options o = {.struct_size = sizeof o, .max_open_bytes = 32};
    plurnk_stream *s = NULL, *cp = NULL;
    plurnk_result* r = NULL;
    plurnk_open open = {.struct_size = sizeof open};
    plurnk_str js;
    char* want = NULL;
    char* big = NULL;
    size_t i, seen[6] = {0, 0, 0, 0, 0, 0};

    /* Polled: one event, when the READ (signal never closed) holds 33 bytes; the result is the
     * one-shot parse's. */
    CHECK_STATUS(plurnk_stream_create_ex(PLURNK_TIER_PARSE, &o, &s), PLURNK_OK);
    for (i = 0; i < len; ++i) {
        CHECK_STATUS(plurnk_stream_feed(s, turn + i, 1), PLURNK_OK);
        if (i + 1 == 50) { /* after "<<EXEC[sh]:ls": its `]:` put the READ in a body */
            CHECK_STATUS(plurnk_stream_open(s, &open), PLURNK_OK);
            CHECK(open.where == PLURNK_OPEN_BODY && str_is(open.op, "READ") && str_is(open.suffix, ""));
            CHECK(open.begin == 14 && open.bytes == 36 && open.openers == 1 && open.turn_depth == 0);
        }
    }
    CHECK_STATUS(plurnk_stream_next_runaway(s, &open), PLURNK_OK);
    CHECK(open.struct_size == sizeof open);
    CHECK(str_is(open.op, "READ") && open.where == PLURNK_OPEN_SIGNAL);
    CHECK(open.begin == 14 && open.bytes == 33 && open.openers == 1);
    CHECK_STATUS(plurnk_stream_next_runaway(s, &open), PLURNK_NO_EVENT);
    CHECK_STATUS(plurnk_stream_finish(s, &r), PLURNK_OK);
    CHECK_STATUS(plurnk_result_json(r, PLURNK_JSON_COMPACT, &js), PLURNK_OK);
    CHECK_STATUS(plurnk_parse_to_json(turn, len, PLURNK_TIER_PARSE, PLURNK_JSON_COMPACT, &want, NULL), PLURNK_OK);
    CHECK(want != NULL && str_is(js, want));
    plurnk_free_string(want);
    plurnk_result_free(r);
    CHECK_STATUS(plurnk_stream_open(s, &open), PLURNK_OK); /* finished: nothing is open */
    CHECK(open.where == PLURNK_OPEN_NONE && str_is(open.op, ""));
    open.struct_size = 4;
    CHECK_STATUS(plurnk_stream_open(s, &open), PLURNK_ERR_INVALID_ARGUMENT);
    CHECK(says(plurnk_stream_last_error(s), "plurnk_stream_open: out->struct_size is 4"));
    open.struct_size = sizeof open;
    plurnk_stream_free(s);

    /* A callback, an unclosed 1 MB EDIT body, a 64 KB limit, 4 KB chunks: one event, in the
     * body, after 64 KB and at most one chunk more; a checkpoint taken before keeps the limit. */
    big = (char*)malloc(big_len);
    CHECK(big != NULL);
    if (big == NULL) return;
    memset(big, 'x', big_len);
    memcpy(big, "<<PLAN:p:PLAN\n<<EDIT(big.txt):", 31);
    o.max_open_bytes = limit;
    CHECK_STATUS(plurnk_stream_create_ex(PLURNK_TIER_PARSE, &o, &s), PLURNK_OK);
    CHECK_STATUS(plurnk_stream_set_runaway_callback(s, on_runaway_count, seen), PLURNK_OK);
    CHECK_STATUS(plurnk_stream_checkpoint(s, &cp), PLURNK_OK);
    g_runaway_stream = s;
    for (i = 0; i < big_len; i += 4096) CHECK_STATUS(plurnk_stream_feed(s, big + i, 4096), PLURNK_OK);
    g_runaway_stream = NULL;
    CHECK(seen[0] == 1 && seen[1] == 14 && seen[2] == PLURNK_OPEN_BODY && seen[4] == 1 && seen[5] == 1);
    CHECK(seen[3] > limit && seen[3] <= limit + 4096);
    CHECK_STATUS(plurnk_stream_feed(cp, big, big_len), PLURNK_OK);
    CHECK(seen[0] == 2);
    CHECK_STATUS(plurnk_stream_next_runaway(s, &open), PLURNK_NO_EVENT); /* delivered, not queued */
    plurnk_stream_free(cp);
    plurnk_stream_free(s);

    /* Off (0), and an options struct from before max_open_bytes existed: no event. */
    o.max_open_bytes = 0;
    CHECK_STATUS(plurnk_stream_create_ex(PLURNK_TIER_PARSE, &o, &s), PLURNK_OK);
    CHECK_STATUS(plurnk_stream_feed(s, big, big_len), PLURNK_OK);
    CHECK_STATUS(plurnk_stream_next_runaway(s, &open), PLURNK_NO_EVENT);
    plurnk_stream_free(s);
    o.max_open_bytes = 32;
    o.struct_size = offsetof(plurnk_stream_options, max_open_bytes);
    CHECK_STATUS(plurnk_stream_create_ex(PLURNK_TIER_PARSE, &o, &s), PLURNK_OK);
    CHECK_STATUS(plurnk_stream_feed(s, big, big_len), PLURNK_OK);
    CHECK_STATUS(plurnk_stream_next_runaway(s, &open), PLURNK_NO_EVENT);
    plurnk_stream_free(s);
    free(big);
}

static const plurnk_statement* statement_at(const plurnk_result* r, size_t i, plurnk_item* it);

/* The service dialect (doc/dialects.md) through plurnk_parse_ex and plurnk_stream_create_ex: a
 * regex target and a `#` matcher; the default (and an options struct from before `dialect`
 * existed) reads 1.4.0; an unknown dialect is refused. */
static void test_dialect(void) {
    static const char in[] = "<<FIND(#src/.*\\.test\\.ts#)::FIND\n<<READ(a.md):#to(do)?#i:READ";
    plurnk_stream_options o;
    plurnk_result* r = NULL;
    plurnk_stream* s = NULL;
    plurnk_item it;
    plurnk_target t;
    plurnk_body b;
    const plurnk_statement* st;
    size_t i;
    memset(&o, 0, sizeof o);
    o.struct_size = sizeof o;
    o.dialect = PLURNK_PARSE_DIALECT_SERVICE;
    CHECK_STATUS(plurnk_parse_ex(in, sizeof in - 1, PLURNK_TIER_STATEMENTS, &o, &r), PLURNK_OK);
    CHECK(r != NULL && plurnk_result_item_count(r) == 2);
    st = r ? statement_at(r, 0, &it) : NULL;
    CHECK(st != NULL);
    if (st) {
        memset(&t, 0, sizeof t);
        t.struct_size = sizeof t;
        CHECK_STATUS(plurnk_statement_target(st, PLURNK_PART_HEADER, &t), PLURNK_OK);
        CHECK(t.kind == PLURNK_TARGET_REGEX);
        CHECK(str_is(t.raw, "#src/.*\\.test\\.ts#") && str_is(t.pattern, "src/.*\\.test\\.ts") && str_is(t.flags, ""));
    }
    st = r ? statement_at(r, 1, &it) : NULL;
    CHECK(st != NULL);
    if (st) {
        memset(&b, 0, sizeof b);
        b.struct_size = sizeof b;
        CHECK_STATUS(plurnk_statement_body(st, &b), PLURNK_OK);
        CHECK(b.dialect == PLURNK_DIALECT_REGEX && str_is(b.pattern, "to(do)?") && str_is(b.flags, "i"));
    }
    /* A result and its statements remember the dialect: formatting writes its spelling (1.4.0's
     * rules have no OPEN scope and no FORK without a prompt). */
    {
        static const char service_only[] = "<<OPEN(log:///**)<1,10>::OPEN\n<<FORK(worker://a)::FORK";
        plurnk_result* so = NULL;
        char* text = NULL;
        CHECK_STATUS(plurnk_parse_ex(service_only, sizeof service_only - 1, PLURNK_TIER_STATEMENTS, &o, &so), PLURNK_OK);
        st = so ? statement_at(so, 1, &it) : NULL;
        CHECK_STATUS(plurnk_format_statement(st, &text, NULL), PLURNK_OK);
        CHECK(text != NULL && strcmp(text, "<<FORK(worker://a)::FORK") == 0);
        plurnk_free_string(text);
        CHECK_STATUS(plurnk_format_result(so, &text, NULL), PLURNK_OK);
        CHECK(text != NULL && strcmp(text, "<<OPEN(log:///**)<1,10>::OPEN\n<<FORK(worker://a)::FORK\n") == 0);
        plurnk_free_string(text);
        plurnk_result_free(so);
    }
    plurnk_result_free(r);
    r = NULL;

    /* The stream reads the same, a byte at a time. */
    CHECK_STATUS(plurnk_stream_create_ex(PLURNK_TIER_STATEMENTS, &o, &s), PLURNK_OK);
    for (i = 0; s && i < sizeof in - 1; ++i) CHECK_STATUS(plurnk_stream_feed(s, in + i, 1), PLURNK_OK);
    CHECK_STATUS(plurnk_stream_finish(s, &r), PLURNK_OK);
    {
        plurnk_result* one = NULL;
        plurnk_str a, c;
        CHECK_STATUS(plurnk_parse_ex(in, sizeof in - 1, PLURNK_TIER_STATEMENTS, &o, &one), PLURNK_OK);
        CHECK_STATUS(plurnk_result_json(r, PLURNK_JSON_COMPACT, &a), PLURNK_OK);
        CHECK_STATUS(plurnk_result_json(one, PLURNK_JSON_COMPACT, &c), PLURNK_OK);
        CHECK(bytes_equal(a.data, a.len, c.data, c.len));
        CHECK(strstr(a.data, "\"kind\":\"regex\"") != NULL);
        plurnk_result_free(one);
    }
    plurnk_result_free(r);
    r = NULL;
    plurnk_stream_free(s);
    s = NULL;

    /* An options struct from before `dialect` existed, and NULL options: 1.4.0 (a local path). */
    o.struct_size = offsetof(plurnk_stream_options, dialect);
    CHECK_STATUS(plurnk_parse_ex(in, sizeof in - 1, PLURNK_TIER_STATEMENTS, &o, &r), PLURNK_OK);
    st = r ? statement_at(r, 0, &it) : NULL;
    if (st) {
        memset(&t, 0, sizeof t);
        t.struct_size = sizeof t;
        CHECK_STATUS(plurnk_statement_target(st, PLURNK_PART_HEADER, &t), PLURNK_OK);
        CHECK(t.kind == PLURNK_TARGET_LOCAL);
    }
    plurnk_result_free(r);
    r = NULL;
    CHECK_STATUS(plurnk_parse_ex(in, sizeof in - 1, PLURNK_TIER_STATEMENTS, NULL, &r), PLURNK_OK);
    CHECK(r != NULL);
    plurnk_result_free(r);
    r = NULL;

    /* Refused: an unknown dialect, and stream-only fields in a one-shot parse. */
    o.struct_size = sizeof o;
    o.dialect = 7;
    CHECK_STATUS(plurnk_parse_ex(in, sizeof in - 1, PLURNK_TIER_STATEMENTS, &o, &r), PLURNK_ERR_INVALID_ARGUMENT);
    CHECK(r == NULL && strstr(plurnk_last_error(), "dialect") != NULL);
    CHECK_STATUS(plurnk_stream_create_ex(PLURNK_TIER_STATEMENTS, &o, &s), PLURNK_ERR_INVALID_ARGUMENT);
    CHECK(s == NULL);
    o.dialect = PLURNK_PARSE_DIALECT_CONTRACTS;
    o.max_open_bytes = 8;
    CHECK_STATUS(plurnk_parse_ex(in, sizeof in - 1, PLURNK_TIER_STATEMENTS, &o, &r), PLURNK_ERR_INVALID_ARGUMENT);
    CHECK(r == NULL);
}

static const plurnk_statement* statement_at(const plurnk_result* r, size_t i, plurnk_item* it) {
    it->struct_size = sizeof *it;
    if (plurnk_result_item(r, i, it) != PLURNK_OK) return NULL;
    return it->statement;
}

static void test_typed_statements(void) {
    static const char turn[] =
        "<<FIND[a,b.c](https://u:p@x.org:8080/p?q#f)<0.5,3>:/re+/gi:FIND\n"
        "<<COPY(a.txt)<1,2>:b.txt<3>:COPY\n"
        "<<SEND[200]:{\"a\": 1}:SEND\n"
        "<<EXEC[sh]:ls -l:EXEC\n"
        "<<READ(file://a./x {Authorization: Bearer t})::READ\n";
    plurnk_result* r = NULL;
    plurnk_item it;
    const plurnk_statement* st;
    plurnk_signal sig = {.struct_size = sizeof(plurnk_signal)};
    plurnk_target tg = {.struct_size = sizeof(plurnk_target)};
    plurnk_body body = {.struct_size = sizeof(plurnk_body)};
    plurnk_str tag, key, value;
    const double* marks = NULL;
    size_t count = 0;

    CHECK_STATUS(plurnk_parse(turn, sizeof turn - 1, PLURNK_TIER_STATEMENTS, &r), PLURNK_OK);
    CHECK(plurnk_result_clean(r));
    /* FIND: tags, a URL target, a scope, a regex matcher. */
    st = statement_at(r, 0, &it);
    CHECK(st != NULL);
    CHECK_STATUS(plurnk_statement_signal(st, &sig), PLURNK_OK);
    CHECK(sig.kind == PLURNK_SIGNAL_TAGS && sig.tag_count == 2 && sig.struct_size == sizeof sig);
    CHECK_STATUS(plurnk_statement_tag(st, 1, &tag), PLURNK_OK);
    CHECK(str_is(tag, "b.c"));
    CHECK_STATUS(plurnk_statement_tag(st, 2, &tag), PLURNK_ERR_OUT_OF_RANGE);
    CHECK(says(plurnk_last_error(), "index 2 is out of range: the signal has 2 tags"));
    CHECK_STATUS(plurnk_statement_target(st, PLURNK_PART_HEADER, &tg), PLURNK_OK);
    CHECK(tg.kind == PLURNK_TARGET_URL && str_is(tg.scheme, "https") && str_is(tg.hostname, "x.org"));
    CHECK(str_is(tg.username, "u") && str_is(tg.password, "p") && tg.port == 8080);
    CHECK(str_is(tg.pathname, "/p") && str_is(tg.query, "q") && str_is(tg.fragment, "f"));
    CHECK(tg.present == (PLURNK_TARGET_HAS_USERNAME | PLURNK_TARGET_HAS_PASSWORD | PLURNK_TARGET_HAS_HOSTNAME |
                         PLURNK_TARGET_HAS_PORT | PLURNK_TARGET_HAS_QUERY | PLURNK_TARGET_HAS_FRAGMENT));
    CHECK_STATUS(plurnk_statement_scope(st, PLURNK_PART_HEADER, &marks, &count), PLURNK_OK);
    CHECK(count == 2 && marks[0] == 0.5 && marks[1] == 3);
    CHECK_STATUS(plurnk_statement_scope(st, PLURNK_PART_DESTINATION, &marks, &count), PLURNK_NOT_PRESENT);
    CHECK_STATUS(plurnk_statement_body(st, &body), PLURNK_OK);
    CHECK(body.kind == PLURNK_BODY_MATCHER && body.dialect == PLURNK_DIALECT_REGEX);
    CHECK(str_is(body.raw, "/re+/gi") && str_is(body.pattern, "re+") && str_is(body.flags, "gi"));
    CHECK_STATUS(plurnk_statement_scope(st, (plurnk_part)5, &marks, &count), PLURNK_ERR_INVALID_ARGUMENT);
    CHECK(says(plurnk_last_error(), "part is 5"));
    /* COPY: a local target, and a destination with its own scope. */
    st = statement_at(r, 1, &it);
    CHECK_STATUS(plurnk_statement_signal(st, &sig), PLURNK_OK);
    CHECK(sig.kind == PLURNK_SIGNAL_NONE);
    CHECK_STATUS(plurnk_statement_target(st, PLURNK_PART_HEADER, &tg), PLURNK_OK);
    CHECK(tg.kind == PLURNK_TARGET_LOCAL && str_is(tg.raw, "a.txt") && tg.present == 0 && str_is(tg.scheme, ""));
    CHECK_STATUS(plurnk_statement_body(st, &body), PLURNK_OK);
    CHECK(body.kind == PLURNK_BODY_SELECTION && body.dialect == -1);
    CHECK_STATUS(plurnk_statement_target(st, PLURNK_PART_DESTINATION, &tg), PLURNK_OK);
    CHECK(str_is(tg.raw, "b.txt"));
    CHECK_STATUS(plurnk_statement_scope(st, PLURNK_PART_DESTINATION, &marks, &count), PLURNK_OK);
    CHECK(count == 1 && marks[0] == 3);
    /* SEND: a number signal, a JSON body re-serialized. */
    st = statement_at(r, 2, &it);
    CHECK_STATUS(plurnk_statement_signal(st, &sig), PLURNK_OK);
    CHECK(sig.kind == PLURNK_SIGNAL_NUMBER && sig.number == 200);
    CHECK_STATUS(plurnk_statement_target(st, PLURNK_PART_HEADER, &tg), PLURNK_NOT_PRESENT);
    CHECK_STATUS(plurnk_statement_body(st, &body), PLURNK_OK);
    CHECK(body.kind == PLURNK_BODY_SEND && body.has_json == 1);
    CHECK(str_is(body.raw, "{\"a\": 1}") && str_is(body.json, "{\"a\":1}"));
    /* EXEC: a text signal and a text body. */
    st = statement_at(r, 3, &it);
    CHECK_STATUS(plurnk_statement_signal(st, &sig), PLURNK_OK);
    CHECK(sig.kind == PLURNK_SIGNAL_TEXT && str_is(sig.text, "sh"));
    CHECK_STATUS(plurnk_statement_body(st, &body), PLURNK_OK);
    CHECK(body.kind == PLURNK_BODY_TEXT && str_is(body.raw, "ls -l"));
    /* READ: header blocks; no body. */
    st = statement_at(r, 4, &it);
    CHECK_STATUS(plurnk_statement_target(st, PLURNK_PART_HEADER, &tg), PLURNK_OK);
    CHECK((tg.present & PLURNK_TARGET_HAS_HEADERS) && tg.header_count == 1);
    CHECK_STATUS(plurnk_statement_target_header(st, PLURNK_PART_HEADER, 0, &key, &value), PLURNK_OK);
    CHECK(str_is(key, "Authorization") && str_is(value, "Bearer t"));
    CHECK_STATUS(plurnk_statement_target_header(st, PLURNK_PART_HEADER, 1, &key, &value), PLURNK_ERR_OUT_OF_RANGE);
    CHECK_STATUS(plurnk_statement_body(st, &body), PLURNK_OK);
    CHECK(body.kind == PLURNK_BODY_NONE && str_is(body.raw, ""));
    /* Bad arguments. */
    CHECK_STATUS(plurnk_statement_signal(NULL, &sig), PLURNK_ERR_INVALID_ARGUMENT);
    CHECK(says(plurnk_last_error(), "plurnk_statement_signal: statement is NULL"));
    body.struct_size = 8;
    CHECK_STATUS(plurnk_statement_body(st, &body), PLURNK_ERR_INVALID_ARGUMENT);
    CHECK(says(plurnk_last_error(), "out->struct_size is 8"));
    plurnk_result_free(r);
}

static void test_format(void) {
    static const char in[] = "<<PLAN : goal :PLAN\n<<READ<1-3>(f(1).md):READ   \n<<FIND(x) :/(/:FIND\n"
                             "<<SEND[200] :ok:SEND";
    static const char canonical[] = "<<PLAN: goal :PLAN\n<<READ(f\\(1\\).md)<1,3>::READ   \n<<FIND(x) :/(/:FIND\n"
                                    "<<SEND[200]:ok:SEND";
    plurnk_result* r = NULL;
    plurnk_item it;
    const plurnk_statement* st;
    char* text = NULL;
    char* again = NULL;
    size_t len = 99;
    int changed = -1;

    /* One statement, then the result's items, then the whole source. */
    CHECK_STATUS(plurnk_parse(in, sizeof in - 1, PLURNK_TIER_PARSE, &r), PLURNK_OK);
    st = statement_at(r, 1, &it);
    CHECK(st != NULL && str_is(it.op, "READ"));
    CHECK_STATUS(plurnk_format_statement(st, &text, &len), PLURNK_OK);
    CHECK(text != NULL && strcmp(text, "<<READ(f\\(1\\).md)<1,3>::READ") == 0 && len == strlen(text));
    plurnk_free_string(text);
    CHECK_STATUS(plurnk_format_result(r, &text, NULL), PLURNK_OK);
    CHECK(text != NULL && strcmp(text, "<<PLAN: goal :PLAN\n<<READ(f\\(1\\).md)<1,3>::READ\n<<SEND[200]:ok:SEND\n") == 0);
    plurnk_free_string(text);
    CHECK_STATUS(plurnk_format_source(in, sizeof in - 1, PLURNK_TIER_PARSE, &text, &len, &changed), PLURNK_OK);
    CHECK(text != NULL && len == sizeof canonical - 1 && memcmp(text, canonical, len) == 0 && changed == 1);
    CHECK_STATUS(plurnk_format_source(text, len, PLURNK_TIER_PARSE, &again, NULL, &changed), PLURNK_OK);
    CHECK(again != NULL && strcmp(again, text) == 0 && changed == 0);
    plurnk_free_string(again);
    plurnk_free_string(text);
    CHECK_STATUS(plurnk_format_source(NULL, 0, PLURNK_TIER_STATEMENTS, &text, &len, NULL), PLURNK_OK);
    CHECK(text != NULL && len == 0 && text[0] == '\0');
    plurnk_free_string(text);
    /* Bad arguments. */
    CHECK_STATUS(plurnk_format_statement(NULL, &text, &len), PLURNK_ERR_INVALID_ARGUMENT);
    CHECK(text == NULL && len == 0 && says(plurnk_last_error(), "plurnk_format_statement: statement is NULL"));
    CHECK_STATUS(plurnk_format_result(r, NULL, NULL), PLURNK_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(plurnk_format_source(NULL, 3, PLURNK_TIER_PARSE, &text, NULL, NULL), PLURNK_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(plurnk_format_source(in, 3, (plurnk_tier)9, &text, NULL, NULL), PLURNK_ERR_INVALID_ARGUMENT);
    CHECK(text == NULL);
    plurnk_result_free(r);
}

/* plurnk_migrate_source (doc/dialects.md): service text into contracts and back. */
static void test_migrate(void) {
    static const char in[] = "<<FIND(src/**):#a/b#i:FIND\n<<OPEN(log:///**)<1,10>::OPEN\n<<READ(x):/etc/hosts:READ";
    static const char want[] = "<<FIND(src/**):/a\\/b/i:FIND\n<<OPEN(log:///**)<1,10>::OPEN\n<<READ(x):\\/etc/hosts:READ";
    char* text = NULL;
    char* notes = NULL;
    size_t len = 0, count = 0;
    int changed = -1;
    CHECK_STATUS(plurnk_migrate_source(in, sizeof in - 1, PLURNK_TIER_STATEMENTS, PLURNK_PARSE_DIALECT_SERVICE,
                                       PLURNK_PARSE_DIALECT_CONTRACTS, &text, &len, &changed, &notes, &count),
                 PLURNK_OK);
    CHECK(text != NULL && len == sizeof want - 1 && strcmp(text, want) == 0 && changed == 1);
    CHECK(notes != NULL && strcmp(notes, "2:1: <<OPEN: OPEN and FOLD take no scope in 1.4.0\n") == 0 && count == 1);
    plurnk_free_string(notes);
    /* Back into the service dialect: the regex keeps its escaped `/`, the glob its escape (the
     * OPEN is a parse error in contracts, left as it is). */
    CHECK_STATUS(plurnk_migrate_source(text, len, PLURNK_TIER_STATEMENTS, PLURNK_PARSE_DIALECT_CONTRACTS,
                                       PLURNK_PARSE_DIALECT_SERVICE, &notes, NULL, NULL, NULL, &count),
                 PLURNK_OK);
    CHECK(notes != NULL && count == 0 &&
          strcmp(notes, "<<FIND(src/**):#a\\/b#i:FIND\n<<OPEN(log:///**)<1,10>::OPEN\n<<READ(x):\\/etc/hosts:READ") == 0);
    plurnk_free_string(notes);
    plurnk_free_string(text);
    /* Bad arguments. */
    CHECK_STATUS(plurnk_migrate_source(in, 3, PLURNK_TIER_PARSE, PLURNK_PARSE_DIALECT_SERVICE, (plurnk_parse_dialect)7,
                                       &text, NULL, NULL, &notes, NULL),
                 PLURNK_ERR_INVALID_ARGUMENT);
    CHECK(text == NULL && notes == NULL && says(plurnk_last_error(), "plurnk_migrate_source: to is not a plurnk_parse_dialect"));
    CHECK_STATUS(plurnk_migrate_source(in, 3, PLURNK_TIER_PARSE, PLURNK_PARSE_DIALECT_SERVICE,
                                       PLURNK_PARSE_DIALECT_CONTRACTS, NULL, NULL, NULL, NULL, NULL),
                 PLURNK_ERR_INVALID_ARGUMENT);
}

int main(int argc, char** argv) {
    static const char utf8[] = "<<PLAN:caf\xc3\xa9 \xf0\x9f\x98\x80 na\xc3\xafve:PLAN\n\xe2\x9c\x93 done\n<<SEND[200]:\xe6\x97\xa5:SEND";
    static const char log_input[] = "<<TURN:\n<<PLAN:a:PLAN\n<<SEND[200]:b:SEND\n:TURN\n<<TURN:\n<<PLAN:c:PLAN";
    static const char client_input[] = "<<LOOK(src/a.ts)::LOOK\n<<BUFF(x)::BUFF <<READ(y)<1,2>::READ";
    static const char invalid[] = "<<PLAN:\xff\xfe\xc3:PLAN <<EDIT(a\xe2\x82)::EDIT \x80";
    sample samples[9];
    size_t n_samples = 0, i, c;
    size_t turn_len = 0;
    char* turn = argc > 1 ? read_file(argv[1], &turn_len) : NULL;
    static const size_t chunks[] = {1, 2, 3, 4, 7, 64};

    if (argc > 1 && turn == NULL) {
        fprintf(stderr, "c_api_test: cannot read %s\n", argv[1]);
        return 2;
    }
#define ADD(in, l, t)                    \
    do {                                 \
        samples[n_samples].input = (in); \
        samples[n_samples].len = (l);    \
        samples[n_samples].tier = (t);   \
        ++n_samples;                     \
    } while (0)
    ADD(k_read_input, sizeof k_read_input - 1, PLURNK_TIER_STATEMENTS);
    ADD(k_mixed_input, sizeof k_mixed_input - 1, PLURNK_TIER_PARSE);
    ADD(k_tail_input, sizeof k_tail_input - 1, PLURNK_TIER_PARSE);
    ADD(k_error_input, sizeof k_error_input - 1, PLURNK_TIER_PARSE);
    ADD(utf8, sizeof utf8 - 1, PLURNK_TIER_PARSE);
    ADD(log_input, sizeof log_input - 1, PLURNK_TIER_LOG);
    ADD(client_input, sizeof client_input - 1, PLURNK_TIER_CLIENT);
    ADD(invalid, sizeof invalid - 1, PLURNK_TIER_PARSE);
    if (turn) ADD(turn, turn_len, PLURNK_TIER_PARSE);
#undef ADD

    test_versions_and_names();
    test_one_shot();
    test_stream_basics();
    test_struct_size();
    test_messages();
    test_create_ex();
    test_typed_statements();
    test_format();
    test_migrate();
    test_runaway();
    test_dialect();
    /* Property: chunked (1 byte included, which splits every UTF-8 sequence) equals one-shot. */
    for (i = 0; i < n_samples; ++i) {
        for (c = 0; c < sizeof chunks / sizeof chunks[0]; ++c) {
            check_stream(samples[i].input, samples[i].len, samples[i].tier, chunks[c], 0);
            check_stream(samples[i].input, samples[i].len, samples[i].tier, chunks[c], 1);
        }
        test_checkpoint_restore(samples[i].input, samples[i].len, samples[i].tier);
    }
    free(turn);

    printf("c_api_test: %d checks, %d failed\n", g_checks, g_failures);
    return g_failures == 0 ? 0 : 1;
}
