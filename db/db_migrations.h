/*
 * db_migrations.h: the schema migrations compiled into the binary.  The table
 * is generated from db/migrations/NNN_name.sql by db/embed_migrations.sh;
 * versions are the NNN numbers, strictly increasing.
 */
#ifndef DB_MIGRATIONS_H
#define DB_MIGRATIONS_H

struct db_migration {
    int version;
    const char *name;
    const char *sql;
};

extern const struct db_migration db_migrations[];
extern const int db_migrations_count;

#endif
