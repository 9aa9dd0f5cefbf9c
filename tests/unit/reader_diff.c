#include "reader_diff.h"

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec.h"
#include "json_oracle.h"
#include "msgpack_oracle.h"
#include "util.h"

/* Compares two outcomes: trees through their msgpack encodings, refusals
 * by reason (the whole reason when exact, else its prefix). */
static diff_outcome compare(av *a, const char *e_old, av *b, const char *e_new, size_t prefix,
                            char *why, size_t whylen)
{
    diff_outcome r;
    if (!a || !b) {
        bool same = !a && !b &&
                    (prefix ? strncmp(e_old, e_new, prefix) == 0 && strlen(e_new) >= prefix
                            : strcmp(e_old, e_new) == 0);
        r = same ? DIFF_REFUSED : DIFF_MISMATCH;
    } else {
        abuf x = {0}, y = {0};
        codec_encode(CODEC_MSGPACK, a, &x);
        codec_encode(CODEC_MSGPACK, b, &y);
        r = x.len == y.len && memcmp(x.data, y.data, x.len) == 0 ? DIFF_ACCEPTED : DIFF_MISMATCH;
        abuf_free(&x);
        abuf_free(&y);
    }
    if (r == DIFF_MISMATCH && why && whylen) {
        char *ja = a ? av_to_json(a) : NULL, *jb = b ? av_to_json(b) : NULL;
        snprintf(why, whylen, "old: %.300s / new: %.300s", ja ? ja : e_old, jb ? jb : e_new);
        free(ja);
        free(jb);
    }
    av_free(a);
    av_free(b);
    return r;
}

/* The skipping reader (msgpack_skip_value, json_skip_value) against the
 * building one on the same bytes, read as one value from the start: the
 * same verdict, and on success the same end offset and value count. Read
 * twice: from nothing, and near the value and depth limits (how near
 * depends on n). */
static bool skip_agrees(bool json, const uint8_t *p, size_t n, char *why, size_t whylen)
{
    for (int k = 0; k < 2; k++) {
        size_t v0 = k ? PROTO_MAX_VALUES - n % 64 : 0;
        int depth = k ? PROTO_MAX_DEPTH - 1 - (int)(n % 4) : 0;
        size_t off_b = 0, off_s = 0, val_b = v0, val_s = v0;
        av *built = json ? json_read_value((const char *)p, n, &off_b, &val_b, depth)
                         : msgpack_read_value(p, n, &off_b, &val_b, depth);
        bool skipped = json ? json_skip_value((const char *)p, n, &off_s, &val_s, depth)
                            : msgpack_skip_value(p, n, &off_s, &val_s, depth);
        bool same = (built != NULL) == skipped && (!skipped || (off_b == off_s && val_b == val_s));
        av_free(built);
        if (!same) {
            if (why && whylen)
                snprintf(why, whylen,
                         "%s skip (values from %zu, depth %d): built %s at %zu (%zu values), "
                         "skipped %s at %zu (%zu values)",
                         json ? "json" : "msgpack", v0, depth, built ? "ok" : "refused", off_b,
                         val_b, skipped ? "ok" : "refused", off_s, val_s);
            return false;
        }
    }
    return true;
}

diff_outcome json_diff(const void *p, size_t n, bool *nul_quirk, char *why, size_t whylen)
{
    *nul_quirk = false;
    if (!skip_agrees(true, p, n, why, whylen)) return DIFF_MISMATCH;
    char e_old[200] = "", e_new[200] = "";
    av *a = json_oracle_decode(p, n, e_old, sizeof e_old);
    av *b = json_decode(p, n, e_new, sizeof e_new);
    *nul_quirk = false;
    if (a && !b && memchr(p, 0, n)) {
        /* An accepted input has no raw NUL but those jansson skipped. */
        abuf w = {0};
        for (size_t i = 0; i < n; i++)
            if (((const uint8_t *)p)[i]) abuf_addc(&w, (char)((const uint8_t *)p)[i]);
        b = json_decode((const char *)w.data, w.len, e_new, sizeof e_new);
        abuf_free(&w);
        *nul_quirk = true;
    }
    return compare(a, e_old, b, e_new, 6 /* "json: " */, why, whylen);
}

diff_outcome msgpack_diff(const void *p, size_t n, char *why, size_t whylen)
{
    if (!skip_agrees(false, p, n, why, whylen)) return DIFF_MISMATCH;
    char e_old[200] = "", e_new[200] = "";
    av *a = msgpack_oracle_decode(p, n, e_old, sizeof e_old);
    av *b = msgpack_decode(p, n, e_new, sizeof e_new);
    return compare(a, e_old, b, e_new, 0, why, whylen);
}

static uint64_t rng = 1;

void diff_seed(uint64_t seed)
{
    rng = seed ? seed : 1;
}

uint64_t diff_rnd(void)
{
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return rng * 0x2545f4914f6cdd1dULL;
}

size_t diff_below(size_t n)
{
    return n ? (size_t)(diff_rnd() % n) : 0;
}

void diff_corpus(const char *dir, void (*each)(const uint8_t *p, size_t n))
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "cannot open corpus %s\n", dir);
        exit(1);
    }
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *f = fopen(path, "rb");
        if (!f) continue;
        abuf b = {0};
        abuf_add_file(&b, f);
        fclose(f);
        each(b.data, b.len);
        abuf_free(&b);
    }
    closedir(d);
}
