/* libFuzzer target: the card-file parsers of Pacifica and Xibalba, and the
 * readers of the card sets a match log records (the header's options, as
 * replay builds a game from them), on text from anyone. Besides no crash,
 * no leak and no UB: a Pacifica set that parses writes itself out card by
 * card (pac_card_line) as a file that parses to the same set.
 *
 * usage: tests/fuzz/run-libfuzzer.sh SECONDS BUILD_DIR fuzz-cards */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_tally.h"
#include "games/pacifica/pacifica.h"
#include "games/xibalba/xibalba.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

const char fuzz_target_name[] = "fuzz-cards";

static void pacifica_round_trip(const pac_cardset *set)
{
    abuf text = {0};
    for (int c = 0; c < PAC_NCARDS; c++) {
        char line[160];
        pac_card_line(&set->c[c], line, sizeof line);
        abuf_adds(&text, line);
        abuf_addc(&text, '\n');
    }
    abuf_addc(&text, '\0');
    pac_cardset again;
    char err[300];
    if (!pac_parse_cards((char *)text.data, "written", &again, err, sizeof err)) {
        fprintf(stderr, "fuzz-cards: a parsed set written out does not parse: %s\n", err);
        abort();
    }
    for (int c = 0; c < PAC_NCARDS; c++) {
        char a[160], b[160];
        pac_card_line(&set->c[c], a, sizeof a);
        pac_card_line(&again.c[c], b, sizeof b);
        if (strcmp(a, b) != 0) {
            fprintf(stderr, "fuzz-cards: card %d reads back as '%s', was '%s'\n", c, b, a);
            abort();
        }
    }
    abuf_free(&text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = xmalloc(size + 1);
    memcpy(text, data, size);
    text[size] = '\0';
    char err[300];
    pac_cardset *pset = xmalloc(sizeof *pset);
    xb_cardset *xset = xmalloc(sizeof *xset);
    char name[256];
    bool taken = false;
    if (pac_parse_cards(text, "fuzz", pset, err, sizeof err)) {
        pacifica_round_trip(pset);
        taken = true;
    }
    taken |= xb_cardset_parse(xset, text, "fuzz", err, sizeof err);
    taken |= pac_cards_from_options(text, pset, err, sizeof err);
    taken |= xb_cardset_from_options(xset, text, name, sizeof name, err, sizeof err);
    if (taken)
        fuzz_taken++;
    else
        fuzz_refused++;
    free(pset);
    free(xset);
    free(text);
    return 0;
}
