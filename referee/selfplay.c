#include "selfplay.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"
#include "util.h"

int arena_selfplay(const arena_game_vt *game, const char *const *policies,
                   const arena_selfplay_opts *o, arena_selfplay_stats *stats, char *err,
                   size_t errlen)
{
    int players = o->players;
    void *self[ARENA_MAX_SEATS] = {0};
    const arena_policy_vt *pv[ARENA_MAX_SEATS] = {0};
    int rc = -1;
    int *choice = NULL;
    size_t choice_cap = 0;

    memset(stats, 0, sizeof *stats);
    if (players < 1 || players > ARENA_MAX_SEATS) {
        snprintf(err, errlen, "bad player count %d", players);
        return -1;
    }
    arena_game *g =
        game->create(o->settings, o->n_settings, o->seed, players, o->flags, err, errlen);
    if (!g) return -1;
    for (int s = 0; s < players; s++) {
        const char *arg = NULL;
        pv[s] = arena_find_policy(game->name, policies[s], &arg);
        if (!pv[s]) {
            snprintf(err, errlen, "no built-in bot '%s' for %s", policies[s], game->name);
            goto out;
        }
        /* No agent sees a self-play game (benches, tests): the cheap mix,
         * not seeds.h's one-way derivation (a few per cent of a bmu game). */
        self[s] = pv[s]->create(arg, s, arena_hash_mix(o->seed, 1000u + (unsigned)s), err, errlen);
        if (!self[s]) goto out;
    }
    if (o->check && !o->check(g, o->check_ctx, err, errlen)) goto out;

    arena_decision d;
    while (game_decision(g, &d)) {
        if (o->max_decisions && stats->decisions >= o->max_decisions) {
            snprintf(err, errlen, "no end after %ld decisions", stats->decisions);
            goto out;
        }
        if ((size_t)d.n_options > choice_cap) {
            choice_cap = (size_t)d.n_options * 2;
            choice = xrealloc(choice, choice_cap * sizeof *choice);
        }
        int n = pv[d.seat]->decide(self[d.seat], g, &d, choice);
        const char *why = arena_check_choice(&d, choice, n);
        if (why) {
            snprintf(err, errlen, "bot %s (seat %d) made a bad choice at %s: %s", policies[d.seat],
                     d.seat, d.kind, why);
            goto out;
        }
        if (!game_apply(g, choice, n)) {
            snprintf(err, errlen, "game rejected a generically valid choice at %s", d.kind);
            goto out;
        }
        stats->decisions++;
        if (o->check && !o->check(g, o->check_ctx, err, errlen)) goto out;
    }
    game->result(g, &stats->result);
    rc = 0;
out:
    for (int s = 0; s < players; s++)
        if (self[s]) pv[s]->free(self[s]);
    free(choice);
    game_free(g);
    return rc;
}
