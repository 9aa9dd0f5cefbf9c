/* A long game on the wire holds only its recent events: the referee frees
 * those every agent has had (events_release). Nim with real random-c agents
 * (msgpack and JSON), against a built-in seat, and with `send_events`; the
 * game's view entry is wrapped to sample how many events the game holds
 * each time the referee asks for a view (every decide), and the game must
 * still end normally with every event counted.
 * Without the release, a game would hold every event it ever pushed (one
 * per move here), so the largest sample would grow with the game.
 * Usage: events-released RANDOM_C */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <event2/event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtins.h"
#include "clock.h"
#include "match.h"

static const char *random_c;
static struct event_base *base;

#define WAIT_LIMIT_MS 60000.0 /* any wait longer than this is a hang */

static void loop_until(const int *count, int want, const char *what)
{
    double deadline = clock_now_ms() + WAIT_LIMIT_MS;
    while (*count < want) {
        if (clock_now_ms() > deadline) {
            fprintf(stderr, "events-released: %s still not done after %.0f ms\n", what,
                    WAIT_LIMIT_MS);
            exit(1);
        }
        event_base_loop(base, EVLOOP_ONCE);
    }
}

/* nim's vtable with view wrapped to sample the events held. */
static arena_game_vt sampled;
static size_t held_max, views, count_last;

static void sampled_view(const arena_game *g, int seat, vout *o)
{
    size_t held = events_held(&g->ev);
    if (held > held_max) held_max = held;
    count_last = g->vt->event_count(g);
    views++;
    g->vt->view(g, seat, o); /* nim's own: the game was made by nim's create */
}

static int done_count;
static match_outcome outcome;
static void on_done(const match_outcome *o, void *ctx)
{
    (void)ctx;
    outcome = *o;
    done_count++;
}

static int closed_count;
static void count_closed(void *ctx)
{
    (void)ctx;
    closed_count++;
}

static arena_agent *agent(const char *spec)
{
    agent_config c = {.spec = spec, .game = "nim", .startup_ms = 10000, .exit_grace_ms = 200};
    agent_limits_default(&c.limits);
    char err[256];
    arena_agent *a = agent_new(base, &c, err, sizeof err);
    if (!a) fail_msg("%s", err);
    return a;
}

/* Plays one 3,000-stone nim game (1,000 to 3,000 moves) between spec0 and
 * spec1 and checks what the game held along the way. */
static void play(const char *spec0, const char *spec1, bool send_events)
{
    const arena_game_vt *nim = arena_find_game("nim");
    sampled = *nim;
    sampled.view = sampled_view;
    held_max = views = count_last = 0;
    arena_agent *agents[2] = {agent(spec0), agent(spec1)};
    arena_setting stones[] = {{"stones", "3000"}};
    match_config mc = {.game = &sampled,
                       .settings = stones,
                       .n_settings = 1,
                       .on_fault = FAULT_FORFEIT,
                       .max_strikes = 3,
                       .send_events = send_events};
    /* Correct bots: only a clock no loaded machine misses. */
    clock_config_default(&mc.clock);
    mc.clock.move_ms = 5000;
    mc.clock.bank_ms = 10000;
    mc.clock.startup_ms = 10000;
    char err[256];
    done_count = 0;
    if (match_start(base, &mc, agents, 2, 7, on_done, NULL, err, sizeof err) != 0)
        fail_msg("%s", err);
    loop_until(&done_count, 1, "the match");
    closed_count = 0;
    for (int i = 0; i < 2; i++)
        agent_close(agents[i], count_closed, NULL);
    loop_until(&closed_count, 2, "closing the agents");

    if (strcmp(outcome.reason, "normal") != 0)
        fail_msg("%s: %s / %s", outcome.reason, outcome.fault_message[0], outcome.fault_message[1]);
    long decisions = outcome.decisions[0] + outcome.decisions[1];
    assert_true(decisions >= 1000); /* <= 3 stones a move */
    /* One event a move plus the two secrets: none lost from the count. */
    assert_true(views >= 500);
    assert_true(count_last + 2 >= (size_t)decisions);
    /* Held: what was pushed since the agent asked last (a move of the
     * other seat, a secret at the start), never the game so far. */
    assert_true(held_max <= 8);
}

static char spec_a[512], spec_b[512], spec_ja[512], spec_jb[512];

static void test_two_msgpack_agents_hold_only_recent_events(void **st)
{
    (void)st;
    play(spec_a, spec_b, false);
}

static void test_two_json_agents_with_send_events_hold_only_recent_events(void **st)
{
    (void)st;
    play(spec_ja, spec_jb, true);
}

static void test_agent_against_builtin_holds_only_recent_events(void **st)
{
    (void)st;
    play(spec_a, "builtin:random", false);
}

int main(int argc, char **argv)
{
    arena_builtins_install();
    if (argc != 2) {
        fprintf(stderr, "usage: events-released RANDOM_C\n");
        return 2;
    }
    random_c = argv[1];
    snprintf(spec_a, sizeof spec_a, "cmd:%s --seed 1", random_c);
    snprintf(spec_b, sizeof spec_b, "cmd:%s --seed 2", random_c);
    snprintf(spec_ja, sizeof spec_ja, "cmd:%s --json --seed 1", random_c);
    snprintf(spec_jb, sizeof spec_jb, "cmd:%s --json --seed 2", random_c);
    base = event_base_new();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_msgpack_agents_hold_only_recent_events),
        cmocka_unit_test(test_two_json_agents_with_send_events_hold_only_recent_events),
        cmocka_unit_test(test_agent_against_builtin_holds_only_recent_events),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    event_base_free(base);
    return rc;
}
