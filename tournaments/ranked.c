/* Ranked results and the `arena elo` input format. */
#include "ranked.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plackett_luce.h"
#include "util.h"

int ranked_agent(ranked_set *s, const char *name)
{
    for (int i = 0; i < s->n_names; i++)
        if (strcmp(s->names[i], name) == 0) return i;
    s->names = xrealloc(s->names, sizeof(char *) * (size_t)(s->n_names + 1));
    s->names[s->n_names] = xstrdup(name);
    return s->n_names++;
}

void ranked_push(ranked_set *s, const ranked_game *g)
{
    if (s->n_games == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 64;
        s->games = xrealloc(s->games, s->cap * sizeof *s->games);
    }
    s->games[s->n_games++] = *g;
}

void ranked_free(ranked_set *s)
{
    for (int i = 0; i < s->n_names; i++)
        free(s->names[i]);
    free(s->names);
    free(s->games);
    memset(s, 0, sizeof *s);
}

void ranked_to_pairwise(const ranked_game *g, elo_data *d)
{
    for (int a = 0; a < g->k; a++)
        for (int b = a + 1; b < g->k; b++) {
            double sc = g->rank[a] < g->rank[b] ? 1.0 : g->rank[a] > g->rank[b] ? 0.0 : 0.5;
            elo_add(d, g->agent[a], g->agent[b], sc);
        }
}

const char *rating_model_name(rating_model m)
{
    return m == RATING_PLACKETT_LUCE ? "plackett-luce" : "pairwise";
}

int rating_model_parse(const char *name, rating_model *m)
{
    if (strcmp(name, "pairwise") == 0)
        *m = RATING_PAIRWISE;
    else if (strcmp(name, "plackett-luce") == 0)
        *m = RATING_PLACKETT_LUCE;
    else
        return -1;
    return 0;
}

rating_model rating_model_default(const ranked_game *g, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (g[i].k >= 3) return RATING_PLACKETT_LUCE;
    return RATING_PAIRWISE;
}

void ranked_fit(rating_model m, const ranked_game *g, size_t n_games, const elo_data *pw,
                double prior, int anchor, elo_fit *f)
{
    if (m == RATING_PAIRWISE) {
        elo_fit_compute(pw, prior, anchor, f);
        return;
    }
    elo_terms t;
    elo_terms_init(&t, pw->n);
    for (size_t i = 0; i < n_games; i++)
        pl_add_game(&t, &g[i], 1.0);
    elo_terms_fit(&t, pw, prior, anchor, f);
    elo_terms_free(&t);
}

int ranked_parse(ranked_set *s, const char *text, char *err, size_t errlen)
{
    int lineno = 0;
    const char *p = text;
    while (*p) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        char *line = xmalloc(len + 1);
        memcpy(line, p, len);
        line[len] = '\0';
        p += len + (eol ? 1 : 0);
        lineno++;
        char *hash = line;
        while (*hash == ' ' || *hash == '\t')
            hash++;
        if (*hash == '#') line[0] = '\0';
        ranked_game g = {0};
        int rank = 0, pending_tie = 0;
        char *save = NULL;
        for (char *tok = strtok_r(line, " \t\r", &save); tok;
             tok = strtok_r(NULL, " \t\r", &save)) {
            if (strcmp(tok, "=") == 0) {
                if (g.k == 0 || pending_tie) {
                    snprintf(err, errlen, "line %d: '=' must stand between two names", lineno);
                    free(line);
                    return -1;
                }
                pending_tie = 1;
                continue;
            }
            if (g.k == RANKED_MAX) {
                snprintf(err, errlen, "line %d: more than %d agents in one game", lineno,
                         RANKED_MAX);
                free(line);
                return -1;
            }
            int idx = ranked_agent(s, tok);
            if (idx >= ELO_MAX_AGENTS) {
                snprintf(err, errlen, "line %d: more than %d agents (the most one fit takes)",
                         lineno, ELO_MAX_AGENTS);
                free(line);
                return -1;
            }
            for (int i = 0; i < g.k; i++)
                if (g.agent[i] == idx) {
                    snprintf(err, errlen, "line %d: agent '%s' appears twice", lineno, tok);
                    free(line);
                    return -1;
                }
            if (!pending_tie) rank = g.k + 1; /* competition ranking: 1 2 2 4 */
            g.agent[g.k] = idx;
            g.rank[g.k] = rank;
            g.k++;
            pending_tie = 0;
        }
        free(line);
        if (pending_tie) {
            snprintf(err, errlen, "line %d: '=' must stand between two names", lineno);
            return -1;
        }
        if (g.k == 1) {
            snprintf(err, errlen, "line %d: a game needs at least two agents", lineno);
            return -1;
        }
        if (g.k >= 2) ranked_push(s, &g);
    }
    return 0;
}
