/* The JSON reader of the json codec (protocol.md §1): strict RFC 8259 text
 * straight into a value tree, in one pass.
 *
 * It accepts and rejects what the jansson-based decoder it replaced did
 * (tests/unit/test_json_read.c checks that against jansson), but for one
 * jansson quirk: a raw NUL byte right after a number or literal, which
 * jansson skipped, is a syntax error here as in RFC 8259. So:
 *  - any value at the top level (the frame decoder wants a map), with JSON
 *    whitespace around it and nothing else;
 *  - integers beyond int64 become floats; a number beyond double's range is
 *    refused;
 *  - strings are UTF-8 (no overlong forms, surrogates or code points above
 *    U+10FFFF), without raw control characters; \u escapes must pair
 *    surrogates; \u0000 is allowed in string values but not in keys;
 *  - a repeated key keeps its first position and its last value;
 *  - at most PROTO_MAX_DEPTH nested containers and PROTO_MAX_VALUES values
 *    (keys included).
 * The same walk also skips a value without building it (json_skip_value,
 * for a bot that does not read the game state): the same checks, nothing
 * allocated (escapes are checked, not unescaped; a number's range is
 * decided from its digits, see number_overflows). */
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec.h"
#include "json_scan.h"
#include "map_fill.h"
#include "utf8.h"

typedef struct jreader {
    const uint8_t *s;
    size_t n, i;
    size_t values;
    bool build; /* false: check only; values read are &skipped */
    abuf tmp;   /* unescaped string or number text */
    char *err;
    size_t errlen;
} jreader;

static void jr_err(jreader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void jr_err(jreader *r, const char *fmt, ...)
{
    if (!r->err || !r->errlen) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->err, r->errlen, fmt, ap);
    va_end(ap);
}

/* A syntax error at byte `at` (reported as a 1-based column), quoting the
 * text there: an agent's stray debug print is then plain to see. */
static av *jr_bad(jreader *r, size_t at, const char *what)
{
    char near[24];
    size_t k = 0, j = at;
    for (; j < r->n && k < 20; j++)
        near[k++] = r->s[j] >= 0x20 && r->s[j] < 0x7f && r->s[j] != '\'' ? (char)r->s[j] : '?';
    near[k] = '\0';
    if (k)
        jr_err(r, "json: invalid JSON at column %zu: %s near '%s%s'", at + 1, what, near,
               j < r->n ? "..." : "");
    else
        jr_err(r, "json: invalid JSON at column %zu: %s", at + 1, what);
    return NULL;
}

/* What a value read without building it stands for (never freed). */
static av skipped;

static void skip_ws(jreader *r)
{
    /* Compact JSON has none: any byte above ' ' ends it at once. */
    while (r->i < r->n && r->s[r->i] <= ' ') {
        uint8_t c = r->s[r->i];
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return;
        r->i++;
    }
}

static int hex4(const uint8_t *p)
{
    int v = 0;
    for (int k = 0; k < 4; k++) {
        uint8_t c = p[k];
        int d = c >= '0' && c <= '9'   ? c - '0'
                : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                       : -1;
        if (d < 0) return -1;
        v = v * 16 + d;
    }
    return v;
}

static void put_utf8(abuf *b, uint32_t cp)
{
    uint8_t u[4];
    size_t k;
    if (cp < 0x80) {
        u[0] = (uint8_t)cp, k = 1;
    } else if (cp < 0x800) {
        u[0] = (uint8_t)(0xc0 | cp >> 6), u[1] = (uint8_t)(0x80 | (cp & 0x3f)), k = 2;
    } else if (cp < 0x10000) {
        u[0] = (uint8_t)(0xe0 | cp >> 12), u[1] = (uint8_t)(0x80 | (cp >> 6 & 0x3f));
        u[2] = (uint8_t)(0x80 | (cp & 0x3f)), k = 3;
    } else {
        u[0] = (uint8_t)(0xf0 | cp >> 18), u[1] = (uint8_t)(0x80 | (cp >> 12 & 0x3f));
        u[2] = (uint8_t)(0x80 | (cp >> 6 & 0x3f)), u[3] = (uint8_t)(0x80 | (cp & 0x3f)), k = 4;
    }
    abuf_add(b, u, k);
}

/* Reads the string whose opening quote is at r->i. On success *out and
 * *len give its bytes: a span of the input when it holds no escape, else
 * r->tmp (when not building: undefined). *nul tells whether it holds a NUL
 * (only an escape can make one). */
static bool read_string(jreader *r, const char **out, size_t *len, bool *nul)
{
    const uint8_t *s = r->s;
    size_t n = r->n, i = ++r->i, start = i;
    *nul = false;
    i = json_plain_end(s, i, n);        /* the common case: plain ASCII to the quote */
    bool escaped = false, copy = false; /* copy: escaped and building */
    r->tmp.len = 0;
    for (;;) {
        if (i >= n) {
            jr_bad(r, start - 1, "unterminated string");
            return false;
        }
        uint8_t c = s[i];
        if (c == '"') break;
        if (c < 0x20) {
            jr_bad(r, i, "control character in a string");
            return false;
        }
        if (c >= 0x80) {
            size_t k = utf8_seq(s + i, n - i);
            if (k == 0) {
                jr_bad(r, i, "invalid UTF-8 in a string");
                return false;
            }
            if (copy) abuf_add(&r->tmp, s + i, k);
            i += k;
            continue;
        }
        if (c != '\\') {
            if (copy) abuf_addc(&r->tmp, (char)c);
            i++;
            continue;
        }
        if (!escaped) { /* first escape: what came before is copied once */
            escaped = true;
            copy = r->build;
            if (copy) abuf_add(&r->tmp, s + start, i - start);
        }
        if (i + 1 >= n) {
            jr_bad(r, start - 1, "unterminated string");
            return false;
        }
        uint8_t e = s[i + 1];
        const char *simple = strchr("\"\\/bfnrt", e);
        if (e && simple) {
            static const char map[] = "\"\\/\b\f\n\r\t";
            if (copy) abuf_addc(&r->tmp, map[simple - "\"\\/bfnrt"]);
            i += 2;
            continue;
        }
        if (e != 'u') {
            jr_bad(r, i, "invalid escape in a string");
            return false;
        }
        int cp = i + 6 <= n ? hex4(s + i + 2) : -1;
        if (cp < 0) {
            jr_bad(r, i, "invalid \\u escape");
            return false;
        }
        i += 6;
        if (cp >= 0xdc00 && cp <= 0xdfff) {
            jr_bad(r, i - 6, "lone low surrogate");
            return false;
        }
        if (cp >= 0xd800 && cp <= 0xdbff) { /* must pair with a low surrogate */
            int lo = i + 6 <= n && s[i] == '\\' && s[i + 1] == 'u' ? hex4(s + i + 2) : -1;
            if (lo < 0xdc00 || lo > 0xdfff) {
                jr_bad(r, i - 6, "unpaired high surrogate");
                return false;
            }
            cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
            i += 6;
        }
        if (cp == 0) *nul = true;
        if (copy) put_utf8(&r->tmp, (uint32_t)cp);
    }
    r->i = i + 1;
    if (copy) {
        *out = (const char *)r->tmp.data;
        *len = r->tmp.len;
    } else {
        *out = (const char *)s + start;
        *len = i - start;
    }
    return true;
}

static bool is_digit(uint8_t c)
{
    return c >= '0' && c <= '9';
}

/* Whether strtod overflows (to +-HUGE_VAL, ERANGE) on the valid number
 * token s[0, n): whether its magnitude is at least 2^1024 - 2^970, half way
 * between DBL_MAX and 2^1024, from where rounding to nearest gives 2^1024
 * (a tie goes to the even side, 2^1024). Decided from the digits, with no
 * copy: the token is 0.D x 10^P (D its digits from the first nonzero one),
 * the bound 0.B x 10^309 with the 309 digits of B. */
static bool number_overflows(const uint8_t *s, size_t n)
{
    static const char bound[] =
        "17976931348623158079372897140530341507993413271003782693617377898044496829276475094664"
        "90179775872070963302864166928879109465555478519404026306574886715058206819089020007083"
        "83676273854845817711531764475730270069855571366959622842914819860834936475292719074168"
        "444365510704342711559699508093042880177904174497792";
    size_t i = s[0] == '-', int_end = i, digits_end, first = SIZE_MAX;
    while (int_end < n && is_digit(s[int_end]))
        int_end++;
    digits_end = int_end + (int_end < n && s[int_end] == '.');
    while (digits_end < n && is_digit(s[digits_end]))
        digits_end++;
    for (size_t k = i; k < digits_end && first == SIZE_MAX; k++)
        if (s[k] != '.' && s[k] != '0') first = k;
    if (first == SIZE_MAX) return false; /* zero */
    /* The exponent, saturated far beyond any that matters. */
    int64_t e = 0;
    if (digits_end < n) { /* 'e' or 'E' */
        size_t k = digits_end + 1;
        bool neg = s[k] == '-';
        k += s[k] == '-' || s[k] == '+';
        for (; k < n; k++)
            if (e < ((int64_t)1 << 50)) e = e * 10 + (s[k] - '0');
        if (neg) e = -e;
    }
    /* P: digits between the first nonzero one and the point, plus e. */
    int64_t p = first < int_end ? (int64_t)(int_end - first) : -(int64_t)(first - int_end - 1);
    p += e;
    if (p != 309) return p > 309;
    size_t k = first;
    for (size_t j = 0; j < sizeof bound - 1; j++) {
        if (k < digits_end && s[k] == '.') k++;
        char c = k < digits_end ? (char)s[k++] : '0';
        if (c != bound[j]) return c > bound[j];
    }
    return true; /* equal to the bound up to its end: at least the bound */
}

static av *read_number(jreader *r)
{
    const uint8_t *s = r->s;
    size_t n = r->n, start = r->i, i = start;
    bool neg = s[i] == '-';
    if (neg) i++;
    if (i >= n || !is_digit(s[i])) return jr_bad(r, start, "invalid number");
    size_t d = i;
    if (s[i] == '0') {
        i++;
        if (i < n && is_digit(s[i])) return jr_bad(r, start, "leading zero in a number");
    } else {
        while (i < n && is_digit(s[i]))
            i++;
    }
    size_t nd = i - d;
    bool integer = true;
    if (i < n && s[i] == '.') {
        i++;
        if (i >= n || !is_digit(s[i])) return jr_bad(r, start, "invalid number");
        while (i < n && is_digit(s[i]))
            i++;
        integer = false;
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-')) i++;
        if (i >= n || !is_digit(s[i])) return jr_bad(r, start, "invalid number");
        while (i < n && is_digit(s[i]))
            i++;
        integer = false;
    }
    r->i = i;
    if (integer) {
        const char *lim = neg ? "9223372036854775808" : "9223372036854775807";
        if (nd < 19 || (nd == 19 && memcmp(s + d, lim, 19) <= 0)) {
            uint64_t u = 0;
            for (size_t k = d; k < i; k++)
                u = u * 10 + (uint64_t)(s[k] - '0');
            /* -2^63 has no positive int64: negate in unsigned arithmetic */
            return r->build ? av_int(neg ? (int64_t)(0 - u) : (int64_t)u) : &skipped;
        }
        /* beyond int64: read as a float, like any number with a fraction */
    }
    if (!r->build)
        return number_overflows(s + start, i - start) ? jr_bad(r, start, "number out of range")
                                                      : &skipped;
    /* strtod needs a NUL-terminated copy (the input may go on with digits
     * past n). The token holds only digits, '-', '+', '.', 'e', 'E'; the
     * '.' becomes the locale's decimal point, which strtod reads (the C SDK
     * runs inside bots, and a bot may set a locale). */
    r->tmp.len = 0;
    const char *point = localeconv()->decimal_point;
    if (point[0] == '.' && point[1] == '\0') {
        abuf_add(&r->tmp, s + start, i - start);
    } else {
        for (size_t k = start; k < i; k++)
            if (s[k] == '.')
                abuf_adds(&r->tmp, point);
            else
                abuf_addc(&r->tmp, (char)s[k]);
    }
    errno = 0;
    double f = strtod((const char *)r->tmp.data, NULL);
    if ((f == HUGE_VAL || f == -HUGE_VAL) && errno == ERANGE)
        return jr_bad(r, start, "number out of range");
    return av_float(f);
}

static bool literal(jreader *r, const char *word, size_t len)
{
    if (r->n - r->i < len || memcmp(r->s + r->i, word, len) != 0) return false;
    r->i += len;
    return true;
}

static bool count_value(jreader *r)
{
    if (++r->values <= PROTO_MAX_VALUES) return true;
    jr_err(r, "json: more than %d values in one message", PROTO_MAX_VALUES);
    return false;
}

static av *read_value(jreader *r, int depth);

/* Frees a container being read (nothing when not building). */
static av *drop(jreader *r, av *c)
{
    if (r->build) av_free(c);
    return NULL;
}

static av *read_container_end(jreader *r, av *c, const char *what)
{
    drop(r, c);
    return jr_bad(r, r->i, what);
}

static av *read_list(jreader *r, int depth)
{
    av *l = r->build ? av_list() : &skipped;
    r->i++;
    skip_ws(r);
    if (r->i < r->n && r->s[r->i] == ']') {
        r->i++;
        return l;
    }
    for (;;) {
        av *x = read_value(r, depth + 1);
        if (!x) return drop(r, l);
        if (r->build) av_push(l, x);
        skip_ws(r);
        if (r->i >= r->n) return read_container_end(r, l, "unterminated list");
        uint8_t c = r->s[r->i++];
        if (c == ']') return l;
        if (c != ',') {
            r->i--;
            return read_container_end(r, l, "',' or ']' expected");
        }
    }
}

static av *read_map(jreader *r, int depth)
{
    av *m = r->build ? av_map() : &skipped;
    uint64_t seen = 0;
    r->i++;
    skip_ws(r);
    if (r->i < r->n && r->s[r->i] == '}') {
        r->i++;
        return m;
    }
    for (;;) {
        skip_ws(r);
        if (r->i >= r->n || r->s[r->i] != '"')
            return read_container_end(r, m, "string key expected");
        size_t at = r->i;
        const char *k;
        size_t klen;
        bool nul;
        if (!count_value(r) || !read_string(r, &k, &klen, &nul)) return drop(r, m);
        if (nul) {
            drop(r, m);
            return jr_bad(r, at, "NUL byte in a map key");
        }
        /* An escaped key was unescaped into tmp, which the value reuses: that
         * one is copied first. */
        char kbuf[64], *key = (char *)k;
        if (r->tmp.len && k == (const char *)r->tmp.data) {
            key = klen < sizeof kbuf ? kbuf : xmalloc(klen);
            memcpy(key, k, klen);
        }
        skip_ws(r);
        av *x = NULL;
        if (r->i >= r->n || r->s[r->i] != ':') {
            jr_bad(r, r->i, "':' expected");
        } else {
            r->i++;
            x = read_value(r, depth + 1);
        }
        if (x && r->build) map_fill(m, &seen, key, klen, x);
        if (key != k && key != kbuf) free(key);
        if (!x) return drop(r, m);
        skip_ws(r);
        if (r->i >= r->n) return read_container_end(r, m, "unterminated map");
        uint8_t c = r->s[r->i++];
        if (c == '}') return m;
        if (c != ',') {
            r->i--;
            return read_container_end(r, m, "',' or '}' expected");
        }
    }
}

static av *read_value(jreader *r, int depth)
{
    skip_ws(r);
    if (r->i >= r->n) return jr_bad(r, r->i, "unexpected end of input");
    if (!count_value(r)) return NULL;
    uint8_t c = r->s[r->i];
    switch (c) {
    case '{':
    case '[':
        if (depth >= PROTO_MAX_DEPTH) {
            jr_err(r, "json: nesting deeper than %d levels", PROTO_MAX_DEPTH);
            return NULL;
        }
        return c == '{' ? read_map(r, depth) : read_list(r, depth);
    case '"': {
        const char *p;
        size_t len;
        bool nul;
        if (!read_string(r, &p, &len, &nul)) return NULL;
        return r->build ? av_strn(p, len) : &skipped;
    }
    case 't':
        if (literal(r, "true", 4)) return r->build ? av_bool(true) : &skipped;
        break;
    case 'f':
        if (literal(r, "false", 5)) return r->build ? av_bool(false) : &skipped;
        break;
    case 'n':
        if (literal(r, "null", 4)) return r->build ? av_nil() : &skipped;
        break;
    default:
        if (c == '-' || is_digit(c)) return read_number(r);
        break;
    }
    return jr_bad(r, r->i, "invalid token");
}

av *json_decode(const char *text, size_t n, char *err, size_t errlen)
{
    jreader r = {.s = (const uint8_t *)text, .n = n, .build = true, .err = err, .errlen = errlen};
    av *v = read_value(&r, 0);
    if (v) {
        skip_ws(&r);
        if (r.i != n) {
            av_free(v);
            v = jr_bad(&r, r.i, "end of input expected");
        }
    }
    abuf_free(&r.tmp);
    return v;
}

av *json_read_value(const char *text, size_t n, size_t *off, size_t *values, int depth)
{
    jreader r = {.s = (const uint8_t *)text, .n = n, .i = *off, .values = *values, .build = true};
    av *v = read_value(&r, depth);
    abuf_free(&r.tmp);
    *off = r.i;
    *values = r.values;
    return v;
}

bool json_skip_value(const char *text, size_t n, size_t *off, size_t *values, int depth)
{
    jreader r = {.s = (const uint8_t *)text, .n = n, .i = *off, .values = *values};
    bool ok = read_value(&r, depth) != NULL; /* r.tmp stays empty */
    *off = r.i;
    *values = r.values;
    return ok;
}
