/* Deterministic pseudo-random numbers for games and bots: xoshiro256**
 * seeded through splitmix64. Header-only so game hot paths inline it.
 * Never seed from time: a game's randomness comes only from its seed. */
#ifndef ARENA_RNG_H
#define ARENA_RNG_H

#include <stdint.h>

typedef struct arena_rng {
    uint64_t s[4];
} arena_rng;

static inline uint64_t arena_splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static inline void arena_rng_seed(arena_rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        r->s[i] = arena_splitmix64(&seed);
}

static inline uint64_t arena_rng_rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

static inline uint64_t arena_rng_next(arena_rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = arena_rng_rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = arena_rng_rotl(s[3], 45);
    return result;
}

/* Uniform integer in [0, n), n > 0, without modulo bias (Lemire's method). */
static inline uint32_t arena_rng_below(arena_rng *r, uint32_t n)
{
    uint64_t m = (uint64_t)(uint32_t)arena_rng_next(r) * n;
    uint32_t low = (uint32_t)m;
    if (low < n) {
        uint32_t threshold = (uint32_t)(-n) % n;
        while (low < threshold) {
            m = (uint64_t)(uint32_t)arena_rng_next(r) * n;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

/* Mixes a value into a hash (tests, benches, self-play). Invertible: not
 * for deriving a seed from a secret one, which is seeds.h's job. */
static inline uint64_t arena_hash_mix(uint64_t seed, uint64_t salt)
{
    uint64_t x = seed ^ (salt * 0xd1342543de82ef95ull);
    return arena_splitmix64(&x);
}

#endif
