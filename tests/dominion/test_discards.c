/* Who sees which discarded cards. At the table a player who discards several
 * cards at once shows how many, and only the new top of the discard pile is
 * visible: the owner's `discard_many` event lists the cards, the others'
 * copy has the count and the top card. Cards revealed before they are
 * discarded stay public. */
#include "harness.h"

static size_t nev(void)
{
    return G->base.vt->event_count(&G->base);
}

static const av *ev_at(size_t i, int viewer)
{
    return G->base.vt->event(&G->base, i, viewer);
}

static int64_t ev_seat(const av *e)
{
    int64_t s = -1;
    av_get_int(e, "seat", &s);
    return s;
}

static bool ev_is(const av *e, const char *type)
{
    const char *t = av_get_str(e, "type");
    return t && strcmp(t, type) == 0;
}

/* Since event `since`, owner's discards reached every seat exactly once as
 * `discard_many`: the owner with the cards (comma list, in order), the
 * others with their count and the last of them on top, naming no other
 * card. No per-card `discard` of owner reached anyone. */
static void expect_hidden_discard(size_t since, int owner, const char *cards)
{
    const char *names[DOM_ZCAP];
    int n = 0;
    char tmp[600];
    snprintf(tmp, sizeof tmp, "%s", cards);
    for (char *t = strtok(tmp, ","); t; t = strtok(NULL, ","))
        names[n++] = t;
    for (int v = 0; v < G->np; v++) {
        int seen = 0;
        for (size_t i = since; i < nev(); i++) {
            const av *e = ev_at(i, v);
            if (!e || ev_seat(e) != owner) continue;
            if (ev_is(e, "discard")) fail_msg("seat %d sees a per-card discard of %d", v, owner);
            if (!ev_is(e, "discard_many")) continue;
            seen++;
            const av *cl = av_get(e, "cards");
            if (v == owner) {
                assert_non_null(cl);
                assert_int_equal(av_len(cl), n);
                for (int k = 0; k < n; k++)
                    assert_string_equal(cl->u.list.items[k]->u.str.s, names[k]);
            } else {
                int64_t count = -1;
                assert_null(cl);
                assert_true(av_get_int(e, "count", &count));
                assert_int_equal(count, n);
                assert_string_equal(av_get_str(e, "top"), names[n - 1]);
                assert_int_equal(e->u.map.len, 4); /* type, seat, count, top */
            }
        }
        assert_int_equal(seen, 1);
    }
    const dom_zone *d = &G->p[owner].z[Z_DISCARD];
    assert_string_equal(dom_cards[d->c[d->n - 1]].name, names[n - 1]);
}

static void test_rule_cellar_discard_shows_others_count_and_top(void **st)
{
    (void)st;
    mk(2, "Cellar");
    set(0, Z_HAND, "Cellar,Estate,Duchy,Copper");
    set(0, Z_DECK, "Silver,Silver,Gold,Gold,Gold,Gold,Gold");
    begin(0);
    pick("play:Cellar");
    size_t since = nev();
    pick("card:Estate,card:Duchy");
    expect_hidden_discard(since, 0, "Estate,Duchy");
}

static void test_rule_militia_discard_shows_others_count_and_top(void **st)
{
    (void)st;
    mk(3, "Militia");
    set(0, Z_HAND, "Militia");
    set(1, Z_HAND, "Copper,Copper,Estate,Silver,Gold");
    set(2, Z_HAND, "Copper,Copper,Copper");
    begin(0);
    size_t since = nev();
    pick("play:Militia");
    assert_int_equal(dseat(), 1);
    pick("card:Copper,card:Estate");
    expect_hidden_discard(since, 1, "Copper,Estate");
}

static void test_rule_warehouse_discard_shows_others_count_and_top(void **st)
{
    (void)st;
    mk(2, "Warehouse");
    set(0, Z_HAND, "Warehouse,Estate,Duchy,Province,Copper");
    set(0, Z_DECK, "Silver,Silver,Gold,Gold,Gold,Gold,Gold,Gold");
    begin(0);
    pick("play:Warehouse");
    size_t since = nev();
    pick("card:Estate,card:Duchy,card:Province");
    expect_hidden_discard(since, 0, "Estate,Duchy,Province");
}

static void test_rule_tactician_discard_shows_others_count_and_top(void **st)
{
    (void)st;
    mk(2, "Tactician");
    set(0, Z_HAND, "Tactician,Estate,Copper");
    begin(0);
    size_t since = nev();
    pick("play:Tactician");
    expect_hidden_discard(since, 0, "Estate,Copper");
}

/* Navigator's cards were only looked at: the others do not learn them. */
static void test_rule_navigator_discard_shows_others_count_and_top(void **st)
{
    (void)st;
    mk(2, "Navigator");
    set(0, Z_HAND, "Navigator");
    set(0, Z_DECK, "Gold,Estate,Silver,Duchy,Copper,Province");
    begin(0);
    pick("play:Navigator");
    size_t since = nev();
    pick("discard");
    expect_hidden_discard(since, 0, "Gold,Estate,Silver,Duchy,Copper");
}

/* The player orders the clean-up discard; the referee puts the hand under
 * the cards in play, so discard_top never shows an unplayed hand card. */
static void test_rule_cleanup_discards_hand_under_cards_in_play(void **st)
{
    (void)st;
    mk(2, "Village");
    set(0, Z_HAND, "Village,Estate,Duchy");
    set(0, Z_DECK, "Copper,Silver,Silver,Silver,Silver,Silver");
    begin(0);
    pick("play:Village");
    size_t since = nev();
    end_turn();
    expect_hidden_discard(since, 0, "Estate,Duchy,Village,Copper");
    av *v = game_view(&G->base, 1);
    const av *p0 = av_get(v, "players")->u.list.items[0];
    char *js = av_to_json(p0);
    fprintf(stderr, "%s %d\n", js, G->cur);
    free(js);
    assert_string_equal(av_get_str(p0, "discard_top"), "Copper");
    av_free(v);
}

/* Clean-up with nothing leaving play (Seaside rulebook, "Die Dauerkarten":
 * what was in play and the hand go to the discard pile, in the player's
 * order): no hand card the referee picked shows on top. The others see how
 * many, no top, and the pile lies face down in every seat's view. */
static void test_rule_cleanup_with_nothing_in_play_shows_no_hand_card(void **st)
{
    (void)st;
    mk(2, "Village");
    set(0, Z_HAND, "Estate,Village,Duchy");
    set(0, Z_DECK, "Copper,Copper,Copper,Copper,Copper");
    begin(0);
    size_t since = nev();
    end_turn(); /* the Village not played, nothing bought */
    int many = 0;
    for (size_t i = since; i < nev(); i++) {
        const av *e = ev_at(i, 1);
        if (!e || ev_seat(e) != 0 || !ev_is(e, "discard_many")) continue;
        int64_t count = -1;
        assert_true(av_get_int(e, "count", &count));
        assert_int_equal(count, 3);
        assert_null(av_get(e, "top"));
        many++;
    }
    assert_int_equal(many, 1);
    for (int seat = 0; seat < 2; seat++) {
        av *v = game_view(&G->base, seat);
        const av *p0 = av_get(v, "players")->u.list.items[0];
        assert_null(av_get_str(p0, "discard_top"));
        assert_int_equal(av_get(p0, "discard_size")->u.i, 3);
        av_free(v);
    }
}

/* Adventurer's revealed cards go to the discard pile in a public event. */
static void test_rule_revealed_discards_stay_public(void **st)
{
    (void)st;
    mk(2, "Adventurer");
    set(0, Z_HAND, "Adventurer");
    set(0, Z_DECK, "Estate,Copper,Duchy,Silver");
    begin(0);
    size_t since = nev();
    pick("play:Adventurer");
    int found = 0;
    for (size_t i = since; i < nev(); i++) {
        const av *e = ev_at(i, 1);
        if (!e || !ev_is(e, "discard")) continue;
        const av *cl = av_get(e, "cards");
        assert_non_null(cl);
        assert_int_equal(av_len(cl), 2);
        assert_string_equal(cl->u.list.items[0]->u.str.s, "Estate");
        assert_string_equal(cl->u.list.items[1]->u.str.s, "Duchy");
        found++;
    }
    assert_int_equal(found, 1);
}

/* The discard_top of `owner` in `viewer`'s view is `want` ("nil": none). */
static void expect_top(int viewer, int owner, const char *want)
{
    av *v = game_view(&G->base, viewer);
    const av *p = av_get(v, "players")->u.list.items[owner];
    const char *t = av_get_str(p, "discard_top");
    if (strcmp(want, "nil") == 0) {
        if (t) fail_msg("seat %d sees %s on top of %d's discard pile", viewer, t, owner);
    } else {
        assert_non_null(t);
        assert_string_equal(t, want);
    }
    av_free(v);
}

/* No event since `since` names `card` to `viewer`. */
static void expect_no_card_named(size_t since, int viewer, const char *card)
{
    for (size_t i = since; i < nev(); i++) {
        const av *e = ev_at(i, viewer);
        if (!e) continue;
        const char *c = av_get_str(e, "card"), *t = av_get_str(e, "top");
        if ((c && !strcmp(c, card)) || (t && !strcmp(t, card)))
            fail_msg("seat %d learns %s from a %s event", viewer, card, av_get_str(e, "type"));
    }
}

/* Chancellor puts the deck into the discard pile without anyone looking at
 * it: the visible top of the discard pile stays what it was, so no seat,
 * the owner included, learns the deck's former top card (Gold). */
static void test_rule_chancellor_deck_goes_in_unseen(void **st)
{
    (void)st;
    mk(2, "Chancellor");
    set(0, Z_HAND, "Chancellor");
    set(0, Z_DISCARD, "Estate");
    set(0, Z_DECK, "Gold,Copper,Copper");
    G->p[0].disc_seen[0] = SEEN_ALL;
    begin(0);
    size_t since = nev();
    pick("play:Chancellor");
    pick("discard-deck");
    assert_int_equal(zn(0, Z_DECK), 0);
    assert_int_equal(zn(0, Z_DISCARD), 4);
    assert_int_equal(n_in(0, Z_DISCARD, "Gold"), 1);
    for (int viewer = 1; viewer >= 0; viewer--) {
        expect_top(viewer, 0, "Estate");
        expect_no_card_named(since, viewer, "Gold");
    }
}

/* Onto an empty discard pile the deck goes face down: its top card is no
 * one's to see: discard_top is nil (the next card put onto it is public). */
static void test_rule_chancellor_deck_onto_empty_discard_shows_no_top(void **st)
{
    (void)st;
    chancellor_deck_face_down();
    assert_int_equal(zn(0, Z_DISCARD), 3);
    for (int viewer = 1; viewer >= 0; viewer--)
        expect_top(viewer, 0, "nil");
}

/* Discarding nothing (Cellar with no card chosen) puts no card onto the
 * face-down deck Chancellor left there: its top stays hidden from every
 * seat, the owner included. */
static void test_rule_cellar_discarding_nothing_keeps_chancellor_deck_face_down(void **st)
{
    (void)st;
    mk(2, "Chancellor,Cellar");
    set(0, Z_HAND, "Village,Chancellor,Cellar");
    set(0, Z_DECK, "Estate,Gold,Copper,Copper");
    begin(0);
    pick("play:Village");
    pick("play:Chancellor");
    pick("discard-deck");
    size_t since = nev();
    pick("play:Cellar");
    pick("");
    assert_string_equal(dom_cards[G->p[0].z[Z_DISCARD].c[2]].name, "Gold");
    for (int viewer = 1; viewer >= 0; viewer--) {
        expect_top(viewer, 0, "nil");
        expect_no_card_named(since, viewer, "Gold");
    }
}

#define T(f) cmocka_unit_test_teardown(f, teardown)
int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_rule_cellar_discard_shows_others_count_and_top),
        T(test_rule_militia_discard_shows_others_count_and_top),
        T(test_rule_warehouse_discard_shows_others_count_and_top),
        T(test_rule_tactician_discard_shows_others_count_and_top),
        T(test_rule_navigator_discard_shows_others_count_and_top),
        T(test_rule_cleanup_discards_hand_under_cards_in_play),
        T(test_rule_cleanup_with_nothing_in_play_shows_no_hand_card),
        T(test_rule_revealed_discards_stay_public),
        T(test_rule_chancellor_deck_goes_in_unseen),
        T(test_rule_chancellor_deck_onto_empty_discard_shows_no_top),
        T(test_rule_cellar_discarding_nothing_keeps_chancellor_deck_face_down),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
