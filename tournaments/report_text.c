/* The text report. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ratings.h"
#include "report.h"
#include "utf8.h"
#include "util.h"

static void forfeit_text(const report *r, int a, char *buf, size_t len)
{
    buf[0] = '\0';
    size_t off = 0;
    for (int c = 0; c < REPORT_CAUSES; c++) {
        int64_t k = r->forfeits[a * REPORT_CAUSES + c];
        if (!k || off >= len) continue;
        off += (size_t)snprintf(buf + off, len - off, "%s%s %lld", off ? ", " : "",
                                report_cause_names[c], (long long)k);
    }
    if (!buf[0]) snprintf(buf, len, "-");
}

/* The verdict, the bounds and the LLR (at most 20 points of its path). */
static void sprt_text(const report *r, FILE *out)
{
    const report_sprt *sp = &r->sprt;
    fprintf(out, "SPRT: H0 elo <= %g, H1 elo >= %g (alpha %g, beta %g); bounds [%.3f, %.3f]\n",
            sp->elo0, sp->elo1, sp->alpha, sp->beta, sp->b.lower, sp->b.upper);
    fprintf(out, "verdict: %s, LLR %.3f after %lld pairs\n", report_sprt_verdict(r), sp->llr,
            (long long)sp->n_trace);
    if (sp->n_trace == 0) return;
    fprintf(out, "LLR by pairs:");
    int64_t pts = sp->n_trace < 20 ? sp->n_trace : 20, last = -1;
    for (int64_t k = 1; k <= pts; k++) {
        int64_t i = k * sp->n_trace / pts - 1;
        if (i == last) continue;
        last = i;
        fprintf(out, " %lld:%.2f", (long long)i + 1, sp->trace[i]);
    }
    fputc('\n', out);
}

/* When, how long, with which settings and agents. */
static void run_text(const report *r, FILE *out)
{
    if (r->created || r->first_result[0])
        fprintf(out, "date: %s, %.0f s from the first to the last result\n",
                r->created ? r->created : r->first_result, r->duration_s);
    if (r->settings && r->settings[0]) fprintf(out, "settings: %s\n", r->settings);
    fprintf(out, "agents:");
    for (int i = 0; i < r->n; i++)
        fprintf(out, "%s %s = %s", i ? "," : "", r->names[i], r->specs[i]);
    fputc('\n', out);
}

static void moves_text(const report *r, const int *order, int w, FILE *out)
{
    if (r->move_budget_ms > 0)
        fprintf(out,
                "\ntime per move (budget %.0f ms a move; p95 to the next 5 %% of it, or the "
                "longest move)\n",
                r->move_budget_ms);
    else
        fprintf(out, "\ntime per move (no move budget)\n");
    fprintf(out, "%-*s %8s %9s %9s %9s %8s\n", w, "agent", "moves", "mean ms", "p95 ms", "max ms",
            ">90 %");
    for (int k = 0; k < r->n; k++) {
        const report_moves *m = &r->moves[order[k]];
        char p95[24] = "-", o90[24] = "-";
        if (m->p95_ms >= 0)
            snprintf(p95, sizeof p95, "%s%.*f",
                     m->p95_over ? ">" : "<=", report_ms_decimals(m->p95_ms), m->p95_ms);
        if (m->over90 >= 0) snprintf(o90, sizeof o90, "%.0f", m->over90);
        fprintf(out, "%-*s %8.0f %9.2f %9s %9.1f %8s\n", w, r->names[order[k]], m->moves,
                m->mean_ms, p95, m->max_ms, o90);
    }
}

static void seat_text(const report *r, FILE *out)
{
    double sc, er, gm;
    report_seat_advantage(r, &sc, &er, &gm);
    if (gm <= 0) return;
    double elo = elo_from_score(sc);
    if (fabs(elo) < 0.5) elo = 0; /* no "-0" */
    fprintf(out,
            "\nfirst-seat advantage: seat 0 (first in seat order) scores %.1f%% +/- %.1f against "
            "the other seats "
            "(%.0f pairwise results, Elo %+.0f)\n",
            100 * sc, 100 * er, gm, elo);
}

static void forfeits_text(const report *r, FILE *out)
{
    if (r->n_forfeit_list == 0) return;
    fprintf(out, "\nforfeited games (each game's viewer is LOG.html beside its log)\n");
    for (size_t i = 0; i < r->n_forfeit_list; i++) {
        const store_forfeit *f = &r->forfeit_list[i];
        fprintf(out, "game %lld  %s  %s%s%s", (long long)f->game, r->names[f->agent], f->cause,
                f->message[0] ? ": " : "", f->message);
        if (f->log) fprintf(out, "  log %s", f->log);
        fputc('\n', out);
    }
}

/* A figure in ms, "-" where it was not read. */
static const char *fig(char *buf, size_t len, double ms)
{
    if (ms < 0)
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%.3f", ms);
    return buf;
}

/* Each timeout forfeit with the figures its verdict rests on, and per
 * agent how many of them those figures bear out. */
static void timeouts_text(const report *r, const int *order, int w, FILE *out)
{
    bool any = false;
    for (int i = 0; i < r->n && !any; i++)
        any = r->timeouts[i].forfeits > 0;
    if (!any) return;
    fprintf(out, "\ntimeouts (the figures each verdict rests on, in ms; protocol.md section 5)\n");
    for (int k = 0; k < r->n; k++) {
        const report_timeouts *t = &r->timeouts[order[k]];
        if (!t->forfeits) continue;
        fprintf(out, "  %-*s %lld timeout forfeit%s, %lld with figures, %lld borne out by them", w,
                r->names[order[k]], (long long)t->forfeits, t->forfeits == 1 ? "" : "s",
                (long long)t->with_figures, (long long)t->borne_out);
        if (t->with_figures) fprintf(out, "; at most %.3f ms past the allowance", t->max_over_ms);
        fputc('\n', out);
    }
    fprintf(out, "%8s %4s %-*s %5s %10s %10s %10s %10s %10s %10s %10s %10s  %s\n", "game", "seat",
            w, "agent", "clock", "allowance", "charged", "wall", "cpu", "wait", "wait sum", "lag",
            "host psi", "verdict");
    for (size_t i = 0; i < r->n_forfeit_list; i++) {
        const store_forfeit *f = &r->forfeit_list[i];
        if (strcmp(f->cause, "timeout") != 0) continue;
        fprintf(out, "%8lld %4d %-*s", (long long)f->game, f->seat, w, r->names[f->agent]);
        if (!f->clock.set) {
            fprintf(out, "  no figures stored%s\n",
                    f->clock_column ? " (no decision was timed)" : " (stored before they were)");
            continue;
        }
        const clock_evidence *c = &f->clock;
        char b[8][32];
        fprintf(out, " %5s %10s %10s %10s %10s %10s %10s %10s %10s  %s\n", clock_mode_name(c->mode),
                fig(b[0], 32, c->allowance_ms), fig(b[1], 32, c->charged_ms),
                fig(b[2], 32, c->wall_ms), fig(b[3], 32, c->cpu_ms), fig(b[4], 32, c->wait_ms),
                fig(b[5], 32, c->wait_sum_ms), fig(b[6], 32, c->lag_ms),
                fig(b[7], 32, c->host_psi_ms),
                report_timeout_borne_out(f) ? "borne out" : "NOT borne out by its figures");
    }
}

static void workers_text(const report *r, FILE *out)
{
    if (r->n_workers == 0) return;
    fprintf(out, "\nworkers (speed: games/s of the host benchmark; clocks x scale)\n");
    for (size_t i = 0; i < r->n_workers; i++) {
        const store_worker *w = &r->workers[i];
        fprintf(out, "  %-24s %6lld games  %4lld with a timeout", w->name, (long long)w->games,
                (long long)w->timeouts);
        if (w->speed > 0) fprintf(out, "  speed %.0f", w->speed);
        if (w->scale > 0) fprintf(out, "  clocks x%.2f", w->scale);
        fputc('\n', out);
    }
}

static void lengths_text(const report *r, FILE *out)
{
    int lo, md, hi;
    if (!report_lengths(r, -1, &lo, &md, &hi)) return;
    fprintf(out, "\ngame length in turns (min / median / max): all %d / %d / %d\n", lo, md, hi);
    for (int p = 0; p < r->n_pairs; p++)
        if (report_lengths(r, p, &lo, &md, &hi))
            fprintf(out, "  %s vs %s: %d / %d / %d\n", r->names[r->pairs[p].a],
                    r->names[r->pairs[p].b], lo, md, hi);
}

static void report_text_raw(const report *r, FILE *out);

/* Every string of the report comes from the results file, which may come
 * from anyone: the page is written to memory and masked as bot text is
 * (utf8_mask_lines) before it reaches a terminal. */
void report_text(const report *r, FILE *out)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem) {
        fputs("arena: report: out of memory\n", stderr);
        return;
    }
    report_text_raw(r, mem);
    fclose(mem);
    utf8_mask_lines(text);
    fwrite(text, 1, strlen(text), out);
    free(text);
}

static void report_text_raw(const report *r, FILE *out)
{
    int n = r->n;
    int *order = xcalloc((size_t)n + 1, sizeof(int));
    ratings_order(&r->fit, r->names, order);
    int w = 5;
    for (int i = 0; i < n; i++)
        if ((int)strlen(r->names[i]) > w) w = (int)strlen(r->names[i]);
    fprintf(out, "%s: %s, %s, %d players a game, %s pairing, seed %s\n", r->kind, r->game,
            r->format, r->players ? r->players : 2, r->pairing, r->seed);
    fprintf(out, "games: %lld of %lld finished\n", (long long)r->finished, (long long)r->scheduled);
    char stop[512];
    report_stop_text(r, stop, sizeof stop);
    if (stop[0]) fprintf(out, "%s\n", stop);
    if (r->sprt.on) sprt_text(r, out);
    run_text(r, out);
    fputc('\n', out);
    fprintf(out, "%4s  %-*s %8s %7s %6s %6s %6s %6s %7s %6s  %s\n", "rank", w, "agent", "elo",
            "+/-", "games", "W", "L", "D", "score", "draws", "forfeits");
    for (int k = 0; k < n; k++) {
        int i = order[k];
        char ff[200];
        forfeit_text(r, i, ff, sizeof ff);
        double pg = r->fit.games[i];
        fprintf(out, "%4d  %-*s %8.1f %7.1f %6lld %6.0f %6.0f %6.0f %6.1f%% %5.1f%%  %s\n", k + 1,
                w, r->names[i], ratings_round(r->fit.elo[i], 1), ratings_round(r->fit.error[i], 1),
                (long long)r->games[i], r->wld[i * 3], r->wld[i * 3 + 1], r->wld[i * 3 + 2],
                100.0 * r->fit.score[i], pg > 0 ? 100.0 * r->draws[i] / pg : 0.0, ff);
    }
    fprintf(out,
            "\nElo: joint maximum likelihood, %s;\n+/- is a 95 %% interval from the "
            "observed information; %s%g virtual draws per pair as prior; %s%s%s.\n",
            report_model_text(r),
            r->fit.regularised ? "no finite estimate without a prior (perfect scores), so " : "",
            r->fit.regularised ? ELO_TINY_PRIOR : r->prior,
            r->anchor >= 0 ? "anchored at " : "mean rating 0",
            r->anchor >= 0 ? r->names[r->anchor] : "", r->anchor >= 0 ? " = 0" : "");
    if (r->players > 2)
        fprintf(out, "W L D: pairwise, every two agents at a table (better rank wins).\n");
    if (r->fit.disconnected)
        fprintf(out, "Some agents never met, not even through others: ratings across those "
                     "groups are not comparable.\n");
    if (r->players > 2 && r->model == RATING_PAIRWISE)
        fprintf(out,
                "Each %d-player game counts as a pairwise result between every two agents "
                "at the table\n(better rank wins, equal ranks draw); these pairwise results "
                "are not independent,\nso the error bars are too narrow.\n",
                r->players);

    if (n > 1) {
        fprintf(out, "\ncrosstable: score %% of the row agent against the column agent (games)\n");
        fprintf(out, "%-*s", w, "");
        for (int b = 0; b < n; b++)
            fprintf(out, " %12.12s", r->names[order[b]]);
        fputc('\n', out);
        for (int a = 0; a < n; a++) {
            int i = order[a];
            fprintf(out, "%-*s", w, r->names[i]);
            for (int b = 0; b < n; b++) {
                int j = order[b];
                double gm = r->pw.games[i * n + j];
                if (i == j || gm == 0)
                    fprintf(out, " %12s", "-");
                else {
                    char cell[32];
                    snprintf(cell, sizeof cell, "%.1f (%.0f)", 100 * r->pw.points[i * n + j] / gm,
                             gm);
                    fprintf(out, " %12s", cell);
                }
            }
            fputc('\n', out);
        }
    }
    if (r->n_pairs > 0) {
        fprintf(out, "\nhead-to-head W-L-D (first agent's view; pentanomial over seat-swapped "
                     "pairs, trinomial over games)\n");
        for (int p = 0; p < r->n_pairs; p++) {
            const report_pair *x = &r->pairs[p];
            fprintf(out, "%s vs %s: %.0f-%.0f-%.0f", r->names[x->a], r->names[x->b], x->wdl[0],
                    x->wdl[2], x->wdl[1]);
            if (x->tri.valid)
                fprintf(out,
                        "  score %.1f%%  Elo %+.1f +/- %.1f  nElo %+.1f  LOS %.1f%%  "
                        "draws %.1f%%",
                        100 * x->tri.score, ratings_round(x->tri.elo, 1), x->tri.error,
                        ratings_round(x->tri.nelo, 1), 100 * x->tri.los, 100 * x->tri.draw_ratio);
            fputc('\n', out);
            if (x->pen.valid)
                fprintf(out,
                        "    pairs [%.0f %.0f %.0f %.0f %.0f]  Elo %+.1f +/- %.1f  nElo %+.1f +/- "
                        "%.1f  LOS %.1f%%\n",
                        x->penta[0], x->penta[1], x->penta[2], x->penta[3], x->penta[4],
                        ratings_round(x->pen.elo, 1), x->pen.error, ratings_round(x->pen.nelo, 1),
                        x->pen.nelo_error, 100 * x->pen.los);
        }
    }
    if (n > 1) {
        fprintf(out, "\nLOS: probability that the row agent is stronger than the column agent\n");
        fprintf(out, "%-*s", w, "");
        for (int b = 0; b < n; b++)
            fprintf(out, " %7.7s", r->names[order[b]]);
        fputc('\n', out);
        for (int a = 0; a < n; a++) {
            int i = order[a];
            fprintf(out, "%-*s", w, r->names[i]);
            for (int b = 0; b < n; b++) {
                int j = order[b];
                if (i == j)
                    fprintf(out, " %7s", "-");
                else
                    fprintf(out, " %7.3f", r->fit.los[i * n + j]);
            }
            fputc('\n', out);
        }
    }
    moves_text(r, order, w, out);
    seat_text(r, out);
    lengths_text(r, out);
    forfeits_text(r, out);
    timeouts_text(r, order, w, out);
    workers_text(r, out);
    free(order);
}
