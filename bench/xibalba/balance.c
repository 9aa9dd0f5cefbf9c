/* balance: Xibalba balance report as a markdown table.
 *   balance [--set KEY=VALUE]... GAMES SEED BOT BOT [BOT [BOT]]
 * Plays GAMES games (at most 100000) in-process with the built-in bots
 * given (one per seat, rotated by one seat every game so every bot plays
 * every seat) and prints: wins by turn-order position (1st = the start
 * player, chosen by the paragon roll), wins by seat, wins by faction
 * (each faction's games and win rate against the fair 1/players), wins by
 * bot, game length (with the games over before every seat had a turn), how
 * games end, and per card type how often the first BOT bought it and used it
 * (resolved its effect, or attacked with it). Game i plays seed SEED + i,
 * so runs split across processes take seeds GAMES apart. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../progress.h"
#include "builtins.h"
#include "selfplay.h"
#include "xibalba.h"

#define MAX_GAMES 100000
#define MAX_SETTINGS 8

typedef struct tally {
    const char *const *bot; /* bot spec per seat in this game */
    const char *focus;      /* the first BOT: whose card usage is counted */
    size_t seen;            /* events already scanned */
    int start_player;
    bool limit_reached;
    int faction[XB_MAX_PLAYERS]; /* by seat */
    bool bought_this_game[XB_MAX_TYPES];
    long bought[XB_MAX_TYPES], games_bought[XB_MAX_TYPES], used[XB_MAX_TYPES];
} tally;

static int type_of_name(const xb_game *g, const char *name)
{
    for (int i = 0; i < g->cs.n_types; i++)
        if (strcmp(g->cs.t[i].name, name) == 0) return i;
    return -1;
}

/* After every decision: scan the new events for the focus bot's buys and
 * card uses. */
static bool observe(const arena_game *gg, void *ctx, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    tally *t = ctx;
    const xb_game *g = (const xb_game *)gg;
    t->start_player = g->start_player;
    t->limit_reached = g->limit_reached;
    for (int s = 0; s < g->players; s++)
        t->faction[s] = g->p[s].faction;
    size_t n = gg->vt->event_count(gg);
    for (; t->seen < n; t->seen++) {
        const av *e = gg->vt->event(gg, t->seen, -1);
        const char *type = av_get_str(e, "type");
        int64_t seat = -1;
        if (!type || !av_get_int(e, "seat", &seat) || seat < 0) continue;
        if (strcmp(t->bot[seat], t->focus) != 0) continue;
        bool buy = strcmp(type, "buy") == 0;
        const char *card = buy                                ? av_get_str(e, "card")
                           : strcmp(type, "card_effect") == 0 ? av_get_str(e, "card")
                           : strcmp(type, "attack") == 0      ? av_get_str(e, "soldier")
                                                              : NULL;
        int k = card ? type_of_name(g, card) : -1;
        if (k < 0) continue;
        if (buy) {
            t->bought[k]++;
            if (!t->bought_this_game[k]) t->games_bought[k]++;
            t->bought_this_game[k] = true;
        } else {
            t->used[k]++;
        }
    }
    return true;
}

static double se(double p, long n)
{
    return n > 0 ? sqrt(p * (1 - p) / (double)n) : 0;
}

static int cmp_int(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

static int usage(const char *argv0)
{
    fprintf(stderr,
            "usage: %s [--set KEY=VALUE]... GAMES SEED BOT BOT [BOT [BOT]]\n"
            "  GAMES 1..%d games of Xibalba between the built-in bots (e.g. heuristic,\n"
            "  random), seats rotated every game; prints a markdown balance report.\n"
            "  Game i plays seed SEED+i: runs split across processes take seeds GAMES apart.\n",
            argv0, MAX_GAMES);
    return 2;
}

int main(int argc, char **argv)
{
    arena_builtins_install();
    arena_setting set[MAX_SETTINGS];
    size_t nset = 0;
    int a = 1;
    for (; a + 1 < argc && strcmp(argv[a], "--set") == 0; a += 2) {
        char *eq = strchr(argv[a + 1], '=');
        if (!eq || nset == MAX_SETTINGS) return usage(argv[0]);
        *eq = '\0';
        set[nset++] = (arena_setting){argv[a + 1], eq + 1};
    }
    if (argc - a < 4) return usage(argv[0]);
    char *end;
    long games = strtol(argv[a], &end, 10);
    if (*end || games < 1 || games > MAX_GAMES) return usage(argv[0]);
    uint64_t seed = strtoull(argv[a + 1], &end, 10);
    if (*end) return usage(argv[0]);
    const char *const *bots = (const char *const *)&argv[a + 2];
    int players = argc - a - 2;
    if (players > XB_MAX_PLAYERS) return usage(argv[0]);

    tally *t = calloc(1, sizeof *t);
    int *turns = calloc((size_t)games, sizeof *turns);
    double pos_wins[XB_MAX_PLAYERS] = {0}, bot_wins[XB_MAX_PLAYERS] = {0},
           seat_wins[XB_MAX_PLAYERS] = {0};
    long seat_starts[XB_MAX_PLAYERS] = {0};
    double fac_wins[XB_FACTIONS] = {0};
    long fac_games[XB_FACTIONS] = {0}, early = 0;
    long by_target = 0, by_limit = 0, turn_sum = 0;
    t->focus = bots[0];
    char err[512];
    bench_progress prog;
    bench_progress_start(&prog, "balance", games);
    for (long i = 0; i < games; i++) {
        bench_progress_step(&prog, i);
        const char *seat_bot[XB_MAX_PLAYERS];
        int bot_of[XB_MAX_PLAYERS];
        for (int s = 0; s < players; s++) {
            bot_of[s] = (int)((s + i) % players);
            seat_bot[s] = bots[bot_of[s]];
        }
        t->bot = seat_bot;
        t->seen = 0;
        memset(t->bought_this_game, 0, sizeof t->bought_this_game);
        arena_selfplay_opts o = {.settings = set,
                                 .n_settings = nset,
                                 .seed = seed + (uint64_t)i,
                                 .players = players,
                                 .max_decisions = 10000000,
                                 .check = observe,
                                 .check_ctx = t};
        arena_selfplay_stats st;
        if (arena_selfplay(&xibalba_game, seat_bot, &o, &st, err, sizeof err) != 0) {
            fprintf(stderr, "balance: game %ld: %s\n", i, err);
            free(turns);
            free(t);
            return 1;
        }
        int firsts = 0;
        for (int s = 0; s < players; s++)
            firsts += st.result.ranks[s] == 1;
        for (int s = 0; s < players; s++) {
            if (st.result.ranks[s] != 1) continue;
            pos_wins[(s - t->start_player + players) % players] += 1.0 / firsts;
            bot_wins[bot_of[s]] += 1.0 / firsts;
            seat_wins[s] += 1.0 / firsts;
            fac_wins[t->faction[s]] += 1.0 / firsts;
        }
        for (int s = 0; s < players; s++)
            fac_games[t->faction[s]]++;
        early += st.result.turns < players;
        seat_starts[t->start_player]++;
        turns[i] = st.result.turns;
        turn_sum += st.result.turns;
        if (t->limit_reached)
            by_limit++;
        else
            by_target++;
    }
    /* a game for the card list */
    xb_game *sample = (xb_game *)xibalba_game.create(set, nset, seed, players, ARENA_GAME_NO_EVENTS,
                                                     err, sizeof err);
    if (!sample) {
        fprintf(stderr, "balance: %s\n", err);
        free(turns);
        free(t);
        return 1;
    }

    printf("## Xibalba balance: %ld games, %dp", games, players);
    for (size_t k = 0; k < nset; k++)
        printf(", %s=%s", set[k].key, set[k].value);
    printf(", seeds %llu..%llu, bots:", (unsigned long long)seed,
           (unsigned long long)(seed + (uint64_t)games - 1));
    for (int s = 0; s < players; s++)
        printf(" %s", bots[s]);
    printf("\n\n| turn order | wins | win rate | ± 1 s.e. | vs. fair |\n|---|---|---|---|---|\n");
    double fair = 1.0 / players;
    for (int p = 0; p < players; p++) {
        double r = pos_wins[p] / (double)games, e = se(fair, games);
        printf("| %d%s | %.1f | %.1f %% | %.1f %% | %+.1f s.e. |\n", p + 1,
               p == 0 ? " (start player)" : "", pos_wins[p], 100 * r, 100 * se(r, games),
               e > 0 ? (r - fair) / e : 0);
    }
    printf("\n| seat | wins | win rate | ± 1 s.e. | start player in |\n|---|---|---|---|---|\n");
    for (int s = 0; s < players; s++) {
        double r = seat_wins[s] / (double)games;
        printf("| %d | %.1f | %.1f %% | %.1f %% | %.1f %% |\n", s, seat_wins[s], 100 * r,
               100 * se(r, games), 100.0 * (double)seat_starts[s] / (double)games);
    }
    printf("\n| faction | games | wins | win rate | ± 1 s.e. | vs. fair "
           "|\n|---|---|---|---|---|---|\n");
    for (int f = 0; f < XB_FACTIONS; f++) {
        double r = fac_games[f] ? fac_wins[f] / (double)fac_games[f] : 0;
        printf("| %s | %ld | %.1f | %.1f %% | %.1f %% | %+.1f points |\n", xb_factions[f].name,
               fac_games[f], fac_wins[f], 100 * r, 100 * se(r, fac_games[f]), 100 * (r - fair));
    }
    printf("\n| bot (seats rotated) | wins | win rate |\n|---|---|---|\n");
    for (int b = 0; b < players; b++)
        printf("| %d: %s | %.1f | %.1f %% |\n", b + 1, bots[b], bot_wins[b],
               100 * bot_wins[b] / (double)games);
    qsort(turns, (size_t)games, sizeof *turns, cmp_int);
    printf("\n| game length | turns | rounds |\n|---|---|---|\n");
    printf("| mean | %.1f | %.1f |\n", (double)turn_sum / (double)games,
           (double)turn_sum / (double)games / players);
    printf("| min / median / max | %d / %d / %d | |\n", turns[0], turns[games / 2],
           turns[games - 1]);
    printf("| over before every seat had a turn | %ld games | %.2f %% |\n", early,
           100.0 * (double)early / (double)games);
    printf("\n| how games end | games | share |\n|---|---|---|\n");
    printf("| a player reached the paragon target | %ld | %.1f %% |\n", by_target,
           100.0 * (double)by_target / (double)games);
    printf("| turn limit (ranked by paragon) | %ld | %.1f %% |\n", by_limit,
           100.0 * (double)by_limit / (double)games);
    printf("\n### Card usage by %s\n\n| card | family | cost | bought | games bought in | used "
           "|\n|---|---|---|---|---|---|\n",
           bots[0]);
    int never = 0;
    for (int k = 0; k < sample->cs.n_types; k++) {
        const xb_card_type *c = &sample->cs.t[k];
        bool none = t->bought[k] == 0 && t->used[k] == 0;
        never += none;
        printf("| %s%s%s | %s | %d | %ld | %.1f %% | %ld |\n", none ? "**" : "", c->name,
               none ? "** (never)" : "", xb_family_names[c->family], c->cost, t->bought[k],
               100.0 * (double)t->games_bought[k] / (double)games, t->used[k]);
    }
    printf("\n%d of %d card types never bought or used by %s.\n", never, sample->cs.n_types,
           bots[0]);
    game_free(&sample->base);
    free(turns);
    free(t);
    return 0;
}
