/*
 * srv_static.c: the dashboard's files (see srv_static.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pd_buf.h"
#include "pd_file.h"
#include "srv_first.h"
#include "srv_static.h"

static const struct {
    const char *ext;
    const char *type;
} srv_static_types[] = {
    {".html", "text/html; charset=utf-8"},
    {".css", "text/css; charset=utf-8"},
    {".js", "text/javascript; charset=utf-8"},
    {".mjs", "text/javascript; charset=utf-8"},
    {".json", "application/json"},
    {".svg", "image/svg+xml"},
    {".png", "image/png"},
    {".ico", "image/x-icon"},
    {".txt", "text/plain; charset=utf-8"},
};

static const char *srv_static_type(const char *path)
{
    const char *dot = strrchr(path, '.');
    size_t i;

    for (i = 0; dot && i < sizeof(srv_static_types) / sizeof(srv_static_types[0]); i++)
        if (strcmp(dot, srv_static_types[i].ext) == 0)
            return srv_static_types[i].type;
    return "application/octet-stream";
}

/* Refuse any segment that could leave the directory or name a dotfile. */
static int srv_static_safe(const char *rel)
{
    const char *p = rel;

    while (*p) {
        if (*p == '.')
            return 0;
        p = strchr(p, '/');
        if (!p)
            break;
        p++;
    }
    return strstr(rel, "//") == NULL;
}

/* The overview's page with its first-screen answers in place of
 * SRV_FIRST_MARK (srv_first.h); the page as it is when it has no mark or
 * nothing is embedded.  0, or -1 when out of memory. */
static int srv_static_first(srv_req *r, char **buf, size_t *len)
{
    char *mark = strstr(*buf, SRV_FIRST_MARK);
    size_t at;
    pd_buf out;

    if (!mark)
        return 0;
    at = (size_t)(mark - *buf);
    pd_buf_init(&out, 0);
    pd_buf_put(&out, *buf, at);
    if (srv_first_block(r, &out) < 0) {
        pd_buf_free(&out);
        return -1;
    }
    pd_buf_put(&out, mark + strlen(SRV_FIRST_MARK), *len - at - strlen(SRV_FIRST_MARK));
    if (out.err) {
        pd_buf_free(&out);
        return -1;
    }
    free(*buf);
    *buf = pd_buf_take(&out, len);
    return 0;
}

/* Serve file `rel` under directory `dir`. */
static enum MHD_Result srv_static_file(srv_req *r, const char *dir, const char *rel)
{
    char path[4096];
    struct stat sb;
    char *buf = NULL;
    size_t len = 0;
    enum MHD_Result ret;

    if (!srv_static_safe(rel) ||
        snprintf(path, sizeof(path), "%s/%s", dir, rel)
            >= (int)sizeof(path) ||
        stat(path, &sb) != 0 || !S_ISREG(sb.st_mode) || access(path, R_OK) != 0)
        return srv_reply_problem(r, 404, "Not Found", "no such resource");
    /* The message of pd_file_read names the server's path: not sent. */
    if (pd_file_read(path, 0, NULL, &buf, &len) < 0)
        ret = srv_reply_problem(r, 500, "Internal Server Error",
                                "cannot read a dashboard file");
    else if (strcmp(rel, "index.html") == 0 && dir == srv_static_dir(r->server) &&
             srv_static_first(r, &buf, &len) < 0)
        ret = srv_reply_problem(r, 500, "Internal Server Error", "out of memory");
    else
        ret = srv_reply_bytes(r, 200, srv_static_type(path), buf, len);
    free(buf);
    return ret;
}

enum MHD_Result srv_static_serve(srv_req *r)
{
    return srv_static_file(r, srv_static_dir(r->server),
                           r->tail ? r->tail : "index.html");
}

enum MHD_Result srv_static_chartjs(srv_req *r)
{
    char dir[4096];

    snprintf(dir, sizeof(dir), "%s/chart.js/dist", srv_vendor_dir(r->server));
    return srv_static_file(r, dir, r->tail);
}

/* The other browser libraries: name in the URL -> its directory under the
 * vendor directory (node_modules, or share/portdash/vendor installed). */
static const struct {
    const char *name;
    const char *dir;
} srv_static_vendors[] = {
    {"marked", "marked/lib"},
    {"dompurify", "dompurify/dist"},
    {"diff", "diff/dist"},
    {"prismjs", "prismjs/components"},
};

/* The files of the vendor directory the dashboard loads: the Makefile's
 * VENDOR_FILES, which `make install` copies, given to this file as
 * SRV_VENDOR_FILES ("a", "b", ...) so that the list has one record. */
#ifndef SRV_VENDOR_FILES
#error "SRV_VENDOR_FILES comes from the Makefile's VENDOR_FILES"
#endif
static const char *const srv_static_vendor_files[] = {SRV_VENDOR_FILES};

size_t srv_static_vendor_missing(const char *dir, const char **missing, size_t max)
{
    char path[4096];
    size_t i, n = 0;

    for (i = 0; i < sizeof(srv_static_vendor_files) / sizeof(srv_static_vendor_files[0]); i++) {
        snprintf(path, sizeof(path), "%s/%s", dir, srv_static_vendor_files[i]);
        if (access(path, R_OK) != 0 && n < max)
            missing[n++] = srv_static_vendor_files[i];
    }
    return n;
}

enum MHD_Result srv_static_vendor(srv_req *r)
{
    char dir[4096];
    size_t i;

    for (i = 0; i < sizeof(srv_static_vendors) / sizeof(srv_static_vendors[0]); i++) {
        if (strcmp(r->param[0], srv_static_vendors[i].name) != 0)
            continue;
        snprintf(dir, sizeof(dir), "%s/%s", srv_vendor_dir(r->server),
                 srv_static_vendors[i].dir);
        return srv_static_file(r, dir, r->tail);
    }
    return srv_reply_problem(r, 404, "Not Found", "no such resource");
}
