/* libFuzzer target: the tournament-file parser, and the reader of the
 * settings a results DB stores (argvec_from_json, which `--resume` and the
 * audit read), on text from anyone. Besides no crash, no leak and no UB:
 * the settings a file parses to are stored and read back unchanged.
 *
 * usage: tests/fuzz/run-libfuzzer.sh SECONDS BUILD_DIR fuzz-spec */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_tally.h"
#include "spec.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

const char fuzz_target_name[] = "fuzz-spec";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = xmalloc(size + 1);
    memcpy(text, data, size);
    text[size] = '\0';
    char err[300];
    argvec a = {0}, back = {0}, stored = {0};
    if (spec_parse_text(text, "fuzz", &a, err, sizeof err) == 0) {
        fuzz_taken++;
        char *js = argvec_to_json(&a);
        if (argvec_from_json(js, &back) != 0 || back.n != a.n) {
            fprintf(stderr, "fuzz-spec: %d settings stored as %s read back as %d\n", a.n, js,
                    back.n);
            abort();
        }
        for (int i = 0; i < a.n; i++)
            if (strcmp(a.v[i], back.v[i]) != 0) {
                fprintf(stderr, "fuzz-spec: '%s' stored reads back as '%s'\n", a.v[i], back.v[i]);
                abort();
            }
        free(js);
    } else {
        fuzz_refused++;
    }
    argvec_from_json(text, &stored);
    argvec_free(&a);
    argvec_free(&back);
    argvec_free(&stored);
    free(text);
    return 0;
}
