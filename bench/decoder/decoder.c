/* bench-decoder: how long one frame of the largest legal size (1 MiB by
 * default) holds the event loop while it is decoded, for the worst shapes an
 * agent can send: many distinct keys in one map, one key repeated, long keys
 * with a shared prefix, nesting at the depth limit, many tiny lists or maps,
 * maps around the size where the value tree starts hashing, long strings
 * and text of every UTF-8 sequence length; msgpack and JSON. Each frame goes
 * through the referee's own path (frame_decoder_feed + frame_decoder_next,
 * with an agent's cap of PROTO_MAX_VALUES_IN values unless --max-values
 * says otherwise) and the tree is then freed; the figure is decode + free,
 * the time the loop is blocked, in process CPU time (wall time on a shared
 * machine mostly measures the other tenants).
 *
 *   bench-decoder [--reps N] [--size BYTES] [--max-values N] [--only SUBSTRING]
 *
 * A frame of more values than the cap is refused at the first value past
 * it (what was built is freed); its row times that refusal ("refused").
 * Exits 1 if a frame fails for any other reason (so a smoke run checks
 * every shape). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "codec.h"
#include "util.h"

/* ------------------------------------------------------------ msgpack out */

static void mp_u32(abuf *b, uint8_t lead, uint32_t n)
{
    uint8_t h[5] = {lead, (uint8_t)(n >> 24), (uint8_t)(n >> 16), (uint8_t)(n >> 8), (uint8_t)n};
    abuf_add(b, h, 5);
}

static void mp_str(abuf *b, const char *s, size_t n)
{
    if (n < 32) {
        abuf_addc(b, (char)(0xa0 | n));
    } else if (n < 256) {
        abuf_addc(b, (char)0xd9);
        abuf_addc(b, (char)n);
    } else {
        mp_u32(b, 0xdb, (uint32_t)n);
    }
    abuf_add(b, s, n);
}

/* Writes a map32/array32 header with a count to patch later; returns where. */
static size_t mp_open(abuf *b, uint8_t lead)
{
    mp_u32(b, lead, 0);
    return b->len - 5;
}

static void mp_close(abuf *b, size_t at, uint32_t n)
{
    b->data[at + 1] = (uint8_t)(n >> 24);
    b->data[at + 2] = (uint8_t)(n >> 16);
    b->data[at + 3] = (uint8_t)(n >> 8);
    b->data[at + 4] = (uint8_t)n;
}

/* The n-th shortest key over [0-9A-Za-z]: as many distinct keys as the
 * bytes allow. */
static size_t nth_key(size_t n, char *out)
{
    static const char al[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    size_t len = 1, span = 62;
    while (n >= span) {
        n -= span;
        len++;
        span *= 62;
    }
    for (size_t i = len; i-- > 0; n /= 62)
        out[i] = al[n % 62];
    out[len] = '\0';
    return len;
}

/* Shapes: each appends one payload of at most `budget` bytes (a map at the
 * top) and returns how many nodes or keys it holds, for the report. */
typedef size_t (*build_fn)(abuf *b, size_t budget);

static size_t mp_many_keys(abuf *b, size_t budget)
{
    size_t at = mp_open(b, 0xdf), n = 0;
    char k[16];
    for (;; n++) {
        size_t kl = nth_key(n, k);
        if (b->len + 2 + kl > budget) break;
        mp_str(b, k, kl);
        abuf_addc(b, 0);
    }
    mp_close(b, at, (uint32_t)n);
    return n;
}

static size_t mp_same_key(abuf *b, size_t budget)
{
    size_t at = mp_open(b, 0xdf), n = 0;
    for (; b->len + 3 <= budget; n++)
        abuf_add(b, "\xa1k\x01", 3);
    mp_close(b, at, (uint32_t)n);
    return n;
}

/* 1,000-byte keys differing only in their last bytes. */
static size_t mp_long_keys(abuf *b, size_t budget)
{
    size_t at = mp_open(b, 0xdf), n = 0;
    char k[1000];
    memset(k, 'p', sizeof k);
    for (;; n++) {
        if (b->len + 5 + sizeof k + 1 > budget) break;
        nth_key(n, k + sizeof k - 8);
        k[sizeof k - 8 + strlen(k + sizeof k - 8)] = 'p';
        mp_str(b, k, sizeof k);
        abuf_addc(b, 0);
    }
    mp_close(b, at, (uint32_t)n);
    return n;
}

/* {"d": [chain, chain, ...]} where each chain nests lists down to the
 * depth limit (top map 1, outer list 2, chain 3 .. PROTO_MAX_DEPTH). */
static size_t mp_deep(abuf *b, size_t budget)
{
    abuf_addc(b, (char)0x81);
    mp_str(b, "d", 1);
    size_t at = mp_open(b, 0xdd), n = 0;
    const size_t levels = PROTO_MAX_DEPTH - 2;
    for (; b->len + levels <= budget; n++) {
        for (size_t i = 0; i + 1 < levels; i++)
            abuf_addc(b, (char)0x91);
        abuf_addc(b, (char)0x90);
    }
    mp_close(b, at, (uint32_t)n);
    return n * levels;
}

/* {"a": [x, x, ...]} with one-byte x: [] or {} or 0. */
static size_t mp_tiny(abuf *b, size_t budget, uint8_t x)
{
    abuf_addc(b, (char)0x81);
    mp_str(b, "a", 1);
    size_t at = mp_open(b, 0xdd), n = 0;
    for (; b->len + 1 <= budget; n++)
        abuf_addc(b, (char)x);
    mp_close(b, at, (uint32_t)n);
    return n;
}
static size_t mp_tiny_lists(abuf *b, size_t budget)
{
    return mp_tiny(b, budget, 0x90);
}
static size_t mp_tiny_maps(abuf *b, size_t budget)
{
    return mp_tiny(b, budget, 0x80);
}
static size_t mp_small_ints(abuf *b, size_t budget)
{
    return mp_tiny(b, budget, 0x07);
}

/* {"a": [map of `keys` keys, ...]}: small maps are scanned, larger ones
 * hashed; 16 and 17 sit on either side of that line. */
static size_t mp_maps_of(abuf *b, size_t budget, size_t keys)
{
    abuf_addc(b, (char)0x81);
    mp_str(b, "a", 1);
    size_t at = mp_open(b, 0xdd), n = 0;
    char k[16];
    for (;; n++) {
        if (b->len + 3 + 4 * keys > budget) break;
        abuf_addc(b, (char)0xde);
        abuf_addc(b, 0);
        abuf_addc(b, (char)keys);
        for (size_t i = 0; i < keys; i++) {
            size_t kl = nth_key(i + 62, k); /* two-byte keys */
            mp_str(b, k, kl);
            abuf_addc(b, 0);
        }
    }
    mp_close(b, at, (uint32_t)n);
    return n * keys;
}
static size_t mp_maps_16(abuf *b, size_t budget)
{
    return mp_maps_of(b, budget, 16);
}
static size_t mp_maps_17(abuf *b, size_t budget)
{
    return mp_maps_of(b, budget, 17);
}

/* Text of at most the budget's length: `unit` (whole UTF-8 sequences)
 * repeated, or with unit NULL one sequence of each length (1 to 4 bytes)
 * in a fixed pseudo-random order, which no branch predictor learns. Every
 * byte of a string is checked as UTF-8; ASCII goes eight bytes at a time,
 * so the costly text is the other kind. */
static char *text_of(const char *unit, size_t budget, size_t *n)
{
    static const char *const mix[] = {"a", "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9d\x84\x9e"};
    char *s = xmalloc(budget + 1);
    uint32_t x = 12345;
    for (*n = 0;;) {
        x = x * 1103515245u + 12345u;
        const char *u = unit ? unit : mix[(x >> 16) % 4];
        size_t l = strlen(u);
        if (*n + l > budget) break;
        memcpy(s + *n, u, l);
        *n += l;
    }
    s[*n] = 0;
    return s;
}

static size_t mp_text(abuf *b, size_t budget, const char *unit)
{
    abuf_addc(b, (char)0x81);
    mp_str(b, "s", 1);
    size_t n;
    char *s = text_of(unit, budget - b->len - 5, &n);
    mp_str(b, s, n);
    free(s);
    return 1;
}
static size_t mp_long_string(abuf *b, size_t budget)
{
    return mp_text(b, budget, "\xc3\xa9"); /* U+00E9 */
}
static size_t mp_text_3byte(abuf *b, size_t budget)
{
    return mp_text(b, budget, "\xe2\x82\xac"); /* U+20AC */
}
static size_t mp_text_mixed(abuf *b, size_t budget)
{
    return mp_text(b, budget, NULL);
}

/* --------------------------------------------------------------- JSON out */

static size_t js_many_keys(abuf *b, size_t budget)
{
    size_t n = 0;
    char k[16];
    abuf_addc(b, '{');
    for (;; n++) {
        size_t kl = nth_key(n, k);
        if (b->len + kl + 6 > budget) break;
        abuf_addf(b, "%s\"%s\":0", n ? "," : "", k);
    }
    abuf_addc(b, '}');
    return n;
}

static size_t js_same_key(abuf *b, size_t budget)
{
    size_t n = 0;
    abuf_addc(b, '{');
    for (; b->len + 7 <= budget; n++)
        abuf_adds(b, n ? ",\"k\":1" : "\"k\":1");
    abuf_addc(b, '}');
    return n;
}

static size_t js_deep(abuf *b, size_t budget)
{
    const size_t levels = PROTO_MAX_DEPTH - 2;
    size_t n = 0;
    abuf_adds(b, "{\"d\":[");
    for (; b->len + 2 * levels + 3 <= budget; n++) {
        if (n) abuf_addc(b, ',');
        for (size_t i = 0; i < levels; i++)
            abuf_addc(b, '[');
        for (size_t i = 0; i < levels; i++)
            abuf_addc(b, ']');
    }
    abuf_adds(b, "]}");
    return n * levels;
}

static size_t js_tiny(abuf *b, size_t budget, const char *x)
{
    size_t n = 0, xl = strlen(x);
    abuf_adds(b, "{\"a\":[");
    for (; b->len + xl + 3 <= budget; n++) {
        if (n) abuf_addc(b, ',');
        abuf_add(b, x, xl);
    }
    abuf_adds(b, "]}");
    return n;
}
static size_t js_tiny_lists(abuf *b, size_t budget)
{
    return js_tiny(b, budget, "[]");
}
static size_t js_tiny_maps(abuf *b, size_t budget)
{
    return js_tiny(b, budget, "{}");
}

static size_t js_maps_17(abuf *b, size_t budget)
{
    size_t n = 0;
    char k[16];
    abuf_adds(b, "{\"a\":[");
    for (; b->len + 17 * 7 + 5 <= budget; n++) {
        abuf_adds(b, n ? ",{" : "{");
        for (size_t i = 0; i < 17; i++) {
            nth_key(i + 62, k);
            abuf_addf(b, "%s\"%s\":0", i ? "," : "", k);
        }
        abuf_addc(b, '}');
    }
    abuf_adds(b, "]}");
    return n * 17;
}

static size_t js_text(abuf *b, size_t budget, const char *unit)
{
    abuf_adds(b, "{\"s\":\"");
    size_t n;
    char *s = text_of(unit, budget - b->len - 2, &n);
    abuf_add(b, s, n);
    free(s);
    abuf_adds(b, "\"}");
    return 1;
}
static size_t js_long_string(abuf *b, size_t budget)
{
    return js_text(b, budget, "\xc3\xa9");
}
static size_t js_text_mixed(abuf *b, size_t budget)
{
    return js_text(b, budget, NULL);
}

static size_t js_escaped_string(abuf *b, size_t budget)
{
    size_t n = 0;
    abuf_adds(b, "{\"s\":\"");
    for (; b->len + 6 + 2 <= budget; n++)
        abuf_adds(b, "\\u00e9");
    abuf_adds(b, "\"}");
    return n;
}

typedef struct shape {
    const char *name;
    codec_kind codec;
    build_fn build;
    const char *what; /* what the count counts */
} shape;

static const shape shapes[] = {
    {"msgpack many distinct keys", CODEC_MSGPACK, mp_many_keys, "keys"},
    {"msgpack one key repeated", CODEC_MSGPACK, mp_same_key, "entries"},
    {"msgpack 1000-byte keys", CODEC_MSGPACK, mp_long_keys, "keys"},
    {"msgpack depth limit", CODEC_MSGPACK, mp_deep, "lists"},
    {"msgpack tiny lists", CODEC_MSGPACK, mp_tiny_lists, "lists"},
    {"msgpack tiny maps", CODEC_MSGPACK, mp_tiny_maps, "maps"},
    {"msgpack small ints", CODEC_MSGPACK, mp_small_ints, "ints"},
    {"msgpack 16-key maps", CODEC_MSGPACK, mp_maps_16, "keys"},
    {"msgpack 17-key maps", CODEC_MSGPACK, mp_maps_17, "keys"},
    {"msgpack long string", CODEC_MSGPACK, mp_long_string, "string"},
    {"msgpack 3-byte text", CODEC_MSGPACK, mp_text_3byte, "string"},
    {"msgpack mixed text", CODEC_MSGPACK, mp_text_mixed, "string"},
    {"json many distinct keys", CODEC_JSON, js_many_keys, "keys"},
    {"json one key repeated", CODEC_JSON, js_same_key, "entries"},
    {"json depth limit", CODEC_JSON, js_deep, "lists"},
    {"json tiny lists", CODEC_JSON, js_tiny_lists, "lists"},
    {"json tiny maps", CODEC_JSON, js_tiny_maps, "maps"},
    {"json 17-key maps", CODEC_JSON, js_maps_17, "keys"},
    {"json escaped string", CODEC_JSON, js_escaped_string, "escapes"},
    {"json long string", CODEC_JSON, js_long_string, "string"},
    {"json mixed text", CODEC_JSON, js_text_mixed, "string"},
};

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    int reps = 5;
    size_t size = PROTO_MAX_FRAME_DEFAULT;
    size_t max_values = PROTO_MAX_VALUES_IN;
    const char *only = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--reps") && i + 1 < argc)
            reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--size") && i + 1 < argc)
            size = strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--only") && i + 1 < argc)
            only = argv[++i];
        else if (!strcmp(argv[i], "--max-values") && i + 1 < argc)
            max_values = strtoul(argv[++i], NULL, 10);
        else {
            fprintf(stderr, "usage: bench-decoder [--reps N] [--size BYTES] [--max-values N] "
                            "[--only SUBSTRING]\n");
            return 2;
        }
    }
    if (reps < 1 || size < 64 || max_values < 1) {
        fprintf(stderr, "bench-decoder: --reps >= 1, --size >= 64 and --max-values >= 1\n");
        return 2;
    }
    printf("%-28s %9s %9s %-8s %10s %10s  %s\n", "shape", "bytes", "count", "", "median ms",
           "max ms", "result");
    int failed = 0;
    double worst = 0;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        const shape *sh = &shapes[s];
        if (only && !strstr(sh->name, only)) continue;
        abuf frame = {0};
        if (sh->codec == CODEC_MSGPACK) abuf_add(&frame, "\0\0\0\0", 4);
        size_t start = frame.len;
        /* payload budget counted from the payload's first byte */
        abuf payload = {0};
        size_t count = sh->build(&payload, size - (sh->codec == CODEC_JSON ? 1 : 0));
        abuf_add(&frame, payload.data, payload.len);
        abuf_free(&payload);
        size_t n = frame.len - start;
        if (sh->codec == CODEC_MSGPACK) {
            frame.data[0] = (uint8_t)(n >> 24);
            frame.data[1] = (uint8_t)(n >> 16);
            frame.data[2] = (uint8_t)(n >> 8);
            frame.data[3] = (uint8_t)n;
        } else {
            abuf_addc(&frame, '\n');
        }
        double *t = xcalloc((size_t)reps, sizeof *t);
        bool refused = false;
        for (int r = 0; r < reps; r++) {
            frame_decoder d;
            frame_decoder_init(&d, size, sh->codec);
            d.max_values = max_values;
            double t0 = now_ms();
            frame_decoder_feed(&d, frame.data, frame.len);
            av *m = NULL;
            int got = frame_decoder_next(&d, &m);
            av_free(m);
            t[r] = now_ms() - t0;
            if (got < 0 && strstr(d.error, "values in one message")) {
                refused = true;
            } else if (got != 1) {
                fprintf(stderr, "bench-decoder: %s: not decoded: %s\n", sh->name,
                        got < 0 ? d.error : "incomplete");
                failed = 1;
            }
            frame_decoder_free(&d);
        }
        qsort(t, (size_t)reps, sizeof *t, cmp_double);
        printf("%-28s %9zu %9zu %-8s %10.2f %10.2f  %s\n", sh->name, n, count, sh->what,
               t[reps / 2], t[reps - 1], refused ? "refused" : "decoded");
        if (t[reps - 1] > worst) worst = t[reps - 1];
        free(t);
        abuf_free(&frame);
    }
    printf("slowest frame: %.2f ms\n", worst);
    return failed;
}
