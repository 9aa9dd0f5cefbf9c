#include <stdlib.h>

#include "rating_history.h"
#include "util.h"

/* The entrant's seat in a game, -1 when it does not play. */
static int mine_at(const ranked_game *g, const bool *mine)
{
    for (int k = 0; k < g->k; k++)
        if (mine[g->agent[k]]) return g->agent[k];
    return -1;
}

size_t rating_history(const ranked_game *g, const int64_t *ids, size_t n_games, int n,
                      const bool *mine, rating_fit_fn *fit, void *ctx, size_t max,
                      rating_point *out, int64_t *entrant_games)
{
    size_t m = 0;
    for (size_t t = 0; t < n_games; t++)
        m += mine_at(&g[t], mine) >= 0;
    *entrant_games = (int64_t)m;
    if (m == 0 || max == 0) return 0;
    size_t k = m < max ? m : max;
    size_t *at = xcalloc(m, sizeof *at); /* the entrant's games, by index into g */
    for (size_t t = 0, j = 0; t < n_games; t++)
        if (mine_at(&g[t], mine) >= 0) at[j++] = t;
    double *elo = xcalloc((size_t)n + 1, sizeof *elo), *ci = xcalloc((size_t)n + 1, sizeof *ci);
    for (size_t j = 0; j < k; j++) {
        /* The (j+1)-th of k evenly spaced games: ceil((j+1) m / k), 1-based. */
        size_t nth = ((j + 1) * m + k - 1) / k, t = at[nth - 1];
        size_t upto = j + 1 == k ? n_games : t + 1;
        fit(ctx, g, upto, n, elo, ci);
        int a = mine_at(&g[t], mine);
        out[j] = (rating_point){.games = (int64_t)nth,
                                .game = ids[t],
                                .through = ids[upto - 1],
                                .agent = a,
                                .rating = elo[a],
                                .ci95 = ci[a]};
    }
    free(elo);
    free(ci);
    free(at);
    return k;
}
