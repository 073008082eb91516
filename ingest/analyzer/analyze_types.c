/*
 * analyze_types.c: the HPy types of one file, for traverse coverage
 * (analyze.h, an_result.hpy_types).
 *
 * A moving GC (PyPy) must be told of every HPyField of an object: the
 * type's tp_traverse has to HPy_VISIT each one, and for numpy's array type
 * also the object items of the data buffer.  This pass records, per file,
 * what is needed to check that; the files of a commit are joined at query
 * time (server/api_traverse.c), since a struct often lives in a header and
 * its type in a .c file:
 *
 *   specs     `HPyType_Spec VAR = { .name = "...", .basicsize =
 *             sizeof(S), .defines = D, ... }`
 *   helpers   `HPyType_HELPERS(S)`, `HPyType_LEGACY_HELPERS(S)`
 *   structs   `[typedef] struct [TAG] { ... HPyField m; ... } [NAME];` at
 *             file scope, only those with HPyField members (not pointers)
 *   aliases   `typedef struct TAG NAME;`
 *   defines   `HPyDef *D[] = { &a, &b, NULL };`
 *   traverse  `HPyDef_SLOT(DEF, IMPL, HPy_tp_traverse)` (and the two-
 *             argument form, whose implementation is DEF_impl)
 *   visits    per function: the members of `HPy_VISIT(&x->m)` and
 *             `HPy_VISIT(&((S *)x)->m)`, and whether it calls an
 *             `itemsvisit` function of the rules (visits object items)
 *
 * The pass lexes the file a second time, but only when the main scan saw
 * one of the words above (an_types_word(), a first-byte test on each
 * identifier): most files are never read twice.
 * Output is compact JSON written by hand (the analyzer does not link
 * jansson), NULL when nothing was found.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze_build.h"
#include "analyze_types.h"
#include "pd_buf.h"
#include "pd_error.h"

/* A growable string (pd_buf) and the elements written to it, for commas. */
typedef struct {
    pd_buf b;
    int n;
} ty_buf;

/* Append len bytes of s; a failure stays in b->b.err. */
static void ty_put(ty_buf *b, const char *s, size_t len)
{
    pd_buf_put(&b->b, s, len);
}

static void ty_puts(ty_buf *b, const char *s)
{
    ty_put(b, s, strlen(s));
}

/* Append s[0..len) as a JSON string; bytes that are not printable ASCII,
 * quotes and backslashes become '?' (names and type names only). */
static void ty_str(ty_buf *b, const char *s, size_t len)
{
    size_t i;

    ty_put(b, "\"", 1);
    for (i = 0; i < len; i++) {
        char c = s[i];

        if ((unsigned char)c < 0x20 || (unsigned char)c >= 0x7f || c == '"' ||
            c == '\\')
            c = '?';
        ty_put(b, &c, 1);
    }
    ty_put(b, "\"", 1);
}

/* Append a comma unless this is the buffer's first element. */
static void ty_sep(ty_buf *b)
{
    if (b->n++)
        ty_put(b, ",", 1);
}

/* A token kept by the pass. */
typedef struct {
    lex_kind kind;
    uint32_t punct;
    const char *s;
    uint32_t len, line;
} ty_tok;

#define TY_IDENT_MAX 128

typedef struct {
    an_state *st;
    ty_buf specs, helpers, structs, aliases, defines, traverse, visits;
    ty_buf cur;                 /* the struct, spec or list being read */
    long depth, pdepth;
    ty_tok prev;
    /* Declaration at file scope. */
    int decl_typedef, decl_struct, decl_hpydef, decl_spec, decl_eq;
    ty_tok decl_name, struct_tag;
    int decl_ntok;
    int decl_wrap;              /* `namespace N` or `extern "C"`: its body
                                 * is file scope too (C++ ports: kiwi) */
    long wraps;                 /* open namespace / extern "C" bodies */
    /* Open blocks: 1 struct body, 2 spec initializer, 3 defines list. */
    int block;
    long block_depth;
    int fields;                 /* HPyField members of the open struct */
    int after_struct;           /* reading `} NAME;` */
    uint32_t block_line;
    char key[32];               /* spec designator being read */
    int field_next;             /* the next identifier is an HPyField member */
    /* Macro calls at file scope: HPyDef_SLOT, HPyType_HELPERS. */
    int macro;                  /* 1 slot, 2 helpers */
    int margs;
    ty_tok marg[4];
    /* Calls being read inside functions. */
    int visit;                  /* inside HPy_VISIT( */
    long visit_depth;
    ty_tok visit_member;
    int32_t fn;                 /* function of the open visits entry */
    ty_buf members;
    int items;
    size_t fi;                  /* function cursor */
} ty_state;

/* 1 if t is the identifier lit. */
#define ty_is(t, lit) ((t)->kind == LEX_IDENT && (t)->len == sizeof(lit) - 1 && \
                       memcmp((t)->s, lit, sizeof(lit) - 1) == 0)
#define ty_punct(t, p) ((t)->kind == LEX_PUNCT && (t)->punct == (uint32_t)(p))

/* Line of the analysed text as a line of the file. */
static unsigned ty_line(const ty_state *y, uint32_t line)
{
    uint32_t l = line, c;

    if (y->st->tmap)
        tmpl_map(y->st->tmap, line, 1, &l, &c);
    return (unsigned)l;
}

/* The function holding analysed line `line`, or -1 (functions are in line
 * order and tokens come in order, so a cursor suffices). */
static int32_t ty_function(ty_state *y, uint32_t line)
{
    const an_result *res = y->st->res;

    while (y->fi < res->nfunctions && res->functions[y->fi].end_line < line)
        y->fi++;
    if (y->fi < res->nfunctions && res->functions[y->fi].start_line <= line)
        return (int32_t)y->fi;
    return -1;
}

/* Close the open visits entry. */
static void ty_flush_visits(ty_state *y)
{
    char num[32];
    const char *name, *q;

    if (y->fn < 0)
        return;
    /* Without its namespaces (kiwisolver::Variable_traverse): HPyDef_SLOT
     * names the implementation as written in the namespace. */
    name = y->st->res->functions[y->fn].name;
    while ((q = strstr(name, "::")) != NULL)
        name = q + 2;
    ty_sep(&y->visits);
    ty_puts(&y->visits, "{\"function\":");
    ty_puts(&y->visits, "\"");
    ty_puts(&y->visits, name);
    ty_puts(&y->visits, "\",\"members\":[");
    ty_put(&y->visits, y->members.b.data, y->members.b.len);
    snprintf(num, sizeof(num), "],\"items\":%s}", y->items ? "true" : "false");
    ty_puts(&y->visits, num);
    pd_buf_reset(&y->members.b);
    y->members.n = 0;
    y->items = 0;
    y->fn = -1;
}

/* The visits entry of function fn, opened if needed. */
static void ty_visit_fn(ty_state *y, int32_t fn)
{
    if (y->fn != fn)
        ty_flush_visits(y);
    y->fn = fn;
}

/* A token inside a function body. */
static void ty_func_token(ty_state *y, const ty_tok *t)
{
    if (y->visit) {
        if (ty_punct(t, '('))
            y->visit_depth++;
        else if (ty_punct(t, ')') && --y->visit_depth == 0) {
            int32_t fn = ty_function(y, t->line);

            if (fn >= 0 && y->visit_member.s) {
                ty_visit_fn(y, fn);
                ty_sep(&y->members);
                ty_str(&y->members, y->visit_member.s, y->visit_member.len);
            }
            y->visit = 0;
        } else if (t->kind == LEX_IDENT) {
            /* The member is the last name, right after -> or '.' */
            y->visit_member.s = ty_punct(&y->prev, '.') ||
                ty_punct(&y->prev, LEX_P2('-', '>')) ? t->s : NULL;
            y->visit_member.len = t->len;
        }
        return;
    }
    if (ty_punct(t, '(') && y->prev.kind == LEX_IDENT) {
        const rules_name *e;

        if (ty_is(&y->prev, "HPy_VISIT")) {
            y->visit = 1;
            y->visit_depth = 1;
            y->visit_member.s = NULL;
        } else if ((e = rules_lookup(y->st->r, y->prev.s, y->prev.len)) &&
                   (e->flags & RULES_F_ITEMSVISIT)) {
            int32_t fn = ty_function(y, t->line);

            if (fn >= 0) {
                ty_visit_fn(y, fn);
                y->items = 1;
            }
        }
    }
}

/* End of a file-scope macro call: HPyDef_SLOT or HPyType_HELPERS. */
static void ty_end_macro(ty_state *y)
{
    ty_tok *a = y->marg;

    if (y->macro == 2 && y->margs >= 1 && a[0].s) {
        ty_sep(&y->helpers);
        ty_str(&y->helpers, a[0].s, a[0].len);
    } else if (y->macro == 1 && (y->margs == 3 || y->margs == 2) &&
               a[y->margs - 1].s && ty_is(&a[y->margs - 1], "HPy_tp_traverse") &&
               a[0].s && (y->margs == 2 || a[1].s)) {
        ty_sep(&y->traverse);
        ty_puts(&y->traverse, "{\"def\":");
        ty_str(&y->traverse, a[0].s, a[0].len);
        ty_puts(&y->traverse, ",\"impl\":\"");
        if (y->margs == 3) {
            ty_put(&y->traverse, a[1].s, a[1].len);
        } else {
            ty_put(&y->traverse, a[0].s, a[0].len);
            ty_puts(&y->traverse, "_impl");
        }
        ty_puts(&y->traverse, "\"}");
    }
    y->macro = 0;
}

/* Start a block (struct body, spec initializer, defines list) at '{'. */
static void ty_open_block(ty_state *y, int kind, uint32_t line)
{
    y->block = kind;
    y->block_depth = y->depth;
    y->block_line = line;
    pd_buf_reset(&y->cur.b);
    y->cur.n = 0;
    y->fields = 0;
    y->key[0] = '\0';
    y->field_next = 0;
    if (kind == 2) {
        char num[48];

        ty_puts(&y->cur, "{\"var\":");
        ty_str(&y->cur, y->decl_name.s, y->decl_name.len);
        snprintf(num, sizeof(num), ",\"line\":%u", ty_line(y, line));
        ty_puts(&y->cur, num);
    } else if (kind == 3) {
        ty_puts(&y->cur, "{\"name\":");
        ty_str(&y->cur, y->decl_name.s, y->decl_name.len);
        ty_puts(&y->cur, ",\"items\":[");
        y->cur.n = 0;
    } else {
        ty_puts(&y->cur, "[");
    }
}

/* A token inside an open block at file scope. */
static void ty_block_token(ty_state *y, const ty_tok *t)
{
    if (y->block == 1) {                         /* struct body */
        if (y->field_next && t->kind == LEX_IDENT) {
            y->field_next = 0;
            ty_sep(&y->cur);
            ty_str(&y->cur, t->s, t->len);
            y->fields++;
        } else if (ty_is(t, "HPyField") && !ty_punct(&y->prev, '.') &&
                   !ty_punct(&y->prev, LEX_P2('-', '>'))) {
            y->field_next = 1;
        } else if (y->field_next) {
            y->field_next = 0;                   /* HPyField *p: not a field */
        }
    } else if (y->block == 2) {                  /* spec initializer */
        if (y->depth == y->block_depth + 1 && ty_punct(&y->prev, '.') &&
            t->kind == LEX_IDENT && t->len < sizeof(y->key)) {
            memcpy(y->key, t->s, t->len);
            y->key[t->len] = '\0';
        } else if (y->depth == y->block_depth + 1 && ty_punct(t, ',')) {
            y->key[0] = '\0';
        } else if (!strcmp(y->key, "name") && t->kind == LEX_STRING &&
                   t->len >= 2 && t->s[0] == '"') {
            ty_puts(&y->cur, ",\"name\":");
            ty_str(&y->cur, t->s + 1, t->len - 2);
            y->key[0] = '\0';
        } else if (!strcmp(y->key, "basicsize") && t->kind == LEX_IDENT &&
                   !ty_is(t, "sizeof") && !ty_is(t, "struct")) {
            ty_puts(&y->cur, ",\"struct\":");
            ty_str(&y->cur, t->s, t->len);
            y->key[0] = '\0';
        } else if (!strcmp(y->key, "defines") && t->kind == LEX_IDENT) {
            ty_puts(&y->cur, ",\"defines\":");
            ty_str(&y->cur, t->s, t->len);
            y->key[0] = '\0';
        }
    } else if (y->block == 3) {                  /* HPyDef *D[] = {...} */
        if (t->kind == LEX_IDENT && ty_punct(&y->prev, '&')) {
            ty_sep(&y->cur);
            ty_str(&y->cur, t->s, t->len);
        }
    }
}

/* Close the open block at its '}'. */
static void ty_close_block(ty_state *y)
{
    if (y->block == 2) {
        ty_puts(&y->cur, "}");
        ty_sep(&y->specs);
        ty_put(&y->specs, y->cur.b.data, y->cur.b.len);
    } else if (y->block == 3) {
        ty_puts(&y->cur, "]}");
        ty_sep(&y->defines);
        ty_put(&y->defines, y->cur.b.data, y->cur.b.len);
    } else if (y->block == 1 && y->fields) {
        ty_puts(&y->cur, "]");
        y->after_struct = 1;                     /* wait for `} NAME;` */
        y->block = 0;
        y->decl_name.s = NULL;
        return;
    }
    y->block = 0;
}

/* Write a finished struct (its typedef name may be NULL). */
static void ty_emit_struct(ty_state *y, const ty_tok *name)
{
    char num[32];

    ty_sep(&y->structs);
    ty_puts(&y->structs, "{\"name\":");
    if (name && name->s)
        ty_str(&y->structs, name->s, name->len);
    else if (y->struct_tag.s)
        ty_str(&y->structs, y->struct_tag.s, y->struct_tag.len);
    else
        ty_puts(&y->structs, "null");
    ty_puts(&y->structs, ",\"tag\":");
    if (y->struct_tag.s)
        ty_str(&y->structs, y->struct_tag.s, y->struct_tag.len);
    else
        ty_puts(&y->structs, "null");
    snprintf(num, sizeof(num), ",\"line\":%u", ty_line(y, y->block_line));
    ty_puts(&y->structs, num);
    ty_puts(&y->structs, ",\"fields\":");
    ty_put(&y->structs, y->cur.b.data, y->cur.b.len);
    ty_puts(&y->structs, "}");
    y->after_struct = 0;
}

/* Reset the file-scope declaration at ';' or a closed block. */
static void ty_reset_decl(ty_state *y)
{
    y->decl_typedef = y->decl_struct = y->decl_hpydef = y->decl_spec = 0;
    y->decl_eq = y->decl_ntok = y->decl_wrap = 0;
    y->decl_name.s = NULL;
    y->struct_tag.s = NULL;
}

/* A token at file scope (depth 0), outside blocks and macro calls. */
static void ty_file_token(ty_state *y, const ty_tok *t)
{
    if (y->after_struct) {
        if (t->kind == LEX_IDENT && !y->decl_name.s)
            y->decl_name = *t;
        if (ty_punct(t, ';') || ty_punct(t, ',')) {
            ty_emit_struct(y, y->decl_typedef ? &y->decl_name : NULL);
            ty_reset_decl(y);
        }
        return;
    }
    if (ty_punct(t, ';')) {
        if (y->decl_ntok == 4 && y->decl_typedef && y->decl_struct &&
            y->struct_tag.s && y->decl_name.s) {
            ty_sep(&y->aliases);                 /* typedef struct T N; */
            ty_puts(&y->aliases, "[");
            ty_str(&y->aliases, y->struct_tag.s, y->struct_tag.len);
            ty_puts(&y->aliases, ",");
            ty_str(&y->aliases, y->decl_name.s, y->decl_name.len);
            ty_puts(&y->aliases, "]");
        }
        ty_reset_decl(y);
        return;
    }
    if (ty_punct(t, '(') && y->prev.kind == LEX_IDENT && y->pdepth == 0) {
        if (ty_is(&y->prev, "HPyDef_SLOT"))
            y->macro = 1;
        else if (ty_is(&y->prev, "HPyType_HELPERS") ||
                 ty_is(&y->prev, "HPyType_LEGACY_HELPERS"))
            y->macro = 2;
        if (y->macro) {
            y->margs = 0;
            memset(y->marg, 0, sizeof(y->marg));
            return;
        }
    }
    if ((y->decl_ntok == 0 && ty_is(t, "namespace")) ||
        (y->decl_ntok == 1 && ty_is(&y->prev, "extern") && t->kind == LEX_STRING))
        y->decl_wrap = 1;
    y->decl_ntok++;
    if (t->kind == LEX_IDENT) {
        if (ty_is(t, "typedef"))
            y->decl_typedef = 1;
        else if (ty_is(t, "struct"))
            y->decl_struct = 1;
        else if (ty_is(t, "HPyType_Spec"))
            y->decl_spec = 1;
        else if (ty_is(t, "HPyDef"))
            y->decl_hpydef = 1;
        else if (y->decl_struct && ty_is(&y->prev, "struct"))
            y->struct_tag = *t;
        else if (!y->decl_eq && y->pdepth == 0)
            y->decl_name = *t;
    } else if (ty_punct(t, '=') && y->pdepth == 0) {
        y->decl_eq = 1;               /* not `.doc = "..."` in HPyDef_METH(...) */
    } else if (ty_punct(t, '{')) {
        if (y->decl_spec && y->decl_eq && y->decl_name.s)
            ty_open_block(y, 2, t->line);
        else if (y->decl_hpydef && y->decl_eq && y->decl_name.s)
            ty_open_block(y, 3, t->line);
        else if (y->decl_struct && !y->decl_eq && ty_punct(&y->prev, '{') == 0 &&
                 (ty_is(&y->prev, "struct") || (y->struct_tag.s &&
                  y->prev.s == y->struct_tag.s)))
            ty_open_block(y, 1, t->line);
    }
}

/* One significant token of the analysed text. */
static void ty_token(ty_state *y, const ty_tok *t)
{
    int32_t in_fn = y->depth > 0 && !y->block ? ty_function(y, t->line) : -1;

    if (in_fn >= 0) {
        ty_func_token(y, t);
    } else if (y->macro) {
        if (ty_punct(t, '(')) {
            y->pdepth++;
        } else if (ty_punct(t, ')') && y->pdepth == 0) {
            y->margs++;
            ty_end_macro(y);
        } else if (ty_punct(t, ')')) {
            y->pdepth--;
        } else if (ty_punct(t, ',') && y->pdepth == 0) {
            y->margs++;
        } else if (t->kind == LEX_IDENT && y->margs < 4 && !y->marg[y->margs].s) {
            y->marg[y->margs] = *t;
        }
        goto track;
    } else if (y->block) {
        ty_block_token(y, t);
    } else if (y->depth == 0) {
        ty_file_token(y, t);
    }
    if (ty_punct(t, '{') && y->depth == 0 && !y->block && y->decl_wrap) {
        y->wraps++;                   /* namespace N {, extern "C" { */
        ty_reset_decl(y);
    } else if (ty_punct(t, '{')) {
        y->depth++;
    } else if (ty_punct(t, '}') && y->depth == 0 && !y->block && y->wraps > 0) {
        y->wraps--;
        ty_reset_decl(y);
    } else if (ty_punct(t, '}')) {
        if (y->depth > 0)
            y->depth--;
        if (y->block && y->depth == y->block_depth)
            ty_close_block(y);
        if (y->depth == 0 && !y->after_struct && !y->block)
            ty_reset_decl(y);
        if (y->depth == 0)
            y->visit = 0;
    } else if (y->depth == 0 && !y->macro) {
        if (ty_punct(t, '('))
            y->pdepth++;
        else if (ty_punct(t, ')') && y->pdepth > 0)
            y->pdepth--;
    }
track:
    y->prev = *t;
}

/* Append `"key":[...]` of section b to out when it has elements. */
static void ty_section(ty_buf *out, const char *key, const ty_buf *b)
{
    if (!b->n)
        return;
    ty_sep(out);
    ty_puts(out, "\"");
    ty_puts(out, key);
    ty_puts(out, "\":[");
    ty_put(out, b->b.data, b->b.len);
    ty_puts(out, "]");
}

void an_types(an_state *st, const char *buf, size_t len)
{
    ty_state y;
    lex_state lx;
    lex_token lt;
    ty_buf out = {0};
    ty_buf *all[] = {&y.specs, &y.helpers, &y.structs, &y.aliases, &y.defines,
                     &y.traverse, &y.visits, &y.cur, &y.members};
    size_t i;
    int in_pp = 0, oom = 0;

    if (st->rc || !st->types_seen)
        return;
    memset(&y, 0, sizeof(y));
    y.st = st;
    y.fn = -1;
    lex_init(&lx, buf, len, st->cpp ? LEX_F_CPP : 0);
    for (;;) {
        ty_tok t;

        lex_next(&lx, &lt);
        if (lt.kind == LEX_EOF)
            break;
        if (lt.kind == LEX_PP_BEGIN || lt.kind == LEX_PP_END) {
            in_pp = lt.kind == LEX_PP_BEGIN;
            continue;
        }
        if (in_pp || lt.kind == LEX_COMMENT)
            continue;
        t.kind = lt.kind;
        t.punct = lt.punct;
        t.s = lt.start;
        t.len = (uint32_t)lt.len;
        t.line = lt.line;
        ty_token(&y, &t);
    }
    ty_flush_visits(&y);
    ty_puts(&out, "{");
    ty_section(&out, "specs", &y.specs);
    ty_section(&out, "helpers", &y.helpers);
    ty_section(&out, "structs", &y.structs);
    ty_section(&out, "aliases", &y.aliases);
    ty_section(&out, "defines", &y.defines);
    ty_section(&out, "traverse", &y.traverse);
    ty_section(&out, "visits", &y.visits);
    ty_puts(&out, "}");
    for (i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
        oom |= all[i]->b.err;
        pd_buf_free(&all[i]->b);
    }
    if (oom || out.b.err) {
        pd_buf_free(&out.b);
        st->rc = pd_error_nomem("analysing");
        return;
    }
    if (out.n == 0) {
        pd_buf_free(&out.b);
        return;
    }
    st->res->hpy_types = pd_buf_take(&out.b, NULL);
}
