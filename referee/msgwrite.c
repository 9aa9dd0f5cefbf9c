#include "msgwrite.h"

#include <string.h>

#include "framewrite.h"

/* msg_encode's NULL defaults, here as there. */
static void put_str(frame_writer *w, const char *s, const char *dflt)
{
    if (!s) s = dflt;
    fw_str(w, s, strlen(s));
}

/* A subtree, or the empty map / list msg_encode puts for NULL. */
static void put_tree(frame_writer *w, const av *v, bool map)
{
    if (v) {
        fw_value(w, v);
        return;
    }
    if (map)
        fw_map(w, 0);
    else
        fw_list(w, 0);
    fw_end(w);
}

static void put_clock(frame_writer *w, const msg_clock *c)
{
    fw_map(w, 3 + (c->startup_ms >= 0) + (c->mode[0] != 0));
    FW_KEY(w, "move_ms");
    fw_int(w, c->move_ms);
    FW_KEY(w, "bank_ms");
    fw_int(w, c->bank_ms);
    FW_KEY(w, "game_ms");
    if (c->game_ms < 0)
        fw_nil(w);
    else
        fw_int(w, c->game_ms);
    if (c->startup_ms >= 0) {
        FW_KEY(w, "startup_ms");
        fw_int(w, c->startup_ms);
    }
    if (c->mode[0]) {
        FW_KEY(w, "mode");
        fw_str(w, c->mode, strnlen(c->mode, sizeof c->mode));
    }
    fw_end(w);
}

static void put_ints(frame_writer *w, const int64_t *v, size_t n)
{
    fw_list(w, n);
    for (size_t i = 0; i < n; i++)
        fw_int(w, v[i]);
    fw_end(w);
}

static void put_hello(frame_writer *w, const msg_hello *h)
{
    fw_map(w, 9);
    FW_KEY(w, "type");
    fw_str(w, "hello", 5);
    FW_KEY(w, "protocol");
    fw_int(w, h->protocol);
    FW_KEY(w, "game");
    put_str(w, h->game, "");
    FW_KEY(w, "options");
    put_tree(w, h->options, true);
    FW_KEY(w, "seat");
    fw_int(w, h->seat);
    FW_KEY(w, "players");
    fw_int(w, h->players);
    FW_KEY(w, "names");
    fw_list(w, h->n_names);
    for (size_t i = 0; i < h->n_names; i++)
        put_str(w, h->names[i], "");
    fw_end(w);
    FW_KEY(w, "match");
    put_str(w, h->match, "");
    FW_KEY(w, "clock");
    put_clock(w, &h->clock);
    fw_end(w);
}

/* view: NULL to write r->view. */
static void put_over(frame_writer *w, const msg_over *r, msg_view_fn view, void *ctx)
{
    fw_map(w, 3);
    FW_KEY(w, "type");
    fw_str(w, "over", 4);
    FW_KEY(w, "result");
    fw_map(w, 4);
    FW_KEY(w, "ranks");
    put_ints(w, r->ranks, r->n_seats);
    FW_KEY(w, "scores");
    put_ints(w, r->scores, r->n_seats);
    FW_KEY(w, "reason");
    put_str(w, r->reason, "normal");
    FW_KEY(w, "forfeits");
    fw_list(w, r->n_forfeits);
    for (size_t i = 0; i < r->n_forfeits; i++) {
        fw_map(w, 2);
        FW_KEY(w, "seat");
        fw_int(w, r->forfeits[i].seat);
        FW_KEY(w, "cause");
        fw_str(w, r->forfeits[i].cause, strnlen(r->forfeits[i].cause, sizeof r->forfeits[i].cause));
        fw_end(w);
    }
    fw_end(w);
    fw_end(w);
    FW_KEY(w, "view");
    if (view) {
        vout o;
        vout_frame(&o, w);
        view(&o, ctx);
    } else {
        put_tree(w, r->view, true);
    }
    fw_end(w);
}

static void put_error(frame_writer *w, const msg_error *e)
{
    fw_map(w, 5);
    FW_KEY(w, "type");
    fw_str(w, "error", 5);
    FW_KEY(w, "id");
    fw_int(w, (int64_t)e->id);
    FW_KEY(w, "code");
    put_str(w, e->code, "protocol");
    FW_KEY(w, "message");
    put_str(w, e->message, "");
    FW_KEY(w, "strikes_left");
    fw_int(w, e->strikes_left);
    fw_end(w);
}

void msg_write(codec_kind codec, abuf *out, const msg *m)
{
    frame_writer w;
    switch (m->type) {
    case MSG_HELLO:
    case MSG_OVER:
    case MSG_ERROR:
    case MSG_EVENT:
    case MSG_BYE: break;
    default: { /* not the referee's to send often: through the tree */
        av *v = msg_encode(m);
        codec_encode(codec, v, out);
        av_free(v);
        return;
    }
    }
    fw_begin(&w, codec, out);
    switch (m->type) {
    case MSG_HELLO: put_hello(&w, &m->u.hello); break;
    case MSG_OVER: put_over(&w, &m->u.over, NULL, NULL); break;
    case MSG_ERROR: put_error(&w, &m->u.error); break;
    case MSG_EVENT:
        fw_map(&w, 2);
        FW_KEY(&w, "type");
        fw_str(&w, "event", 5);
        FW_KEY(&w, "events");
        put_tree(&w, m->u.event.events, false);
        fw_end(&w);
        break;
    default: /* bye */
        fw_map(&w, 1);
        FW_KEY(&w, "type");
        fw_str(&w, "bye", 3);
        fw_end(&w);
        break;
    }
    fw_finish(&w);
}

void msg_write_over(codec_kind codec, abuf *out, const msg_over *r, msg_view_fn view, void *ctx)
{
    frame_writer w;
    fw_begin(&w, codec, out);
    put_over(&w, r, view, ctx);
    fw_finish(&w);
}
