/* The corpus driver's hooks for the reader targets (fuzz_tally.h). */
#include "fuzz_tally.h"

#include <stdio.h>

int fuzz_after_seeds(void);
int fuzz_after_mutations(size_t n_seeds, long mutations, double cpu_s);

size_t fuzz_taken, fuzz_refused;
static size_t seed_taken, seed_refused;

int fuzz_after_seeds(void)
{
    seed_taken = fuzz_taken, seed_refused = fuzz_refused;
    if (seed_taken == 0 || seed_refused == 0) {
        fprintf(stderr, "%s: the seeds were taken %zu times and refused %zu: expected both\n",
                fuzz_target_name, seed_taken, seed_refused);
        return 1;
    }
    return 0;
}

int fuzz_after_mutations(size_t n_seeds, long mutations, double cpu_s)
{
    printf("%s: %zu seeds (%zu taken, %zu refused), %ld mutations (%zu taken, %zu refused), "
           "%.2f s CPU\n",
           fuzz_target_name, n_seeds, seed_taken, seed_refused, mutations, fuzz_taken - seed_taken,
           fuzz_refused - seed_refused, cpu_s);
    if (fuzz_taken == seed_taken) {
        fprintf(stderr, "%s: no mutation was taken: the target was inert\n", fuzz_target_name);
        return 1;
    }
    return 0;
}
