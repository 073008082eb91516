/*
 * db_measures.c: measure columns from the measures table (db_measures.h).
 * A leaf of db/: every reader and writer of counts uses it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#include "db.h"
#include "db_measures.h"
#include "pd_error.h"

int db_measure_in(db_mtable t, int i)
{
    switch (t) {
    case DB_M_ANALYSES:
        return pd_measure_file_is_column(i);
    case DB_M_SNAPFILE:
        return pd_measures[i].snapfile;
    default:
        return 1;
    }
}

const char *db_measure_column(db_mtable t, int i)
{
    if (!db_measure_in(t, i))
        return NULL;
    return t == DB_M_TOTALS ? pd_measures[i].column : pd_measures[i].file_column;
}

int db_measure_list(char *buf, size_t n, db_mtable t, const char *prefix)
{
    size_t len = 0;
    int i, k = 0;

    buf[0] = '\0';
    for (i = 0; i < PD_NMEASURES && len < n; i++)
        if (db_measure_in(t, i))
            len += (size_t)snprintf(buf + len, n - len, "%s%s%s", k++ ? ", " : "",
                                    prefix, db_measure_column(t, i));
    return len < n ? 0 : pd_error_set(PD_ERROR, "measure columns too long");
}

int db_measure_insert_sql(char *buf, size_t n, const char *head, const char *fixed,
                          int nfixed, db_mtable t, const char *tail)
{
    size_t len;
    int i, k = nfixed;

    len = (size_t)snprintf(buf, n, "INSERT %s(%s", head, fixed);
    for (i = 0; i < PD_NMEASURES && len < n; i++)
        if (db_measure_in(t, i))
            len += (size_t)snprintf(buf + len, n - len, ", %s", db_measure_column(t, i));
    if (len < n)
        len += (size_t)snprintf(buf + len, n - len, ") VALUES(");
    for (i = 1; i <= k && len < n; i++)
        len += (size_t)snprintf(buf + len, n - len, "%s?%d", i > 1 ? ", " : "", i);
    for (i = 0; i < PD_NMEASURES && len < n; i++)
        if (db_measure_in(t, i))
            len += (size_t)snprintf(buf + len, n - len, "%s?%d", k ? ", " : "", k + 1), k++;
    if (len < n)
        len += (size_t)snprintf(buf + len, n - len, ")%s", tail ? tail : "");
    return len < n ? 0 : pd_error_set(PD_ERROR, "measure insert too long");
}

void db_measure_bind(sqlite3_stmt *st, int first, db_mtable t, const pd_counts *c)
{
    int i;

    for (i = 0; i < PD_NMEASURES; i++)
        if (db_measure_in(t, i))
            sqlite3_bind_int64(st, first++, c->v[i]);
}

void db_measure_read(sqlite3_stmt *st, int col, db_mtable t, pd_counts *c)
{
    int i;

    for (i = 0; i < PD_NMEASURES; i++)
        if (db_measure_in(t, i))
            c->v[i] = sqlite3_column_int64(st, col++);
        else if (t == DB_M_ANALYSES)      /* a constant: files' "1" */
            c->v[i] = strtoll(pd_measures[i].file_column, NULL, 10);
}
