/* Rating tables in text and JSON. */
#include "ratings.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static const elo_fit *sort_fit;
static char *const *sort_names;

static int by_rating(const void *a, const void *b)
{
    int i = *(const int *)a, j = *(const int *)b;
    if (sort_fit->elo[i] != sort_fit->elo[j]) return sort_fit->elo[i] > sort_fit->elo[j] ? -1 : 1;
    return strcmp(sort_names[i], sort_names[j]);
}

void ratings_order(const elo_fit *f, char *const *names, int *order)
{
    for (int i = 0; i < f->n; i++)
        order[i] = i;
    sort_fit = f;
    sort_names = names;
    qsort(order, (size_t)f->n, sizeof(int), by_rating);
}

double ratings_round(double x, int decimals)
{
    double m = pow(10.0, decimals);
    double r = round(x * m) / m;
    return r == 0 ? 0.0 : r; /* no "-0" in output */
}

av *ratings_json(const elo_fit *f, char *const *names, const int64_t *games)
{
    int *order = xcalloc((size_t)f->n + 1, sizeof(int));
    ratings_order(f, names, order);
    av *list = av_list();
    for (int k = 0; k < f->n; k++) {
        int i = order[k];
        av *e = av_map();
        av_set_str(e, "agent", names[i]);
        av_set(e, "elo", av_float(ratings_round(f->elo[i], 1)));
        av_set(e, "error", av_float(ratings_round(f->error[i], 1)));
        av_set_int(e, "games", games[i]);
        av_set(e, "score", av_float(ratings_round(f->score[i], 4)));
        av_push(list, e);
    }
    free(order);
    return list;
}

av *ratings_los_json(const elo_fit *f, char *const *names)
{
    int *order = xcalloc((size_t)f->n + 1, sizeof(int));
    ratings_order(f, names, order);
    av *m = av_map();
    for (int a = 0; a < f->n; a++) {
        int i = order[a];
        av *row = av_map();
        for (int b = 0; b < f->n; b++) {
            int j = order[b];
            if (i != j) av_set(row, names[j], av_float(ratings_round(f->los[i * f->n + j], 4)));
        }
        av_set(m, names[i], row);
    }
    free(order);
    return m;
}

void ratings_text(FILE *out, const elo_fit *f, char *const *names, const int64_t *games)
{
    int *order = xcalloc((size_t)f->n + 1, sizeof(int));
    ratings_order(f, names, order);
    int w = 5;
    for (int i = 0; i < f->n; i++)
        if ((int)strlen(names[i]) > w) w = (int)strlen(names[i]);
    fprintf(out, "%4s  %-*s %8s %7s %7s %7s\n", "rank", w, "agent", "elo", "+/-", "games", "score");
    for (int k = 0; k < f->n; k++) {
        int i = order[k];
        fprintf(out, "%4d  %-*s %8.1f %7.1f %7lld %6.1f%%\n", k + 1, w, names[i],
                ratings_round(f->elo[i], 1), ratings_round(f->error[i], 1), (long long)games[i],
                100.0 * f->score[i]);
    }
    if (f->n > 1) {
        fprintf(out, "\nLOS (row stronger than column)\n%-*s", w, "");
        for (int b = 0; b < f->n; b++)
            fprintf(out, " %6.6s", names[order[b]]);
        fputc('\n', out);
        for (int a = 0; a < f->n; a++) {
            int i = order[a];
            fprintf(out, "%-*s", w, names[i]);
            for (int b = 0; b < f->n; b++) {
                int j = order[b];
                if (i == j)
                    fprintf(out, " %6s", "-");
                else
                    fprintf(out, " %6.3f", f->los[i * f->n + j]);
            }
            fputc('\n', out);
        }
    }
    free(order);
}
