/*
 * pd_utf8.h: UTF-8 as RFC 3629 defines it (no overlong forms, no
 * surrogates, nothing past U+10FFFF), the one check every reader of text
 * from outside uses, and the one repair of text that fails it.
 */
#ifndef PD_UTF8_H
#define PD_UTF8_H

#include <stddef.h>

/* The replacement character U+FFFD, as UTF-8. */
#define PD_UTF8_REPLACEMENT "\xEF\xBF\xBD"

/*
 * Length (1-4) of the valid UTF-8 character at s, of which at most `avail`
 * bytes may be read, or 0 when the bytes there are not one (a stray
 * continuation byte, an overlong form such as C0 AF, a surrogate, a
 * truncated sequence).
 */
size_t pd_utf8_len(const unsigned char *s, size_t avail);

/* 1 if the `n` bytes at s are valid UTF-8 (a NUL counts as a character). */
int pd_utf8_valid(const char *s, size_t n);

/*
 * The `n` bytes at s with every byte that does not start a valid character
 * replaced by U+FFFD (one per byte, as WHATWG's decoder does for most
 * cases: the count shows how much was lost).  A new NUL-terminated string
 * (free()), NULL on ENOMEM.  *bad (may be NULL) is set to the number of
 * bytes replaced.
 */
char *pd_utf8_repair(const char *s, size_t n, size_t *bad);

/*
 * pd_utf8_repair for text that must be a C string (a name, a path): each
 * NUL becomes U+FFFD too, counted apart in *nul (may be NULL: then NULs are
 * kept, as pd_utf8_repair keeps them).
 */
char *pd_utf8_repair_nul(const char *s, size_t n, size_t *bad, size_t *nul);

#endif
