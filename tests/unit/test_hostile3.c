/*
 * test_hostile3.c: the server under the third probe (issue 27): revisions
 * that are computations (the grammar of pd_rev.h, tests/fixtures/revisions
 * /cases.txt), the work budget of an answer and of a stopping server
 * (srv_budget.h), heads whose framing two readers would read differently
 * (srv_head.h), body limits per route, per_page maxima, an upload answered
 * while the server stops, and a database file replaced under the server
 * (srv_db.h).  The slow bodies are in tests/stress/ (they take seconds).
 */
#include "testutil.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>

#include "db.h"
#include "db_token.h"
#include "pd_rev.h"
#include "srv_budget.h"

static tu_site g_site;
static char g_tok[DB_TOKEN_LEN + 1];

static double h3_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A connected socket to `port` (10 s receive timeout). */
static int h3_connect(unsigned port)
{
    struct sockaddr_in a = {0};
    struct timeval tv = {10, 0};
    int fd = socket(AF_INET, SOCK_STREAM, 0);

    assert_true(fd >= 0);
    a.sin_family = AF_INET;
    a.sin_port = htons((unsigned short)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    assert_int_equal(connect(fd, (struct sockaddr *)&a, sizeof(a)), 0);
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
    return fd;
}

/* Everything until the server closes (or 10 s); caller frees. */
static char *h3_read_all(int fd)
{
    size_t len = 0, cap = 65536;
    char *buf = malloc(cap);
    ssize_t n;

    while ((n = recv(fd, buf + len, cap - len - 1, 0)) > 0) {
        len += (size_t)n;
        if (len + 1 >= cap)
            buf = realloc(buf, cap *= 2);
    }
    buf[len] = '\0';
    return buf;
}

/* Send `req` (n bytes) raw to the site's server; the whole answer. */
static char *h3_raw(const char *req, size_t n)
{
    int fd = h3_connect(srv_port(g_site.server));
    char *out;

    assert_int_equal(send(fd, req, n, MSG_NOSIGNAL), (ssize_t)n);
    out = h3_read_all(fd);
    close(fd);
    return out;
}

static int h3_status(const char *answer)
{
    int code = 0;

    return sscanf(answer, "HTTP/1.%*d %d", &code) == 1 ? code : 0;
}

static int setup(void **state)
{
    sqlite3 *db = NULL;
    int rc;

    tu_site_init(&g_site, "hostile3.db");
    if (tu_site_ingest(&g_site, "toyport", "demo", "hpy") < 0)
        return -1;
    rc = db_open(&db, g_site.db, 0) < 0 || db_token_create(db, g_tok, "all", NULL) < 0;
    db_close(db);
    return rc || tu_site_serve(&g_site, NULL) < 0 ? -1 : 0;
}

static int teardown(void **state)
{
    tu_site_free(&g_site);
    return 0;
}

/* A case's revision with \t, \n and \xHH written out (\\ is one '\'). */
static void h3_unescape(char *s)
{
    char *o = s;
    unsigned v;

    while (*s) {
        if (s[0] == '\\' && s[1] == 't')
            *o++ = '\t', s += 2;
        else if (s[0] == '\\' && s[1] == 'n')
            *o++ = '\n', s += 2;
        else if (s[0] == '\\' && s[1] == '\\')
            *o++ = '\\', s += 2;
        else if (s[0] == '\\' && s[1] == 'x' && sscanf(s + 2, "%2x", &v) == 1)
            *o++ = (char)v, s += 4;
        else
            *o++ = *s++;
    }
    *o = '\0';
}

static void test_revision_grammar_cases(void **state)
{
    FILE *f = fopen("tests/fixtures/revisions/cases.txt", "r");
    char line[1024];
    int n = 0;

    assert_non_null(f);
    while (fgets(line, sizeof(line), f)) {
        char *want, *rev, *rule, *save = NULL;
        int rc;

        line[strcspn(line, "\n")] = '\0';
        if (!line[0] || line[0] == '#')
            continue;
        want = strtok_r(line, "\t", &save);
        rev = save;                       /* may be empty */
        rule = strchr(rev, '\t');
        if (rule)
            *rule++ = '\0';
        h3_unescape(rev);
        rc = pd_rev_check(rev);
        if (strcmp(want, "ok") == 0 && rc != 0)
            fail_msg("'%s' refused: %s", rev, pd_error_last());
        if (strcmp(want, "bad") == 0) {
            if (rc != PD_EINVAL)
                fail_msg("'%s' accepted", rev);
            if (!rule || !strstr(pd_error_last(), rule))
                fail_msg("'%s': '%s' does not name '%s'", rev, pd_error_last(),
                         rule ? rule : "?");
        }
        n++;
    }
    fclose(f);
    assert_true(n >= 50);
    /* Over-long names are refused whole, never cut. */
    memset(line, 'a', 300);
    line[300] = '\0';
    assert_int_equal(pd_rev_check(line), PD_EINVAL);
    assert_int_equal(pd_ref_name_check("hpy~1"), PD_EINVAL);
    assert_int_equal(pd_ref_name_check("ss/np-zeros-1"), 0);
}

typedef struct {
    const char *path;
    long status;
    double seconds;
} h3_get;

static void *h3_get_thread(void *arg)
{
    h3_get *g = arg;
    char url[2048];
    double t = h3_now();
    tu_http h;

    snprintf(url, sizeof(url), "%s%s", g_site.base, g->path);
    h = tu_request("GET", url);
    g->status = h.status;
    g->seconds = h3_now() - t;
    tu_http_free(&h);
    return NULL;
}

/* The probe's regex revision and its kin: 400 naming the rule, at once,
 * six at a time while another client is answered; valid forms still work. */
static void test_revision_searches_are_refused(void **state)
{
    static const char *const bad[] = {
        "/api/v1/repos/demo/gate?base=hpy&head=hpy%5E%7B%2F(.*)(.*)(.*)(.*)(.*)(.*)"
        "%5C6%5C5%5C4%5C3%5C2%5C1zz%7D",
        "/api/v1/repos/demo/gate?base=hpy%5E%7B%2Ffix%7D&head=hpy",
        "/api/v1/repos/demo/gate?base=hpy&head=%3A%2Ffix",
        "/api/v1/repos/demo/gate?base=hpy&head=hpy%40%7B1%7D",
        "/api/v1/repos/demo/gate?base=hpy&head=hpy..hpy",
        "/api/v1/repos/demo/commits/hpy%5E%7B%2Ffix%7D/summary",
        "/api/v1/repos/demo/commits/hpy:src%2Ftoyarray.c",
        "/api/v1/repos/demo/compare/hpy...hpy%40%7B-1%7D",
        "/api/v1/repos/demo/refs/hpy%5E%7B%2Fx%7D/history",
        "/badge/demo/hpy%5E%7B%2Fx%7D/functions.ported.svg",
        "/api/v1/repos/demo/forecast?ref=hpy%5E%7B%2Fx%7D",
    };
    pthread_t th[6];
    h3_get g[6], other = {"/healthz", 0, 0};
    json_t *doc;
    size_t i;

    for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        h3_get one = {bad[i], 0, 0};

        h3_get_thread(&one);
        if (one.status != 400)
            fail_msg("%s: %ld", bad[i], one.status);
    }
    doc = tu_site_get(&g_site, bad[0], 400);
    assert_non_null(strstr(json_string_value(json_object_get(doc, "detail")),
                           "only ~N and ^N"));
    json_decref(doc);
    for (i = 0; i < 6; i++) {
        g[i].path = bad[0];
        pthread_create(&th[i], NULL, h3_get_thread, &g[i]);
    }
    h3_get_thread(&other);
    for (i = 0; i < 6; i++) {
        pthread_join(th[i], NULL);
        assert_int_equal(g[i].status, 400);
        assert_true(g[i].seconds < 5);
    }
    assert_int_equal(other.status, 200);
    /* What the grammar keeps: a gate of hpy~1 (read from git), ids. */
    json_decref(tu_site_get(&g_site, "/api/v1/repos/demo/gate?base=hpy~1&head=hpy", 200));
    json_decref(tu_site_get(&g_site, "/api/v1/repos/demo/gate?base=hpy%5E&head=hpy", 200));
    json_decref(tu_site_get(&g_site, "/api/v1/repos/demo/commits/hpy/summary", 200));
}

/* An upload to a revision outside the grammar is refused from its head,
 * as is a ref to ingest that is not a ref name. */
static void test_revision_refused_before_bodies(void **state)
{
    char req[1024], auth[160], url[512];
    const char *hdr[] = {auth, "Content-Type: application/json", NULL};
    const char *body = "{\"refs\": [\"hpy^{/x}\"]}";
    char *out;
    tu_http h;

    snprintf(req, sizeof(req), "POST /api/v1/repos/demo/commits/hpy%%40%%7B1%%7D/sarif "
             "HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer %s\r\n"
             "Content-Length: 1000000\r\n\r\n", g_tok);
    out = h3_raw(req, strlen(req));
    assert_int_equal(h3_status(out), 400);
    assert_non_null(strstr(out, "'@{'"));
    free(out);
    snprintf(auth, sizeof(auth), "Authorization: Bearer %s", g_tok);
    snprintf(url, sizeof(url), "%s/api/v1/repos/demo/ingest", g_site.base);
    h = tu_post(url, hdr, body, strlen(body));
    assert_int_equal(h.status, 400);
    assert_non_null(strstr(h.body, "refs[0] is not a ref name: revision 'hpy^{/x}' refused: "
                                   "a ref name has no '~' or '^'"));
    tu_http_free(&h);
}

/* What a bot passes on the command line is checked the same way: the
 * gate's exit status 2 (could not run) naming the rule, the ingest's 1. */
static void test_revision_options_of_the_cli(void **state)
{
    const char *fx = getenv("PORTDASH_FIXTURES");
    char bin[4096], cwd[2048] = "", *out;

    if (!getcwd(cwd, sizeof(cwd)))
        cwd[0] = '\0';
    snprintf(bin, sizeof(bin), "%s%s%s/../portdash", fx && fx[0] == '/' ? "" : cwd,
             fx && fx[0] == '/' ? "" : "/", fx ? fx : "build-san/fixtures");
    out = tu_sh_out("'%s' gate --git-dir '%s' --base hpy --head 'hpy^{/(.*)(.*)\\1zz}' "
                    "2>&1; echo \"rc=$?\"", bin, tu_fixture("toyport"));
    assert_non_null(strstr(out, "only ~N and ^N"));
    assert_non_null(strstr(out, "rc=2"));
    free(out);
    out = tu_sh_out("'%s' gate --git-dir '%s' --base 'hpy~1' --head hpy >/dev/null 2>&1; "
                    "echo \"rc=$?\"", bin, tu_fixture("toyport"));
    assert_true(strstr(out, "rc=0") || strstr(out, "rc=1"));
    free(out);
    out = tu_sh_out("'%s' ingest --db '%s/cli.db' --git-dir '%s' --name d --ref ':/x' "
                    "2>&1; echo \"rc=$?\"", bin, g_site.dir, tu_fixture("toyport"));
    assert_non_null(strstr(out, "':' (a path in a tree"));
    assert_null(strstr(out, "rc=0"));
    free(out);
}

/* The budget: SQLite work is cut at the deadline and when the server
 * stops, whichever comes first. */
static void test_budget_cuts_sqlite_work(void **state)
{
    static const char *endless = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL "
                                 "SELECT x + 1 FROM c) SELECT count(*) FROM c";
    volatile int stopping = 0;
    sqlite3 *db = NULL;
    double t;
    int rc;

    assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
    sqlite3_progress_handler(db, 1000, srv_budget_progress, NULL);
    srv_budget_begin(0.3, &stopping);
    t = h3_now();
    rc = sqlite3_exec(db, endless, NULL, NULL, NULL);
    assert_int_equal(rc, SQLITE_INTERRUPT);
    assert_true(h3_now() - t < 3);
    assert_int_equal(srv_budget_over(), 1);
    assert_int_equal(srv_budget_stopping(), 0);
    srv_budget_begin(1000, &stopping);
    stopping = 1;
    t = h3_now();
    assert_int_equal(sqlite3_exec(db, endless, NULL, NULL, NULL), SQLITE_INTERRUPT);
    assert_true(h3_now() - t < 1);
    assert_int_equal(srv_budget_stopping(), 1);
    srv_budget_end();
    assert_int_equal(srv_budget_over(), 0);
    sqlite3_close(db);
}

/* Heads nginx refuses (deploy/nginx): 400 (501 for an unknown coding),
 * with Connection: close, since what follows cannot be told apart. */
static void test_ambiguous_heads_are_refused(void **state)
{
    static const struct {
        const char *head;
        int status;
        const char *why;
    } cases[] = {
        {"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\n",
         400, "more than one Host"},
        {"GET /healthz HTTP/1.1\r\nHost : 127.0.0.1\r\n", 400, "space before the colon"},
        {"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A : b\r\n", 400,
         "space before the colon"},
        {"POST /api/v1/repos/demo/dismissals HTTP/1.1\r\nHost: 127.0.0.1\r\n"
         "Content-Length: 5\r\nContent-Length: 6\r\n\r\nhello!", 400,
         "more than one Content-Length"},
        {"POST /api/v1/repos/demo/dismissals HTTP/1.1\r\nHost: 127.0.0.1\r\n"
         "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400,
         "Content-Length together with Transfer-Encoding"},
        {"POST /api/v1/repos/demo/dismissals HTTP/1.1\r\nHost: 127.0.0.1\r\n"
         "Transfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n", 501, "only Transfer-Encoding"},
        /* a bare CR inside a value (RFC 9110 section 5.5; a trial) */
        {"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: a\rb\r\n", 400,
         "a header value has a control character"},
        {"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: a\x01b\r\n", 400,
         "a header value has a control character"},
    };
    char req[1024], *out;
    size_t i;

    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        snprintf(req, sizeof(req), "%s%s", cases[i].head,
                 strstr(cases[i].head, "\r\n\r\n") ? "" : "Connection: keep-alive\r\n\r\n");
        out = h3_raw(req, strlen(req));
        if (h3_status(out) != cases[i].status || !strstr(out, cases[i].why) ||
            !strstr(out, "Connection: close"))
            fail_msg("case %zu: %s", i, out);
        free(out);
    }
}

/* Small JSON routes take 64 KiB; the upload keeps its own bound; a route
 * without a body takes none. */
static void test_body_limits_per_route(void **state)
{
    static const char *const small[] = {"/api/v1/repos/demo/ingest",
                                        "/api/v1/repos/demo/dismissals"};
    char req[1024], *out;
    size_t i;

    for (i = 0; i < 2; i++) {
        snprintf(req, sizeof(req), "POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: "
                 "Bearer %s\r\nContent-Length: %d\r\n\r\n", small[i], g_tok, 64 * 1024 + 1);
        out = h3_raw(req, strlen(req));
        if (h3_status(out) != 413 || !strstr(out, "limit of 65536 bytes"))
            fail_msg("%s: %s", small[i], out);
        free(out);
    }
    /* Chunked: the 64 KiB are counted as the chunks come. */
    {
        size_t n = 70 * 1024, len = 0;
        char *big = malloc(n + 1024);

        tu_append(big, 1024, &len, "POST /api/v1/repos/demo/dismissals HTTP/1.1\r\n"
                  "Host: 127.0.0.1\r\nAuthorization: Bearer %s\r\nTransfer-Encoding: "
                  "chunked\r\n\r\n%zx\r\n", g_tok, n);
        memset(big + len, ' ', n);
        len += n;
        memcpy(big + len, "\r\n0\r\n\r\n", 7);
        out = h3_raw(big, len + 7);
        assert_int_equal(h3_status(out), 413);
        free(out);
        free(big);
    }
    snprintf(req, sizeof(req), "POST /api/v1/repos/demo/commits/hpy/sarif HTTP/1.1\r\n"
             "Host: 127.0.0.1\r\nAuthorization: Bearer %s\r\nExpect: 100-continue\r\n"
             "Content-Length: %d\r\n\r\n", g_tok, 1 << 20);
    {
        int fd = h3_connect(srv_port(g_site.server));
        char buf[64] = "";

        assert_int_equal(send(fd, req, strlen(req), MSG_NOSIGNAL), (ssize_t)strlen(req));
        assert_true(recv(fd, buf, sizeof(buf) - 1, 0) > 0);
        assert_int_equal(strncmp(buf, "HTTP/1.1 100", 12), 0);
        close(fd);
    }
}

/* A connection from `src` to `port` (10 s receive timeout). */
static int h3_connect_from(const char *src, unsigned port)
{
    struct sockaddr_in a = {0}, b = {0};
    struct timeval tv = {10, 0};
    int fd = socket(AF_INET, SOCK_STREAM, 0);

    b.sin_family = AF_INET;
    inet_pton(AF_INET, src, &b.sin_addr);
    assert_int_equal(bind(fd, (struct sockaddr *)&b, sizeof(b)), 0);
    a.sin_family = AF_INET;
    a.sin_port = htons((unsigned short)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    assert_int_equal(connect(fd, (struct sockaddr *)&a, sizeof(a)), 0);
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
    return fd;
}

/* An upload head of `clen` bytes from `src` waiting for 100 Continue: the
 * socket, and the status of the first answer in *code. */
static int h3_upload_head(srv *s, const char *src, size_t clen, int *code)
{
    char req[512], buf[256] = "";
    int fd = h3_connect_from(src, srv_port(s));

    snprintf(req, sizeof(req), "POST /api/v1/repos/demo/commits/hpy/sarif HTTP/1.1\r\n"
             "Host: 127.0.0.1\r\nAuthorization: Bearer %s\r\nExpect: 100-continue\r\n"
             "Content-Length: %zu\r\n\r\n", g_tok, clen);
    assert_int_equal(send(fd, req, strlen(req), MSG_NOSIGNAL), (ssize_t)strlen(req));
    assert_true(recv(fd, buf, sizeof(buf) - 1, 0) > 0);
    *code = h3_status(buf);
    return fd;
}

/* Bodies in flight are bounded per client address (half the budget, at
 * least one largest body), and a body has a deadline (408, closed). */
static void test_bodies_per_client_and_deadline(void **state)
{
    srv_options so = {0};
    srv *s = NULL;
    int fd[6], i, code;
    double t;
    char *out;

    so.db_path = g_site.db;
    so.listen = "127.0.0.1:0";
    so.static_dir = "static";
    so.threads = 2;
    so.no_warm = 1;
    so.max_body = 1000;
    so.body_budget = 10000;
    so.body_timeout = 2;
    assert_int_equal(srv_start(&s, &so), 0);
    for (i = 0; i < 5; i++) {
        fd[i] = h3_upload_head(s, "127.0.0.1", 1000, &code);
        assert_int_equal(code, 100);
    }
    fd[5] = h3_upload_head(s, "127.0.0.1", 1000, &code);
    assert_int_equal(code, 503);
    close(fd[5]);
    /* Another address still has its share. */
    fd[5] = h3_upload_head(s, "127.0.0.2", 1000, &code);
    assert_int_equal(code, 100);
    /* Nothing more comes: each is closed at the deadline with a 408. */
    t = h3_now();
    out = h3_read_all(fd[0]);
    assert_int_equal(h3_status(out), 408);
    assert_non_null(strstr(out, "the request body came too slowly"));
    assert_true(h3_now() - t < 8);
    free(out);
    for (i = 0; i < 6; i++)
        close(fd[i]);
    srv_stop(s);
}

/* A repository with one file of `n` functions, ingested as "big". */
static void h3_big_repo(int n)
{
    char dir[4200], src[4300];
    FILE *f;
    ingest_options o = {0};
    const char *refs[] = {"hpy"};
    int i;

    snprintf(dir, sizeof(dir), "%s/big", g_site.dir);
    assert_int_equal(tu_sh("git init -q -b hpy '%s'", dir), 0);
    snprintf(src, sizeof(src), "%s/big.c", dir);
    assert_non_null(f = fopen(src, "w"));
    for (i = 0; i < n; i++)
        fprintf(f, "int f%d(void) { return %d; }\n", i, i);
    fclose(f);
    assert_int_equal(tu_sh("cd '%s' && git add big.c && GIT_AUTHOR_DATE=2021-01-01T00:00:00Z "
                           "GIT_COMMITTER_DATE=2021-01-01T00:00:00Z git -c user.name=t "
                           "-c user.email=t@t commit -q -m big", dir), 0);
    snprintf(src, sizeof(src), "%s/.git", dir);
    o.db_path = g_site.db;
    o.repo_path = src;
    o.name = "big";
    o.refs = refs;
    o.nrefs = 1;
    if (ingest_run(&o, NULL) < 0)
        fail_msg("ingest: %s", pd_error_last());
}

/* per_page is cut to what one answer of the route may hold: a file page
 * 5,000 (once 50,000: 313 MB of server memory). */
static void test_per_page_maxima(void **state)
{
    json_t *doc;

    h3_big_repo(5003);
    doc = tu_site_get(&g_site, "/api/v1/repos/big/commits/hpy/files/big.c?per_page=50000",
                      200);
    assert_int_equal(json_integer_value(json_object_get(doc, "per_page")), 5000);
    assert_int_equal(json_array_size(json_object_get(doc, "functions")), 5000);
    assert_true(json_is_true(json_object_get(doc, "truncated")));
    assert_int_equal(json_integer_value(json_object_get(doc, "functions_total")), 5003);
    json_decref(doc);
    doc = tu_site_get(&g_site, "/api/v1/repos/big/commits/hpy/files/big.c?page=2", 200);
    assert_int_equal(json_array_size(json_object_get(doc, "functions")), 3);
    json_decref(doc);
}

/* A SARIF log of `n` results on src/toyarray.c (caller frees). */
static char *h3_sarif(int n, size_t *len)
{
    size_t cap = (size_t)n * 200 + 256, l = 0;
    char *s = malloc(cap);
    int i;

    l += (size_t)snprintf(s + l, cap - l, "{\"version\":\"2.1.0\",\"runs\":[{\"tool\":"
                          "{\"driver\":{\"name\":\"stop\"}},\"results\":[");
    for (i = 0; i < n; i++)
        l += (size_t)snprintf(s + l, cap - l, "%s{\"ruleId\":\"R%d\",\"message\":{\"text\":"
                              "\"m%d\"},\"locations\":[{\"physicalLocation\":{"
                              "\"artifactLocation\":{\"uri\":\"src/toyarray.c\"},"
                              "\"region\":{\"startLine\":%d}}}]}", i ? "," : "", i % 50,
                              i, 1 + i % 40);
    l += (size_t)snprintf(s + l, cap - l, "]}]}");
    *len = l;
    return s;
}

/* An upload whose body is in when the server is told to stop is answered:
 * 201 when its import committed, 503 when the stop cut it; never a close
 * without a word (the probe's SIGTERM during an upload). */
static void test_upload_during_stop_is_answered(void **state)
{
    static const int delays_ms[] = {0, 5, 50, 300, 1500};
    size_t blen, i;
    char *body = h3_sarif(4000, &blen), head[512];

    for (i = 0; i < sizeof(delays_ms) / sizeof(delays_ms[0]); i++) {
        srv_options so = {0};
        srv *s = NULL;
        char buf[64] = "", *out;
        int fd, code;

        so.db_path = g_site.db;
        so.listen = "127.0.0.1:0";
        so.static_dir = "static";
        so.threads = 2;
        so.no_warm = 1;
        assert_int_equal(srv_start(&s, &so), 0);
        snprintf(head, sizeof(head), "POST /api/v1/repos/demo/commits/hpy/sarif HTTP/1.1\r\n"
                 "Host: 127.0.0.1\r\nAuthorization: Bearer %s\r\nExpect: 100-continue\r\n"
                 "Content-Length: %zu\r\n\r\n", g_tok, blen);
        fd = h3_connect(srv_port(s));
        assert_int_equal(send(fd, head, strlen(head), MSG_NOSIGNAL), (ssize_t)strlen(head));
        assert_true(recv(fd, buf, sizeof(buf) - 1, 0) > 0);   /* 100 Continue: admitted */
        assert_int_equal(send(fd, body, blen, MSG_NOSIGNAL), (ssize_t)blen);
        usleep((useconds_t)delays_ms[i] * 1000);
        srv_stop(s);
        out = h3_read_all(fd);
        close(fd);
        /* The rest of "100 Continue" may come first. */
        code = h3_status(strncmp(out, "HTTP/1.1 100", 12) == 0 && strstr(out, "\r\n\r\n")
                         ? strstr(out, "\r\n\r\n") + 4 : out);
        print_message("stop %d ms after the body: %d\n", delays_ms[i], code);
        if (code != 201 && code != 503)
            fail_msg("stop after %d ms: '%s'", delays_ms[i], out);
        free(out);
    }
    free(body);
}

/* Replace the database file under the server: the next answers come from
 * the new file (no stale cached answer), and /healthz reads the file. */
static void test_replaced_database(void **state)
{
    char copy[4400], garbage[4400];
    json_t *doc;
    tu_site site;
    FILE *f;

    tu_site_init(&site, "replace.db");
    assert_int_equal(tu_site_ingest(&site, "toyport", "demo", "hpy"), 0);
    assert_int_equal(tu_site_serve(&site, NULL), 0);
    doc = tu_site_get(&site, "/api/v1/repos", 200);
    assert_string_equal(json_string_value(json_object_get(json_array_get(doc, 0), "name")),
                        "demo");
    json_decref(doc);
    /* A copy with the repository renamed, moved over the file. */
    snprintf(copy, sizeof(copy), "%s/new.db", site.dir);
    assert_int_equal(tu_sh("cp '%s' '%s' && sqlite3 '%s' \"UPDATE repos SET name = "
                           "'renamed'\" && mv '%s' '%s'", site.db, copy, copy, copy,
                           site.db), 0);
    doc = tu_site_get(&site, "/api/v1/repos", 200);
    assert_string_equal(json_string_value(json_object_get(json_array_get(doc, 0), "name")),
                        "renamed");
    json_decref(doc);
    assert_int_equal(tu_site_status(&site, "/healthz", ""), 200);
    /* Garbage moved over it: not ok, and no answer from the old file. */
    snprintf(garbage, sizeof(garbage), "%s/garbage", site.dir);
    assert_non_null(f = fopen(garbage, "w"));
    for (int i = 0; i < 10000; i++)
        fputs("not a database ", f);
    fclose(f);
    assert_int_equal(rename(garbage, site.db), 0);
    assert_int_equal(tu_site_status(&site, "/healthz", ""), 503);
    assert_true(tu_site_status(&site, "/api/v1/repos", "not a database") >= 500);
    tu_site_free(&site);
}

/* Garbage written into the file in place (same inode): /healthz reads the
 * file's header and says not ok. */
static void test_healthz_reads_the_file(void **state)
{
    tu_site site;
    FILE *f;

    tu_site_init(&site, "inplace.db");
    assert_int_equal(tu_site_ingest(&site, "toyport", "demo", "hpy"), 0);
    assert_int_equal(tu_site_serve(&site, NULL), 0);
    assert_int_equal(tu_site_status(&site, "/healthz", ""), 200);
    assert_non_null(f = fopen(site.db, "r+"));
    fputs("garbage garbage garbage", f);
    fclose(f);
    assert_int_equal(tu_site_status(&site, "/healthz", ""), 503);
    tu_site_free(&site);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_revision_grammar_cases),
        cmocka_unit_test(test_revision_searches_are_refused),
        cmocka_unit_test(test_revision_refused_before_bodies),
        cmocka_unit_test(test_revision_options_of_the_cli),
        cmocka_unit_test(test_budget_cuts_sqlite_work),
        cmocka_unit_test(test_ambiguous_heads_are_refused),
        cmocka_unit_test(test_body_limits_per_route),
        cmocka_unit_test(test_bodies_per_client_and_deadline),
        cmocka_unit_test(test_per_page_maxima),
        cmocka_unit_test(test_upload_during_stop_is_answered),
        cmocka_unit_test(test_replaced_database),
        cmocka_unit_test(test_healthz_reads_the_file),
    };

    return cmocka_run_group_tests(tests, setup, teardown);
}
