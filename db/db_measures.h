/*
 * db_measures.h: the measure columns of every table that stores figures,
 * built from the measures table (pd_measures.def), and the filling of
 * what a migration adds to rows stored before it.
 *
 * Tables and the name each gives a measure's figure:
 *   analyses       file_column, when it is a column (files' "1" is not)
 *   commit_stats   column
 *   snapshots      column
 *   snapshot_files file_column, for rows with snapfile = 1
 * So a new measure is a row in pd_measures.def and a migration adding its
 * column to analyses, commit_stats and snapshots; no SQL names it.
 */
#ifndef DB_MEASURES_H
#define DB_MEASURES_H

#include <stddef.h>
#include <sqlite3.h>

#include "pd_domain.h"

/* Which table's measure columns. */
typedef enum {
    DB_M_ANALYSES = 0,
    DB_M_TOTALS,             /* commit_stats and snapshots */
    DB_M_SNAPFILE            /* snapshot_files */
} db_mtable;

/* 1 when table `t` has a column for measure i. */
int db_measure_in(db_mtable t, int i);

/* Name of measure i's column in table `t` (NULL when it has none). */
const char *db_measure_column(db_mtable t, int i);

/*
 * "INSERT <head>(<fixed>, <measure columns of t>) VALUES(?1, ..., ?K)<tail>"
 * into buf (size n), where `fixed` lists `nfixed` columns bound as ?1 to
 * ?nfixed and the measures follow in table order (db_measure_bind).  0, or
 * PD_ERROR when buf is too small.
 */
int db_measure_insert_sql(char *buf, size_t n, const char *head, const char *fixed,
                          int nfixed, db_mtable t, const char *tail);

/* Bind the figures of `c` that table t stores, from parameter `first` on, in
 * the order of db_measure_insert_sql. */
void db_measure_bind(sqlite3_stmt *st, int first, db_mtable t, const pd_counts *c);

/* Read the figures table t stores from column `col` of the current row on
 * (the order of db_measure_insert_sql) into c.  For analyses a constant
 * file_column (files' "1") is set too; other measures are left alone. */
void db_measure_read(sqlite3_stmt *st, int col, db_mtable t, pd_counts *c);

/*
 * Comma-separated measure columns of t, each after `prefix` ("s." or ""),
 * into buf (size n).  0 or PD_ERROR when too long.
 */
int db_measure_list(char *buf, size_t n, db_mtable t, const char *prefix);

#endif
