/* The games' own randomness: deals, shuffles, dice. The stream of ChaCha12
 * (RFC 8439's block function, 12 rounds) keyed by the game seed.
 *
 * Bots see many of its draws: their own shuffled cards, every die. A
 * generator whose state can be worked back from its output (xoshiro256**,
 * which games used before: its state moves linearly and its scrambler is
 * invertible) would let a bot that solves for the state from what it saw
 * know every hidden card and every future draw. A keystream cipher's
 * output gives nothing of its key away; what is left is guessing the seed
 * itself (53 random bits when arena draws it). Bots and determinize keep
 * the faster rng.h: nobody sees their draws.
 *
 * Header-only, like rng.h: a draw is a load from the current block; a new
 * block every 16 draws. Never seed from time: a game's randomness comes only
 * from its seed. */
#ifndef ARENA_GAME_RNG_H
#define ARENA_GAME_RNG_H

#include <stdint.h>

#include "rng.h"

#define GAME_RNG_NAME "chacha12" /* in the match log header: what dealt */

typedef struct game_rng {
    uint32_t key[8];
    uint64_t block;   /* counter of the next block */
    uint32_t out[16]; /* the current block */
    uint32_t used;    /* words of out drawn */
} game_rng;

static inline uint32_t game_rng_rotl(uint32_t x, int k)
{
    return (x << k) | (x >> (32 - k));
}

#define GAME_RNG_QR(a, b, c, d)                                                                    \
    (a += b, d = game_rng_rotl(d ^ a, 16), c += d, b = game_rng_rotl(b ^ c, 12), a += b,           \
     d = game_rng_rotl(d ^ a, 8), c += d, b = game_rng_rotl(b ^ c, 7))

/* The ChaCha block function: out = rounds of in, plus in. */
static inline void game_rng_chacha(const uint32_t in[16], uint32_t out[16], int rounds)
{
    uint32_t x[16];
    for (int i = 0; i < 16; i++)
        x[i] = in[i];
    for (int round = 0; round < rounds; round += 2) {
        GAME_RNG_QR(x[0], x[4], x[8], x[12]);
        GAME_RNG_QR(x[1], x[5], x[9], x[13]);
        GAME_RNG_QR(x[2], x[6], x[10], x[14]);
        GAME_RNG_QR(x[3], x[7], x[11], x[15]);
        GAME_RNG_QR(x[0], x[5], x[10], x[15]);
        GAME_RNG_QR(x[1], x[6], x[11], x[12]);
        GAME_RNG_QR(x[2], x[7], x[8], x[13]);
        GAME_RNG_QR(x[3], x[4], x[9], x[14]);
    }
    for (int i = 0; i < 16; i++)
        out[i] = x[i] + in[i];
}

/* Block `block` of the ChaCha12 stream of `key` and `nonce`. The games
 * draw from nonce 0; seeds.h derives seeds from the others. */
static inline void game_rng_block(const uint32_t key[8], uint64_t block, uint64_t nonce,
                                  uint32_t out[16])
{
    uint32_t in[16] = {0x61707865u, 0x3320646eu, 0x79622d32u, 0x6b206574u}; /* "expand 32-byte k" */
    for (int i = 0; i < 8; i++)
        in[4 + i] = key[i];
    in[12] = (uint32_t)block;
    in[13] = (uint32_t)(block >> 32);
    in[14] = (uint32_t)nonce;
    in[15] = (uint32_t)(nonce >> 32);
    game_rng_chacha(in, out, 12);
}

static inline void game_rng_refill(game_rng *r)
{
    game_rng_block(r->key, r->block, 0, r->out);
    r->block++;
    r->used = 0;
}

/* The 256-bit key of a 64-bit seed. */
static inline void game_rng_key(uint32_t key[8], uint64_t seed)
{
    for (int i = 0; i < 4; i++) {
        uint64_t k = arena_splitmix64(&seed);
        key[2 * i] = (uint32_t)k;
        key[2 * i + 1] = (uint32_t)(k >> 32);
    }
}

static inline void game_rng_seed(game_rng *r, uint64_t seed)
{
    game_rng_key(r->key, seed);
    r->block = 0;
    r->used = 16; /* the first draw computes block 0 */
}

static inline uint32_t game_rng_u32(game_rng *r)
{
    if (r->used == 16) game_rng_refill(r);
    return r->out[r->used++];
}

/* Uniform integer in [0, n), n > 0, without modulo bias (Lemire's method). */
static inline uint32_t game_rng_below(game_rng *r, uint32_t n)
{
    uint64_t m = (uint64_t)game_rng_u32(r) * n;
    if ((uint32_t)m < n) {
        uint32_t threshold = (uint32_t)(-n) % n;
        while ((uint32_t)m < threshold)
            m = (uint64_t)game_rng_u32(r) * n;
    }
    return (uint32_t)(m >> 32);
}

#endif
