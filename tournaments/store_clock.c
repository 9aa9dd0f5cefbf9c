/* The timeout_clocks column: the figures a timeout forfeit's verdict rests
 * on (protocol.md §5), by seat, in the shape of the fault record's `clock`
 * map, so that `arena audit` can hold one against the other. */
#include <jansson.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "clock.h"
#include "store_impl.h"

/* The figures, in the order the fault record writes them; `need`: a
 * figure every timed decision has (the others are null where not read). */
static const struct {
    const char *key;
    size_t off;
    bool need;
} figures[] = {
    {"allowance_ms", offsetof(clock_evidence, allowance_ms), true},
    {"charged_ms", offsetof(clock_evidence, charged_ms), true},
    {"wall_ms", offsetof(clock_evidence, wall_ms), true},
    {"cpu_ms", offsetof(clock_evidence, cpu_ms), false},
    {"wait_ms", offsetof(clock_evidence, wait_ms), false},
    {"wait_sum_ms", offsetof(clock_evidence, wait_sum_ms), false},
    {"lag_ms", offsetof(clock_evidence, lag_ms), true},
    {"host_psi_ms", offsetof(clock_evidence, host_psi_ms), false},
};
#define N_FIGURES (sizeof figures / sizeof *figures)

/* Above any clock (a game's bank is hours at most), below where a cut to
 * the microsecond would overflow. */
#define FIGURE_MAX 1e15

static double *at(clock_evidence *e, size_t i)
{
    return (double *)((char *)e + figures[i].off);
}

/* clock_mode_name's words, here too: the store links without the runner. */
static const struct {
    clock_mode mode;
    const char *name;
} modes[] = {{CLOCK_WALL, "wall"}, {CLOCK_CPU, "cpu"}, {CLOCK_FAIR, "fair"}};

static const char *mode_name(clock_mode m)
{
    for (size_t i = 0; i < sizeof modes / sizeof *modes; i++)
        if (modes[i].mode == m) return modes[i].name;
    return "wall";
}

void store_clocks_encode(abuf *b, const clock_evidence *ev, int k)
{
    b->len = 0;
    abuf_addc(b, '[');
    for (int s = 0; s < k; s++) {
        if (s) abuf_addc(b, ',');
        const clock_evidence *e = &ev[s];
        if (!e->set) {
            abuf_add(b, "null", 4);
            continue;
        }
        abuf_addf(b, "{\"mode\":\"%s\"", mode_name(e->mode));
        for (size_t i = 0; i < N_FIGURES; i++) {
            double v = *at((clock_evidence *)e, i);
            /* As the fault record writes it: not read (< 0) is null, and
             * the wait is no figure of the wall clock. */
            bool null =
                !(v >= 0 && v < FIGURE_MAX) ||
                (figures[i].off == offsetof(clock_evidence, wait_ms) && e->mode == CLOCK_WALL);
            if (null)
                abuf_addf(b, ",\"%s\":null", figures[i].key);
            else /* cut to the microsecond, as the log cuts it */
                abuf_addf(b, ",\"%s\":%.3f", figures[i].key, clock_cut_us(v));
        }
        abuf_addc(b, '}');
    }
    abuf_addc(b, ']'); /* abuf_add keeps the text NUL-terminated */
}

static int bad(char *why, size_t len, int seat, const char *what)
{
    if (seat < 0)
        snprintf(why, len, "timeout figures: %s", what);
    else
        snprintf(why, len, "seat %d's timeout figures: %s", seat, what);
    return -1;
}

static int decode_one(json_t *m, int seat, clock_evidence *e, char *why, size_t len)
{
    if (!json_is_object(m)) return bad(why, len, seat, "neither null nor a map");
    const char *mode = json_string_value(json_object_get(m, "mode"));
    int found = -1;
    for (int i = 0; mode && i < 3; i++)
        if (strcmp(mode, modes[i].name) == 0) found = i;
    if (found < 0) return bad(why, len, seat, "no clock mode (wall, cpu or fair)");
    e->mode = modes[found].mode;
    for (size_t i = 0; i < N_FIGURES; i++) {
        json_t *v = json_object_get(m, figures[i].key);
        bool need = figures[i].need ||
                    (e->mode == CLOCK_FAIR && figures[i].off == offsetof(clock_evidence, wait_ms));
        if (!v || json_is_null(v)) {
            if (need) return bad(why, len, seat, "a figure missing");
            *at(e, i) = -1;
            continue;
        }
        double x = json_is_number(v) ? json_number_value(v) : NAN;
        if (!(x >= 0 && x < FIGURE_MAX))
            return bad(why, len, seat,
                       "a figure that is not a time (negative, not finite or "
                       "not a number)");
        *at(e, i) = x;
    }
    e->set = true;
    return 0;
}

int store_clocks_decode(const char *json, int k, clock_evidence *out, char *why, size_t len)
{
    memset(out, 0, sizeof *out * (size_t)(k > 0 ? k : 0));
    if (!json) return 0;
    json_t *a = json_loads(json, JSON_REJECT_DUPLICATES, NULL);
    int rc = 0;
    if (!json_is_array(a) || json_array_size(a) != (size_t)k)
        rc = bad(why, len, -1, "not a list of one entry per seat");
    for (int s = 0; rc == 0 && s < k; s++) {
        json_t *m = json_array_get(a, (size_t)s);
        if (!json_is_null(m)) rc = decode_one(m, s, &out[s], why, len);
    }
    json_decref(a);
    if (rc != 0) memset(out, 0, sizeof *out * (size_t)k);
    return rc;
}
