/* What a seat's result tells a person (seatnotes.h): the first forfeit
 * reason, a capped tail of the last stderr lines, fallbacks and `log` lines. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seatnotes.h"

static void add(seat_notes *n, const char *line)
{
    seat_notes_stderr(n, line, strlen(line));
}

static void test_notes_tail_keeps_last_whole_lines_under_cap(void **st)
{
    (void)st;
    seat_notes n = {0};
    char line[64];
    for (int i = 1; i <= 200; i++) {
        snprintf(line, sizeof line, "line number %d", i);
        add(&n, line);
        assert_true(strlen(n.stderr_tail) < sizeof n.stderr_tail);
    }
    /* Ends with the newest line, starts at a line start, oldest gone. */
    size_t len = strlen(n.stderr_tail);
    assert_string_equal(n.stderr_tail + len - strlen("line number 200"), "line number 200");
    assert_true(strncmp(n.stderr_tail, "line number ", 12) == 0);
    assert_null(strstr(n.stderr_tail, "line number 1\n"));
    assert_non_null(strstr(n.stderr_tail, "line number 199\nline number 200"));
}

static void test_notes_long_line_is_cut_and_control_bytes_masked(void **st)
{
    (void)st;
    seat_notes n = {0};
    char big[1000];
    memset(big, 'x', sizeof big);
    big[3] = '\x1b';
    seat_notes_stderr(&n, big, sizeof big);
    assert_int_equal(strlen(n.stderr_tail), SEATNOTES_LINE_CAP + 3);
    assert_int_equal(n.stderr_tail[3], '?');
    assert_string_equal(n.stderr_tail + SEATNOTES_LINE_CAP, "...");
    add(&n, "after");
    assert_string_equal(n.stderr_tail + strlen(n.stderr_tail) - 6, "\nafter");
}

static void test_notes_first_forfeit_reason_is_kept(void **st)
{
    (void)st;
    seat_notes n = {0};
    seat_notes_forfeit(&n, "protocol", "act for id 103, expected 3");
    seat_notes_forfeit(&n, "crash", "the agent closed its output (EOF)");
    assert_string_equal(n.fault_message, "act for id 103, expected 3");
    seat_notes m = {0};
    seat_notes_forfeit(&m, "timeout", "");
    assert_string_equal(m.fault_message, "timeout");
}

static void test_notes_fallbacks_and_log_lines_counted(void **st)
{
    (void)st;
    seat_notes n = {0};
    seat_notes_fallback(&n, "timeout", "no answer within 1000 ms");
    seat_notes_fallback(&n, "illegal", "option index out of range");
    assert_int_equal(n.fallbacks, 2);
    assert_string_equal(n.fallback_last, "illegal: option index out of range");
    av *log = av_map(), *act = av_map();
    av_set_str(log, "type", "log");
    av_set_str(log, "text", "decide failed: KeyError");
    av_set_str(act, "type", "act");
    seat_notes_message(&n, log);
    seat_notes_message(&n, act);
    av *i = av_int(3);
    seat_notes_message(&n, i); /* not even a map: ignored */
    assert_int_equal(n.bot_logs, 1);
    assert_string_equal(n.bot_log_last, "decide failed: KeyError");
    match_outcome o;
    memset(&o, 0, sizeof o);
    seat_notes_to_outcome(&n, &o, 2);
    assert_int_equal(o.fallbacks[2], 2);
    assert_int_equal(o.bot_logs[2], 1);
    assert_int_equal(o.fallbacks[0], 0);
    av_free(log);
    av_free(act);
    av_free(i);
}

/* A match writes only the first byte of each text (seat_notes_init) and
 * copies texts up to their NUL: on memory full of junk, everything reads
 * empty, grows from empty, and the outcome gets exactly the texts. */
static void test_notes_init_and_copy_on_junk_memory(void **st)
{
    (void)st;
    seat_notes n;
    memset(&n, 'x', sizeof n);
    seat_notes_init(&n);
    assert_string_equal(n.fault_message, "");
    assert_string_equal(n.stderr_tail, "");
    assert_string_equal(n.fallback_last, "");
    assert_string_equal(n.bot_log_last, "");
    assert_int_equal(n.fallbacks, 0);
    assert_int_equal(n.bot_logs, 0);
    seat_notes_stderr(&n, "one", 3);
    seat_notes_stderr(&n, "two", 3);
    assert_string_equal(n.stderr_tail, "one\ntwo");
    seat_notes_fallback(&n, "timeout", "slow");
    match_outcome o;
    memset(&o, 'y', sizeof o);
    seat_notes_to_outcome(&n, &o, 1);
    assert_string_equal(o.fault_message[1], "");
    assert_string_equal(o.stderr_tail[1], "one\ntwo");
    assert_string_equal(o.fallback_last[1], "timeout: slow");
    assert_string_equal(o.bot_log_last[1], "");
    assert_int_equal(o.fallbacks[1], 1);
    assert_int_equal(o.bot_logs[1], 0);
    assert_int_equal(o.stderr_tail[0][0], 'y'); /* other seats untouched */
}

static void test_notes_print_tail_prints_last_lines(void **st)
{
    (void)st;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    seat_notes_print_tail(f, "a\nb\nc\nd", "| ", 2);
    fclose(f);
    assert_string_equal(buf, "| c\n| d\n");
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_notes_tail_keeps_last_whole_lines_under_cap),
        cmocka_unit_test(test_notes_long_line_is_cut_and_control_bytes_masked),
        cmocka_unit_test(test_notes_first_forfeit_reason_is_kept),
        cmocka_unit_test(test_notes_fallbacks_and_log_lines_counted),
        cmocka_unit_test(test_notes_init_and_copy_on_junk_memory),
        cmocka_unit_test(test_notes_print_tail_prints_last_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
