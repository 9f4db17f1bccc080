#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Use libplurnk from Python through ctypes (no compiler needed): parse a turn and walk its
items, then stream the same turn in 4-byte chunks and print each event as it fires.

usage: plurnk_ctypes.py [LIBRARY] [TURN_FILE]

LIBRARY is the path of the built shared library (e.g. build/lib/libplurnk.so); without it the
PLURNK_LIB environment variable is used. TURN_FILE defaults to turn.plurnk beside this script.
Exits 1 if the streamed result differs from the one-shot result.
"""
import ctypes
import json
import os
import sys

# ---- the C API's types (include/plurnk/plurnk.h) ----

PLURNK_OK, PLURNK_NO_EVENT = 0, 1
TIER_PARSE, TIER_STATEMENTS, TIER_LOG, TIER_CLIENT = 0, 1, 2, 3
ITEM_KINDS = {0: "statement", 1: "error", 2: "text"}
SOURCES = {0: "lexer", 1: "parser", 2: "visitor"}
SEVERITIES = {0: "error", 1: "warning"}
NO_INDEX = ctypes.c_size_t(-1).value


class Str(ctypes.Structure):
    """plurnk_str: a borrowed (pointer, length) string."""
    _fields_ = [("data", ctypes.c_void_p), ("len", ctypes.c_size_t)]

    def bytes(self):
        return ctypes.string_at(self.data, self.len) if self.len else b""

    def text(self):
        return self.bytes().decode("utf-8", errors="replace")


class Item(ctypes.Structure):
    """plurnk_item: a view of one item; its strings are borrowed."""
    _fields_ = [
        ("kind", ctypes.c_int32),
        ("line", ctypes.c_uint32),
        ("column", ctypes.c_uint32),
        ("source", ctypes.c_int32),
        ("severity", ctypes.c_int32),
        ("op", Str),
        ("suffix", Str),
        ("message", Str),
        ("text", Str),
        ("json", Str),
        ("statement_json", Str),
    ]


EventCallback = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_size_t, ctypes.POINTER(Item))


def load(path):
    lib = ctypes.CDLL(path)
    handle = ctypes.c_void_p
    sigs = {
        "plurnk_version": (ctypes.c_char_p, []),
        "plurnk_language_version": (ctypes.c_char_p, []),
        "plurnk_status_message": (ctypes.c_char_p, [ctypes.c_int]),
        "plurnk_parse": (ctypes.c_int, [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_int, ctypes.POINTER(handle)]),
        "plurnk_result_free": (None, [handle]),
        "plurnk_result_json": (ctypes.c_int, [handle, ctypes.c_uint, ctypes.POINTER(Str)]),
        "plurnk_result_item_count": (ctypes.c_size_t, [handle]),
        "plurnk_result_item": (ctypes.c_int, [handle, ctypes.c_size_t, ctypes.POINTER(Item)]),
        "plurnk_result_clean": (ctypes.c_int, [handle]),
        "plurnk_result_tail": (ctypes.c_int, [handle, ctypes.POINTER(ctypes.c_uint32),
                                              ctypes.POINTER(ctypes.c_uint32), ctypes.POINTER(Str)]),
        "plurnk_stream_create": (ctypes.c_int, [ctypes.c_int, ctypes.POINTER(handle)]),
        "plurnk_stream_free": (None, [handle]),
        "plurnk_stream_set_callback": (ctypes.c_int, [handle, EventCallback, ctypes.c_void_p]),
        "plurnk_stream_feed": (ctypes.c_int, [handle, ctypes.c_char_p, ctypes.c_size_t]),
        "plurnk_stream_finish": (ctypes.c_int, [handle, ctypes.POINTER(handle)]),
        "plurnk_stream_safe_prefix": (ctypes.c_size_t, [handle]),
    }
    for name, (restype, argtypes) in sigs.items():
        fn = getattr(lib, name)
        fn.restype = restype
        fn.argtypes = argtypes
    return lib


def check(lib, status, what):
    if status != PLURNK_OK:
        raise RuntimeError(f"{what}: {lib.plurnk_status_message(status).decode()}")


def result_json(lib, result):
    s = Str()
    check(lib, lib.plurnk_result_json(result, 0, ctypes.byref(s)), "plurnk_result_json")
    return s.text()


def describe(item):
    kind = ITEM_KINDS[item.kind]
    where = f"{item.line}:{item.column}"
    if kind == "statement":
        return f"statement {item.op.text()}{item.suffix.text()} at {where}: {item.statement_json.text()}"
    if kind == "error":
        return f"{SEVERITIES[item.severity]} ({SOURCES[item.source]}) at {where}: {item.message.text()}"
    return f"text at {where}: {item.text.text()!r}"


def main(argv):
    lib_path = argv[1] if len(argv) > 1 else os.environ.get("PLURNK_LIB")
    if not lib_path:
        print(__doc__, file=sys.stderr)
        return 2
    turn_path = argv[2] if len(argv) > 2 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "turn.plurnk")
    lib = load(lib_path)
    with open(turn_path, "rb") as f:
        turn = f.read()
    print(f"libplurnk {lib.plurnk_version().decode()} (PLURNK {lib.plurnk_language_version().decode()})")

    # One-shot: parse and walk the items.
    result = ctypes.c_void_p()
    check(lib, lib.plurnk_parse(turn, len(turn), TIER_PARSE, ctypes.byref(result)), "plurnk_parse")
    try:
        n = lib.plurnk_result_item_count(result)
        print(f"one-shot: {n} items, clean={bool(lib.plurnk_result_clean(result))}")
        item = Item()
        for i in range(n):
            check(lib, lib.plurnk_result_item(result, i, ctypes.byref(item)), "plurnk_result_item")
            print(f"  [{i}] {describe(item)}")
        line, column, reason = ctypes.c_uint32(), ctypes.c_uint32(), Str()
        if lib.plurnk_result_tail(result, ctypes.byref(line), ctypes.byref(column), ctypes.byref(reason)):
            print(f"  unparsed tail from {line.value}:{column.value}: {reason.text()}")
        one_shot = result_json(lib, result)
    finally:
        lib.plurnk_result_free(result)

    # Streaming: 4-byte chunks (about one token each); print each event as it fires.
    stream = ctypes.c_void_p()
    check(lib, lib.plurnk_stream_create(TIER_PARSE, ctypes.byref(stream)), "plurnk_stream_create")
    events = []

    def on_event(_user, index, item_ptr):
        item = item_ptr.contents  # borrowed: copy what you keep before returning
        events.append((index, item.json.text()))
        where = "placed at finish" if index == NO_INDEX else f"item {index}"
        when = "during finish" if finishing else f"on feeding bytes {at}-{fed - 1}"
        print(f"  event ({where}, {when}): {describe(item)}")

    callback = EventCallback(on_event)  # keep a reference for as long as the stream may call it
    try:
        check(lib, lib.plurnk_stream_set_callback(stream, callback, None), "plurnk_stream_set_callback")
        print("streaming in 4-byte chunks:")
        fed, finishing = 0, False
        for at in range(0, len(turn), 4):
            chunk = turn[at:at + 4]
            fed += len(chunk)
            check(lib, lib.plurnk_stream_feed(stream, chunk, len(chunk)), "plurnk_stream_feed")
        final = ctypes.c_void_p()
        finishing = True
        check(lib, lib.plurnk_stream_finish(stream, ctypes.byref(final)), "plurnk_stream_finish")
        print(f"  safe prefix after finish: {lib.plurnk_stream_safe_prefix(stream)} of {fed} bytes")
        streamed = result_json(lib, final)
        lib.plurnk_result_free(final)
    finally:
        lib.plurnk_stream_free(stream)

    items = json.loads(streamed)["items"]
    bad = [i for i, js in events if i != NO_INDEX and json.loads(js) != items[i]]
    if streamed != one_shot or bad or len(events) != len(items):
        print("MISMATCH: the streamed result or its events differ from the one-shot result", file=sys.stderr)
        return 1
    print(f"streamed result == one-shot result ({len(events)} events)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
