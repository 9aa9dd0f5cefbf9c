/* PLACEHOLDER until the xibalba module lands: refuses to create a game. */
#include <stdio.h>

#include "game.h"

static arena_game *create(const arena_setting *s, size_t ns, uint64_t seed, int players,
                          unsigned flags, char *err, size_t errlen)
{
    (void)s, (void)ns, (void)seed, (void)players, (void)flags;
    snprintf(err, errlen, "xibalba is not implemented yet");
    return NULL;
}

static const arena_option_doc no_options[] = {{0}};

const arena_game_vt xibalba_game = {
    .name = "xibalba",
    .title = "xibalba (not implemented yet)",
    .min_players = 2,
    .max_players = 4,
    .options = no_options,
    .create = create,
};
