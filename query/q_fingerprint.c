/*
 * q_fingerprint.c: fingerprints of findings, fast (see q_fingerprint.h).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "pd_dec.h"
#include "pd_error.h"
#include "pd_map.h"
#include "pd_utf8.h"
#include "q_fingerprint.h"

/* The counting key: four parts joined by newlines, cut to this many bytes
 * with the NUL (the buffer of the rule's first implementation). */
#define Q_FP_KEY 2048

/* A key counted: the map borrows `key`. */
typedef struct {
    json_int_t n;
    char key[];
} q_fp_entry;

struct q_fp_seen {
    pd_map *count;           /* key -> q_fp_entry */
    EVP_MD_CTX *ctx;
    /* SHA-256 fetched once: EVP_sha256() in each init fetched it again
     * under OpenSSL's global store lock, a third of a fingerprint. */
    EVP_MD *md;
};

q_fp_seen *q_fp_seen_new(void)
{
    q_fp_seen *s = calloc(1, sizeof(*s));

    if (!s || !(s->count = pd_map_new(PD_MAP_SEEDED)) || !(s->ctx = EVP_MD_CTX_new()) ||
        !(s->md = EVP_MD_fetch(NULL, "SHA256", NULL))) {
        q_fp_seen_free(s);
        pd_error_nomem("counting fingerprints");
        return NULL;
    }
    return s;
}

void q_fp_seen_free(q_fp_seen *s)
{
    const void *key;
    size_t pos = 0, len;
    void *v;

    if (!s)
        return;
    while (s->count && pd_map_next(s->count, &pos, &key, &len, &v))
        free(v);
    pd_map_free(s->count);
    EVP_MD_CTX_free(s->ctx);
    EVP_MD_free(s->md);
    free(s);
}

/* The occurrence of `key` among those counted, counted in turn: what the
 * JSON count gives, a key that is not UTF-8 included (jansson refuses to
 * store it, so each of its findings is occurrence 0).  < 0: no memory. */
static json_int_t q_fp_count(q_fp_seen *s, const char *key, size_t len)
{
    q_fp_entry *e;

    if (!pd_utf8_valid(key, len))
        return 0;
    if ((e = pd_map_get(s->count, key, len)))
        return e->n++;
    if (!(e = malloc(sizeof(*e) + len + 1)))
        return -1;
    e->n = 1;
    memcpy(e->key, key, len + 1);
    if (pd_map_put(s->count, e->key, len, e) < 0) {
        free(e);
        return -1;
    }
    return 0;
}

/* "#k" into occ (24 bytes, NUL-terminated), as snprintf "#%lld" writes it
 * (k >= 0); returns occ. */
static const char *q_fp_occ(char occ[24], json_int_t k)
{
    occ[0] = '#';
    occ[1 + pd_utoa(occ + 1, (uint64_t)k)] = '\0';
    return occ;
}

int q_fp_one(q_fp_seen *s, const char *const parts[4], char hex[33])
{
    static const char digits[] = "0123456789abcdef";
    const char *all[5];
    unsigned char hash[EVP_MAX_MD_SIZE];
    char key[Q_FP_KEY], occ[24];
    size_t len = 0, n;
    unsigned int hlen = 0;
    json_int_t k;
    int i, ok;

    hex[0] = '\0';
    /* snprintf(key, Q_FP_KEY, "%s\n%s\n%s\n%s") without its parsing. */
    for (i = 0; i < 4; i++) {
        all[i] = parts[i] ? parts[i] : "";
        if (i > 0 && len < Q_FP_KEY - 1)
            key[len++] = '\n';
        n = strlen(all[i]);
        if (n > Q_FP_KEY - 1 - len)
            n = Q_FP_KEY - 1 - len;
        memcpy(key + len, all[i], n);
        len += n;
    }
    key[len] = '\0';
    if ((k = q_fp_count(s, key, len)) < 0)
        return pd_error_nomem("counting fingerprints");
    all[4] = q_fp_occ(occ, k);
    ok = EVP_DigestInit_ex2(s->ctx, s->md, NULL) &&
         EVP_DigestUpdate(s->ctx, "portdash-finding", 17);
    for (i = 0; ok && i < 5; i++)
        ok = EVP_DigestUpdate(s->ctx, all[i], strlen(all[i]) + 1);
    if (!ok || !EVP_DigestFinal_ex(s->ctx, hash, &hlen) || hlen < 16)
        return pd_error_nomem("hashing a fingerprint");
    for (i = 0; i < 16; i++) {
        hex[2 * i] = digits[hash[i] >> 4];
        hex[2 * i + 1] = digits[hash[i] & 15];
    }
    hex[32] = '\0';
    return 0;
}
