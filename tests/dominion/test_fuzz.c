/* Self-play fuzz: random-vs-random games over random kingdoms and 2-4
 * players, with invariants checked after every decision; plus the
 * determinism test. DOMINION_FUZZ_GAMES sets the number of games. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "builtins.h"
#include "selfplay.h"
#include "state.h"
#include "util.h"

/* Card conservation, no negative counts, what everyone knows of a hand is
 * in it, a well-formed decision whose labels are distinct. */
static bool check(const arena_game *gg, void *ctx, char *err, size_t errlen)
{
    (void)ctx;
    const dom_game *g = (const dom_game *)gg;
    int total = 0;
    for (int c = 0; c < DOM_NCARDS; c++)
        total += g->supply[c] + g->trash[c];
    for (int s = 0; s < g->np; s++) {
        total += dom_owned(g, s);
        if (g->p[s].z[Z_ASIDE].n && !g->has_dec) {
            snprintf(err, errlen, "cards left aside between decisions");
            return false;
        }
        if (g->p[s].coin_tokens < 0) {
            snprintf(err, errlen, "negative coin tokens");
            return false;
        }
        /* determinize keeps the hand cards everyone saw: never more than
         * the hand holds */
        for (int c = 0; c < DOM_NCARDS; c++)
            if (g->p[s].hand_seen[c] > dom_count(&g->p[s].z[Z_HAND], c)) {
                snprintf(err, errlen, "seat %d: %d %s seen in a hand holding fewer", s,
                         g->p[s].hand_seen[c], dom_cards[c].name);
                return false;
            }
    }
    if (total != g->total_cards) {
        snprintf(err, errlen, "card count %d, expected %d", total, g->total_cards);
        return false;
    }
    if (g->actions < 0 || g->buys < 0 || g->coins < 0) {
        snprintf(err, errlen, "negative actions/buys/coins");
        return false;
    }
    arena_decision d;
    if (!gg->vt->decision(gg, &d)) {
        arena_result r;
        gg->vt->result(gg, &r);
        if (!r.over) {
            snprintf(err, errlen, "no decision but not over");
            return false;
        }
        return true;
    }
    if (d.n_options < 1 || d.pick_min < 0 || d.pick_min > d.pick_max || d.pick_max > d.n_options ||
        d.seat < 0 || d.seat >= g->np) {
        snprintf(err, errlen, "malformed decision %s", d.kind);
        return false;
    }
    /* the contract: any distinct indices within [pick_min, pick_max] are
     * accepted; try the extremes (last indices first) on a clone */
    if (ctx) {
        int ch[DOM_OPTCAP];
        for (int k = 0; k < 2; k++) {
            int n = k ? d.pick_max : d.pick_min;
            if (n == 0 && k) continue;
            for (int i = 0; i < n; i++)
                ch[i] = d.n_options - 1 - i;
            arena_game *c = gg->vt->clone(gg);
            bool ok = gg->vt->apply(c, ch, n);
            game_free(c);
            if (!ok) {
                snprintf(err, errlen, "%s rejected a legal pick of %d", d.kind, n);
                return false;
            }
        }
    }
    char a[64], b[64];
    for (int i = 0; i < d.n_options; i++) {
        gg->vt->label(gg, i, a, sizeof a);
        for (int j = i + 1; j < d.n_options; j++) {
            gg->vt->label(gg, j, b, sizeof b);
            if (strcmp(a, b) == 0) {
                snprintf(err, errlen, "duplicate label %s in %s", a, d.kind);
                return false;
            }
        }
    }
    return true;
}

static long env_long(const char *name, long dflt)
{
    const char *v = getenv(name);
    return v && *v ? strtol(v, NULL, 10) : dflt;
}

static void test_fuzz_random_games_keep_invariants(void **state)
{
    (void)state;
    long games = env_long("DOMINION_FUZZ_GAMES", 4000);
    const char *pol[4] = {"random", "random", "random", "random"};
    long ended_by_rule = 0;
    for (long i = 0; i < games; i++) {
        arena_selfplay_opts o = {0};
        o.seed = (uint64_t)i * 7919u + 1;
        o.players = 2 + (int)(i % 3);
        o.flags = (i % 10 == 0) ? 0 : ARENA_GAME_NO_EVENTS;
        o.max_decisions = 200000;
        o.check = check;
        o.check_ctx = (i % 5 == 0) ? &o : NULL; /* every 5th game: clone checks */
        arena_selfplay_stats st;
        char err[256];
        int rc = arena_selfplay(&dominion_game, pol, &o, &st, err, sizeof err);
        if (rc != 0) fail_msg("game %ld: %s", i, err);
        assert_true(st.result.over);
        if (st.result.turns < 100) ended_by_rule++;
    }
    /* the turn limit is a backstop; some random games end by the rules */
    assert_true(games < 20 || ended_by_rule > 0);
}

/* The built-in bots over random kingdoms, mixed with random players. */
static void test_fuzz_bots_random_kingdoms(void **state)
{
    (void)state;
    long games = env_long("DOMINION_FUZZ_GAMES", 4000) / 10;
    const char *pool[] = {"engine",
                          "bmu",
                          "big-money",
                          "random",
                          "bm-with:Throne Room",
                          "bm-with:Witch",
                          "bm-with:Ambassador",
                          "bm-with:Library"};
    for (long i = 0; i < games; i++) {
        const char *pol[4];
        for (int s = 0; s < 4; s++)
            pol[s] = pool[(i * 3 + s * 5) % 8];
        arena_selfplay_opts o = {0};
        o.seed = (uint64_t)i * 104729u + 5;
        o.players = 2 + (int)(i % 3);
        o.flags = ARENA_GAME_NO_EVENTS;
        o.max_decisions = 200000;
        o.check = check;
        arena_selfplay_stats st;
        char err[256];
        if (arena_selfplay(&dominion_game, pol, &o, &st, err, sizeof err) != 0)
            fail_msg("game %ld: %s", i, err);
        assert_true(st.result.over);
    }
}

/* Plays a game with fixed random bots and returns its JSON event log. */
static char *play_log(uint64_t seed, const char *kingdom)
{
    arena_setting set[1] = {{"kingdom", kingdom}};
    char err[256];
    arena_game *g = dominion_game.create(set, 1, seed, 3, 0, err, sizeof err);
    assert_non_null(g);
    arena_rng r;
    arena_rng_seed(&r, 99);
    arena_decision d;
    int choice[DOM_OPTCAP];
    abuf log = {0};
    while (game_decision(g, &d)) {
        int n = arena_random_choice(&r, &d, choice);
        assert_true(game_apply(g, choice, n));
    }
    for (size_t i = 0; i < g->vt->event_count(g); i++) {
        char *j = av_to_json(g->vt->event(g, i, -1));
        abuf_adds(&log, j);
        abuf_addc(&log, '\n');
        free(j);
    }
    av *v = game_view(g, -1);
    char *j = av_to_json(v);
    abuf_adds(&log, j);
    free(j);
    av_free(v);
    game_free(g);
    return (char *)log.data;
}

static void test_determinism_same_seed_same_log(void **state)
{
    (void)state;
    const char *ks[] = {"random", "high-seas", "first-game", "shipwrecks"};
    for (int k = 0; k < 4; k++) {
        char *a = play_log(42 + (uint64_t)k, ks[k]);
        char *b = play_log(42 + (uint64_t)k, ks[k]);
        assert_string_equal(a, b);
        char *c = play_log(43 + (uint64_t)k, ks[k]);
        assert_true(strcmp(a, c) != 0);
        free(a);
        free(b);
        free(c);
    }
}

/* A clone taken mid-game continues exactly like the original. */
static void test_clone_continues_identically(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 20; seed++) {
        char err[256];
        arena_game *g =
            dominion_game.create(NULL, 0, seed, 2 + (int)(seed % 3), 0, err, sizeof err);
        assert_non_null(g);
        arena_rng r;
        arena_rng_seed(&r, seed);
        arena_decision d;
        int ch[DOM_OPTCAP];
        for (int i = 0; i < 150 && game_decision(g, &d); i++)
            assert_true(game_apply(g, ch, arena_random_choice(&r, &d, ch)));
        arena_game *c = dominion_game.clone(g);
        arena_rng r2 = r;
        while (game_decision(g, &d))
            assert_true(game_apply(g, ch, arena_random_choice(&r, &d, ch)));
        while (game_decision(c, &d))
            assert_true(game_apply(c, ch, arena_random_choice(&r2, &d, ch)));
        av *v1 = game_view(g, -1), *v2 = game_view(c, -1);
        assert_true(av_equal(v1, v2));
        assert_int_equal(dominion_game.event_count(c), 0); /* clones record no events */
        av_free(v1);
        av_free(v2);
        game_free(c);
        game_free(g);
    }
}

int main(void)
{
    arena_builtins_install();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fuzz_random_games_keep_invariants),
        cmocka_unit_test(test_fuzz_bots_random_kingdoms),
        cmocka_unit_test(test_determinism_same_seed_same_log),
        cmocka_unit_test(test_clone_continues_identically),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
