/* The JSON report: everything of the text report, machine-readable. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ratings.h"
#include "report.h"
#include "util.h"

/* JSON has no infinity: an unbounded value is null. */
static av *num(double x, int decimals)
{
    return isfinite(x) ? av_float(ratings_round(x, decimals)) : av_nil();
}

static av *h2h_json(const h2h *h)
{
    av *m = av_map();
    av_set(m, "score", num(h->score, 4));
    av_set(m, "elo", num(h->elo, 1));
    av_set(m, "error", num(h->error, 1));
    av_set(m, "nelo", num(h->nelo, 1));
    av_set(m, "nelo_error", num(h->nelo_error, 1));
    av_set(m, "los", num(h->los, 4));
    av_set(m, "draw_ratio", num(h->draw_ratio, 4));
    return m;
}

/* A figure cut to the microsecond as stored; null where not read. */
static av *figure(double ms)
{
    return ms < 0 ? av_nil() : num(ms, 3);
}

/* A timeout's figures in the shape of the fault record's `clock` map. */
static av *clock_json(const clock_evidence *c)
{
    av *m = av_map();
    av_set_str(m, "mode", clock_mode_name(c->mode));
    av_set(m, "allowance_ms", figure(c->allowance_ms));
    av_set(m, "charged_ms", figure(c->charged_ms));
    av_set(m, "wall_ms", figure(c->wall_ms));
    av_set(m, "cpu_ms", figure(c->cpu_ms));
    av_set(m, "wait_ms", figure(c->wait_ms));
    av_set(m, "wait_sum_ms", figure(c->wait_sum_ms));
    av_set(m, "lag_ms", figure(c->lag_ms));
    av_set(m, "host_psi_ms", figure(c->host_psi_ms));
    return m;
}

/* Every timeout forfeit with its figures (null: none stored) and whether
 * they give its verdict. */
static av *timeouts_json(const report *r)
{
    av *l = av_list();
    for (size_t i = 0; i < r->n_forfeit_list; i++) {
        const store_forfeit *f = &r->forfeit_list[i];
        if (strcmp(f->cause, "timeout") != 0) continue;
        av *e = av_map();
        av_set_int(e, "game", f->game);
        av_set_int(e, "seat", f->seat);
        av_set_str(e, "agent", r->names[f->agent]);
        av_set(e, "clock", f->clock.set ? clock_json(&f->clock) : av_nil());
        av_set(e, "borne_out", f->clock.set ? av_bool(report_timeout_borne_out(f)) : av_nil());
        av_push(l, e);
    }
    return l;
}

av *report_json(const report *r)
{
    int n = r->n;
    av *root = av_map();
    av_set_str(root, "kind", r->kind);
    av_set_str(root, "game", r->game);
    av_set_str(root, "format", r->format);
    av_set_str(root, "seed", r->seed);
    av_set_str(root, "pairing", r->pairing);
    av_set_int(root, "players", r->players ? r->players : 2);
    av_set_int(root, "games", r->finished);
    av_set_int(root, "scheduled", r->scheduled);
    av *st = av_map();
    av_set_str(st, "rule", r->stop ? r->stop : "none");
    av_set_bool(st, "stopped_early", r->stopped != NULL);
    if (r->stopped) {
        av_set_str(st, "why", r->stopped);
        av_set_str(st, "at", r->stopped_at ? r->stopped_at : "?");
    }
    av_set(root, "stop", st);
    if (r->sprt.on) {
        const report_sprt *sp = &r->sprt;
        av *m = av_map();
        av_set(m, "elo0", av_float(sp->elo0));
        av_set(m, "elo1", av_float(sp->elo1));
        av_set(m, "alpha", av_float(sp->alpha));
        av_set(m, "beta", av_float(sp->beta));
        av_set(m, "lower", num(sp->b.lower, 4));
        av_set(m, "upper", num(sp->b.upper, 4));
        av_set(m, "llr", num(sp->llr, 4));
        av_set_str(m, "verdict", report_sprt_verdict(r));
        av *tr = av_list();
        for (int64_t i = 0; i < sp->n_trace; i++)
            av_push(tr, num(sp->trace[i], 4));
        av_set(m, "llr_by_pair", tr);
        av_set(root, "sprt", m);
    }
    av_set(root, "ratings", ratings_json(&r->fit, r->names, r->games));
    av_set(root, "los", ratings_los_json(&r->fit, r->names));
    av *rm = av_map();
    av_set_str(rm, "model", rating_model_name(r->model));
    av_set(rm, "prior", av_float(r->fit.regularised ? ELO_TINY_PRIOR : r->prior));
    av_set_bool(rm, "regularised", r->fit.regularised);
    av_set_bool(rm, "disconnected", r->fit.disconnected);
    if (r->anchor >= 0)
        av_set_str(rm, "anchor", r->names[r->anchor]);
    else
        av_set(rm, "anchor", av_nil());
    bool split = r->players > 2 && r->model == RATING_PAIRWISE;
    av_set_bool(rm, "pairwise_from_multiplayer", split);
    if (split)
        av_set_str(rm, "note", "pairwise results from one multiplayer game are not independent");
    av_set(root, "rating_model", rm);

    av *run = av_map();
    av_set(run, "created", r->created ? av_str(r->created) : av_nil());
    av_set(run, "first_result", r->first_result[0] ? av_str(r->first_result) : av_nil());
    av_set(run, "last_result", r->last_result[0] ? av_str(r->last_result) : av_nil());
    av_set(run, "duration_s", num(r->duration_s, 1));
    av_set_str(run, "settings", r->settings ? r->settings : "");
    av_set(run, "move_budget_ms", r->move_budget_ms > 0 ? av_float(r->move_budget_ms) : av_nil());
    av_set(root, "run", run);
    double sc, er, gm;
    report_seat_advantage(r, &sc, &er, &gm);
    av *seat = av_map();
    av_set(seat, "score", num(sc, 4));
    av_set(seat, "error", num(er, 4));
    av_set(seat, "pairwise_results", av_float(gm));
    av_set(seat, "elo", num(elo_from_score(sc), 1));
    av_set(root, "first_seat", seat);
    av *fl = av_list();
    for (size_t i = 0; i < r->n_forfeit_list; i++) {
        const store_forfeit *f = &r->forfeit_list[i];
        av *e = av_map();
        av_set_int(e, "game", f->game);
        av_set_str(e, "agent", r->names[f->agent]);
        av_set_str(e, "cause", f->cause);
        av_set_str(e, "message", f->message);
        av_set(e, "log", f->log ? av_str(f->log) : av_nil());
        av_push(fl, e);
    }
    av_set(root, "forfeited_games", fl);
    av_set(root, "timeouts", timeouts_json(r));
    av *wl = av_list();
    for (size_t i = 0; i < r->n_workers; i++) {
        const store_worker *w = &r->workers[i];
        av *e = av_map();
        av_set_str(e, "name", w->name);
        av_set_int(e, "games", w->games);
        av_set_int(e, "timeouts", w->timeouts);
        av_set(e, "speed", w->speed > 0 ? av_float(w->speed) : av_nil());
        av_set(e, "scale", w->scale > 0 ? av_float(w->scale) : av_nil());
        av_push(wl, e);
    }
    av_set(root, "workers", wl);

    av *agents = av_list();
    for (int i = 0; i < n; i++) {
        av *a = av_map();
        av_set_str(a, "agent", r->names[i]);
        av_set_str(a, "spec", r->specs[i]);
        av_set_int(a, "games", r->games[i]);
        av_set(a, "pairwise_games", av_float(r->fit.games[i]));
        av_set(a, "score", av_float(ratings_round(r->fit.score[i], 4)));
        av_set(a, "draws", av_float(r->draws[i]));
        av *ff = av_map();
        for (int c = 0; c < REPORT_CAUSES; c++)
            av_set_int(ff, report_cause_names[c], r->forfeits[i * REPORT_CAUSES + c]);
        av_set(a, "forfeits", ff);
        const report_timeouts *t = &r->timeouts[i];
        av *to = av_map();
        av_set_int(to, "forfeits", t->forfeits);
        av_set_int(to, "with_figures", t->with_figures);
        av_set_int(to, "borne_out", t->borne_out);
        av_set(to, "max_over_ms", num(t->max_over_ms, 3));
        av_set(a, "timeouts", to);
        av *wld = av_list();
        for (int k = 0; k < 3; k++)
            av_push(wld, av_int((int64_t)r->wld[i * 3 + k]));
        av_set(a, "wld", wld); /* pairwise wins, losses, draws */
        const report_moves *m = &r->moves[i];
        av *mv = av_map();
        av_set(mv, "moves", av_float(m->moves));
        av_set(mv, "mean_ms", num(m->mean_ms, 3));
        av_set(mv, "p95_ms", m->p95_ms >= 0 ? num(m->p95_ms, 3) : av_nil());
        av_set_bool(mv, "p95_over_budget", m->p95_over);
        av_set(mv, "max_ms", num(m->max_ms, 3));
        av_set(mv, "over_90_percent", m->over90 >= 0 ? av_float(m->over90) : av_nil());
        av_set(a, "move_time", mv);
        av_push(agents, a);
    }
    av_set(root, "agents", agents);

    av *xt = av_map();
    for (int i = 0; i < n; i++) {
        av *row = av_map();
        for (int j = 0; j < n; j++) {
            double gm = r->pw.games[i * n + j];
            if (i == j || gm == 0) continue;
            av *c = av_map();
            av_set(c, "points", av_float(r->pw.points[i * n + j]));
            av_set(c, "games", av_float(gm));
            av_set(row, r->names[j], c);
        }
        av_set(xt, r->names[i], row);
    }
    av_set(root, "crosstable", xt);

    av *hh = av_list();
    for (int p = 0; p < r->n_pairs; p++) {
        const report_pair *x = &r->pairs[p];
        av *e = av_map();
        av_set_str(e, "agent", r->names[x->a]);
        av_set_str(e, "opponent", r->names[x->b]);
        av *wdl = av_list();
        for (int k = 0; k < 3; k++)
            av_push(wdl, av_int((int64_t)x->wdl[k]));
        av_set(e, "wdl", wdl);
        av *wld = av_list();
        av_push(wld, av_int((int64_t)x->wdl[0]));
        av_push(wld, av_int((int64_t)x->wdl[2]));
        av_push(wld, av_int((int64_t)x->wdl[1]));
        av_set(e, "wld", wld);
        int lo, md, hi;
        if (report_lengths(r, p, &lo, &md, &hi)) {
            av *l = av_map();
            av_set_int(l, "min", lo);
            av_set_int(l, "median", md);
            av_set_int(l, "max", hi);
            av_set(e, "length", l);
        }
        av *pen = av_list();
        for (int k = 0; k < 5; k++)
            av_push(pen, av_int((int64_t)x->penta[k]));
        av_set(e, "pentanomial", pen);
        if (x->tri.valid) av_set(e, "trinomial_stats", h2h_json(&x->tri));
        if (x->pen.valid) av_set(e, "pentanomial_stats", h2h_json(&x->pen));
        av_push(hh, e);
    }
    av_set(root, "head_to_head", hh);

    av *len = av_map();
    int64_t mn = 0, mx = 0;
    double sum = 0;
    for (int64_t i = 0; i < r->n_turns; i++) {
        int t = r->turns[i];
        if (i == 0 || t < mn) mn = t;
        if (i == 0 || t > mx) mx = t;
        sum += t;
    }
    av_set_int(len, "min", mn);
    av_set_int(len, "max", mx);
    av_set(len, "mean", av_float(r->n_turns ? ratings_round(sum / (double)r->n_turns, 2) : 0));
    av *tl = av_list();
    for (int64_t i = 0; i < r->n_turns; i++)
        av_push(tl, av_int(r->turns[i]));
    av_set(len, "turns", tl);
    av_set(root, "game_length", len);
    return root;
}
