/* The HTML report: one self-contained page (no scripts, no network) with
 * the tables and three inline SVG figures. Every stored string is data,
 * escaped where it is written; a Content-Security-Policy lets the page's own
 * style block and nothing else act, so a string that escaped anyway could
 * neither run nor fetch. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ratings.h"
#include "report.h"
#include "report_link.h"
#include "sha256.h"
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

/* s escaped, as a malloc'ed string (for a printf argument). */
static char *html_text(const char *s)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m) return xstrdup("?");
    esc(m, s);
    fclose(m);
    return buf;
}

/* Elo with error bars: one row per agent, best first. */
static void elo_chart(const report *r, const int *order, FILE *out)
{
    int n = r->n, row = 26, left = 160, width = 740, h = n * row + 40;
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
            "<svg id=\"elo-chart\" class=\"wide\" xmlns=\"http://www.w3.org/2000/svg\" "
            "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" "
            "aria-label=\"Elo with 95%% error bars\">\n",
            left + width + 20, h, left + width + 20, h);
    /* Ticks at a round step, zero among them when in range, labelled "0". */
    static const double steps[] = {1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000};
    double step = steps[sizeof steps / sizeof *steps - 1];
    for (size_t k = 0; k < sizeof steps / sizeof *steps; k++)
        if ((hi - lo) / steps[k] <= 8) {
            step = steps[k];
            break;
        }
    for (double t = ceil(lo / step) * step; t <= hi; t += step) {
        bool zero = fabs(t) < step / 2;
        fprintf(out,
                "<line class=\"%s\" x1=\"%.1f\" y1=\"10\" x2=\"%.1f\" y2=\"%d\" "
                "stroke=\"%s\"%s/><text class=\"tick-label\" x=\"%.1f\" y=\"%d\" "
                "font-size=\"11\" fill=\"#555\" text-anchor=\"middle\">%s%.0f</text>\n",
                zero ? "tick zero" : "tick", X(t), X(t), h - 25, zero ? "#999" : "#e5e5e5",
                zero ? " stroke-dasharray=\"4 3\"" : "", X(t), h - 10, !zero && t > 0 ? "+" : "",
                zero ? 0.0 : t);
    }
    for (int k = 0; k < n; k++) {
        int i = order[k];
        double y = 20 + k * row, e = r->fit.elo[i], err = r->fit.error[i];
        fprintf(out, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" font-size=\"13\">", left - 8,
                y + 4);
        esc(out, r->names[i]);
        fprintf(out, "</text>\n");
        fprintf(out,
                "<line class=\"errbar\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                "stroke=\"#56b4e9\" stroke-width=\"2\"/>\n",
                X(e - err), y, X(e + err), y);
        fprintf(out,
                "<circle class=\"elo-point\" cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"#0072b2\"/>\n",
                X(e), y);
        fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" fill=\"#555\">%+.0f</text>\n",
                X(e) + 7, y - 6, e);
    }
    fprintf(out,
            "<text x=\"%d\" y=\"%d\" font-size=\"11\" fill=\"#555\" "
            "text-anchor=\"end\">Elo</text>\n</svg>\n",
            left - 8, h - 10);
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
            /* White at 50 %, towards blue (#0072b2) above and orange
             * (#e69f00) below: a diverging scale safe for colour blindness. */
            double t = fabs(s - 0.5) * 2;
            int to[3] = {0x00, 0x72, 0xb2}, lo[3] = {0xe6, 0x9f, 0x00};
            const int *c = s >= 0.5 ? to : lo;
            int rr = (int)(255 + (c[0] - 255) * t), gg = (int)(255 + (c[1] - 255) * t),
                bb = (int)(255 + (c[2] - 255) * t);
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

/* Game lengths: every game (pair -1) or one pairing's, on a common turn
 * range [mn, mx] so the pairings compare at a glance. */
static void length_hist(const report *r, int pair, int mn, int mx, FILE *out)
{
    int bins = 20, w = pair < 0 ? 900 : 420, h = pair < 0 ? 200 : 110, left = 40;
    int span = mx - mn + 1;
    if (span < bins) bins = span > 0 ? span : 1;
    int64_t count[20] = {0}, top = 1;
    for (int64_t i = 0; i < r->n_turns; i++) {
        if (pair >= 0 && r->turn_pair[i] != pair) continue;
        int b = (int)((int64_t)(r->turns[i] - mn) * bins / span);
        if (b >= bins) b = bins - 1;
        if (b < 0) b = 0;
        if (++count[b] > top) top = count[b];
    }
    if (pair < 0)
        fputs("<svg id=\"lengths\" class=\"wide\"", out);
    else
        fprintf(out, "<svg class=\"pair-lengths\" data-pair=\"%d\"", pair);
    fprintf(out,
            " xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
            "viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"game length distribution\">\n",
            left + w + 20, h + 40, left + w + 20, h + 40);
    double bw = (double)w / bins;
    for (int b = 0; b < bins; b++) {
        double bh = (double)count[b] / top * h;
        fprintf(out,
                "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
                "fill=\"#009e73\"><title>%lld games</title></rect>\n",
                left + b * bw + 1, 10 + h - bh, bw - 2, bh, (long long)count[b]);
    }
    fprintf(out,
            "<text x=\"%d\" y=\"%d\" font-size=\"11\">%d turns</text>"
            "<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"end\">%d turns</text>"
            "<text x=\"2\" y=\"20\" font-size=\"11\">%lld</text>\n</svg>\n",
            left, h + 30, mn, left + w, h + 30, mx, (long long)top);
}

/* Date, duration, settings and agent specs. */
static void run_html(const report *r, FILE *out)
{
    fputs("<table id=\"run\"><tbody>\n", out);
    if (r->created || r->first_result[0]) {
        fputs("<tr><th class=\"name\">date</th><td class=\"name\">", out);
        esc(out, r->created ? r->created : r->first_result);
        fputs("</td></tr>\n", out);
    }
    fprintf(out,
            "<tr><th class=\"name\">duration</th><td class=\"name\">%.0f s from the first to "
            "the last result</td></tr>\n",
            r->duration_s);
    fputs("<tr><th class=\"name\">settings</th><td class=\"name\"><code>", out);
    esc(out, r->settings && r->settings[0] ? r->settings : "(defaults)");
    fputs("</code></td></tr>\n", out);
    for (int i = 0; i < r->n; i++) {
        fputs("<tr class=\"agent-spec\"><th class=\"name\">", out);
        esc(out, r->names[i]);
        fputs("</th><td class=\"name\"><code>", out);
        esc(out, r->specs[i]);
        fputs("</code></td></tr>\n", out);
    }
    fputs("</tbody></table>\n", out);
}

static void moves_html(const report *r, const int *order, FILE *out)
{
    fputs("<h2>Time per move</h2>\n", out);
    if (r->move_budget_ms > 0)
        fprintf(out,
                "<p class=\"note\">Charged time per move against the budget of %.0f ms; p95 is "
                "given to the next 5&#160;%% of the budget, or as the longest move when that "
                "is shorter.</p>\n",
                r->move_budget_ms);
    fputs("<table id=\"move-times\"><thead><tr><th class=\"name\">agent</th><th>moves</th>"
          "<th>mean ms</th><th>p95 ms</th><th>max ms</th><th>&gt;&#160;90&#160;% of budget</th>"
          "</tr></thead><tbody>\n",
          out);
    for (int k = 0; k < r->n; k++) {
        const report_moves *m = &r->moves[order[k]];
        fputs("<tr><td class=\"name\">", out);
        esc(out, r->names[order[k]]);
        fprintf(out, "</td><td>%.0f</td><td>%.2f</td>", m->moves, m->mean_ms);
        if (m->p95_ms >= 0)
            fprintf(out, "<td>%s%.*f</td>", m->p95_over ? "&gt;&#160;" : "&#8804;&#160;",
                    report_ms_decimals(m->p95_ms), m->p95_ms);
        else
            fputs("<td>&#8211;</td>", out);
        fprintf(out, "<td>%.1f</td>", m->max_ms);
        if (m->over90 >= 0)
            fprintf(out, "<td class=\"over90\">%.0f</td></tr>\n", m->over90);
        else
            fputs("<td>&#8211;</td></tr>\n", out);
    }
    fputs("</tbody></table>\n", out);
}

static void seat_html(const report *r, FILE *out)
{
    double sc, er, gm;
    report_seat_advantage(r, &sc, &er, &gm);
    if (gm <= 0) return;
    double elo = elo_from_score(sc);
    if (fabs(elo) < 0.5) elo = 0;
    fprintf(out,
            "<h2>First-seat advantage</h2>\n<p id=\"first-seat\">Seat 0 (first in seat order) "
            "scores %.1f&#160;%% "
            "&#177; %.1f against the other seats (%.0f pairwise results, Elo %+.0f).</p>\n",
            100 * sc, 100 * er, gm, elo);
}

static void forfeits_html(const report *r, const char *db, const char *page_dir, FILE *out)
{
    fputs("<h2>Forfeited games</h2>\n", out);
    if (r->n_forfeit_list == 0) {
        fputs("<p id=\"forfeited-none\">None.</p>\n", out);
        return;
    }
    fputs("<p class=\"note\">The tournament writes each forfeited game's viewer beside its "
          "log; for any other game: <code>arena replay LOG --format html -o LOG.html</code>."
          "</p>\n<table id=\"forfeited\"><thead><tr><th>game"
          "</th><th class=\"name\">agent</th><th class=\"name\">cause</th><th class=\"name\">"
          "message</th><th class=\"name\">viewer</th></tr></thead><tbody>\n",
          out);
    for (size_t i = 0; i < r->n_forfeit_list; i++) {
        const store_forfeit *f = &r->forfeit_list[i];
        fprintf(out, "<tr><td>%lld</td><td class=\"name\">", (long long)f->game);
        esc(out, r->names[f->agent]);
        fputs("</td><td class=\"name\">", out);
        esc(out, f->cause);
        fputs("</td><td class=\"name\">", out);
        esc(out, f->message);
        fputs("</td><td class=\"name\">", out);
        char *href = report_viewer_link(f->log, f->game, db, page_dir);
        if (href) {
            fputs("<a class=\"viewer\" href=\"", out);
            esc(out, href);
            fputs("\">", out);
            esc(out, href);
            fputs("</a>", out);
        } else if (f->log) { /* not found as this game's viewer: its path, as text */
            fputs("<span class=\"no-viewer\">", out);
            esc(out, f->log);
            fputs(".html (not found)</span>", out);
        } else {
            fputs("&#8211;", out);
        }
        free(href);
        fputs("</td></tr>\n", out);
    }
    fputs("</tbody></table>\n", out);
}

/* A figure cell: ms to the microsecond, a dash where it was not read. */
static void figure_td(FILE *out, double ms)
{
    if (ms < 0)
        fputs("<td>&#8211;</td>", out);
    else
        fprintf(out, "<td>%.3f</td>", ms);
}

/* Each timeout forfeit with the figures its verdict rests on, and per
 * agent how many of them those figures bear out. */
static void timeouts_html(const report *r, const int *order, FILE *out)
{
    bool any = false;
    for (int i = 0; i < r->n && !any; i++)
        any = r->timeouts[i].forfeits > 0;
    if (!any) return;
    fputs("<h2>Timeouts</h2>\n<p class=\"note\">The figures each timeout forfeit's verdict rests "
          "on, in ms (protocol.md &#167;5): the clock that timed it, what the decision could "
          "use and was charged, its wall and CPU time, the run-queue wait discounted (fair "
          "clock) and summed over its tasks, the referee's lag credited, and the host's CPU "
          "pressure over the decision. <em>Borne out</em>: the charge recomputed from them is "
          "the one charged and not under the allowance.</p>\n<table id=\"timeouts-by-agent\">"
          "<thead><tr><th class=\"name\">agent</th><th>timeout forfeits</th><th>with figures"
          "</th><th>borne out</th><th>most past the allowance (ms)</th></tr></thead><tbody>\n",
          out);
    for (int k = 0; k < r->n; k++) {
        const report_timeouts *t = &r->timeouts[order[k]];
        if (!t->forfeits) continue;
        fputs("<tr><td class=\"name\">", out);
        esc(out, r->names[order[k]]);
        fprintf(out, "</td><td>%lld</td><td>%lld</td><td>%lld</td>", (long long)t->forfeits,
                (long long)t->with_figures, (long long)t->borne_out);
        figure_td(out, t->with_figures ? t->max_over_ms : -1);
        fputs("</tr>\n", out);
    }
    fputs("</tbody></table>\n<table id=\"timeouts\"><thead><tr><th>game</th><th>seat</th>"
          "<th class=\"name\">agent</th><th class=\"name\">clock</th><th>allowance</th>"
          "<th>charged</th><th>wall</th><th>cpu</th><th>wait</th><th>wait sum</th><th>lag</th>"
          "<th>host pressure</th><th class=\"name\">verdict</th></tr></thead><tbody>\n",
          out);
    for (size_t i = 0; i < r->n_forfeit_list; i++) {
        const store_forfeit *f = &r->forfeit_list[i];
        if (strcmp(f->cause, "timeout") != 0) continue;
        fprintf(out, "<tr><td>%lld</td><td>%d</td><td class=\"name\">", (long long)f->game,
                f->seat);
        esc(out, r->names[f->agent]);
        fputs("</td>", out);
        const clock_evidence *c = &f->clock;
        if (!c->set) {
            fprintf(out, "<td class=\"name\" colspan=\"10\">no figures stored%s</td></tr>\n",
                    f->clock_column ? " (no decision was timed)" : " (stored before they were)");
            continue;
        }
        fprintf(out, "<td class=\"name\">%s</td>", clock_mode_name(c->mode));
        const double v[] = {c->allowance_ms, c->charged_ms,  c->wall_ms, c->cpu_ms,
                            c->wait_ms,      c->wait_sum_ms, c->lag_ms,  c->host_psi_ms};
        for (size_t j = 0; j < sizeof v / sizeof *v; j++)
            figure_td(out, v[j]);
        fprintf(out, "<td class=\"name\">%s</td></tr>\n",
                report_timeout_borne_out(f) ? "borne out" : "<strong>not borne out</strong>");
    }
    fputs("</tbody></table>\n", out);
}

/* The hosts that played (PostgreSQL workers): games, timeouts, speed. */
static void workers_html(const report *r, FILE *out)
{
    if (r->n_workers == 0) return;
    fputs("<h2>Workers</h2>\n<p class=\"note\">Speed: games per second of the host benchmark "
          "(<code>arena worker</code> measures it); clocks: the factor its move, bank and game "
          "clocks were scaled by under <code>--tc-scale auto</code>.</p>\n<table id=\"workers\">"
          "<thead><tr><th class=\"name\">worker</th><th>games</th><th>with a timeout</th>"
          "<th>speed</th><th>clocks</th></tr></thead><tbody>\n",
          out);
    for (size_t i = 0; i < r->n_workers; i++) {
        const store_worker *w = &r->workers[i];
        fputs("<tr><td class=\"name\">", out);
        esc(out, w->name);
        fprintf(out, "</td><td>%lld</td><td>%lld</td>", (long long)w->games,
                (long long)w->timeouts);
        if (w->speed > 0)
            fprintf(out, "<td>%.0f</td>", w->speed);
        else
            fputs("<td>&#8211;</td>", out);
        if (w->scale > 0)
            fprintf(out, "<td>&#215;%.2f</td>", w->scale);
        else
            fputs("<td>&#8211;</td>", out);
        fputs("</tr>\n", out);
    }
    fputs("</tbody></table>\n", out);
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
            "<svg id=\"sprt-llr\" class=\"wide\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
            "height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" "
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

/* The page's one style block. The page takes the window's width; charts
 * scale with it. Colours are the Okabe-Ito set, told apart with any colour
 * vision. */
static const char STYLE[] =
    "\nbody{font-family:sans-serif;margin:1em 2em;color:#222}\n"
    "svg{max-width:100%;height:auto}\nsvg.wide{width:100%}\n"
    "#lengths-by-pair{display:flex;flex-wrap:wrap;gap:1em}\n"
    "figure.pairing{margin:0;flex:0 1 30em}\nfigure.pairing svg{width:100%}\n"
    "table{border-collapse:collapse;margin:1em 0}\n"
    "td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}\n"
    "td.name,th.name{text-align:left}\nth{background:#f3f3f3}\n"
    "p.note{color:#555;max-width:50em}\n";

void report_html(const report *r, const char *db, const char *page_dir, FILE *out)
{
    int n = r->n;
    int *order = xcalloc((size_t)n + 1, sizeof(int));
    ratings_order(&r->fit, r->names, order);
    char hash[45];
    sha256_base64(STYLE, sizeof STYLE - 1, hash);
    /* Nothing loads, runs or submits; only the style block with this hash
     * styles (SVG presentation attributes are not styles). */
    fprintf(out,
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
            "style-src 'sha256-%s'; base-uri 'none'; form-action 'none'\">\n<title>Arena report: ",
            hash);
    esc(out, r->game);
    fprintf(out, "</title>\n<style>%s</style></head><body>\n", STYLE);
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
    run_html(r, out);
    if (r->sprt.on) sprt_html(r, out);

    fputs("<h2>Ranking</h2>\n<table id=\"ranking\"><thead><tr><th>rank</th>"
          "<th class=\"name\">agent</th><th>Elo</th><th>&#177; (95&#160;%)</th><th>games</th>"
          "<th>W</th><th>L</th><th>D</th><th>score</th><th>draws</th>",
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
                "</td><td>%.1f</td><td>%.1f</td><td>%lld</td><td class=\"w\">%.0f</td>"
                "<td class=\"l\">%.0f</td><td class=\"d\">%.0f</td><td>%.1f&#160;%%</td>"
                "<td>%.1f&#160;%%</td>",
                ratings_round(r->fit.elo[i], 1), ratings_round(r->fit.error[i], 1),
                (long long)r->games[i], r->wld[i * 3], r->wld[i * 3 + 1], r->wld[i * 3 + 2],
                100 * r->fit.score[i], pg > 0 ? 100 * r->draws[i] / pg : 0.0);
        for (int c = 0; c < REPORT_CAUSES; c++)
            fprintf(out, "<td>%lld</td>", (long long)r->forfeits[i * REPORT_CAUSES + c]);
        fputs("</tr>\n", out);
    }
    fputs("</tbody></table>\n", out);
    char *anchor = r->anchor >= 0 ? html_text(r->names[r->anchor]) : NULL;
    fprintf(out,
            "<p class=\"note\">Joint maximum-likelihood Elo (%s), %g virtual draws per pair as "
            "prior, %s%s. W, L, D: pairwise wins, losses and draws. Forfeit columns count games "
            "lost by forfeit, by cause.%s</p>\n",
            report_model_text(r), r->fit.regularised ? ELO_TINY_PRIOR : r->prior,
            r->anchor >= 0 ? "rating 0 for " : "mean rating 0", anchor ? anchor : "",
            r->players > 2 && r->model == RATING_PAIRWISE
                ? " Each multiplayer game counts as a pairwise result between every "
                  "two agents at the table; these results are not independent, so "
                  "the error bars are too narrow."
                : "");
    free(anchor);
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
              "<th>W-L-D</th><th>Elo</th><th>nElo</th><th>LOS</th><th>draws</th>"
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
                    x->wdl[0], x->wdl[2], x->wdl[1], ratings_round(x->tri.elo, 1), x->tri.error,
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
    int lo = 0, md = 0, hi = 0;
    if (report_lengths(r, -1, &lo, &md, &hi)) {
        length_hist(r, -1, lo, hi, out);
        if (r->n_pairs > 0) {
            fputs("<h3>Game length per pairing</h3>\n<div id=\"lengths-by-pair\">\n", out);
            for (int p = 0; p < r->n_pairs; p++) {
                fputs("<figure class=\"pairing\"><figcaption>", out);
                esc(out, r->names[r->pairs[p].a]);
                fputs(" vs ", out);
                esc(out, r->names[r->pairs[p].b]);
                fputs("</figcaption>\n", out);
                length_hist(r, p, lo, hi, out);
                fputs("</figure>\n", out);
            }
            fputs("</div>\n", out);
        }
    }
    moves_html(r, order, out);
    seat_html(r, out);
    forfeits_html(r, db, page_dir, out);
    timeouts_html(r, order, out);
    workers_html(r, out);
    fputs("</body></html>\n", out);
    free(order);
}
