/* SPDX-License-Identifier: MIT */
/* The conformance vectors from plain C (C11): a reader of the one-line JSON objects of
 * test/conformance/ (JSON Lines) (id, tier, input) for the C property tests, and the seeded generator
 * they draw from. Header-only: each test is one translation unit. */
#ifndef PLURNK_TEST_C_VECTORS_H
#define PLURNK_TEST_C_VECTORS_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plurnk/plurnk.h"

static void* xmalloc(size_t n) {
    void* p = malloc(n ? n : 1);
    if (p == NULL) abort();
    return p;
}

static uint64_t next_random(uint64_t* s) { /* splitmix64 */
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Appends the UTF-8 of code point `cp` (a lone surrogate as its 3-byte form). */
static size_t put_utf8(char* out, unsigned long cp) {
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

static unsigned long hex4(const char* p) {
    unsigned long v = 0;
    int i;
    for (i = 0; i < 4; ++i) {
        const char c = p[i];
        v = v * 16 + (unsigned long)(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
    }
    return v;
}

/* Decodes the JSON string whose first character (after the opening quote) is at `p` into a new
 * buffer (NUL-terminated; *len bytes); *end, when not NULL, is set past the closing quote. */
static char* json_string_at(const char* p, size_t* len, const char** end) {
    char* out = (char*)xmalloc(strlen(p) + 1);
    size_t n = 0;
    while (*p != '"') {
        if (*p != '\\') {
            out[n++] = *p++;
            continue;
        }
        ++p;
        switch (*p) {
            case 'n': out[n++] = '\n'; break;
            case 't': out[n++] = '\t'; break;
            case 'r': out[n++] = '\r'; break;
            case 'b': out[n++] = '\b'; break;
            case 'f': out[n++] = '\f'; break;
            case 'u': {
                unsigned long cp = hex4(p + 1);
                p += 4;
                if (cp >= 0xD800 && cp < 0xDC00 && p[1] == '\\' && p[2] == 'u') {
                    const unsigned long lo = hex4(p + 3);
                    if (lo >= 0xDC00 && lo < 0xE000) {
                        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                        p += 6;
                    }
                }
                n += put_utf8(out + n, cp);
                break;
            }
            default: out[n++] = *p; break; /* \" \\ \/ */
        }
        ++p;
    }
    out[n] = '\0';
    *len = n;
    if (end != NULL) *end = p + 1;
    return out;
}

/* The JSON string value of the first member `key` in the one-line object `line` (a vector: its
 * strings are well-formed JSON), decoded into a new buffer; NULL when absent (or not a string). */
static char* json_member(const char* line, const char* key, size_t* len) {
    char pattern[64];
    const char* p;
    snprintf(pattern, sizeof pattern, "\"%s\":\"", key);
    p = strstr(line, pattern);
    if (p == NULL) return NULL;
    return json_string_at(p + strlen(pattern), len, NULL);
}

static int tier_of(const char* name, plurnk_tier* t) {
    static const char* const names[] = {"parse", "statements", "log", "client"};
    static const plurnk_tier tiers[] = {PLURNK_TIER_PARSE, PLURNK_TIER_STATEMENTS, PLURNK_TIER_LOG, PLURNK_TIER_CLIENT};
    int i;
    for (i = 0; i < 4; ++i) {
        if (strcmp(name, names[i]) == 0) {
            *t = tiers[i];
            return 1;
        }
    }
    return 0;
}

/* Calls `each` with the id, input and tier of every vector of the JSON Lines file at `path`, and
 * `n`, the vector's number; returns how many there were (-1 when the file does not open). */
typedef void (*vector_fn)(void* user_data, const char* id, const char* input, size_t len, plurnk_tier tier, size_t n);

static long for_each_vector(const char* path, vector_fn each, void* user_data) {
    FILE* f = fopen(path, "rb");
    char* line = NULL;
    size_t cap = 0, n = 0;
    if (f == NULL) return -1;
    for (;;) {
        size_t len = 0, tier_len = 0, id_len = 0;
        int c;
        char *input, *tier_name, *id;
        plurnk_tier tier;
        while ((c = fgetc(f)) != EOF && c != '\n') {
            if (len + 1 >= cap) {
                cap = cap ? 2 * cap : 4096;
                line = (char*)realloc(line, cap);
                if (line == NULL) abort();
            }
            line[len++] = (char)c;
        }
        if (c == EOF && len == 0) break;
        line[len] = '\0';
        input = json_member(line, "input", &len);
        tier_name = json_member(line, "tier", &tier_len);
        if (input != NULL && tier_name != NULL && tier_of(tier_name, &tier)) {
            id = json_member(line, "id", &id_len);
            each(user_data, id != NULL ? id : "?", input, len, tier, n++);
            free(id);
        }
        free(input);
        free(tier_name);
    }
    free(line);
    fclose(f);
    return (long)n;
}

#endif
