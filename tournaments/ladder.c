#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ladder.h"
#include "util.h"

static const char *const state_names[] = {"validating", "active", "disabled", "retired"};

const char *ladder_state_name(ladder_state s)
{
    return state_names[s];
}

static bool state_parse(const char *s, ladder_state *out)
{
    for (int i = 0; i < 4; i++)
        if (strcmp(s, state_names[i]) == 0) {
            *out = (ladder_state)i;
            return true;
        }
    return false;
}

static bool name_ok(const char *n)
{
    size_t len = strlen(n);
    if (len == 0 || len > LADDER_NAME_MAX) return false;
    for (const char *p = n; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              *p == '-' || *p == '_' || *p == '.'))
            return false;
    return true;
}

/* NAME/vN, the version's agent name; false for a name not of that form. */
static bool split_agent(const char *agent, char *name, size_t len, int *version)
{
    const char *slash = strrchr(agent, '/');
    if (!slash || slash[1] != 'v' || (size_t)(slash - agent) >= len) return false;
    char *end;
    long v = strtol(slash + 2, &end, 10);
    if (*end || v < 1 || v > 1000000 || end == slash + 2) return false;
    memcpy(name, agent, (size_t)(slash - agent));
    name[slash - agent] = '\0';
    *version = (int)v;
    return name_ok(name);
}

static char *record_key(const char *name, int version)
{
    return xasprintf("entrant:%s/v%d", name, version);
}

static char *str_field(json_t *o, const char *k)
{
    const char *v = json_string_value(json_object_get(o, k));
    return xstrdup(v ? v : "");
}

void ladder_roster_free(ladder_roster *r)
{
    for (int i = 0; i < r->n; i++) {
        ladder_entrant *e = &r->e[i];
        free(e->name);
        free(e->author);
        free(e->spec);
        free(e->reason);
        free(e->err);
        free(e->added);
    }
    free(r->e);
    r->e = NULL;
    r->n = 0;
}

int ladder_load(store *s, ladder_roster *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    char **names, **specs;
    int n;
    if (store_agents(s, &names, &specs, &n) != 0) {
        snprintf(err, errlen, "%s", store_error(s));
        return -1;
    }
    r->e = xcalloc((size_t)n + 1, sizeof *r->e);
    int rc = 0;
    for (int i = 0; i < n && rc == 0; i++) {
        ladder_entrant *e = &r->e[i];
        char name[LADDER_NAME_MAX + 1];
        e->agent = i;
        if (!split_agent(names[i], name, sizeof name, &e->version)) {
            snprintf(err, errlen, "agent %d is named '%.80s', not NAME/vN: not a ladder", i,
                     names[i]);
            rc = -1;
            break;
        }
        r->n = i + 1;
        e->name = xstrdup(name);
        e->spec = xstrdup(specs[i]);
        char *k = record_key(name, e->version), *js = store_meta(s, k);
        free(k);
        json_t *o = js ? json_loads(js, 0, NULL) : NULL;
        free(js);
        const char *st = json_string_value(json_object_get(o, "state"));
        if (!json_is_object(o) || !st || !state_parse(st, &e->state)) {
            snprintf(err, errlen, "the record of %s is missing or corrupt", names[i]);
            rc = -1;
        }
        e->author = str_field(o, "author");
        e->reason = str_field(o, "reason");
        e->err = str_field(o, "stderr");
        e->added = str_field(o, "added");
        json_decref(o);
    }
    /* Retired: superseded by a newer version, or by `ladder retire`. */
    for (int i = 0; i < r->n && rc == 0; i++) {
        ladder_entrant *e = &r->e[i];
        int newest = 0;
        for (int j = 0; j < r->n; j++)
            if (strcmp(r->e[j].name, e->name) == 0 && r->e[j].version > newest)
                newest = r->e[j].version;
        char *k = xasprintf("retired:%s", e->name);
        double gone = store_meta_number(s, k, 0);
        free(k);
        const char *why = newest > e->version  ? "replaced by a newer version"
                          : gone >= e->version ? "retired by the organiser"
                                               : NULL;
        if (why && e->state != LADDER_RETIRED) {
            e->state = LADDER_RETIRED;
            free(e->reason);
            e->reason = xstrdup(why);
        }
    }
    store_agents_free(names, specs, n);
    if (rc != 0) ladder_roster_free(r);
    return rc;
}

static char *record(const char *name, int version, const char *author, ladder_state st,
                    const char *reason, const char *err_text, const char *added)
{
    json_t *o = json_pack("{s:s, s:i, s:s, s:s, s:s, s:s, s:s}", "name", name, "version", version,
                          "author", author, "state", ladder_state_name(st), "reason", reason,
                          "stderr", err_text, "added", added);
    char *js = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    char *out = xstrdup(js);
    free(js);
    return out;
}

int ladder_add(store *s, const char *name, const char *spec, const char *author, const char *token,
               int *version, char *err, size_t errlen)
{
    if (!name_ok(name)) {
        snprintf(err, errlen,
                 "an entrant's name is 1 to %d letters, digits, '-', '_' or '.', not '%.80s'",
                 LADDER_NAME_MAX, name);
        return -1;
    }
    if (!spec[0]) {
        snprintf(err, errlen, "an entrant needs an agent SPEC");
        return -1;
    }
    ladder_roster r;
    if (ladder_load(s, &r, err, errlen) != 0) return -1;
    if (r.n >= ELO_MAX_AGENTS) { /* every version, retired too, is a row of the fits */
        snprintf(err, errlen, "the ladder holds %d versions, the most Arena rates; start a new one",
                 r.n);
        ladder_roster_free(&r);
        return -1;
    }
    int v = 1;
    for (int i = 0; i < r.n; i++)
        if (strcmp(r.e[i].name, name) == 0 && r.e[i].version >= v) v = r.e[i].version + 1;
    ladder_roster_free(&r);
    char added[32] = "";
    time_t now = time(NULL);
    struct tm tm;
    if (gmtime_r(&now, &tm)) strftime(added, sizeof added, "%Y-%m-%dT%H:%M:%SZ", &tm);
    char *agent = xasprintf("%s/v%d", name, v), *key = record_key(name, v);
    char *rec = record(name, v, author ? author : "", LADDER_VALIDATING, "", "", added);
    char *tkey = xasprintf(LADDER_TOKEN_KEY "%s", name);
    const char *meta[] = {key, rec, token ? tkey : NULL, token, NULL};
    int id, rc = store_add_agent(s, agent, spec, meta, &id);
    if (rc != 0) snprintf(err, errlen, "%s", store_error(s));
    free(tkey);
    free(agent);
    free(key);
    free(rec);
    *version = v;
    return rc;
}

int ladder_retire(store *s, const char *name, char *err, size_t errlen)
{
    ladder_roster r;
    if (ladder_load(s, &r, err, errlen) != 0) return -1;
    int v = 0;
    for (int i = 0; i < r.n; i++)
        if (strcmp(r.e[i].name, name) == 0 && r.e[i].state != LADDER_RETIRED) v = r.e[i].version;
    ladder_roster_free(&r);
    if (v == 0) {
        snprintf(err, errlen, "no entrant '%.80s' that is not retired already", name);
        return -1;
    }
    char *k = xasprintf("retired:%s", name), val[16];
    snprintf(val, sizeof val, "%d", v);
    int rc = store_set_meta(s, k, val);
    free(k);
    if (rc != 0) snprintf(err, errlen, "%s", store_error(s));
    return rc;
}

int ladder_set_state(store *s, const ladder_entrant *e, ladder_state st, const char *reason,
                     const char *err_text)
{
    char *k = record_key(e->name, e->version);
    char *rec = record(e->name, e->version, e->author, st, reason ? reason : "",
                       err_text ? err_text : "", e->added);
    int rc = store_set_meta(s, k, rec);
    free(k);
    free(rec);
    return rc;
}

static int find(int *up, int i)
{
    while (up[i] != i)
        i = up[i] = up[up[i]];
    return i;
}

/* One fit per group of versions linked by games, each with mean 0: a
 * retired version that never met the current field widens no one's
 * interval but its own group's (one fit over all would tie every rating
 * to the unknown offset between the groups). */
void ladder_fit(const ranked_game *g, size_t n_games, int n, double *elo, double *ci95)
{
    for (int i = 0; i < n; i++) {
        elo[i] = 0;
        ci95[i] = LADDER_CI_UNKNOWN;
    }
    if (n < 2 || n_games == 0) return;
    int *up = xcalloc((size_t)n, sizeof *up), *local = xcalloc((size_t)n, sizeof *local);
    for (int i = 0; i < n; i++)
        up[i] = i;
    for (size_t t = 0; t < n_games; t++)
        for (int k = 1; k < g[t].k; k++)
            up[find(up, g[t].agent[k])] = find(up, g[t].agent[0]);
    ranked_game *sub = xcalloc(n_games, sizeof *sub);
    for (int root = 0; root < n; root++) {
        if (find(up, root) != root) continue;
        int m = 0;
        for (int i = 0; i < n; i++)
            if (find(up, i) == root) local[i] = m++;
        size_t ns = 0;
        for (size_t t = 0; t < n_games; t++)
            if (find(up, g[t].agent[0]) == root) {
                sub[ns] = g[t];
                for (int k = 0; k < g[t].k; k++)
                    sub[ns].agent[k] = local[g[t].agent[k]];
                ns++;
            }
        if (m < 2 || ns == 0) continue;
        elo_data pw;
        elo_data_init(&pw, m);
        for (size_t t = 0; t < ns; t++)
            ranked_to_pairwise(&sub[t], &pw);
        elo_fit f;
        ranked_fit(rating_model_default(sub, ns), sub, ns, &pw, LADDER_PRIOR, -1, &f);
        for (int i = 0; i < n; i++)
            if (find(up, i) == root) {
                elo[i] = f.elo[local[i]];
                ci95[i] = f.error[local[i]];
            }
        elo_fit_free(&f);
        elo_data_free(&pw);
    }
    free(sub);
    free(local);
    free(up);
}

bool ladder_ranked(const tgame *x, int n, int64_t from, int64_t to, ranked_game *out)
{
    bool fits =
        x->done && x->s.players <= RANKED_MAX && x->s.id >= from && (to <= 0 || x->s.id < to);
    for (int k = 0; fits && k < x->s.players; k++)
        fits = x->s.seat[k] >= 0 && x->s.seat[k] < n;
    if (!fits) return false;
    *out = (ranked_game){.k = x->s.players};
    for (int k = 0; k < x->s.players; k++) {
        out->agent[k] = x->s.seat[k];
        out->rank[k] = x->rank[k];
    }
    return true;
}

void ladder_lines(const tgame *g, size_t ng, int n, int64_t from, int64_t to, ladder_line *out,
                  int64_t *games)
{
    memset(out, 0, sizeof *out * (size_t)n);
    ranked_game *rg = xcalloc(ng + 1, sizeof *rg);
    size_t nr = 0;
    for (size_t i = 0; i < ng; i++) {
        const tgame *x = &g[i];
        ranked_game r;
        if (!ladder_ranked(x, n, from, to, &r)) continue;
        for (int k = 0; k < x->s.players; k++) {
            ladder_line *l = &out[x->s.seat[k]];
            l->games++;
            l->last_game = x->s.id;
            if (x->forfeit[k][0]) l->faults++;
            for (int j = 0; j < x->s.players; j++) {
                if (j == k) continue;
                if (x->rank[k] < x->rank[j])
                    l->wins++;
                else if (x->rank[k] > x->rank[j])
                    l->losses++;
                else
                    l->draws++;
            }
        }
        rg[nr++] = r;
    }
    double *elo = xcalloc((size_t)n + 1, sizeof *elo), *ci = xcalloc((size_t)n + 1, sizeof *ci);
    ladder_fit(rg, nr, n, elo, ci);
    for (int i = 0; i < n; i++) {
        out[i].rating = elo[i];
        out[i].ci95 = ci[i];
    }
    *games = (int64_t)nr;
    free(elo);
    free(ci);
    free(rg);
}

int ladder_standings(store *s, int n, int64_t from, int64_t to, ladder_line *out, int64_t *games,
                     char *err, size_t errlen)
{
    memset(out, 0, sizeof *out * (size_t)n);
    *games = 0;
    tgame *g;
    size_t ng;
    if (store_games(s, false, &g, &ng) != 0) {
        snprintf(err, errlen, "%s", store_error(s));
        return -1;
    }
    ladder_lines(g, ng, n, from, to, out, games);
    free(g);
    return 0;
}

av *ladder_line_json(const ladder_entrant *e, const ladder_line *l)
{
    av *o = av_map();
    av_set_str(o, "name", e->name);
    av_set_int(o, "version", e->version);
    av_set_str(o, "author", e->author);
    av_set_str(o, "state", ladder_state_name(e->state));
    av_set_int(o, "games", l->games);
    av_set(o, "rating", l->games > 0 ? av_float(round(l->rating * 10) / 10) : av_nil());
    av_set(o, "ci95", l->games > 0 ? av_float(round(l->ci95 * 10) / 10) : av_nil());
    av_set(o, "provisional", av_bool(l->games == 0 || l->ci95 > LADDER_SETTLED_CI));
    av_set_int(o, "wins", l->wins);
    av_set_int(o, "losses", l->losses);
    av_set_int(o, "draws", l->draws);
    av_set_int(o, "faults", l->faults);
    av_set(o, "last_game", l->last_game ? av_int(l->last_game) : av_nil());
    av_set_str(o, "reason", e->reason);
    return o;
}
