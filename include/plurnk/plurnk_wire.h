/* SPDX-License-Identifier: MIT
 * The plurnk wire-contract C API (library plurnk_wire; C++ API in plurnk/wire.hpp): validate and
 * assert the 18 wire contracts on JSON text, Problems.create, the root values and the schemas.
 * Conventions are those of plurnk.h: input is a pointer plus a byte length (NUL not needed), no
 * C++ exception crosses the interface, failures are plurnk_status values. Strings handed out as
 * "library-allocated" are NUL-terminated and released with plurnk_wire_free_string; "static"
 * strings are never freed. doc/contracts.md describes the contracts. */
#ifndef PLURNK_PLURNK_WIRE_H
#define PLURNK_PLURNK_WIRE_H

#include "plurnk/plurnk.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Contracts are numbered 0..PLURNK_WIRE_CONTRACT_COUNT-1 in this order (wire.hpp's enum). */
enum {
    PLURNK_WIRE_POSITION, PLURNK_WIRE_LINE_MARKER, PLURNK_WIRE_PARSED_PATH, PLURNK_WIRE_MATCHER_BODY,
    PLURNK_WIRE_SEND_BODY, PLURNK_WIRE_RESOURCE_SELECTION, PLURNK_WIRE_PLURNK_STATEMENT,
    PLURNK_WIRE_CLIENT_STATEMENT, PLURNK_WIRE_NOTICE, PLURNK_WIRE_PROBLEM_DETAILS,
    PLURNK_WIRE_OPERATION_RESULT, PLURNK_WIRE_ENTRY_READ_RESULT, PLURNK_WIRE_TEXT_REGION,
    PLURNK_WIRE_LOOP_FLAGS, PLURNK_WIRE_PROPOSAL_DISPOSITION, PLURNK_WIRE_PROPOSAL_PROJECTION,
    PLURNK_WIRE_CLIENT_DISPLAY_CAPABILITIES, PLURNK_WIRE_PROVIDER_COST,
    PLURNK_WIRE_CONTRACT_COUNT
};

/* The contract's name ("Position", ...; static), or NULL for an unknown number. */
PLURNK_API const char* plurnk_wire_contract_name(int contract);
/* The contract numbered by a name of len bytes, or -1. */
PLURNK_API int plurnk_wire_contract_from_name(const char* name, size_t len);

/* validate<Contract> on JSON text. *valid is 1 or 0. When errors_json is not NULL it receives a
 * library-allocated JSON array of the errors ([{"instanceLocation","keyword","keywordLocation",
 * "error"}], [] when valid). When the text is not JSON, or the reference would throw (an object key
 * with a lone surrogate), *valid is 0 and *errors_json holds [{"keyword":"exception",...}].
 * Returns PLURNK_ERR_INVALID_ARGUMENT for an unknown contract or NULL valid. */
PLURNK_API plurnk_status plurnk_wire_validate(int contract, const char* json, size_t len, int* valid,
                                              char** errors_json);
/* plurnk_wire_validate against the schemas of a dialect (plurnk_parse_dialect): for
 * PLURNK_PARSE_DIALECT_SERVICE, the service variant of ParsedPath, ResourceSelection,
 * PlurnkStatement and ClientStatement (doc/dialects.md); every other contract is the same in both.
 * An unknown dialect is PLURNK_ERR_INVALID_ARGUMENT. */
PLURNK_API plurnk_status plurnk_wire_validate_dialect(int contract, int dialect, const char* json, size_t len,
                                                      int* valid, char** errors_json);
/* assert<Contract> on JSON text: *ok is 1 or 0; when 0 and error_class/message are not NULL they
 * receive library-allocated strings (the reference's class, e.g. "InvalidNoticeError", and message);
 * when 1 they are set to NULL. */
PLURNK_API plurnk_status plurnk_wire_assert(int contract, const char* json, size_t len, int* ok,
                                            char** error_class, char** message);
/* plurnk_wire_assert against the schemas of a dialect, as plurnk_wire_validate_dialect. */
PLURNK_API plurnk_status plurnk_wire_assert_dialect(int contract, int dialect, const char* json, size_t len, int* ok,
                                                    char** error_class, char** message);
/* Problems.create(...args) with args_json a JSON array [owner, code, status, detail, extensions?,
 * options?]. *ok is 1 with *out the problem object's JSON, or 0 with *out the reason; *out is
 * library-allocated (NULL out is allowed). Not an array: PLURNK_ERR_INVALID_ARGUMENT. */
PLURNK_API plurnk_status plurnk_wire_problems_create(const char* args_json, size_t len, int* ok, char** out);

/* Static JSON texts: DEFAULT_LOOP_FLAGS, UNKNOWN_POSITION, RESERVED_AUTHORITIES, PLURNK_OPS, and
 * the WORKER_NAME pattern (not JSON: the pattern itself). */
PLURNK_API const char* plurnk_wire_default_loop_flags(void);
PLURNK_API const char* plurnk_wire_unknown_position(void);
PLURNK_API const char* plurnk_wire_reserved_authorities(void);
PLURNK_API const char* plurnk_wire_plurnk_ops(void);
PLURNK_API const char* plurnk_wire_worker_name_pattern(void);
/* 1 when name (len bytes) matches WORKER_NAME, else 0. */
PLURNK_API int plurnk_wire_is_worker_name(const char* name, size_t len);
/* The contract's shipped JSON Schema text (static), or NULL for an unknown number. */
PLURNK_API const char* plurnk_wire_schema(int contract);
/* The schema text of a contract in a dialect (static): the service variant where there is one, else
 * the 1.4.0 schema; NULL for an unknown contract or dialect. */
PLURNK_API const char* plurnk_wire_schema_dialect(int contract, int dialect);

PLURNK_API void plurnk_wire_free_string(char* s);

#ifdef __cplusplus
}
#endif

#endif
