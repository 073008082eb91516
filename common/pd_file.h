/*
 * pd_file.h: the one whole-file reader.
 */
#ifndef PD_FILE_H
#define PD_FILE_H

#include <stddef.h>
#include <sys/stat.h>

/*
 * Read all of `path` ("-": standard input) into a new NUL-terminated
 * buffer *out (free()), its length without the NUL in *len (may be NULL).
 * At most `max` bytes (0: no bound).  `what` names the file in messages
 * ("rules file" gives "cannot open rules file PATH"; NULL: just the path).
 * 0, PD_EIO (cannot open or read), PD_EINVAL (longer than max),
 * PD_ENOMEM.  *out is NULL after an error.
 */
int pd_file_read(const char *path, size_t max, const char *what, char **out, size_t *len);

/*
 * pd_file_read() of a descriptor the caller opened (and closes): for a
 * caller that must know what a path is before reading it (a directory is
 * walked instead) without a second lookup of the path.  `st` is fd's
 * fstat() if the caller has it (NULL: this asks), `path` names it in
 * messages.  The same results; a directory gives PD_EIO ("cannot read",
 * with the system's reason).
 */
int pd_file_read_fd(int fd, const struct stat *st, const char *path, size_t max,
                    const char *what, char **out, size_t *len);

#endif
