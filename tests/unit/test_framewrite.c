/* The frame writer (framewrite.h) writes the bytes codec_encode writes for
 * the same tree, item by item, in both codecs: random trees walked through
 * every fw_* call, with subtrees now and then handed over whole. The value
 * writer (valueout.h), which games write their views with, gives the same
 * bytes in frame mode, and the same tree in tree mode. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec.h"
#include "framewrite.h"
#include "valueout.h"

static uint64_t rng = 0x9e3779b97f4a7c15u;

static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static int64_t edgy_int(void)
{
    static const int64_t edges[] = {0,      -1,     -32,        -33,        127,       128,
                                    255,    256,    65535,      65536,      -128,      -129,
                                    -32768, -32769, 4294967295, 4294967296, INT64_MIN, INT64_MAX};
    return next() % 2 ? (int64_t)next() : edges[next() % (sizeof edges / sizeof *edges)];
}

/* A string of n bytes: plain, escapes, UTF-8 and invalid bytes mixed. */
static void fill_text(char *b, size_t n)
{
    static const char odd[] = "\"\\\n\t\x01\x7f\xc3\xa9\xff";
    for (size_t i = 0; i < n; i++)
        b[i] = next() % 4 ? (char)('a' + next() % 26) : odd[next() % (sizeof odd - 1)];
}

static av *gen(int depth)
{
    static const size_t lens[] = {0, 1, 31, 32, 255, 256, 300};
    char text[301];
    switch (next() % (depth >= 4 ? 5 : 7)) {
    case 0: return av_nil();
    case 1: return av_bool(next() % 2);
    case 2: return av_int(edgy_int());
    case 3: {
        size_t n = lens[next() % (sizeof lens / sizeof *lens)];
        fill_text(text, n);
        return av_strn(text, n);
    }
    case 4: return av_float((double)(int64_t)next() / 1024.0);
    case 5: {
        av *l = av_list();
        size_t n = next() % 3 ? next() % 5 : 15 + next() % 4; /* around fixarray's 16 */
        for (size_t i = 0; i < n; i++)
            av_push(l, gen(depth + 1));
        return l;
    }
    default: {
        av *m = av_map();
        size_t n = next() % 3 ? next() % 5 : 15 + next() % 4;
        for (size_t i = 0; i < n; i++) {
            size_t klen = next() % 4 ? 1 + next() % 8 : 32 + next() % 8;
            fill_text(text, klen);
            for (size_t k = 0; k < klen; k++) /* keys hold no NUL */
                if (!text[k]) text[k] = 'z';
            text[klen] = 0;
            av_set(m, text, gen(depth + 1));
        }
        return m;
    }
    }
}

/* Plain keys may take the inline path (JSON needs no escape for them). */
static bool plain_key(const char *k)
{
    for (; *k; k++)
        if (*k < 0x20 || *k >= 0x7f || *k == '"' || *k == '\\') return false;
    return true;
}

static void walk(frame_writer *w, const av *v)
{
    if (next() % 5 == 0) { /* a subtree through the tree encoder */
        fw_value(w, v);
        return;
    }
    switch (v->type) {
    case AV_NIL: fw_nil(w); break;
    case AV_BOOL: fw_bool(w, v->u.b); break;
    case AV_INT: fw_int(w, v->u.i); break;
    case AV_FLOAT: fw_value(w, v); break;
    case AV_STR: fw_str(w, v->u.str.s, v->u.str.len); break;
    case AV_LIST:
        fw_list(w, v->u.list.len);
        for (size_t i = 0; i < v->u.list.len; i++)
            walk(w, v->u.list.items[i]);
        fw_end(w);
        break;
    case AV_MAP:
        fw_map(w, v->u.map.len);
        for (size_t i = 0; i < v->u.map.len; i++) {
            const char *k = v->u.map.keys[i];
            if (plain_key(k) && next() % 2)
                fw_key_plain(w, k, strlen(k));
            else
                fw_key_any(w, k, strlen(k));
            walk(w, v->u.map.vals[i]);
        }
        fw_end(w);
        break;
    }
}

static void test_writer_matches_codec_encode(void **st)
{
    (void)st;
    for (int round = 0; round < 3000; round++) {
        /* A frame's top level is a map. */
        av *top = av_map();
        size_t n = next() % 6;
        for (size_t i = 0; i < n; i++) {
            char k[16];
            snprintf(k, sizeof k, "k%zu", i);
            av_set(top, k, gen(1));
        }
        for (int c = 0; c < 2; c++) {
            codec_kind codec = c ? CODEC_JSON : CODEC_MSGPACK;
            abuf direct = {0}, tree = {0};
            abuf_adds(&direct, "x");
            abuf_adds(&tree, "x");
            frame_writer w;
            fw_begin(&w, codec, &direct);
            walk(&w, top);
            fw_finish(&w);
            codec_encode(codec, top, &tree);
            if (direct.len != tree.len || memcmp(direct.data, tree.data, tree.len) != 0)
                fail_msg("round %d, %s: %zu bytes written, %zu encoded", round, codec_name(codec),
                         direct.len, tree.len);
            assert_int_equal(direct.data[direct.len], 0);
            abuf_free(&direct);
            abuf_free(&tree);
        }
        av_free(top);
    }
}

/* The same walk through the value writer (which takes no counts). */
static bool whole_subtrees = true;
static void vwalk(vout *o, const av *v)
{
    if (whole_subtrees && next() % 7 == 0) { /* a subtree copied whole */
        vo_value(o, v);
        return;
    }
    switch (v->type) {
    case AV_NIL: vo_nil(o); break;
    case AV_BOOL: vo_bool(o, v->u.b); break;
    case AV_INT: vo_int(o, v->u.i); break;
    case AV_FLOAT: vo_value(o, v); break;
    case AV_STR: vo_strn(o, v->u.str.s, v->u.str.len); break;
    case AV_LIST:
        vo_list(o);
        for (size_t i = 0; i < v->u.list.len; i++)
            vwalk(o, v->u.list.items[i]);
        vo_end(o);
        break;
    case AV_MAP:
        vo_map(o);
        for (size_t i = 0; i < v->u.map.len; i++) {
            vo_key(o, v->u.map.keys[i]);
            vwalk(o, v->u.map.vals[i]);
        }
        vo_end(o);
        break;
    }
}

/* v written by the value writer into a frame and into a tree: the frame's
 * bytes are codec_encode's, the tree encodes to them too. */
static void check_value_writer(const av *v, const char *what)
{
    for (int c = 0; c < 2; c++) {
        codec_kind codec = c ? CODEC_JSON : CODEC_MSGPACK;
        abuf direct = {0}, tree = {0}, back = {0};
        abuf_adds(&direct, "x");
        abuf_adds(&tree, "x");
        abuf_adds(&back, "x");
        frame_writer w;
        vout o;
        fw_begin(&w, codec, &direct);
        vout_frame(&o, &w);
        vwalk(&o, v);
        fw_finish(&w);
        codec_encode(codec, v, &tree);
        if (direct.len != tree.len || memcmp(direct.data, tree.data, tree.len) != 0)
            fail_msg("%s, %s: %zu bytes written, %zu encoded", what, codec_name(codec), direct.len,
                     tree.len);
        assert_int_equal(direct.data[direct.len], 0);
        vout_tree(&o);
        vwalk(&o, v);
        av *t = vout_tree_take(&o);
        codec_encode(codec, t, &back);
        if (back.len != tree.len || memcmp(back.data, tree.data, tree.len) != 0)
            fail_msg("%s, %s: the tree written differs", what, codec_name(codec));
        av_free(t);
        abuf_free(&direct);
        abuf_free(&tree);
        abuf_free(&back);
    }
}

static void test_value_writer_matches_codec_encode(void **st)
{
    (void)st;
    for (int round = 0; round < 3000; round++) {
        av *top = av_map();
        size_t n = next() % 6;
        for (size_t i = 0; i < n; i++) {
            char k[16];
            snprintf(k, sizeof k, "k%zu", i);
            av_set(top, k, gen(1));
        }
        char what[32];
        snprintf(what, sizeof what, "round %d", round);
        check_value_writer(top, what);
        av_free(top);
    }
}

/* Containers past msgpack's 16- and 32-bit count forms, nested, so a
 * widened header moves what follows it inside its parent. */
static void test_value_writer_widens_large_containers(void **st)
{
    (void)st;
    static const size_t sizes[] = {15, 16, 17, 65535, 65536, 70000};
    whole_subtrees = false;
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        av *top = av_map(), *l = av_list(), *m = av_map();
        for (size_t i = 0; i < sizes[k]; i++) {
            char key[24];
            snprintf(key, sizeof key, "%zu", i);
            av_push(l, av_int((int64_t)i));
            av_map_add_new(m, key, strlen(key), av_bool(i % 2));
        }
        av_set(top, "before", av_str("b"));
        av_set(top, "list", av_push(av_list(), l));
        av_set(top, "map", m);
        av_set(top, "after", av_int(-1));
        char what[32];
        snprintf(what, sizeof what, "%zu items", sizes[k]);
        check_value_writer(top, what);
        av_free(top);
    }
    whole_subtrees = true;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_writer_matches_codec_encode),
        cmocka_unit_test(test_value_writer_matches_codec_encode),
        cmocka_unit_test(test_value_writer_widens_large_containers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
