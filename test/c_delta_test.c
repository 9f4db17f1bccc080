// SPDX-License-Identifier: MIT
/* The C API's delta streams and OpenAI mapping (plurnk.h, "Serving"), from plain C11: a recorded
 * turn fed a few bytes at a time adds up to the whole turn's message (content, reasoning, tool
 * calls); the final SEND comes through peek_end before the end; drafts accept and reject with the
 * C++ semantics; statements, runaways, chunk JSON; errors and struct_size. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plurnk/plurnk.h"

static int g_failures = 0;

#define CHECK(cond)                                                        \
    do {                                                                   \
        if (!(cond)) {                                                     \
            ++g_failures;                                                  \
            fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                  \
    } while (0)

static int str_is(plurnk_str s, const char* want) { return s.len == strlen(want) && memcmp(s.data, want, s.len) == 0; }

struct acc {
    char content[4096];
    size_t content_len;
    char reasoning[4096];
    size_t reasoning_len;
    char ops[256];  /* the statements' ops, space-separated */
};

static void add(plurnk_delta_stream* s, const plurnk_delta* d, struct acc* a) {
    memcpy(a->content + a->content_len, d->content.data, d->content.len);
    a->content_len += d->content.len;
    memcpy(a->reasoning + a->reasoning_len, d->reasoning.data, d->reasoning.len);
    a->reasoning_len += d->reasoning.len;
    for (size_t i = 0; i < d->statement_count; ++i) {
        plurnk_item it;
        size_t index = 0;
        it.struct_size = sizeof it;
        CHECK(plurnk_delta_stream_statement(s, i, &index, &it) == PLURNK_OK);
        CHECK(it.kind == PLURNK_ITEM_STATEMENT);
        strncat(a->ops, it.op.data, it.op.len);
        strcat(a->ops, " ");
    }
}

static const char k_turn[] =
    "<think>The user wants the flaky test fixed.\nFind the retry logic first.</think>\n"
    "<<PLAN:Find the retry logic, then fix it.:PLAN\n"
    "Looking for it.\n"
    "<<FIND[http](src/**/*.ts)<1,20>:/retry(Count|Delay)/i:FIND\n"
    "<<EDIT(src/net/backoff.ts)<41,47>:export const jitter = 0.2;\n:EDIT\n"
    "<<SEND[200]:Patched the jitter bound.:SEND";

int main(void) {
    plurnk_delta_stream* s = NULL;
    plurnk_delta d;
    struct acc a;
    memset(&a, 0, sizeof a);
    CHECK(plurnk_delta_stream_create(PLURNK_TIER_PARSE, NULL, &s) == PLURNK_OK);
    const size_t n = sizeof k_turn - 1;
    int saw_send_in_peek = 0;
    for (size_t at = 0; at < n; at += 3) {
        const size_t len = n - at < 3 ? n - at : 3;
        d.struct_size = sizeof d;
        CHECK(plurnk_delta_stream_feed(s, k_turn + at, len, &d) == PLURNK_OK);
        CHECK(d.struct_size == sizeof d);
        add(s, &d, &a);
        /* The adapter rule: the terminal SEND shows in peek_end once its close tag is in. */
        d.struct_size = sizeof d;
        CHECK(plurnk_delta_stream_peek_end(s, &d) == PLURNK_OK);
        if (d.ends_turn) {
            CHECK(at + len == n);
            CHECK(d.statement_count == 1);
            CHECK(d.first_call == 3);
            saw_send_in_peek = 1;
        }
    }
    CHECK(saw_send_in_peek);
    CHECK(strcmp(a.ops, "PLAN FIND EDIT ") == 0);
    d.struct_size = sizeof d;
    CHECK(plurnk_delta_stream_end(s, &d) == PLURNK_OK);
    CHECK(d.ends_turn == 1);
    plurnk_str chunk;
    CHECK(plurnk_delta_stream_chunk_json(s, "call_t_", &chunk) == PLURNK_OK);
    CHECK(str_is(chunk, "{\"tool_calls\":[{\"index\":3,\"id\":\"call_t_3\",\"type\":\"function\",\"function\":{\"name\":\"SEND\","
                        "\"arguments\":\"{\\\"suffix\\\":\\\"\\\",\\\"signal\\\":200,\\\"target\\\":null,\\\"lineMarker\\\":null,"
                        "\\\"body\\\":{\\\"raw\\\":\\\"Patched the jitter bound.\\\",\\\"json\\\":null}}\"}}]}"));
    add(s, &d, &a);
    CHECK(strcmp(a.ops, "PLAN FIND EDIT SEND ") == 0);
    CHECK(a.content_len == strlen("\n\nLooking for it.\n\n\n") && memcmp(a.content, "\n\nLooking for it.\n\n\n", a.content_len) == 0);
    CHECK(a.reasoning_len == strlen("The user wants the flaky test fixed.\nFind the retry logic first."));
    CHECK(plurnk_delta_stream_feed(s, "x", 1, &d) == PLURNK_ERR_FINISHED);
    plurnk_result* r = NULL;
    CHECK(plurnk_delta_stream_finish(s, &r) == PLURNK_OK);
    plurnk_result* one_shot = NULL;
    CHECK(plurnk_parse(k_turn, n, PLURNK_TIER_PARSE, &one_shot) == PLURNK_OK);
    CHECK(plurnk_result_item_count(r) == plurnk_result_item_count(one_shot));
    plurnk_str a_json, b_json;
    CHECK(plurnk_result_json(r, PLURNK_JSON_COMPACT, &a_json) == PLURNK_OK);
    CHECK(plurnk_result_json(one_shot, PLURNK_JSON_COMPACT, &b_json) == PLURNK_OK);
    CHECK(a_json.len == b_json.len && memcmp(a_json.data, b_json.data, a_json.len) == 0);
    plurnk_result_free(one_shot);
    plurnk_result_free(r);
    plurnk_delta_stream_free(s);

    /* The whole turn's message, and a statement's tool call. */
    char* msg = NULL;
    size_t msg_len = 0;
    CHECK(plurnk_openai_message_json("<<PLAN:p:PLAN\nhi <<SEND[200]:x:SEND", 34, PLURNK_TIER_PARSE, NULL, &msg, &msg_len) == PLURNK_OK);
    CHECK(msg != NULL && strstr(msg, "{\"role\":\"assistant\",\"content\":\"\\nhi \",\"tool_calls\":[{\"id\":\"call_0\"") == msg);
    plurnk_free_string(msg);
    plurnk_str tools;
    CHECK(plurnk_openai_tools_json(PLURNK_TIER_PARSE, &tools) == PLURNK_OK);
    CHECK(tools.len > 100 && memcmp(tools.data, "[{\"type\":\"function\",\"function\":{\"name\":\"FIND\"", 45) == 0);
    CHECK(plurnk_openai_tools_json((plurnk_tier)9, &tools) == PLURNK_ERR_INVALID_ARGUMENT);

    /* Drafts: a rejected draft leaves no trace, a partly accepted one keeps its first chunks. */
    CHECK(plurnk_delta_stream_create(PLURNK_TIER_PARSE, NULL, &s) == PLURNK_OK);
    d.struct_size = sizeof d;
    CHECK(plurnk_delta_stream_feed(s, "<<PLAN:p:PLAN\n", 14, &d) == PLURNK_OK);
    CHECK(plurnk_delta_stream_draft(s) == PLURNK_OK);
    CHECK(plurnk_delta_stream_drafting(s) == 1);
    CHECK(plurnk_delta_stream_feed(s, "<<READ(x)::READ\n", 16, &d) == PLURNK_OK);
    CHECK(d.statement_count == 0 && d.content.len == 0);  /* held */
    CHECK(plurnk_delta_stream_end(s, &d) == PLURNK_ERR_DRAFT_OPEN);
    CHECK(plurnk_delta_stream_finish(s, &r) == PLURNK_ERR_DRAFT_OPEN && r == NULL);
    CHECK(strstr(plurnk_delta_stream_last_error(s), "draft") != NULL);
    CHECK(plurnk_delta_stream_reject(s) == PLURNK_OK);
    CHECK(plurnk_delta_stream_drafting(s) == 0);
    CHECK(plurnk_delta_stream_draft(s) == PLURNK_OK);
    CHECK(plurnk_delta_stream_feed(s, "<<READ(a)::READ\n", 16, &d) == PLURNK_OK);
    CHECK(plurnk_delta_stream_feed(s, "<<READ(b)::READ\n", 16, &d) == PLURNK_OK);
    d.struct_size = sizeof d;
    CHECK(plurnk_delta_stream_accept(s, 1, &d) == PLURNK_OK);
    CHECK(d.statement_count == 1);
    plurnk_item it;
    it.struct_size = sizeof it;
    size_t index = 0;
    CHECK(plurnk_delta_stream_statement(s, 0, &index, &it) == PLURNK_OK);
    CHECK(index == 1 && strstr(it.statement_json.data, "\"raw\":\"a\"") != NULL);
    CHECK(plurnk_delta_stream_statement(s, 1, &index, &it) == PLURNK_ERR_OUT_OF_RANGE);
    char* call = NULL;
    CHECK(plurnk_statement_tool_call(it.statement, 7, "c", 1, &call, NULL) == PLURNK_OK);
    CHECK(call != NULL && strcmp(call, "{\"suffix\":\"\",\"signal\":null,\"target\":{\"kind\":\"local\",\"raw\":\"a\"},\"lineMarker\":null,\"body\":null}") == 0);
    plurnk_free_string(call);
    CHECK(plurnk_statement_tool_call(it.statement, 7, "c", 0, &call, NULL) == PLURNK_OK);
    CHECK(call != NULL && strstr(call, "{\"id\":\"c7\",\"type\":\"function\",\"function\":{\"name\":\"READ\"") == call);
    plurnk_free_string(call);

    /* A checkpoint restores; a newer caller's longer plurnk_delta gets what this library knows. */
    plurnk_delta_stream* cp = NULL;
    CHECK(plurnk_delta_stream_checkpoint(s, &cp) == PLURNK_OK);
    CHECK(plurnk_delta_stream_feed(s, "<<SEND[200]:no:SEND\nbye ", 24, &d) == PLURNK_OK);
    CHECK(plurnk_delta_stream_restore(s, cp) == PLURNK_OK);
    plurnk_delta_stream_free(cp);
    struct {
        plurnk_delta d;
        char guard[8];
    } small;
    memset(&small, 0x5A, sizeof small);
    small.d.struct_size = sizeof small;
    CHECK(plurnk_delta_stream_feed(s, "<<SEND[200]:yes:SEND\nbye ", 25, &small.d) == PLURNK_OK);
    CHECK(small.d.struct_size == sizeof(plurnk_delta));
    CHECK((unsigned char)small.guard[0] == 0x5A);
    CHECK(str_is(small.d.content, "\nbye ") && small.d.statement_count == 1 && small.d.ends_turn == 1);
    CHECK(plurnk_delta_stream_statement(s, 0, NULL, &it) == PLURNK_OK);
    CHECK(strstr(it.statement_json.data, "yes") != NULL);
    small.d.struct_size = 4;
    CHECK(plurnk_delta_stream_feed(s, "x", 1, &small.d) == PLURNK_ERR_INVALID_ARGUMENT);
    d.struct_size = sizeof d;
    CHECK(plurnk_delta_stream_end(s, &d) == PLURNK_OK);
    CHECK(d.statement_count == 0 && d.content.len == 0);
    plurnk_delta_stream_free(s);

    /* Runaways come in the delta. */
    plurnk_stream_options o;
    memset(&o, 0, sizeof o);
    o.struct_size = sizeof o;
    o.max_open_bytes = 32;
    CHECK(plurnk_delta_stream_create(PLURNK_TIER_PARSE, &o, &s) == PLURNK_OK);
    CHECK(plurnk_delta_stream_feed(s, "<<PLAN:p:PLAN\n<<EDIT(a):0123456789012345678901234567890123456789", 64, &d) == PLURNK_OK);
    CHECK(d.runaway_count == 1);
    plurnk_open ro;
    ro.struct_size = sizeof ro;
    CHECK(plurnk_delta_stream_runaway(s, 0, &ro) == PLURNK_OK);
    CHECK(ro.where == PLURNK_OPEN_BODY && ro.begin == 14 && str_is(ro.op, "EDIT"));
    plurnk_delta_stream_free(s);
    CHECK(plurnk_delta_stream_feed(NULL, "x", 1, &d) == PLURNK_ERR_INVALID_ARGUMENT);

    /* Bad options: the message names the call that was made. */
    o.struct_size = 4;
    CHECK(plurnk_delta_stream_create(PLURNK_TIER_PARSE, &o, &s) == PLURNK_ERR_INVALID_ARGUMENT && s == NULL);
    CHECK(strstr(plurnk_last_error(), "plurnk_delta_stream_create: options->struct_size is 4") == plurnk_last_error());
    o.struct_size = sizeof o;
    o.dialect = 7;
    CHECK(plurnk_delta_stream_create(PLURNK_TIER_PARSE, &o, &s) == PLURNK_ERR_INVALID_ARGUMENT && s == NULL);
    CHECK(strstr(plurnk_last_error(), "plurnk_delta_stream_create: options->dialect is 7") == plurnk_last_error());
    {
        struct {
            plurnk_stream_options o;
            char later[8];
        } longer;
        memset(&longer, 0, sizeof longer);
        longer.o.struct_size = sizeof longer;
        longer.later[3] = 1;
        CHECK(plurnk_delta_stream_create(PLURNK_TIER_PARSE, &longer.o, &s) == PLURNK_ERR_INVALID_ARGUMENT && s == NULL);
        CHECK(strstr(plurnk_last_error(), "plurnk_delta_stream_create: options sets byte") == plurnk_last_error());
    }
    o.dialect = 0;
    CHECK(plurnk_delta_stream_create((plurnk_tier)9, &o, &s) == PLURNK_ERR_INVALID_ARGUMENT);
    CHECK(strstr(plurnk_last_error(), "plurnk_delta_stream_create: ") == plurnk_last_error());

    if (g_failures == 0) printf("c_delta_test: ok\n");
    return g_failures == 0 ? 0 : 1;
}
