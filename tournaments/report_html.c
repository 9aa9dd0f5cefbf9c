/* The HTML report: one self-contained page (no scripts, no network) with
 * the tables and three inline SVG figures. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ratings.h"
#include "report.h"
#include "util.h"

static void esc(FILE *out, const char *s)
{
    for (; *s; s++)
        switch (*s) {
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '&': fputs("&amp;", out); break;
        case '"': fputs("&quot;", out); break;
        case '\'': fputs("&#39;", out); break;
        default: fputc(*s, out);
        }
}

/* Elo with error bars: one row per agent, best first. */
static void elo_chart(const report *r, const int *order, FILE *out)
{
    int n = r->n, row = 26, left = 160, width = 520, h = n * row + 40;
    double lo = 0, hi = 0;
    for (int i = 0; i < n; i++) {
        double a = r->fit.elo[i] - r->fit.error[i], b = r->fit.elo[i] + r->fit.error[i];
        if (i == 0 || a < lo) lo = a;
        if (i == 0 || b > hi) hi = b;
    }
    if (hi - lo < 1) {
        lo -= 1;
        hi += 1;
    }
    double pad = (hi - lo) * 0.05;
    lo -= pad;
    hi += pad;
#define X(v) (left + ((v)-lo) / (hi - lo) * width)
    fprintf(out,
            "<svg id=\"elo-chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
            "height=\"%d\" role=\"img\" aria-label=\"Elo with 95%% error bars\">\n",
            left + width + 20, h);
    if (lo < 0 && hi > 0)
        fprintf(out,
                "<line x1=\"%.1f\" y1=\"10\" x2=\"%.1f\" y2=\"%d\" stroke=\"#bbb\" "
                "stroke-dasharray=\"4 3\"/>\n",
                X(0.0), X(0.0), h - 25);
    for (int k = 0; k < n; k++) {
        int i = order[k];
        double y = 20 + k * row, e = r->fit.elo[i], err = r->fit.error[i];
        fprintf(out, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" font-size=\"13\">", left - 8,
                y + 4);
        esc(out, r->names[i]);
        fprintf(out, "</text>\n");
        fprintf(out,
                "<line class=\"errbar\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                "stroke=\"#3465a4\" stroke-width=\"2\"/>\n",
                X(e - err), y, X(e + err), y);
        fprintf(out,
                "<circle class=\"elo-point\" cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"#204a87\"/>\n",
                X(e), y);
        fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" fill=\"#555\">%+.0f</text>\n",
                X(e) + 7, y - 6, e);
    }
    fprintf(out,
            "<text x=\"%d\" y=\"%d\" font-size=\"11\" fill=\"#555\">%.0f</text>"
            "<text x=\"%d\" y=\"%d\" font-size=\"11\" fill=\"#555\" "
            "text-anchor=\"end\">%.0f Elo</text>\n</svg>\n",
            left, h - 8, lo, left + width, h - 8, hi);
#undef X
}

static void heatmap(const report *r, const int *order, FILE *out)
{
    int n = r->n, cell = 44, left = 160, top = 80;
    fprintf(out,
            "<svg id=\"heatmap\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
            "height=\"%d\" role=\"img\" aria-label=\"score heatmap\">\n",
            left + n * cell + 20, top + n * cell + 20);
    for (int b = 0; b < n; b++) {
        fprintf(out, "<text transform=\"translate(%d,%d) rotate(-60)\" font-size=\"12\">",
                left + b * cell + cell / 2, top - 6);
        esc(out, r->names[order[b]]);
        fprintf(out, "</text>\n");
    }
    for (int a = 0; a < n; a++) {
        int i = order[a];
        fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" font-size=\"12\">", left - 6,
                top + a * cell + cell / 2 + 4);
        esc(out, r->names[i]);
        fprintf(out, "</text>\n");
        for (int b = 0; b < n; b++) {
            int j = order[b];
            double gm = r->pw.games[i * n + j];
            int x = left + b * cell, y = top + a * cell;
            if (i == j || gm == 0) {
                fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#eee\"/>\n",
                        x, y, cell - 2, cell - 2);
                continue;
            }
            double s = r->pw.points[i * n + j] / gm;
            /* Red below 50 %, green above, white at 50 %. */
            int rr = s < 0.5 ? 255 : (int)(255 - (s - 0.5) * 2 * 180);
            int gg = s > 0.5 ? 255 : (int)(255 - (0.5 - s) * 2 * 180);
            int bb = (int)(255 - fabs(s - 0.5) * 2 * 180);
            fprintf(out,
                    "<rect class=\"cell\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
                    "fill=\"rgb(%d,%d,%d)\"><title>%.1f%% in %.0f games</title></rect>\n",
                    x, y, cell - 2, cell - 2, rr, gg, bb, 100 * s, gm);
            fprintf(out,
                    "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"11\">%.0f</text>\n",
                    x + cell / 2 - 1, y + cell / 2 + 3, 100 * s);
        }
    }
    fprintf(out, "</svg>\n");
}

static void length_hist(const report *r, FILE *out)
{
    int bins = 20, w = 600, h = 200, left = 40;
    int mn = 0, mx = 0;
    for (int64_t i = 0; i < r->n_turns; i++) {
        if (i == 0 || r->turns[i] < mn) mn = r->turns[i];
        if (i == 0 || r->turns[i] > mx) mx = r->turns[i];
    }
    int span = mx - mn + 1;
    if (span < bins) bins = span > 0 ? span : 1;
    int64_t count[20] = {0}, top = 1;
    for (int64_t i = 0; i < r->n_turns; i++) {
        int b = (int)((int64_t)(r->turns[i] - mn) * bins / span);
        if (b >= bins) b = bins - 1;
        if (++count[b] > top) top = count[b];
    }
    fprintf(out,
            "<svg id=\"lengths\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
            "height=\"%d\" role=\"img\" aria-label=\"game length distribution\">\n",
            left + w + 20, h + 40);
    double bw = (double)w / bins;
    for (int b = 0; b < bins; b++) {
        double bh = (double)count[b] / top * h;
        fprintf(out,
                "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
                "fill=\"#73d216\"><title>%lld games</title></rect>\n",
                left + b * bw + 1, 10 + h - bh, bw - 2, bh, (long long)count[b]);
    }
    fprintf(out,
            "<text x=\"%d\" y=\"%d\" font-size=\"11\">%d turns</text>"
            "<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"end\">%d turns</text>"
            "<text x=\"2\" y=\"20\" font-size=\"11\">%lld</text>\n</svg>\n",
            left, h + 30, mn, left + w, h + 30, mx, (long long)top);
}

/* The SPRT: verdict and bounds, and the LLR after each pair as a line
 * between the two bounds. */
static void sprt_html(const report *r, FILE *out)
{
    const report_sprt *sp = &r->sprt;
    fprintf(out,
            "<h2>SPRT</h2>\n<p id=\"sprt-verdict\"><b>%s</b>: LLR %.3f after %lld pairs, "
            "bounds [%.3f, %.3f] (H0 elo &#8804; %g, H1 elo &#8805; %g, alpha %g, beta "
            "%g).</p>\n",
            report_sprt_verdict(r), sp->llr, (long long)sp->n_trace, sp->b.lower, sp->b.upper,
            sp->elo0, sp->elo1, sp->alpha, sp->beta);
    int w = 900, h = 260, left = 50, top = 10;
    double lo = sp->b.lower, hi = sp->b.upper;
    for (int64_t i = 0; i < sp->n_trace; i++) {
        if (sp->trace[i] < lo) lo = sp->trace[i];
        if (sp->trace[i] > hi) hi = sp->trace[i];
    }
    double pad = (hi - lo) * 0.05;
    lo -= pad;
    hi += pad;
    int64_t nx = sp->n_trace > 1 ? sp->n_trace : 1;
#define PY(v) (top + (hi - (v)) / (hi - lo) * h)
    fprintf(out,
            "<svg id=\"sprt-llr\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
            "height=\"%d\" viewBox=\"0 0 %d %d\" style=\"max-width:100%%\" role=\"img\" "
            "aria-label=\"LLR after each pair\">\n",
            left + w + 20, top + h + 30, left + w + 20, top + h + 30);
    const double bound[3] = {sp->b.lower, 0, sp->b.upper};
    const char *label[3] = {"H0", "0", "H1"};
    for (int k = 0; k < 3; k++)
        fprintf(out,
                "<line class=\"bound\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
                "stroke=\"%s\" stroke-dasharray=\"%s\"/><text x=\"%d\" y=\"%.1f\" "
                "font-size=\"11\" text-anchor=\"end\">%s %.2f</text>\n",
                left, PY(bound[k]), left + w, PY(bound[k]), k == 1 ? "#999" : "#d55e00",
                k == 1 ? "2 3" : "6 3", left - 4, PY(bound[k]) + 4, label[k], bound[k]);
    if (sp->n_trace > 0) {
        fputs("<polyline class=\"llr\" fill=\"none\" stroke=\"#0072b2\" stroke-width=\"2\" "
              "points=\"",
              out);
        for (int64_t i = 0; i < sp->n_trace; i++)
            fprintf(out, "%s%.1f,%.1f", i ? " " : "",
                    left + (sp->n_trace > 1 ? (double)i / (double)(nx - 1) * w : 0.0),
                    PY(sp->trace[i]));
        fputs("\"/>\n", out);
    }
    fprintf(out,
            "<text x=\"%d\" y=\"%d\" font-size=\"11\">pair 1</text><text x=\"%d\" "
            "y=\"%d\" font-size=\"11\" text-anchor=\"end\">pair %lld</text>\n</svg>\n",
            left, top + h + 20, left + w, top + h + 20, (long long)sp->n_trace);
#undef PY
}

void report_html(const report *r, FILE *out)
{
    int n = r->n;
    int *order = xcalloc((size_t)n + 1, sizeof(int));
    ratings_order(&r->fit, r->names, order);
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>", out);
    fputs("Arena report: ", out);
    esc(out, r->game);
    fputs("</title>\n<style>\nbody{font-family:sans-serif;margin:2em;color:#222}\n"
          "table{border-collapse:collapse;margin:1em 0}\n"
          "td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}\n"
          "td.name,th.name{text-align:left}\nth{background:#f3f3f3}\n"
          "p.note{color:#555;max-width:50em}\n</style></head><body>\n",
          out);
    fputs("<h1>Arena report: ", out);
    esc(out, r->game);
    fputs("</h1>\n<p id=\"summary\">", out);
    esc(out, r->kind);
    fprintf(out, ", format ");
    esc(out, r->format);
    fprintf(out, ", %d players a game, ", r->players ? r->players : 2);
    esc(out, r->pairing);
    fprintf(out, " pairing, seed ");
    esc(out, r->seed);
    fprintf(out, ". <span id=\"games\">%lld</span> of %lld games finished.</p>\n",
            (long long)r->finished, (long long)r->scheduled);
    char stop[512];
    report_stop_text(r, stop, sizeof stop);
    if (stop[0]) {
        fputs("<p id=\"stopped\">", out);
        esc(out, stop);
        fputs("</p>\n", out);
    }
    if (r->sprt.on) sprt_html(r, out);

    fputs("<h2>Ranking</h2>\n<table id=\"ranking\"><thead><tr><th>rank</th>"
          "<th class=\"name\">agent</th><th>Elo</th><th>&#177; (95&#160;%)</th><th>games</th>"
          "<th>score</th><th>draws</th>",
          out);
    for (int c = 0; c < REPORT_CAUSES; c++)
        fprintf(out, "<th>%s</th>", report_cause_names[c]);
    fputs("</tr></thead><tbody>\n", out);
    for (int k = 0; k < n; k++) {
        int i = order[k];
        double pg = r->fit.games[i];
        fprintf(out, "<tr><td>%d</td><td class=\"name\">", k + 1);
        esc(out, r->names[i]);
        fprintf(out,
                "</td><td>%.1f</td><td>%.1f</td><td>%lld</td><td>%.1f&#160;%%</td>"
                "<td>%.1f&#160;%%</td>",
                ratings_round(r->fit.elo[i], 1), ratings_round(r->fit.error[i], 1),
                (long long)r->games[i], 100 * r->fit.score[i],
                pg > 0 ? 100 * r->draws[i] / pg : 0.0);
        for (int c = 0; c < REPORT_CAUSES; c++)
            fprintf(out, "<td>%lld</td>", (long long)r->forfeits[i * REPORT_CAUSES + c]);
        fputs("</tr>\n", out);
    }
    fputs("</tbody></table>\n", out);
    fprintf(out,
            "<p class=\"note\">Joint maximum-likelihood Elo (%s), %g virtual draws per pair as "
            "prior, %s%s. Forfeit columns count games lost by forfeit, by cause.%s</p>\n",
            report_model_text(r), r->fit.regularised ? ELO_TINY_PRIOR : r->prior,
            r->anchor >= 0 ? "rating 0 for " : "mean rating 0",
            r->anchor >= 0 ? r->names[r->anchor] : "",
            r->players > 2 && r->model == RATING_PAIRWISE
                ? " Each multiplayer game counts as a pairwise result between every "
                  "two agents at the table; these results are not independent, so "
                  "the error bars are too narrow."
                : "");
    fputs("<h2>Elo</h2>\n", out);
    elo_chart(r, order, out);

    fputs("<h2>Crosstable</h2>\n<p class=\"note\">Score of the row agent against the column "
          "agent, in percent (games).</p>\n<table id=\"crosstable\"><thead><tr><th></th>",
          out);
    for (int b = 0; b < n; b++) {
        fputs("<th>", out);
        esc(out, r->names[order[b]]);
        fputs("</th>", out);
    }
    fputs("</tr></thead><tbody>\n", out);
    for (int a = 0; a < n; a++) {
        int i = order[a];
        fputs("<tr><th class=\"name\">", out);
        esc(out, r->names[i]);
        fputs("</th>", out);
        for (int b = 0; b < n; b++) {
            int j = order[b];
            double gm = r->pw.games[i * n + j];
            if (i == j || gm == 0)
                fputs("<td>&#8211;</td>", out);
            else
                fprintf(out, "<td>%.1f (%.0f)</td>", 100 * r->pw.points[i * n + j] / gm, gm);
        }
        fputs("</tr>\n", out);
    }
    fputs("</tbody></table>\n<h2>Score heatmap</h2>\n", out);
    heatmap(r, order, out);

    if (r->n_pairs > 0) {
        fputs("<h2>Head-to-head</h2>\n<table id=\"h2h\"><thead><tr><th class=\"name\">pair</th>"
              "<th>W-D-L</th><th>Elo</th><th>nElo</th><th>LOS</th><th>draws</th>"
              "<th>pairs 0/&#189;/1/1&#189;/2</th><th>pair Elo</th></tr></thead><tbody>\n",
              out);
        for (int p = 0; p < r->n_pairs; p++) {
            const report_pair *x = &r->pairs[p];
            fputs("<tr><td class=\"name\">", out);
            esc(out, r->names[x->a]);
            fputs(" vs ", out);
            esc(out, r->names[x->b]);
            fprintf(out,
                    "</td><td>%.0f-%.0f-%.0f</td><td>%+.1f &#177; %.1f</td><td>%+.1f</td>"
                    "<td>%.1f&#160;%%</td><td>%.1f&#160;%%</td><td>%.0f/%.0f/%.0f/%.0f/%.0f</td>"
                    "<td>%+.1f &#177; %.1f</td></tr>\n",
                    x->wdl[0], x->wdl[1], x->wdl[2], ratings_round(x->tri.elo, 1), x->tri.error,
                    ratings_round(x->tri.nelo, 1), 100 * x->tri.los, 100 * x->tri.draw_ratio,
                    x->penta[0], x->penta[1], x->penta[2], x->penta[3], x->penta[4],
                    ratings_round(x->pen.elo, 1), x->pen.error);
        }
        fputs("</tbody></table>\n", out);
    }
    fputs("<h2>Likelihood of superiority</h2>\n<table id=\"los\"><thead><tr><th></th>", out);
    for (int b = 0; b < n; b++) {
        fputs("<th>", out);
        esc(out, r->names[order[b]]);
        fputs("</th>", out);
    }
    fputs("</tr></thead><tbody>\n", out);
    for (int a = 0; a < n; a++) {
        int i = order[a];
        fputs("<tr><th class=\"name\">", out);
        esc(out, r->names[i]);
        fputs("</th>", out);
        for (int b = 0; b < n; b++)
            if (order[b] == i)
                fputs("<td>&#8211;</td>", out);
            else
                fprintf(out, "<td>%.3f</td>", r->fit.los[i * n + order[b]]);
        fputs("</tr>\n", out);
    }
    fputs("</tbody></table>\n<h2>Game length</h2>\n", out);
    length_hist(r, out);
    fputs("</body></html>\n", out);
    free(order);
}
