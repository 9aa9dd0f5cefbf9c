/* Pacifica balance of a card set, measured by self-play of two built-in bots.
 *   balance GAMES SEED BOT_A BOT_B [CARDS]
 * BOT_* are built-in specs ("greedy", "greedy-favour:Machines+Festival", or
 * any registered policy such as a search bot); CARDS is "designed" (default)
 * or a card file. Game i uses seed SEED+i; the bots swap seats every game so
 * each moves first equally often. Prints markdown: results by bot and seat,
 * game length, how games end, per idol how often the winner held and secured
 * it, per category how often each bot played and activated its cards, and
 * per card how often each bot played it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../progress.h"
#include "builtins.h"
#include "games/pacifica/pacifica.h"
#include "selfplay.h"

enum { N_REASONS = 4, N_BUCKETS = 7 };
static const char *const reasons[N_REASONS] = {"idols", "secured", "exhausted", "turn-cap"};
static const int bucket_lim[N_BUCKETS - 1] = {20, 30, 40, 60, 100, 200};

/* One game as seen through the self-play check hook (called after create
 * and after every choice, so also on the final state). */
typedef struct game_log {
    bool played[2][PAC_NCARDS], active[2][PAC_NCARDS];
    bool over;
    int winner;
    const char *reason;
    int8_t idol_owner[PAC_NIDOLS];
    uint8_t idol_level[PAC_NIDOLS];
    pac_card cards[PAC_NCARDS];
} game_log;

static bool observe(const arena_game *gg, void *ctx, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    const pacifica *g = (const pacifica *)gg;
    game_log *l = ctx;
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < g->city_n[s]; i++) {
            int c = g->city[s][i];
            l->played[s][c] = true;
            l->active[s][c] |= g->active[c];
        }
    if (g->over && !l->over) {
        l->over = true;
        l->winner = g->winner;
        l->reason = g->end_reason;
        memcpy(l->idol_owner, g->idol_owner, sizeof l->idol_owner);
        memcpy(l->idol_level, g->idol_level, sizeof l->idol_level);
        memcpy(l->cards, g->set.c, sizeof l->cards);
    }
    return true;
}

typedef struct tally {
    long games, wins[2] /* by bot */, seat_wins[2], draws, reason[N_REASONS];
    long turns_sum, turns_min, turns_max, turn_hist[N_BUCKETS];
    long held[PAC_NIDOLS], secured[PAC_NIDOLS];          /* by the winner at the end */
    long cat_played[2][PC_NCAT], cat_active[2][PC_NCAT]; /* games, by bot */
    long card_played[2][PAC_NCARDS];                     /* games, by bot */
    pac_card cards[PAC_NCARDS];
} tally;

static double pct(long a, long b)
{
    return b ? 100.0 * (double)a / (double)b : 0.0;
}

static void add_game(tally *t, const game_log *l, const arena_result *r, int a_seat)
{
    t->games++;
    memcpy(t->cards, l->cards, sizeof t->cards);
    int w = r->ranks[0] == r->ranks[1] ? -1 : r->ranks[0] == 1 ? 0 : 1;
    if (w < 0)
        t->draws++;
    else {
        t->seat_wins[w]++;
        t->wins[w == a_seat ? 0 : 1]++;
        for (int i = 0; i < PAC_NIDOLS; i++)
            if (l->idol_owner[i] == w) {
                t->held[i]++;
                t->secured[i] += l->idol_level[i] == PAC_SECURED;
            }
    }
    for (int k = 0; k < N_REASONS; k++)
        t->reason[k] += l->reason && strcmp(l->reason, reasons[k]) == 0;
    t->turns_sum += r->turns;
    if (r->turns < t->turns_min) t->turns_min = r->turns;
    if (r->turns > t->turns_max) t->turns_max = r->turns;
    int b = 0;
    while (b < N_BUCKETS - 1 && r->turns >= bucket_lim[b])
        b++;
    t->turn_hist[b]++;
    for (int s = 0; s < 2; s++) {
        int bot = s == a_seat ? 0 : 1;
        bool cp[PC_NCAT] = {0}, ca[PC_NCAT] = {0};
        for (int c = 0; c < PAC_NCARDS; c++) {
            int cat = l->cards[c].cat;
            t->card_played[bot][c] += l->played[s][c];
            cp[cat] |= l->played[s][c];
            ca[cat] |= l->active[s][c];
        }
        for (int c = 0; c < PC_NCAT; c++) {
            t->cat_played[bot][c] += cp[c];
            t->cat_active[bot][c] += ca[c];
        }
    }
}

static void print_report(const tally *t, const char *const *bots, uint64_t seed, const char *set)
{
    long n = t->games;
    printf("Pacifica balance: `%s` (A) vs `%s` (B), card set `%s`, %ld games, seeds %llu..%llu, "
           "seats alternate.\n\n",
           bots[0], bots[1], set, n, (unsigned long long)seed,
           (unsigned long long)(seed + (uint64_t)n - 1));
    printf("| result | games | share |\n|---|---:|---:|\n");
    printf("| A wins | %ld | %.1f %% |\n| B wins | %ld | %.1f %% |\n", t->wins[0],
           pct(t->wins[0], n), t->wins[1], pct(t->wins[1], n));
    printf("| no winner | %ld | %.1f %% |\n", t->draws, pct(t->draws, n));
    printf("| first player (seat 0) wins | %ld | %.1f %% |\n", t->seat_wins[0],
           pct(t->seat_wins[0], n));
    printf("| second player (seat 1) wins | %ld | %.1f %% |\n\n", t->seat_wins[1],
           pct(t->seat_wins[1], n));
    printf("| how games end | games | share |\n|---|---:|---:|\n");
    for (int k = 0; k < N_REASONS; k++)
        printf("| %s | %ld | %.1f %% |\n", reasons[k], t->reason[k], pct(t->reason[k], n));
    printf("\nGame length (turns, both players' turns counted): mean %.1f, min %ld, max %ld.\n\n",
           (double)t->turns_sum / (double)n, t->turns_min, t->turns_max);
    printf("| turns | <20 | 20-29 | 30-39 | 40-59 | 60-99 | 100-199 | 200+ |\n");
    printf("|---|---:|---:|---:|---:|---:|---:|---:|\n| games |");
    for (int b = 0; b < N_BUCKETS; b++)
        printf(" %ld |", t->turn_hist[b]);
    printf("\n\n| category | winner holds idol | winner secured it | A played | A activated | B "
           "played | B activated |\n|---|---:|---:|---:|---:|---:|---:|\n");
    for (int i = 0; i < PAC_NIDOLS; i++) {
        long w = n - t->draws;
        printf("| %s | %.1f %% | %.1f %% |", i == PAC_DIVERSITY ? "Diversity" : pac_cat_names[i],
               pct(t->held[i], w), pct(t->secured[i], w));
        if (i == PAC_DIVERSITY) {
            printf(" – | – | – | – |\n");
            continue;
        }
        printf(" %.1f %% | %.1f %% | %.1f %% | %.1f %% |\n", pct(t->cat_played[0][i], n),
               pct(t->cat_active[0][i], n), pct(t->cat_played[1][i], n),
               pct(t->cat_active[1][i], n));
    }
    printf("\n(\"played\": the bot put at least one card of the category into its city in that "
           "share of games; \"activated\": one was active at some point.)\n\n");
    printf("Per card, share of games in which bot A put it into its city (B in brackets):\n\n");
    printf("| category |");
    for (int k = 1; k <= PAC_PER_CAT; k++)
        printf(" %d |", k);
    printf("\n|---|");
    for (int k = 0; k < PAC_PER_CAT; k++)
        printf("---:|");
    printf("\n");
    for (int cat = 0; cat < PC_NCAT; cat++) {
        printf("| %s |", pac_cat_names[cat]);
        for (int c = 0; c < PAC_NCARDS; c++)
            if (t->cards[c].cat == cat)
                printf(" %.0f (%.0f) |", pct(t->card_played[0][c], n),
                       pct(t->card_played[1][c], n));
        printf("\n");
    }
    printf("\nCards bot A never put into its city:");
    int none = 1;
    for (int c = 0; c < PAC_NCARDS; c++)
        if (!t->card_played[0][c]) printf(" %s", t->cards[c].id), none = 0;
    printf("%s\n", none ? " none" : "");
}

int main(int argc, char **argv)
{
    arena_builtins_install();
    if (argc < 5 || argc > 6) {
        fprintf(stderr, "usage: balance GAMES SEED BOT_A BOT_B [CARDS]\n"
                        "  e.g. balance 2000 1 greedy greedy-favour:Machines+Festival\n");
        return 2;
    }
    long games = strtol(argv[1], NULL, 10);
    uint64_t seed = strtoull(argv[2], NULL, 10);
    const char *bots[2] = {argv[3], argv[4]};
    arena_setting set = {"cards", argc == 6 ? argv[5] : "designed"};
    if (games < 1) games = 1;
    static tally t;
    t.turns_min = 1L << 30;
    bench_progress prog;
    bench_progress_start(&prog, "balance", games);
    for (long i = 0; i < games; i++) {
        bench_progress_step(&prog, i);
        int a_seat = (int)(i % 2); /* bot A's seat in this game */
        const char *pols[2] = {bots[a_seat], bots[1 - a_seat]};
        static game_log l;
        memset(&l, 0, sizeof l);
        arena_selfplay_opts o = {.settings = &set,
                                 .n_settings = 1,
                                 .seed = seed + (uint64_t)i,
                                 .players = 2,
                                 .flags = ARENA_GAME_NO_EVENTS,
                                 .max_decisions = 1000000,
                                 .check = observe,
                                 .check_ctx = &l};
        arena_selfplay_stats st;
        char err[256];
        if (arena_selfplay(&pacifica_game, pols, &o, &st, err, sizeof err) != 0) {
            fprintf(stderr, "balance: game %ld: %s\n", i, err);
            return 1;
        }
        add_game(&t, &l, &st.result, a_seat);
    }
    print_report(&t, bots, seed, set.value);
    return 0;
}
