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
 * json_skip_value makes the same checks without building anything, for a
 * bot that does not read the game state: its own loop, escapes checked and
 * not unescaped, a number's range decided from its digits
 * (number_overflows). */
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
    size_t values, max_values; /* values read so far, and the cap */
    abuf tmp;                  /* unescaped string or number text */
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

/* JSON whitespace from s[i]: where it ends. */
static size_t past_ws(const uint8_t *s, size_t i, size_t n)
{
    /* Compact JSON has none: any byte above ' ' ends it at once. */
    while (i < n && s[i] <= ' ' && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'))
        i++;
    return i;
}

static void skip_ws(jreader *r)
{
    r->i = past_ws(r->s, r->i, r->n);
}

/* Each byte's value as a hex digit; 0x10 (a bit no digit has) if it is
 * none. A table, so \u escapes take no branch a digit: text of them is
 * what costs the loop most per byte (bench-decoder). */
/* clang-format off */
#define H16_(x) x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x
#define NO_ 0x10
#define LETTERS_ NO_, 10, 11, 12, 13, 14, 15, NO_, NO_, NO_, NO_, NO_, NO_, NO_, NO_, NO_
static const uint8_t hex_of[256] = {
    H16_(NO_), H16_(NO_), H16_(NO_),
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, NO_, NO_, NO_, NO_, NO_, NO_, /* 0x30: '0'..'9' */
    LETTERS_, H16_(NO_),                                        /* 0x40: 'A'..'F' */
    LETTERS_, H16_(NO_),                                        /* 0x60: 'a'..'f' */
    H16_(NO_), H16_(NO_), H16_(NO_), H16_(NO_), H16_(NO_), H16_(NO_), H16_(NO_), H16_(NO_)};
/* clang-format on */
#undef H16_
#undef NO_
#undef LETTERS_

/* The four hex digits at p as a number, -1 if one is not a hex digit. */
static int hex4(const uint8_t *p)
{
    unsigned a = hex_of[p[0]], b = hex_of[p[1]], c = hex_of[p[2]], d = hex_of[p[3]];
    if ((a | b | c | d) & 0x10) return -1;
    return (int)(a << 12 | b << 8 | c << 4 | d);
}

/* cp as UTF-8 at u; returns its length. */
static size_t put_utf8(uint8_t *u, uint32_t cp)
{
    if (cp < 0x80) {
        u[0] = (uint8_t)cp;
        return 1;
    }
    if (cp < 0x800) {
        u[0] = (uint8_t)(0xc0 | cp >> 6), u[1] = (uint8_t)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        u[0] = (uint8_t)(0xe0 | cp >> 12), u[1] = (uint8_t)(0x80 | (cp >> 6 & 0x3f));
        u[2] = (uint8_t)(0x80 | (cp & 0x3f));
        return 3;
    }
    u[0] = (uint8_t)(0xf0 | cp >> 18), u[1] = (uint8_t)(0x80 | (cp >> 12 & 0x3f));
    u[2] = (uint8_t)(0x80 | (cp >> 6 & 0x3f)), u[3] = (uint8_t)(0x80 | (cp & 0x3f));
    return 4;
}

/* The escape at s[i] (a '\\' with at least one byte after it): its length
 * (2, 6 or 12 bytes) and the code point it stands for; 0 and *why when it
 * is not a valid one. */
static inline size_t escape_at(const uint8_t *s, size_t i, size_t n, uint32_t *cp, const char **why)
{
    switch (s[i + 1]) {
    case '"':
    case '\\':
    case '/': *cp = s[i + 1]; return 2;
    case 'b': *cp = '\b'; return 2;
    case 'f': *cp = '\f'; return 2;
    case 'n': *cp = '\n'; return 2;
    case 'r': *cp = '\r'; return 2;
    case 't': *cp = '\t'; return 2;
    case 'u': break;
    default: *why = "invalid escape in a string"; return 0;
    }
    int hi = i + 6 <= n ? hex4(s + i + 2) : -1;
    if (hi < 0) {
        *why = "invalid \\u escape";
        return 0;
    }
    if (hi >= 0xdc00 && hi <= 0xdfff) {
        *why = "lone low surrogate";
        return 0;
    }
    *cp = (uint32_t)hi;
    if (hi < 0xd800 || hi > 0xdbff) return 6;
    /* a high surrogate must pair with a low one */
    int lo = i + 12 <= n && s[i + 6] == '\\' && s[i + 7] == 'u' ? hex4(s + i + 8) : -1;
    if (lo < 0xdc00 || lo > 0xdfff) {
        *why = "unpaired high surrogate";
        return 0;
    }
    *cp = 0x10000 + ((uint32_t)(hi - 0xd800) << 10) + (uint32_t)(lo - 0xdc00);
    return 12;
}

/* Reads the string whose opening quote is at r->i. On success *out and
 * *len give its bytes: a span of the input when it holds no escape, else
 * r->tmp. *nul tells whether it holds a NUL
 * (only an escape can make one). */
static bool read_string(jreader *r, const char **out, size_t *len, bool *nul)
{
    const uint8_t *s = r->s;
    size_t n = r->n, i = ++r->i, start = i;
    *nul = false;
    /* Once there is an escape, the text goes to r->tmp through o: room for
     * the rest of the input is made once, as unescaping only shortens. */
    uint8_t *o = NULL;
    r->tmp.len = 0;
    for (;;) {
        /* Text as it stands, up to a stop: plain ASCII (the common case,
         * to the quote), then any other UTF-8, checked in one go. */
        size_t from = i;
        i = json_plain_end(s, i, n);
        if (i < n && s[i] >= 0x80) {
            size_t end = json_text_end(s, i, n), ok = utf8_valid_prefix(s + i, end - i);
            if (ok < end - i) {
                jr_bad(r, i + ok, "invalid UTF-8 in a string");
                return false;
            }
            i = end;
        }
        if (o && i > from) memcpy(o, s + from, i - from), o += i - from;
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
        if (!o) { /* first escape: what came before is copied once */
            abuf_reserve(&r->tmp, n - start);
            o = r->tmp.data;
            memcpy(o, s + start, i - start), o += i - start;
        }
        do { /* escapes, as long as they follow one another */
            if (i + 1 >= n) {
                jr_bad(r, start - 1, "unterminated string");
                return false;
            }
            uint32_t cp;
            const char *why;
            size_t k = escape_at(s, i, n, &cp, &why);
            if (!k) {
                jr_bad(r, i, why);
                return false;
            }
            i += k;
            if (cp == 0) *nul = true;
            o += put_utf8(o, cp);
        } while (i < n && s[i] == '\\');
    }
    r->i = i + 1;
    if (o) {
        *o = 0; /* abuf's terminator: the reserve made room for it */
        r->tmp.len = (size_t)(o - r->tmp.data);
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

/* The number token at s[start]: its end (> start), whether it is an
 * integer (no fraction or exponent) and where its integer digits start;
 * 0 and *why when it is not a valid one. */
static size_t number_at(const uint8_t *s, size_t n, size_t start, bool *integer, size_t *digits,
                        const char **why)
{
    size_t i = start + (s[start] == '-');
    *why = "invalid number";
    if (i >= n || !is_digit(s[i])) return 0;
    *digits = i;
    if (s[i] == '0') {
        i++;
        if (i < n && is_digit(s[i])) {
            *why = "leading zero in a number";
            return 0;
        }
    } else {
        while (i < n && is_digit(s[i]))
            i++;
    }
    *integer = true;
    if (i < n && s[i] == '.') {
        i++;
        if (i >= n || !is_digit(s[i])) return 0;
        while (i < n && is_digit(s[i]))
            i++;
        *integer = false;
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-')) i++;
        if (i >= n || !is_digit(s[i])) return 0;
        while (i < n && is_digit(s[i]))
            i++;
        *integer = false;
    }
    return i;
}

static av *read_number(jreader *r)
{
    const uint8_t *s = r->s;
    size_t start = r->i, d;
    bool integer;
    const char *why;
    size_t i = number_at(s, r->n, start, &integer, &d, &why);
    if (!i) return jr_bad(r, start, why);
    r->i = i;
    if (integer && json_int_fits(s + d, i - d, s[start] == '-')) {
        uint64_t u = 0;
        for (size_t k = d; k < i; k++)
            u = u * 10 + (uint64_t)(s[k] - '0');
        /* -2^63 has no positive int64: negate in unsigned arithmetic */
        return av_int(s[start] == '-' ? (int64_t)(0 - u) : (int64_t)u);
    }
    /* beyond int64: read as a float, like any number with a fraction */
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
    if (++r->values <= r->max_values) return true;
    jr_err(r, "json: more than %zu values in one message", r->max_values);
    return false;
}

static av *read_value(jreader *r, int depth);

/* Frees a container being read; NULL, for the caller's failure. */
static av *drop(av *c)
{
    av_free(c);
    return NULL;
}

static av *read_container_end(jreader *r, av *c, const char *what)
{
    drop(c);
    return jr_bad(r, r->i, what);
}

static av *read_list(jreader *r, int depth)
{
    av *l = av_list();
    r->i++;
    skip_ws(r);
    if (r->i < r->n && r->s[r->i] == ']') {
        r->i++;
        return l;
    }
    for (;;) {
        av *x = read_value(r, depth + 1);
        if (!x) return drop(l);
        av_push(l, x);
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
    av *m = av_map();
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
        if (!count_value(r) || !read_string(r, &k, &klen, &nul)) return drop(m);
        if (nul) {
            drop(m);
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
        if (x) map_fill(m, &seen, key, klen, x);
        if (key != k && key != kbuf) free(key);
        if (!x) return drop(m);
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
        return av_strn(p, len);
    }
    case 't':
        if (literal(r, "true", 4)) return av_bool(true);
        break;
    case 'f':
        if (literal(r, "false", 5)) return av_bool(false);
        break;
    case 'n':
        if (literal(r, "null", 4)) return av_nil();
        break;
    default:
        if (c == '-' || is_digit(c)) return read_number(r);
        break;
    }
    return jr_bad(r, r->i, "invalid token");
}

av *json_decode(const char *text, size_t n, char *err, size_t errlen)
{
    return json_decode_max(text, n, PROTO_MAX_VALUES, NULL, err, errlen);
}

av *json_decode_max(const char *text, size_t n, size_t max_values, size_t *values, char *err,
                    size_t errlen)
{
    jreader r = {
        .s = (const uint8_t *)text, .n = n, .max_values = max_values, .err = err, .errlen = errlen};
    av *v = read_value(&r, 0);
    if (values) *values = r.values;
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
    jreader r = {.s = (const uint8_t *)text,
                 .n = n,
                 .i = *off,
                 .values = *values,
                 .max_values = PROTO_MAX_VALUES};
    av *v = read_value(&r, depth);
    abuf_free(&r.tmp);
    *off = r.i;
    *values = r.values;
    return v;
}

/* past_ws, called only on a byte that may be whitespace: the skipping walk
 * runs on every decision, and the SDK's size-optimised build keeps past_ws
 * out of line. */
#define PAST_WS(i) ((i) < n && s[(i)] <= ' ' ? past_ws(s, (i), n) : (i))

/* The string whose quote is at s[*i], checked as read_string checks it,
 * nothing copied; *i then is past its closing quote. A key (key) must not
 * hold a NUL. */
static bool skip_string(const uint8_t *s, size_t n, size_t *i, bool key)
{
    size_t j = *i + 1;
    for (;;) {
        j = json_plain_end(s, j, n);
        if (j < n && s[j] >= 0x80) { /* as read_string */
            size_t end = json_text_end(s, j, n);
            if (!utf8_valid(s + j, end - j)) return false;
            j = end;
        }
        if (j >= n || s[j] < 0x20) return false;
        if (s[j] == '"') break;
        uint32_t cp; /* s[j] is '\\' */
        const char *why;
        size_t k = j + 1 < n ? escape_at(s, j, n, &cp, &why) : 0;
        if (k == 0 || (key && cp == 0)) return false;
        j += k;
    }
    *i = j + 1;
    return true;
}

/* The number at s[*i], checked as read_number checks it; *i then is past
 * it. */
static inline bool skip_number(const uint8_t *s, size_t n, size_t *i)
{
    size_t start = *i, j = start;
    /* The common case: a positive integer of up to 18 digits (any fits). */
    if (s[j] >= '1' && s[j] <= '9') {
        while (++j < n && j - start < 18 && is_digit(s[j])) {
        }
        if (j < n && !is_digit(s[j]) && s[j] != '.' && (s[j] | 0x20) != 'e') {
            *i = j;
            return true;
        }
    }
    size_t d;
    bool integer;
    const char *why;
    j = number_at(s, n, start, &integer, &d, &why);
    if (!j || (!(integer && json_int_fits(s + d, j - d, s[start] == '-')) &&
               number_overflows(s + start, j - start)))
        return false;
    *i = j;
    return true;
}

/* The skipping walk: the checks of read_value, in a loop over an explicit
 * stack instead of recursion, with nothing built and no reason kept. A bot
 * that skips the game state runs this on every decision; the reader tests
 * hold it to the building walk. */
bool json_skip_value(const char *text, size_t n, size_t *off, size_t *values, int depth)
{
    const uint8_t *s = (const uint8_t *)text;
    bool is_map[PROTO_MAX_DEPTH]; /* the containers open, innermost last */
    int open = 0;
    size_t i = *off, v = *values;
    for (;;) {
        /* A value, at level depth + open. */
        i = PAST_WS(i);
        if (i >= n || ++v > PROTO_MAX_VALUES) return false;
        uint8_t c = s[i];
        if (c == '{' || c == '[') {
            if (depth + open >= PROTO_MAX_DEPTH) return false;
            i = PAST_WS(i + 1);
            if (i < n && s[i] == (c == '{' ? '}' : ']')) {
                i++; /* empty */
            } else {
                is_map[open++] = c == '{';
                if (c == '[') continue; /* its first item */
                goto key;
            }
        } else if (c == '"') {
            if (!skip_string(s, n, &i, false)) return false;
        } else if (c == 't' || c == 'f' || c == 'n') {
            const char *word = c == 't' ? "true" : c == 'f' ? "false" : "null";
            size_t len = c == 'f' ? 5 : 4;
            if (n - i < len || memcmp(s + i, word, len) != 0) return false;
            i += len;
        } else if (c == '-' || is_digit(c)) {
            if (!skip_number(s, n, &i)) return false;
        } else {
            return false;
        }
        /* After a value: close what ends here, up to the next item. */
        for (;;) {
            if (open == 0) {
                *off = i;
                *values = v;
                return true;
            }
            i = PAST_WS(i);
            if (i >= n) return false;
            uint8_t d = s[i++];
            if (d == ',') break;
            if (d != (is_map[open - 1] ? '}' : ']')) return false;
            open--;
        }
        if (!is_map[open - 1]) continue;
    key: /* a map's next key and its ':' */
        i = PAST_WS(i);
        if (i >= n || s[i] != '"' || ++v > PROTO_MAX_VALUES || !skip_string(s, n, &i, true))
            return false;
        i = PAST_WS(i);
        if (i >= n || s[i] != ':') return false;
        i++;
    }
}
