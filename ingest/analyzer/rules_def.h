/*
 * rules_def.h: what the rules say about a name (rules.h is the door): the
 * verdicts, flags and the entry of one exact identifier, shared by the
 * rules' parser and the analyzer.  Types and constants only.
 */
#ifndef RULES_DEF_H
#define RULES_DEF_H

#include <stddef.h>
#include <stdint.h>

typedef struct rules rules;

/* The class given by a rule: an_class index (analyze.h) and the rule id,
 * owned by the rules object.  cls is RULES_CLS_UNSET when no rule of that
 * kind applies, RULES_CLS_NONE for an explicit "none" (an exact rule that
 * shields a name from the prefix rules). */
#define RULES_CLS_UNSET (-1)
#define RULES_CLS_NONE  (-2)

typedef struct {
    int cls;
    const char *id;
} rules_verdict;

/* `guard` directive: which test of the macro makes a block CPython-only. */
#define RULES_GUARD_IFNDEF 1  /* #ifndef NAME, #if !defined(NAME) */
#define RULES_GUARD_IFDEF  2  /* #ifdef NAME, #if defined(NAME) */

/* rules_name.flags */
#define RULES_F_MARKER   0x1u  /* `marker`: puts a function on an object path */
#define RULES_F_ITEMCOPY 0x2u  /* `itemcopy`: memcpy-like, see analyze.c */
#define RULES_F_ITEMSVISIT 0x4u /* `itemsvisit`: visits object-array items
                                 * (analyze_types.c) */
#define RULES_F_ITEMSOURCE 0x8u /* `itemsource`: a call or member that
                                 * gives a pointer into array data */
#define RULES_F_ITEMNAME 0x10u  /* `itemname`: a name the project's macros
                                 * declare as a pointer into array data */
#define RULES_F_TYPE     0x20u  /* a names set lists it with kind `type`:
                                 * a variable may take its name
                                 * (analyze_shadow.h) */
/* What its item record holds, for the walk's per-token tests
 * (analyze_items.h) without reading the record. */
#define RULES_F_HAS_LOCAL 0x40u /* some item->itemlocal[] is set */
#define RULES_F_HAS_CAST 0x80u  /* some item->itemcast[] is set */
#define RULES_F_HAS_DATA 0x100u /* some item->itemdata[] is set */
#define RULES_F_ITEMARG  0x200u /* item->nullowner or item->fieldarg_arg
                                 * is set */

/* rules_item.itemdata[] values (`itemdata`) */
#define RULES_DATA_ANY   1      /* locals and parameters */
#define RULES_DATA_PARAM 2      /* parameters only */

/* Most '*' in an `itemcast`/`itemlocal` type. */
#define RULES_MAXSTARS 3

/* What the object-dtype item rules say of one name (rules_items.c): few
 * names have any, so they live apart from rules_name, which every name
 * has and which a start-up writes once per name (2,900 CPython names):
 * the 300-byte entries with these inside were a quarter of the CPU of
 * `portdash analyze` on one small file (issue 26). */
typedef struct {
    rules_verdict itemcast[RULES_MAXSTARS + 1];  /* by number of '*' */
    rules_verdict itemlocal[RULES_MAXSTARS + 1]; /* by number of '*' */
    rules_verdict nullowner;    /* `nullowner`: this call ... */
    int nullowner_arg;          /* ... with argument #arg (0-based) ... */
    const char *null_name;      /* ... equal to this name */
    int fieldarg_arg;           /* `fieldarg`: index of the field argument
                                 * (0-based), or -1 */
    int itemview_arg;           /* `itemview`: index of the argument
                                 * (0-based) whose array the call returns,
                                 * or a view or copy of it with its dtype;
                                 * -1 */
    uint8_t itemdata[RULES_MAXSTARS + 1];  /* `itemdata`: RULES_DATA_*
                                 * by number of '*', or 0 */
    rules_verdict itemcall;     /* `itemcall`: this call reads or writes
                                 * object items */
} rules_item;

/* The item record of a name no item rule names: every verdict unset,
 * every argument index -1. */
extern const rules_item rules_item_none;

/* Everything the rules say about one exact identifier. */
typedef struct {
    const char *name;           /* NUL-terminated, owned by the rules */
    const rules_item *item;     /* never NULL: &rules_item_none, or the
                                 * name's own, owned by the rules */
    size_t len;
    uint32_t hash;              /* rules_hash_name(name, len) */
    uint32_t cond_bit;          /* the bit of its exact-if rule */
    rules_verdict exact;        /* `exact`, or a `names` set */
    rules_verdict member;       /* `member`: after '.' or '->' */
    rules_verdict cond;         /* `exact-if`: class once a trigger is seen */
    uint32_t triggers;          /* bits of exact-if rules this name triggers */
    unsigned flags;             /* RULES_F_* */
    uint8_t guard;              /* RULES_GUARD_* or 0 */
    uint8_t exact_from_set;     /* exact came from a `names` set: an
                                 * `exact` rule may still replace it */
} rules_name;

#endif
