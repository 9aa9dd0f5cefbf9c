/* Filling a map from decoded key/value pairs (the msgpack and JSON readers).
 *
 * A repeated key keeps its first position and takes the last value, as
 * av_setn does; but searching the map for every key was the largest single
 * cost of decoding a message. A 64-bit filter of the keys added so far
 * (one bit from a key's length and first, middle and last bytes) proves most
 * keys new, and only the rest are searched. */
#ifndef ARENA_MAP_FILL_H
#define ARENA_MAP_FILL_H

#include <stdint.h>

#include "value.h"

static inline void map_fill(av *map, uint64_t *seen, const char *key, size_t klen, av *val)
{
    const uint8_t *k = (const uint8_t *)key;
    uint32_t x = klen ? (uint32_t)klen | (uint32_t)k[0] << 8 | (uint32_t)k[klen / 2] << 16 |
                            (uint32_t)k[klen - 1] << 24
                      : 0;
    uint64_t bit = (uint64_t)1 << ((x * 0x9e3779b1u) >> 26);
    if (*seen & bit) {
        av_setn(map, key, klen, val); /* maybe a repeat: search */
    } else {
        *seen |= bit;
        av_map_add_new(map, key, klen, val);
    }
}

#endif
