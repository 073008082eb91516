/*
 * pd_file.c: reading a whole file (see pd_file.h).
 *
 * By file descriptor, not stdio: fopen and fread spent six system calls
 * on a file (open, fstat, three reads of which two at the end of the file
 * found nothing, close), where open, fstat, one read and close do.  A call
 * costs 1 to 3 microseconds on the virtual machines we run on, and
 * `portdash analyze` reads hundreds of files a run (issue 26).
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pd_buf.h"
#include "pd_error.h"
#include "pd_file.h"

/* Read what fd holds into b; a regular file of `size` bytes at the open.
 * 0, PD_EIO (errno kept), PD_EINVAL (over max), PD_ENOMEM. */
static int pd_file_fill(pd_buf *b, int fd, int regular, size_t size, size_t max)
{
    /* A regular file's size is known: one read of it and one byte more,
     * which comes back only if the file grew since the fstat.  A read of
     * a regular file returns less than asked at its end alone (POSIX), so
     * a short read once `size` bytes are in ends it without a read that
     * finds nothing.  Not for a size of 0 (Linux's /proc files say 0 and
     * return a page a read), nor before `size` bytes (a file system that
     * returns less than asked): those read on to a read of nothing. */
    size_t want = regular ? size + 1 : 65536;

    if (max && want > max + 1)
        want = max + 1;
    for (;;) {
        ssize_t got;
        size_t ask;

        if (pd_buf_reserve(b, want) < 0)
            return PD_ENOMEM;
        ask = b->cap - 1 - b->len;
        got = read(fd, b->data + b->len, ask);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return PD_EIO;
        b->len += (size_t)got;
        if (max && b->len > max)
            return PD_EINVAL;
        if (got == 0 || (regular && size && b->len >= size && (size_t)got < ask))
            return 0;
        want = b->len < 65536 ? 65536 : b->len;   /* grew, or a pipe: double */
    }
}

int pd_file_read_fd(int fd, const struct stat *st, const char *path, size_t max,
                    const char *what, char **out, size_t *len)
{
    const char *sp = what ? " " : "";
    struct stat sb;
    pd_buf b;
    int rc, regular;

    *out = NULL;
    if (len)
        *len = 0;
    if (!what)
        what = "";
    if (!st && fstat(fd, &sb) == 0)
        st = &sb;
    regular = st && S_ISREG(st->st_mode);
    pd_buf_init(&b, 0);
    rc = pd_file_fill(&b, fd, regular, regular ? (size_t)st->st_size : 0, max);
    if (rc == PD_ENOMEM)
        rc = pd_error_set(PD_ENOMEM, "out of memory reading %s", path);
    else if (rc == PD_EINVAL)
        rc = pd_error_set(PD_EINVAL, "%s is over %zu bytes", path, max);
    else if (rc < 0)
        rc = pd_error_set(PD_EIO, "cannot read %s%s%s: %s", what, sp, path, strerror(errno));
    if (rc < 0) {
        pd_buf_free(&b);
        return rc;
    }
    b.data[b.len] = '\0';            /* pd_file_fill reserved room before each read */
    *out = pd_buf_take(&b, len);
    return 0;
}

int pd_file_read(const char *path, size_t max, const char *what, char **out, size_t *len)
{
    int in = strcmp(path, "-") == 0;
    int fd = in ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
    int rc;

    *out = NULL;
    if (len)
        *len = 0;
    if (fd < 0)
        return pd_error_set(PD_EIO, "cannot open %s%s%s: %s", what ? what : "",
                            what ? " " : "", path, strerror(errno));
    rc = pd_file_read_fd(fd, NULL, path, max, what, out, len);
    if (!in)
        close(fd);
    return rc;
}
