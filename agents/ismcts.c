/* builtin:ismcts[:ITER[:MS][:depth=N][:rollout=BOT]] — single-observer
 * information-set Monte Carlo tree search (SO-ISMCTS), generic over the game
 * interface.
 *
 * Every iteration samples a world the bot's seat cannot tell from the real
 * one (clone + determinize), walks down one shared tree, adds one node and
 * finishes the game with a rollout: a built-in bot of the game (by default
 * the game's strongest: bm-with:Smithy, greedy, heuristic; rollout=BOT
 * picks another, rollout=random random moves; other games roll out at
 * random), capped at `depth` decisions, past which the current scores rank
 * the seats. With a rollout bot, its choice is also tried first
 * and favoured in the tree, and the final choice departs from it only on
 * clear evidence. The tree's nodes are information sets of the
 * searcher: a child is keyed by the option's label (with decision kind and
 * seat), so the same action in different sampled worlds shares statistics,
 * and a node is only a candidate when its action exists in the sampled world
 * (UCB counts that availability, as ISMCTS requires).
 *
 * A multi-pick decision is a sequence of single picks inside the tree: pick
 * one more option, or stop once pick_min is reached. Unordered picks go in
 * increasing index order so each set is reached one way only.
 *
 * Rewards are rank-based for the seat that chose the action: 1 for beating
 * every other seat, 0 for losing to all, ties split. Deterministic for a given
 * seed as long as no time cap ends a search: the cap (MS, or a share of the
 * match's move clock, which the referee tells built-in bots) makes the
 * number of iterations depend on the machine's speed. */
#include "ismcts.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util.h"

#define UCB_C 0.7
#define POLICY_BIAS 2.0       /* progressive bias toward the rollout bot's choice */
#define OVERRIDE_Z 2.0        /* evidence needed to overrule the rollout bot (default) */
#define STOP (-1)             /* the "stop picking" action of a multi-pick */
#define PLAYOUT_LIMIT 1000000 /* decisions of the one playout that counts seats */

typedef struct node {
    uint64_t key;              /* hash of (seat, kind, label) or of the stop action */
    int opt;                   /* option index when created (used at the root) */
    int seat;                  /* seat that chose this action */
    int child, next;           /* pool indices, -1 for none */
    double visits, avail, sum; /* sum of `seat`'s rewards through this node */
} node;

typedef struct ismcts {
    int seat;
    long iters, ms; /* iters 0: the game's default; ms 0: no cap */
    long clock_ms;  /* search time from the match's move clock; 0: none */
    int players;    /* learned once from a random playout; 0 = not yet */
    arena_rng rng;
    node *pool;
    size_t n_nodes, cap_nodes;
    int *path;
    size_t cap_path;
    /* scratch sized to the widest decision seen */
    int *picks, *acts, *found, *pol;
    uint64_t *keys;
    size_t cap_opts;
    int cap; /* rollout decisions before scores decide */
    /* Rollout policy ("" = uniformly random), one instance per seat, made
     * at the first decision, when the game is known. */
    char rollout_spec[64];
    bool rollout_given; /* rollout=BOT was in the argument */
    double override_z;  /* standard errors needed to overrule the rollout bot */
    const arena_policy_vt *rp;
    void *rself[ARENA_MAX_SEATS];
    bool rollout_ready;
    bool warned; /* the game has no determinize */
    ismcts_stats stats;
} ismcts;

static uint64_t fnv(uint64_t h, const char *s)
{
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 0x100000001b3ull;
    return (h ^ 0xff) * 0x100000001b3ull; /* separator */
}

static uint64_t action_key(const arena_game *g, const arena_decision *d, int opt)
{
    uint64_t h = 0xcbf29ce484222325ull ^ ((uint64_t)(d->seat + 1) * 0x9e3779b97f4a7c15ull);
    h = fnv(h, d->kind);
    if (opt == STOP) return fnv(h, "\x01stop");
    char buf[160];
    g->vt->label(g, opt, buf, sizeof buf);
    return fnv(h, buf);
}

static void reserve_opts(ismcts *m, int n)
{
    if ((size_t)n + 1 <= m->cap_opts) return;
    m->cap_opts = (size_t)n * 2 + 8;
    m->picks = xrealloc(m->picks, m->cap_opts * sizeof *m->picks);
    m->acts = xrealloc(m->acts, m->cap_opts * sizeof *m->acts);
    m->found = xrealloc(m->found, m->cap_opts * sizeof *m->found);
    m->pol = xrealloc(m->pol, m->cap_opts * sizeof *m->pol);
    m->keys = xrealloc(m->keys, m->cap_opts * sizeof *m->keys);
}

static int new_node(ismcts *m, int parent, uint64_t key, int opt, int seat)
{
    if (m->n_nodes == m->cap_nodes) {
        m->cap_nodes = m->cap_nodes ? m->cap_nodes * 2 : 1024;
        m->pool = xrealloc(m->pool, m->cap_nodes * sizeof *m->pool);
    }
    int i = (int)m->n_nodes++;
    node *x = &m->pool[i];
    *x = (node){.key = key, .opt = opt, .seat = seat, .child = -1, .next = -1};
    if (parent >= 0) {
        x->next = m->pool[parent].child;
        m->pool[parent].child = i;
    }
    return i;
}

static void push_path(ismcts *m, size_t *len, int i)
{
    if (*len == m->cap_path) {
        m->cap_path = m->cap_path ? m->cap_path * 2 : 64;
        m->path = xrealloc(m->path, m->cap_path * sizeof *m->path);
    }
    m->path[(*len)++] = i;
}

/* A decision with a single legal choice: take every option (n == pick_min,
 * unordered, or a lone option). */
static bool forced(const arena_decision *d)
{
    return d->pick_max == 0 ||
           (d->pick_min == d->n_options && (!d->pick_ordered || d->n_options == 1));
}

static int forced_choice(const arena_decision *d, int *buf)
{
    int n = d->pick_max == 0 ? 0 : d->n_options;
    for (int i = 0; i < n; i++)
        buf[i] = i;
    return n;
}

/* The actions available after picks[0..np) of decision d: option indices
 * (STOP last when allowed). Unordered picks only go upwards and only to an
 * index that leaves enough higher ones to reach pick_min. */
static int actions(const arena_decision *d, const int *picks, int np, int *acts)
{
    int n = 0;
    if (np < d->pick_max) {
        int need_after = d->pick_min - np - 1; /* picks still required after this one */
        int lo = !d->pick_ordered && np > 0 ? picks[np - 1] + 1 : 0;
        for (int i = lo; i < d->n_options; i++) {
            if (!d->pick_ordered && d->n_options - 1 - i < need_after) break;
            bool used = false;
            for (int k = 0; k < np && d->pick_ordered; k++)
                used |= picks[k] == i;
            if (!used) acts[n++] = i;
        }
    }
    if (np >= d->pick_min) acts[n++] = STOP;
    return n;
}

/* Rank-based reward of every seat: the share of other seats it beats, ties
 * counting half. Unfinished games are ranked by their current scores. */
static void rewards(const ismcts *m, const arena_game *g, double *out)
{
    arena_result r;
    g->vt->result(g, &r);
    int np = m->players;
    int ranks[ARENA_MAX_SEATS];
    if (r.over) {
        memcpy(ranks, r.ranks, sizeof ranks);
    } else {
        int64_t tb[ARENA_MAX_SEATS] = {0};
        arena_rank_by_score(np, r.scores, tb, ranks);
    }
    for (int s = 0; s < np; s++) {
        double w = 0;
        for (int o = 0; o < np; o++)
            if (o != s) w += ranks[o] > ranks[s] ? 1.0 : ranks[o] == ranks[s] ? 0.5 : 0.0;
        out[s] = np > 1 ? w / (np - 1) : 0.5;
    }
}

/* Completes a partial pick at random (for the rollout) and applies it. */
static void finish_pick(ismcts *m, arena_game *g, const arena_decision *d, int np)
{
    int lo = np > d->pick_min ? np : d->pick_min;
    int k = lo + (int)arena_rng_below(&m->rng, (uint32_t)(d->pick_max - lo + 1));
    while (np < k) {
        int i = (int)arena_rng_below(&m->rng, (uint32_t)d->n_options);
        bool used = false;
        for (int j = 0; j < np; j++)
            used |= m->picks[j] == i;
        if (!used) m->picks[np++] = i;
    }
    g->vt->apply(g, m->picks, np);
}

static void rollout(ismcts *m, arena_game *g)
{
    arena_decision d;
    for (int steps = 0; steps < m->cap && g->vt->decision(g, &d); steps++) {
        reserve_opts(m, d.n_options);
        int n = m->rp && d.seat < m->players ? m->rp->decide(m->rself[d.seat], g, &d, m->picks)
                                             : arena_random_choice(&m->rng, &d, m->picks);
        if (arena_check_choice(&d, m->picks, n) || !g->vt->apply(g, m->picks, n))
            g->vt->apply(g, m->picks, arena_random_choice(&m->rng, &d, m->picks));
    }
}

/* Per-game defaults of plain `ismcts`, chosen by measured strength
 * (docs/benchmarks.md): random rollouts are a poor guess of how Xibalba and
 * Dominion games go on, the game's own strongest bot a good one, and with
 * such rollouts 50 to 1,000 iterations a move are enough. */
static const struct {
    const char *game, *rollout;
    long iters;
    double override_z; /* Dominion: 1 beat 2 by 0.04 score on the same 400 deals */
} game_defaults[] = {
    {"dominion", "bm-with:Smithy", ISMCTS_DOMINION_ITERS, 1.0},
    {"pacifica", "greedy", ISMCTS_PACIFICA_ITERS, OVERRIDE_Z},
    {"xibalba", "heuristic", ISMCTS_XIBALBA_ITERS, OVERRIDE_Z},
};

/* Fills in what the argument left to the game's defaults, and makes the
 * rollout policy's per-seat instances for this game. */
static void rollout_setup(ismcts *m, const arena_game *g)
{
    m->rollout_ready = true;
    m->override_z = OVERRIDE_Z;
    for (size_t i = 0; i < sizeof game_defaults / sizeof game_defaults[0]; i++) {
        if (strcmp(game_defaults[i].game, g->vt->name) != 0) continue;
        if (!m->iters) m->iters = game_defaults[i].iters;
        m->override_z = game_defaults[i].override_z;
        if (!m->rollout_given)
            snprintf(m->rollout_spec, sizeof m->rollout_spec, "%s", game_defaults[i].rollout);
    }
    if (!m->iters) m->iters = ISMCTS_DEFAULT_ITERS;
    if (!m->rollout_spec[0] || strcmp(m->rollout_spec, "random") == 0) return;
    const char *arg = NULL;
    const arena_policy_vt *vt = arena_find_policy(g->vt->name, m->rollout_spec, &arg);
    char err[200] = "no such bot";
    bool ok = vt != NULL;
    for (int s = 0; ok && s < m->players; s++) {
        m->rself[s] = vt->create(arg, s, arena_rng_next(&m->rng), err, sizeof err);
        ok = m->rself[s] != NULL;
    }
    if (ok) {
        m->rp = vt;
        return;
    }
    fprintf(stderr, "ismcts: rollout bot '%s' for %s: %s; rolling out at random\n", m->rollout_spec,
            g->vt->name, err);
    for (int s = 0; s < m->players; s++)
        if (m->rself[s]) vt->free(m->rself[s]), m->rself[s] = NULL;
}

/* The rollout bot's choice for d into m->pol, or -1 without a bot (or if
 * its choice is not legal). */
static int policy_choice(ismcts *m, const arena_game *g, const arena_decision *d)
{
    if (!m->rp || d->seat >= m->players) return -1;
    int n = m->rp->decide(m->rself[d->seat], g, d, m->pol);
    return arena_check_choice(d, m->pol, n) ? -1 : n;
}

/* Whether taking act after picks[0..np) follows the bot's choice pol. */
static bool in_pol(const ismcts *m, int npol, int x)
{
    for (int i = 0; i < npol; i++)
        if (m->pol[i] == x) return true;
    return false;
}

static bool policy_has(const ismcts *m, int npol, const int *picks, int np, int act)
{
    for (int i = 0; i < np; i++)
        if (!in_pol(m, npol, picks[i])) return false;
    return act == STOP ? np == npol : np < npol && in_pol(m, npol, act);
}

static arena_game *sample_world(ismcts *m, const arena_game *g)
{
    arena_game *w = g->vt->clone(g);
    uint64_t seed = arena_rng_next(&m->rng);
    if (g->vt->determinize) w->vt->determinize(w, m->seat, seed);
    return w;
}

static void iterate(ismcts *m, const arena_game *root_state)
{
    arena_game *g = sample_world(m, root_state);
    size_t len = 0;
    push_path(m, &len, 0);
    int cur = 0, np = 0, npol = -1;
    arena_decision d;
    bool live = g->vt->decision(g, &d), grown = false;
    while (live && !grown) {
        reserve_opts(m, d.n_options);
        if (forced(&d)) {
            g->vt->apply(g, m->acts, forced_choice(&d, m->acts));
            live = g->vt->decision(g, &d);
            continue;
        }
        int na = actions(&d, m->picks, np, m->acts);
        if (np == 0) npol = policy_choice(m, g, &d);
        for (int a = 0; a < na; a++) {
            m->keys[a] = action_key(g, &d, m->acts[a]);
            m->found[a] = -1;
        }
        /* The action the rollout bot would take here, if any. */
        int hint = -1;
        for (int a = 0; a < na && npol >= 0 && hint < 0; a++)
            if (policy_has(m, npol, m->picks, np, m->acts[a])) hint = a;
        /* Children whose action exists in this world are candidates. */
        int best = -1, n_new = 0;
        double best_v = -1;
        for (int c = m->pool[cur].child; c >= 0; c = m->pool[c].next)
            for (int a = 0; a < na; a++)
                if (m->found[a] < 0 && m->pool[c].key == m->keys[a]) {
                    m->found[a] = c;
                    m->pool[c].avail += 1;
                    break;
                }
        for (int a = 0; a < na; a++)
            n_new += m->found[a] < 0;
        int act;
        if (n_new > 0) {
            int a = 0;
            if (hint >= 0 && m->found[hint] < 0) {
                a = hint; /* the bot's choice is tried first */
            } else {
                int pick = (int)arena_rng_below(&m->rng, (uint32_t)n_new);
                for (;; a++)
                    if (m->found[a] < 0 && pick-- == 0) break;
            }
            act = m->acts[a];
            best = new_node(m, cur, m->keys[a], act, d.seat);
            m->pool[best].avail = 1;
            grown = true;
        } else {
            for (int a = 0; a < na; a++) {
                const node *x = &m->pool[m->found[a]];
                double v = x->sum / x->visits + UCB_C * sqrt(log(x->avail) / x->visits);
                if (a == hint) v += POLICY_BIAS / (x->visits + 1);
                if (v > best_v) best_v = v, best = m->found[a];
            }
            act = m->pool[best].opt;
            /* The option index may differ between worlds; the key is what
             * identifies the action, so take this world's index for it. */
            for (int a = 0; a < na; a++)
                if (m->found[a] == best) act = m->acts[a];
        }
        push_path(m, &len, best);
        cur = best;
        if (act != STOP) m->picks[np++] = act;
        if (act == STOP || np == d.pick_max) {
            g->vt->apply(g, m->picks, np);
            np = 0;
            live = g->vt->decision(g, &d);
        }
    }
    if (live && np > 0) finish_pick(m, g, &d, np);
    if (live) rollout(m, g);
    double r[ARENA_MAX_SEATS];
    rewards(m, g, r);
    for (size_t i = 0; i < len; i++) {
        node *x = &m->pool[m->path[i]];
        x->visits += 1;
        if (i > 0) x->sum += r[x->seat];
    }
    g->vt->free(g);
}

/* Players in the game, from the ranks of one random playout to the end (the
 * interface has no player count; every seat of a finished game has a rank). */
static int count_players(ismcts *m, const arena_game *g)
{
    arena_game *w = sample_world(m, g);
    arena_decision d;
    for (long i = 0; i < PLAYOUT_LIMIT && w->vt->decision(w, &d); i++) {
        reserve_opts(m, d.n_options);
        w->vt->apply(w, m->picks, arena_random_choice(&m->rng, &d, m->picks));
    }
    arena_result r;
    w->vt->result(w, &r);
    w->vt->free(w);
    int n = 0;
    for (int s = 0; s < ARENA_MAX_SEATS; s++)
        if (r.over && r.ranks[s] > 0) n = s + 1;
    return n > 0 ? n : ARENA_MAX_SEATS;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* The most visited child of x whose action is legal after picks[0..np). */
static int most_visited(const ismcts *m, int x, const int *acts, int na)
{
    int best = -1;
    for (int c = m->pool[x].child; c >= 0; c = m->pool[c].next) {
        bool legal = false;
        for (int a = 0; a < na && !legal; a++)
            legal = acts[a] == m->pool[c].opt;
        if (!legal) continue;
        if (best < 0 || m->pool[c].visits > m->pool[best].visits ||
            (m->pool[c].visits == m->pool[best].visits && m->pool[c].sum > m->pool[best].sum))
            best = c;
    }
    return best;
}

/* With a rollout bot, the search overrides the bot's own choice (child of x
 * that follows it) only when the alternative c is better by more than
 * override_z standard errors (per game): in noisy games a few hundred rollouts cannot
 * separate close options, and a noise-driven change is worse than the bot. */
static int keep_policy(const ismcts *m, int x, int c, int npol, const int *picks, int np)
{
    int pc = -1;
    for (int k = m->pool[x].child; k >= 0 && npol >= 0; k = m->pool[k].next)
        if (policy_has(m, npol, picks, np, m->pool[k].opt)) pc = k;
    if (pc < 0 || pc == c) return c;
    const node *a = &m->pool[c], *b = &m->pool[pc];
    double ma = a->sum / a->visits, mb = b->sum / b->visits;
    double va = fmax(ma * (1 - ma), 0.01) / a->visits, vb = fmax(mb * (1 - mb), 0.01) / b->visits;
    return ma - mb > m->override_z * sqrt(va + vb) ? c : pc;
}

static int ismcts_decide(void *self, const arena_game *g, const arena_decision *d, int *choice)
{
    ismcts *m = self;
    if (forced(d)) return forced_choice(d, choice);
    double t0 = now_ms(); /* the first move's setup counts against the cap */
    if (!g->vt->determinize && !m->warned) {
        fprintf(stderr,
                "ismcts: %s has no determinize; searching the real state, which sees hidden "
                "information\n",
                g->vt->name);
        m->warned = true;
    }
    if (!m->players) m->players = count_players(m, g);
    if (!m->rollout_ready) rollout_setup(m, g);
    reserve_opts(m, d->n_options);
    m->n_nodes = 0;
    new_node(m, -1, 0, STOP, d->seat);
    /* The tighter of the MS cap and the move clock's share; the first
     * iteration always runs so there is a tree to read. */
    long cap = m->ms;
    if (m->clock_ms > 0 && (cap == 0 || m->clock_ms < cap)) cap = m->clock_ms;
    long it = 0;
    for (; it < m->iters; it++) {
        if (cap > 0 && it > 0 && now_ms() - t0 >= (double)cap) break;
        iterate(m, g);
    }
    m->stats.decisions++;
    m->stats.iterations += it;
    /* Read the choice off the tree: the most visited pick, one at a time. The
     * root's options are this seat's own and the same in every world, so the
     * stored option indices are valid here. */
    int np = 0, x = 0, npol = policy_choice(m, g, d);
    for (;;) {
        int na = actions(d, choice, np, m->acts);
        int c = most_visited(m, x, m->acts, na);
        if (c < 0) break;
        c = keep_policy(m, x, c, npol, choice, np);
        if (m->pool[c].opt == STOP) return np;
        choice[np++] = m->pool[c].opt;
        if (np == d->pick_max) return np;
        x = c;
    }
    /* Unexplored below here (tiny budgets): stop if allowed, else add the
     * lowest legal picks. */
    while (np < d->pick_min) {
        int na = actions(d, choice, np, m->acts);
        choice[np++] = m->acts[0];
        (void)na;
    }
    return np;
}

static bool parse_pos(const char *s, const char *end, long max, long *out)
{
    if (s == end) return false;
    long v = 0;
    for (const char *p = s; p < end; p++) {
        if (*p < '0' || *p > '9') return false;
        v = v * 10 + (*p - '0');
        if (v > max) return false;
    }
    *out = v;
    return v >= 1;
}

/* ITER[:MS][:depth=N][:rollout=BOT], BOT taking the rest (it may hold ':'). */
static bool parse_arg(ismcts *m, const char *arg)
{
    const char *p = arg;
    if (!*p) return false;
    for (int field = 0; *p; field++) {
        if (field > 0 && strncmp(p, "rollout=", 8) == 0) {
            size_t n = strlen(p + 8);
            if (n == 0 || n >= sizeof m->rollout_spec) return false;
            memcpy(m->rollout_spec, p + 8, n + 1);
            m->rollout_given = true;
            return true;
        }
        const char *end = strchr(p, ':');
        if (!end) end = p + strlen(p);
        long v = 0;
        bool ok;
        if (field > 0 && strncmp(p, "depth=", 6) == 0) {
            ok = parse_pos(p + 6, end, 1000000L, &v);
            m->cap = (int)v;
        } else if (field == 0) {
            ok = parse_pos(p, end, 100000000L, &m->iters);
        } else if (field == 1) {
            ok = parse_pos(p, end, 3600000L, &m->ms);
        } else {
            ok = false;
        }
        if (!ok) return false;
        p = *end ? end + 1 : end;
        if (*end && !*p) return false; /* trailing ':' */
    }
    return true;
}

static void *ismcts_create(const char *arg, int seat, uint64_t seed, char *err, size_t errlen)
{
    ismcts *m = xcalloc(1, sizeof *m);
    m->seat = seat;
    m->cap = ISMCTS_DEFAULT_DEPTH;
    if (arg && !parse_arg(m, arg)) {
        snprintf(err, errlen,
                 "ismcts takes ITERATIONS[:MILLISECONDS][:depth=N][:rollout=BOT] (e.g. "
                 "ismcts:%d, ismcts:100000:500, ismcts:500:rollout=heuristic), not '%s'",
                 ISMCTS_DEFAULT_ITERS, arg);
        free(m);
        return NULL;
    }
    arena_rng_seed(&m->rng, seed);
    return m;
}

static void ismcts_free(void *self)
{
    ismcts *m = self;
    if (!m) return;
    free(m->pool);
    free(m->path);
    free(m->picks);
    free(m->acts);
    free(m->found);
    free(m->pol);
    free(m->keys);
    for (int i = 0; i < ARENA_MAX_SEATS; i++)
        if (m->rself[i]) m->rp->free(m->rself[i]);
    free(m);
}

/* The search gets a share of the move clock: the rest covers the iteration
 * under way when time is up, and a loaded machine. */
static void ismcts_set_move_ms(void *self, int64_t move_ms)
{
    ismcts *m = self;
    m->clock_ms = move_ms > 0 ? (long)(move_ms * ISMCTS_CLOCK_SHARE_PCT / 100) : 0;
    if (move_ms > 0 && m->clock_ms < 1) m->clock_ms = 1;
}

ismcts_stats ismcts_get_stats(const void *self)
{
    return ((const ismcts *)self)->stats;
}

const arena_policy_vt arena_policy_ismcts = {
    .name = "ismcts",
    .game = NULL,
    .summary = "information-set MCTS over sampled worlds, the game's best bot as rollout "
               "policy, within the move clock",
    .takes_arg = false,
    .create = ismcts_create,
    .decide = ismcts_decide,
    .free = ismcts_free,
    .set_move_ms = ismcts_set_move_ms,
};

const arena_policy_vt arena_policy_ismcts_arg = {
    .name = "ismcts",
    .game = NULL,
    .summary = "ismcts:ITER[:MS][:depth=N][:rollout=BOT]: budget, time cap (nondeterministic), "
               "rollout cap and bot (rollout=random for random moves)",
    .takes_arg = true,
    .create = ismcts_create,
    .decide = ismcts_decide,
    .free = ismcts_free,
    .set_move_ms = ismcts_set_move_ms,
};
