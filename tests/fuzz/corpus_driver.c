/* Runs the libFuzzer entry point without libFuzzer (any compiler): over every
 * file of a seed corpus, then over deterministic pseudo-random mutations of
 * those seeds. This keeps the fuzz target's checks in every CI build.
 *
 * Each target says whether its seeds and its mutations reached what it is
 * there to test (fuzz_after_seeds, fuzz_after_mutations): a target that
 * silently rejects every input would pass anyway.
 *
 * usage: corpus_driver CORPUS_DIR [MUTATIONS] [SEED] */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
/* 0 when the seeds reached both what the target accepts and what it
 * refuses; else a message on stderr and non-zero. */
int fuzz_after_seeds(void);
/* Prints the run's tallies; non-zero (with a message) when inert. */
int fuzz_after_mutations(size_t n_seeds, long mutations, double cpu_s);

typedef struct seed {
    uint8_t *p;
    size_t n;
} seed;

static uint64_t rng_state;

static uint64_t rnd(void)
{
    /* xorshift64*: small, deterministic, good enough to pick mutations */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545f4914f6cdd1dULL;
}

static size_t below(size_t n)
{
    return n ? (size_t)(rnd() % n) : 0;
}

static int load_file(const char *path, seed *out)
{
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    abuf b = {0};
    abuf_add_file(&b, f);
    fclose(f);
    out->p = b.data ? b.data : xmalloc(1);
    out->n = b.len;
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Bytes that matter to the codecs: frame headers, type bytes, JSON syntax. */
static const uint8_t interesting[] = {0x00, 0x01, 0x7f, 0x80, 0x81, 0x90, 0xa0, 0xc0, 0xc1, 0xc4,
                                      0xc7, 0xca, 0xcb, 0xcf, 0xd3, 0xd4, 0xd9, 0xdc, 0xdd, 0xde,
                                      0xdf, 0xff, '{',  '}',  '[',  ']',  '"',  '\\', ':',  ',',
                                      '\n', '\r', '0',  '9',  '-',  'e',  ' '};

static void mutate(abuf *b, const seed *seeds, size_t n_seeds)
{
    int steps = 1 + (int)below(4);
    for (int s = 0; s < steps; s++) {
        size_t len = b->len;
        switch (below(8)) {
        case 0: /* flip a bit */
            if (len) b->data[below(len)] ^= (uint8_t)(1u << below(8));
            break;
        case 1: /* set an interesting byte */
            if (len) b->data[below(len)] = interesting[below(sizeof interesting)];
            break;
        case 2: { /* insert a byte */
            size_t at = below(len + 1);
            abuf_reserve(b, 1);
            memmove(b->data + at + 1, b->data + at, len - at);
            b->data[at] = interesting[below(sizeof interesting)];
            b->len++;
            break;
        }
        case 3: { /* delete a range */
            if (!len) break;
            size_t at = below(len), k = 1 + below(len - at < 16 ? len - at : 16);
            memmove(b->data + at, b->data + at + k, len - at - k);
            b->len -= k;
            break;
        }
        case 4: { /* duplicate a range at the end (several frames in a row) */
            if (!len) break;
            size_t at = below(len), k = 1 + below(len - at);
            abuf_reserve(b, k);
            memcpy(b->data + len, b->data + at, k);
            b->len += k;
            break;
        }
        case 5: { /* splice another seed's tail */
            const seed *o = &seeds[below(n_seeds)];
            size_t cut = below(len + 1), from = below(o->n + 1);
            b->len = cut;
            abuf_add(b, o->p + from, o->n - from);
            break;
        }
        case 6: { /* overwrite a msgpack length header */
            if (len < 4) break;
            static const uint32_t lens[] = {0,       1,        3,        0xff,      0x100,
                                            0x10000, 0x100000, 0x100001, 0xffffffff};
            uint32_t v = lens[below(sizeof lens / sizeof lens[0])];
            size_t at = below(len - 3);
            for (int i = 0; i < 4; i++)
                b->data[at + i] = (uint8_t)(v >> (24 - 8 * i));
            break;
        }
        default: /* truncate */ b->len = below(len + 1); break;
        }
    }
    if (b->data) b->data[b->len] = 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s CORPUS_DIR [MUTATIONS] [SEED]\n", argv[0]);
        return 2;
    }
    long mutations = argc > 2 ? atol(argv[2]) : 20000;
    rng_state = argc > 3 ? strtoull(argv[3], NULL, 0) : 0x5eed5eed5eedULL;
    if (!rng_state) rng_state = 1;

    DIR *dir = opendir(argv[1]);
    if (!dir) {
        perror(argv[1]);
        return 1;
    }
    char **names = NULL;
    size_t n_names = 0;
    struct dirent *e;
    while ((e = readdir(dir))) {
        if (e->d_name[0] == '.') continue;
        names = xrealloc(names, (n_names + 1) * sizeof *names);
        names[n_names++] = xasprintf("%s/%s", argv[1], e->d_name);
    }
    closedir(dir);
    /* readdir order varies between file systems; sort for reproducibility */
    qsort(names, n_names, sizeof *names, by_name);
    if (n_names == 0) {
        fprintf(stderr, "%s: empty corpus\n", argv[1]);
        return 1;
    }

    seed *seeds = xcalloc(n_names, sizeof *seeds);
    for (size_t i = 0; i < n_names; i++) {
        if (load_file(names[i], &seeds[i]) < 0) {
            perror(names[i]);
            return 1;
        }
        LLVMFuzzerTestOneInput(seeds[i].p, seeds[i].n);
    }
    if (fuzz_after_seeds() != 0) return 1;

    clock_t t0 = clock();
    abuf b = {0};
    for (long m = 0; m < mutations; m++) {
        const seed *s = &seeds[below(n_names)];
        b.len = 0;
        abuf_add(&b, s->p, s->n);
        mutate(&b, seeds, n_names);
        LLVMFuzzerTestOneInput(b.data, b.len);
    }
    if (fuzz_after_mutations(n_names, mutations, (double)(clock() - t0) / CLOCKS_PER_SEC) != 0)
        return 1;

    abuf_free(&b);
    for (size_t i = 0; i < n_names; i++) {
        free(seeds[i].p);
        free(names[i]);
    }
    free(seeds);
    free(names);
    return 0;
}
