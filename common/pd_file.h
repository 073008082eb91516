/*
 * pd_file.h: the one whole-file reader.
 */
#ifndef PD_FILE_H
#define PD_FILE_H

#include <stddef.h>

/*
 * Read all of `path` ("-": standard input) into a new NUL-terminated
 * buffer *out (free()), its length without the NUL in *len (may be NULL).
 * At most `max` bytes (0: no bound).  `what` names the file in messages
 * ("rules file" gives "cannot open rules file PATH"; NULL: just the path).
 * 0, PD_EIO (cannot open or read), PD_EINVAL (longer than max),
 * PD_ENOMEM.  *out is NULL after an error.
 */
int pd_file_read(const char *path, size_t max, const char *what, char **out, size_t *len);

#endif
