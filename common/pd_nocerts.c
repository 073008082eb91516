/*
 * pd_nocerts.c: no CA certificates parsed at start-up (see pd_nocerts.h).
 */
#include "pd_nocerts.h"

/*
 * Debian's libgit2 1.5 is built with mbedTLS and parses the system's whole
 * CA bundle (/etc/ssl/certs/ca-certificates.crt, about 140 certificates)
 * inside git_libgit2_init(), unconditionally: no option set before the
 * init can stop it (GIT_OPT_SET_SSL_CERT_LOCATIONS needs the init first).
 * That was a third of a pushed commit's start-up and 10 % of its CPU
 * (doc/benchmarks.md).  portdash never talks to a remote through libgit2
 * (no clone, fetch or push: it reads local git directories only), so it
 * needs no CA certificate: this definition, in the executable, is the one
 * the dynamic linker binds libgit2's call to, and it loads nothing.  The
 * signature is mbedTLS's (mbedtls_x509_crt *, const char *); with a
 * libgit2 built on OpenSSL or another TLS library nothing calls it.
 */
int mbedtls_x509_crt_parse_file(void *chain, const char *path)
{
    (void)chain;
    (void)path;
    return 0;
}
