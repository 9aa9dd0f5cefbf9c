/* "Did you mean": the known word closest to a mistyped one. */
#ifndef ARENA_SUGGEST_H
#define ARENA_SUGGEST_H

#include <stddef.h>

/* Edits (insert, delete, replace, swap of two neighbours) from a to b;
 * words over 64 bytes count as far from everything. */
size_t suggest_distance(const char *a, const char *b);

/* The candidate closest to `word`, if it is close enough to be the meant
 * one (at most 1 edit for a word up to 4 bytes, 2 up to 8, else 3), or a
 * candidate that begins with it (a shortened option); NULL otherwise. The
 * list ends with NULL. Ties go to the first. */
const char *suggest_closest(const char *word, const char *const *candidates);

/* Prints "arena: unknown option 'ARG' (did you mean --X? see `arena CMD
 * --help`)" to stderr: X from `own` and `more` (the command's flags, each
 * list NULL-ended, `more` may be NULL) and the flags every command that
 * plays shares (runopts.h). */
void suggest_unknown_option(const char *cmd, const char *arg, const char *const *own,
                            const char *const *more);

#endif
