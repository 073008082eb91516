/*
 * db_path.c: what a --db path may be (see db_path.h).
 */
#include <sys/stat.h>

#include "db_path.h"
#include "pd_error.h"

int db_path_check(const char *path)
{
    struct stat sb;

    if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
        return pd_error_set(PD_EINVAL, "%s is a directory, not a database file (--db "
                            "names the file, e.g. %s/portdash.db)", path, path);
    return 0;
}
