/*
 * stress_conn.c: connection exhaustion against a running `portdash serve`
 * on loopback (issue 16), bounded and self-stopping.  Usage:
 *   stress_conn PORT [HALF_OPEN [BURST [SLOW]]]
 *
 * 1. Slowloris: HALF_OPEN (default 1100) connections from 127.0.0.1 each
 *    send part of a request head and then nothing.  While they are held, a
 *    client from 127.0.0.2 makes 20 requests one after another; each must
 *    be answered.  Then it waits for the server's head deadline to close
 *    the half-open ones (at most 30 s) and counts them.
 * 2. Burst: BURST (default 2000) connections opened at once from twenty
 *    source addresses (127.0.1.1-20), each sending GET /healthz; every one
 *    must get an HTTP answer (200, or 503 when the server is full), none
 *    a silent close.  Bounded by 60 s.
 *
 * 3. Bodies: 60 connections POST a SARIF upload announcing 31 MiB without a
 *    token, without waiting for "100 Continue", and send the body as fast
 *    as the server takes it; each must get 401 (decided from the head; the
 *    body is not read: the answer comes at once and the connection is
 *    closed), and the server's memory stays flat (the run script prints its
 *    peak RSS).  Bounded by 60 s.
 *
 * 4. Slow bodies (issue 27), with SLOW (default 300) and the token in
 *    $STRESS_TOKEN (scopes sarif, triage):
 *    a. SLOW connections from 127.0.2.1-50 send an upload head announcing
 *       31 MiB without a token and then one body byte every 2 s; each must
 *       be answered 401 at once and closed;
 *    b. 16 connections from 127.0.3.1-8 do the same with the token: the
 *       body budget admits a few, the rest are 503 at once, and the server
 *       must close the admitted ones for their rate (408) within 30 s;
 *    while both are held, a client from 127.0.0.3 makes 20 requests (each
 *    must be 200) and, once (b) is closed, an authorized small POST from
 *    127.0.0.4 must be admitted (its answer is not 503).  Bounded by 60 s.
 *
 * Prints one line per phase with the figures and exits 0 when all hold.
 * Timings are printed, never asserted.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A non-blocking socket connecting from `src` to 127.0.0.1:port; -1 on
 * failure. */
static int open_from(const char *src, unsigned port)
{
    struct sockaddr_in a = {0}, b = {0};
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);

    if (fd < 0)
        return -1;
    b.sin_family = AF_INET;
    inet_pton(AF_INET, src, &b.sin_addr);
    if (bind(fd, (struct sockaddr *)&b, sizeof(b)) != 0) {
        close(fd);
        return -1;
    }
    a.sin_family = AF_INET;
    a.sin_port = htons((unsigned short)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&a, sizeof(a)) != 0 && errno != EINPROGRESS) {
        close(fd);
        return -1;
    }
    return fd;
}

/* One blocking GET /healthz from `src`; the status, 0 for no answer. */
static int one_request(const char *src, unsigned port)
{
    static const char req[] = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                              "Connection: close\r\n\r\n";
    struct pollfd p;
    char buf[512];
    size_t len = 0;
    int fd = open_from(src, port), code = 0, sent = 0;
    double end = now() + 10;

    if (fd < 0)
        return 0;
    p.fd = fd;
    while (now() < end) {
        p.events = sent ? POLLIN : POLLOUT;
        if (poll(&p, 1, 200) <= 0)
            continue;
        if (!sent) {
            sent = send(fd, req, sizeof(req) - 1, MSG_NOSIGNAL) == (ssize_t)sizeof(req) - 1;
            if (!sent)
                break;
            continue;
        }
        ssize_t n = recv(fd, buf + len, sizeof(buf) - 1 - len, 0);

        if (n <= 0)
            break;
        len += (size_t)n;
        buf[len] = '\0';
        if (sscanf(buf, "HTTP/1.%*d %d", &code) == 1)
            break;
    }
    close(fd);
    return code;
}

static int slowloris(unsigned port, int n)
{
    static const char part[] = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ";
    int *fds = calloc((size_t)n, sizeof(int)), i, opened = 0, answered = 0, closed = 0;
    struct pollfd *p = calloc((size_t)n, sizeof(*p));
    double t0 = now(), worst = 0, end;

    for (i = 0; i < n; i++) {
        fds[i] = open_from("127.0.0.1", port);
        opened += fds[i] >= 0;
    }
    usleep(300000);
    for (i = 0; i < n; i++)
        if (fds[i] >= 0)
            (void)!send(fds[i], part, sizeof(part) - 1, MSG_NOSIGNAL);
    for (i = 0; i < 20; i++) {
        double t = now();

        answered += one_request("127.0.0.2", port) == 200;
        if (now() - t > worst)
            worst = now() - t;
    }
    /* The head deadline closes the rest. */
    end = now() + 30;
    while (closed < opened && now() < end) {
        int k = 0;

        for (i = 0; i < n; i++)
            if (fds[i] >= 0) {
                p[k].fd = fds[i];
                p[k++].events = POLLIN;
            }
        if (poll(p, (nfds_t)k, 500) <= 0)
            continue;
        for (i = 0; i < k; i++) {
            char buf[256];

            if (!(p[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            if (recv(p[i].fd, buf, sizeof(buf), MSG_DONTWAIT) > 0)
                continue;
            for (int j = 0; j < n; j++)
                if (fds[j] == p[i].fd) {
                    close(fds[j]);
                    fds[j] = -1;
                }
            closed++;
        }
    }
    printf("slowloris: %d half-open held, other client answered %d/20 (slowest %.2f s); "
           "server closed %d/%d of the half-open within %.0f s\n", opened, answered, worst,
           closed, opened, now() - t0);
    for (i = 0; i < n; i++)
        if (fds[i] >= 0)
            close(fds[i]);
    free(fds);
    free(p);
    return answered == 20 && opened == n ? 0 : 1;
}

static int burst(unsigned port, int n)
{
    static const char req[] = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                              "Connection: close\r\n\r\n";
    struct pollfd *p = calloc((size_t)n, sizeof(*p));
    int *state = calloc((size_t)n, sizeof(int)), i, ok = 0, busy = 0, other = 0, silent = 0;
    int other_code = 0;
    int pending = 0, failed = 0;
    char src[32];
    double t0 = now(), end = t0 + 60;

    for (i = 0; i < n; i++) {
        snprintf(src, sizeof(src), "127.0.1.%d", 1 + i % 20);
        p[i].fd = open_from(src, port);
        p[i].events = POLLOUT;
        if (p[i].fd < 0) {
            failed++;
            state[i] = 3;
            p[i].fd = -1;
        }
    }
    for (pending = n - failed; pending > 0 && now() < end;) {
        if (poll(p, (nfds_t)n, 500) <= 0)
            continue;
        for (i = 0; i < n; i++) {
            char buf[256];
            int code = 0;
            ssize_t r;

            if (p[i].fd < 0 || !p[i].revents)
                continue;
            if (state[i] == 0 && (p[i].revents & POLLOUT)) {
                state[i] = send(p[i].fd, req, sizeof(req) - 1, MSG_NOSIGNAL) > 0 ? 1 : 2;
                p[i].events = POLLIN;
                if (state[i] == 1)
                    continue;
            }
            r = state[i] == 1 ? recv(p[i].fd, buf, sizeof(buf) - 1, 0) : -1;
            if (r > 0) {
                buf[r] = '\0';
                sscanf(buf, "HTTP/1.%*d %d", &code);
            }
            if (code == 200)
                ok++;
            else if (code == 503)
                busy++;
            else if (code)
                other++, other_code = code;
            else
                silent++;
            close(p[i].fd);
            p[i].fd = -1;
            pending--;
        }
    }
    printf("burst: %d connections: %d answered 200, %d answered 503, %d other (%d), "
           "%d closed without an answer, %d not connected, %d unfinished, %.1f s\n",
           n, ok, busy, other, other_code, silent, failed, pending, now() - t0);
    for (i = 0; i < n; i++)
        if (p[i].fd >= 0)
            close(p[i].fd);
    free(p);
    free(state);
    return silent == 0 && failed == 0 && pending == 0 && other == 0 && ok > 0 ? 0 : 1;
}

static int bodies(unsigned port, int n)
{
    static char chunk[65536];
    char head[256];
    struct pollfd *p = calloc((size_t)n, sizeof(*p));
    size_t *sent = calloc((size_t)n, sizeof(size_t)), total = (size_t)31 << 20, all = 0;
    int i, pending = n, refused = 0, other = 0;
    double t0 = now(), end = t0 + 60;

    snprintf(head, sizeof(head), "POST /api/v1/repos/demo/commits/hpy/sarif HTTP/1.1\r\n"
             "Host: 127.0.0.1\r\nContent-Type: application/json\r\n"
             "Content-Length: %zu\r\n\r\n", total);
    memset(chunk, '[', sizeof(chunk));
    for (i = 0; i < n; i++) {
        p[i].fd = open_from("127.0.0.1", port);
        p[i].events = POLLOUT | POLLIN;
        if (p[i].fd < 0)
            pending--, other++;
    }
    while (pending > 0 && now() < end) {
        if (poll(p, (nfds_t)n, 500) <= 0)
            continue;
        for (i = 0; i < n; i++) {
            char buf[256];
            int code = 0;
            ssize_t r;

            if (p[i].fd < 0 || !p[i].revents)
                continue;
            if (p[i].revents & POLLIN) {
                r = recv(p[i].fd, buf, sizeof(buf) - 1, 0);
                if (r > 0) {
                    buf[r] = '\0';
                    sscanf(buf, "HTTP/1.%*d %d", &code);
                }
                refused += code == 401;
                other += code != 401;
                close(p[i].fd);
                p[i].fd = -1;
                pending--;
                continue;
            }
            /* sent[i]: 0 before the head, then 1 + body bytes sent. */
            if (!sent[i])
                r = send(p[i].fd, head, strlen(head), MSG_NOSIGNAL) > 0 ? 1 : -1;
            else if (sent[i] - 1 < total)
                r = send(p[i].fd, chunk, sizeof(chunk) < total - (sent[i] - 1)
                         ? sizeof(chunk) : total - (sent[i] - 1), MSG_NOSIGNAL);
            else
                r = 0, p[i].events = POLLIN;
            if (r > 0) {
                sent[i] += (size_t)r;
                all += sent[i] > 1 ? (size_t)r : 0;
            } else if (r < 0 && errno != EAGAIN) {
                p[i].events = POLLIN;    /* closed on us: read the answer */
            }
        }
    }
    printf("bodies: %d unauthenticated uploads announcing 31 MiB: %d answered 401, "
           "%d other, %d unfinished; %.1f MiB sent in all, %.1f s\n", n, refused, other,
           pending, all / 1048576.0, now() - t0);
    for (i = 0; i < n; i++)
        if (p[i].fd >= 0)
            close(p[i].fd);
    free(p);
    free(sent);
    return refused == n ? 0 : 1;
}

/* One slow-body connection: the head sent, then a byte now and then. */
typedef struct {
    int fd;
    int code;          /* answer read, 0: none yet, -1: closed without one */
} slow_conn;

/* Read what answers have come on `c` (n of them) within `ms`. */
static void slow_poll(slow_conn *c, int n, int ms)
{
    struct pollfd *p = calloc((size_t)n, sizeof(*p));
    int i;

    for (i = 0; i < n; i++) {
        p[i].fd = c[i].code ? -1 : c[i].fd;
        p[i].events = POLLIN;
    }
    if (poll(p, (nfds_t)n, ms) > 0)
        for (i = 0; i < n; i++) {
            char buf[512];
            ssize_t r;

            if (p[i].fd < 0 || !p[i].revents)
                continue;
            r = recv(c[i].fd, buf, sizeof(buf) - 1, MSG_DONTWAIT);
            if (r > 0) {
                buf[r] = '\0';
                if (sscanf(buf, "HTTP/1.%*d %d", &c[i].code) != 1)
                    c[i].code = -1;
            } else if (r == 0 || errno != EAGAIN) {
                c[i].code = -1;
            }
        }
    free(p);
}

/* Open n slow uploads from 127.0.BLOCK.1..addrs, with `token` or none. */
static slow_conn *slow_open(unsigned port, int n, int block, int addrs, const char *token)
{
    slow_conn *c = calloc((size_t)n, sizeof(*c));
    char head[512], auth[160] = "", src[32];
    int i;

    if (token)
        snprintf(auth, sizeof(auth), "Authorization: Bearer %s\r\n", token);
    snprintf(head, sizeof(head), "POST /api/v1/repos/demo/commits/hpy/sarif HTTP/1.1\r\n"
             "Host: 127.0.0.1\r\n%sContent-Length: %d\r\n\r\n[", auth, 31 << 20);
    for (i = 0; i < n; i++) {
        snprintf(src, sizeof(src), "127.0.%d.%d", block, 1 + i % addrs);
        c[i].fd = open_from(src, port);
    }
    usleep(300000);
    for (i = 0; i < n; i++)
        if (c[i].fd < 0 || send(c[i].fd, head, strlen(head), MSG_NOSIGNAL) <= 0)
            c[i].code = -1;
    return c;
}

/* Count of c's answers equal to `code` (0: not answered yet). */
static int slow_count(const slow_conn *c, int n, int code)
{
    int i, k = 0;

    for (i = 0; i < n; i++)
        k += c[i].code == code;
    return k;
}

/* One small authorized POST from `src`: its status (0: none). */
static int small_post(const char *src, unsigned port, const char *token)
{
    char req[512], buf[512];
    int fd = open_from(src, port), code = 0;
    struct pollfd p;
    ssize_t r;

    if (fd < 0)
        return 0;
    snprintf(req, sizeof(req), "POST /api/v1/repos/demo/dismissals HTTP/1.1\r\nHost: "
             "127.0.0.1\r\nAuthorization: Bearer %s\r\nContent-Length: 2\r\n"
             "Connection: close\r\n\r\n{}", token);
    p.fd = fd;
    p.events = POLLOUT;
    if (poll(&p, 1, 5000) > 0 && send(fd, req, strlen(req), MSG_NOSIGNAL) > 0) {
        p.events = POLLIN;
        if (poll(&p, 1, 10000) > 0 && (r = recv(fd, buf, sizeof(buf) - 1, 0)) > 0) {
            buf[r] = '\0';
            sscanf(buf, "HTTP/1.%*d %d", &code);
        }
    }
    close(fd);
    return code;
}

static int slow_bodies(unsigned port, int n, const char *token)
{
    slow_conn *a = slow_open(port, n, 2, 50, NULL), *b = NULL;
    int i, answered = 0, nb = token ? 16 : 0, post = 0, ok;
    double t0 = now(), worst = 0, end = t0 + 60, closed_b = 0;

    if (token)
        b = slow_open(port, nb, 3, 8, token);
    for (i = 0; i < 20; i++) {
        double t = now();

        answered += one_request("127.0.0.3", port) == 200;
        worst = now() - t > worst ? now() - t : worst;
        slow_poll(a, n, 0);
        if (b)
            slow_poll(b, nb, 0);
    }
    /* One byte every 2 s on what is still open, until all is answered. */
    while (now() < end && (slow_count(a, n, 0) || (b && slow_count(b, nb, 0)))) {
        for (i = 0; i < n; i++)
            if (!a[i].code)
                (void)!send(a[i].fd, "[", 1, MSG_NOSIGNAL | MSG_DONTWAIT);
        for (i = 0; i < nb; i++)
            if (!b[i].code)
                (void)!send(b[i].fd, "[", 1, MSG_NOSIGNAL | MSG_DONTWAIT);
        slow_poll(a, n, 1000);
        if (b)
            slow_poll(b, nb, 1000);
    }
    if (b && !slow_count(b, nb, 0)) {
        closed_b = now() - t0;
        post = small_post("127.0.0.4", port, token);
    }
    printf("slow bodies: %d unauthenticated: %d answered 401, %d 503 (server full), %d "
           "other, %d unanswered; other client answered %d/20 (slowest %.2f s)\n", n,
           slow_count(a, n, 401), slow_count(a, n, 503), n - slow_count(a, n, 401) -
           slow_count(a, n, 503) - slow_count(a, n, 0), slow_count(a, n, 0), answered, worst);
    if (b)
        printf("slow bodies: %d with a token: %d admitted then closed 408, %d answered "
               "503, %d other, %d still open; all closed after %.1f s; then a small "
               "authorized POST answered %d\n", nb, slow_count(b, nb, 408),
               slow_count(b, nb, 503), nb - slow_count(b, nb, 408) - slow_count(b, nb, 503)
               - slow_count(b, nb, 0), slow_count(b, nb, 0), closed_b, post);
    ok = slow_count(a, n, 401) == n && answered == 20 &&
         (!b || (slow_count(b, nb, 0) == 0 && slow_count(b, nb, 408) > 0 &&
                 slow_count(b, nb, 408) + slow_count(b, nb, 503) == nb && post && post != 503));
    for (i = 0; i < n; i++)
        if (a[i].fd >= 0)
            close(a[i].fd);
    for (i = 0; i < nb; i++)
        if (b[i].fd >= 0)
            close(b[i].fd);
    free(a);
    free(b);
    return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
    struct rlimit rl;
    unsigned port;
    int half = argc > 2 ? atoi(argv[2]) : 1100, n = argc > 3 ? atoi(argv[3]) : 2000, rc;
    int slow = argc > 4 ? atoi(argv[4]) : 300;

    if (argc < 2) {
        fprintf(stderr, "usage: stress_conn PORT [HALF_OPEN [BURST [SLOW]]]\n");
        return 2;
    }
    port = (unsigned)atoi(argv[1]);
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    rc = half ? slowloris(port, half) : 0;
    rc |= burst(port, n);
    rc |= n > 1 ? bodies(port, 60) : 0;
    rc |= slow > 0 ? slow_bodies(port, slow, getenv("STRESS_TOKEN")) : 0;
    return rc;
}
