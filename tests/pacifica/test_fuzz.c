/* Random self-play fuzz with invariants after every decision, and the
 * determinism test. PACIFICA_FUZZ_GAMES sets the number of fuzz games. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "builtins.h"
#include "games/pacifica/pacifica.h"
#include "helpers.h"
#include "selfplay.h"
#include "util.h"

typedef struct fuzz_ctx {
    uint8_t level[PAC_NIDOLS];
    int8_t secured_owner[PAC_NIDOLS];
    long games, wins, exhausted, capped;
    const char *end_reason;
} fuzz_ctx;

static bool invariants(const arena_game *gg, void *vctx, char *err, size_t errlen)
{
    const pacifica *g = (const pacifica *)gg;
    fuzz_ctx *x = vctx;
    if (!cards_accounted(g, err, errlen)) return false;
    for (int i = 0; i < PAC_NIDOLS; i++) {
        if (g->idol_level[i] < x->level[i]) {
            snprintf(err, errlen, "idol %d went down", i);
            return false;
        }
        if ((g->idol_level[i] > 0) != (g->idol_owner[i] >= 0)) {
            snprintf(err, errlen, "idol %d owner/level mismatch", i);
            return false;
        }
        if (x->secured_owner[i] >= 0 && g->idol_owner[i] != x->secured_owner[i]) {
            snprintf(err, errlen, "secured idol %d changed hands", i);
            return false;
        }
        x->level[i] = g->idol_level[i];
        if (g->idol_level[i] == PAC_SECURED) x->secured_owner[i] = g->idol_owner[i];
    }
    /* Idols are checked after every change: nobody may show the number of
     * an idol they did not take. */
    for (int s = 0; s < 2 && !g->over; s++) {
        int sym[PS_NSYM], cnt[PC_NCAT];
        pac_symbols(g, s, -1, sym);
        pac_cat_counts(sym, cnt);
        for (int i = 0; i < PC_NCAT; i++)
            if (g->idol_level[i] < PAC_SECURED && cnt[i] >= pac_idol_need(i, g->idol_level[i])) {
                snprintf(err, errlen, "seat %d shows %d for idol %d needing %d", s, cnt[i], i,
                         pac_idol_need(i, g->idol_level[i]));
                return false;
            }
    }
    int sec, owned;
    for (int s = 0; s < 2; s++) {
        owned = pac_idols_owned(g, s, &sec);
        if (!g->over && (owned >= 5 || sec >= 3)) {
            snprintf(err, errlen, "seat %d should have won", s);
            return false;
        }
    }
    if (g->over) {
        x->end_reason = g->end_reason;
        if (g->winner >= 0) {
            owned = pac_idols_owned(g, g->winner, &sec);
            bool by_idols = owned >= 5 || sec >= 3;
            bool by_rule =
                strcmp(g->end_reason, "exhausted") == 0 || strcmp(g->end_reason, "turn-cap") == 0;
            if (!by_idols && !by_rule) {
                snprintf(err, errlen, "winner without a win condition");
                return false;
            }
        } else if (strcmp(g->end_reason, "exhausted") != 0 &&
                   strcmp(g->end_reason, "turn-cap") != 0) {
            snprintf(err, errlen, "no winner and no draw rule");
            return false;
        }
    }
    return true;
}

static long env_long(const char *name, long dflt)
{
    const char *s = getenv(name);
    return s && *s ? strtol(s, NULL, 10) : dflt;
}

static void run_fuzz(const char *p0, const char *p1, long games, uint64_t base)
{
    const char *pols[2] = {p0, p1};
    fuzz_ctx tally = {0};
    for (long i = 0; i < games; i++) {
        fuzz_ctx x = {0};
        memset(x.secured_owner, -1, sizeof x.secured_owner);
        arena_selfplay_opts o = {.seed = base + (uint64_t)i,
                                 .players = 2,
                                 .flags = (i % 16) ? ARENA_GAME_NO_EVENTS : 0,
                                 .max_decisions = 200000,
                                 .check = invariants,
                                 .check_ctx = &x};
        arena_selfplay_stats st;
        char err[256] = "";
        int rc = arena_selfplay(&pacifica_game, pols, &o, &st, err, sizeof err);
        if (rc != 0) fail_msg("game seed %llu: %s", (unsigned long long)o.seed, err);
        assert_true(st.result.over);
        tally.games++;
        if (st.result.ranks[0] != st.result.ranks[1]) tally.wins++;
        assert_non_null(x.end_reason);
        tally.exhausted += strcmp(x.end_reason, "exhausted") == 0;
        tally.capped += strcmp(x.end_reason, "turn-cap") == 0;
    }
    assert_int_equal(tally.games, games);
    print_message("%ld games %s vs %s: %ld decided, %ld exhausted, %ld at the turn cap\n", games,
                  p0, p1, tally.wins, tally.exhausted, tally.capped);
}

static void test_fuzz_random(void **state)
{
    (void)state;
    run_fuzz("random", "random", env_long("PACIFICA_FUZZ_GAMES", 10000), 1);
}

static void test_fuzz_greedy(void **state)
{
    (void)state;
    run_fuzz("greedy", "random", env_long("PACIFICA_FUZZ_GAMES", 10000) / 40, 900000);
}

/* Plays a game recording every label, the omniscient view and all events;
 * returns one string holding everything. */
static char *transcript(uint64_t seed, unsigned flags)
{
    arena_game *g = pacifica_game.create(NULL, 0, seed, 2, flags, NULL, 0);
    assert_non_null(g);
    arena_rng r;
    arena_rng_seed(&r, seed ^ 77);
    abuf b = {0};
    arena_decision d;
    int choice[PAC_MAX_OPTS];
    while (game_decision(g, &d)) {
        char lab[64];
        abuf_addf(&b, "%d %s:", d.seat, d.kind);
        for (int i = 0; i < d.n_options; i++) {
            pacifica_game.label(g, i, lab, sizeof lab);
            abuf_addf(&b, " %s", lab);
        }
        int n = arena_random_choice(&r, &d, choice);
        assert_true(game_apply(g, choice, n));
        abuf_addf(&b, " -> %d\n", choice[0]);
    }
    av *v = game_view(g, -1);
    char *j = av_to_json(v);
    abuf_adds(&b, j);
    free(j);
    av_free(v);
    if (!(flags & ARENA_GAME_NO_EVENTS))
        for (size_t i = 0; i < pacifica_game.event_count(g); i++) {
            char *e = av_to_json(pacifica_game.event(g, i, -1));
            abuf_adds(&b, e);
            free(e);
        }
    game_free(g);
    abuf_addc(&b, '\0');
    return (char *)b.data;
}

static void test_determinism(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 20; seed++) {
        char *a = transcript(seed, 0), *b = transcript(seed, 0);
        assert_string_equal(a, b);
        char *c = transcript(seed + 1000, 0);
        assert_string_not_equal(a, c);
        free(a), free(b), free(c);
        /* Events off must not change the game itself. */
        char *x = transcript(seed, 0), *y = transcript(seed, ARENA_GAME_NO_EVENTS);
        char *cut = strstr(x, "\n{");
        assert_non_null(cut);
        size_t n = (size_t)(cut - x);
        assert_true(strlen(y) >= n);
        assert_memory_equal(x, y, n);
        free(x), free(y);
    }
}

static void test_clone_plays_same(void **state)
{
    (void)state;
    arena_game *g = pacifica_game.create(NULL, 0, 42, 2, 0, NULL, 0);
    arena_rng r;
    arena_rng_seed(&r, 5);
    arena_decision d;
    int ch[PAC_MAX_OPTS];
    for (int i = 0; i < 40 && game_decision(g, &d); i++) {
        int n = arena_random_choice(&r, &d, ch);
        game_apply(g, ch, n);
    }
    arena_game *c = pacifica_game.clone(g);
    arena_rng r2 = r;
    while (game_decision(g, &d)) {
        arena_decision d2;
        assert_true(game_decision(c, &d2));
        assert_int_equal(d.n_options, d2.n_options);
        int n = arena_random_choice(&r, &d, ch);
        int ch2[PAC_MAX_OPTS];
        arena_random_choice(&r2, &d2, ch2);
        assert_true(game_apply(g, ch, n));
        assert_true(game_apply(c, ch2, n));
    }
    assert_false(game_decision(c, &d));
    arena_result a, b;
    pacifica_game.result(g, &a);
    pacifica_game.result(c, &b);
    assert_memory_equal(&a, &b, sizeof a);
    game_free(c);
    game_free(g);
}

/* Over whole random games: labels within a decision are distinct, a seat's
 * view never names a card in the other hand that it did not know, and the other seat's copy of a
 * draw event never names the card. */
static void test_visibility_and_labels(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 30; seed++) {
        arena_game *gg = pacifica_game.create(NULL, 0, seed, 2, 0, NULL, 0);
        const pacifica *g = (const pacifica *)gg;
        arena_rng r;
        arena_rng_seed(&r, seed);
        arena_decision d;
        int ch[PAC_MAX_OPTS];
        while (game_decision(gg, &d)) {
            char labels[PAC_MAX_OPTS][32];
            for (int i = 0; i < d.n_options; i++) {
                pacifica_game.label(gg, i, labels[i], sizeof labels[i]);
                for (int j = 0; j < i; j++)
                    assert_string_not_equal(labels[i], labels[j]);
            }
            for (int s = 0; s < 2; s++) {
                av *v = game_view(gg, s);
                char *j = av_to_json(v);
                for (int i = 0; i < g->hand_n[1 - s]; i++) {
                    /* Unless s knew where the card lay when it was drawn. */
                    if (g->seen[g->hand[1 - s][i]] & (1u << s)) continue;
                    char q[32];
                    snprintf(q, sizeof q, "\"%s\"", g->set.c[g->hand[1 - s][i]].id);
                    if (strstr(j, q)) fail_msg("seat %d sees %s", s, q);
                }
                free(j);
                av_free(v);
            }
            int n = arena_random_choice(&r, &d, ch);
            assert_true(game_apply(gg, ch, n));
        }
        for (size_t i = 0; i < pacifica_game.event_count(gg); i++) {
            const av *all = pacifica_game.event(gg, i, -1);
            const char *type = av_get_str(all, "type");
            assert_non_null(type);
            if (strcmp(type, "draw") != 0) continue;
            int64_t who;
            assert_true(av_get_int(all, "seat", &who));
            const av *other = pacifica_game.event(gg, i, 1 - (int)who);
            if (other) assert_null(av_get(other, "card"));
            const av *own = pacifica_game.event(gg, i, (int)who);
            if (own) assert_non_null(av_get(own, "card"));
        }
        game_free(gg);
    }
}

int main(void)
{
    arena_builtins_install();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_determinism),           cmocka_unit_test(test_clone_plays_same),
        cmocka_unit_test(test_visibility_and_labels), cmocka_unit_test(test_fuzz_random),
        cmocka_unit_test(test_fuzz_greedy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
