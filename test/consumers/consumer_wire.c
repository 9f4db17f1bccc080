/* SPDX-License-Identifier: MIT */
/* A C program using the installed wire-contract library (plurnk_wire) through pkg-config or the
 * CMake target plurnk::plurnk_wire: a valid and an invalid Position. */
#include <plurnk/plurnk_wire.h>

#include <stdio.h>
#include <string.h>

static int valid(const char* json) {
    int v = -1;
    if (plurnk_wire_validate(PLURNK_WIRE_POSITION, json, strlen(json), &v, NULL) != PLURNK_OK) return -1;
    return v;
}

int main(void) {
    if (valid("{\"line\":1,\"column\":0}") != 1 || valid("{\"line\":-1,\"column\":0}") != 0) {
        printf("plurnk_wire: wrong verdicts\n");
        return 1;
    }
    printf("plurnk_wire %s: %s\n", plurnk_version(), plurnk_wire_contract_name(PLURNK_WIRE_POSITION));
    return 0;
}
