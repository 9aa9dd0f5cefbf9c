/* Built-in Dominion bots: their buy rules, that bm-with works with the
 * listed cards, and strength (seat-swapped self-play). */
#include "builtins.h"
#include "harness.h"
#include "selfplay.h"

/* Seat 0's score in [0,1] over `games` seat-swapped pairs. */
static double match(const char *a, const char *b, const char *kingdom, int pairs)
{
    arena_setting set[1] = {{"kingdom", kingdom}};
    double pts = 0;
    for (int i = 0; i < pairs; i++)
        for (int swap = 0; swap < 2; swap++) {
            const char *pol[2] = {swap ? b : a, swap ? a : b};
            arena_selfplay_opts o = {0};
            o.settings = set;
            o.n_settings = 1;
            o.seed = 1000 + (uint64_t)i;
            o.players = 2;
            o.flags = ARENA_GAME_NO_EVENTS;
            arena_selfplay_stats stt;
            char err[256];
            if (arena_selfplay(&dominion_game, pol, &o, &stt, err, sizeof err) != 0)
                fail_msg("%s", err);
            int ra = stt.result.ranks[swap], rb = stt.result.ranks[1 - swap];
            pts += ra < rb ? 1 : ra == rb ? 0.5 : 0;
        }
    return pts / (2.0 * pairs);
}

/* Builds a buy decision for seat 0 holding the given treasures. */
static int buy_with(const char *spec, const char *hand)
{
    const char *arg = NULL;
    const arena_policy_vt *p = arena_find_policy("dominion", spec, &arg);
    assert_non_null(p);
    char err[128];
    void *self = p->create(arg, 0, 1, err, sizeof err);
    assert_non_null(self);
    set(0, Z_HAND, hand);
    begin(0);
    arena_decision d;
    assert_true(game_decision(&G->base, &d));
    assert_string_equal(d.kind, "buy");
    int ch[DOM_OPTCAP];
    int n = p->decide(self, &G->base, &d, ch);
    assert_int_equal(n, 1);
    p->free(self);
    int o = G->dec.opt[ch[0]];
    return dom_opt_special(o) ? -1 : dom_opt_card(o);
}

static void test_bot_big_money_buy_rule(void **st)
{
    (void)st;
    mk(2, "Smithy");
    assert_int_equal(buy_with("big-money", "Gold,Gold,Silver"), C_PROVINCE);
    assert_int_equal(buy_with("big-money", "Gold,Silver,Copper"), C_GOLD);
    assert_int_equal(buy_with("big-money", "Silver,Copper"), C_SILVER);
    assert_int_equal(buy_with("big-money", "Copper,Copper"), -1);
}

static void test_bot_bmu_buy_rule(void **st)
{
    (void)st;
    mk(2, "Smithy");
    /* money owned: 8 in hand only -> not above 18: Gold instead of Province */
    assert_int_equal(buy_with("bmu", "Gold,Gold,Silver"), C_GOLD);
    set(0, Z_DISCARD, "Gold,Gold,Gold,Gold");
    assert_int_equal(buy_with("bmu", "Gold,Gold,Silver"), C_PROVINCE);
    G->supply[C_PROVINCE] = 4;
    set(0, Z_DISCARD, "");
    assert_int_equal(buy_with("bmu", "Gold,Silver"), C_DUCHY);
    G->supply[C_PROVINCE] = 2;
    assert_int_equal(buy_with("bmu", "Copper,Copper"), C_ESTATE);
    G->supply[C_PROVINCE] = 6;
    assert_int_equal(buy_with("bmu", "Gold,Silver"), C_DUCHY);
    assert_int_equal(buy_with("bmu", "Gold,Copper"), C_SILVER);
    G->supply[C_PROVINCE] = 8;
    assert_int_equal(buy_with("bmu", "Gold,Gold"), C_GOLD);
}

static void test_bot_bm_with_buys_its_card(void **st)
{
    (void)st;
    mk(2, "Smithy,Witch");
    assert_int_equal(buy_with("bm-with:Smithy", "Silver,Silver"), C_SMITHY);
    set(0, Z_DISCARD, "Smithy");
    assert_int_equal(buy_with("bm-with:Smithy", "Silver,Silver"), C_SILVER);
    char err[128];
    const char *arg;
    const arena_policy_vt *p = arena_find_policy("dominion", "bm-with:Nope", &arg);
    assert_non_null(p);
    assert_null(p->create(arg, 0, 1, err, sizeof err));
}

typedef struct {
    int card, max_owned;
} own_ctx;

static bool track(const arena_game *gg, void *ctx, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    own_ctx *o = ctx;
    int k = dom_owned_count((const dom_game *)gg, 0, o->card);
    if (k > o->max_owned) o->max_owned = k;
    return true;
}

static void test_bot_bm_with_works_for_listed_cards(void **st)
{
    (void)st;
    const char *cards[] = {"Smithy",     "Witch",        "Militia",    "Sea Hag", "Wharf",
                           "Ghost Ship", "Council Room", "Laboratory", "Moat"};
    for (size_t i = 0; i < sizeof cards / sizeof cards[0]; i++) {
        char k[300], spec[64];
        /* the card plus fillers */
        mk(2, cards[i]);
        av *s = dominion_game.settings(&G->base);
        const av *kl = av_get(s, "kingdom");
        k[0] = 0;
        for (size_t j = 0; j < av_len(kl); j++) {
            strcat(k, j ? "," : "");
            strcat(k, kl->u.list.items[j]->u.str.s);
        }
        av_free(s);
        snprintf(spec, sizeof spec, "bm-with:%s", cards[i]);
        arena_setting set[1] = {{"kingdom", k}};
        const char *pol[2] = {spec, "bmu"};
        for (int gnum = 0; gnum < 5; gnum++) {
            own_ctx oc = {dom_card_by_name(cards[i]), 0};
            arena_selfplay_opts o = {0};
            o.settings = set;
            o.n_settings = 1;
            o.seed = 77 + (uint64_t)gnum;
            o.players = 2;
            o.flags = ARENA_GAME_NO_EVENTS;
            o.check = track;
            o.check_ctx = &oc;
            arena_selfplay_stats stt;
            char err[256];
            if (arena_selfplay(&dominion_game, pol, &o, &stt, err, sizeof err) != 0)
                fail_msg("%s: %s", spec, err);
            assert_true(stt.result.over);
            assert_true(oc.max_owned >= 1);
            assert_true(oc.max_owned <= 2);
        }
    }
}

static long env_long(const char *name, long dflt)
{
    const char *v = getenv(name);
    return v && *v ? strtol(v, NULL, 10) : dflt;
}

static void test_bot_smithy_bm_beats_big_money(void **st)
{
    (void)st;
    int pairs = (int)env_long("DOMINION_STRENGTH_PAIRS", 150);
    double s = match("bm-with:Smithy", "big-money", "first-game", pairs);
    printf("# bm-with:Smithy vs big-money: %.3f\n", s);
    assert_true(s > 0.6);
}

static void test_bot_engine_beats_bmu(void **st)
{
    (void)st;
    int pairs = (int)env_long("DOMINION_STRENGTH_PAIRS", 150);
    double s = match("engine", "bmu", "give-and-take", pairs);
    printf("# engine vs bmu on give-and-take: %.3f\n", s);
    assert_true(s > 0.6);
}

static void test_bot_witch_bm_beats_bmu(void **st)
{
    (void)st;
    int pairs = (int)env_long("DOMINION_STRENGTH_PAIRS", 150);
    double s = match("bm-with:Witch", "bmu", "give-and-take", pairs);
    printf("# bm-with:Witch vs bmu: %.3f\n", s);
    assert_true(s > 0.6);
}

int main(void)
{
    arena_builtins_install();
#define T(f) cmocka_unit_test_teardown(f, teardown)
    const struct CMUnitTest tests[] = {
        T(test_bot_big_money_buy_rule),        T(test_bot_bmu_buy_rule),
        T(test_bot_bm_with_buys_its_card),     T(test_bot_bm_with_works_for_listed_cards),
        T(test_bot_smithy_bm_beats_big_money), T(test_bot_engine_beats_bmu),
        T(test_bot_witch_bm_beats_bmu),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
