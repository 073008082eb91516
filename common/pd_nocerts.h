/*
 * pd_nocerts.h: start-up without parsing the system's CA certificates.
 */
#ifndef PD_NOCERTS_H
#define PD_NOCERTS_H

/*
 * Stands in for mbedTLS's function of this name, which Debian's libgit2
 * 1.5 calls from git_libgit2_init() to parse the system's CA bundle (why:
 * pd_nocerts.c).  Loads nothing into `chain` (an mbedtls_x509_crt *) and
 * returns 0.  Not to be called by portdash itself.
 */
int mbedtls_x509_crt_parse_file(void *chain, const char *path);

#endif
