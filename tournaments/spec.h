/* Tournament files: one setting per line, `key = value`, where every key is
 * the name of a command-line flag without its dashes (`agent = A=builtin:random`
 * is `--agent A=builtin:random`), a key alone is a flag without value, '#'
 * starts a comment. The file becomes an argument vector that the flag parser
 * reads, so every key has a flag by construction. */
#ifndef ARENA_SPEC_H
#define ARENA_SPEC_H

#include <stddef.h>

typedef struct argvec {
    char **v;
    int n, cap;
} argvec;

void argvec_push(argvec *a, const char *s);
void argvec_free(argvec *a);
/* A JSON array of the strings (malloc'ed), to store settings; and back:
 * appends the array's strings, -1 if js is not an array of strings. */
char *argvec_to_json(const argvec *a);
int argvec_from_json(const char *js, argvec *out);

/* Appends the file's settings as flags. Returns 0, or -1 with "FILE:LINE: ..."
 * in err; a line that is not UTF-8 or a file larger than SPEC_FILE_MAX bytes
 * or holding a NUL byte is refused. */
#define SPEC_FILE_MAX (1 << 20)
int spec_read_file(const char *path, argvec *out, char *err, size_t errlen);
int spec_parse_text(const char *text, const char *name, argvec *out, char *err, size_t errlen);

#endif
