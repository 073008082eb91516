/*
 * db_compress.h: the compressed columns (db_compress.c): written as
 * Zstandard frames, read in that format or in zlib's (databases written
 * before schema version 20).
 */
#ifndef DB_COMPRESS_H
#define DB_COMPRESS_H

#include <stddef.h>

#include <sqlite3.h>

/*
 * Compress `len` bytes into a new buffer (*out, *out_len), freed with
 * free(): one Zstandard frame (RFC 8878) at level 1, with the content size
 * in its header and its content checksum, so that damage is found when it
 * is read.  A text equal to one compressed shortly before (the last 2 MiB
 * of frames, process-wide) gets a copy of that frame, the same bytes,
 * after the frame was checked to decompress to it.  Thread-safe: each
 * thread keeps its own context.  0, PD_ENOMEM, PD_ERROR.
 */
int db_compress(unsigned char **out, size_t *out_len, const void *in, size_t len);

/* Bytes of the texts db_compress gave a kept frame for, since the process
 * started. */
size_t db_compress_reused_bytes(void);

/* Largest decompressed size db_decompress accepts (bytes). */
#define DB_DECOMPRESS_MAX ((size_t)1 << 30)

/*
 * Inverse of db_compress; also reads zlib's format (RFC 1950), which the
 * columns had up to schema version 19, told apart by Zstandard's magic
 * number (no zlib header starts with its four bytes).  `raw_len` is the
 * original size as stored, which is not trusted (a damaged or edited
 * database).  *out is NUL-terminated and freed with free().  0, PD_ENOMEM,
 * PD_EDB (damaged: a length that cannot be, or data that does not
 * decompress to it with its checksum right; the server answers 500).
 */
int db_decompress(char **out, const void *in, size_t len, size_t raw_len);

/*
 * db_decompress of a stored pair of columns of the row st is on: column
 * `col` the compressed bytes, column col + 1 their original size (the
 * layout of every compressed column: findings/findings_len, flow/flow_len,
 * ...).  A NULL column gives *out = NULL and 0 when `nullable`, else PD_EDB
 * (the database is damaged).  Errors as db_decompress.
 */
int db_column_decompress(sqlite3_stmt *st, int col, int nullable, char **out);

#endif
