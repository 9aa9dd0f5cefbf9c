#include "procfile.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

int procfile_keep(int *fd, const char *path)
{
    if (*fd == -2)
        while ((*fd = open(path, O_RDONLY | O_CLOEXEC)) < 0 && errno == EINTR) {
        }
    return *fd;
}

size_t procfile_read(int fd, char *buf, size_t len)
{
    ssize_t got = -1;
    if (fd >= 0)
        while ((got = pread(fd, buf, len - 1, 0)) < 0 && errno == EINTR) {
        }
    if (got < 0) got = 0;
    buf[got] = 0;
    return (size_t)got;
}
