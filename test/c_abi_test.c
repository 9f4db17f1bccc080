// SPDX-License-Identifier: MIT
/* The C ABI an FFI binding relies on: compiles a C99 program against plurnk.h and checks the
 * size and offset of every field of every struct that crosses the interface against the layout
 * doc/c-api.md documents (natural alignment, fields in header order, the numbers for LP64
 * spelled out), that enums are int-sized, and that the library fills exactly struct_size
 * bytes: never past a shorter struct, and only what it knows of a longer one. A field moved,
 * resized or inserted anywhere but at the end fails here. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "plurnk/plurnk.h"

static int g_failures = 0;

static void expect(const char* what, size_t got, size_t want) {
    if (got != want) {
        ++g_failures;
        fprintf(stderr, "FAIL %s is %zu, expected %zu\n", what, got, want);
    }
}

static size_t up(size_t x, size_t a) { return (x + a - 1) / a * a; }

#define OFF(type, field, want) expect(#type "." #field " offset", offsetof(type, field), (want))
#define SIZE(type, want) expect("sizeof(" #type ")", sizeof(type), (want))

struct align_double { char c; double d; };

int main(void) {
    const size_t Z = sizeof(size_t), P = sizeof(void*), S = 2 * P;
    const size_t AD = offsetof(struct align_double, d); /* double's alignment: 8, or 4 on i386 */
    const size_t A = AD > P ? AD : P;                  /* the alignment of a struct holding both */
    size_t op, raw, number, text;

    expect("size_t and pointers have one width", Z, P);
    /* Enums are passed as int. */
    SIZE(plurnk_status, sizeof(int));
    SIZE(plurnk_tier, sizeof(int));
    SIZE(plurnk_part, sizeof(int));

    SIZE(plurnk_str, S);
    OFF(plurnk_str, data, 0);
    OFF(plurnk_str, len, P);

    OFF(plurnk_item, struct_size, 0);
    OFF(plurnk_item, kind, Z);
    OFF(plurnk_item, line, Z + 4);
    OFF(plurnk_item, column, Z + 8);
    OFF(plurnk_item, source, Z + 12);
    OFF(plurnk_item, severity, Z + 16);
    op = up(Z + 20, P);
    OFF(plurnk_item, op, op);
    OFF(plurnk_item, suffix, op + S);
    OFF(plurnk_item, message, op + 2 * S);
    OFF(plurnk_item, text, op + 3 * S);
    OFF(plurnk_item, json, op + 4 * S);
    OFF(plurnk_item, statement_json, op + 5 * S);
    OFF(plurnk_item, statement, op + 6 * S);
    OFF(plurnk_item, span_begin, op + 6 * S + P);
    OFF(plurnk_item, span_end, op + 6 * S + P + Z);
    SIZE(plurnk_item, op + 6 * S + P + 2 * Z);

    OFF(plurnk_stream_options, struct_size, 0);
    OFF(plurnk_stream_options, max_input_bytes, Z);
    OFF(plurnk_stream_options, max_turn_depth, 2 * Z);
    OFF(plurnk_stream_options, release_threshold, 3 * Z);
    OFF(plurnk_stream_options, max_open_bytes, 4 * Z);
    OFF(plurnk_stream_options, dialect, 5 * Z);
    OFF(plurnk_stream_options, reserved, 5 * Z + 4);
    SIZE(plurnk_stream_options, 5 * Z + 8);

    OFF(plurnk_open, struct_size, 0);
    OFF(plurnk_open, where, Z);
    OFF(plurnk_open, reserved, Z + 4);
    op = up(Z + 8, P);
    OFF(plurnk_open, op, op);
    OFF(plurnk_open, suffix, op + S);
    OFF(plurnk_open, begin, op + 2 * S);
    OFF(plurnk_open, bytes, op + 2 * S + Z);
    OFF(plurnk_open, openers, op + 2 * S + 2 * Z);
    OFF(plurnk_open, turn_depth, op + 2 * S + 3 * Z);
    SIZE(plurnk_open, op + 2 * S + 4 * Z);

    OFF(plurnk_delta, struct_size, 0);
    OFF(plurnk_delta, content, up(Z, P));
    OFF(plurnk_delta, reasoning, up(Z, P) + S);
    OFF(plurnk_delta, statement_count, up(Z, P) + 2 * S);
    OFF(plurnk_delta, first_call, up(Z, P) + 2 * S + Z);
    OFF(plurnk_delta, runaway_count, up(Z, P) + 2 * S + 2 * Z);
    OFF(plurnk_delta, ends_turn, up(Z, P) + 2 * S + 3 * Z);
    OFF(plurnk_delta, reserved, up(Z, P) + 2 * S + 3 * Z + 4);
    SIZE(plurnk_delta, up(up(Z, P) + 2 * S + 3 * Z + 8, P));

    OFF(plurnk_signal, struct_size, 0);
    OFF(plurnk_signal, kind, Z);
    OFF(plurnk_signal, reserved, Z + 4);
    number = up(Z + 8, AD);
    OFF(plurnk_signal, number, number);
    text = up(number + sizeof(double), P);
    OFF(plurnk_signal, text, text);
    OFF(plurnk_signal, tag_count, text + S);
    SIZE(plurnk_signal, up(text + S + Z, A));

    OFF(plurnk_target, struct_size, 0);
    OFF(plurnk_target, kind, Z);
    OFF(plurnk_target, present, Z + 4);
    OFF(plurnk_target, port, Z + 8);
    OFF(plurnk_target, reserved, Z + 12);
    raw = up(Z + 16, P);
    OFF(plurnk_target, raw, raw);
    OFF(plurnk_target, scheme, raw + S);
    OFF(plurnk_target, username, raw + 2 * S);
    OFF(plurnk_target, password, raw + 3 * S);
    OFF(plurnk_target, hostname, raw + 4 * S);
    OFF(plurnk_target, pathname, raw + 5 * S);
    OFF(plurnk_target, query, raw + 6 * S);
    OFF(plurnk_target, fragment, raw + 7 * S);
    OFF(plurnk_target, header_count, raw + 8 * S);
    OFF(plurnk_target, pattern, up(raw + 8 * S + Z, P));
    OFF(plurnk_target, flags, up(raw + 8 * S + Z, P) + S);
    SIZE(plurnk_target, up(raw + 8 * S + Z, P) + 2 * S);

    OFF(plurnk_body, struct_size, 0);
    OFF(plurnk_body, kind, Z);
    OFF(plurnk_body, dialect, Z + 4);
    raw = up(Z + 8, P);
    OFF(plurnk_body, raw, raw);
    OFF(plurnk_body, pattern, raw + S);
    OFF(plurnk_body, flags, raw + 2 * S);
    OFF(plurnk_body, json, raw + 3 * S);
    OFF(plurnk_body, has_json, raw + 4 * S);
    OFF(plurnk_body, reserved, raw + 4 * S + 4);
    SIZE(plurnk_body, up(raw + 4 * S + 8, P));

    if (P == 8 && AD == 8) { /* the LP64 numbers doc/c-api.md lists */
        SIZE(plurnk_item, 152);
        OFF(plurnk_item, op, 32);
        OFF(plurnk_item, statement, 128);
        OFF(plurnk_item, span_begin, 136);
        SIZE(plurnk_stream_options, 48);
        SIZE(plurnk_open, 80);
        OFF(plurnk_open, begin, 48);
        SIZE(plurnk_signal, 48);
        OFF(plurnk_signal, number, 16);
        SIZE(plurnk_target, 192);
        OFF(plurnk_target, raw, 24);
        SIZE(plurnk_body, 88);
        OFF(plurnk_body, has_json, 80);
    }

    /* The library writes sizeof(plurnk_item) bytes, nothing after them, and reports how many.
     * (The C API test covers a caller's struct longer than the library's.) */
    {
        plurnk_result* r = NULL;
        struct {
            plurnk_item item;
            unsigned char after[16];
        } buf;
        size_t i, bad = 0;
        memset(&buf, 0x5A, sizeof buf);
        buf.item.struct_size = sizeof(plurnk_item);
        if (plurnk_parse("<<READ(a)::READ", 15, PLURNK_TIER_STATEMENTS, &r) != PLURNK_OK ||
            plurnk_result_item(r, 0, &buf.item) != PLURNK_OK) {
            ++g_failures;
            fprintf(stderr, "FAIL plurnk_result_item\n");
        }
        expect("the struct_size the library reports", buf.item.struct_size, sizeof(plurnk_item));
        for (i = 0; i < sizeof buf.after; ++i) bad += buf.after[i] != 0x5A;
        expect("bytes written past the struct", bad, 0);
        expect("PLURNK_HAS_FIELD(statement) on a full struct", (size_t)PLURNK_HAS_FIELD(&buf.item, statement), 1);
        buf.item.struct_size = offsetof(plurnk_item, statement);
        expect("PLURNK_HAS_FIELD(statement) on a shorter one", (size_t)PLURNK_HAS_FIELD(&buf.item, statement), 0);
        expect("the statement's span_begin", buf.item.span_begin, 0);
        expect("the statement's span_end", buf.item.span_end, 15);
        plurnk_result_free(r);
    }

    printf("c_abi_test: plurnk_item %zu bytes, plurnk_stream_options %zu, plurnk_signal %zu, plurnk_target %zu, "
           "plurnk_body %zu, plurnk_open %zu; %d failed\n",
           sizeof(plurnk_item), sizeof(plurnk_stream_options), sizeof(plurnk_signal), sizeof(plurnk_target),
           sizeof(plurnk_body), sizeof(plurnk_open), g_failures);
    return g_failures == 0 ? 0 : 1;
}
