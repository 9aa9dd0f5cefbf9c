#include "game.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

const char *arena_check_choice(const arena_decision *d, const int *choice, int n)
{
    if (n < d->pick_min) return "too few options picked";
    if (n > d->pick_max) return "too many options picked";
    for (int i = 0; i < n; i++) {
        if (choice[i] < 0 || choice[i] >= d->n_options) return "option index out of range";
        for (int j = 0; j < i; j++)
            if (choice[j] == choice[i]) return "option picked twice";
    }
    return NULL;
}

void arena_rank_by_score(int players, const int64_t *scores, const int64_t *tiebreak, int *ranks)
{
    for (int s = 0; s < players; s++) {
        int better = 0;
        for (int t = 0; t < players; t++) {
            if (t == s) continue;
            if (scores[t] > scores[s] ||
                (scores[t] == scores[s] && tiebreak && tiebreak[t] < tiebreak[s]))
                better++;
        }
        ranks[s] = better + 1;
    }
}

arena_game *arena_game_clone_flat(const arena_game *g)
{
    arena_game *c = xmalloc(g->size);
    memcpy(c, g, g->size);
    memset(&c->ev, 0, sizeof c->ev);
    c->ev.disabled = 1;
    return c;
}

void arena_game_free_flat(arena_game *g)
{
    events_free(&g->ev);
    free(g);
}

typedef struct counted {
    arena_label_fn put;
    void *ctx;
    int n, seen;
} counted;

static void count_label(void *ctx, int i, const char *label)
{
    counted *c = ctx;
    if (i != c->seen++ || i >= c->n) {
        /* A game's labels() out of step with its decision: a bug, and the
         * frame being written would be corrupt. */
        fprintf(stderr, "arena: labels() gave option %d of %d out of order\n", i, c->n);
        abort();
    }
    c->put(c->ctx, i, label);
}

void arena_game_labels(const arena_game_vt *vt, const arena_game *g, int n, char *buf, size_t len,
                       arena_label_fn put, void *ctx)
{
    if (!vt->labels) {
        for (int i = 0; i < n; i++) {
            vt->label(g, i, buf, len);
            put(ctx, i, buf);
        }
        return;
    }
    counted c = {put, ctx, n, 0};
    vt->labels(g, buf, len, count_label, &c);
    if (c.seen != n) {
        fprintf(stderr, "arena: labels() gave %d labels for %d options\n", c.seen, n);
        abort();
    }
}

av *arena_view_tree(const arena_game_vt *vt, const arena_game *g, int seat)
{
    vout o;
    vout_tree(&o);
    vt->view(g, seat, &o);
    return vout_tree_take(&o);
}

av *arena_public_view_tree(const arena_game *g)
{
    if (!g->vt->public_view) return NULL;
    vout o;
    vout_tree(&o);
    g->vt->public_view(g, &o);
    return vout_tree_take(&o);
}

size_t arena_game_event_count(const arena_game *g)
{
    return g->ev.len;
}

size_t arena_game_turn_from(const arena_game *g)
{
    return g->ev.turn;
}

void arena_game_on_turn(arena_game *g, void (*fn)(void *ctx), void *ctx)
{
    g->ev.on_turn = fn;
    g->ev.on_turn_ctx = ctx;
}

const av *arena_game_event(const arena_game *g, size_t i, int seat)
{
    return events_get(&g->ev, i, seat);
}

void arena_game_release_events(arena_game *g, size_t upto)
{
    events_release(&g->ev, upto);
}
