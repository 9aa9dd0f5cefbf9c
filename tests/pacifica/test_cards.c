/* The designed card set and the card-file format: the set follows the
 * rulebook's category guide, files load through `cards=FILE`, and every
 * mistake is reported with file, line and field. argv[1]: cards-example.txt. */
#include <ctype.h>
#include <unistd.h>

#include "helpers.h"
#include "util.h"

static const char *example_path;

static void test_designed_set_complete(void **state)
{
    (void)state;
    pac_cardset set;
    char err[256] = "";
    assert_true(pac_parse_cards(pac_designed_cards, "designed", &set, err, sizeof err));
    int per[PC_NCAT] = {0}, green[PC_NCAT] = {0}, red[PC_NCAT] = {0};
    int stone = 0, brass = 0;
    bool eff[PE_FESTIVAL_BONUS + 1] = {0};
    for (int i = 0; i < PAC_NCARDS; i++) {
        const pac_card *c = &set.c[i];
        per[c->cat]++;
        green[c->cat] += c->act == PA_GREEN;
        red[c->cat] += c->act == PA_RED;
        eff[c->effect] = true;
        if (c->cat == PC_RESOURCES) stone += c->sym[PS_S], brass += c->sym[PS_B];
        if (c->cat == PC_ARCHITECTURE) {
            int n = c->sym[PS_A];
            assert_true(n >= 2);
            assert_int_equal(c->act, PA_RED); /* always paid with resources */
            for (int k = 0; k < c->n_slots; k++)
                assert_true(c->slots[k] == PS_S || c->slots[k] == PS_B || c->slots[k] == PR_R ||
                            c->slots[k] == PS_T);
        }
        if (c->cat == PC_KNOWLEDGE) assert_true(c->sym[PS_K] >= 1);
        if (c->cat == PC_TREASURE && c->act == PA_GREY) assert_true(c->need[PS_P] > 0);
        if (c->cat == PC_POPULATION && c->act == PA_GREY) assert_true(c->need[PS_A] > 0);
    }
    for (int c = 0; c < PC_NCAT; c++)
        assert_int_equal(per[c], PAC_PER_CAT);
    assert_int_equal(green[PC_TREASURE], 8); /* half comes active */
    assert_true(green[PC_POPULATION] > 8);   /* more than half */
    assert_true(red[PC_RESOURCES] > 8);      /* mostly discard */
    assert_true(brass < stone);              /* brass is rarer */
    assert_true(green[PC_FESTIVAL] <= 2);    /* festivals rarely active */
    for (int e = 1; e <= PE_FESTIVAL_BONUS; e++)
        assert_true(eff[e]); /* every effect exists */
    /* The rulebook's examples exist: 1 Population + 1 Treasure -> Festival,
     * discard a brass card -> 3 Architecture. */
    int f = -1, a = -1;
    for (int i = 0; i < PAC_NCARDS; i++) {
        const pac_card *c = &set.c[i];
        if (c->cat == PC_FESTIVAL && c->need[PS_P] == 1 && c->need[PS_T] == 1) f = i;
        if (c->cat == PC_ARCHITECTURE && c->sym[PS_A] == 3 && c->n_slots == 1 &&
            c->slots[0] == PS_B)
            a = i;
    }
    assert_true(f >= 0 && a >= 0);
}

static void test_card_line_round_trip(void **state)
{
    (void)state;
    pac_cardset a, b;
    char err[256];
    assert_true(pac_parse_cards(pac_designed_cards, "designed", &a, err, sizeof err));
    abuf txt = {0};
    for (int i = 0; i < PAC_NCARDS; i++) {
        char line[160];
        pac_card_line(&a.c[i], line, sizeof line);
        abuf_addf(&txt, "%s\n", line);
    }
    abuf_addc(&txt, '\0');
    assert_true(pac_parse_cards((char *)txt.data, "designed", &b, err, sizeof err));
    assert_memory_equal(&a, &b, sizeof a);
    abuf_free(&txt);
}

static void test_card_file_loads(void **state)
{
    (void)state;
    arena_setting s = {"cards", example_path};
    char err[256] = "";
    arena_game *g = pacifica_game.create(&s, 1, 1, 2, 0, err, sizeof err);
    if (!g) fail_msg("%s", err);
    arena_game *d = pacifica_game.create(NULL, 0, 1, 2, 0, err, sizeof err);
    av *sg = pacifica_game.settings(g), *sd = pacifica_game.settings(d);
    assert_string_equal(av_get_str(sg, "cards"), "cards-example.txt");
    assert_string_equal(av_get_str(sd, "cards"), "designed");
    assert_true(av_equal(av_get(sg, "card_list"), av_get(sd, "card_list")));
    assert_int_equal(av_len(av_get(sd, "card_list")), PAC_NCARDS);
    av_free(sg), av_free(sd);
    game_free(g), game_free(d);
}

/* Replaces line `ln` (1-based) of the designed text by `repl` (NULL drops
 * it) and returns the parse error. */
static void bad_set(int ln, const char *repl, const char *expect)
{
    abuf t = {0};
    const char *p = pac_designed_cards;
    for (int i = 1; *p; i++) {
        const char *nl = strchr(p, '\n');
        size_t len = (size_t)(nl - p) + 1;
        if (i != ln)
            abuf_add(&t, p, len);
        else if (repl)
            abuf_addf(&t, "%s\n", repl);
        p += len;
    }
    abuf_addc(&t, '\0');
    pac_cardset set;
    char err[256] = "";
    bool ok = pac_parse_cards((char *)t.data, "my.txt", &set, err, sizeof err);
    abuf_free(&t);
    assert_false(ok);
    if (!strstr(err, expect)) fail_msg("error '%s' lacks '%s'", err, expect);
}

static void test_card_file_errors_name_line_and_field(void **state)
{
    (void)state;
    /* Line 2 is T01. */
    bad_set(2, "T01 Tresure green symbols=T", "my.txt:2: field 'category'");
    bad_set(2, "T01 Treasure blue symbols=T", "my.txt:2: field 'activation'");
    bad_set(2, "T01 Treasure green symbols=TX", "my.txt:2: field 'symbols': bad letter 'X'");
    bad_set(2, "T01 Treasure green", "my.txt:2: field 'symbols': missing");
    bad_set(2, "T01 Treasure grey symbols=T", "my.txt:2: field 'need'");
    bad_set(2, "T01 Treasure red symbols=T need=P", "my.txt:2: field 'discard'");
    bad_set(2, "T01 Treasure green symbols=T need=P", "my.txt:2: field 'need'");
    bad_set(2, "T01 Treasure green symbols=T effect=copy", "my.txt:2: field 'effect'");
    bad_set(2, "T01 Treasure green symbols=T colour=red", "my.txt:2: field 'colour'");
    bad_set(2, "T02 Treasure green symbols=T", "my.txt:3: field 'id': 'T02' already used");
    bad_set(2, NULL, "15 Treasure cards, need exactly 16");
    bad_set(2, "X99 Machines green symbols=M", "more than 16 Machines cards");
    /* Effects and their arguments. */
    int m09 = 0;
    const char *p = pac_designed_cards;
    for (int i = 1; *p; i++) {
        if (strncmp(p, "M09 ", 4) == 0) m09 = i;
        p = strchr(p, '\n') + 1;
    }
    assert_true(m09 > 0);
    char want[64];
    snprintf(want, sizeof want, "my.txt:%d: field 'effect'", m09);
    bad_set(m09, "M09 Machines grey symbols=M need=AT effect=hand-limit:99", want);
    bad_set(m09, "M09 Machines grey symbols=M need=AT effect=start-draw:Gold", want);
    bad_set(m09, "M09 Machines grey symbols=M need=AT effect=fly", want);
    bad_set(m09, "M09 Machines grey symbols=M need=AT effect=search", want);
}

static void test_bad_settings_one_line(void **state)
{
    (void)state;
    char err[256] = "";
    arena_setting s = {"cards", "/nonexistent/cards.txt"};
    assert_null(pacifica_game.create(&s, 1, 1, 2, 0, err, sizeof err));
    assert_non_null(strstr(err, "/nonexistent/cards.txt"));
    assert_null(strchr(err, '\n'));
    arena_setting u = {"kingdom", "x"};
    assert_null(pacifica_game.create(&u, 1, 1, 2, 0, err, sizeof err));
    assert_non_null(strstr(err, "kingdom"));
    assert_null(pacifica_game.create(NULL, 0, 1, 3, 0, err, sizeof err));
    assert_non_null(strstr(err, "2 players"));
    /* A broken file through create(): file, line and field in one line. */
    char path[] = "/tmp/pacifica-cardsXXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    const char *body =
        "# one card only\nT01 Treasure green symbols=T\nT02 Treasure pink symbols=T\n";
    assert_int_equal(write(fd, body, strlen(body)), (ssize_t)strlen(body));
    close(fd);
    arena_setting f = {"cards", path};
    assert_null(pacifica_game.create(&f, 1, 1, 2, 0, err, sizeof err));
    unlink(path);
    char want[128];
    snprintf(want, sizeof want, "%s:3: field 'activation'", path);
    assert_non_null(strstr(err, want));
}

/* Every designed card has a name people read; copies of one design share
 * it; a card file may name its cards (name=) or leave them their ids. */
static void test_designed_cards_have_names(void **state)
{
    (void)state;
    pac_cardset set;
    char err[256] = "";
    assert_true(pac_parse_cards(pac_designed_cards, "designed", &set, err, sizeof err));
    int distinct = 0;
    for (int i = 0; i < PAC_NCARDS; i++) {
        const pac_card *c = &set.c[i];
        assert_true(strlen(c->name) >= 3);
        assert_string_not_equal(c->name, c->id);
        for (const char *q = c->name; *q; q++)
            assert_true(isalpha((unsigned char)*q));
        bool seen = false;
        for (int j = 0; j < i; j++) {
            pac_card a = *c, b = set.c[j];
            memset(a.id, 0, sizeof a.id), memset(b.id, 0, sizeof b.id);
            memset(a.name, 0, sizeof a.name), memset(b.name, 0, sizeof b.name);
            if (memcmp(&a, &b, sizeof a) == 0) assert_string_equal(c->name, set.c[j].name);
            seen |= strcmp(c->name, set.c[j].name) == 0;
        }
        distinct += !seen;
    }
    assert_true(distinct >= 50);

    char text[PAC_NCARDS * 48] = "", line[48];
    for (int i = 0; i < PAC_NCARDS; i++) {
        static const char *const cat[] = {"Treasure",  "Population", "Resources", "Architecture",
                                          "Knowledge", "Machines",   "Festival"};
        snprintf(line, sizeof line, "%c%02d %s green symbols=T%s\n", "TPRAKMF"[i / 16], i % 16,
                 cat[i / 16], i == 0 ? " name=Gold-Rush" : "");
        strcat(text, line);
    }
    assert_true(pac_parse_cards(text, "f", &set, err, sizeof err));
    assert_string_equal(set.c[0].name, "Gold-Rush");
    assert_string_equal(set.c[1].name, set.c[1].id);
    memcpy(strstr(text, "Gold-Rush"), "Gold!Rush", 9);
    assert_false(pac_parse_cards(text, "f", &set, err, sizeof err));
    assert_non_null(strstr(err, "f:1: field 'name'"));
}

/* The names reach what people read: events name the card they show. */
static void test_events_name_their_cards(void **state)
{
    (void)state;
    char err[256];
    arena_game *g = pacifica_game.create(NULL, 0, 11, 2, 0, err, sizeof err);
    assert_non_null(g);
    const pacifica *p = (const pacifica *)g;
    arena_decision d;
    int zero = 0, named = 0;
    for (int step = 0; step < 60 && game_decision(g, &d); step++)
        assert_true(game_apply(g, &zero, 1));
    for (size_t i = 0; i < pacifica_game.event_count(g); i++) {
        const av *e = pacifica_game.event(g, i, -1);
        const char *id = av_get_str(e, "card");
        if (!id) continue;
        for (int c = 0; c < PAC_NCARDS; c++)
            if (!strcmp(p->set.c[c].id, id)) {
                assert_string_equal(av_get_str(e, "name"), p->set.c[c].name);
                named++;
            }
    }
    assert_true(named > 5);
    pacifica_game.free(g);
}

int main(int argc, char **argv)
{
    example_path = argc > 1 ? argv[1] : "referee/games/pacifica/cards-example.txt";
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_designed_set_complete),
        cmocka_unit_test(test_card_line_round_trip),
        cmocka_unit_test(test_card_file_loads),
        cmocka_unit_test(test_card_file_errors_name_line_and_field),
        cmocka_unit_test(test_bad_settings_one_line),
        cmocka_unit_test(test_designed_cards_have_names),
        cmocka_unit_test(test_events_name_their_cards),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
