/* Round-robin, gauntlet and sampled balanced schedules. */
#include "schedule.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seeds.h"
#include "util.h"

/* One-way (seeds.h): a published game's seed, from its match log, must not
 * lead back to the master seed and so to every other game's. */
uint64_t schedule_group_seed(uint64_t master, int64_t group)
{
    return arena_game_seed_derive(master, SEED_GROUP, (uint64_t)group);
}

uint64_t schedule_game_seed(uint64_t master, int64_t id)
{
    return arena_game_seed_derive(master, SEED_GAME, (uint64_t)id);
}

const char *schedule_pairing_name(tourn_pairing p)
{
    return p == PAIRING_DUPLICATE ? "duplicate" : "independent";
}

bool schedule_pairing_parse(const char *s, tourn_pairing *out)
{
    if (!strcmp(s, "duplicate"))
        *out = PAIRING_DUPLICATE;
    else if (!strcmp(s, "independent"))
        *out = PAIRING_INDEPENDENT;
    else
        return false;
    return true;
}

static int64_t binom(int n, int k)
{
    if (k < 0 || k > n) return 0;
    int64_t r = 1;
    for (int i = 1; i <= k; i++) {
        if (r > INT64_MAX / (n - k + i)) return -1;
        r = r * (n - k + i) / i;
    }
    return r;
}

static int64_t n_subsets(const schedule_params *p)
{
    return p->format == FORMAT_GAUNTLET ? binom(p->n_agents - 1, p->players - 1)
                                        : binom(p->n_agents, p->players);
}

int64_t schedule_full_size(const schedule_params *p)
{
    int64_t s = n_subsets(p);
    if (s < 0 || (s > 0 && p->per_pairing > INT64_MAX / s)) return -1;
    return s * p->per_pairing;
}

typedef struct builder {
    schedule *s;
    size_t cap;
    const schedule_params *p;
} builder;

/* Appends one group: `players` games, seats rotated so every member sits in
 * every seat once; on one seed (duplicate) or each on its own. */
static void add_group(builder *b, const int *members)
{
    int k = b->p->players;
    int64_t group = b->s->n / (size_t)k + 1;
    uint64_t seed = schedule_group_seed(b->p->seed, group);
    for (int r = 0; r < k; r++) {
        if (b->s->n == b->cap) {
            b->cap = b->cap ? b->cap * 2 : 256;
            b->s->games = xrealloc(b->s->games, b->cap * sizeof(sched_game));
        }
        sched_game *g = &b->s->games[b->s->n++];
        memset(g, 0, sizeof *g);
        g->id = (int64_t)b->s->n;
        g->group = group;
        g->seed = b->p->pairing == PAIRING_DUPLICATE ? seed : schedule_game_seed(b->p->seed, g->id);
        g->players = k;
        for (int seat = 0; seat < k; seat++)
            g->seat[seat] = members[(seat + r) % k];
    }
}

/* Lexicographic next k-subset of {lo..n-1}; false after the last. */
static bool next_subset(int *c, int k, int n)
{
    int i = k - 1;
    while (i >= 0 && c[i] == n - k + i)
        i--;
    if (i < 0) return false;
    c[i]++;
    for (int j = i + 1; j < k; j++)
        c[j] = c[j - 1] + 1;
    return true;
}

int schedule_build(const schedule_params *p, schedule *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    int k = p->players, n = p->n_agents;
    if (k < 2 || k > RANKED_MAX) {
        snprintf(err, errlen, "table size must be 2..%d, not %d", RANKED_MAX, k);
        return -1;
    }
    if (n < k) {
        snprintf(err, errlen, "%d-player games need at least %d agents, got %d", k, k, n);
        return -1;
    }
    if (p->per_pairing < k || p->per_pairing % k != 0) {
        snprintf(err, errlen,
                 "games per pairing must be a positive multiple of %d (every game is played "
                 "in a group of %d with seats rotated), not %lld",
                 k, k, (long long)p->per_pairing);
        return -1;
    }
    int64_t full = schedule_full_size(p);
    builder b = {out, 0, p};
    int64_t rounds = p->per_pairing / k;
    int members[RANKED_MAX];
    if (full >= 0 && (p->max_games <= 0 || full <= p->max_games)) {
        /* The full schedule, round by round so partial results cover every
         * pairing evenly. */
        int off = p->format == FORMAT_GAUNTLET ? 1 : 0, kk = k - off;
        for (int64_t r = 0; r < rounds; r++) {
            int c[RANKED_MAX];
            for (int i = 0; i < kk; i++)
                c[i] = i;
            do {
                if (off) members[0] = 0;
                for (int i = 0; i < kk; i++)
                    members[off + i] = c[i] + off;
                add_group(&b, members);
            } while (next_subset(c, kk, n - off));
        }
        return 0;
    }
    if (p->max_games <= 0) {
        snprintf(err, errlen, "the full schedule is too large to count; cap it with --max-games");
        return -1;
    }
    if (p->max_games < k) {
        snprintf(err, errlen, "max games %lld is below one group of %d", (long long)p->max_games,
                 k);
        return -1;
    }
    /* Sampled: each group takes the agents seated least often so far (ties
     * broken by the seeded generator), so appearances stay balanced to
     * within one group and every agent sits in every seat equally often. */
    out->sampled = true;
    int64_t *count = xcalloc((size_t)n + 1, sizeof(int64_t));
    int *perm = xcalloc((size_t)n + 1, sizeof(int));
    /* The draws show in the schedule: seeded one-way from the master. */
    uint64_t rng = arena_seed_derive(p->seed, SEED_SCHEDULE, 0);
    for (int64_t gi = 0; gi < p->max_games / k; gi++) {
        for (int i = 0; i < n; i++)
            perm[i] = i;
        for (int i = n - 1; i > 0; i--) {
            int j = (int)(arena_splitmix64(&rng) % (uint64_t)(i + 1));
            int t = perm[i];
            perm[i] = perm[j];
            perm[j] = t;
        }
        int m = 0;
        if (p->format == FORMAT_GAUNTLET) members[m++] = 0;
        while (m < k) {
            int best = -1;
            for (int q = 0; q < n; q++) {
                int a = perm[q];
                bool used = false;
                for (int x = 0; x < m; x++)
                    used |= members[x] == a;
                if (used || (p->format == FORMAT_GAUNTLET && a == 0)) continue;
                if (best < 0 || count[a] < count[best]) best = a;
            }
            members[m++] = best;
        }
        for (int x = 0; x < k; x++)
            count[members[x]]++;
        add_group(&b, members);
    }
    free(count);
    free(perm);
    return 0;
}

void schedule_free(schedule *s)
{
    free(s->games);
    memset(s, 0, sizeof *s);
}
