/* The referee's hello, event, over, error and bye written straight into a
 * buffer (msg_write) must be byte for byte what codec_encode writes for
 * msg_encode's tree, in both codecs: for every game (its settings in hello,
 * its views and events as they are during and after random play, over's
 * view also as the game writes it into the frame), and for
 * counts, numbers and texts at the edges of msgpack's forms and JSON's
 * escapes, NULL fields, forfeits and the most seats. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "msgwrite.h"
#include "policy.h"
#include "rng.h"

static int checked; /* messages compared, so that a test cannot pass empty */

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

/* Both forms after the same prefix, compared; with texts in valid UTF-8,
 * the msgpack payload must also decode back to a message of the type. */
static void check(const msg *m, bool utf8)
{
    av *t = msg_encode(m);
    for (int k = 0; k < 2; k++) {
        codec_kind codec = k ? CODEC_JSON : CODEC_MSGPACK;
        abuf direct = {0}, tree = {0};
        abuf_adds(&direct, "prefix");
        abuf_adds(&tree, "prefix");
        msg_write(codec, &direct, m);
        codec_encode(codec, t, &tree);
        if (direct.len != tree.len || memcmp(direct.data, tree.data, tree.len) != 0)
            fail_msg("%s %s differs: %zu bytes direct, %zu from the tree", codec_name(codec),
                     msg_type_name(m->type), direct.len, tree.len);
        assert_int_equal(direct.data[direct.len], 0); /* abuf stays NUL-terminated */
        if (codec == CODEC_MSGPACK && utf8) {
            char err[200] = "";
            av *back = msgpack_decode(direct.data + 10, direct.len - 10, err, sizeof err);
            if (!back) fail_msg("direct %s does not decode: %s", msg_type_name(m->type), err);
            assert_true(av_equal(back, t));
            av_free(back);
        }
        abuf_free(&direct);
        abuf_free(&tree);
    }
    av_free(t);
    checked++;
}

typedef struct game_seat {
    const arena_game_vt *vt;
    const arena_game *g;
    int seat;
} game_seat;

static void write_view(vout *o, void *ctx)
{
    const game_seat *gs = ctx;
    gs->vt->view(gs->g, gs->seat, o);
}

/* The over the referee writes with the game's view straight into the
 * frame (msg_write_over) against the tree of ov, which holds that view. */
static void check_over_direct(const msg *ov, const arena_game_vt *vt, const arena_game *g, int s)
{
    av *t = msg_encode(ov);
    game_seat gs = {vt, g, s};
    for (int k = 0; k < 2; k++) {
        codec_kind codec = k ? CODEC_JSON : CODEC_MSGPACK;
        abuf direct = {0}, tree = {0};
        msg_write_over(codec, &direct, &ov->u.over, write_view, &gs);
        codec_encode(codec, t, &tree);
        if (direct.len != tree.len || memcmp(direct.data, tree.data, tree.len) != 0)
            fail_msg("%s over of %s with the view written by the game differs: %zu bytes, %zu "
                     "from the tree",
                     codec_name(codec), vt->name, direct.len, tree.len);
        abuf_free(&direct);
        abuf_free(&tree);
    }
    av_free(t);
    checked++;
}

static msg hello_of(const arena_game_vt *vt, const arena_game *g, int seat, int players,
                    char **names, const char *match, arena_rng *r)
{
    msg h = {.type = MSG_HELLO};
    h.u.hello.protocol = PROTOCOL_VERSION;
    h.u.hello.game = (char *)vt->name;
    h.u.hello.options = vt->settings(g);
    h.u.hello.seat = seat;
    h.u.hello.players = players;
    h.u.hello.names = names;
    h.u.hello.n_names = (size_t)players;
    h.u.hello.match = (char *)match;
    msg_clock *c = &h.u.hello.clock;
    c->move_ms = edgy_int(r);
    c->bank_ms = edgy_int(r);
    c->game_ms = arena_rng_below(r, 3) ? edgy_int(r) : -1;
    c->startup_ms = arena_rng_below(r, 4) ? edgy_int(r) : -1;
    snprintf(c->mode, sizeof c->mode, "%s", arena_rng_below(r, 2) ? "cpu" : "wall");
    return h;
}

/* Plays one random game: hello for every seat, an event message with each
 * seat's news along the way, over with every seat's final view (some
 * seats marked forfeited). */
static void check_game(const arena_game_vt *vt, int players, uint64_t seed)
{
    char err[200] = "";
    arena_game *g = vt->create(NULL, 0, seed, players, 0, err, sizeof err);
    if (!g) fail_msg("%s with %d players: %s", vt->name, players, err);
    arena_rng r;
    arena_rng_seed(&r, seed);
    char *names[ARENA_MAX_SEATS];
    char name_buf[ARENA_MAX_SEATS][32];
    for (int s = 0; s < players; s++) {
        snprintf(name_buf[s], sizeof name_buf[s], "bot-%d \"%s\"", s, vt->name);
        names[s] = name_buf[s];
    }
    for (int s = 0; s < players; s++) {
        msg h = hello_of(vt, g, s, players, names, "m-0123456789abcdef", &r);
        check(&h, true);
        av_free(h.u.hello.options);
    }
    size_t cursor[ARENA_MAX_SEATS] = {0};
    int *choice = NULL;
    arena_decision d;
    for (int n = 0; n < 3000 && vt->decision(g, &d); n++) {
        choice = realloc(choice, (size_t)d.n_options * sizeof *choice);
        int k = arena_random_choice(&r, &d, choice);
        assert_true(vt->apply(g, choice, k));
        if (arena_rng_below(&r, 8)) continue;
        int s = (int)arena_rng_below(&r, (uint64_t)players);
        msg ev = {.type = MSG_EVENT};
        ev.u.event.events = av_list();
        size_t ne = vt->event_count(g);
        for (size_t i = cursor[s]; i < ne; i++) {
            const av *e = vt->event(g, i, s);
            if (e) av_push(ev.u.event.events, av_copy(e));
        }
        cursor[s] = ne;
        check(&ev, true);
        av_free(ev.u.event.events);
    }
    free(choice);
    arena_result res;
    vt->result(g, &res);
    int64_t ranks[ARENA_MAX_SEATS], scores[ARENA_MAX_SEATS];
    msg_forfeit ff[ARENA_MAX_SEATS];
    static const char *const causes[] = {"timeout", "illegal", "crash", "protocol"};
    size_t nf = 0;
    for (int t = 0; t < players; t++) {
        ranks[t] = res.ranks[t];
        scores[t] = res.scores[t];
        if (seed % 2 && arena_rng_below(&r, 2)) {
            ff[nf].seat = t;
            snprintf(ff[nf].cause, sizeof ff[nf].cause, "%s", causes[arena_rng_below(&r, 4)]);
            nf++;
        }
    }
    for (int s = 0; s < players; s++) {
        msg ov = {.type = MSG_OVER};
        ov.u.over.ranks = ranks;
        ov.u.over.scores = scores;
        ov.u.over.n_seats = (size_t)players;
        ov.u.over.reason = nf ? "forfeit" : "normal";
        ov.u.over.forfeits = ff;
        ov.u.over.n_forfeits = nf;
        ov.u.over.view = arena_view_tree(vt, g, s);
        check(&ov, true);
        check_over_direct(&ov, vt, g, s);
        av_free(ov.u.over.view);
    }
    vt->free(g);
}

static void test_direct_messages_match_tree_in_every_game(void **st)
{
    (void)st;
    int games = 0;
    checked = 0;
    for (const arena_game_vt *const *v = arena_games(true); *v; v++) {
        const arena_game_vt *vt = *v;
        for (uint64_t seed = 1; seed <= 4; seed++) {
            int players = seed % 2 ? vt->min_players : vt->max_players;
            check_game(vt, players, seed * 7919);
        }
        games++;
    }
    assert_true(games >= 4); /* nim, Dominion, Pacifica, Xibalba at least */
    assert_true(checked > 16 * games);
}

static void test_direct_messages_match_tree_at_the_edges(void **st)
{
    (void)st;
    checked = 0;
    char s31[32], s32[33], s255[256], s256[257], s70k[70001];
    memset(s31, 'a', 31), s31[31] = 0;
    memset(s32, 'b', 32), s32[32] = 0;
    memset(s255, 'c', 255), s255[255] = 0;
    memset(s256, 'd', 256), s256[256] = 0;
    memset(s70k, 'e', 70000), s70k[70000] = 0;
    char *texts[] = {"",
                     "say \"hi\" \\ there",
                     "tab\there\nnew line \x01\x1f\x7f",
                     "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x82\xa1 </script>",
                     "bad \xff\xfe utf-8 \xc3",
                     s31,
                     s32,
                     s255,
                     s256,
                     s70k};
    size_t nt = sizeof texts / sizeof *texts;
    arena_rng r;
    arena_rng_seed(&r, 4242);
    /* Seat counts past what a game allows too: the lists' forms change at 16. */
    static const size_t seat_counts[] = {0, 1, 2, ARENA_MAX_SEATS, 15, 16, 17};
    enum { MAX_N = 17 };
    for (size_t t = 0; t < nt; t++) {
        for (size_t c = 0; c < sizeof seat_counts / sizeof *seat_counts; c++) {
            size_t n = seat_counts[c];
            char *names[MAX_N];
            int64_t ranks[MAX_N], scores[MAX_N];
            msg_forfeit ff[MAX_N];
            for (size_t i = 0; i < n; i++) {
                /* A NULL name goes out as "" (msg_encode's default). */
                names[i] = i == 3 ? NULL : texts[(t + i) % nt];
                ranks[i] = edgy_int(&r);
                scores[i] = edgy_int(&r);
                ff[i].seat = edgy_int(&r);
                snprintf(ff[i].cause, sizeof ff[i].cause, "%s", i % 2 ? "timeout" : "protocol");
            }
            /* msgpack_decode takes valid UTF-8 only: the check after it
             * is left out when an invalid text is in play. */
            bool utf8 = true;
            for (size_t i = 0; i < 4; i++)
                utf8 &= strchr(texts[(t + i) % nt], '\xff') == NULL;
            for (size_t i = 0; i < n; i++)
                utf8 &= !names[i] || strchr(names[i], '\xff') == NULL;
            av *opts = av_map();
            av_set_str(opts, texts[t][0] ? texts[t] : "k", texts[(t + 1) % nt]);
            av_set(opts, "f", av_float(0.25 * (double)t));
            av_set(opts, "n", av_nil());
            av_set(opts, "l", av_list());

            msg h = {.type = MSG_HELLO};
            h.u.hello.protocol = edgy_int(&r);
            h.u.hello.game = c == 1 ? NULL : texts[t];
            h.u.hello.options = c == 2 ? NULL : opts;
            h.u.hello.seat = edgy_int(&r);
            h.u.hello.players = edgy_int(&r);
            h.u.hello.names = names;
            h.u.hello.n_names = n;
            h.u.hello.match = c == 3 ? NULL : texts[(t + 2) % nt];
            h.u.hello.clock.move_ms = edgy_int(&r);
            h.u.hello.clock.bank_ms = edgy_int(&r);
            h.u.hello.clock.game_ms = c % 3 ? edgy_int(&r) : -1;
            h.u.hello.clock.startup_ms = c % 2 ? edgy_int(&r) : -1;
            snprintf(h.u.hello.clock.mode, sizeof h.u.hello.clock.mode, "%s",
                     c == 4  ? ""
                     : c % 2 ? "cpu"
                             : "wall");
            check(&h, utf8);

            msg ov = {.type = MSG_OVER};
            ov.u.over.ranks = ranks;
            ov.u.over.scores = scores;
            ov.u.over.n_seats = n;
            ov.u.over.reason = c == 5 ? NULL : texts[t];
            ov.u.over.forfeits = ff;
            ov.u.over.n_forfeits = c == 6 ? 0 : n;
            ov.u.over.view = c == 0 ? NULL : opts;
            check(&ov, utf8);

            msg e = {.type = MSG_ERROR};
            e.u.error.id = (uint64_t)edgy_int(&r);
            e.u.error.code = c == 1 ? NULL : texts[(t + 3) % nt];
            e.u.error.message = c == 2 ? NULL : texts[t];
            e.u.error.strikes_left = edgy_int(&r);
            check(&e, utf8);

            msg ev = {.type = MSG_EVENT};
            av *list = av_list();
            for (size_t i = 0; i < n; i++)
                av_push(list, av_copy(opts));
            ev.u.event.events = c == 0 ? NULL : list;
            check(&ev, utf8);
            av_free(list);
            av_free(opts);
        }
    }
    msg bye = {.type = MSG_BYE};
    check(&bye, true);
    assert_int_equal(checked, (int)(nt * 7 * 4 + 1));
}

/* The types agents send are not the referee's to write fast, but msg_write
 * still writes them right (through the tree). */
static void test_other_types_go_through_the_tree(void **st)
{
    (void)st;
    int64_t choice[] = {0, 2, 70000};
    msg a = {.type = MSG_ACT};
    a.u.act.id = 77;
    a.u.act.choice = choice;
    a.u.act.n_choice = 3;
    check(&a, true);
    msg l = {.type = MSG_LOG};
    l.u.log.text = "decide failed: \"x\"";
    check(&l, true);
    msg rd = {.type = MSG_READY};
    check(&rd, true);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_direct_messages_match_tree_in_every_game),
        cmocka_unit_test(test_direct_messages_match_tree_at_the_edges),
        cmocka_unit_test(test_other_types_go_through_the_tree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
