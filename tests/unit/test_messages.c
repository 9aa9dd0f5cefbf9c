/* msg_decode strictness and leniency (protocol.md §1-2). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "messages.h"
#include "samples.h"

static char err[200];

static void expect_reject(const av *m, const char *want)
{
    msg out;
    err[0] = '\0';
    int r = msg_decode(m, &out, err, sizeof err);
    if (r != -1 || !strstr(err, want)) fail_msg("r=%d err=\"%s\", wanted \"%s\"", r, err, want);
    assert_int_equal(out.type, MSG__COUNT);
    assert_null(strchr(err, '\n'));
}

static void expect_accept(const av *m, msg *out)
{
    if (msg_decode(m, out, err, sizeof err) != 0) fail_msg("rejected: %s", err);
}

static bool optional_key(msg_type t, const char *key)
{
    if (t == MSG_JOIN)
        return !strcmp(key, "version") || !strcmp(key, "author") || !strcmp(key, "token");
    if (t == MSG_ERROR) return !strcmp(key, "id"); /* nil/absent when no decision */
    return false;
}

/* Paths of nested required keys: "outer.inner". */
static const char *const nested_required[MSG__COUNT][8] = {
    [MSG_HELLO] = {"clock.move_ms", "clock.bank_ms", "clock.startup_ms", "clock.mode"},
    [MSG_DECIDE] = {"clock.move_ms", "clock.bank_ms", "pick.min", "pick.max", "pick.ordered"},
    [MSG_OVER] = {"result.ranks", "result.scores", "result.reason", "result.forfeits"},
};

static av *nested_parent(av *m, const char *path, char *leaf, size_t leaflen)
{
    const char *dot = strchr(path, '.');
    char outer[32];
    snprintf(outer, sizeof outer, "%.*s", (int)(dot - path), path);
    snprintf(leaf, leaflen, "%s", dot + 1);
    return (av *)av_get(m, outer);
}

static void test_missing_required_keys(void **state)
{
    (void)state;
    for (int t = 0; t < MSG__COUNT; t++) {
        av *base = sample_map((msg_type)t);
        for (size_t i = 0; i < base->u.map.len; i++) {
            const char *key = base->u.map.keys[i];
            if (!strcmp(key, "type") || optional_key((msg_type)t, key)) continue;
            av *m = av_copy(base);
            av_free(av_take(m, key));
            char want[64];
            snprintf(want, sizeof want, "%s: missing key \"%s\"", msg_type_name((msg_type)t), key);
            expect_reject(m, want);
            av_free(m);
        }
        for (int k = 0; k < 8 && nested_required[t][k]; k++) {
            av *m = av_copy(base);
            char leaf[32];
            av *parent = nested_parent(m, nested_required[t][k], leaf, sizeof leaf);
            assert_non_null(parent);
            av_free(av_take(parent, leaf));
            expect_reject(m, nested_required[t][k]);
            av_free(m);
        }
        av_free(base);
    }
}

static void test_wrong_key_types(void **state)
{
    (void)state;
    for (int t = 0; t < MSG__COUNT; t++) {
        av *base = sample_map((msg_type)t);
        for (size_t i = 0; i < base->u.map.len; i++) {
            const char *key = base->u.map.keys[i];
            if (!strcmp(key, "type")) continue;
            av *m = av_copy(base);
            av_set(m, key, av_float(1.5)); /* a float is wrong for every protocol key */
            expect_reject(m, key);
            av_free(m);
        }
        for (int k = 0; k < 8 && nested_required[t][k]; k++) {
            av *m = av_copy(base);
            char leaf[32];
            av *parent = nested_parent(m, nested_required[t][k], leaf, sizeof leaf);
            av_set(parent, leaf, av_float(1.5));
            expect_reject(m, nested_required[t][k]);
            av_free(m);
        }
        av_free(base);
    }

    /* item-level checks */
    av *m = sample_map(MSG_DECIDE);
    av *opts = (av *)av_get(m, "options");
    av_free(av_take(opts->u.list.items[1], "label"));
    expect_reject(m, "options[1] needs a string \"label\"");
    av_free(m);

    m = sample_map(MSG_DECIDE);
    av_push((av *)av_get(m, "options"), av_str("pass"));
    expect_reject(m, "options[2] must be a map");
    av_free(m);

    m = sample_map(MSG_ACT);
    av_push((av *)av_get(m, "choice"), av_str("1"));
    expect_reject(m, "act: choice[2] must be an integer");
    av_free(m);

    m = sample_map(MSG_ACT);
    av_set_int(m, "id", -1);
    expect_reject(m, "act: key \"id\" must be a non-negative integer");
    av_free(m);

    m = sample_map(MSG_HELLO);
    av_set_str((av *)av_get(m, "clock"), "mode", "sundial");
    expect_reject(m, "clock.mode");
    av_free(m);

    m = sample_map(MSG_OVER);
    av_push((av *)av_get(av_get(m, "result"), "ranks"), av_int(3));
    expect_reject(m, "differ in length");
    av_free(m);

    m = sample_map(MSG_OVER);
    av *ff = (av *)av_get(av_get(m, "result"), "forfeits");
    av_set_str(ff->u.list.items[0], "cause", "boredom");
    expect_reject(m, "forfeits[0].cause");
    av_free(m);

    m = sample_map(MSG_ERROR);
    av_set_str(m, "code", "rude");
    expect_reject(m, "error: code must be");
    av_free(m);

    m = sample_map(MSG_JOIN);
    av_set(m, "token", av_strn("abc\0def", 7));
    expect_reject(m, "join: key \"token\" contains a NUL byte");
    av_set(m, "token", av_str("abc"));
    av_set(m, "name", av_strn("\0", 1));
    expect_reject(m, "join: key \"name\" contains a NUL byte");
    av_free(m);

    /* free text keeps what precedes a NUL */
    m = sample_map(MSG_LOG);
    av_set(m, "text", av_strn("ok\0rest", 7));
    msg out;
    expect_accept(m, &out);
    assert_string_equal(out.u.log.text, "ok");
    msg_free(&out);
    av_free(m);

    m = sample_map(MSG_HELLO);
    av_push((av *)av_get(m, "names"), av_int(7));
    expect_reject(m, "names[2] must be a string");
    av_free(m);
}

static void test_unknown_extra_keys_ignored(void **state)
{
    (void)state;
    for (int t = 0; t < MSG__COUNT; t++) {
        av *m = sample_map((msg_type)t);
        av_set_str(m, "x-future", "whatever");
        av_set(m, "another", av_push(av_list(), av_nil()));
        msg out;
        expect_accept(m, &out);
        assert_int_equal(out.type, t);
        av *back = msg_encode(&out);
        av *want = sample_map((msg_type)t);
        assert_true(av_equal(back, want));
        av_free(want);
        av_free(back);
        msg_free(&out);
        av_free(m);
    }
    /* extra keys in nested protocol maps too */
    av *m = sample_map(MSG_DECIDE);
    av_set_int((av *)av_get(m, "pick"), "extra", 1);
    av_set_int((av *)av_get(m, "clock"), "extra", 1);
    av_set_int(((av *)av_get(m, "options"))->u.list.items[0], "card", 5);
    msg out;
    expect_accept(m, &out);
    assert_string_equal(out.u.decide.labels[0], "buy:Smithy");
    msg_free(&out);
    av_free(m);
}

static void test_type_checks(void **state)
{
    (void)state;
    av *m = av_map();
    expect_reject(m, "missing key \"type\"");
    av_set_int(m, "type", 3);
    expect_reject(m, "key \"type\" must be a string, not an integer");
    av_set_str(m, "type", "dance");
    expect_reject(m, "unknown type \"dance\"");
    av_set(m, "type", av_strn("bye\0x", 5));
    expect_reject(m, "unknown type");
    av_set_str(m, "type", "HELLO");
    expect_reject(m, "unknown type");
    av_free(m);

    m = av_list();
    expect_reject(m, "top level must be a map");
    av_free(m);

    assert_int_equal(msg_type_parse("act"), MSG_ACT);
    assert_int_equal(msg_type_parse("nope"), MSG__COUNT);
    assert_int_equal(msg_type_parse(NULL), MSG__COUNT);
    assert_string_equal(msg_type_name(MSG_DECIDE), "decide");
    for (int t = 0; t < MSG__COUNT; t++)
        assert_int_equal(msg_type_parse(msg_type_name((msg_type)t)), t);
}

static void test_single_int_choice(void **state)
{
    (void)state;
    av *m = av_map();
    av_set_str(m, "type", "act");
    av_set_int(m, "id", 9);
    av_set_int(m, "choice", 4);
    msg out;
    expect_accept(m, &out);
    assert_int_equal(out.u.act.id, 9);
    assert_int_equal(out.u.act.n_choice, 1);
    assert_int_equal(out.u.act.choice[0], 4);
    av *back = msg_encode(&out);
    assert_int_equal(av_get(back, "choice")->type, AV_LIST);
    assert_int_equal(av_len(av_get(back, "choice")), 1);
    av_free(back);
    msg_free(&out);

    av_set(m, "choice", av_list()); /* empty list: decodes, legality is the referee's job */
    expect_accept(m, &out);
    assert_int_equal(out.u.act.n_choice, 0);
    msg_free(&out);

    av_set_str(m, "choice", "4");
    expect_reject(m, "act: key \"choice\" must be a list of integers or an integer");
    av_free(m);
}

static void test_optional_and_nil(void **state)
{
    (void)state;
    /* join with only a name */
    av *m = av_set_str(av_set_str(av_map(), "type", "join"), "name", "bot");
    av_set(m, "author", av_nil());
    msg out;
    expect_accept(m, &out);
    assert_string_equal(out.u.join.name, "bot");
    assert_null(out.u.join.version);
    assert_null(out.u.join.author);
    assert_null(out.u.join.token);
    av *back = msg_encode(&out);
    assert_null(av_get(back, "author"));
    av_free(back);
    msg_free(&out);
    av_free(m);

    /* error without a decision id */
    m = sample_map(MSG_ERROR);
    av_set(m, "id", av_nil());
    expect_accept(m, &out);
    assert_int_equal(out.u.error.id, 0);
    msg_free(&out);
    av_free(m);

    /* decide clock: game_ms nil, decide carries no startup_ms/mode */
    m = sample_map(MSG_DECIDE);
    av_set((av *)av_get(m, "clock"), "game_ms", av_nil());
    expect_accept(m, &out);
    assert_int_equal(out.u.decide.clock.game_ms, -1);
    assert_int_equal(out.u.decide.clock.startup_ms, -1);
    back = msg_encode(&out);
    assert_int_equal(av_get(av_get(back, "clock"), "game_ms")->type, AV_NIL);
    assert_null(av_get(av_get(back, "clock"), "mode"));
    av_free(back);
    msg_free(&out);
    av_free(m);

    /* ready and bye carry nothing; extra keys are fine */
    m = av_set_str(av_set_str(av_map(), "type", "ready"), "note", "hi");
    expect_accept(m, &out);
    assert_int_equal(out.type, MSG_READY);
    msg_free(&out);
    av_free(m);

    /* msg_free on a zeroed struct and twice is harmless */
    msg z;
    memset(&z, 0, sizeof z);
    z.type = MSG_DECIDE;
    msg_free(&z);
    msg_free(&z);
    msg_free(NULL);
}

/* msg_decode_take gives the same message as msg_decode for every type, but
 * moves the top-level view, events and options out of the map. */
static void test_decode_take_matches_decode(void **state)
{
    (void)state;
    for (int t = 0; t < MSG__COUNT; t++) {
        av *m = sample_map((msg_type)t), *copy = av_copy(m);
        msg a, b;
        expect_accept(m, &a);
        if (msg_decode_take(copy, &b, err, sizeof err) != 0) fail_msg("rejected: %s", err);
        av *ea = msg_encode(&a), *eb = msg_encode(&b);
        assert_true(av_equal(ea, eb));
        const char *moved[] = {"view", "events", "options"};
        for (size_t k = 0; k < 3; k++) {
            const av *was = av_get(m, moved[k]);
            bool movable = was && (was->type == AV_MAP || was->type == AV_LIST) &&
                           (t == MSG_HELLO || t == MSG_DECIDE || t == MSG_EVENT || t == MSG_OVER) &&
                           !(t == MSG_DECIDE && k == 2); /* decide's options are read, not kept */
            if (movable) assert_null(av_get(copy, moved[k]));
        }
        av_free(ea);
        av_free(eb);
        msg_free(&a);
        msg_free(&b);
        av_free(m);
        av_free(copy);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_missing_required_keys),      cmocka_unit_test(test_wrong_key_types),
        cmocka_unit_test(test_unknown_extra_keys_ignored), cmocka_unit_test(test_type_checks),
        cmocka_unit_test(test_single_int_choice),          cmocka_unit_test(test_optional_and_nil),
        cmocka_unit_test(test_decode_take_matches_decode),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
