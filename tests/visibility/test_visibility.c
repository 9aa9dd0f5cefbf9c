/* Protocol §6, visibility: view and events for seat s hold only what a player
 * in seat s could see at the table. Proved for every game over seeded
 * self-play (2, 3 and 4 players where allowed, events on), after every
 * decision and for every seat:
 *
 *  1. Twin check. A clone of the state gets everything seat s cannot see
 *     reshuffled (deck and stack orders, other seats' hidden cards, the
 *     game's generator, keeping every count); view(twin, s) must equal
 *     view(g, s) exactly. So the view is a function of visible information
 *     only, whatever key a future change adds. The view's keys are also
 *     checked against the game's doc.
 *  2. Events. Every event type has a class from the doc (public; public
 *     naming no card; private with a count-only copy for the others; owner
 *     only); an event must reach exactly the seats its class allows, the
 *     others' copies must name no card, the omniscient observer gets every
 *     event. Where cards have distinct names (Pacifica ids) or few copies
 *     (Xibalba), every card an event shows seat s must also be in s's view
 *     before or after the decision.
 *  3. The seed (> 10^12, decimal and hex) is in no view, event, prompt,
 *     label (sampled) or settings a seat receives.
 *
 * Coverage is asserted (every private event type happened, the twins moved
 * something), and control tests wrap games with planted leaks that the
 * checker must catch. VIS_GAMES_PERCENT scales the number of games (default
 * 100); VIS_FILTER picks tests by name pattern. */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "builtins.h"
#include "games/dominion/state.h"
#include "games/pacifica/pacifica.h"
#include "games/xibalba/xibalba.h"
#include "selfplay.h"
#include "util.h"

/* ------------------------------------------------------------ the checker */

enum ev_class {
    EC_UNKNOWN, /* not in the game's doc: the test must be told about it */
    EC_PUBLIC,  /* everyone, may name cards */
    EC_BLIND,   /* everyone, names no card (shuffles, counts, turns) */
    EC_SPLIT,   /* owner's copy names cards; the next event is everyone else's copy */
    EC_OWNER,   /* owner only */
};

typedef struct vis_ctx vis_ctx;

typedef struct game_spec {
    const arena_game_vt *vt;
    /* Reshuffles in a clone everything seat cannot see, keeping counts;
     * returns whether anything moved. */
    bool (*hide)(arena_game *twin, int seat, arena_rng *r);
    /* Checks the keys of seat's view against the doc. */
    bool (*view_keys)(vis_ctx *c, const arena_game *g, const av *v, int seat);
    bool (*is_card)(const arena_game *g, const char *s);
    int (*event_class)(const char *type);
    /* A card-naming event of a private type that may still go to everyone
     * (Dominion: Bureaucrat and Spy put revealed cards back face up). */
    bool (*public_ok)(const vis_ctx *c, const av *ev);
    /* Cards named in an event must also be in the seat's view (before or
     * after the decision); useless where every card name is always in view
     * (Dominion's supply lists them all). */
    bool names_in_view;
    const char *const *private_types; /* EC_SPLIT / EC_OWNER types, for coverage */
    /* No seat sees more than another (Xibalba: only deck order is hidden,
     * from everyone): a twin must then change no seat's view at all. */
    bool nothing_private;
    /* The others' copy of a split event may show one card under "top": the
     * new top of a pile that their view shows anyway (Dominion's discards).
     * It must be the last card of the owner's copy. */
    bool split_top;
} game_spec;

#define MAX_PRIVATE 8

struct vis_ctx {
    const game_spec *spec;
    int players;
    uint64_t seed;
    char seed_dec[24], seed_hex[24];
    arena_rng rng; /* drives the twins */
    char *err;
    size_t errlen;
    long calls;
    size_t ev_done;              /* events already checked */
    char *prev[ARENA_MAX_SEATS]; /* each seat's view (JSON) at the last check */
    char last_play[32];          /* card of the last public "play" event */
    /* statistics, over all games of a test */
    long checks, twins, twins_changed, other_checks, others_changed;
    long events, names_checked, public_exceptions;
    long private_seen[MAX_PRIVATE];
};

static bool failf(vis_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool failf(vis_ctx *c, const char *fmt, ...)
{
    int k = snprintf(c->err, c->errlen,
                     "%s seed %" PRIu64 " %dp, after %ld decisions: ", c->spec->vt->name, c->seed,
                     c->players, c->calls);
    if (k < 0 || (size_t)k >= c->errlen) return false;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->err + k, c->errlen - (size_t)k, fmt, ap);
    va_end(ap);
    return false;
}

#define REQUIRE(c, cond, ...)                                                                      \
    do {                                                                                           \
        if (!(cond)) return failf((c), __VA_ARGS__);                                               \
    } while (0)

static char *json_of(av *v)
{
    char *s = av_to_json(v);
    av_free(v);
    return s;
}

static bool no_seed(vis_ctx *c, const char *text, const char *what)
{
    REQUIRE(c, !strstr(text, c->seed_dec) && !strstr(text, c->seed_hex),
            "the seed is in %s: %.300s", what, text);
    return true;
}

/* The first key of map in none of the NULL-terminated lists (NULL lists are
 * empty), or NULL. */
static const char *stray_key(const av *map, const char *const *a, const char *const *b,
                             const char *const *d)
{
    if (!map || map->type != AV_MAP) return "(not a map)";
    for (size_t i = 0; i < map->u.map.len; i++) {
        const char *k = map->u.map.keys[i];
        bool ok = false;
        for (const char *const *l = a; l && *l && !ok; l++)
            ok = strcmp(*l, k) == 0;
        for (const char *const *l = b; l && *l && !ok; l++)
            ok = strcmp(*l, k) == 0;
        for (const char *const *l = d; l && *l && !ok; l++)
            ok = strcmp(*l, k) == 0;
        if (!ok) return k;
    }
    return NULL;
}

/* Counts the card names among an event's strings (the type word aside) and
 * remembers the first few. */
typedef struct names {
    int n;
    const char *first[16];
} names;

static void collect_names(const game_spec *sp, const arena_game *g, const av *v, names *out)
{
    switch (v->type) {
    case AV_STR:
        if (sp->is_card(g, v->u.str.s)) {
            if (out->n < 16) out->first[out->n] = v->u.str.s;
            out->n++;
        }
        break;
    case AV_LIST:
        for (size_t i = 0; i < v->u.list.len; i++)
            collect_names(sp, g, v->u.list.items[i], out);
        break;
    case AV_MAP:
        for (size_t i = 0; i < v->u.map.len; i++)
            if (strcmp(v->u.map.keys[i], "type") != 0) collect_names(sp, g, v->u.map.vals[i], out);
        break;
    default: break;
    }
}

static bool quoted_in(const char *json, const char *name)
{
    char q[64];
    snprintf(q, sizeof q, "\"%s\"", name);
    return json && strstr(json, q);
}

static int private_index(const game_spec *sp, const char *type)
{
    for (int i = 0; sp->private_types[i]; i++)
        if (strcmp(sp->private_types[i], type) == 0) return i;
    return -1;
}

/* Every card an event shows a seat must be in that seat's view before or
 * after the decision. */
static bool names_seen(vis_ctx *c, size_t i, const char *type, uint32_t vis, const names *nm,
                       char *const *cur)
{
    for (int s = 0; s < c->players; s++)
        if (vis >> s & 1)
            for (int k = 0; k < nm->n && k < 16; k++) {
                REQUIRE(c, quoted_in(c->prev[s], nm->first[k]) || quoted_in(cur[s], nm->first[k]),
                        "event %zu (%s) shows seat %d the card %s, which is in none of its views",
                        i, type, s, nm->first[k]);
                c->names_checked++;
            }
    return true;
}

/* Which seats event i reaches (checking they all get the same thing). */
static bool receivers(vis_ctx *c, const arena_game *g, size_t i, const av **e, uint32_t *vis)
{
    const arena_game_vt *vt = c->spec->vt;
    *e = vt->event(g, i, -1);
    REQUIRE(c, *e, "event %zu is hidden from the omniscient observer", i);
    *vis = 0;
    for (int s = 0; s < c->players; s++) {
        const av *es = vt->event(g, i, s);
        if (!es) continue;
        *vis |= 1u << s;
        REQUIRE(c, es == *e || av_equal(es, *e), "event %zu differs between seat %d and seat -1", i,
                s);
    }
    char *text = av_to_json(*e);
    bool ok = no_seed(c, text, "an event");
    free(text);
    return ok;
}

/* One event: who receives it, what the receivers may learn from it. cur[]
 * are the seats' views after the decision. *used: how many events it took
 * (a private event and the others' copy go together). */
static bool check_event(vis_ctx *c, const arena_game *g, size_t i, char *const *cur, int *used)
{
    const game_spec *sp = c->spec;
    uint32_t all = (1u << c->players) - 1, vis;
    const av *e;
    *used = 1;
    if (!receivers(c, g, i, &e, &vis)) return false;
    const char *type = av_get_str(e, "type");
    REQUIRE(c, type, "event %zu has no type", i);
    int64_t owner = -1;
    bool has_owner = av_get_int(e, "seat", &owner) && owner >= 0 && owner < c->players;
    uint32_t own = has_owner ? 1u << owner : 0;
    names nm = {0};
    collect_names(sp, g, e, &nm);
    int cls = sp->event_class(type);
    REQUIRE(c, cls != EC_UNKNOWN, "event type '%s' is not in the game's doc", type);
    if (strcmp(type, "play") == 0 && vis == all) {
        const char *card = av_get_str(e, "card");
        snprintf(c->last_play, sizeof c->last_play, "%s", card ? card : "");
    }

    if (cls == EC_PUBLIC || cls == EC_BLIND) {
        REQUIRE(c, vis == all, "public event '%s' (%zu) reaches seats %#x only", type, i, vis);
        REQUIRE(c, cls == EC_PUBLIC || nm.n == 0, "event '%s' (%zu) names the card %s", type, i,
                nm.first[0]);
        return !sp->names_in_view || names_seen(c, i, type, vis, &nm, cur);
    }
    REQUIRE(c, has_owner, "private-type event '%s' (%zu) names no seat", type, i);
    if (vis == all) {
        /* a private type sent to all: only without cards, or by rule */
        if (nm.n && sp->public_ok && sp->public_ok(c, e))
            c->public_exceptions++;
        else
            REQUIRE(c, nm.n == 0, "event '%s' of seat %" PRId64 " names %s to every seat", type,
                    owner, nm.first[0]);
        return !sp->names_in_view || names_seen(c, i, type, vis, &nm, cur);
    }
    REQUIRE(c, vis == own,
            "event '%s' of seat %" PRId64 " (%zu) reaches seats %#x: neither its owner only nor "
            "everyone",
            type, owner, i, vis);
    if (sp->names_in_view && !names_seen(c, i, type, vis, &nm, cur)) return false;
    int pi = private_index(sp, type);
    if (pi >= 0 && nm.n) c->private_seen[pi]++;
    if (cls == EC_OWNER) return true;

    /* EC_SPLIT: the others' copy follows at once, same type and seat, no
     * card, and a count that matches when it has one. */
    REQUIRE(c, i + 1 < sp->vt->event_count(g),
            "private event '%s' (%zu) has no copy for the others", type, i);
    const av *o;
    uint32_t ovis;
    if (!receivers(c, g, i + 1, &o, &ovis)) return false;
    const char *otype = av_get_str(o, "type");
    int64_t oseat = -1, count = 0;
    REQUIRE(c, otype && strcmp(otype, type) == 0 && av_get_int(o, "seat", &oseat) && oseat == owner,
            "private event '%s' (%zu) is not followed by the others' copy", type, i);
    REQUIRE(c, ovis == (all & ~own), "the others' copy of '%s' (%zu) reaches seats %#x", type,
            i + 1, ovis);
    names onm = {0};
    collect_names(sp, g, o, &onm);
    const char *otop = sp->split_top ? av_get_str(o, "top") : NULL;
    if (otop) {
        const av *cl = av_get(e, "cards");
        size_t n = cl && cl->type == AV_LIST ? cl->u.list.len : 0;
        const av *last = n ? cl->u.list.items[n - 1] : NULL;
        REQUIRE(c, last && last->type == AV_STR && strcmp(last->u.str.s, otop) == 0,
                "the others' copy of '%s' of seat %" PRId64 " shows %s on top", type, owner, otop);
    }
    REQUIRE(c, onm.n == (otop ? 1 : 0), "the others' copy of '%s' of seat %" PRId64 " names %s",
            type, owner, onm.first[otop ? 1 : 0]);
    if (av_get_int(o, "count", &count))
        REQUIRE(c, count == nm.n,
                "'%s' of seat %" PRId64 ": the owner sees %d cards, the others a count of %" PRId64,
                type, owner, nm.n, count);
    *used = 2;
    return true;
}

/* Strict equality: same types, same values, same key order. Such trees
 * serialise to the same bytes, and the twin's view need not be serialised
 * unless it differs. */
static bool same_tree(const av *a, const av *b)
{
    if (a->type != b->type) return false;
    switch (a->type) {
    case AV_NIL: return true;
    case AV_BOOL: return a->u.b == b->u.b;
    case AV_INT: return a->u.i == b->u.i;
    case AV_FLOAT: return memcmp(&a->u.f, &b->u.f, sizeof a->u.f) == 0;
    case AV_STR:
        return a->u.str.len == b->u.str.len && memcmp(a->u.str.s, b->u.str.s, a->u.str.len) == 0;
    case AV_LIST:
        if (a->u.list.len != b->u.list.len) return false;
        for (size_t i = 0; i < a->u.list.len; i++)
            if (!same_tree(a->u.list.items[i], b->u.list.items[i])) return false;
        return true;
    case AV_MAP:
        if (a->u.map.len != b->u.map.len) return false;
        for (size_t i = 0; i < a->u.map.len; i++)
            if (strcmp(a->u.map.keys[i], b->u.map.keys[i]) != 0 ||
                !same_tree(a->u.map.vals[i], b->u.map.vals[i]))
                return false;
        return true;
    }
    return false;
}

/* Where the two texts part, for the failure message. */
static size_t first_diff(const char *a, const char *b)
{
    size_t k = 0;
    while (a[k] && a[k] == b[k])
        k++;
    return k;
}

static bool check_twin(vis_ctx *c, const arena_game *g, int s, av *const *tree)
{
    const arena_game_vt *vt = c->spec->vt; /* may wrap the game's own */
    arena_game *twin = vt->clone(g);
    c->twins++;
    c->twins_changed += c->spec->hide(twin, s, &c->rng);
    av *tv = arena_view_tree(vt, twin, s);
    bool ok = same_tree(tv, tree[s]);
    if (!ok) {
        char *real = av_to_json(tree[s]), *fake = av_to_json(tv);
        size_t k = first_diff(real, fake), from = k > 120 ? k - 120 : 0;
        failf(c,
              "seat %d's view changes when only what it cannot see changes:\n  real: ...%.240s\n"
              "  twin: ...%.240s",
              s, real + from, fake + from);
        free(real);
        free(fake);
    }
    av_free(tv);
    /* Teeth: now and then, another seat's view of the twin must differ
     * (that seat's own hidden cards moved). */
    if (ok && c->calls % 8 == 0) {
        c->other_checks++;
        for (int o = 0; o < c->players; o++) {
            if (o == s) continue;
            av *ov = arena_view_tree(vt, twin, o);
            bool diff = !same_tree(ov, tree[o]);
            av_free(ov);
            if (diff) {
                c->others_changed++;
                break;
            }
        }
    }
    vt->free(twin);
    return ok;
}

static bool check_all(vis_ctx *c, const arena_game *g, av **tree, char **cur)
{
    const arena_game_vt *vt = c->spec->vt; /* may wrap the game's own */
    int np = c->players;
    if (c->calls == 0) {
        char *set = json_of(vt->settings(g));
        bool ok = no_seed(c, set, "the settings");
        free(set);
        if (!ok) return false;
    }
    for (int s = 0; s < np; s++) {
        tree[s] = arena_view_tree(vt, g, s);
        cur[s] = av_to_json(tree[s]);
        if (!c->spec->view_keys(c, g, tree[s], s) || !no_seed(c, cur[s], "a view")) return false;
    }
    arena_decision d;
    if (vt->decision(g, &d)) {
        char buf[512];
        vt->prompt(g, buf, sizeof buf);
        if (!no_seed(c, buf, "a prompt")) return false;
        /* labels cost as much as the rest: a sample suffices */
        for (int k = 0; c->calls % 32 == 0 && k < d.n_options; k++) {
            vt->label(g, k, buf, sizeof buf);
            if (!no_seed(c, buf, "a label")) return false;
        }
    }
    size_t n = vt->event_count(g);
    for (size_t i = c->ev_done; i < n;) {
        int used;
        if (!check_event(c, g, i, cur, &used)) return false;
        i += (size_t)used;
        c->events += used;
    }
    c->ev_done = n;
    for (int s = 0; s < np; s++)
        if (!check_twin(c, g, s, tree)) return false;
    return true;
}

static bool check_hook(const arena_game *g, void *vc, char *err, size_t errlen)
{
    vis_ctx *c = vc;
    c->err = err;
    c->errlen = errlen;
    char *cur[ARENA_MAX_SEATS] = {0};
    av *tree[ARENA_MAX_SEATS] = {0};
    bool ok = check_all(c, g, tree, cur);
    for (int s = 0; s < c->players; s++) {
        av_free(tree[s]);
        free(c->prev[s]);
        c->prev[s] = cur[s];
    }
    c->calls++;
    c->checks++;
    return ok;
}

/* Plays one game under the checker; -1 with the reason in err on a failure. */
static int run_game(vis_ctx *c, const arena_setting *set, size_t nset, int players,
                    const char *const *policies, uint64_t seed, char *err, size_t errlen)
{
    c->players = players;
    c->seed = seed;
    snprintf(c->seed_dec, sizeof c->seed_dec, "%" PRIu64, seed);
    snprintf(c->seed_hex, sizeof c->seed_hex, "%" PRIx64, seed);
    arena_rng_seed(&c->rng, seed ^ 0x5eedu);
    c->calls = 0;
    c->ev_done = 0;
    c->last_play[0] = 0;
    arena_selfplay_opts o = {.settings = set,
                             .n_settings = nset,
                             .seed = seed,
                             .players = players,
                             .flags = 0,
                             .max_decisions = 200000,
                             .check = check_hook,
                             .check_ctx = c};
    arena_selfplay_stats st;
    int rc = arena_selfplay(c->spec->vt, policies, &o, &st, err, errlen);
    for (int s = 0; s < ARENA_MAX_SEATS; s++) {
        free(c->prev[s]);
        c->prev[s] = NULL;
    }
    if (rc == 0 && !st.result.over) {
        snprintf(err, errlen, "game not over");
        rc = -1;
    }
    return rc;
}

static void play(vis_ctx *c, const arena_setting *set, size_t nset, int players,
                 const char *const *policies, uint64_t seed)
{
    char err[2048] = "";
    if (run_game(c, set, nset, players, policies, seed, err, sizeof err) != 0) fail_msg("%s", err);
}

/* Seeds above 10^12 whose decimal and hex forms cannot turn up by chance. */
static uint64_t big_seed(uint64_t k)
{
    uint64_t x = 0x7669736962696c69ull ^ (k * 0x9e3779b97f4a7c15ull);
    uint64_t s = arena_splitmix64(&x);
    return s < 1000000000000000000ull ? s + 1000000000000000000ull : s;
}

static int scaled(int games)
{
    const char *v = getenv("VIS_GAMES_PERCENT");
    long pct = v && *v ? strtol(v, NULL, 10) : 100;
    long n = games * pct / 100;
    return n < 1 ? 1 : (int)n;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void report(const vis_ctx *c, int games, double t0)
{
    print_message("%s: %.1f s, %d games, %ld checks, %ld twins (%ld differ from the game, %ld/%ld "
                  "changed another seat's view), %ld events, %ld card names traced to views, %ld "
                  "face-up private-type events\n",
                  c->spec->vt->name, now() - t0, games, c->checks, c->twins, c->twins_changed,
                  c->others_changed, c->other_checks, c->events, c->names_checked,
                  c->public_exceptions);
    for (int i = 0; c->spec->private_types[i]; i++)
        print_message("  private '%s' delivered to its owner only: %ld\n",
                      c->spec->private_types[i], c->private_seen[i]);
}

/* The twins must have had teeth and every private event type must have
 * happened, or the checks above proved little. */
static void assert_coverage(const vis_ctx *c)
{
    assert_true(c->twins > 0);
    assert_true(c->twins_changed * 10 >= c->twins * 9);
    if (c->spec->nothing_private)
        assert_int_equal(c->others_changed, 0);
    else
        assert_true(c->others_changed > 0);
    for (int i = 0; c->spec->private_types[i]; i++)
        if (c->private_seen[i] == 0)
            fail_msg("no '%s' event was ever seen: the test lacks coverage",
                     c->spec->private_types[i]);
}

/* The game's own generator decides every future shuffle and roll: no seat
 * may see its state either. */
static void reseed(game_rng *g, arena_rng *r)
{
    game_rng_seed(g, arena_rng_next(r));
}

static void shuffle_u8(uint8_t *a, int n, arena_rng *r)
{
    for (int i = n - 1; i > 0; i--) {
        int j = (int)arena_rng_below(r, (uint32_t)i + 1);
        uint8_t t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

static void shuffle_i16(int16_t *a, int n, arena_rng *r)
{
    for (int i = n - 1; i > 0; i--) {
        int j = (int)arena_rng_below(r, (uint32_t)i + 1);
        int16_t t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

/* ------------------------------------------------------------- Dominion */

/* Hidden from seat: the order of every deck; its own discard pile below the
 * top; for the others which of their face-down cards (deck, hand, Haven,
 * Native Village mat, discard pile below the top) is where. The twin pools
 * those and deals them back with the same zone sizes. The Set-aside zone
 * (cards being revealed or looked at) is left alone. */
static bool dom_hide(arena_game *gg, int seat, arena_rng *r)
{
    dom_game *g = (dom_game *)gg;
    static dom_player before[DOM_MAX_PLAYERS]; /* too big for the stack */
    memcpy(before, g->p, sizeof before);
    for (int o = 0; o < g->np; o++) {
        dom_player *p = &g->p[o];
        dom_zone *disc = &p->z[Z_DISCARD];
        int below = disc->n > 0 ? disc->n - 1 : 0;
        if (o == seat) {
            shuffle_u8(p->z[Z_DECK].c, p->z[Z_DECK].n, r);
            shuffle_u8(disc->c, below, r);
            continue;
        }
        static const int zones[] = {Z_DECK, Z_HAND, Z_HAVEN, Z_NVMAT};
        uint8_t pool[DOM_ZCAP * 5];
        int n = 0;
        for (int k = 0; k < 4; k++) {
            const dom_zone *z = &p->z[zones[k]];
            memcpy(pool + n, z->c, z->n);
            n += z->n;
        }
        memcpy(pool + n, disc->c, (size_t)below);
        n += below;
        shuffle_u8(pool, n, r);
        n = 0;
        for (int k = 0; k < 4; k++) {
            dom_zone *z = &p->z[zones[k]];
            memcpy(z->c, pool + n, z->n);
            n += z->n;
        }
        memcpy(disc->c, pool + n, (size_t)below);
    }
    reseed(&g->rng, r);
    return memcmp(before, g->p, sizeof before) != 0;
}

static bool dom_view_keys(vis_ctx *c, const arena_game *gg, const av *v, int seat)
{
    const dom_game *g = (const dom_game *)gg;
    static const char *const top[] = {"turn",  "current", "extra_turn", "actions", "buys",
                                      "coins", "over",    "seat",       "supply",  "embargo",
                                      "trash", "players", NULL};
    static const char *const pub[] = {"seat",         "hand_size",   "deck_size",
                                      "discard_size", "discard_top", "in_play",
                                      "duration",     "island_mat",  "native_village_size",
                                      "haven_size",   "vp_tokens",   "coin_tokens",
                                      "turns",        NULL};
    static const char *const own[] = {"hand", "native_village_mat", "haven", "aside", NULL};
    static const char *const over[] = {"score", NULL};
    const char *k = stray_key(v, top, NULL, NULL);
    REQUIRE(c, !k, "seat %d's view has the undocumented key '%s'", seat, k);
    int64_t vs = -1;
    REQUIRE(c, av_get_int(v, "seat", &vs) && vs == seat, "seat %d's view names seat %" PRId64, seat,
            vs);
    const av *pl = av_get(v, "players");
    REQUIRE(c, pl && pl->type == AV_LIST && (int)pl->u.list.len == g->np, "bad players list");
    for (int o = 0; o < g->np; o++) {
        const av *m = pl->u.list.items[o];
        /* what o shows seat: public keys, o's private keys if it is seat, the
         * score once the game is over */
        k = stray_key(m, pub, o == seat ? own : NULL, g->over ? over : NULL);
        REQUIRE(c, !k, "seat %d's view of seat %d has the key '%s'", seat, o, k);
        if (o == seat) {
            const av *h = av_get(m, "hand");
            REQUIRE(c, h && (int)av_len(h) == g->p[o].z[Z_HAND].n, "seat %d's own hand is missing",
                    seat);
        }
    }
    return true;
}

static bool dom_is_card(const arena_game *g, const char *s)
{
    (void)g;
    for (int c = 0; c < DOM_NCARDS; c++)
        if (strcmp(dom_cards[c].name, s) == 0) return true;
    return false;
}

static const char *const dom_private[] = {"draw",
                                          "haven",
                                          "haven_return",
                                          "native_village",
                                          "native_village_take",
                                          "topdeck",
                                          "look",
                                          "discard_many",
                                          NULL};

static int dom_event_class(const char *type)
{
    static const char *const pub[] = {"duration",    "play",     "play_treasures", "buy",
                                      "gain",        "trash",    "discard",        "reveal",
                                      "reveal_hand", "reaction", "protected",      "set_aside",
                                      "island",      "embargo",  "return",         NULL};
    static const char *const blind[] = {
        "turn",    "shuffle",  "coin_token", "discard_deck", "treasury_topdeck",
        "cleanup", "game_end", NULL};
    for (int i = 0; pub[i]; i++)
        if (strcmp(pub[i], type) == 0) return EC_PUBLIC;
    for (int i = 0; blind[i]; i++)
        if (strcmp(blind[i], type) == 0) return EC_BLIND;
    if (strcmp(type, "look") == 0) return EC_OWNER;
    for (int i = 0; dom_private[i]; i++)
        if (strcmp(dom_private[i], type) == 0) return EC_SPLIT;
    return EC_UNKNOWN;
}

/* Bureaucrat's victim and Spy put a revealed card back: face up (doc). */
static bool dom_public_ok(const vis_ctx *c, const av *ev)
{
    return strcmp(av_get_str(ev, "type"), "topdeck") == 0 &&
           (strcmp(c->last_play, "Bureaucrat") == 0 || strcmp(c->last_play, "Spy") == 0);
}

static const game_spec dom_spec = {
    .vt = &dominion_game,
    .hide = dom_hide,
    .view_keys = dom_view_keys,
    .is_card = dom_is_card,
    .event_class = dom_event_class,
    .public_ok = dom_public_ok,
    .names_in_view = false,
    .private_types = dom_private,
    .split_top = true,
};

static void test_dominion_views_and_events_hide_what_the_seat_cannot_see(void **state)
{
    (void)state;
    /* Every other game uses one of two kingdoms that hold every card with a
     * private event or a face-up topdeck; the rest go through named sets
     * and random kingdoms. */
    static const char *const cover[] = {
        "Haven,Native Village,Lookout,Navigator,Ghost Ship,Bureaucrat,Spy,Pearl Diver,Library,"
        "Throne Room",
        "Thief,Pirate Ship,Cellar,Chapel,Militia,Adventurer,Explorer,Ambassador,Treasury,Haven"};
    static const char *const other[] = {"shipwrecks",      "random",     "high-seas",
                                        "buried-treasure", "random",     "reach-for-tomorrow",
                                        "give-and-take",   "repetition", "first-game"};
    /* bm-with bots buy one copy of a card with a private event, if offered */
    static const char *const bots[][4] = {
        {"random", "random", "random", "random"},
        {"bm-with:Spy", "bm-with:Ghost Ship", "bm-with:Lookout", "bm-with:Haven"},
        {"bm-with:Bureaucrat", "bm-with:Native Village", "bm-with:Navigator", "engine"}};
    int games = scaled(18);
    vis_ctx c = {.spec = &dom_spec};
    double t0 = now();
    for (int i = 0; i < games; i++) {
        const char *k = i % 2 == 0 ? cover[(i / 2) % 2] : other[(i / 2) % 9];
        arena_setting set[2] = {{"kingdom", k}, {"max_turns", "15"}};
        play(&c, set, 2, 2 + i % 3, bots[(i / 2) % 3], big_seed((uint64_t)i));
    }
    report(&c, games, t0);
    assert_coverage(&c);
    assert_true(c.public_exceptions > 0);
}

/* ------------------------------------------------------------- Pacifica */

/* Hidden from seat: the order of every stack, and which cards of their
 * categories the opponent holds (its draws show the category only), except
 * the cards whose place the seat knows (g->seen: discards, searched stacks).
 * The twin swaps each unknown opponent hand card with a random unknown card
 * of the same stack (or keeps it), then shuffles the unknown places of every
 * stack. */
static bool pac_hide(arena_game *gg, int seat, arena_rng *r)
{
    pacifica *g = (pacifica *)gg;
    uint8_t stacks[PC_NCAT][PAC_PER_CAT], hands[2][PAC_HAND_CAP];
    memcpy(stacks, g->stack, sizeof stacks);
    memcpy(hands, g->hand, sizeof hands);
    int o = 1 - seat;
    for (int cat = 0; cat < PC_NCAT; cat++) {
        int pos[PAC_PER_CAT], n = 0;
        uint8_t cards[PAC_PER_CAT];
        for (int i = 0; i < g->stack_n[cat]; i++)
            if (!(g->seen[g->stack[cat][i]] & (1u << seat))) pos[n++] = i;
        for (int i = 0; i < g->hand_n[o]; i++) {
            int h = g->hand[o][i];
            if (g->set.c[h].cat != cat || (g->seen[h] & (1u << seat))) continue;
            int k = (int)arena_rng_below(r, (uint32_t)n + 1);
            if (k == n) continue;
            int x = g->stack[cat][pos[k]];
            g->stack[cat][pos[k]] = (uint8_t)h;
            g->where[h] = PL_STACK;
            g->hand[o][i] = (uint8_t)x;
            g->where[x] = PL_HAND;
            g->owner[x] = (uint8_t)o;
        }
        for (int i = 0; i < n; i++)
            cards[i] = g->stack[cat][pos[i]];
        shuffle_u8(cards, n, r);
        for (int i = 0; i < n; i++)
            g->stack[cat][pos[i]] = cards[i];
    }
    reseed(&g->rng, r);
    return memcmp(stacks, g->stack, sizeof stacks) != 0 ||
           memcmp(hands, g->hand, sizeof hands) != 0;
}

static bool pac_view_keys(vis_ctx *c, const arena_game *gg, const av *v, int seat)
{
    const pacifica *g = (const pacifica *)gg;
    static const char *const top[] = {
        "seat",        "to_move",    "turn",          "actions_left", "hand",  "hand_sizes",
        "hand_limits", "cities",     "symbols",       "stacks",       "idols", "activating",
        "winner",      "end_reason", "opponent_hand", "stack_cards",  NULL};
    const char *k = stray_key(v, top, NULL, NULL);
    REQUIRE(c, !k, "seat %d's view has the undocumented key '%s'", seat, k);
    int64_t vs = -2;
    REQUIRE(c, av_get_int(v, "seat", &vs) && vs == seat, "seat %d's view names seat %" PRId64, seat,
            vs);
    const av *h = av_get(v, "hand");
    REQUIRE(c, h && h->type == AV_LIST && (int)h->u.list.len == g->hand_n[seat],
            "seat %d's hand is missing or wrong", seat);
    const av *st = av_get(v, "stacks");
    REQUIRE(c, st && st->type == AV_MAP, "no stacks");
    for (size_t i = 0; i < st->u.map.len; i++)
        REQUIRE(c, st->u.map.vals[i]->type == AV_INT, "stack %s shows more than a count",
                st->u.map.keys[i]);
    const av *hs = av_get(v, "hand_sizes");
    REQUIRE(c,
            hs && hs->type == AV_LIST && hs->u.list.len == 2 &&
                hs->u.list.items[1 - seat]->type == AV_INT,
            "the opponent's hand shows more than a count");
    return true;
}

static bool pac_is_card(const arena_game *g, const char *s)
{
    return pac_find_card((const pacifica *)g, s) >= 0;
}

static const char *const pac_private[] = {"draw", NULL};

static int pac_event_class(const char *type)
{
    static const char *const pub[] = {"play", "activate", "discard", "effect", "to_city", NULL};
    static const char *const blind[] = {"setup", "turn", "idol", "end", NULL};
    for (int i = 0; pub[i]; i++)
        if (strcmp(pub[i], type) == 0) return EC_PUBLIC;
    for (int i = 0; blind[i]; i++)
        if (strcmp(blind[i], type) == 0) return EC_BLIND;
    return strcmp(type, "draw") == 0 ? EC_SPLIT : EC_UNKNOWN;
}

static const game_spec pac_spec = {
    .vt = &pacifica_game,
    .hide = pac_hide,
    .view_keys = pac_view_keys,
    .is_card = pac_is_card,
    .event_class = pac_event_class,
    .names_in_view = true,
    .private_types = pac_private,
};

static void test_pacifica_views_and_events_hide_what_the_seat_cannot_see(void **state)
{
    (void)state;
    static const char *const bots[][2] = {
        {"random", "random"}, {"greedy", "random"}, {"random", "greedy"}, {"greedy", "greedy"}};
    int games = scaled(10);
    vis_ctx c = {.spec = &pac_spec};
    double t0 = now();
    for (int i = 0; i < games; i++)
        play(&c, NULL, 0, 2, bots[i % 4], big_seed(1000u + (uint64_t)i));
    report(&c, games, t0);
    assert_coverage(&c);
}

/* -------------------------------------------------------------- Xibalba */

/* Hidden from seat (doc): only the order of every deck; every stack at the
 * table is face up. The twin shuffles every deck. */
static bool xb_hide(arena_game *gg, int seat, arena_rng *r)
{
    (void)seat;
    xb_game *g = (xb_game *)gg;
    static xb_stack decks[XB_FAMILIES];
    memcpy(decks, g->deck, sizeof decks);
    for (int f = 0; f < XB_FAMILIES; f++)
        shuffle_i16(g->deck[f].c, g->deck[f].n, r);
    reseed(&g->rng, r);
    return memcmp(decks, g->deck, sizeof decks) != 0;
}

static bool xb_stack_keys(vis_ctx *c, const av *st, int seat, int o)
{
    static const char *const keys[] = {"count", "cards", "open", NULL};
    const char *k = stray_key(st, keys, NULL, NULL);
    REQUIRE(c, !k, "seat %d's view of seat %d's stack has the key '%s'", seat, o, k);
    return true;
}

static bool xb_view_keys(vis_ctx *c, const arena_game *gg, const av *v, int seat)
{
    const xb_game *g = (const xb_game *)gg;
    static const char *const top[] = {
        "mode",    "target",       "turn",         "round",  "max_rounds",
        "current", "start_player", "step",         "seat",   "ark",
        "market",  "decks",        "players",      "dice",   "pending_effects",
        "attack",  "placing",      "reorganizing", "winner", "turn_limit",
        NULL};
    static const char *const deck_keys[] = {"deck", "discard", NULL};
    static const char *const player_keys[] = {
        "faction",      "faction_id", "level", "resources", "paragon", "resistance",
        "productivity", "upgraded",   "squad", "slots",     NULL};
    const char *k = stray_key(v, top, NULL, NULL);
    REQUIRE(c, !k, "seat %d's view has the undocumented key '%s'", seat, k);
    int64_t vs = -1;
    REQUIRE(c, av_get_int(v, "seat", &vs) && vs == seat, "seat %d's view names seat %" PRId64, seat,
            vs);
    const av *decks = av_get(v, "decks");
    REQUIRE(c, decks && decks->type == AV_MAP, "no decks");
    for (size_t i = 0; i < decks->u.map.len; i++) {
        const av *d = decks->u.map.vals[i];
        k = stray_key(d, deck_keys, NULL, NULL);
        REQUIRE(c, !k, "seat %d sees the key '%s' of the %s deck", seat, k, decks->u.map.keys[i]);
        const av *n = av_get(d, "deck");
        REQUIRE(c, n && n->type == AV_INT, "the %s deck shows more than a count",
                decks->u.map.keys[i]);
    }
    const av *pl = av_get(v, "players");
    REQUIRE(c, pl && pl->type == AV_LIST && (int)pl->u.list.len == g->players, "bad players");
    for (int o = 0; o < g->players; o++) {
        const av *m = pl->u.list.items[o];
        k = stray_key(m, player_keys, NULL, NULL);
        REQUIRE(c, !k, "seat %d's view of seat %d has the key '%s'", seat, o, k);
        if (!xb_stack_keys(c, av_get(m, "squad"), seat, o)) return false;
        const av *slots = av_get(m, "slots");
        REQUIRE(c, slots && slots->type == AV_LIST, "no slots");
        for (size_t i = 0; i < slots->u.list.len; i++)
            if (!xb_stack_keys(c, slots->u.list.items[i], seat, o)) return false;
    }
    return true;
}

static bool xb_is_card(const arena_game *gg, const char *s)
{
    const xb_game *g = (const xb_game *)gg;
    for (int i = 0; i < g->cs.n_types; i++)
        if (strcmp(g->cs.t[i].name, s) == 0) return true;
    return false;
}

static const char *const xb_private[] = {NULL};

/* All events are public: everything happens face up (doc). */
static int xb_event_class(const char *type)
{
    static const char *const pub[] = {
        "setup", "reveal",          "card_effect", "attack", "soldier_destroyed", "enter_ark",
        "block", "destroy_upgrade", "buy",         "place",  "discard",           "move",
        NULL};
    /* a reshuffle names no card: that would tell the new deck's order */
    static const char *const blind[] = {"start_roll", "reshuffle",  "turn_start", "dice_pool",
                                        "roll",       "keep",       "extra_die",  "collect",
                                        "paragon",    "ark_damage", "no_block",   "base_attack",
                                        "steal",      "reorganize", "medicine",   "weapon_tech",
                                        "upgrade",    "end_turn",   "game_over",  NULL};
    for (int i = 0; pub[i]; i++)
        if (strcmp(pub[i], type) == 0) return EC_PUBLIC;
    for (int i = 0; blind[i]; i++)
        if (strcmp(blind[i], type) == 0) return EC_BLIND;
    return EC_UNKNOWN;
}

static const game_spec xb_spec = {
    .vt = &xibalba_game,
    .hide = xb_hide,
    .view_keys = xb_view_keys,
    .is_card = xb_is_card,
    .event_class = xb_event_class,
    .names_in_view = true,
    .private_types = xb_private,
    .nothing_private = true,
};

static void test_xibalba_views_and_events_hide_what_the_seat_cannot_see(void **state)
{
    (void)state;
    static const char *const bots[][4] = {{"random", "random", "random", "random"},
                                          {"heuristic", "random", "heuristic", "random"},
                                          {"heuristic", "heuristic", "heuristic", "heuristic"}};
    int games = scaled(12);
    vis_ctx c = {.spec = &xb_spec};
    double t0 = now();
    for (int i = 0; i < games; i++) {
        arena_setting set[2] = {{"mode", i % 2 ? "apocalypse" : "normal"}, {"max_rounds", "10"}};
        play(&c, set, 2, 2 + i % 3, bots[(i / 3) % 3], big_seed(2000u + (uint64_t)i));
    }
    report(&c, games, t0);
    assert_coverage(&c);
    assert_true(c.names_checked > 0);
}

/* ------------------------------------------- the checker catches leaks */

/* Each control wraps a game so that it leaks one way; the checker must stop
 * the game with the matching complaint. */
static void expect_caught(const game_spec *spec, int players, const char *const *policies,
                          const char *complaint)
{
    vis_ctx c = {.spec = spec};
    char err[2048] = "";
    int rc = run_game(&c, NULL, 0, players, policies, big_seed(9000), err, sizeof err);
    if (rc == 0) fail_msg("a leaky %s passed the checker", spec->vt->name);
    if (!strstr(err, complaint)) fail_msg("expected '%s', got: %s", complaint, err);
    print_message("caught: %.200s\n", err);
}

/* Dominion whose view shows the next seat's hand as the viewer's "aside":
 * documented keys only, so only the twin can see it. */
static av *leaky_dom_tree(const arena_game *g, int seat)
{
    av *v = game_view(g, seat);
    if (seat < 0) return v;
    const dom_game *d = (const dom_game *)g;
    const dom_zone *h = &d->p[(seat + 1) % d->np].z[Z_HAND];
    av *l = av_list();
    for (int i = 0; i < h->n; i++)
        av_push(l, av_str(dom_cards[h->c[i]].name));
    av *players = av_take(v, "players");
    av_set(players->u.list.items[seat], "aside", l);
    av_set(v, "players", players);
    return v;
}

static void leaky_dom_view(const arena_game *g, int seat, vout *o)
{
    av *v = leaky_dom_tree(g, seat);
    vo_value(o, v);
    av_free(v);
}

static void test_checker_catches_a_view_that_shows_another_hand(void **state)
{
    (void)state;
    static arena_game_vt leaky;
    leaky = dominion_game;
    leaky.view = leaky_dom_view;
    game_spec spec = dom_spec;
    spec.vt = &leaky;
    static const char *const bots[] = {"random", "random"};
    expect_caught(&spec, 2, bots, "view changes when only what it cannot see changes");
}

/* Pacifica that hands every event to everyone: the drawer's copy too. */
static const av *leaky_pac_event(const arena_game *g, size_t i, int seat)
{
    (void)seat;
    return pacifica_game.event(g, i, -1);
}

static void test_checker_catches_another_seats_draw_with_its_card(void **state)
{
    (void)state;
    static arena_game_vt leaky;
    leaky = pacifica_game;
    leaky.event = leaky_pac_event;
    game_spec spec = pac_spec;
    spec.vt = &leaky;
    static const char *const bots[] = {"random", "random"};
    expect_caught(&spec, 2, bots, "to every seat");
}

/* Pacifica whose view names the top Machines card (the next machine-top) as
 * "activating": a documented key, so only the twin can see it. */
static av *leaky_pac_tree(const arena_game *g, int seat)
{
    const pacifica *p = (const pacifica *)g;
    av *v = game_view(g, seat);
    int n = p->stack_n[PC_MACHINES];
    if (n) av_set_str(v, "activating", p->set.c[p->stack[PC_MACHINES][n - 1]].id);
    return v;
}

static void leaky_pac_view(const arena_game *g, int seat, vout *o)
{
    av *v = leaky_pac_tree(g, seat);
    vo_value(o, v);
    av_free(v);
}

static void test_checker_catches_a_view_that_shows_a_stack_order(void **state)
{
    (void)state;
    static arena_game_vt leaky;
    leaky = pacifica_game;
    leaky.view = leaky_pac_view;
    game_spec spec = pac_spec;
    spec.vt = &leaky;
    static const char *const bots[] = {"random", "random"};
    expect_caught(&spec, 2, bots, "view changes when only what it cannot see changes");
}

/* Xibalba whose view carries the seed (as a documented value). */
static uint64_t leaked_seed;

static arena_game *leaky_xb_create(const arena_setting *set, size_t nset, uint64_t seed,
                                   int players, unsigned flags, char *err, size_t errlen)
{
    leaked_seed = seed;
    return xibalba_game.create(set, nset, seed, players, flags, err, errlen);
}

static av *leaky_xb_tree(const arena_game *g, int seat)
{
    av *v = game_view(g, seat);
    return av_set(v, "mode", av_strf("%" PRIu64, leaked_seed));
}

static void leaky_xb_view(const arena_game *g, int seat, vout *o)
{
    av *v = leaky_xb_tree(g, seat);
    vo_value(o, v);
    av_free(v);
}

static void test_checker_catches_the_seed_in_a_view(void **state)
{
    (void)state;
    static arena_game_vt leaky;
    leaky = xibalba_game;
    leaky.create = leaky_xb_create;
    leaky.view = leaky_xb_view;
    game_spec spec = xb_spec;
    spec.vt = &leaky;
    static const char *const bots[] = {"random", "random", "random"};
    expect_caught(&spec, 3, bots, "the seed is in a view");
}

int main(void)
{
    arena_builtins_install();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dominion_views_and_events_hide_what_the_seat_cannot_see),
        cmocka_unit_test(test_pacifica_views_and_events_hide_what_the_seat_cannot_see),
        cmocka_unit_test(test_xibalba_views_and_events_hide_what_the_seat_cannot_see),
        cmocka_unit_test(test_checker_catches_a_view_that_shows_another_hand),
        cmocka_unit_test(test_checker_catches_another_seats_draw_with_its_card),
        cmocka_unit_test(test_checker_catches_a_view_that_shows_a_stack_order),
        cmocka_unit_test(test_checker_catches_the_seed_in_a_view),
    };
    const char *only = getenv("VIS_FILTER"); /* e.g. "*pacifica*" */
    if (only && *only) cmocka_set_test_filter(only);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
