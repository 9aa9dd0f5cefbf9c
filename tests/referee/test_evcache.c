/* The events cache (referee/evcache.h): an event written through it is the
 * bytes fw_value writes, in either codec and among other values; it is
 * encoded once however many seats get it, and only for the tree it was
 * encoded from; its bytes go when the event is released. (Whole games
 * through the cache: tests/referee/test_decide.c.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "evcache.h"

/* A list of the events idx[0..n) (trees ev) written through c, compared
 * with the same list written by fw_value. */
static void check_list(evcache *c, codec_kind codec, const size_t *idx, const av *const *ev,
                       size_t n)
{
    abuf got = {0}, want = {0};
    frame_writer w;
    fw_begin(&w, codec, &got);
    fw_list(&w, n);
    for (size_t i = 0; i < n; i++)
        evcache_write(c, &w, idx[i], ev[i]);
    fw_end(&w);
    fw_finish(&w);
    fw_begin(&w, codec, &want);
    fw_list(&w, n);
    for (size_t i = 0; i < n; i++)
        fw_value(&w, ev[i]);
    fw_end(&w);
    fw_finish(&w);
    assert_int_equal(got.len, want.len);
    assert_memory_equal(got.data, want.data, want.len);
    abuf_free(&got);
    abuf_free(&want);
}

/* The bytes of v alone in codec. */
static size_t encoded_len(codec_kind codec, const av *v)
{
    abuf b = {0};
    frame_writer w;
    fw_begin(&w, codec, &b);
    size_t at = fw_value_at(&w, v);
    size_t n = b.len - at;
    abuf_free(&b);
    return n;
}

static av *event(const char *type, int64_t n)
{
    av *e = av_map();
    av_set_str(e, "type", type);
    av_set_int(e, "n", n);
    return e;
}

static void test_an_event_is_encoded_once_for_every_seat(void **st)
{
    (void)st;
    av *a = event("took", 3), *b = event("took", 70000);
    const av *ev[] = {a, b};
    size_t idx[] = {0, 1};
    evcache c = {0};
    for (int k = 0; k < 2; k++) {
        codec_kind codec = k ? CODEC_JSON : CODEC_MSGPACK;
        size_t before = evcache_bytes(&c);
        check_list(&c, codec, idx, ev, 2); /* the first seat: encoded */
        size_t held = evcache_bytes(&c);
        assert_int_equal(held - before, encoded_len(codec, a) + encoded_len(codec, b));
        check_list(&c, codec, idx, ev, 2); /* the next seats: copied */
        check_list(&c, codec, idx + 1, ev + 1, 1);
        assert_int_equal(evcache_bytes(&c), held);
    }
    evcache_free(&c);
    av_free(a);
    av_free(b);
}

static void test_another_tree_under_one_index_gets_its_own_bytes(void **st)
{
    (void)st;
    /* A game may show seats different trees for one event. */
    av *mine = event("drew", 5), *theirs = event("drew", -1);
    size_t idx = 7;
    evcache c = {0};
    evcache_release(&c, 7);
    for (int k = 0; k < 2; k++) {
        codec_kind codec = k ? CODEC_JSON : CODEC_MSGPACK;
        check_list(&c, codec, &idx, (const av *[]){mine}, 1);
        check_list(&c, codec, &idx, (const av *[]){theirs}, 1);
        check_list(&c, codec, &idx, (const av *[]){mine}, 1);
    }
    evcache_free(&c);
    av_free(mine);
    av_free(theirs);
}

static void test_released_events_take_their_bytes_along(void **st)
{
    (void)st;
    enum { N = 200 };
    av *ev[N];
    size_t idx[N];
    evcache c = {0};
    for (size_t i = 0; i < N; i++) {
        ev[i] = event(i % 2 ? "played" : "bought", (int64_t)i * 1000);
        idx[i] = i;
        check_list(&c, CODEC_MSGPACK, idx + i, (const av *const *)ev + i, 1);
        if (i >= 3) { /* the bytes of the last three stay right as the rest go */
            evcache_release(&c, i - 2);
            check_list(&c, CODEC_MSGPACK, idx + i - 2, (const av *const *)ev + i - 2, 3);
            check_list(&c, CODEC_JSON, idx + i - 2, (const av *const *)ev + i - 2, 3);
            assert_true(evcache_bytes(&c) < 200);
            assert_true(c.bytes.len < 400); /* the dead bytes are moved out */
        }
    }
    evcache_release(&c, N);
    assert_int_equal(evcache_bytes(&c), 0);
    evcache_free(&c);
    for (size_t i = 0; i < N; i++)
        av_free(ev[i]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_an_event_is_encoded_once_for_every_seat),
        cmocka_unit_test(test_another_tree_under_one_index_gets_its_own_bytes),
        cmocka_unit_test(test_released_events_take_their_bytes_along),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
