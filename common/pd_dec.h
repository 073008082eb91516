/*
 * pd_dec.h: integers written in decimal, without printf.
 *
 * The stored columns (findings, functions, flow facts, whys), the JSON a
 * file page or `analyze` writes and the fingerprints write millions of
 * small numbers; snprintf was a tenth of the analysis threads' time on
 * numpy-hpy (issue 26), and a digit at a time by `% 10` about 50
 * instructions a number.  Two digits at a time from a table of the 100
 * pairs, the length counted first so that they are written in place.
 */
#ifndef PD_DEC_H
#define PD_DEC_H

#include <stddef.h>
#include <stdint.h>

/* The most bytes pd_itoa or pd_utoa writes ("-9223372036854775808" and
 * "18446744073709551615" are 20). */
#define PD_DEC_MAX 20

/* "00" "01" ... "99" (pd_dec.c), and the literal's NUL. */
extern const char pd_dec_pairs[201];

/* How many decimal digits v has (1 for 0). */
static inline size_t pd_dec_len(uint64_t v)
{
    size_t n = 1;

    while (v >= 100) {
        v /= 100;
        n += 2;
    }
    return n + (v >= 10);
}

/*
 * The decimal digits of v written at d, no sign, no '\0'; returns how
 * many were written (pd_dec_len(v): at most 10 for a 32-bit value,
 * PD_DEC_MAX for any).  The same bytes as printf's "%llu".
 */
static inline size_t pd_utoa(char *d, uint64_t v)
{
    size_t n = pd_dec_len(v), i = n;

    while (v >= 100) {
        uint64_t q = v / 100;
        unsigned r = (unsigned)(v - q * 100) * 2;

        v = q;
        i -= 2;
        d[i] = pd_dec_pairs[r];
        d[i + 1] = pd_dec_pairs[r + 1];
    }
    if (v >= 10) {
        d[0] = pd_dec_pairs[v * 2];
        d[1] = pd_dec_pairs[v * 2 + 1];
    } else {
        d[0] = (char)('0' + v);
    }
    return n;
}

/* The two digits of v (0 to 99) at d, as printf's "%02d" writes them;
 * returns d + 2. */
static inline char *pd_dec2(char *d, unsigned v)
{
    d[0] = pd_dec_pairs[2 * v];
    d[1] = pd_dec_pairs[2 * v + 1];
    return d + 2;
}

/* v written at d as printf's "%lld" writes it ('-' first when negative;
 * INT64_MIN too), no '\0'; returns how many bytes (at most PD_DEC_MAX). */
static inline size_t pd_itoa(char *d, int64_t v)
{
    if (v >= 0)
        return pd_utoa(d, (uint64_t)v);
    d[0] = '-';
    return 1 + pd_utoa(d + 1, (uint64_t)0 - (uint64_t)v);
}

#endif
