/* The HTML report's links to viewers and its CSP hash: a link is made only
 * to this game's viewer file as found on disk, relative to the page's
 * directory wherever that is, never from the stored string; SHA-256
 * against FIPS 180-4's examples. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "report_link.h"
#include "sha256.h"
#include "util.h"

static void test_sha256(void **st)
{
    (void)st;
    char b[45];
    sha256_base64("", 0, b); /* e3b0c442...b855 */
    assert_string_equal(b, "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=");
    sha256_base64("abc", 3, b); /* ba7816bf...15ad */
    assert_string_equal(b, "ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=");
    const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    sha256_base64(two, strlen(two), b); /* 248d6a61...06c1: two blocks */
    assert_string_equal(b, "JI1qYdIGOLjlwCaTDD5gOaM85Flk/yFn9uzt1BnbBsE=");
}

static char root[64];

static void touch(const char *rel)
{
    char *p = xasprintf("%s/%s", root, rel);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fclose(f);
    free(p);
}

static void dir(const char *rel)
{
    char *p = xasprintf("%s/%s", root, rel);
    assert_int_equal(mkdir(p, 0700), 0);
    free(p);
}

static char *link_from(const char *page_rel, const char *log, int64_t game, const char *db)
{
    char *p = xasprintf("%s/%s", root, page_rel);
    char *pd = report_page_dir(p);
    assert_non_null(pd);
    char *href = report_viewer_link(log, game, db, pd);
    free(pd);
    free(p);
    return href;
}

static void test_links(void **st)
{
    (void)st;
    snprintf(root, sizeof root, "/tmp/arena-link-XXXXXX");
    assert_non_null(mkdtemp(root));
    dir("logs");
    dir("out");
    dir("out/deep");
    dir("a b");
    touch("logs/game-000007.jsonl.gz.html");
    touch("logs/game-000008.jsonl.gz.html");
    touch("a b/game-000009.jsonl.html");
    touch("evil.html");
    char *log = xasprintf("%s/logs/game-000007.jsonl.gz", root);
    char *db = xasprintf("%s/t.sqlite", root);
    char *h;
    /* Beside, below, and in another branch of the tree than the page. */
    h = link_from("r.html", log, 7, db);
    assert_string_equal(h, "logs/game-000007.jsonl.gz.html");
    free(h);
    h = link_from("out/deep/r.html", log, 7, db);
    assert_string_equal(h, "../../logs/game-000007.jsonl.gz.html");
    free(h);
    h = link_from("logs/r.html", log, 7, db);
    assert_string_equal(h, "game-000007.jsonl.gz.html");
    free(h);
    /* A relative stored path, found from the DB's directory. */
    char cwd[4096];
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(chdir("/"), 0);
    h = link_from("out/r.html", "logs/game-000008.jsonl.gz", 8, db);
    assert_string_equal(h, "../logs/game-000008.jsonl.gz.html");
    free(h);
    /* Percent-encoded: a space is no attribute break. */
    h = link_from("r.html", "a b/game-000009.jsonl", 9, db);
    assert_string_equal(h, "a%20b/game-000009.jsonl.html");
    free(h);
    /* Not this game's viewer, not there, or a scheme: no link. */
    assert_null(link_from("r.html", log, 8, db));
    assert_null(link_from("r.html", "evil", 7, db));
    assert_null(link_from("r.html", "javascript:alert(1)//", 7, db));
    assert_null(link_from("r.html", "logs/game-000010.jsonl.gz", 10, db));
    assert_int_equal(chdir(cwd), 0);
    free(log);
    free(db);
    char *rm = xasprintf("rm -rf '%s'", root);
    assert_int_equal(system(rm), 0);
    free(rm);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_sha256), cmocka_unit_test(test_links)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
