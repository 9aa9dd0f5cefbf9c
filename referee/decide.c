#include "decide.h"

#include <string.h>

#include "framewrite.h"

/* Prompts and labels are written by the game into a buffer of this size
 * (longer ones are cut, the same in both forms). */
#define TEXT_MAX 512

static void push_label(void *list, int i, const char *label)
{
    (void)i;
    av_push(list, av_set_str(av_map(), "label", label));
}

static void write_label(void *w, int i, const char *label)
{
    (void)i;
    fw_map(w, 1);
    FW_KEY(w, "label");
    fw_str(w, label, strlen(label));
    fw_end(w);
}

av *decide_tree(const arena_game_vt *vt, const arena_game *g, const arena_decision *d, uint64_t id,
                av *events, const decide_clock *c)
{
    char buf[TEXT_MAX];
    av *out = av_map();
    av_set_str(out, "type", "decide");
    av_set_int(out, "id", (int64_t)id);
    av_set_str(out, "kind", d->kind);
    vt->prompt(g, buf, sizeof buf);
    av_set_str(out, "prompt", buf);
    av *opts = av_list();
    arena_game_labels(vt, g, d->n_options, buf, sizeof buf, push_label, opts);
    av_set(out, "options", opts);
    av *pick = av_map();
    av_set_int(pick, "min", d->pick_min);
    av_set_int(pick, "max", d->pick_max);
    av_set_bool(pick, "ordered", d->pick_ordered);
    av_set(out, "pick", pick);
    av_set(out, "view", arena_view_tree(vt, g, d->seat));
    av_set(out, "events", events);
    av *clk = av_map();
    av_set_int(clk, "move_ms", c->move_ms);
    av_set_int(clk, "bank_ms", c->bank_ms);
    av_set(clk, "game_ms", c->game_ms < 0 ? av_nil() : av_int(c->game_ms));
    av_set(out, "clock", clk);
    return out;
}

void decide_write(codec_kind codec, abuf *out, const arena_game_vt *vt, const arena_game *g,
                  const arena_decision *d, uint64_t id, const decide_events *events,
                  const decide_clock *c)
{
    char buf[TEXT_MAX];
    frame_writer w;
    fw_begin(&w, codec, out);
    fw_map(&w, 9);
    FW_KEY(&w, "type");
    fw_str(&w, "decide", 6);
    FW_KEY(&w, "id");
    fw_int(&w, (int64_t)id);
    FW_KEY(&w, "kind");
    fw_str(&w, d->kind, strlen(d->kind));
    vt->prompt(g, buf, sizeof buf);
    FW_KEY(&w, "prompt");
    fw_str(&w, buf, strlen(buf));
    FW_KEY(&w, "options");
    fw_list(&w, (size_t)d->n_options);
    arena_game_labels(vt, g, d->n_options, buf, sizeof buf, write_label, &w);
    fw_end(&w);
    FW_KEY(&w, "pick");
    fw_map(&w, 3);
    FW_KEY(&w, "min");
    fw_int(&w, d->pick_min);
    FW_KEY(&w, "max");
    fw_int(&w, d->pick_max);
    FW_KEY(&w, "ordered");
    fw_bool(&w, d->pick_ordered);
    fw_end(&w);
    FW_KEY(&w, "view");
    vout o;
    vout_frame(&o, &w);
    vt->view(g, d->seat, &o);
    FW_KEY(&w, "events");
    fw_list(&w, events->n);
    for (size_t i = 0; i < events->n; i++) {
        if (events->cache)
            evcache_write(events->cache, &w, events->idx[i], events->ev[i]);
        else
            fw_value(&w, events->ev[i]);
    }
    fw_end(&w);
    FW_KEY(&w, "clock");
    fw_map(&w, 3);
    FW_KEY(&w, "move_ms");
    fw_int(&w, c->move_ms);
    FW_KEY(&w, "bank_ms");
    fw_int(&w, c->bank_ms);
    FW_KEY(&w, "game_ms");
    if (c->game_ms < 0)
        fw_nil(&w);
    else
        fw_int(&w, c->game_ms);
    fw_end(&w);
    fw_end(&w);
    fw_finish(&w);
}
