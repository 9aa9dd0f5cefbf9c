#include <stdbool.h>
#include <string.h>

#include "game.h"

extern const arena_game_vt dominion_game;
extern const arena_game_vt pacifica_game;
extern const arena_game_vt xibalba_game;
extern const arena_game_vt testgame_game; /* tests/testgame: hidden from `arena games` */
extern const arena_game_vt twin_game;     /* tests/testgame: the twin test's wrapper */

static const arena_game_vt *const visible[] = {&dominion_game, &pacifica_game, &xibalba_game, NULL};
static const arena_game_vt *const everything[] = {&dominion_game, &pacifica_game, &xibalba_game,
                                                  &testgame_game, &twin_game,     NULL};

const arena_game_vt *const *arena_games(bool include_hidden)
{
    return include_hidden ? everything : visible;
}

const arena_game_vt *arena_find_game(const char *name)
{
    for (const arena_game_vt *const *g = everything; *g; g++)
        if (strcmp((*g)->name, name) == 0) return *g;
    return NULL;
}
