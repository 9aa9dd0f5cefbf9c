/* Tournament file parser. */
#include "spec.h"

#include <ctype.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "utf8.h"
#include "util.h"

void argvec_push(argvec *a, const char *s)
{
    if (a->n + 1 >= a->cap) {
        a->cap = a->cap ? a->cap * 2 : 16;
        a->v = xrealloc(a->v, sizeof(char *) * (size_t)a->cap);
    }
    a->v[a->n++] = xstrdup(s);
    a->v[a->n] = NULL;
}

void argvec_free(argvec *a)
{
    for (int i = 0; i < a->n; i++)
        free(a->v[i]);
    free(a->v);
    memset(a, 0, sizeof *a);
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

int spec_parse_text(const char *text, const char *name, argvec *out, char *err, size_t errlen)
{
    int lineno = 0;
    const char *p = text;
    while (*p) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        char *line = xmalloc(len + 1);
        memcpy(line, p, len);
        line[len] = '\0';
        p += len + (eol ? 1 : 0);
        lineno++;
        /* A '#' starts a comment only at the start of a line or after a
         * blank, so values such as "cmd:./bot#2" survive. */
        for (char *h = line; *h; h++)
            if (*h == '#' && (h == line || isspace((unsigned char)h[-1]))) {
                *h = '\0';
                break;
            }
        char *t = trim(line);
        /* The settings are stored as JSON, which holds only UTF-8. */
        if (!utf8_valid(t, strlen(t))) {
            snprintf(err, errlen, "%s:%d: not UTF-8 text", name, lineno);
            free(line);
            return -1;
        }
        if (*t == '\0') {
            free(line);
            continue;
        }
        char *eq = strchr(t, '=');
        char *key = t, *val = NULL;
        if (eq) {
            *eq = '\0';
            key = trim(t);
            val = trim(eq + 1);
        }
        bool ok = *key != '\0' && key[0] != '-';
        for (char *k = key; ok && *k; k++)
            if (!(isalnum((unsigned char)*k) || *k == '-' || *k == '_')) ok = false;
        if (!ok) {
            snprintf(err, errlen, "%s:%d: expected 'key = value', got '%s'", name, lineno, t);
            free(line);
            return -1;
        }
        char *flag = xasprintf("--%s", key);
        for (char *k = flag + 2; *k; k++)
            if (*k == '_') *k = '-';
        argvec_push(out, flag);
        free(flag);
        if (val) argvec_push(out, val);
        free(line);
    }
    return 0;
}

int spec_read_file(const char *path, argvec *out, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "cannot read tournament file '%s'", path);
        return -1;
    }
    /* A tournament file is a few lines: read at most SPEC_FILE_MAX bytes. */
    abuf b = {0};
    abuf_reserve(&b, SPEC_FILE_MAX + 1);
    size_t n = fread(b.data, 1, SPEC_FILE_MAX + 1, f);
    fclose(f);
    b.len = n;
    abuf_addc(&b, '\0');
    int rc = -1;
    if (n > SPEC_FILE_MAX)
        snprintf(err, errlen, "%s: larger than %d bytes: not a tournament file", path,
                 SPEC_FILE_MAX);
    else if (strlen((const char *)b.data) != n)
        snprintf(err, errlen, "%s: not a text file (NUL byte)", path);
    else
        rc = spec_parse_text((const char *)b.data, path, out, err, errlen);
    abuf_free(&b);
    return rc;
}

char *argvec_to_json(const argvec *a)
{
    json_t *arr = json_array();
    for (int i = 0; i < a->n; i++)
        json_array_append_new(arr, json_string(a->v[i]));
    char *s = json_dumps(arr, JSON_COMPACT);
    json_decref(arr);
    char *r = xstrdup(s);
    free(s);
    return r;
}

int argvec_from_json(const char *js, argvec *out)
{
    json_error_t e;
    json_t *arr = json_loads(js, 0, &e);
    if (!json_is_array(arr)) {
        json_decref(arr);
        return -1;
    }
    for (size_t i = 0; i < json_array_size(arr); i++) {
        const char *s = json_string_value(json_array_get(arr, i));
        if (!s) {
            json_decref(arr);
            return -1;
        }
        argvec_push(out, s);
    }
    json_decref(arr);
    return 0;
}
