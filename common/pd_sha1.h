/*
 * pd_sha1.h: SHA-1 (FIPS 180-4) for git object ids computed without
 * libgit2, so that a command that reads no repository (`portdash analyze
 * FILE...`) need not initialise libgit2, which loads the system's CA
 * certificates (issue 26: start-up).  Not for anything that must resist
 * collisions: it names content the way git does, nothing more.
 */
#ifndef PD_SHA1_H
#define PD_SHA1_H

#include <stddef.h>
#include <stdint.h>

/* Streaming state; zero-initialise nothing, call pd_sha1_init. */
typedef struct {
    uint32_t h[5];
    uint64_t len;               /* bytes hashed so far */
    unsigned char buf[64];
    size_t nbuf;
} pd_sha1;

/* Start a hash in *s. */
void pd_sha1_init(pd_sha1 *s);

/* Hash n more bytes at p (p may be NULL when n is 0). */
void pd_sha1_update(pd_sha1 *s, const void *p, size_t n);

/* Finish: the 20-byte digest into out; *s is spent. */
void pd_sha1_final(pd_sha1 *s, unsigned char out[20]);

/* git's blob id of the bytes a[0..alen) followed by b[0..blen) (b may be
 * NULL when blen is 0): SHA-1 of "blob LEN\0" and the content, as 40
 * lower-case hex digits and a NUL in hex[41].  Equal to git_odb_hash(...,
 * GIT_OBJECT_BLOB) and `git hash-object` of the concatenation. */
void pd_sha1_blob_hex(char hex[41], const void *a, size_t alen,
                      const void *b, size_t blen);

#endif
