/* "nim": the tiny test-only game that lets the referee core be tested without
 * a real game. A pile of stones; on your turn you take 1..max_take of them by
 * picking that many "stone:k" options (an unordered multi-pick, so the pick
 * machinery is exercised); whoever takes the last stone ranks first, everyone
 * else shares second place. Each seat also holds a secret number that only it
 * may see (in its view and in one private event), so the visibility tests
 * have something to catch. Hidden from `arena games` unless --all. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events.h"
#include "game.h"
#include "game_rng.h"
#include "util.h"

/* Map entries under keys a map cannot hold yet (each written once, in a
 * fresh map): appended without looking for them first. Views and events
 * are built for every decision the referee sends. */
#define NEW_KEY(m, lit, val) av_map_add_new((m), "" lit, sizeof(lit) - 1, (val))

typedef struct nim {
    arena_game base;
    int players, turn_seat, turns;
    long stones, initial, max_take;
    int winner; /* -1 while running */
    int64_t secret[ARENA_MAX_SEATS];
    long taken[ARENA_MAX_SEATS];
} nim;

extern const arena_game_vt testgame_game;

static const arena_option_doc nim_options[] = {
    {"stones", "integer >= 1", "21", "stones in the pile at the start"},
    {"max_take", "integer 1..64", "3", "most stones one turn may take"},
    {0},
};

static bool parse_long(const char *s, long lo, long hi, long *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v < lo || v > hi) return false;
    *out = v;
    return true;
}

static arena_game *nim_create(const arena_setting *set, size_t nset, uint64_t seed, int players,
                              unsigned flags, char *err, size_t errlen)
{
    long stones = 21, max_take = 3;
    for (size_t i = 0; i < nset; i++) {
        if (strcmp(set[i].key, "stones") == 0) {
            if (!parse_long(set[i].value, 1, 1000000000L, &stones)) {
                snprintf(err, errlen, "stones must be an integer from 1 to 1000000000");
                return NULL;
            }
        } else if (strcmp(set[i].key, "max_take") == 0) {
            if (!parse_long(set[i].value, 1, 64, &max_take)) {
                snprintf(err, errlen, "max_take must be an integer from 1 to 64");
                return NULL;
            }
        } else {
            snprintf(err, errlen, "nim has no setting '%s' (known: stones, max_take)", set[i].key);
            return NULL;
        }
    }
    if (players < 2 || players > 4) {
        snprintf(err, errlen, "nim is for 2 to 4 players, not %d", players);
        return NULL;
    }
    nim *g = xcalloc(1, sizeof *g);
    g->base.vt = &testgame_game;
    g->base.size = sizeof *g;
    g->players = players;
    g->stones = stones;
    g->initial = stones;
    g->max_take = max_take;
    g->winner = -1;
    g->base.ev.disabled = (flags & ARENA_GAME_NO_EVENTS) != 0;
    game_rng rng;
    game_rng_seed(&rng, seed);
    for (int s = 0; s < players; s++) {
        g->secret[s] = (int64_t)game_rng_below(&rng, 1000000);
        if (!g->base.ev.disabled) {
            av *e = av_map();
            NEW_KEY(e, "type", av_str("secret"));
            NEW_KEY(e, "seat", av_int(s));
            NEW_KEY(e, "secret", av_int(g->secret[s]));
            events_push(&g->base.ev, EVENTS_SEAT(s), e);
        }
    }
    return &g->base;
}

static long can_take(const nim *g)
{
    return g->stones < g->max_take ? g->stones : g->max_take;
}

static bool nim_decision(const arena_game *gg, arena_decision *d)
{
    const nim *g = (const nim *)gg;
    if (g->winner >= 0) return false;
    d->seat = g->turn_seat;
    d->kind = "take";
    d->n_options = (int)can_take(g);
    d->pick_min = 1;
    d->pick_max = d->n_options;
    d->pick_ordered = false;
    d->turn = g->turns + 1;
    return true;
}

/* Labels and prompts are written for every decision the referee sends:
 * without snprintf (protocol/util.h's textbuf). */
static void nim_label(const arena_game *gg, int i, char *buf, size_t len)
{
    (void)gg;
    textbuf t = text_start(buf, len);
    TEXT_LIT(&t, "stone:");
    text_int(&t, (int64_t)i + 1);
}

static void nim_prompt(const arena_game *gg, char *buf, size_t len)
{
    const nim *g = (const nim *)gg;
    textbuf t = text_start(buf, len);
    text_int(&t, g->stones);
    TEXT_LIT(&t, " stones left; pick 1 to ");
    text_int(&t, can_take(g));
    TEXT_LIT(&t, " stones to take");
}

static bool nim_apply(arena_game *gg, const int *choice, int n)
{
    nim *g = (nim *)gg;
    (void)choice; /* which stones does not matter, only how many */
    if (g->winner >= 0 || n < 1 || n > can_take(g)) return false;
    int s = g->turn_seat;
    g->stones -= n;
    g->taken[s] += n;
    g->turns++;
    if (!g->base.ev.disabled) {
        av *e = av_map();
        NEW_KEY(e, "type", av_str("take"));
        NEW_KEY(e, "seat", av_int(s));
        NEW_KEY(e, "n", av_int(n));
        NEW_KEY(e, "left", av_int(g->stones));
        events_push(&g->base.ev, EVENTS_ALL, e);
    }
    events_turn_moved(&g->base.ev); /* a turn is one take */
    if (g->stones == 0)
        g->winner = s;
    else
        g->turn_seat = (s + 1) % g->players;
    return true;
}

/* The heap and the takes: what every seat sees. */
static void nim_public(const nim *g, vout *o)
{
    vo_kint(o, "stones", g->stones);
    vo_kint(o, "max_take", g->max_take);
    vo_kint(o, "to_move", g->turn_seat);
    vo_klist(o, "taken");
    for (int s = 0; s < g->players; s++)
        vo_int(o, g->taken[s]);
    vo_end(o);
}

static void nim_public_view(const arena_game *gg, vout *o)
{
    vo_map(o);
    nim_public((const nim *)gg, o);
    vo_end(o);
}

static void nim_view(const arena_game *gg, int seat, vout *o)
{
    const nim *g = (const nim *)gg;
    vo_map(o);
    nim_public(g, o);
    if (seat >= 0) {
        vo_kint(o, "secret", g->secret[seat]);
    } else {
        vo_klist(o, "secrets");
        for (int s = 0; s < g->players; s++)
            vo_int(o, g->secret[s]);
        vo_end(o);
    }
    vo_end(o);
}

/* Everything hidden from `seat` in nim is the other seats' secrets: they
 * are drawn afresh from `seed`. Nim keeps no rng past create(), so there is
 * nothing else to reseed. */
static void nim_determinize(arena_game *gg, int seat, uint64_t seed)
{
    nim *g = (nim *)gg;
    arena_rng rng;
    arena_rng_seed(&rng, seed);
    for (int s = 0; s < g->players; s++) {
        int64_t v = (int64_t)arena_rng_below(&rng, 1000000);
        if (s != seat) g->secret[s] = v;
    }
}

static av *nim_settings(const arena_game *gg)
{
    const nim *g = (const nim *)gg;
    av *m = av_map();
    NEW_KEY(m, "stones", av_int(g->initial));
    NEW_KEY(m, "max_take", av_int(g->max_take));
    return m;
}

static void nim_result(const arena_game *gg, arena_result *r)
{
    const nim *g = (const nim *)gg;
    memset(r, 0, sizeof *r);
    r->over = g->winner >= 0;
    r->turns = g->turns;
    for (int s = 0; s < g->players; s++) {
        r->scores[s] = s == g->winner ? 1 : 0;
        r->ranks[s] = !r->over ? 0 : s == g->winner ? 1 : 2;
    }
}

const arena_game_vt testgame_game = {
    .name = "nim",
    .title = "Nim (test-only game)",
    .min_players = 2,
    .max_players = 4,
    .options = nim_options,
    .create = nim_create,
    .clone = arena_game_clone_flat,
    .free = arena_game_free_flat,
    .decision = nim_decision,
    .label = nim_label,
    .prompt = nim_prompt,
    .apply = nim_apply,
    .view = nim_view,
    .public_view = nim_public_view,
    .event_count = arena_game_event_count,
    .event = arena_game_event,
    .turn_from = arena_game_turn_from,
    .on_turn = arena_game_on_turn,
    .settings = nim_settings,
    .result = nim_result,
    .determinize = nim_determinize,
};
