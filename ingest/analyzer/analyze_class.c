/*
 * analyze_class.c: classifying identifiers (analyze_class.h): what a
 * verdict does once the rules (or the cache) gave it.
 */
#include <string.h>

#include "analyze_build.h"
#include "analyze_class.h"
#include "analyze_shadow.h"
#include "lex.h"

const rules_name *an_classified(an_state *st, const lex_token *t,
                                const char *s, size_t len, int member,
                                int define, const rules_name *e,
                                rules_verdict v)
{
    if (member) {
        if (member == 1 && e && e->member.cls >= 0)
            an_add_finding(st, t->line, t->column, e->member, s, len,
                           AN_FK_PLAIN, NULL, define);
        return NULL;
    }
    if (e) {
        st->triggers_seen |= e->triggers;
        if ((e->flags & RULES_F_MARKER) && !define && st->cur >= 0 &&
            !st->guard)
        {
            an_facc *a = &st->facc[st->cur];

            if (!a->marker_line && !an_intern(st, s, len, &a->marker_off))
                a->marker_line = t->line;
            a->marker = 1;
        }
    }
    if (v.cls >= 0 && e && (e->flags & RULES_F_TYPE) &&
        an_shadow_defer(st, t, s, len, e, v, define))
        return e;                     /* maybe a variable: see the next token */
    if (v.cls >= 0)
        an_add_finding(st, t->line, t->column, v, s, len, AN_FK_PLAIN,
                       e && e->cond.cls >= 0 ? e : NULL, define);
    return e;
}

const rules_name *an_classify_spliced(an_state *st, const lex_token *t,
                                      int member, int define)
{
    char buf[256];
    size_t n = lex_text(t, buf, sizeof(buf));
    size_t len = n < sizeof(buf) ? n : sizeof(buf) - 1;
    const rules_name *e;
    rules_verdict v = {RULES_CLS_UNSET, NULL};

    e = member ? rules_lookup(st->r, buf, len)
               : rules_classify(st->r, buf, len, &v);
    return an_classified(st, t, buf, len, member, define, e, v);
}

const rules_name *an_classify(an_state *st, const lex_token *t, int member,
                              int define)
{
    return an_classify_fast(st, t, member, define);
}
