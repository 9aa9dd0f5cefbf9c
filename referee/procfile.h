/* Files of /proc and of the cgroup tree that the clocks read at every
 * decision: kept open and read again from the top, without stdio (opening
 * one costs about as much as reading it, and stdio's buffer and fstat as
 * much again). */
#ifndef ARENA_PROCFILE_H
#define ARENA_PROCFILE_H

#include <stddef.h>

/* *fd: -2 until the first call, which opens `path` read-only and
 * close-on-exec; then the descriptor, or -1 if it could not be opened.
 * Returns *fd. */
int procfile_keep(int *fd, const char *path);

/* Reads the open file `fd` (< 0: none) from its top into buf, at most
 * len - 1 bytes, and 0-terminates it, whatever happened: the number of
 * bytes read, 0 if none could be. */
size_t procfile_read(int fd, char *buf, size_t len);

#endif
