/*
 * db_zlib.h: the compressed columns, in zlib's format (db_zlib.c).
 */
#ifndef DB_ZLIB_H
#define DB_ZLIB_H

#include <stddef.h>

#include <sqlite3.h>

/*
 * Compress `len` bytes into a new buffer (*out, *out_len) in zlib's format
 * (RFC 1950: what zlib's uncompress() reads), freed with free().
 * Thread-safe: each thread keeps its own compressor.  0, PD_ENOMEM,
 * PD_ERROR.
 */
int db_deflate(unsigned char **out, size_t *out_len, const void *in, size_t len);

/* Largest inflated size db_inflate accepts (bytes). */
#define DB_INFLATE_MAX ((size_t)1 << 30)

/* Inverse of db_deflate; `raw_len` is the original size as stored, which
 * is not trusted (a damaged or edited database).  *out is NUL-terminated
 * and freed with free().  0, PD_ENOMEM, PD_EDB (damaged: a length that
 * cannot be, or data that does not inflate to it; the server answers 500). */
int db_inflate(char **out, const void *in, size_t len, size_t raw_len);

/*
 * db_inflate of a stored pair of columns of the row st is on: column `col`
 * the compressed bytes, column col + 1 their original size (the layout of
 * every compressed column: findings/findings_len, flow/flow_len, ...).
 * A NULL column gives *out = NULL and 0 when `nullable`, else PD_EDB (the
 * database is damaged).  Errors as db_inflate.
 */
int db_column_inflate(sqlite3_stmt *st, int col, int nullable, char **out);

#endif
