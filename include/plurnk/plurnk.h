/* SPDX-License-Identifier: MIT */
/* The plurnk C API: a C ABI over the PLURNK parser, for C programs and for foreign-function
 * interfaces (Python ctypes, Rust, Go cgo) that have no C++ compiler on their side.
 *
 * Conventions (doc/c-api.md has the full reference and examples):
 * - Handles (plurnk_result, plurnk_stream) are opaque; each is created by one function and
 *   released by exactly one plurnk_*_free function. Passing NULL to a free function does nothing.
 * - Input is a pointer plus an explicit byte length; it need not be NUL-terminated and may hold
 *   any bytes (invalid UTF-8 counts one column per byte, as in the C++ library). A NULL pointer
 *   is accepted when the length is 0.
 * - Strings the library hands out are (pointer, length) pairs. They are always NUL-terminated
 *   too, but may contain NUL bytes, so use the length. "Borrowed" strings belong to a handle and
 *   stay valid until the point each function states; "library-allocated" strings belong to the
 *   caller and are released with plurnk_free_string.
 * - No C++ exception crosses this interface: every failure, out-of-memory included, is a
 *   plurnk_status value. A malformed PLURNK turn is not a failure: it parses to a result with
 *   error items, and the function returns PLURNK_OK.
 * - Thread safety: functions on different handles may run concurrently; calls on one handle
 *   must not overlap (results cache their JSON text lazily). Use one handle per thread.
 * - Growth: every struct that crosses the interface starts with `size_t struct_size`. The
 *   caller sets it to sizeof the struct it was compiled with; the library reads or writes only
 *   that many bytes, so a program built against an older header keeps working with a newer
 *   library and the other way round. Fields are only ever appended. See doc/c-api.md.
 * - Errors in words: plurnk_stream_last_error / plurnk_result_last_error say what the last
 *   failed call on a handle objected to (which argument, which value); plurnk_last_error says
 *   the same for the calling thread's last failed call, handle or not.
 */
#ifndef PLURNK_PLURNK_H
#define PLURNK_PLURNK_H

/* PLURNK_VERSION_MAJOR, _MINOR, _PATCH, _STRING: the compile-time version (plurnk_version() is
 * the run-time one). */
#include "plurnk/version.h"

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32) && defined(PLURNK_BUILDING_C_API)
#define PLURNK_API __declspec(dllexport)
#elif defined(_WIN32)
#define PLURNK_API
#elif defined(__GNUC__)
#define PLURNK_API __attribute__((visibility("default")))
#else
#define PLURNK_API
#endif

/* C++ sees the enums with a fixed underlying type, so that a value a C or FFI caller passes
 * outside the enumerators (which the functions reject) is well defined on the C++ side too. */
#ifdef __cplusplus
#define PLURNK_ENUM_INT : int
#else
#define PLURNK_ENUM_INT
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes. Every function that can fail returns one; PLURNK_OK is 0. */
typedef enum plurnk_status PLURNK_ENUM_INT {
    PLURNK_OK = 0,
    PLURNK_NO_EVENT = 1,               /* plurnk_stream_next_event: the event queue is empty */
    PLURNK_ERR_INVALID_ARGUMENT = 2,   /* a required pointer is NULL, or an enum value is unknown */
    PLURNK_ERR_OUT_OF_MEMORY = 3,      /* allocation failed; the handle is unchanged or poisoned */
    PLURNK_ERR_FINISHED = 4,           /* feed or finish on a stream that already finished */
    PLURNK_ERR_OUT_OF_RANGE = 5,       /* an item index >= the item count */
    PLURNK_ERR_BUSY = 6,               /* a call on a stream from inside its own event or runaway callback */
    PLURNK_ERR_POISONED = 7,           /* an earlier failure left the stream unusable; restore it */
    PLURNK_ERR_INTERNAL = 8,           /* an unexpected internal failure (a bug: please report) */
    PLURNK_NOT_PRESENT = 9,            /* a statement accessor: the statement has no such part */
    PLURNK_ERR_DRAFT_OPEN = 10,        /* a delta stream's end or finish while a draft is open */
    PLURNK_STATUS_COUNT
} plurnk_status;

/* The four document tiers (the C++ plurnk::tier, same values). */
typedef enum plurnk_tier PLURNK_ENUM_INT {
    PLURNK_TIER_PARSE = 0,       /* one PLAN-anchored turn, text allowed */
    PLURNK_TIER_STATEMENTS = 1,  /* protocol statements only */
    PLURNK_TIER_LOG = 2,         /* one or more TURN-wrapped turns */
    PLURNK_TIER_CLIENT = 3       /* protocol statements plus LOOK and BUFF */
} plurnk_tier;

/* What an item is: the "kind" member of its JSON. */
typedef enum plurnk_item_kind PLURNK_ENUM_INT {
    PLURNK_ITEM_STATEMENT = 0,
    PLURNK_ITEM_ERROR = 1,  /* a diagnostic; severity says error or warning */
    PLURNK_ITEM_TEXT = 2
} plurnk_item_kind;

/* Where a diagnostic comes from (error items only; -1 for other kinds). */
typedef enum plurnk_source PLURNK_ENUM_INT {
    PLURNK_SOURCE_LEXER = 0,
    PLURNK_SOURCE_PARSER = 1,
    PLURNK_SOURCE_VISITOR = 2
} plurnk_source;

/* A diagnostic's severity (error items only; -1 for other kinds). */
typedef enum plurnk_severity PLURNK_ENUM_INT {
    PLURNK_SEVERITY_ERROR = 0,
    PLURNK_SEVERITY_WARNING = 1
} plurnk_severity;

/* Flags for the JSON functions. */
#define PLURNK_JSON_COMPACT 0u
#define PLURNK_JSON_PRETTY 1u /* two-space indentation, as JSON.stringify(x, null, 2) */

/* The index of an event whose item is only placed in the result at finish. */
#define PLURNK_NO_INDEX SIZE_MAX

/* A borrowed string: `len` bytes at `data`, followed by a NUL. Never NULL (an absent field is
 * "" with length 0). */
typedef struct plurnk_str {
    const char* data;
    size_t len;
} plurnk_str;

/* A statement inside an item view: opaque, borrowed like the view's strings. Read its parts
 * with the plurnk_statement_* accessors below. */
typedef struct plurnk_statement plurnk_statement;

/* A view of one item, filled by plurnk_result_item, plurnk_stream_next_event and the event
 * callback. Every string is borrowed (see the function that filled it for how long). Fields
 * that do not apply to the item's kind are "" (strings), -1 (source, severity) or NULL.
 *
 * Set struct_size = sizeof(plurnk_item) before passing one in; the library fills at most that
 * many bytes and stores in struct_size how many it filled. The callback's item has the
 * library's struct_size: test PLURNK_HAS_FIELD(item, field) before reading a field appended
 * after the ones your header knows (span_begin and span_end are the newest). */
typedef struct plurnk_item {
    size_t struct_size;       /* in: sizeof(plurnk_item); out: the bytes the library filled */
    int32_t kind;             /* plurnk_item_kind */
    uint32_t line;            /* 1-based; 0 when unknown */
    uint32_t column;          /* 0-based, in Unicode code points */
    int32_t source;           /* plurnk_source (errors), else -1 */
    int32_t severity;         /* plurnk_severity (errors), else -1 */
    plurnk_str op;            /* statements: the keyword ("FIND", "READ", ...) */
    plurnk_str suffix;        /* statements: the op suffix ("" when none) */
    plurnk_str message;       /* errors: the diagnostic message */
    plurnk_str text;          /* text items: the text, as in the input (may be invalid UTF-8) */
    plurnk_str json;          /* the whole item as compact JSON, exactly as in the result JSON */
    plurnk_str statement_json; /* statements: the "statement" member as compact JSON */
    const plurnk_statement* statement; /* statements: the typed statement; else NULL */
    /* Appended (test PLURNK_HAS_FIELD(item, span_end) in a callback): the item's byte span
     * [span_begin, span_end) in the whole input, as doc/c-api.md ("Byte spans") defines it: a
     * statement from its `<<` to the end of its close tag, a text item its text, a diagnostic
     * what it is about. */
    size_t span_begin;
    size_t span_end;
} plurnk_item;

/* 1 when the struct at `p` (any struct starting with struct_size) holds `field`. */
#define PLURNK_HAS_FIELD(p, field) \
    ((p)->struct_size >= (size_t)((const char*)&(p)->field - (const char*)(p)) + sizeof((p)->field))

/* plurnk_stream_options.dialect: the spelling of the language read (doc/dialects.md). */
typedef enum plurnk_parse_dialect PLURNK_ENUM_INT {
    PLURNK_PARSE_DIALECT_CONTRACTS = 0, /* PLURNK 1.4.0 (the default) */
    PLURNK_PARSE_DIALECT_SERVICE = 1    /* the Plurnk Service spelling: `#pattern#flags` regexes, regex targets */
} plurnk_parse_dialect;

/* Options for plurnk_stream_create_ex and plurnk_parse_ex. Zero-initialize, set struct_size = sizeof, then set what
 * you need: every field is 0 for "the default" (or "off"), including fields appended later,
 * which is what lets an older caller pass a shorter struct. */
typedef struct plurnk_stream_options {
    size_t struct_size;       /* sizeof(plurnk_stream_options) */
    size_t max_input_bytes;   /* 0: the default, the most (2^32 - 1); bytes past it are not parsed */
    size_t max_turn_depth;    /* 0: the default, 256; deepest <<TURN: nesting accepted */
    size_t release_threshold; /* 0: the default, 4096; PLURNK_KEEP_ALL_INPUT: never release */
    /* The runaway limit (0: off). After each feed, when the open statement (or,
     * with none open, the innermost open TURN body) holds more than this many bytes, a runaway
     * event is raised, once per statement or TURN body: to the runaway callback if one is set,
     * else into a queue read with plurnk_stream_next_runaway. It never changes the items or the
     * result. doc/streaming.md defines it. */
    size_t max_open_bytes;
    int32_t dialect;          /* plurnk_parse_dialect; 0: contracts */
    uint32_t reserved;        /* 0 */
    /* Reserved for growth: appended fields, each 0 = default/off. A struct_size larger than this
     * library knows is accepted when the bytes it does not know are all 0. */
} plurnk_stream_options;

/* plurnk_stream_options.release_threshold: keep all input (no release). */
#define PLURNK_KEEP_ALL_INPUT SIZE_MAX

typedef struct plurnk_result plurnk_result; /* a parse result (items and unparsed tail) */
typedef struct plurnk_stream plurnk_stream; /* a push parser */

/* ---- Versions and names (static strings: never freed, valid for the process lifetime) ---- */

/* The library version, e.g. "0.1.0". */
PLURNK_API const char* plurnk_version(void);
/* The PLURNK language version the parser implements, e.g. "1.4.0". */
PLURNK_API const char* plurnk_language_version(void);
/* The git commit the library was built from: 12 hex digits, "-dirty" after them when the tree had
 * uncommitted changes, or "unknown" (built from a source tree without its git history). */
PLURNK_API const char* plurnk_build_commit(void);
/* "parse", "statements", "log", "client"; NULL for an unknown value. */
PLURNK_API const char* plurnk_tier_name(int tier);
/* A one-line English description of a status code ("unknown status" for an unknown value). */
PLURNK_API const char* plurnk_status_message(int status);

/* ---- Memory ---- */

/* Releases a library-allocated string (plurnk_parse_to_json). NULL does nothing. */
PLURNK_API void plurnk_free_string(char* s);

/* ---- One-shot parsing ---- */

/* Parses `len` bytes at `input` as `tier` and stores a new result handle in *out (the caller
 * owns it: release it with plurnk_result_free). On failure *out is set to NULL. */
PLURNK_API plurnk_status plurnk_parse(const char* input, size_t len, plurnk_tier tier, plurnk_result** out);

/* plurnk_parse with options (NULL: the defaults, as plurnk_parse): max_input_bytes,
 * max_turn_depth and dialect are read; the stream-only fields (release_threshold,
 * max_open_bytes) must be 0 here. Fails as plurnk_stream_create_ex does on a bad struct_size, an
 * unknown dialect or a byte it does not know. */
PLURNK_API plurnk_status plurnk_parse_ex(const char* input, size_t len, plurnk_tier tier,
                                         const plurnk_stream_options* options, plurnk_result** out);

/* Parses and returns the result object {"items":[...], "unparsedTail"?:{...}} as JSON text in
 * a library-allocated, NUL-terminated string: *out_json (release it with plurnk_free_string)
 * and, when out_len is not NULL, its length in *out_len. `flags` is PLURNK_JSON_COMPACT or
 * PLURNK_JSON_PRETTY. On failure *out_json is set to NULL. */
PLURNK_API plurnk_status plurnk_parse_to_json(const char* input, size_t len, plurnk_tier tier, unsigned flags,
                                              char** out_json, size_t* out_len);

/* ---- Results ---- */

/* Releases a result and every borrowed string taken from it. NULL does nothing. */
PLURNK_API void plurnk_result_free(plurnk_result* result);

/* The result as JSON text (same text as plurnk_parse_to_json), borrowed: valid until
 * plurnk_result_free(result). */
PLURNK_API plurnk_status plurnk_result_json(const plurnk_result* result, unsigned flags, plurnk_str* out);

/* The number of items (0 for NULL). */
PLURNK_API size_t plurnk_result_item_count(const plurnk_result* result);

/* Fills *out with a view of item `index` (0-based, in result order). The strings are borrowed:
 * valid until plurnk_result_free(result). */
PLURNK_API plurnk_status plurnk_result_item(const plurnk_result* result, size_t index, plurnk_item* out);

/* 1 when the result has no error item (warnings count as errors, as the reference CLI counts
 * them) and no unparsed tail; 0 otherwise or for NULL. The CLI exits 0 exactly then. */
PLURNK_API int plurnk_result_clean(const plurnk_result* result);

/* 1 when the result has an unparsedTail, else 0. When it has one, and the pointers are not NULL,
 * stores its start position in *line / *column and its reason (borrowed: valid until
 * plurnk_result_free(result)) in *reason. */
PLURNK_API int plurnk_result_tail(const plurnk_result* result, uint32_t* line, uint32_t* column, plurnk_str* reason);

/* 1 when the result has an unparsedTail, else 0. When it has one, and the pointers are not NULL,
 * stores its byte span in *begin (the unclosed statement's `<<`) and *end (the input's end). */
PLURNK_API int plurnk_result_tail_span(const plurnk_result* result, size_t* begin, size_t* end);

/* ---- Streaming (push) parser ----
 *
 * Feed a turn as it arrives; each item is reported once it is settled (can no longer change),
 * through the callback if one is set, else into a queue read with plurnk_stream_next_event.
 * The result of plurnk_stream_finish equals plurnk_parse of the concatenation of every chunk,
 * however the input was split. doc/streaming.md says when each event fires. */

/* The event callback. `index` is the item's place in the final result's items, or
 * PLURNK_NO_INDEX for a diagnostic only placed at finish. `item` and its strings are borrowed:
 * valid only until the callback returns (one feed may settle many items, and the library
 * reuses the storage of one before it reports the next: copy what you keep). The callback runs
 * synchronously inside plurnk_stream_feed / plurnk_stream_finish; it must not call functions on
 * the same stream (they return PLURNK_ERR_BUSY) and must not unwind (longjmp, C++ throw) through
 * them. */
typedef void (*plurnk_event_callback)(void* user_data, size_t index, const plurnk_item* item);

/* Creates a stream parser for `tier`; the caller owns *out (release it with
 * plurnk_stream_free). On failure *out is set to NULL. Events go to the poll queue until a
 * callback is set. */
PLURNK_API plurnk_status plurnk_stream_create(plurnk_tier tier, plurnk_stream** out);

/* plurnk_stream_create with options (NULL: every default, as plurnk_stream_create). Fails
 * with PLURNK_ERR_INVALID_ARGUMENT when options->struct_size is smaller than the first
 * plurnk_stream_options, or larger with a non-zero byte this library does not know
 * (plurnk_last_error says which). */
PLURNK_API plurnk_status plurnk_stream_create_ex(plurnk_tier tier, const plurnk_stream_options* options,
                                                 plurnk_stream** out);

/* Releases a stream (and its pending events). NULL does nothing. */
PLURNK_API void plurnk_stream_free(plurnk_stream* stream);

/* Sets the event callback and its user data (the library never touches user_data). With a
 * callback, events are delivered to it instead of the queue (events already queued stay
 * there). A NULL callback switches back to queueing. */
PLURNK_API plurnk_status plurnk_stream_set_callback(plurnk_stream* stream, plurnk_event_callback callback,
                                                    void* user_data);

/* Appends `len` bytes at `data` (the library copies what it needs; the caller keeps ownership).
 * Chunks may split anything, a UTF-8 sequence included. Returns PLURNK_ERR_FINISHED after
 * finish. If it fails with PLURNK_ERR_OUT_OF_MEMORY the stream is poisoned: every later call but
 * free, restore and the read-only queries returns PLURNK_ERR_POISONED. */
PLURNK_API plurnk_status plurnk_stream_feed(plurnk_stream* stream, const char* data, size_t len);

/* Ends the input, delivers the remaining events, and stores the final result in *out (a new
 * handle the caller owns: release it with plurnk_result_free). A second finish returns
 * PLURNK_ERR_FINISHED. On failure *out is set to NULL. */
PLURNK_API plurnk_status plurnk_stream_finish(plurnk_stream* stream, plurnk_result** out);

/* Takes the next queued event: stores its index in *index and a view of its item in *item,
 * and returns PLURNK_OK; returns PLURNK_NO_EVENT when the queue is empty. The view is
 * borrowed: valid until the next plurnk_stream_next_event, plurnk_stream_restore or
 * plurnk_stream_free on this stream. */
PLURNK_API plurnk_status plurnk_stream_next_event(plurnk_stream* stream, size_t* index, plurnk_item* item);

/* The number of queued events not yet taken (0 for NULL). */
PLURNK_API size_t plurnk_stream_pending_events(const plurnk_stream* stream);

/* Checkpoint: stores in *out a new, independent stream that is a copy of `stream` (its parse
 * state, its queued events, its callback and user data). The caller owns *out (release it
 * with plurnk_stream_free). On failure *out is set to NULL. */
PLURNK_API plurnk_status plurnk_stream_checkpoint(const plurnk_stream* stream, plurnk_stream** out);

/* Restore: makes `stream` a copy of `checkpoint`'s parse state and queued events and runaway
 * events (the checkpoint is unchanged and can be restored again), so what the rejected input
 * raised and was not taken is dropped. `stream` keeps its own callback and user data. Clears a
 * poisoned state. On failure `stream` is unchanged. */
PLURNK_API plurnk_status plurnk_stream_restore(plurnk_stream* stream, const plurnk_stream* checkpoint);

/* Bytes fed so far (0 for NULL). */
PLURNK_API size_t plurnk_stream_size(const plurnk_stream* stream);

/* "Safe to show": how many leading bytes of the input are settled as text or complete
 * statements, so input[0, safe_prefix) can be shown to a user without half an op. 0 for NULL. */
PLURNK_API size_t plurnk_stream_safe_prefix(const plurnk_stream* stream);

/* Bytes of input the stream holds now (0 for NULL): what is still open, once settled input has
 * been released (plurnk_stream_options.release_threshold; doc/streaming.md). */
PLURNK_API size_t plurnk_stream_retained(const plurnk_stream* stream);

/* 1 once plurnk_stream_finish succeeded, else 0 (also for NULL). */
PLURNK_API int plurnk_stream_finished(const plurnk_stream* stream);

/* ---- What is open, and the runaway event ----
 * plurnk_stream_open says what is open at the end of the input fed so far (the C++
 * stream_parser::open()); a runaway event reports the same view when the limit
 * plurnk_stream_options.max_open_bytes is passed. Offsets count from the first byte of the
 * whole input; only tokens the lexer has settled count, so `<<REA` at the end is not open yet. */

typedef enum plurnk_open_where PLURNK_ENUM_INT {
    PLURNK_OPEN_NONE = 0,    /* nothing is open (between statements, no TURN body open) */
    PLURNK_OPEN_SLOTS = 1,   /* a statement's header, between slots */
    PLURNK_OPEN_SIGNAL = 2,  /* inside its [signal] */
    PLURNK_OPEN_TARGET = 3,  /* inside its (target) */
    PLURNK_OPEN_BODY = 4,    /* inside its body, after the `:` fence */
    PLURNK_OPEN_TURN = 5     /* no statement open, inside a <<TURN: body */
} plurnk_open_where;

typedef struct plurnk_open {
    size_t struct_size;   /* in: sizeof(plurnk_open); out: the bytes filled */
    int32_t where;        /* plurnk_open_where */
    uint32_t reserved;    /* 0 */
    plurnk_str op;        /* the open statement's keyword ("TURN" for a TURN body); "" for NONE */
    plurnk_str suffix;    /* its suffix */
    size_t begin;         /* offset of its `<<` */
    size_t bytes;         /* bytes from begin to the end of the input fed so far */
    size_t openers;       /* `<<`+keyword at a line start since its own opener (swallowed ops) */
    size_t turn_depth;    /* open <<TURN: bodies */
} plurnk_open;

/* Fills *out with what is open now (all zero and "" after finish). The strings are borrowed:
 * valid until the next call on this stream. From inside a callback of the same stream it
 * returns PLURNK_ERR_BUSY (the runaway callback is handed the view). */
PLURNK_API plurnk_status plurnk_stream_open(const plurnk_stream* stream, plurnk_open* out);

/* The runaway callback: `info` and its strings are borrowed, valid until it returns. It runs
 * inside plurnk_stream_feed, with the same rules as the event callback. */
typedef void (*plurnk_runaway_callback)(void* user_data, const plurnk_open* info);

/* Sets the runaway callback (NULL: queue runaway events for plurnk_stream_next_runaway). */
PLURNK_API plurnk_status plurnk_stream_set_runaway_callback(plurnk_stream* stream, plurnk_runaway_callback callback,
                                                            void* user_data);

/* Takes the next queued runaway event into *out and returns PLURNK_OK, or returns
 * PLURNK_NO_EVENT. The strings are borrowed: valid until the next call on this stream. */
PLURNK_API plurnk_status plurnk_stream_next_runaway(plurnk_stream* stream, plurnk_open* out);

/* ---- Errors in words ----
 * What the most recent failed call objected to, e.g. "plurnk_stream_feed: data is NULL but len
 * is 5". Successful calls leave the message alone; "" until a call fails. Borrowed: valid until
 * the next call on the same handle (plurnk_last_error: on the same thread). */

/* The last failed call on this stream ("" for NULL). */
PLURNK_API const char* plurnk_stream_last_error(const plurnk_stream* stream);
/* The last failed call on this result ("" for NULL). */
PLURNK_API const char* plurnk_result_last_error(const plurnk_result* result);
/* The calling thread's last failed call, on any handle or none (plurnk_parse, the create
 * functions, the statement accessors). For Go, whose goroutines change threads between calls,
 * prefer the per-handle functions. */
PLURNK_API const char* plurnk_last_error(void);

/* ---- Typed statements ----
 * The parts of a statement (item.statement), without parsing statement_json. The shapes are
 * those of the C++ AST (include/plurnk/ast.hpp) and of the JSON doc/library.md documents.
 * Everything handed out is borrowed like the item view the statement came from. Each function
 * returns PLURNK_ERR_INVALID_ARGUMENT for a NULL statement or out pointer or a bad struct_size. */

typedef enum plurnk_signal_kind PLURNK_ENUM_INT {
    PLURNK_SIGNAL_NONE = 0,    /* no [signal] slot: JSON null */
    PLURNK_SIGNAL_TAGS = 1,    /* [a,b]: a list of tags */
    PLURNK_SIGNAL_NUMBER = 2,  /* SEND, KILL: a code */
    PLURNK_SIGNAL_TEXT = 3     /* EXEC: the executor; WORK, FORK: the branch */
} plurnk_signal_kind;

typedef struct plurnk_signal {
    size_t struct_size;   /* in: sizeof(plurnk_signal); out: the bytes filled */
    int32_t kind;         /* plurnk_signal_kind */
    uint32_t reserved;    /* 0 */
    double number;        /* NUMBER: the code; else 0 */
    plurnk_str text;      /* TEXT: the executor or branch; else "" */
    size_t tag_count;     /* TAGS: how many (read them with plurnk_statement_tag); else 0 */
} plurnk_signal;

/* Fills *out with the statement's signal. */
PLURNK_API plurnk_status plurnk_statement_signal(const plurnk_statement* statement, plurnk_signal* out);
/* Stores tag `index` of a TAGS signal in *out; PLURNK_ERR_OUT_OF_RANGE past the last. */
PLURNK_API plurnk_status plurnk_statement_tag(const plurnk_statement* statement, size_t index, plurnk_str* out);

/* Which target or scope: the statement's own slot, or a COPY/MOVE body's destination. */
typedef enum plurnk_part PLURNK_ENUM_INT {
    PLURNK_PART_HEADER = 0,      /* the statement's (target) and <scope> slots */
    PLURNK_PART_DESTINATION = 1  /* the destination in a COPY or MOVE body */
} plurnk_part;

typedef enum plurnk_target_kind PLURNK_ENUM_INT {
    PLURNK_TARGET_LOCAL = 0,  /* a local path: raw only */
    PLURNK_TARGET_URL = 1,    /* a WHATWG URL, decomposed */
    PLURNK_TARGET_REGEX = 2   /* the service dialect's regex path: raw as written, pattern, flags */
} plurnk_target_kind;

/* plurnk_target.present: which optional URL parts exist (an empty part that exists, like a
 * bare `?`, is present with length 0). */
#define PLURNK_TARGET_HAS_USERNAME 0x01u
#define PLURNK_TARGET_HAS_PASSWORD 0x02u
#define PLURNK_TARGET_HAS_HOSTNAME 0x04u
#define PLURNK_TARGET_HAS_PORT 0x08u
#define PLURNK_TARGET_HAS_QUERY 0x10u
#define PLURNK_TARGET_HAS_FRAGMENT 0x20u
#define PLURNK_TARGET_HAS_HEADERS 0x40u /* {key: value} blocks (read with plurnk_statement_target_header) */

typedef struct plurnk_target {
    size_t struct_size;   /* in: sizeof(plurnk_target); out: the bytes filled */
    int32_t kind;         /* plurnk_target_kind */
    uint32_t present;     /* PLURNK_TARGET_HAS_* bits (URLs) */
    uint32_t port;        /* when PLURNK_TARGET_HAS_PORT; else 0 */
    uint32_t reserved;    /* 0 */
    plurnk_str raw;       /* the decoded text; for URLs with their {key: value} blocks */
    plurnk_str scheme;    /* URLs: without the ':' */
    plurnk_str username, password, hostname, pathname, query, fragment; /* URLs; "" when absent */
    size_t header_count;  /* URLs: {key: value} blocks; else 0 */
    plurnk_str pattern, flags; /* REGEX: the `#pattern#flags` split of raw; else "" */
} plurnk_target;

/* Fills *out with the target in `part`; PLURNK_NOT_PRESENT when there is none. */
PLURNK_API plurnk_status plurnk_statement_target(const plurnk_statement* statement, plurnk_part part,
                                                 plurnk_target* out);
/* Stores header block `index` of the target in `part` in *key and *value. */
PLURNK_API plurnk_status plurnk_statement_target_header(const plurnk_statement* statement, plurnk_part part,
                                                        size_t index, plurnk_str* key, plurnk_str* value);

/* The <scope> (JSON "lineMarker") in `part`: its numbers, in order, in *marks (borrowed) and
 * their count in *count. PLURNK_NOT_PRESENT when there is none. */
PLURNK_API plurnk_status plurnk_statement_scope(const plurnk_statement* statement, plurnk_part part,
                                                const double** marks, size_t* count);

typedef enum plurnk_body_kind PLURNK_ENUM_INT {
    PLURNK_BODY_NONE = 0,      /* no body: JSON null */
    PLURNK_BODY_TEXT = 1,      /* PLAN, EDIT, EXEC, WORK, FORK, ...: the text */
    PLURNK_BODY_MATCHER = 2,   /* FIND, READ, OPEN, FOLD, LOOK, BUFF: a classified matcher */
    PLURNK_BODY_SEND = 3,      /* SEND: the text, and its JSON value when it parses as JSON */
    PLURNK_BODY_SELECTION = 4  /* COPY, MOVE: a destination (PLURNK_PART_DESTINATION) */
} plurnk_body_kind;

typedef enum plurnk_dialect PLURNK_ENUM_INT {
    PLURNK_DIALECT_XPATH = 0,
    PLURNK_DIALECT_REGEX = 1,
    PLURNK_DIALECT_JSONPATH = 2,
    PLURNK_DIALECT_SEMANTIC = 3,
    PLURNK_DIALECT_GRAPH = 4,
    PLURNK_DIALECT_GLOB = 5
} plurnk_dialect;

typedef struct plurnk_body {
    size_t struct_size;   /* in: sizeof(plurnk_body); out: the bytes filled */
    int32_t kind;         /* plurnk_body_kind */
    int32_t dialect;      /* MATCHER: plurnk_dialect; else -1 */
    plurnk_str raw;       /* TEXT: the text; MATCHER, SEND: as written; else "" */
    plurnk_str pattern;   /* MATCHER regex: the pattern; else "" */
    plurnk_str flags;     /* MATCHER regex: the flags; else "" */
    plurnk_str json;      /* SEND with has_json: the value as JSON.stringify writes it; else "" */
    int32_t has_json;     /* SEND: 1 when the body parses as JSON; else 0 */
    uint32_t reserved;    /* 0 */
} plurnk_body;

/* Fills *out with the statement's body. */
PLURNK_API plurnk_status plurnk_statement_body(const plurnk_statement* statement, plurnk_body* out);

/* ---- The canonical producer (doc/format.md) ----
 * Each writes canonical PLURNK text into a library-allocated, NUL-terminated string *out
 * (release it with plurnk_free_string) and, when out_len is not NULL, its length in *out_len.
 * On failure *out is set to NULL. */

/* The canonical form of one statement (C++ plurnk::format), in the dialect of the result or
 * stream the statement came from. Parsing it (in that dialect) gives the statement back,
 * position aside. */
PLURNK_API plurnk_status plurnk_format_statement(const plurnk_statement* statement, char** out, size_t* out_len);

/* The result's statements and text items as one document, each statement on its own line, in
 * the dialect the result was read in; diagnostics are left out (C++ plurnk::format_turn). */
PLURNK_API plurnk_status plurnk_format_result(const plurnk_result* result, char** out, size_t* out_len);

/* The input with every statement the parse admits in canonical form and everything else
 * (text, whitespace, statements with errors, TURN wrappers) byte for byte (C++
 * plurnk::format_source). When `changed` is not NULL, *changed is 1 when the text differs from
 * the input, else 0. */
PLURNK_API plurnk_status plurnk_format_source(const char* input, size_t len, plurnk_tier tier, char** out,
                                              size_t* out_len, int* changed);

/* `input` read in dialect `from` and written in dialect `to` (doc/dialects.md; C++
 * plurnk::migrate_source): every statement the parse admits in `to`'s spelling, so that `to`
 * reads it as the same statement, and everything else byte for byte; a statement `to` cannot
 * express (a regex target into contracts, for one) is left as written and noted. *out, *out_len
 * and *changed as for plurnk_format_source. When `notes` is not NULL, *notes gets a
 * library-allocated string (release it with plurnk_free_string) holding one line per note,
 * "LINE:COLUMN: WHY\n" (1-based; columns in code points), "" when there is none; when
 * `note_count` is not NULL, *note_count gets their number. An unknown dialect is
 * PLURNK_ERR_INVALID_ARGUMENT. */
PLURNK_API plurnk_status plurnk_migrate_source(const char* input, size_t len, plurnk_tier tier,
                                               plurnk_parse_dialect from, plurnk_parse_dialect to, char** out,
                                               size_t* out_len, int* changed, char** notes, size_t* note_count);

/* ---- Serving: deltas and the OpenAI-compatible mapping (doc/serving.md) ----
 * A delta stream is a push parser for a server: each feed returns what it settled as a delta,
 * split into the turn's three channels (content: the prose; reasoning: the bodies of <think> and
 * channel blocks, streamed as they arrive; statements: each one tool call), and the
 * concatenation of the deltas equals the split of the whole turn (plurnk_openai_message_json),
 * however the input was cut. It is the C++ plurnk::delta_stream (include/plurnk/serve.hpp). */

typedef struct plurnk_delta_stream plurnk_delta_stream; /* a push parser that returns deltas */

/* A delta, filled by the functions that return one. Its strings are borrowed: valid until the
 * next call on the stream that returns a delta (feed, end, peek_end, accept), or its restore or
 * free. Its statements and runaways are read with plurnk_delta_stream_statement and
 * plurnk_delta_stream_runaway, under the same rule. */
typedef struct plurnk_delta {
    size_t struct_size;     /* in: sizeof(plurnk_delta); out: the bytes filled */
    plurnk_str content;     /* prose appended (bytes of the input; never half a UTF-8 sequence) */
    plurnk_str reasoning;   /* reasoning appended (the same) */
    size_t statement_count; /* statements settled */
    size_t first_call;      /* statement i is tool call number first_call + i of the turn */
    size_t runaway_count;   /* runaway events raised (plurnk_stream_options.max_open_bytes) */
    int32_t ends_turn;      /* 1: a terminal SEND is among the statements, outside any reasoning */
    uint32_t reserved;      /* 0 */
} plurnk_delta;

/* plurnk_delta_stream_accept: keep the whole draft. */
#define PLURNK_ALL_CHUNKS SIZE_MAX

/* Creates a delta stream (options as for plurnk_stream_create_ex; NULL: the defaults). The
 * caller owns *out: release it with plurnk_delta_stream_free. */
PLURNK_API plurnk_status plurnk_delta_stream_create(plurnk_tier tier, const plurnk_stream_options* options,
                                                    plurnk_delta_stream** out);
/* Releases a delta stream. NULL does nothing. */
PLURNK_API void plurnk_delta_stream_free(plurnk_delta_stream* stream);

/* Appends `len` bytes and fills *out with what they settled. During a draft *out is empty (the
 * draft's deltas are held until accept). PLURNK_ERR_FINISHED after the end. */
PLURNK_API plurnk_status plurnk_delta_stream_feed(plurnk_delta_stream* stream, const char* data, size_t len,
                                                  plurnk_delta* out);
/* Ends the input and fills *out with the last delta (the rest of the prose, a terminal SEND).
 * PLURNK_ERR_DRAFT_OPEN during a draft; an empty delta when the stream has ended already. */
PLURNK_API plurnk_status plurnk_delta_stream_end(plurnk_delta_stream* stream, plurnk_delta* out);
/* Fills *out with what plurnk_delta_stream_end would give now, without ending: O(what is
 * pending). The adapter rule (doc/serving.md): when a framework never says the turn ended, after
 * each feed peek; when the peek's ends_turn is 1, end the stream and send what the end gives. */
PLURNK_API plurnk_status plurnk_delta_stream_peek_end(plurnk_delta_stream* stream, plurnk_delta* out);
/* The final result (ends the input first if needed), a new handle the caller owns; equal to
 * plurnk_parse of everything fed. PLURNK_ERR_DRAFT_OPEN during a draft. */
PLURNK_API plurnk_status plurnk_delta_stream_finish(plurnk_delta_stream* stream, plurnk_result** out);
/* 1 once the stream has ended, else 0 (also for NULL). */
PLURNK_API int plurnk_delta_stream_ended(const plurnk_delta_stream* stream);

/* Speculative decoding: plurnk_delta_stream_draft starts a draft (or continues the open one);
 * chunks fed from then on are held. accept keeps the first `chunks` chunks of the draft
 * (PLURNK_ALL_CHUNKS: all) and fills *out with what they settled; reject drops the draft. What a
 * rejected chunk settled (statements, prose, runaways) is never delivered. */
PLURNK_API plurnk_status plurnk_delta_stream_draft(plurnk_delta_stream* stream);
PLURNK_API plurnk_status plurnk_delta_stream_accept(plurnk_delta_stream* stream, size_t chunks, plurnk_delta* out);
PLURNK_API plurnk_status plurnk_delta_stream_reject(plurnk_delta_stream* stream);
/* 1 while a draft is open, else 0 (also for NULL). */
PLURNK_API int plurnk_delta_stream_drafting(const plurnk_delta_stream* stream);

/* Checkpoint and restore, as for plurnk_stream (a draft in progress included). */
PLURNK_API plurnk_status plurnk_delta_stream_checkpoint(const plurnk_delta_stream* stream, plurnk_delta_stream** out);
PLURNK_API plurnk_status plurnk_delta_stream_restore(plurnk_delta_stream* stream, const plurnk_delta_stream* checkpoint);

/* Statement `i` of the last delta: its index in the final result's items in *index (when not
 * NULL; PLURNK_NO_INDEX while not known) and a view of it in *item (borrowed like the delta). */
PLURNK_API plurnk_status plurnk_delta_stream_statement(plurnk_delta_stream* stream, size_t i, size_t* index,
                                                       plurnk_item* item);
/* Runaway event `i` of the last delta (borrowed like the delta). */
PLURNK_API plurnk_status plurnk_delta_stream_runaway(plurnk_delta_stream* stream, size_t i, plurnk_open* out);
/* The last delta as the `delta` of an OpenAI chat.completion.chunk ({"content":…,
 * "reasoning_content":…,"tool_calls":[…]}, each member only when present; {} when empty), tool
 * call ids `id_prefix` + call number (NULL: "call_"). Borrowed like the delta. */
PLURNK_API plurnk_status plurnk_delta_stream_chunk_json(plurnk_delta_stream* stream, const char* id_prefix,
                                                        plurnk_str* out);
/* The last failed call on this stream ("" for NULL). */
PLURNK_API const char* plurnk_delta_stream_last_error(const plurnk_delta_stream* stream);

/* A statement's tool call {"id":…,"type":"function","function":{"name":…,"arguments":…}} (call
 * number `call`, id `id_prefix` + call; NULL: "call_"), or with arguments_only its arguments
 * object alone, in a library-allocated string (release it with plurnk_free_string). */
PLURNK_API plurnk_status plurnk_statement_tool_call(const plurnk_statement* statement, size_t call,
                                                    const char* id_prefix, int arguments_only, char** out,
                                                    size_t* out_len);
/* Parses `input` and returns the assistant message of a chat.completion for the whole turn
 * ({"role":"assistant","content":…,"reasoning_content":…,"tool_calls":[…]}), library-allocated. */
PLURNK_API plurnk_status plurnk_openai_message_json(const char* input, size_t len, plurnk_tier tier,
                                                    const char* id_prefix, char** out, size_t* out_len);
/* A request's `tools` for the ops of `tier` (one function per op, its parameters the statement
 * schema's fields): static text, never freed. */
PLURNK_API plurnk_status plurnk_openai_tools_json(plurnk_tier tier, plurnk_str* out);

#ifdef __cplusplus
}
#endif

#endif /* PLURNK_PLURNK_H */
