/* SPDX-License-Identifier: MIT
 * The wire C API from plain C11: validate, assert, Problems.create, root values, schemas. */
#include <stdio.h>
#include <string.h>

#include "plurnk/plurnk_wire.h"

static int failures = 0;
#define CHECK(cond)                                                   \
    do {                                                              \
        if (!(cond)) {                                                \
            fprintf(stderr, "%s:%d: CHECK(%s)\n", __FILE__, __LINE__, #cond); \
            ++failures;                                               \
        }                                                             \
    } while (0)

int main(void) {
    const int pos = plurnk_wire_contract_from_name("Position", 8);
    CHECK(pos == PLURNK_WIRE_POSITION);
    CHECK(strcmp(plurnk_wire_contract_name(PLURNK_WIRE_PROVIDER_COST), "ProviderCost") == 0);
    CHECK(plurnk_wire_contract_name(PLURNK_WIRE_CONTRACT_COUNT) == NULL);
    CHECK(plurnk_wire_contract_from_name("Nope", 4) == -1);

    int valid = -1;
    char* errors = NULL;
    const char* good = "{\"line\":1.0,\"column\":0}";
    CHECK(plurnk_wire_validate(pos, good, strlen(good), &valid, &errors) == PLURNK_OK);
    CHECK(valid == 1 && errors != NULL && strcmp(errors, "[]") == 0);
    plurnk_wire_free_string(errors);
    const char* bad = "{\"line\":-1,\"column\":0}";
    CHECK(plurnk_wire_validate(pos, bad, strlen(bad), &valid, &errors) == PLURNK_OK);
    CHECK(valid == 0 && errors != NULL && strstr(errors, "\"keyword\":\"minimum\"") != NULL);
    plurnk_wire_free_string(errors);
    CHECK(plurnk_wire_validate(pos, "{", 1, &valid, NULL) == PLURNK_OK && valid == 0);
    CHECK(plurnk_wire_validate(99, good, strlen(good), &valid, NULL) == PLURNK_ERR_INVALID_ARGUMENT);

    int ok = -1;
    char* cls = NULL;
    char* msg = NULL;
    const char* region = "{\"startLine\":2,\"startColumn\":5,\"endLine\":1,\"endColumn\":9}";
    CHECK(plurnk_wire_assert(PLURNK_WIRE_TEXT_REGION, region, strlen(region), &ok, &cls, &msg) == PLURNK_OK);
    CHECK(ok == 0 && cls != NULL && strcmp(cls, "InvalidTextRegionError") == 0);
    CHECK(msg != NULL && strcmp(msg, "TextRegion ends before it starts") == 0);
    plurnk_wire_free_string(cls);
    plurnk_wire_free_string(msg);
    CHECK(plurnk_wire_assert(PLURNK_WIRE_LOOP_FLAGS, plurnk_wire_default_loop_flags(),
                             strlen(plurnk_wire_default_loop_flags()), &ok, &cls, &msg) == PLURNK_OK);
    CHECK(ok == 1 && cls == NULL && msg == NULL);

    char* out = NULL;
    const char* args = "[\"scheme:file\",\"not-found\",404,\"No such file.\"]";
    CHECK(plurnk_wire_problems_create(args, strlen(args), &ok, &out) == PLURNK_OK);
    CHECK(ok == 1 && out != NULL &&
          strcmp(out, "{\"type\":\"https://problems.plurnk.dev/scheme/file/not-found\",\"title\":\"Not found\","
                      "\"status\":404,\"detail\":\"No such file.\"}") == 0);
    plurnk_wire_free_string(out);
    const char* bad_args = "[\"Scheme\",\"x\",404,\"d\"]";
    CHECK(plurnk_wire_problems_create(bad_args, strlen(bad_args), &ok, &out) == PLURNK_OK);
    CHECK(ok == 0 && out != NULL && strstr(out, "problem owner must be") == out);
    plurnk_wire_free_string(out);
    CHECK(plurnk_wire_problems_create("{}", 2, &ok, NULL) == PLURNK_ERR_INVALID_ARGUMENT);

    CHECK(strcmp(plurnk_wire_unknown_position(), "{\"line\":0,\"column\":0}") == 0);
    CHECK(strcmp(plurnk_wire_reserved_authorities(), "[\"commons\",\"plurnk\"]") == 0);
    CHECK(strcmp(plurnk_wire_plurnk_ops(),
                 "[\"FIND\",\"READ\",\"EDIT\",\"COPY\",\"MOVE\",\"OPEN\",\"FOLD\",\"SEND\",\"EXEC\",\"WORK\","
                 "\"FORK\",\"KILL\",\"PLAN\"]") == 0);
    CHECK(plurnk_wire_is_worker_name("worker-1", 8) == 1);
    CHECK(plurnk_wire_is_worker_name("Worker", 6) == 0);
    CHECK(strcmp(plurnk_wire_worker_name_pattern(), "^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$") == 0);
    CHECK(plurnk_wire_schema(PLURNK_WIRE_NOTICE) != NULL &&
          strstr(plurnk_wire_schema(PLURNK_WIRE_NOTICE), "\"$id\": \"https://schemas.plurnk.dev/v0/Notice.json\"") != NULL);
    CHECK(plurnk_wire_schema(-1) == NULL);

    /* The service dialect's schemas: a regex path is a ParsedPath there only; a dialect the
     * library does not know is refused. */
    const char* rx = "{\"kind\":\"regex\",\"raw\":\"#a#i\",\"pattern\":\"a\",\"flags\":\"i\"}";
    CHECK(plurnk_wire_validate_dialect(PLURNK_WIRE_PARSED_PATH, PLURNK_PARSE_DIALECT_SERVICE, rx, strlen(rx), &valid,
                                       &errors) == PLURNK_OK);
    CHECK(valid == 1 && errors != NULL && strcmp(errors, "[]") == 0);
    plurnk_wire_free_string(errors);
    CHECK(plurnk_wire_validate_dialect(PLURNK_WIRE_PARSED_PATH, PLURNK_PARSE_DIALECT_CONTRACTS, rx, strlen(rx), &valid,
                                       NULL) == PLURNK_OK && valid == 0);
    CHECK(plurnk_wire_validate(PLURNK_WIRE_PARSED_PATH, rx, strlen(rx), &valid, NULL) == PLURNK_OK && valid == 0);
    CHECK(plurnk_wire_validate_dialect(PLURNK_WIRE_PARSED_PATH, 2, rx, strlen(rx), &valid, NULL) ==
          PLURNK_ERR_INVALID_ARGUMENT);
    const char* fork = "{\"op\":\"FORK\",\"suffix\":\"\",\"signal\":null,\"target\":null,\"lineMarker\":null,"
                       "\"body\":null,\"position\":{\"line\":1,\"column\":0}}";
    CHECK(plurnk_wire_assert_dialect(PLURNK_WIRE_PLURNK_STATEMENT, PLURNK_PARSE_DIALECT_SERVICE, fork, strlen(fork), &ok,
                                     &cls, &msg) == PLURNK_OK && ok == 1 && cls == NULL && msg == NULL);
    CHECK(plurnk_wire_assert_dialect(PLURNK_WIRE_PLURNK_STATEMENT, PLURNK_PARSE_DIALECT_CONTRACTS, fork, strlen(fork),
                                     &ok, &cls, &msg) == PLURNK_OK && ok == 0);
    CHECK(cls != NULL && strcmp(cls, "InvalidContractError") == 0 && msg != NULL &&
          strstr(msg, "invalid PlurnkStatement: ") == msg);
    plurnk_wire_free_string(cls);
    plurnk_wire_free_string(msg);
    CHECK(plurnk_wire_assert_dialect(PLURNK_WIRE_PLURNK_STATEMENT, -1, fork, strlen(fork), &ok, NULL, NULL) ==
          PLURNK_ERR_INVALID_ARGUMENT);
    CHECK(strstr(plurnk_wire_schema_dialect(PLURNK_WIRE_CLIENT_STATEMENT, PLURNK_PARSE_DIALECT_SERVICE),
                 "\"$id\": \"https://schemas.plurnk.dev/v0/service/ClientStatement.json\"") != NULL);
    CHECK(plurnk_wire_schema_dialect(PLURNK_WIRE_NOTICE, PLURNK_PARSE_DIALECT_SERVICE) ==
          plurnk_wire_schema(PLURNK_WIRE_NOTICE));
    CHECK(plurnk_wire_schema_dialect(PLURNK_WIRE_NOTICE, 7) == NULL);
    if (failures == 0) printf("wire C API: all checks passed\n");
    return failures == 0 ? 0 : 1;
}
