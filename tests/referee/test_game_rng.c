/* The games' rng (referee/game_rng.h): ChaCha's block function against
 * RFC 8439's test vector, and the stream's contract (seeded, copyable,
 * unbiased bounds); the seeds derived from it (referee/seeds.h). Whether a
 * derived seed gives its secret away is tests/hostile/seeds.py's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "game_rng.h"
#include "seeds.h"

/* RFC 8439 §2.3.2: key 00 01 .. 1f, block count 1, nonce 00:00:00:09
 * 00:00:00:4a 00:00:00:00, 20 rounds. */
static void test_block_function_matches_rfc_8439(void **state)
{
    (void)state;
    uint32_t in[16] = {0x61707865u, 0x3320646eu, 0x79622d32u, 0x6b206574u};
    for (int i = 0; i < 8; i++)
        in[4 + i] = (uint32_t)(4 * i) | (uint32_t)(4 * i + 1) << 8 | (uint32_t)(4 * i + 2) << 16 |
                    (uint32_t)(4 * i + 3) << 24;
    in[12] = 1;
    in[13] = 0x09000000u;
    in[14] = 0x4a000000u;
    in[15] = 0;
    static const uint32_t want[16] = {0xe4e7f110u, 0x15593bd1u, 0x1fdd0f50u, 0xc47120a3u,
                                      0xc7f4d1c7u, 0x0368c033u, 0x9aaa2204u, 0x4e6cd4c3u,
                                      0x466482d2u, 0x09aa9f07u, 0x05d7c214u, 0xa2028bd9u,
                                      0xd19c12b5u, 0xb94e16deu, 0xe883d0cbu, 0x4e3c50a2u};
    uint32_t out[16];
    game_rng_chacha(in, out, 20);
    assert_memory_equal(out, want, sizeof want);
}

static void test_seed_decides_the_stream(void **state)
{
    (void)state;
    game_rng a, b, c;
    game_rng_seed(&a, 42);
    game_rng_seed(&b, 42);
    game_rng_seed(&c, 43);
    int same_c = 0;
    for (int i = 0; i < 1000; i++) {
        uint32_t x = game_rng_u32(&a);
        assert_int_equal(x, game_rng_u32(&b));
        same_c += x == game_rng_u32(&c);
        if (i == 500) b = a; /* a copy (a game's clone) goes on alike */
    }
    assert_true(same_c < 3);
}

static void test_below_is_in_range_and_even(void **state)
{
    (void)state;
    game_rng r;
    game_rng_seed(&r, 7);
    int count[6] = {0};
    for (int i = 0; i < 60000; i++) {
        uint32_t d = game_rng_below(&r, 6);
        assert_true(d < 6);
        count[d]++;
    }
    for (int k = 0; k < 6; k++) /* 10,000 expected, sd about 91 */
        assert_in_range(count[k], 9500, 10500);
    for (uint32_t n = 1; n < 70; n++)
        assert_true(game_rng_below(&r, n) < n);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Each (secret, use, index) its own seed, and none the block of the
 * game's own stream (nonce 0) at that index, whose draws a log shows. */
static void test_derived_seeds_are_apart(void **state)
{
    (void)state;
    enum { SECRETS = 3, USES = SEED_PLAY_GAME, INDEXES = 2000 };
    static uint64_t all[SECRETS * USES * INDEXES];
    size_t n = 0;
    for (uint64_t secret = 1; secret <= SECRETS; secret++) {
        game_rng g;
        game_rng_seed(&g, secret);
        for (uint64_t i = 0; i < INDEXES; i++) {
            uint64_t drawn = game_rng_u32(&g);
            drawn |= (uint64_t)game_rng_u32(&g) << 32;
            for (int k = 2; k < 16; k++) /* to the next block */
                game_rng_u32(&g);
            for (int u = SEED_GAME; u <= SEED_PLAY_GAME; u++) {
                uint64_t x = arena_seed_derive(secret, (seed_use)u, i);
                assert_true(x == arena_seed_derive(secret, (seed_use)u, i));
                assert_true(x != drawn);
                all[n++] = x;
            }
        }
    }
    qsort(all, n, sizeof all[0], cmp_u64);
    for (size_t i = 1; i < n; i++)
        assert_true(all[i] != all[i - 1]);
}

/* A game's seed fits 53 bits, all of them used: logs, the DB and `arena
 * play --seed` read it back as the same positive number. */
static void test_game_seeds_fit_53_bits(void **state)
{
    (void)state;
    int top = 0;
    for (uint64_t i = 0; i < 1000; i++) {
        uint64_t s = arena_game_seed_derive(7, SEED_GAME, i);
        assert_true(s <= ARENA_GAME_SEED_MAX);
        assert_true(s == (arena_seed_derive(7, SEED_GAME, i) & ARENA_GAME_SEED_MAX));
        top += s >> 52 == 1;
    }
    assert_true(top > 400 && top < 600);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_block_function_matches_rfc_8439),
        cmocka_unit_test(test_seed_decides_the_stream),
        cmocka_unit_test(test_below_is_in_range_and_even),
        cmocka_unit_test(test_derived_seeds_are_apart),
        cmocka_unit_test(test_game_seeds_fit_53_bits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
