/* libFuzzer target: the msgpack and JSON readers against the decoders they
 * replaced (tests/unit/reader_diff.h), on the same bytes. Any input on which
 * they disagree is a crash, saved by libFuzzer as an artifact.
 *
 * usage: tests/fuzz/run-libfuzzer.sh SECONDS BUILD_DIR fuzz-readers */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "reader_diff.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char why[700];
    bool quirk;
    if (json_diff(data, size, &quirk, why, sizeof why) == DIFF_MISMATCH) {
        fprintf(stderr, "fuzz_readers: json readers disagree: %s\n", why);
        abort();
    }
    if (msgpack_diff(data, size, why, sizeof why) == DIFF_MISMATCH) {
        fprintf(stderr, "fuzz_readers: msgpack readers disagree: %s\n", why);
        abort();
    }
    return 0;
}
