/* libFuzzer target: the match-log reader and the replay behind `arena replay`
 * (the HTML viewer's walk, the widest) and `arena audit`, on a log from
 * anyone. The input is the log's bytes, read as a plain file and, gzip-
 * compressed, as a .gz log (an input that is itself gzip is read as such by
 * the first). Besides no crash, no leak and no UB: a log reads the same in
 * both forms (the same exit status, the same page).
 *
 * usage: tests/fuzz/run-libfuzzer.sh SECONDS BUILD_DIR fuzz-matchlog */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

#include "fuzz_tally.h"
#include "replay.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

const char fuzz_target_name[] = "fuzz-matchlog";

/* The two forms live in memory files, named by /proc/self/fd paths. */
static int plain_fd = -1, gz_fd = -1;
static char plain_path[48], gz_path[48];

static void open_files(void)
{
    if (plain_fd >= 0) return;
    plain_fd = memfd_create("fuzz-log", 0);
    gz_fd = memfd_create("fuzz-log-gz", 0);
    if (plain_fd < 0 || gz_fd < 0) {
        perror("fuzz-matchlog: memfd_create");
        abort();
    }
    snprintf(plain_path, sizeof plain_path, "/proc/self/fd/%d", plain_fd);
    snprintf(gz_path, sizeof gz_path, "/proc/self/fd/%d", gz_fd);
}

static void put_plain(const uint8_t *p, size_t n)
{
    if (ftruncate(plain_fd, 0) != 0 || (n && pwrite(plain_fd, p, n, 0) != (ssize_t)n)) abort();
}

static void put_gzip(const uint8_t *p, size_t n)
{
    if (ftruncate(gz_fd, 0) != 0 || lseek(gz_fd, 0, SEEK_SET) != 0) abort();
    gzFile g = gzdopen(dup(gz_fd), "wb1");
    if (!g || (n && gzwrite(g, p, (unsigned)n) != (int)n) || gzclose(g) != Z_OK) abort();
}

/* The viewer's page of the log at path for reader `seat` (malloc'ed). */
static int page(const char *path, int seat, char **out, size_t *len)
{
    FILE *f = open_memstream(out, len);
    if (!f) abort();
    int rc = replay_html(path, seat, f);
    fclose(f);
    return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    open_files();
    int seat = (int)(size % 3) - 1; /* omniscient, seat 0, seat 1 */
    put_plain(data, size);
    char *a = NULL, *b = NULL;
    size_t na = 0, nb = 0;
    int rc = page(plain_path, seat, &a, &na);
    if (rc == 0)
        fuzz_taken++;
    else
        fuzz_refused++;
    if (!(size >= 2 && data[0] == 0x1f && data[1] == 0x8b)) {
        put_gzip(data, size);
        int rc_gz = page(gz_path, seat, &b, &nb);
        if (rc_gz != rc || na != nb || memcmp(a, b, na) != 0) {
            fprintf(stderr, "fuzz-matchlog: the plain log gives %d (%zu bytes), gzip %d (%zu)\n",
                    rc, na, rc_gz, nb);
            abort();
        }
    }
    free(a);
    free(b);
    return 0;
}
