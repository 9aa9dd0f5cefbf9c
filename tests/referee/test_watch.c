/* The match's spectator watch (match.h, match_config.watch): told when the
 * game is created, at each turn and at the end; the events [from, to) it is
 * passed follow on from what it took, every one still held (a turn it
 * passes by keeps its events for the next call), so a spectator misses
 * none, and the spectator's view of them holds no seat's secret. A match
 * of built-in bots with no log records events when watched. */
#include <event2/event.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "builtins.h"
#include "match.h"

typedef struct seen {
    int calls, overs, passed;
    size_t taken; /* events taken so far */
    int takes;    /* public "take" events seen */
    int secrets;  /* events a spectator was shown holding a secret */
    bool bad;
} seen;

static bool on_turn(void *ctx, const arena_game *g, size_t from, size_t to, bool over)
{
    seen *w = ctx;
    w->calls++;
    if (from != w->taken || to < from || w->overs) w->bad = true;
    av *view = arena_public_view_tree(g);
    if (!view || av_get(view, "secret") || av_get(view, "secrets")) w->bad = true;
    av_free(view);
    /* Every second turn is passed by: its events must come again. */
    if (!over && w->calls % 2 == 0) {
        w->passed++;
        return false;
    }
    for (size_t i = from; i < to; i++) {
        if (!g->vt->event(g, i, -1)) w->bad = true; /* released before it was taken */
        const av *e = g->vt->event(g, i, EVENTS_SPECTATOR);
        if (!e) continue;
        if (av_get(e, "secret")) w->secrets++;
        const char *type = av_get_str(e, "type");
        if (type && !strcmp(type, "take")) w->takes++;
    }
    w->taken = to;
    w->overs += over;
    return true;
}

static const match_watch watch = {.turn = on_turn};
static int finished, turns;

static void on_done(const match_outcome *o, void *ctx)
{
    (void)ctx;
    assert_string_equal(o->reason, "normal");
    turns = o->turns;
    finished++;
}

static void on_closed(void *ctx)
{
    (*(int *)ctx)++;
}

static void the_watch_gets_every_public_event_once(void **st)
{
    (void)st;
    struct event_base *base = match_loop_new();
    char err[256];
    agent_config c = {.spec = "builtin:random", .game = "nim", .startup_ms = 1000};
    agent_limits_default(&c.limits);
    arena_agent *a = agent_new(base, &c, err, sizeof err),
                *b = agent_new(base, &c, err, sizeof err);
    assert_non_null(a);
    assert_non_null(b);
    arena_setting set[] = {{"stones", "300"}};
    seen w = {0};
    match_config mc = {.game = arena_find_game("nim"),
                       .settings = set,
                       .n_settings = 1,
                       .watch = &watch,
                       .watch_ctx = &w};
    clock_config_default(&mc.clock);
    arena_agent *seats[2] = {a, b};
    if (match_start(base, &mc, seats, 2, 11, on_done, NULL, err, sizeof err) != 0)
        fail_msg("%s", err);
    while (!finished)
        event_base_loop(base, EVLOOP_ONCE);
    int closed = 0;
    agent_close(a, on_closed, &closed);
    agent_close(b, on_closed, &closed);
    while (closed < 2)
        event_base_loop(base, EVLOOP_ONCE);
    event_base_free(base);
    printf("%d calls, %d passed by, %d takes of %d turns\n", w.calls, w.passed, w.takes, turns);
    assert_false(w.bad);
    assert_int_equal(w.overs, 1);
    assert_true(w.passed > 10);
    assert_true(turns > 100);
    assert_int_equal(w.takes, turns); /* every take, none twice */
    assert_int_equal(w.secrets, 0);
    assert_int_equal(w.calls, turns + 2); /* the start, each turn, the end */
}

int main(void)
{
    arena_builtins_install();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_watch_gets_every_public_event_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
