/* The frame writer of framewrite.h: msgpack items go straight out; JSON
 * keeps one flag per open level to place its commas. */
#include "framewrite.h"

#include <stdio.h>
#include <stdlib.h>

static inline void put_c(abuf *b, char c)
{
    *fw_room(b, 1) = (uint8_t)c;
    b->len++;
}

void fw_begin(frame_writer *w, codec_kind c, abuf *out)
{
    w->out = out;
    w->codec = c;
    w->depth = 0;
    w->after_key = false;
    w->more[0] = false;
    w->start = c == CODEC_JSON ? out->len : codec_frame_open(out);
}

/* JSON: the separator before a value (none right after its key). */
static void json_sep(frame_writer *w)
{
    if (w->after_key) {
        w->after_key = false;
        return;
    }
    if (w->more[w->depth]) put_c(w->out, ',');
    w->more[w->depth] = true;
}

static void open_level(frame_writer *w, bool is_map)
{
    if (w->depth >= FW_MAX_DEPTH) {
        /* Only the referee's own message builders use this: a bug. */
        fputs("arena: frame_writer nested too deep\n", stderr);
        abort();
    }
    json_sep(w);
    put_c(w->out, is_map ? '{' : '[');
    w->depth++;
    w->more[w->depth] = false;
    w->is_map[w->depth] = is_map;
}

void fw_map_any(frame_writer *w, size_t n_keys)
{
    if (w->codec == CODEC_JSON)
        open_level(w, true);
    else
        mpw_map(w->out, n_keys);
}

void fw_list_any(frame_writer *w, size_t n_items)
{
    if (w->codec == CODEC_JSON)
        open_level(w, false);
    else
        mpw_list(w->out, n_items);
}

void fw_end_json(frame_writer *w)
{
    put_c(w->out, w->is_map[w->depth] ? '}' : ']');
    w->depth--;
}

void fw_key_any(frame_writer *w, const char *k, size_t n)
{
    if (w->codec != CODEC_JSON) {
        mpw_str(w->out, k, n);
        return;
    }
    json_sep(w);
    jsonw_str(w->out, k, n);
    put_c(w->out, ':');
    w->after_key = true;
}

void fw_str_any(frame_writer *w, const char *s, size_t n)
{
    if (w->codec != CODEC_JSON) {
        mpw_str(w->out, s, n);
        return;
    }
    json_sep(w);
    jsonw_str(w->out, s, n);
}

void fw_int_any(frame_writer *w, int64_t v)
{
    if (w->codec != CODEC_JSON) {
        mpw_int(w->out, v);
        return;
    }
    json_sep(w);
    jsonw_int(w->out, v);
}

void fw_bool(frame_writer *w, bool v)
{
    if (w->codec != CODEC_JSON) {
        mpw_bool(w->out, v);
        return;
    }
    json_sep(w);
    abuf_adds(w->out, v ? "true" : "false");
}

void fw_nil(frame_writer *w)
{
    if (w->codec != CODEC_JSON) {
        mpw_nil(w->out);
        return;
    }
    json_sep(w);
    abuf_adds(w->out, "null");
}

size_t fw_value_at(frame_writer *w, const av *v)
{
    if (w->codec == CODEC_JSON) json_sep(w);
    size_t at = w->out->len;
    if (w->codec != CODEC_JSON)
        mpw_value(w->out, v);
    else
        av_json_append(v, w->out);
    return at;
}

void fw_value(frame_writer *w, const av *v)
{
    (void)fw_value_at(w, v);
}

void fw_raw(frame_writer *w, const uint8_t *p, size_t n)
{
    if (w->codec == CODEC_JSON) json_sep(w);
    abuf_add(w->out, p, n);
}

void fw_finish(frame_writer *w)
{
    if (w->codec == CODEC_JSON)
        abuf_addc(w->out, '\n');
    else
        codec_frame_close(w->out, w->start);
}
