/* SPDX-License-Identifier: MIT */
/* A serving loop over the C API (doc/c-api.md, doc/streaming.md): a turn arrives in small
 * chunks; each settled item is shown by its byte span (prose as the input slice since the last
 * item, ops by their op), and a statement that runs away past max_open_bytes raises a runaway
 * event, where a server would stop generation. The turn's READ never closes its signal, so it
 * swallows the EXEC and the SEND after it.
 * Build and run it from the top of the tree as doc/c-api.md shows (its command, which the
 * documentation check runs, links with -Wl,-rpath so that the program finds
 * build/lib/libplurnk.so.0 without LD_LIBRARY_PATH). */
#include <plurnk/plurnk.h>
#include <stdio.h>
#include <string.h>

static const char k_turn[] =
    "<<PLAN:read b.py:PLAN\nLet me look.\n<<READ[oops(b.py)::READ\n<<EXEC[sh]:ls:EXEC\n<<SEND[200]:done:SEND";

static int g_runaways = 0;

struct shown {
    size_t upto; /* input bytes shown so far */
};

static void on_item(void* user, size_t index, const plurnk_item* it) {
    struct shown* s = (struct shown*)user;
    (void)index;
    if (!PLURNK_HAS_FIELD(it, span_end)) return; /* an older library: no spans */
    if (it->kind == PLURNK_ITEM_TEXT) {
        /* Prose since the last item shown: the input slice, whitespace included. */
        printf("prose  [%zu,%zu) \"%.*s\"\n", s->upto, it->span_end, (int)(it->span_end - s->upto), k_turn + s->upto);
        s->upto = it->span_end;
    } else if (it->kind == PLURNK_ITEM_STATEMENT) {
        printf("op     [%zu,%zu) %.*s\n", it->span_begin, it->span_end, (int)it->op.len, it->op.data);
        s->upto = it->span_end;
    } else {
        printf("error  [%zu,%zu) %.*s\n", it->span_begin, it->span_end, (int)it->message.len, it->message.data);
    }
}

static void on_runaway(void* user, const plurnk_open* o) {
    (void)user;
    ++g_runaways;
    printf("RUNAWAY: <<%.*s%.*s at byte %zu holds %zu bytes, %zu later op(s) swallowed: stop generation\n",
           (int)o->op.len, o->op.data, (int)o->suffix.len, o->suffix.data, o->begin, o->bytes, o->openers);
}

int main(void) {
    plurnk_stream_options options;
    plurnk_stream* s = NULL;
    plurnk_result* r = NULL;
    plurnk_open open;
    struct shown shown = {0};
    size_t i, n = strlen(k_turn), tail_begin = 0, tail_end = 0;

    memset(&options, 0, sizeof options);
    options.struct_size = sizeof options;
    options.max_open_bytes = 32;
    if (plurnk_stream_create_ex(PLURNK_TIER_PARSE, &options, &s) != PLURNK_OK) {
        fprintf(stderr, "%s\n", plurnk_last_error());
        return 1;
    }
    plurnk_stream_set_callback(s, on_item, &shown);
    plurnk_stream_set_runaway_callback(s, on_runaway, NULL);
    for (i = 0; i < n; i += 4) {
        plurnk_stream_feed(s, k_turn + i, n - i < 4 ? n - i : 4);
        if (i == 56) {
            memset(&open, 0, sizeof open);
            open.struct_size = sizeof open;
            plurnk_stream_open(s, &open);
            printf("open   <<%.*s since byte %zu (where %d, %zu bytes)\n", (int)open.op.len, open.op.data, open.begin,
                   (int)open.where, open.bytes);
        }
    }
    if (plurnk_stream_finish(s, &r) != PLURNK_OK) return 1;
    if (plurnk_result_tail_span(r, &tail_begin, &tail_end))
        printf("tail   [%zu,%zu) never closed\n", tail_begin, tail_end);
    plurnk_result_free(r);
    plurnk_stream_free(s);
    return g_runaways == 1 ? 0 : 1; /* (the test suite runs this example) */
}
