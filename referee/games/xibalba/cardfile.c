/* Card sets: expanding a type table into card instances, and the card-file
 * loader behind `--set cards=FILE`. Every error is one line naming the file,
 * the line and the field. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec.h"
#include "util.h"
#include "xibalba.h"

static bool is_event_effect(int e)
{
    return e >= XE_EV_TRIBUTE;
}

/* Checks one type; returns the name of the offending field or NULL. */
static const char *check_type(const xb_card_type *t, const char **why)
{
    if (t->name[0] == '\0') return *why = "missing", "name";
    if (strchr(t->name, ':')) return *why = "may not contain ':' (labels use it)", "name";
    if (t->cost < 1 || t->cost > 30) return *why = "must be 1..30", "cost";
    if (t->faction >= XB_FACTIONS) return *why = "must be 0..7", "faction";
    if (t->copies < 1 || t->copies > 64) return *why = "must be 1..64", "copies";
    if (t->arg > 10) return *why = "must be 0..10", "arg";
    if (t->effect == XE_NONE || t->effect >= XE_EFFECTS) return *why = "unknown", "effect";
    if ((t->family == XB_EVENT) != is_event_effect(t->effect))
        return *why = "events need an ev_* effect and only events may have one", "effect";
    if (t->family == XB_SOLDIER) {
        if (t->str < 1 || t->str > 20) return *why = "must be 1..20", "str";
        if (t->res < 1 || t->res > 20) return *why = "must be 1..20", "res";
        if (t->par > 5) return *why = "must be 0..5", "par";
    }
    return NULL;
}

bool xb_cardset_build(xb_cardset *cs, const xb_card_type *types, int n, char *err, size_t errlen)
{
    memset(cs, 0, sizeof *cs);
    if (n > XB_MAX_TYPES) {
        snprintf(err, errlen, "too many card types (%d, at most %d)", n, XB_MAX_TYPES);
        return false;
    }
    for (int i = 0; i < n; i++) {
        const char *why, *field = check_type(&types[i], &why);
        if (field) {
            snprintf(err, errlen, "card '%s': field '%s' %s", types[i].name, field, why);
            return false;
        }
        cs->t[i] = types[i];
        cs->fam_count[types[i].family] += types[i].copies;
    }
    cs->n_types = n;
    static const int need[XB_FAMILIES] = {3, 1, 1, 1};
    for (int f = 0; f < XB_FAMILIES; f++) {
        if (cs->fam_count[f] > XB_FAM_MAX || cs->fam_count[f] < need[f]) {
            snprintf(err, errlen, "%s cards: %d copies, need %d..%d", xb_family_names[f],
                     cs->fam_count[f], need[f], XB_FAM_MAX);
            return false;
        }
    }
    /* Instances grouped by family in table order, so ids are stable. */
    for (int f = 0; f < XB_FAMILIES; f++)
        for (int i = 0; i < n; i++)
            if (cs->t[i].family == f)
                for (int k = 0; k < cs->t[i].copies; k++)
                    cs->type_of[cs->n_cards++] = (int16_t)i;
    return true;
}

static int find_name(const char *const *names, int n, const char *s)
{
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], s) == 0) return i;
    return -1;
}

static bool parse_int(const char *s, int lo, int hi, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || errno || v < lo || v > hi) return false;
    *out = (int)v;
    return true;
}

bool xb_cardset_parse(xb_cardset *cs, const char *text, const char *path, char *err, size_t errlen)
{
    xb_card_type *types = xcalloc(XB_MAX_TYPES + 1, sizeof *types);
    int n = 0, lineno = 0;
    char line[1024];
    bool ok = true;
    for (const char *at = text; ok && *at;) {
        lineno++;
        size_t len = strcspn(at, "\n");
        if (len >= sizeof line) {
            snprintf(err, errlen, "%s:%d: line longer than %zu characters", path, lineno,
                     sizeof line - 1);
            ok = false;
            break;
        }
        memcpy(line, at, len);
        line[len] = '\0';
        at += len + (at[len] == '\n');
        char *p = line;
        while (isspace((unsigned char)*p))
            p++;
        if (*p == '\0' || *p == '#') continue;
        if (n == XB_MAX_TYPES) {
            snprintf(err, errlen, "%s:%d: more than %d card types", path, lineno, XB_MAX_TYPES);
            ok = false;
            break;
        }
        xb_card_type *t = &types[n];
        memset(t, 0, sizeof *t);
        t->copies = 1;
        /* family word */
        char *w = p;
        while (*p && !isspace((unsigned char)*p))
            p++;
        if (*p) *p++ = '\0';
        int fam = find_name(xb_family_names, XB_FAMILIES, w);
        if (fam < 0) {
            snprintf(err, errlen,
                     "%s:%d: field 'family': unknown '%s' (soldier|civilian|building|event)", path,
                     lineno, w);
            ok = false;
            break;
        }
        t->family = (uint8_t)fam;
        t->phase = fam == XB_EVENT ? XB_PH_ACTION : XB_PHASES;
        bool seen_effect = false, seen_cost = false, seen_str = false, seen_res = false,
             seen_par = false;
        while (ok) {
            while (isspace((unsigned char)*p))
                p++;
            if (*p == '\0' || *p == '#') break;
            char *key = p;
            while (*p && *p != '=' && !isspace((unsigned char)*p))
                p++;
            if (*p != '=') {
                snprintf(err, errlen, "%s:%d: field '%.*s': expected key=value", path, lineno,
                         (int)(p - key), key);
                ok = false;
                break;
            }
            *p++ = '\0';
            char *val = p;
            if (*p == '"') {
                val = ++p;
                while (*p && *p != '"')
                    p++;
                if (*p != '"') {
                    snprintf(err, errlen, "%s:%d: field '%s': unterminated quote", path, lineno,
                             key);
                    ok = false;
                    break;
                }
                *p++ = '\0';
            } else {
                while (*p && !isspace((unsigned char)*p))
                    p++;
                if (*p) *p++ = '\0';
            }
            int v = 0;
            bool good = true;
            const char *expect = "";
            char buf[32];
            if (strcmp(key, "name") == 0) {
                good = val[0] != '\0' && strlen(val) < sizeof t->name;
                expect = "1..31 characters";
                if (good) snprintf(t->name, sizeof t->name, "%s", val);
            } else if (strcmp(key, "phase") == 0) {
                v = find_name(xb_phase_names, XB_PHASES, val);
                good = v >= 0;
                expect = "effect|dice|action|permanent";
                if (good) t->phase = (uint8_t)v;
            } else if (strcmp(key, "effect") == 0) {
                v = find_name(xb_effect_names, XE_EFFECTS, val);
                good = v > 0;
                expect = "an effect name listed in docs/games/xibalba.md";
                if (good) t->effect = (uint8_t)v, seen_effect = true;
            } else {
                static const struct {
                    const char *key;
                    int lo, hi;
                } ints[] = {{"faction", 0, 7}, {"cost", 1, 30}, {"arg", 0, 10},   {"str", 1, 20},
                            {"res", 1, 20},    {"par", 0, 5},   {"copies", 1, 64}};
                int k = -1;
                for (int i = 0; i < (int)(sizeof ints / sizeof ints[0]); i++)
                    if (strcmp(key, ints[i].key) == 0) k = i;
                if (k < 0) {
                    snprintf(err, errlen, "%s:%d: field '%s': unknown field", path, lineno, key);
                    ok = false;
                    break;
                }
                snprintf(buf, sizeof buf, "an integer %d..%d", ints[k].lo, ints[k].hi);
                expect = buf;
                good = parse_int(val, ints[k].lo, ints[k].hi, &v);
                if (good) {
                    switch (k) {
                    case 0: t->faction = (uint8_t)v; break;
                    case 1: t->cost = (uint8_t)v, seen_cost = true; break;
                    case 2: t->arg = (uint8_t)v; break;
                    case 3: t->str = (uint8_t)v, seen_str = true; break;
                    case 4: t->res = (uint8_t)v, seen_res = true; break;
                    case 5: t->par = (uint8_t)v, seen_par = true; break;
                    default: t->copies = (uint8_t)v; break;
                    }
                }
            }
            if (!good) {
                snprintf(err, errlen, "%s:%d: field '%s': bad value '%s' (expected %s)", path,
                         lineno, key, val, expect);
                ok = false;
            }
        }
        if (!ok) break;
        const char *missing = t->name[0] == '\0'      ? "name"
                              : !seen_cost            ? "cost"
                              : t->phase == XB_PHASES ? "phase"
                              : !seen_effect          ? "effect"
                              : fam != XB_SOLDIER     ? NULL
                              : !seen_str             ? "str"
                              : !seen_res             ? "res"
                              : !seen_par             ? "par"
                                                      : NULL;
        if (missing) {
            snprintf(err, errlen, "%s:%d: field '%s': missing", path, lineno, missing);
            ok = false;
            break;
        }
        const char *why, *field = check_type(t, &why);
        if (field) {
            snprintf(err, errlen, "%s:%d: field '%s': %s", path, lineno, field, why);
            ok = false;
            break;
        }
        n++;
    }
    if (ok) {
        char inner[200];
        ok = xb_cardset_build(cs, types, n, inner, sizeof inner);
        if (!ok) snprintf(err, errlen, "%s:%d: field 'copies': %s", path, lineno, inner);
    }
    free(types);
    return ok;
}

bool xb_cardset_load(xb_cardset *cs, const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return false;
    }
    /* A card file is a few KB: more than 1 MiB is not one. */
    char *buf = xmalloc(XB_CARDFILE_MAX + 2);
    size_t len = fread(buf, 1, XB_CARDFILE_MAX + 1, f);
    fclose(f);
    buf[len] = '\0';
    bool ok = false;
    if (len > XB_CARDFILE_MAX)
        snprintf(err, errlen, "%s: larger than %d bytes: not a card file", path, XB_CARDFILE_MAX);
    else if (strlen(buf) != len)
        snprintf(err, errlen, "%s: not a text file (NUL byte)", path);
    else
        ok = xb_cardset_parse(cs, buf, path, err, errlen);
    free(buf);
    return ok;
}

/* Names and numbers of one logged card type into t, each checked as the
 * card file checks it (a number is never cut to a byte unchecked). */
static const char *logged_type(const av *m, xb_card_type *t)
{
    memset(t, 0, sizeof *t);
    if (m->type != AV_MAP) return "a card type that is not a map";
    const char *name = av_get_str(m, "name"), *fam = av_get_str(m, "family");
    const char *phase = av_get_str(m, "phase"), *effect = av_get_str(m, "effect");
    int f = fam ? find_name(xb_family_names, XB_FAMILIES, fam) : -1;
    int ph = phase ? find_name(xb_phase_names, XB_PHASES, phase) : -1;
    int ef = effect ? find_name(xb_effect_names, XE_EFFECTS, effect) : -1;
    if (!name || !name[0] || strlen(name) >= sizeof t->name) return "name";
    if (f < 0) return "family";
    if (ph < 0) return "phase";
    if (ef <= 0) return "effect";
    snprintf(t->name, sizeof t->name, "%s", name);
    t->family = (uint8_t)f;
    t->phase = (uint8_t)ph;
    t->effect = (uint8_t)ef;
    static const struct {
        const char *key;
        int lo, hi;
        bool soldier;
    } ints[] = {{"faction", 0, 7, false}, {"cost", 1, 30, false}, {"arg", 0, 10, false},
                {"copies", 1, 64, false}, {"str", 1, 20, true},   {"res", 1, 20, true},
                {"par", 0, 5, true}};
    uint8_t *field[] = {&t->faction, &t->cost, &t->arg, &t->copies, &t->str, &t->res, &t->par};
    for (size_t i = 0; i < sizeof ints / sizeof *ints; i++) {
        if (ints[i].soldier && f != XB_SOLDIER) continue;
        int64_t v;
        if (!av_get_int(m, ints[i].key, &v) || v < ints[i].lo || v > ints[i].hi) return ints[i].key;
        *field[i] = (uint8_t)v;
    }
    return NULL;
}

bool xb_cardset_from_options(xb_cardset *cs, const char *json, char *name, size_t namelen,
                             char *err, size_t errlen)
{
    av *o = json_decode(json, strlen(json), err, errlen);
    const char *set = o ? av_get_str(o, "cards") : NULL;
    const av *list = o ? av_get(o, "card_types") : NULL;
    if (!set || !list || list->type != AV_LIST || list->u.list.len > XB_MAX_TYPES) {
        snprintf(err, errlen,
                 "the log names a card set but does not hold its cards (options.card_types)");
        av_free(o);
        return false;
    }
    int n = (int)list->u.list.len;
    xb_card_type *types = xcalloc((size_t)n + 1, sizeof *types);
    bool ok = true;
    for (int i = 0; ok && i < n; i++) {
        const char *field = logged_type(list->u.list.items[i], &types[i]);
        if (field) {
            snprintf(err, errlen, "the log's card type %d: field '%s' missing or out of range",
                     i + 1, field);
            ok = false;
        }
    }
    if (ok) {
        char inner[200];
        ok = xb_cardset_build(cs, types, n, inner, sizeof inner);
        if (!ok) snprintf(err, errlen, "the log's card types: %s", inner);
    }
    if (ok) snprintf(name, namelen, "%s", set);
    free(types);
    av_free(o);
    return ok;
}
