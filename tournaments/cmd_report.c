/* `arena report DB`: the final report of a tournament or SPRT store. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cliargs.h"
#include "commands.h"
#include "report.h"
#include "report_link.h"
#include "util.h"

static void report_help(FILE *out)
{
    fputs("usage: arena report DB [--format text|json|html] [-o FILE] [--prior N]\n"
          "                     [--anchor NAME]\n"
          "\n"
          "Report of the tournament (or SPRT run) stored in the SQLite file DB, or in\n"
          "PostgreSQL when DB is a postgresql://...#NAME URL (then the text report also\n"
          "says which host holds which match logs); works while it runs and on a\n"
          "stopped one (it counts finished games only).\n"
          "\n"
          "  --format F     text (default): ranking table (rank, agent, Elo, +/-, games,\n"
          "                 score %, draws, forfeits by cause), crosstable, head-to-head\n"
          "                 (trinomial and pentanomial), LOS matrix, time per move,\n"
          "                 forfeited games, and each timeout forfeit with the figures\n"
          "                 its verdict rests on (clock, allowance, charged, wall, CPU,\n"
          "                 waits, lag, host CPU pressure; protocol.md §5);\n"
          "                 json: the same, machine-readable, with \"games\" (finished\n"
          "                 games) and \"ratings\": [{\"agent\", \"elo\", \"error\", \"games\",\n"
          "                 \"score\"}] as `arena elo` prints them;\n"
          "                 html: one self-contained page with the tables, an Elo chart\n"
          "                 with error bars, a score heatmap and the game-length\n"
          "                 distribution (inline SVG, no network)\n"
          "  -o FILE        write to FILE instead of stdout (also --output FILE)\n"
          "  --prior N      virtual draws per pair that met (default 2; 0: none)\n"
          "  --anchor NAME  fix NAME at Elo 0 (default: mean rating 0)\n"
          "  --help         this text\n",
          out);
}

int cmd_report(int argc, char **argv)
{
    const char *db = NULL, *format = "text", *outpath = NULL, *anchor = NULL, *v;
    double prior = 2.0;
    for (int i = 1; i < argc; i++) {
        int r;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            report_help(stdout);
            return 0;
        } else if ((r = cli_value(argc, argv, &i, "--format", &v)) != 0) {
            if (r < 0) return 2;
            if (strcmp(v, "text") && strcmp(v, "json") && strcmp(v, "html"))
                return cli_usage_error("--format must be text, json or html, not '%s'", v);
            format = v;
        } else if ((r = cli_value(argc, argv, &i, "-o", &v)) != 0 ||
                   (r = cli_value(argc, argv, &i, "--output", &v)) != 0) {
            if (r < 0) return 2;
            outpath = v;
        } else if ((r = cli_value(argc, argv, &i, "--prior", &v)) != 0) {
            if (r < 0) return 2;
            if (!cli_double(v, 0, 1e6, &prior))
                return cli_usage_error("--prior needs a number >= 0, not '%s'", v);
        } else if ((r = cli_value(argc, argv, &i, "--anchor", &v)) != 0) {
            if (r < 0) return 2;
            anchor = v;
        } else if (argv[i][0] == '-') {
            return cli_usage_error("report: unknown option '%s' (see arena report --help)",
                                   argv[i]);
        } else if (db) {
            return cli_usage_error("report: only one results file, got '%s' and '%s'", db, argv[i]);
        } else {
            db = argv[i];
        }
    }
    if (!db) return cli_usage_error("report: missing results DB (see arena report --help)");
    char err[512];
    if (!store_is_url(db)) {
        FILE *probe = fopen(db, "rb");
        if (!probe) return cli_usage_error("report: cannot open '%s'", db);
        fclose(probe);
    }
    store *s = store_open(db, false, err, sizeof err);
    if (!s) return cli_usage_error("report: %s", err);
    report rep;
    if (report_load(s, prior, anchor, &rep, err, sizeof err) != 0) {
        store_close(s);
        report_free(&rep);
        return cli_usage_error("report: %s", err);
    }
    /* With workers on several hosts, which host holds which logs. */
    store_log_host *hosts = NULL;
    size_t n_hosts = 0;
    store_log_hosts(s, &hosts, &n_hosts);
    store_close(s);
    FILE *out = stdout;
    if (outpath && !(out = fopen(outpath, "w"))) {
        report_free(&rep);
        store_log_hosts_free(hosts, n_hosts);
        fprintf(stderr, "arena: report: cannot write '%s'\n", outpath);
        return 1;
    }
    if (strcmp(format, "json") == 0) {
        av *j = report_json(&rep);
        char *js = av_to_json(j);
        fprintf(out, "%s\n", js);
        free(js);
        av_free(j);
    } else if (strcmp(format, "html") == 0) {
        char *page_dir = report_page_dir(outpath);
        report_html(&rep, db, page_dir, out);
        free(page_dir);
    } else {
        report_text(&rep, out);
        if (n_hosts) fprintf(out, "\nmatch logs (host: directory, games):\n");
        for (size_t i = 0; i < n_hosts; i++)
            fprintf(out, "  %s: %s/ (%lld)\n", hosts[i].host, hosts[i].dir,
                    (long long)hosts[i].games);
    }
    int rc = 0;
    if (out != stdout) {
        if (fclose(out) != 0) rc = 1;
    } else if (fflush(out) != 0) {
        rc = 1;
    }
    report_free(&rep);
    store_log_hosts_free(hosts, n_hosts);
    return rc;
}
