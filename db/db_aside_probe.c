/*
 * db_aside_probe.c: what a first ingest building its database aside shows
 * at PATH (db_aside_probe.h).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "db_aside_probe.h"
#include "db_lock.h"
#include "pd_error.h"

char *db_aside_name(const char *path, const char *suffix)
{
    size_t a = strlen(path), b = strlen(suffix);
    char *s = malloc(a + b + 1);

    if (s) {
        memcpy(s, path, a);
        memcpy(s + a, suffix, b + 1);
    }
    return s;
}

int db_aside_wanted(const char *path)
{
    struct stat sb;

    return lstat(path, &sb) < 0 && errno == ENOENT;
}

int db_aside_ours(const char *tmp)
{
    unsigned char h[100];
    struct stat sb;
    FILE *fp;
    size_t got;

    if (lstat(tmp, &sb) < 0 || !S_ISREG(sb.st_mode))
        return 0;
    if (sb.st_size == 0)
        return 1;
    if (!(fp = fopen(tmp, "rb")))
        return 0;
    got = fread(h, 1, sizeof(h), fp);
    fclose(fp);
    return got == sizeof(h) && memcmp(h, "SQLite format 3", 16) == 0 &&
           ((uint32_t)h[68] << 24 | (uint32_t)h[69] << 16 | (uint32_t)h[70] << 8 |
            h[71]) == DB_ASIDE_MARK;
}

int db_aside_building(const char *path)
{
    char *tmp = db_aside_name(path, ".new");
    struct stat sb;
    int r = 0;

    if (tmp && db_aside_wanted(path) && lstat(tmp, &sb) == 0)
        r = db_lock_held(path) ? 1 : db_aside_ours(tmp) ? 2 : 0;
    free(tmp);
    return r;
}

int db_aside_say(const char *path, const char *then)
{
    int b = db_aside_building(path);

    if (b == 1)
        return pd_error_set(PD_EINVAL, "no database at %s yet: a first ingest is "
                            "building it (%s.new); %s", path, path, then);
    if (b == 2)
        return pd_error_set(PD_EINVAL, "no database at %s yet: a first ingest was "
                            "stopped before it ended (%s.new); run `portdash ingest` "
                            "again", path, path);
    return 0;
}
