/* Card-file parser and validator: one card per line,
 *   ID CATEGORY ACTIVATION symbols=LETTERS [need=LETTERS] [discard=LETTERS]
 *   [effect=NAME[:ARG]] [name=NAME]
 * '#' starts a comment. Errors name file, line and field so that someone
 * typing in the printed cards finds the mistake at once. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "codec.h"
#include "pacifica.h"
#include "util.h"

const char *const pac_cat_names[PC_NCAT] = {"Treasure",  "Population", "Resources", "Architecture",
                                            "Knowledge", "Machines",   "Festival"};
const char pac_sym_letters[PR_NREQ + 1] = "TPSBAKMFR";
const char *const pac_effect_names[] = {
    "none", "search",         "machine-top", "fill-hand",  "copy",          "draw",
    "temp", "swap-resources", "hand-limit",  "start-draw", "festival-bonus"};
static const char *const act_names[] = {"green", "grey", "red"};
#define ID_SLOTS 251

static bool fail(char *err, size_t errlen, const char *fname, int line, const char *field,
                 const char *fmt, ...) __attribute__((format(printf, 6, 7)));

static bool fail(char *err, size_t errlen, const char *fname, int line, const char *field,
                 const char *fmt, ...)
{
    char why[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    if (line > 0)
        snprintf(err, errlen, "%s:%d: field '%s': %s", fname, line, field, why);
    else
        snprintf(err, errlen, "%s: %s", fname, why);
    return false;
}

static int find_cat(const char *s)
{
    for (int c = 0; c < PC_NCAT; c++)
        if (strcasecmp(s, pac_cat_names[c]) == 0) return c;
    return -1;
}

/* Letters into counts; allow_r admits R (stone or brass). Returns the bad
 * character or 0. */
static char parse_letters(const char *s, bool allow_r, uint8_t *counts, uint8_t *order,
                          int *n_order, int max_order)
{
    for (; *s; s++) {
        const char *p = strchr(pac_sym_letters, toupper((unsigned char)*s));
        int k = p ? (int)(p - pac_sym_letters) : -1;
        if (k < 0 || (k == PR_R && !allow_r)) return *s;
        if (counts) {
            if (counts[k] >= 9) return *s;
            counts[k]++;
        }
        if (order) {
            if (*n_order >= max_order) return *s;
            order[(*n_order)++] = (uint8_t)k;
        }
    }
    return 0;
}

static bool parse_effect(const char *v, pac_card *c, char *why, size_t wl)
{
    char name[32];
    const char *colon = strchr(v, ':');
    size_t nl = colon ? (size_t)(colon - v) : strlen(v);
    if (nl >= sizeof name) nl = sizeof name - 1;
    memcpy(name, v, nl);
    name[nl] = '\0';
    const char *arg = colon ? colon + 1 : NULL;
    int e = -1;
    for (int i = 1; i <= PE_FESTIVAL_BONUS; i++)
        if (strcmp(name, pac_effect_names[i]) == 0) e = i;
    if (e < 0) {
        snprintf(why, wl, "unknown effect '%s'", name);
        return false;
    }
    bool festival = e <= PE_TEMP;
    if (festival && c->cat != PC_FESTIVAL) {
        snprintf(why, wl, "one-time effect '%s' belongs on a Festival card", name);
        return false;
    }
    if (!festival && c->cat != PC_MACHINES) {
        snprintf(why, wl, "permanent effect '%s' belongs on a Machines card", name);
        return false;
    }
    bool wants_arg = e == PE_DRAW || e == PE_TEMP || e == PE_HAND_LIMIT || e == PE_START_DRAW;
    if (wants_arg != (arg != NULL) || (arg && !*arg)) {
        snprintf(why, wl, "effect '%s' %s", name,
                 wants_arg ? "needs an argument after ':'" : "takes no argument");
        return false;
    }
    c->effect = (uint8_t)e;
    if (e == PE_DRAW || e == PE_HAND_LIMIT) {
        char *end;
        long n = strtol(arg, &end, 10);
        long lo = e == PE_DRAW ? 1 : 3, hi = e == PE_DRAW ? 5 : PAC_HAND_CAP - 1;
        if (*end || n < lo || n > hi) {
            snprintf(why, wl, "'%s' needs a number from %ld to %ld", name, lo, hi);
            return false;
        }
        c->arg = (uint8_t)n;
    } else if (e == PE_START_DRAW) {
        int cat = find_cat(arg);
        if (cat < 0) {
            snprintf(why, wl, "unknown category '%s'", arg);
            return false;
        }
        c->arg = (uint8_t)cat;
    } else if (e == PE_TEMP) {
        char bad = parse_letters(arg, false, c->temp, NULL, NULL, 0);
        if (bad) {
            snprintf(why, wl, "bad symbol letter '%c' (use TPSBAKMF)", bad);
            return false;
        }
    }
    return true;
}

static bool parse_line(char *line, const char *fname, int ln, pac_card *c, char *err, size_t errlen)
{
    static const char *const pos_names[] = {"id", "category", "activation"};
    char *tok[16];
    int nt = 0;
    for (char *s = strtok(line, " \t\r"); s; s = strtok(NULL, " \t\r")) {
        if (nt == 16) return fail(err, errlen, fname, ln, "line", "too many fields");
        tok[nt++] = s;
    }
    if (nt < 4) return fail(err, errlen, fname, ln, nt < 3 ? pos_names[nt] : "symbols", "missing");
    memset(c, 0, sizeof *c);
    size_t idl = strlen(tok[0]);
    if (idl >= PAC_ID_LEN) return fail(err, errlen, fname, ln, "id", "longer than 15 characters");
    for (size_t i = 0; i < idl; i++)
        if (!isalnum((unsigned char)tok[0][i]) && tok[0][i] != '-' && tok[0][i] != '_')
            return fail(err, errlen, fname, ln, "id", "only letters, digits, '-' and '_'");
    memcpy(c->id, tok[0], idl + 1);
    int cat = find_cat(tok[1]);
    if (cat < 0)
        return fail(err, errlen, fname, ln, "category",
                    "'%s' is not one of Treasure Population Resources Architecture Knowledge "
                    "Machines Festival",
                    tok[1]);
    c->cat = (uint8_t)cat;
    int act = -1;
    for (int a = 0; a < 3; a++)
        if (strcasecmp(tok[2], act_names[a]) == 0) act = a;
    if (act < 0)
        return fail(err, errlen, fname, ln, "activation", "'%s' is not green, grey or red", tok[2]);
    c->act = (uint8_t)act;
    bool seen[5] = {0};
    static const char *const keys[] = {"symbols", "need", "discard", "effect", "name"};
    for (int i = 3; i < nt; i++) {
        char *eq = strchr(tok[i], '=');
        if (!eq) return fail(err, errlen, fname, ln, tok[i], "expected key=value");
        *eq = '\0';
        const char *v = eq + 1;
        int k = -1;
        for (int j = 0; j < 5; j++)
            if (strcmp(tok[i], keys[j]) == 0) k = j;
        if (k < 0)
            return fail(err, errlen, fname, ln, tok[i],
                        "unknown field (known: symbols need discard effect name)");
        if (seen[k]) return fail(err, errlen, fname, ln, keys[k], "given twice");
        seen[k] = true;
        if (!*v) return fail(err, errlen, fname, ln, keys[k], "empty value");
        char bad = 0, why[120];
        int n_slots = 0;
        switch (k) {
        case 0: bad = parse_letters(v, false, c->sym, NULL, NULL, 0); break;
        case 1: bad = parse_letters(v, true, c->need, NULL, NULL, 0); break;
        case 2:
            bad = parse_letters(v, true, NULL, c->slots, &n_slots, PAC_MAX_SLOTS);
            c->n_slots = (uint8_t)n_slots;
            if (bad && n_slots == PAC_MAX_SLOTS)
                return fail(err, errlen, fname, ln, "discard", "at most %d letters", PAC_MAX_SLOTS);
            break;
        case 3:
            if (!parse_effect(v, c, why, sizeof why))
                return fail(err, errlen, fname, ln, "effect", "%s", why);
            break;
        default:
            if (strlen(v) >= PAC_NAME_LEN)
                return fail(err, errlen, fname, ln, "name", "longer than %d characters",
                            PAC_NAME_LEN - 1);
            for (const char *q = v; *q; q++)
                if (!isalnum((unsigned char)*q) && *q != '-' && *q != '_')
                    return fail(err, errlen, fname, ln, "name",
                                "only letters, digits, '-' and '_'");
            memcpy(c->name, v, strlen(v) + 1);
        }
        if (bad)
            return fail(err, errlen, fname, ln, keys[k], "bad letter '%c' (use TPSBAKMF%s)", bad,
                        k == 0 ? "" : ", R = stone or brass");
    }
    if (!seen[0]) return fail(err, errlen, fname, ln, "symbols", "missing");
    if (!seen[4]) { /* the id, cut to fit */
        size_t n = strlen(c->id) < PAC_NAME_LEN ? strlen(c->id) : PAC_NAME_LEN - 1;
        memcpy(c->name, c->id, n);
        c->name[n] = '\0';
    }
    if (act == PA_GREEN && (seen[1] || seen[2]))
        return fail(err, errlen, fname, ln, seen[1] ? "need" : "discard",
                    "a green card is active when played and has no cost");
    if (act == PA_GREY && !seen[1])
        return fail(err, errlen, fname, ln, "need", "a grey card needs a condition");
    if (act == PA_GREY && seen[2])
        return fail(err, errlen, fname, ln, "discard", "a grey card discards nothing (use red)");
    if (act == PA_RED && !seen[2])
        return fail(err, errlen, fname, ln, "discard", "a red card needs discard=");
    if (act == PA_RED && seen[1])
        return fail(err, errlen, fname, ln, "need", "a red card's condition is its discard=");
    return true;
}

bool pac_parse_cards(const char *text, const char *fname, pac_cardset *out, char *err,
                     size_t errlen)
{
    memset(out, 0, sizeof *out);
    int n = 0, per_cat[PC_NCAT] = {0};
    uint8_t ids[ID_SLOTS] = {0}; /* card index + 1 */
    int ln = 0;
    const char *p = text;
    while (*p) {
        ln++;
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        char *line = xmalloc(len + 1);
        memcpy(line, p, len);
        line[len] = '\0';
        p += len + (nl ? 1 : 0);
        char *hash = strchr(line, '#');
        if (hash) *hash = '\0';
        char *s = line;
        while (*s == ' ' || *s == '\t' || *s == '\r')
            s++;
        if (!*s) {
            free(line);
            continue;
        }
        if (n == PAC_NCARDS) {
            free(line);
            return fail(err, errlen, fname, ln, "line", "more than %d cards", PAC_NCARDS);
        }
        pac_card *c = &out->c[n];
        bool ok = parse_line(s, fname, ln, c, err, errlen);
        free(line);
        if (!ok) return false;
        /* Open-addressing set of ids: games parse the set at every create. */
        unsigned h = 5381;
        for (const char *q = c->id; *q; q++)
            h = h * 33 + (unsigned char)*q;
        for (h %= ID_SLOTS; ids[h]; h = (h + 1) % ID_SLOTS)
            if (strcmp(out->c[ids[h] - 1].id, c->id) == 0)
                return fail(err, errlen, fname, ln, "id", "'%s' already used", c->id);
        ids[h] = (uint8_t)(n + 1);
        if (++per_cat[c->cat] > PAC_PER_CAT)
            return fail(err, errlen, fname, ln, "category", "more than %d %s cards", PAC_PER_CAT,
                        pac_cat_names[c->cat]);
        n++;
    }
    for (int c = 0; c < PC_NCAT; c++)
        if (per_cat[c] != PAC_PER_CAT)
            return fail(err, errlen, fname, 0, "", "%d %s cards, need exactly %d", per_cat[c],
                        pac_cat_names[c], PAC_PER_CAT);
    const char *base = strrchr(fname, '/');
    snprintf(out->name, sizeof out->name, "%s", base ? base + 1 : fname);
    return true;
}

bool pac_load_cards(const char *path, pac_cardset *out, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: cannot open card file: %s", path, strerror(errno));
        return false;
    }
    char *buf = NULL;
    size_t len = 0, cap = 0, r;
    do {
        if (cap - len < 4096) buf = xrealloc(buf, cap = cap * 2 + 4096);
        r = fread(buf + len, 1, cap - len - 1, f);
        len += r;
    } while (r > 0 && len < (1u << 20));
    fclose(f);
    buf[len] = '\0';
    bool ok;
    if (len >= (1u << 20)) { /* a card file is a few KB: this is not one */
        snprintf(err, errlen, "%s: 1 MiB or larger: not a card file", path);
        ok = false;
    } else if (strlen(buf) != len) {
        snprintf(err, errlen, "%s: not a text file (NUL byte)", path);
        ok = false;
    } else {
        ok = pac_parse_cards(buf, path, out, err, errlen);
    }
    free(buf);
    return ok;
}

bool pac_cards_from_options(const char *json, pac_cardset *out, char *err, size_t errlen)
{
    av *o = json_decode(json, strlen(json), err, errlen);
    const char *name = o ? av_get_str(o, "cards") : NULL;
    const av *list = o ? av_get(o, "card_list") : NULL;
    bool ok = name && list && list->type == AV_LIST;
    abuf text = {0};
    for (size_t i = 0; ok && i < list->u.list.len; i++) {
        const av *line = list->u.list.items[i];
        ok = line->type == AV_STR && !memchr(line->u.str.s, '\n', line->u.str.len) &&
             !memchr(line->u.str.s, '\0', line->u.str.len);
        if (ok) {
            abuf_add(&text, line->u.str.s, line->u.str.len);
            abuf_addc(&text, '\n');
        }
    }
    abuf_addc(&text, '\0');
    if (ok) {
        /* Its name as the log has it, the errors saying where the cards are. */
        char where[160];
        snprintf(where, sizeof where, "%s (the log's card_list)", name);
        ok = pac_parse_cards((char *)text.data, where, out, err, errlen);
        if (ok) snprintf(out->name, sizeof out->name, "%s", name);
    } else {
        snprintf(err, errlen,
                 "the log names a card set but does not hold its cards (options.card_list)");
    }
    abuf_free(&text);
    av_free(o);
    return ok;
}

static void letters(char *b, size_t len, const uint8_t *counts, int n)
{
    size_t k = 0;
    for (int s = 0; s < n; s++)
        for (int i = 0; i < counts[s] && k + 1 < len; i++)
            b[k++] = pac_sym_letters[s];
    b[k] = '\0';
}

void pac_card_line(const pac_card *c, char *buf, size_t len)
{
    char sym[40], need[40], disc[8], eff[48] = "";
    letters(sym, sizeof sym, c->sym, PS_NSYM);
    letters(need, sizeof need, c->need, PR_NREQ);
    for (int i = 0; i < c->n_slots; i++)
        disc[i] = pac_sym_letters[c->slots[i]];
    disc[c->n_slots] = '\0';
    if (c->effect) {
        char a[32] = "";
        if (c->effect == PE_DRAW || c->effect == PE_HAND_LIMIT)
            snprintf(a, sizeof a, ":%d", c->arg);
        else if (c->effect == PE_START_DRAW)
            snprintf(a, sizeof a, ":%s", pac_cat_names[c->arg]);
        else if (c->effect == PE_TEMP) {
            a[0] = ':';
            letters(a + 1, sizeof a - 1, c->temp, PS_NSYM);
        }
        snprintf(eff, sizeof eff, " effect=%s%s", pac_effect_names[c->effect], a);
    }
    snprintf(buf, len, "%s %s %s symbols=%s%s%s%s%s%s name=%s", c->id, pac_cat_names[c->cat],
             act_names[c->act], sym, *need ? " need=" : "", need, c->n_slots ? " discard=" : "",
             disc, eff, c->name);
}
