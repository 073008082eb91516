/*
 * rules_items.c: the rules directives about object-dtype items (see the
 * FORMAT section of ingest/rules/default.rules and DOMAIN.md "Why object
 * dtype is special"): which casts, locals, calls and pointers read the
 * items of an object array, in which representation.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pd_domain.h"
#include "pd_error.h"
#include "rules_int.h"

/* Parse "TYPE" followed by '*'s from the joined args; *stars gets their
 * number and the name is NUL-terminated in place. */
static int rules_type_stars(const rules_ctx *c, char *type, int *stars)
{
    char *s = type;

    while (*s && *s != '*')
        s++;
    *stars = 0;
    for (; *s == '*'; s++)
        (*stars)++;
    if (*s || *stars > RULES_MAXSTARS)
        return rules_err(c, "bad type '%s' (expected NAME followed by at "
                         "most %d '*')", type, RULES_MAXSTARS);
    type[strlen(type) - (size_t)*stars] = '\0';
    if (!rules_is_ident(type))
        return rules_err(c, "'%s' is not an identifier", type);
    return 0;
}

/* The default id of an item-access rule of class cls. */
static const char *rules_item_id(rules *r, const rules_ctx *c, int cls)
{
    if (cls == PD_CLASS_HPY)
        return rules_id(r, c, "object-item-field");
    if (cls == PD_CLASS_BRIDGE)
        return rules_id(r, c, "object-item-bridge");
    return rules_id(r, c, "object-item-legacy");
}

/* itemcast / itemlocal: CLASS TYPE with stars, maybe split over args. */
int rules_d_item(rules *r, const rules_ctx *c, char **av, int ac, unsigned cast)
{
    char type[RULES_MAXLINE] = "";
    rules_name *e;
    rules_item *it;
    rules_verdict *slot;
    int cls = 0, stars, i, rc;

    if ((rc = rules_class(c, av[1], 0, &cls)) != 0)
        return rc;
    for (i = 2; i < ac; i++)
        strncat(type, av[i], sizeof(type) - strlen(type) - 1);
    if ((rc = rules_type_stars(c, type, &stars)) != 0)
        return rc;
    if (cast && stars == 0)
        return rules_err(c, "an itemcast type needs at least one '*'");
    if ((rc = rules_item_entry(r, type, &e, &it)) != 0)
        return rc;
    slot = cast ? &it->itemcast[stars] : &it->itemlocal[stars];
    if (slot->cls != RULES_CLS_UNSET)
        return rules_err(c, "duplicate %s rule for '%s'", av[0], av[2]);
    slot->cls = cls;
    if (!(slot->id = rules_item_id(r, c, cls)))
        return pd_error_nomem("loading rules");
    e->flags |= cast ? RULES_F_HAS_CAST : RULES_F_HAS_LOCAL;
    return 0;
}

/* nullowner FUNCTION INDEX NULLNAME */
int rules_d_nullowner(rules *r, const rules_ctx *c, char **av, int ac, unsigned arg)
{
    rules_name *e;
    rules_item *it;
    char *endp;
    long idx;
    int rc;

    if (!rules_is_ident(av[1]) || !rules_is_ident(av[3]))
        return rules_err(c, "'%s' is not an identifier",
                         rules_is_ident(av[1]) ? av[3] : av[1]);
    idx = strtol(av[2], &endp, 10);
    if (*endp || endp == av[2] || idx < 0 || idx > 64)
        return rules_err(c, "bad argument index '%s' (expected 0..64)",
                         av[2]);
    if ((rc = rules_item_entry(r, av[1], &e, &it)) != 0)
        return rc;
    if (it->nullowner.cls != RULES_CLS_UNSET)
        return rules_err(c, "duplicate nullowner rule for '%s'", av[1]);
    it->nullowner.cls = PD_CLASS_BRIDGE;
    it->nullowner_arg = (int)idx;
    it->null_name = rules_strndup(r, av[3], strlen(av[3]));
    it->nullowner.id = rules_id(r, c, "field-null-owner");
    if (!it->null_name || !it->nullowner.id)
        return pd_error_nomem("loading rules");
    e->flags |= RULES_F_ITEMARG;
    return 0;
}

/* fieldarg FUNCTION INDEX, itemview FUNCTION INDEX (arg 1): the entry of
 * FUNCTION with its argument index set. */
int rules_d_fieldarg(rules *r, const rules_ctx *c, char **av, int ac, unsigned arg)
{
    rules_name *e;
    rules_item *it;
    char *endp;
    long idx;
    int rc, *slot;

    if (!rules_is_ident(av[1]))
        return rules_err(c, "'%s' is not an identifier", av[1]);
    idx = strtol(av[2], &endp, 10);
    if (*endp || endp == av[2] || idx < 0 || idx > 64)
        return rules_err(c, "bad argument index '%s' (expected 0..64)",
                         av[2]);
    if ((rc = rules_item_entry(r, av[1], &e, &it)) != 0)
        return rc;
    slot = arg ? &it->itemview_arg : &it->fieldarg_arg;
    if (*slot >= 0)
        return rules_err(c, "duplicate %s rule for '%s'", av[0], av[1]);
    *slot = (int)idx;
    if (!arg)
        e->flags |= RULES_F_ITEMARG;
    return 0;
}

/* itemdata any|param TYPE *...: a raw pointer that can reach array data */
int rules_d_itemdata(rules *r, const rules_ctx *c, char **av, int ac, unsigned arg)
{
    char type[RULES_MAXLINE] = "";
    rules_name *e;
    rules_item *it;
    int stars, i, rc, kind;

    if (strcmp(av[1], "any") == 0)
        kind = RULES_DATA_ANY;
    else if (strcmp(av[1], "param") == 0)
        kind = RULES_DATA_PARAM;
    else
        return rules_err(c, "itemdata takes any or param, not '%s'", av[1]);
    for (i = 2; i < ac; i++)
        strncat(type, av[i], sizeof(type) - strlen(type) - 1);
    if ((rc = rules_type_stars(c, type, &stars)) != 0)
        return rc;
    if (stars == 0)
        return rules_err(c, "an itemdata type needs at least one '*'");
    if ((rc = rules_item_entry(r, type, &e, &it)) != 0)
        return rc;
    if (it->itemdata[stars])
        return rules_err(c, "duplicate itemdata rule for '%s'", type);
    it->itemdata[stars] = (uint8_t)kind;
    e->flags |= RULES_F_HAS_DATA;
    return 0;
}

/* itemcall CLASS FUNCTION: a call that reads or writes object items */
int rules_d_itemcall(rules *r, const rules_ctx *c, char **av, int ac, unsigned arg)
{
    rules_name *e;
    rules_item *it;
    int cls = 0, rc;

    if ((rc = rules_class(c, av[1], 0, &cls)) != 0)
        return rc;
    if (!rules_is_ident(av[2]))
        return rules_err(c, "'%s' is not an identifier", av[2]);
    if ((rc = rules_item_entry(r, av[2], &e, &it)) != 0)
        return rc;
    if (it->itemcall.cls != RULES_CLS_UNSET)
        return rules_err(c, "duplicate itemcall rule for '%s'", av[2]);
    it->itemcall.cls = cls;
    if (!(it->itemcall.id = rules_item_id(r, c, cls)))
        return pd_error_nomem("loading rules");
    return 0;
}

/* itemsource NAME | itemsource suffix TEXT */
int rules_d_itemsource(rules *r, const rules_ctx *c, char **av, int ac, unsigned arg)
{
    rules_name *e;
    const char **v;
    int rc;

    if (ac == 2) {
        if (!rules_is_ident(av[1]))
            return rules_err(c, "'%s' is not an identifier", av[1]);
        if ((rc = rules_entry(r, av[1], &e)) != 0)
            return rc;
        e->flags |= RULES_F_ITEMSOURCE;
        return 0;
    }
    if (strcmp(av[1], "suffix") != 0)
        return rules_err(c, "itemsource takes NAME or suffix TEXT, not '%s'", av[1]);
    if (!rules_is_ident(av[2]))
        return rules_err(c, "'%s' is not an identifier", av[2]);
    if (!(v = realloc(r->srcsuf, (r->nsrcsuf + 1) * sizeof(*v))))
        return pd_error_nomem("loading rules");
    r->srcsuf = v;
    if (!(v[r->nsrcsuf] = rules_strndup(r, av[2], strlen(av[2]))))
        return pd_error_nomem("loading rules");
    r->nsrcsuf++;
    return 0;
}
