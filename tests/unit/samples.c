#include "samples.h"

#include <string.h>

#include "util.h"

static char **strs(const char *a, const char *b)
{
    char **s = xcalloc(2, sizeof *s);
    s[0] = xstrdup(a);
    s[1] = xstrdup(b);
    return s;
}

static int64_t *ints(int64_t a, int64_t b)
{
    int64_t *v = xcalloc(2, sizeof *v);
    v[0] = a;
    v[1] = b;
    return v;
}

static av *sample_view(void)
{
    av *v = av_map();
    av_set(v, "hand", av_push(av_push(av_list(), av_str("Copper")), av_str("Estate")));
    av_set_int(v, "coins", 3);
    av_set(v, "ratio", av_float(0.25));
    av_set_bool(v, "attacked", false);
    av_set(v, "note", av_str("line1\nline2 \"quoted\" \xc3\xa9"));
    av_set(v, "none", av_nil());
    av_set_int(v, "neg", INT64_MIN);
    return v;
}

static av *sample_events(void)
{
    av *e = av_map();
    av_set_str(e, "type", "buy");
    av_set_int(e, "seat", 1);
    av_set_str(e, "card", "Silver");
    return av_push(av_list(), e);
}

void sample_msg(msg_type t, msg *m)
{
    memset(m, 0, sizeof *m);
    m->type = t;
    switch (t) {
    case MSG_HELLO: {
        msg_hello *h = &m->u.hello;
        h->protocol = PROTOCOL_VERSION;
        h->game = xstrdup("dominion");
        h->options = av_set(av_map(), "kingdom",
                            av_push(av_push(av_list(), av_str("Smithy")), av_str("Moat")));
        h->seat = 1;
        h->players = 2;
        h->names = strs("alpha", "beta");
        h->n_names = 2;
        h->match = xstrdup("m-0001");
        h->clock = (msg_clock){
            .move_ms = 1000, .bank_ms = 10000, .game_ms = -1, .startup_ms = 5000, .mode = "wall"};
        break;
    }
    case MSG_DECIDE: {
        msg_decide *d = &m->u.decide;
        d->id = 42;
        d->kind = xstrdup("buy");
        d->prompt = xstrdup("Buy a card");
        d->labels = strs("buy:Smithy", "pass");
        d->n_options = 2;
        d->pick = (msg_pick){.min = 1, .max = 1, .ordered = false};
        d->view = sample_view();
        d->events = sample_events();
        d->clock = (msg_clock){
            .move_ms = 1000, .bank_ms = 8750, .game_ms = 60000, .startup_ms = -1, .mode = ""};
        break;
    }
    case MSG_EVENT: m->u.event.events = sample_events(); break;
    case MSG_OVER: {
        msg_over *o = &m->u.over;
        o->ranks = ints(2, 1);
        o->scores = ints(-3, 41);
        o->n_seats = 2;
        o->reason = xstrdup("forfeit");
        o->forfeits = xcalloc(1, sizeof *o->forfeits);
        o->forfeits[0].seat = 0;
        strcpy(o->forfeits[0].cause, "timeout");
        o->n_forfeits = 1;
        o->view = sample_view();
        break;
    }
    case MSG_ERROR:
        m->u.error.id = 42;
        m->u.error.code = xstrdup("illegal");
        m->u.error.message = xstrdup("choice 7 out of range");
        m->u.error.strikes_left = 2;
        break;
    case MSG_JOIN:
        m->u.join.name = xstrdup("mybot");
        m->u.join.version = xstrdup("1.2");
        m->u.join.author = NULL;
        m->u.join.token = xstrdup("s3cret");
        break;
    case MSG_ACT:
        m->u.act.id = 42;
        m->u.act.choice = ints(0, 3);
        m->u.act.n_choice = 2;
        break;
    case MSG_LOG: m->u.log.text = xstrdup("thinking: \ttab and \x01 control"); break;
    case MSG_BYE:
    case MSG_READY:
    case MSG__COUNT: break;
    }
}

av *sample_map(msg_type t)
{
    msg m;
    sample_msg(t, &m);
    av *v = msg_encode(&m);
    msg_free(&m);
    return v;
}
