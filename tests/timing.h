/* What the host was doing when a test's bound on time failed. A timing
 * assertion must hold on a loaded machine; when one does not, the load it
 * saw says whether the machine or the code was at fault. Include after
 * <cmocka.h>. */
#ifndef ARENA_TESTS_TIMING_H
#define ARENA_TESTS_TIMING_H

#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Prints /proc/loadavg and, where the kernel has it, /proc/pressure/cpu to
 * stderr. */
static inline void timing_print_load(void)
{
    static const char *const paths[] = {"/proc/loadavg", "/proc/pressure/cpu"};
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        FILE *f = fopen(paths[i], "r");
        if (!f) continue;
        char line[256];
        while (fgets(line, sizeof line, f)) {
            line[strcspn(line, "\n")] = 0;
            fprintf(stderr, "host load: %s: %s\n", paths[i], line);
        }
        fclose(f);
    }
}

/* The calling thread's run-queue wait so far, in ms: the time it was ready
 * to run while others held the CPU (/proc/thread-self/schedstat). 0 where
 * the kernel does not say, so a bound that allows for it gets stricter. */
static inline double timing_run_delay_ms(void)
{
    FILE *f = fopen("/proc/thread-self/schedstat", "r");
    if (!f) return 0;
    unsigned long long ran = 0, waited = 0;
    int n = fscanf(f, "%llu %llu", &ran, &waited);
    fclose(f);
    return n == 2 ? (double)waited / 1e6 : 0;
}

/* The host's steal time so far, in ms: time its virtual CPUs were ready
 * but the hypervisor ran something else (/proc/stat), summed over every
 * CPU, so an upper bound on what one thread lost that way. Run-queue wait
 * does not see it. 0 where the kernel does not say. */
static inline double timing_steal_ms(void)
{
    FILE *f = fopen("/proc/stat", "r");
    if (!f) return 0;
    unsigned long long v[8] = {0};
    int n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
                   &v[4], &v[5], &v[6], &v[7]);
    fclose(f);
    long hz = sysconf(_SC_CLK_TCK);
    return n == 8 && hz > 0 ? (double)v[7] * 1e3 / (double)hz : 0;
}

/* assert_true for a bound on time: a failure prints the host's load first. */
#define assert_timely(cond)                                                                        \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            timing_print_load();                                                                   \
            fail_msg("timing bound failed: %s", #cond);                                            \
        }                                                                                          \
    } while (0)

#endif
