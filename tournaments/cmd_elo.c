/* `arena elo FILE`: ratings from a plain results file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cliargs.h"
#include "commands.h"
#include "elo.h"
#include "ranked.h"
#include "ratings.h"
#include "utf8.h"
#include "util.h"

static void elo_help(FILE *out)
{
    fputs("usage: arena elo FILE [--model M] [--prior N] [--anchor NAME]\n"
          "                [--format text|json]\n"
          "\n"
          "Joint maximum-likelihood Elo (400*log10 scale) from a plain results file,\n"
          "with 95 % error bars from the observed information (covariance) and a\n"
          "likelihood-of-superiority (LOS) matrix.\n"
          "\n"
          "FILE: one game per line, agent names from best to worst separated by\n"
          "spaces, '=' between two names sharing a rank:\n"
          "  A B        A beat B\n"
          "  A = B      draw\n"
          "  A B = C    A first, B and C tied second\n"
          "Blank lines and lines starting with '#' are ignored; '-' reads stdin.\n"
          "\n"
          "  --model M       plackett-luce (default when any game has 3+ agents): the\n"
          "                  full finishing order, ties split (the average over every\n"
          "                  order that breaks them); pairwise (default otherwise):\n"
          "                  Bradley-Terry with draws as half points, a game of k\n"
          "                  agents split into k(k-1)/2 results, which overstates the\n"
          "                  evidence of 3+-agent games. On 2-agent games both agree.\n"
          "  --prior N       virtual draws added to every pair that met (default 2,\n"
          "                  as BayesElo); 0 disables the prior\n"
          "  --anchor NAME   fix NAME at Elo 0 (default: mean rating 0)\n"
          "  --format F      text (default) or json:\n"
          "                  {\"model\", \"ratings\": [{\"agent\", \"elo\", \"error\",\n"
          "                  \"games\", \"score\"}], \"los\": {A: {B: P(A stronger\n"
          "                  than B)}}}\n"
          "  --help          this text\n",
          out);
    fprintf(out, "\nAt most %d agents a game and %d agents in all.\n", RANKED_MAX, ELO_MAX_AGENTS);
}

static char *slurp(const char *path)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f) return NULL;
    abuf b = {0};
    abuf_add_file(&b, f);
    if (f != stdin) fclose(f);
    abuf_addc(&b, '\0');
    return (char *)b.data;
}

int cmd_elo(int argc, char **argv)
{
    const char *file = NULL, *anchor_name = NULL, *format = "text", *model_name = NULL, *v;
    double prior = 2.0;
    for (int i = 1; i < argc; i++) {
        int r;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            elo_help(stdout);
            return 0;
        } else if ((r = cli_value(argc, argv, &i, "--prior", &v)) != 0) {
            if (r < 0) return 2;
            if (!cli_double(v, 0, 1e6, &prior))
                return cli_usage_error("--prior needs a number >= 0, not '%s'", v);
        } else if ((r = cli_value(argc, argv, &i, "--model", &v)) != 0) {
            if (r < 0) return 2;
            rating_model m;
            if (rating_model_parse(v, &m) != 0)
                return cli_usage_error("--model must be pairwise or plackett-luce, not '%s'", v);
            model_name = v;
        } else if ((r = cli_value(argc, argv, &i, "--anchor", &v)) != 0) {
            if (r < 0) return 2;
            anchor_name = v;
        } else if ((r = cli_value(argc, argv, &i, "--format", &v)) != 0) {
            if (r < 0) return 2;
            if (strcmp(v, "text") != 0 && strcmp(v, "json") != 0)
                return cli_usage_error("--format must be text or json, not '%s'", v);
            format = v;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return cli_usage_error("elo: unknown option '%s' (see arena elo --help)", argv[i]);
        } else if (file) {
            return cli_usage_error("elo: only one results file, got '%s' and '%s'", file, argv[i]);
        } else {
            file = argv[i];
        }
    }
    if (!file) return cli_usage_error("elo: missing results FILE (see arena elo --help)");
    char *text = slurp(file);
    if (!text) return cli_usage_error("elo: cannot read '%s'", file);
    ranked_set set = {0};
    char err[256];
    if (ranked_parse(&set, text, err, sizeof err) != 0) {
        utf8_mask_controls(err, false); /* it may quote the file */
        free(text);
        ranked_free(&set);
        return cli_usage_error("elo: %s: %s", file, err);
    }
    free(text);
    int anchor = -1;
    if (anchor_name) {
        for (int i = 0; i < set.n_names; i++)
            if (strcmp(set.names[i], anchor_name) == 0) anchor = i;
        if (anchor < 0) {
            ranked_free(&set);
            return cli_usage_error("elo: --anchor '%s' is not an agent of %s", anchor_name, file);
        }
    }
    elo_data d;
    elo_data_init(&d, set.n_names);
    int64_t *games = xcalloc((size_t)set.n_names + 1, sizeof(int64_t));
    for (size_t g = 0; g < set.n_games; g++) {
        ranked_to_pairwise(&set.games[g], &d);
        for (int k = 0; k < set.games[g].k; k++)
            games[set.games[g].agent[k]]++;
    }
    rating_model model = rating_model_default(set.games, set.n_games);
    if (model_name) rating_model_parse(model_name, &model);
    elo_fit fit;
    ranked_fit(model, set.games, set.n_games, &d, prior, anchor, &fit);
    if (strcmp(format, "json") == 0) {
        av *root = av_map();
        av_set_str(root, "model", rating_model_name(model));
        av_set(root, "ratings", ratings_json(&fit, set.names, games));
        av_set(root, "los", ratings_los_json(&fit, set.names));
        char *js = av_to_json(root);
        printf("%s\n", js);
        free(js);
        av_free(root);
    } else {
        printf("%zu games, %d agents, %s model, prior %g virtual draws%s\n\n", set.n_games,
               set.n_names, rating_model_name(model), fit.regularised ? ELO_TINY_PRIOR : prior,
               fit.regularised ? " (no finite maximum-likelihood estimate: perfect scores)" : "");
        if (fit.disconnected)
            printf("some agents never met, not even through others: ratings across those "
                   "groups are not comparable (huge error bars)\n\n");
        for (int i = 0; i < set.n_names; i++) /* the file may come from anyone */
            utf8_mask_controls(set.names[i], false);
        ratings_text(stdout, &fit, set.names, games);
    }
    elo_fit_free(&fit);
    elo_data_free(&d);
    free(games);
    ranked_free(&set);
    return 0;
}
