/* The JSON decoder the codec used before protocol/json_read.c: jansson, a
 * tree conversion and two pre-passes. Kept verbatim as the oracle of the
 * differential test (test_json_read.c); nothing else links it. */
#include "json_oracle.h"

#include <ctype.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "codec.h"
#include "util.h"

static void seterr(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void seterr(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || !errlen) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

/* jansson rejects integers beyond int64; the protocol wants them as floats.
 * Rewrites such integer tokens (outside strings) with an "e0" suffix, which
 * makes jansson read them as reals. Returns false when nothing needs it. */
static bool json_widen_bigints(const char *s, size_t n, abuf *out)
{
    bool changed = false;
    size_t copied = 0, i = 0;
    while (i < n) {
        char ch = s[i];
        if (ch == '"') {
            for (i++; i < n && s[i] != '"'; i++)
                if (s[i] == '\\') i++;
            i++;
            continue;
        }
        if (ch != '-' && !isdigit((unsigned char)ch)) {
            i++;
            continue;
        }
        bool neg = ch == '-';
        size_t d = i + (neg ? 1 : 0), j = d;
        while (j < n && isdigit((unsigned char)s[j]))
            j++;
        if (j < n && (s[j] == '.' || s[j] == 'e' || s[j] == 'E')) {
            while (j < n && (isdigit((unsigned char)s[j]) || strchr("+-.eE", s[j])))
                j++;
            i = j;
            continue;
        }
        size_t nd = j - d;
        const char *lim = neg ? "9223372036854775808" : "9223372036854775807";
        bool big = nd > 19 || (nd == 19 && memcmp(s + d, lim, 19) > 0);
        if (big) {
            abuf_add(out, s + copied, j - copied);
            abuf_adds(out, "e0");
            copied = j;
            changed = true;
        }
        i = j > i ? j : i + 1;
    }
    if (changed) abuf_add(out, s + copied, n - copied);
    return changed;
}

static av *json_to_av(json_t *j, int depth, char *err, size_t errlen)
{
    switch (json_typeof(j)) {
    case JSON_NULL: return av_nil();
    case JSON_TRUE: return av_bool(true);
    case JSON_FALSE: return av_bool(false);
    case JSON_INTEGER: return av_int((int64_t)json_integer_value(j));
    case JSON_REAL: return av_float(json_real_value(j));
    case JSON_STRING: return av_strn(json_string_value(j), json_string_length(j));
    case JSON_ARRAY:
    case JSON_OBJECT: break;
    }
    if (depth >= PROTO_MAX_DEPTH) {
        seterr(err, errlen, "json: nesting deeper than %d levels", PROTO_MAX_DEPTH);
        return NULL;
    }
    if (json_is_array(j)) {
        av *l = av_list();
        size_t i;
        json_t *e;
        json_array_foreach(j, i, e)
        {
            av *x = json_to_av(e, depth + 1, err, errlen);
            if (!x) {
                av_free(l);
                return NULL;
            }
            av_push(l, x);
        }
        return l;
    }
    av *m = av_map();
    const char *k;
    json_t *e;
    json_object_foreach(j, k, e)
    {
        av *x = json_to_av(e, depth + 1, err, errlen);
        if (!x) {
            av_free(m);
            return NULL;
        }
        av_set(m, k, x);
    }
    return m;
}

/* Values and keys in a JSON text, counted from its punctuation outside
 * strings (every one but the first follows a ',', ':', '[' or '{'), so an
 * oversized message is refused before jansson builds anything. */
static size_t json_count_values(const char *t, size_t n)
{
    size_t count = 1;
    bool in_str = false;
    for (size_t i = 0; i < n; i++) {
        char ch = t[i];
        if (in_str) {
            if (ch == '\\')
                i++;
            else if (ch == '"')
                in_str = false;
        } else if (ch == '"') {
            in_str = true;
        } else if (ch == ',' || ch == ':') {
            count++;
        } else if (ch == '[' || ch == '{') { /* an element follows, unless it is empty */
            size_t j = i + 1;
            while (j < n && (t[j] == ' ' || t[j] == '\t' || t[j] == '\r' || t[j] == '\n'))
                j++;
            count += j < n && t[j] != ']' && t[j] != '}';
        }
    }
    return count;
}

av *json_oracle_decode(const char *text, size_t n, char *err, size_t errlen)
{
    if (json_count_values(text, n) > PROTO_MAX_VALUES) {
        seterr(err, errlen, "json: more than %d values in one message", PROTO_MAX_VALUES);
        return NULL;
    }
    abuf wide = {0};
    if (json_widen_bigints(text, n, &wide)) {
        text = (const char *)wide.data;
        n = wide.len;
    }
    json_error_t je;
    json_t *j = json_loadb(text, n, JSON_DECODE_ANY | JSON_ALLOW_NUL, &je);
    abuf_free(&wide);
    if (!j) {
        seterr(err, errlen, "json: invalid JSON at column %d: %s", je.column, je.text);
        return NULL;
    }
    av *v = json_to_av(j, 0, err, errlen);
    json_decref(j);
    return v;
}
