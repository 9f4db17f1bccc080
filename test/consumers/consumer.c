/* SPDX-License-Identifier: MIT */
/* A C program using the installed plurnk through pkg-config (also linked fully static). */
#include <plurnk/plurnk.h>

#include <stdio.h>
#include <string.h>

int main(int argc, char** argv) {
    plurnk_result* r = NULL;
    const char* turn = "<<READ(a.md)::READ";
    if (argc < 2 || strcmp(argv[1], plurnk_version()) != 0 || strcmp(PLURNK_VERSION_STRING, plurnk_version()) != 0) {
        printf("version mismatch: %s, macro %s\n", plurnk_version(), PLURNK_VERSION_STRING);
        return 1;
    }
    if (plurnk_parse(turn, strlen(turn), PLURNK_TIER_STATEMENTS, &r) != PLURNK_OK) return 1;
    if (plurnk_result_item_count(r) != 1) return 1;
    plurnk_result_free(r);
    printf("plurnk %s from C, commit %s\n", plurnk_version(), plurnk_build_commit());
    return 0;
}
