/* The decide message written straight into a buffer (decide_write) must be
 * byte for byte what codec_encode writes for its tree (decide_tree), in
 * both codecs: for every game at many random states, and for texts and
 * counts at the edges of msgpack's forms and JSON's escapes. A game's
 * labels(), which both use, names each option as its label() does. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decide.h"
#include "game.h"
#include "policy.h"
#include "rng.h"

/* An int that often sits on a msgpack form's boundary. */
static int64_t edgy_int(arena_rng *r)
{
    static const int64_t edges[] = {
        0,           1,          31,        32,  127, 128,  255,  256,    65535,  65536,
        4294967295,  4294967296, -1,        -32, -33, -128, -129, -32768, -32769, -2147483648LL,
        -2147483649, INT64_MAX,  INT64_MIN, 1000};
    if (arena_rng_below(r, 3) == 0) return (int64_t)arena_rng_next(r);
    return edges[arena_rng_below(r, sizeof edges / sizeof *edges)];
}

/* Appends both forms after the same prefix and compares them (the view
 * written straight into the frame by vt's view, and as its tree); with
 * texts in valid UTF-8 (as games write them), checks that the msgpack
 * payload decodes back to the tree. The direct form reads the events
 * (copied into events, which is freed here) from the game's own trees
 * when idx is given (their indices), through cache when that is not NULL
 * too. */
static void check_both(const arena_game_vt *vt, const arena_game *g, const arena_decision *d,
                       uint64_t id, av *events, const size_t *idx, evcache *cache,
                       const decide_clock *c, bool utf8)
{
    size_t n = av_len(events);
    const av **evs = calloc(n ? n : 1, sizeof *evs);
    for (size_t i = 0; i < n; i++)
        evs[i] = idx ? vt->event(g, idx[i], d->seat) : events->u.list.items[i];
    decide_events de = {evs, idx, n, cache};
    for (int k = 0; k < 2; k++) {
        codec_kind codec = k ? CODEC_JSON : CODEC_MSGPACK;
        abuf direct = {0}, tree = {0};
        abuf_adds(&direct, "prefix");
        abuf_adds(&tree, "prefix");
        decide_write(codec, &direct, vt, g, d, id, &de, c);
        av *t = decide_tree(vt, g, d, id, av_copy(events), c);
        codec_encode(codec, t, &tree);
        if (direct.len != tree.len || memcmp(direct.data, tree.data, tree.len) != 0)
            fail_msg("%s decide differs for %s at '%s': %zu bytes direct, %zu from the tree",
                     codec_name(codec), g->vt->name, d->kind, direct.len, tree.len);
        assert_int_equal(direct.data[direct.len], 0); /* abuf stays NUL-terminated */
        if (codec == CODEC_MSGPACK && utf8) {
            char err[200] = "";
            av *back = msgpack_decode(direct.data + 10, direct.len - 10, err, sizeof err);
            if (!back) fail_msg("direct decide does not decode: %s", err);
            assert_true(av_equal(back, t));
            av_free(back);
        }
        av_free(t);
        abuf_free(&direct);
        abuf_free(&tree);
    }
    av_free(events);
    free(evs);
}

typedef struct seen_labels {
    const arena_game_vt *vt;
    const arena_game *g;
    int n;
} seen_labels;

static void compare_label(void *ctx, int i, const char *label)
{
    seen_labels *c = ctx;
    char one[512];
    c->vt->label(c->g, i, one, sizeof one);
    if (strcmp(one, label) != 0)
        fail_msg("%s: labels() gives option %d as '%s', label() as '%s'", c->vt->name, i, label,
                 one);
    c->n++;
}

/* A game's labels(), where it has one, names every option as label() does. */
static void check_labels(const arena_game_vt *vt, const arena_game *g, const arena_decision *d)
{
    if (!vt->labels) return;
    char buf[512];
    seen_labels c = {vt, g, 0};
    vt->labels(g, buf, sizeof buf, compare_label, &c);
    assert_int_equal(c.n, d->n_options);
}

/* Plays random games of one game and checks the decide of every state. */
static void check_game(const arena_game_vt *vt, int players, uint64_t seed, int max_decisions)
{
    char err[200] = "";
    arena_game *g = vt->create(NULL, 0, seed, players, 0, err, sizeof err);
    if (!g) fail_msg("%s with %d players: %s", vt->name, players, err);
    arena_rng r;
    arena_rng_seed(&r, seed);
    size_t cursor[ARENA_MAX_SEATS] = {0};
    int *choice = NULL;
    size_t *idx = NULL;
    /* As the referee does: each event encoded once for all the seats, and
     * released (with its bytes) once every seat has had it. */
    evcache cache = {0};
    arena_decision d;
    int decisions = 0;
    for (; decisions < max_decisions && vt->decision(g, &d); decisions++) {
        int s = d.seat;
        av *events = av_list();
        size_t ne = vt->event_count(g);
        idx = realloc(idx, (ne + 1) * sizeof *idx);
        for (size_t i = cursor[s]; i < ne; i++) {
            const av *e = vt->event(g, i, s);
            if (e) idx[av_len(events)] = i, av_push(events, av_copy(e));
        }
        cursor[s] = ne;
        decide_clock c = {edgy_int(&r), edgy_int(&r), edgy_int(&r)};
        if (arena_rng_below(&r, 3) == 0) c.game_ms = -1;
        uint64_t id = arena_rng_below(&r, 2) ? (uint64_t)decisions + 1 : arena_rng_next(&r);
        check_both(vt, g, &d, id, events, idx, &cache, &c, true);
        check_labels(vt, g, &d);
        size_t upto = ne;
        for (int p = 0; p < players; p++)
            upto = cursor[p] < upto ? cursor[p] : upto;
        arena_game_release_events(g, upto);
        evcache_release(&cache, upto);
        choice = realloc(choice, (size_t)d.n_options * sizeof *choice);
        int n = arena_random_choice(&r, &d, choice);
        assert_true(vt->apply(g, choice, n));
    }
    assert_true(decisions > 0);
    free(choice);
    free(idx);
    evcache_free(&cache);
    vt->free(g);
}

static void test_direct_decide_matches_tree_in_every_game(void **st)
{
    (void)st;
    int games = 0;
    for (const arena_game_vt *const *v = arena_games(true); *v; v++) {
        const arena_game_vt *vt = *v;
        for (uint64_t seed = 1; seed <= 4; seed++) {
            int players = seed % 2 ? vt->min_players : vt->max_players;
            check_game(vt, players, seed * 7919, 1500);
        }
        games++;
    }
    assert_true(games >= 4); /* nim, Dominion, Pacifica, Xibalba at least */
}

/* A game whose texts and counts are chosen by the test. */
typedef struct {
    arena_game base;
    const char *prompt;
    const char *const *labels;
    const av *view;
} fake_game;

static void fake_view(const arena_game *g, int seat, vout *o)
{
    (void)seat;
    vo_value(o, ((const fake_game *)g)->view);
}

static void fake_prompt(const arena_game *g, char *buf, size_t len)
{
    snprintf(buf, len, "%s", ((const fake_game *)g)->prompt);
}

static void fake_label(const arena_game *g, int i, char *buf, size_t len)
{
    snprintf(buf, len, "%s#%d", ((const fake_game *)g)->labels[i % 4], i);
}

static void test_direct_decide_matches_tree_at_the_edges(void **st)
{
    (void)st;
    char s31[32], s32[33], s255[256], s256[257], s600[601];
    memset(s31, 'a', 31), s31[31] = 0;
    memset(s32, 'b', 32), s32[32] = 0;
    memset(s255, 'c', 255), s255[255] = 0;
    memset(s256, 'd', 256), s256[256] = 0;
    memset(s600, 'e', 600), s600[600] = 0; /* cut at the game's buffer */
    const char *texts[] = {"",
                           "say \"hi\" \\ there",
                           "tab\there\nnew line \x01\x1f\x7f",
                           "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x82\xa1",
                           "bad \xff\xfe utf-8 \xc3",
                           s31,
                           s32,
                           s255,
                           s256,
                           s600};
    size_t nt = sizeof texts / sizeof *texts;
    arena_game_vt vt = {
        .name = "fake", .prompt = fake_prompt, .label = fake_label, .view = fake_view};
    arena_rng r;
    arena_rng_seed(&r, 42);
    int options[] = {1, 15, 16, 17, 300, 70000};
    for (size_t t = 0; t < nt; t++) {
        for (size_t o = 0; o < sizeof options / sizeof *options; o++) {
            if (options[o] > 65535 && t > 1) continue; /* list32 once is enough */
            const char *labels[4] = {texts[t], texts[(t + 1) % nt], texts[(t + 3) % nt],
                                     texts[(t + 5) % nt]};
            fake_game g = {.base = {.vt = &vt}, .prompt = texts[t], .labels = labels};
            arena_decision d = {.seat = 0,
                                .kind = texts[(t + 2) % nt],
                                .n_options = options[o],
                                .pick_min = (int)arena_rng_below(&r, 2),
                                .pick_max = options[o],
                                .pick_ordered = arena_rng_below(&r, 2)};
            av *view = av_map();
            av_set_str(view, texts[(t + 4) % nt][0] ? "k" : "", texts[(t + 4) % nt]);
            av_set(view, "f", av_float(0.1 * (double)t));
            av_set(view, "n", av_nil());
            g.view = view;
            av *events = av_list();
            for (size_t e = 0; e < o * 5; e++)
                av_push(events, av_set_int(av_map(), "e", edgy_int(&r)));
            decide_clock c = {edgy_int(&r), edgy_int(&r), t % 3 ? edgy_int(&r) : -1};
            bool utf8 = strchr(texts[t], '\xff') == NULL && strchr(labels[1], '\xff') == NULL &&
                        strchr(labels[2], '\xff') == NULL && strchr(labels[3], '\xff') == NULL &&
                        strchr(d.kind, '\xff') == NULL &&
                        strchr(texts[(t + 4) % nt], '\xff') == NULL;
            check_both(&vt, &g.base, &d, (uint64_t)edgy_int(&r), events, NULL, NULL, &c, utf8);
            av_free(view);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_direct_decide_matches_tree_in_every_game),
        cmocka_unit_test(test_direct_decide_matches_tree_at_the_edges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
