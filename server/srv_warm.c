/*
 * srv_warm.c: the cache-warming thread (see srv_warm.h).  A minimal HTTP/1.1
 * client over one loopback connection per request (Connection: close): the
 * server is our own, the answers are read and dropped, only the list of
 * repositories and refs is parsed.
 */
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include <jansson.h>

#include "srv_warm.h"

struct srv_warm {
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    int pending, stop;
    unsigned rounds;
    struct sockaddr_storage addr;
    socklen_t len;
};

/* GET `path`; the body into *body (malloc'd, NUL-terminated) when body is
 * not NULL.  Returns the status, or -1 when the server could not be asked. */
static int srv_warm_get(srv_warm *w, const char *path, char **body)
{
    char req[2048], buf[65536], *all = NULL, *p;
    size_t n = 0;
    ssize_t got;
    struct timeval tv = {120, 0};
    int fd = socket(w->addr.ss_family, SOCK_STREAM, 0), status = -1;

    if (fd < 0)
        return -1;
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
    snprintf(req, sizeof(req), "GET %s HTTP/1.1\r\nHost: localhost\r\n%s"
             "User-Agent: portdash-warm\r\nConnection: close\r\n\r\n", path,
             body ? "" : "Accept-Encoding: gzip\r\n");
    if (connect(fd, (struct sockaddr *)&w->addr, w->len) < 0 ||
        write(fd, req, strlen(req)) != (ssize_t)strlen(req)) {
        close(fd);
        return -1;
    }
    while ((got = read(fd, buf, sizeof(buf) - 1)) > 0) {
        buf[got] = '\0';
        if (!body) {
            if (!n && sscanf(buf, "HTTP/1.%*d %d", &status) != 1)
                status = -1;
            n += (size_t)got;
            continue;
        }
        if (!(p = realloc(all, n + (size_t)got + 1)))
            break;
        all = p;
        memcpy(all + n, buf, (size_t)got);
        n += (size_t)got;
        all[n] = '\0';
    }
    close(fd);
    if (!body)
        return status;
    if (!all || sscanf(all, "HTTP/1.%*d %d", &status) != 1 || !(p = strstr(all, "\r\n\r\n"))) {
        free(all);
        return -1;
    }
    memmove(all, p + 4, strlen(p + 4) + 1);
    *body = all;
    return status;
}

/* `s` percent-encoded as one path segment into out (size n). */
static void srv_warm_segment(char *out, size_t n, const char *s)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t o = 0;

    for (; *s && o + 4 < n; s++) {
        unsigned char c = (unsigned char)*s;

        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
            c == '-' || c == '_' || c == '.' || c == '~') {
            out[o++] = (char)c;
        } else {
            out[o++] = '%';
            out[o++] = hex[c >> 4];
            out[o++] = hex[c & 15];
        }
    }
    out[o] = '\0';
}

/* The answers of one ref tip (repo and ref already encoded). */
static void srv_warm_ref(srv_warm *w, const char *repo, const char *ref)
{
    static const int points[] = SRV_WARM_POINTS;
    char path[1400];
    size_t i;

    snprintf(path, sizeof(path), "/api/v1/repos/%s/commits/%s/summary", repo, ref);
    srv_warm_get(w, path, NULL);
    snprintf(path, sizeof(path), "/api/v1/repos/%s/commits/%s/files", repo, ref);
    srv_warm_get(w, path, NULL);
    /* The overview's page: the server asks its first screen's answers
     * (srv_first.h), the frontier and the week's histories among them. */
    snprintf(path, sizeof(path), "/index.html?repo=%s&rev=%s", repo, ref);
    srv_warm_get(w, path, NULL);
    /* The overview's trend: trend.mjs's default measure and date. */
    snprintf(path, sizeof(path), "/api/v1/repos/%s/refs/%s/history?measure="
             "object_paths.object-legacy", repo, ref);
    srv_warm_get(w, path, NULL);
    /* What the chart asks: the port's own commits (window=port) at a
     * step of points. */
    for (i = 0; i < sizeof(points) / sizeof(points[0]); i++) {
        snprintf(path, sizeof(path), "/api/v1/repos/%s/refs/%s/history?measure="
                 "object_paths.object-legacy&window=port&points=%d", repo, ref, points[i]);
        srv_warm_get(w, path, NULL);
    }
}

static void srv_warm_round(srv_warm *w)
{
    char *body = NULL, repo[400], ref[800];
    json_t *doc, *r, *f;
    size_t i, j;

    if (srv_warm_get(w, "/api/v1/repos", &body) != 200 ||
        !(doc = json_loads(body, 0, NULL))) {
        free(body);
        return;
    }
    free(body);
    json_array_foreach(doc, i, r) {
        srv_warm_segment(repo, sizeof(repo), json_string_value(json_object_get(r, "name")) ?
                         json_string_value(json_object_get(r, "name")) : "");
        json_array_foreach(json_object_get(r, "refs"), j, f) {
            const char *name = json_string_value(json_object_get(f, "name"));

            pthread_mutex_lock(&w->lock);
            if (w->stop) {
                pthread_mutex_unlock(&w->lock);
                json_decref(doc);
                return;
            }
            pthread_mutex_unlock(&w->lock);
            srv_warm_segment(ref, sizeof(ref), name ? name : "");
            srv_warm_ref(w, repo, ref);
        }
    }
    json_decref(doc);
}

static void *srv_warm_main(void *arg)
{
    srv_warm *w = arg;

    pthread_mutex_lock(&w->lock);
    for (;;) {
        while (!w->pending && !w->stop)
            pthread_cond_wait(&w->wake, &w->lock);
        if (w->stop)
            break;
        w->pending = 0;
        pthread_mutex_unlock(&w->lock);
        srv_warm_round(w);
        pthread_mutex_lock(&w->lock);
        w->rounds++;
    }
    pthread_mutex_unlock(&w->lock);
    return NULL;
}

srv_warm *srv_warm_start(const struct sockaddr *addr, socklen_t len, unsigned short port)
{
    srv_warm *w = calloc(1, sizeof(*w));

    if (!w || len > sizeof(w->addr)) {
        free(w);
        return NULL;
    }
    memcpy(&w->addr, addr, len);
    w->len = len;
    /* A server bound to every address is asked on loopback. */
    if (w->addr.ss_family == AF_INET) {
        struct sockaddr_in *a = (struct sockaddr_in *)&w->addr;

        if (a->sin_addr.s_addr == htonl(INADDR_ANY))
            a->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        a->sin_port = htons(port);
    } else if (w->addr.ss_family == AF_INET6) {
        struct sockaddr_in6 *a = (struct sockaddr_in6 *)&w->addr;

        if (IN6_IS_ADDR_UNSPECIFIED(&a->sin6_addr))
            a->sin6_addr = in6addr_loopback;
        a->sin6_port = htons(port);
    }
    pthread_mutex_init(&w->lock, NULL);
    pthread_cond_init(&w->wake, NULL);
    w->pending = 1;
    if (pthread_create(&w->thread, NULL, srv_warm_main, w) != 0) {
        pthread_mutex_destroy(&w->lock);
        pthread_cond_destroy(&w->wake);
        free(w);
        return NULL;
    }
    return w;
}

void srv_warm_soon(srv_warm *w)
{
    if (!w)
        return;
    pthread_mutex_lock(&w->lock);
    w->pending = 1;
    pthread_cond_signal(&w->wake);
    pthread_mutex_unlock(&w->lock);
}

unsigned srv_warm_rounds(srv_warm *w)
{
    unsigned n;

    if (!w)
        return 0;
    pthread_mutex_lock(&w->lock);
    n = w->rounds;
    pthread_mutex_unlock(&w->lock);
    return n;
}

void srv_warm_stop(srv_warm *w)
{
    if (!w)
        return;
    pthread_mutex_lock(&w->lock);
    w->stop = 1;
    pthread_cond_signal(&w->wake);
    pthread_mutex_unlock(&w->lock);
    pthread_join(w->thread, NULL);
    pthread_mutex_destroy(&w->lock);
    pthread_cond_destroy(&w->wake);
    free(w);
}
