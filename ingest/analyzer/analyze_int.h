/*
 * analyze_int.h: state shared by the files of the analyzer (not an API).
 *
 *   analyze.c       public entry points and the verdicts computed at the
 *                   end (status, object state, notes)
 *   analyze_build.c findings, functions, text pool (analyze_build.h)
 *   analyze_result.c names, freeing a result, a function's why as JSON
 *   analyze_scan.c  the token walk: declarations and function definitions
 *   analyze_class.c classification of identifiers by the rules, through a
 *                   cache of verdicts by name (analyze_class.h)
 *   analyze_items.c object-dtype item access inside functions
 *   analyze_shadow.c variables named like a C API type (`uint16_t digit`)
 *   analyze_pp.c    preprocessor directives: #if 0, guards, brace depth
 *                   across #if/#else branches, #define bodies
 *   analyze_types.c HPy types, their HPyField members and traverse visits
 *                   (a second, cheap pass over files that mention them)
 *   analyze_memo.c  the chunk memo: cuts, keys, recording and reusing
 *                   chunk results (analyze_memo_tab.c: its table)
 *
 * This header holds the state and small inline readers of it, and no
 * function of any file: each file's functions are declared in its own
 * header (analyze_scan.h, ...), so the files call each other as a tree
 * (the walk: memo -> pp -> scan -> items -> flow; pp, scan -> class;
 * class, scan, feed -> shadow; all -> build).
 *
 * One an_state lives for one an_analyze() call.  Errors (only out of
 * memory) are sticky in st->rc so the per-token code needs no error
 * returns; the token loop stops as soon as it is set.
 */
#ifndef ANALYZE_INT_H
#define ANALYZE_INT_H

#include <string.h>

#include "analyze.h"
#include "lex.h"
#include "tmpl.h"
#include "tmpl_replay.h"

/* What a finding is, beside its class (kept in an_fmeta). */
enum { AN_FK_PLAIN = 0, AN_FK_ITEM, AN_FK_NULLOWNER };

/* Per-finding data kept beside an_result.findings while analysing. */
typedef struct {
    uint32_t text_off;          /* offset of its text in the pool */
    uint8_t kind;               /* AN_FK_* */
    uint8_t define;             /* from a #define body: stays file scope */
    const rules_name *cond;     /* entry with an exact-if rule, or NULL */
    uint32_t reason_off;        /* pool offset of its reason, or UINT32_MAX */
} an_fmeta;

/* Per-function data kept beside an_result.functions while analysing. */
typedef struct {
    uint32_t unguarded[AN_CLASS_COUNT];
    uint32_t name_off;          /* offset of the name in the pool */
    uint8_t marker;             /* uses a `marker` identifier */
    uint8_t item_legacy;        /* legacy (PyObject **) item access */
    uint8_t item_field;         /* HPyField item access */
    uint8_t objname;            /* name matches an `objfunc` rule */
    uint32_t macro_off;         /* pool offset of name_from_macro, or
                                 * UINT32_MAX */
    uint32_t marker_off;        /* first unguarded marker: name (pool), */
    uint32_t marker_line;       /* line (0: none) */
} an_facc;

/* One open #if/#ifdef/#ifndef. */
typedef struct {
    long saved_depth, saved_pdepth;  /* brace/paren depth at the #if */
    long ref_depth, ref_pdepth;      /* at the end of the first taken branch */
    uint8_t ref_set;
    uint8_t outer_skip;         /* the whole block lies in skipped code */
    uint8_t skip;               /* the current branch is skipped */
    uint8_t guard;              /* the current branch is CPython-only */
    uint8_t else_skip;          /* #else/#elif are dead (#if 1) */
    uint8_t else_guard;         /* #else is CPython-only */
    uint8_t seen_elif;
} an_frame;

/* A local or parameter declared with an `itemlocal` type (v), or with
 * an `itemcast` type, that is a pointer into the items (pv). */
typedef struct {
    const char *s;
    uint32_t len;
    rules_verdict v;            /* itemlocal verdict, or cls UNSET */
    rules_verdict pv;           /* itemcast verdict, or cls UNSET */
    int param;                  /* declared in a function's parameters */
    int data;                   /* an `itemdata` pointer (char *ip) */
    int stars;                  /* '*' in its declaration */
    const char *type;           /* its type name (rules entry) */
} an_local;

/* A call being read whose arguments matter (itemcopy, nullowner,
 * fieldarg). */
typedef struct {
    const rules_name *e;
    const char *name;
    uint32_t namelen, line, column;
    long depth;                 /* paren depth of its arguments */
    int argi;                   /* index of the current argument */
    int ntok;                   /* tokens in the current argument */
    int amp;                    /* current argument starts with '&' */
    int deref;                  /* ... with '*' (fieldarg only) */
    const char *a_s;            /* its identifier: `x` or `&x` */
    uint32_t a_len;
    int a_ok;                   /* fieldarg: the token after a_s (if
                                 * any) is ++ -- [ + or - */
    int hit;                    /* an item finding was made */
    int guarded;
} an_call;

/* A recent significant token (see an_state.ring). */
typedef struct {
    lex_kind kind;
    uint32_t punct;
    const char *s;
    uint32_t len, line, column;
    const rules_name *e;        /* IDENT: its exact entry or NULL */
} an_tok;

/* A cast to an `itemcast` type whose operand is being read: it is an item
 * site only when the operand reaches array data (analyze_items.c).  Or
 * (addr) a cast to a one-star `itemdata` type, an item site when its
 * operand is `&x` of an `itemlocal` variable x (an_addr_operand). */
typedef struct {
    int active;
    int addr;                   /* the itemdata cast; local: x in locals */
    size_t local;
    uint32_t type_len;          /* type's bytes (addr) */
    rules_verdict v;
    uint32_t line, column;
    int stars;
    const char *type;
    long depth;                 /* parens opened inside the operand */
    int ntok;
    int seen_ident;             /* the operand's first name was read */
    an_tok src;                 /* an `itemsource` name: a call if '('
                                 * follows */
    int src_valid;
} an_pcast;

#define AN_RING 8               /* power of two */
_Static_assert((AN_RING & (AN_RING - 1)) == 0, "an_prev masks with AN_RING - 1");
#define AN_MAXSCOPE 32          /* nested namespaces/classes with names */
#define AN_QUAL 192             /* bytes of a qualifier A::B:: or a scope */
#define AN_MAXCALLS 16
#define AN_MAXPARAM 16          /* parameters whose names are kept */
#define AN_MAXALIAS 32          /* locals set from a parameter */
#define AN_MAXFNALIAS 16        /* function pointers set from a name */
#define AN_MAXFCALL 16          /* nested calls whose arguments are read */
#define AN_MAXCODES 512         /* bytes of one call's argument codes: about
                                 * 20 arguments written as names (iNAME) */
#define AN_MAXSHADOW 16         /* variables named like a C API type */

/* A C API type name whose finding waits for the token after it
 * (analyze_shadow.h): text in the lexer's buffer, never spliced. */
typedef struct {
    int valid;
    int decl;                   /* it stands where a declarator can */
    const char *s;
    uint32_t len, line, column;
    rules_verdict v;
    const rules_name *cond;     /* entry with an exact-if rule, or NULL */
} an_tpend;

/* A call inside a function whose arguments the flow facts describe
 * (analyze_flow.c). */
typedef struct {
    an_tok name;
    long depth;                 /* paren depth of its arguments */
    int argi, ntok, amp, root;  /* current argument: tokens, '&', the
                                 * parameter it reaches (-1: none) */
    an_tok one;                 /* its identifier when it is one name */
    int one_valid;
    int firstroot;              /* first argument root of the call */
    char vcls;                  /* an item value site handed to it, directly
                                 * or through a local: 'L', 'F'; 0: none */
    size_t ncodes;              /* bytes of its argument codes, which are
                                 * an_state.fcodes[its index in flow.fc] */
    int codes_full;             /* the codes stopped at an argument: later
                                 * ones are left out, not moved up */
} an_fcall;

/* Flow facts state (analyze_flow.c): parameter names read at file
 * level, locals set from parameters, calls being read. */
typedef struct {
    an_tok gp[AN_MAXPARAM];     /* parameters of the group being read */
    int ngp;
    an_tok p_last, p_fp, p_inner;
    int has_last, has_fp, has_inner, p_ntok;
    an_tok fp[AN_MAXPARAM];     /* ... of the last group closed */
    int nfp;
    an_tok par[AN_MAXPARAM];    /* the open function's parameters */
    int npar;
    struct { const char *s; uint32_t len; int root; } al[AN_MAXALIAS];
    int nal;
    /* `fp = name;` (a cast or '&' allowed): a call of fp is a call of
     * each name it was set to before (numpy's array_vdot picks
     * OBJECT_vdot in a switch on the type number, then calls vdot). */
    struct { an_tok ptr, fn; } fa[AN_MAXFNALIAS];
    int nfa;
    /* `value = (char *)&obj;`: locals holding an item value site's
     * address, and the site's class ('L', 'F'). */
    struct { an_tok name; char cls; } vl[4];
    int nvl;
    an_fcall fc[AN_MAXFCALL];
    int nfc;
    an_tok lhs;                 /* `lhs = ...` being read */
    int asg, asg_ntok;
    long asg_pdepth;
    an_tok asg_cand;            /* the value's first name, decided by the
                                 * token after it */
    int asg_cand_valid;
    long asg_call;              /* the value is a call: depth of its
                                 * arguments (0: not a call) */
    int asg_argc, asg_argroot, asg_lastroot;
    int asg_view, asg_viewroot; /* an `itemview` call's argument index
                                 * (-1: none) and the parameter it reaches */
    int asg_source;             /* the call is an `itemsource`: a pointer
                                 * into its argument's data */
    an_tok deref;               /* first dereference of an item-typed
                                 * parameter (PyObject **ip1) */
    int deref_valid, deref_pending;
    int site_wait;              /* tokens left to find a site's root */
    char site_cls;              /* 'L' or 'F' */
} an_flow;

/* The pool offsets an_intern hands out while the memo records a chunk, in
 * order (analyze_build.c appends; analyze_memo.c reads them to store the
 * chunk's strings).  failed: an append ran out of memory, so the chunk is
 * not stored. */
typedef struct {
    uint32_t *v;
    size_t n, cap;
    int failed;
} an_internlog;

/* One slot of the condition cache (an_state.pcc, analyze_pp.c): the
 * bytes of an #if or #elif condition, where they lie in the buffer being
 * analysed, the language it was read in, and its verdict.  A condition
 * of plain bytes (no comment, continuation, literal or digraph) is the
 * same tokens wherever it is, and its verdict depends on them, the
 * language (`__cplusplus`, `true`) and the rules alone.  The rules are
 * fixed for one an_state, the language is not (a header turns C++ at its
 * first `namespace` or `template`), so it is part of the key. */
#define AN_PCC_BITS 6
typedef struct {
    const char *s;              /* NULL: empty slot */
    uint32_t len;
    int cpp;                    /* an_state.cpp when it was read */
    int ct;
} an_pcc;

/* One slot of the classification cache (an_state.cc, analyze_class.h):
 * a name of at most AN_CC_MAXLEN bytes by value and what rules_classify
 * said of it.  The verdict depends on the name and the rules alone, and
 * both are fixed for one an_state, so a slot never goes stale. */
#define AN_CC_BITS 8            /* 256 slots, direct-mapped: 512 or 1024
                                 * miss less but cost more to clear */
#define AN_CC_MAXLEN 24         /* longer names are not cached */
typedef struct {
    uint64_t w[3];              /* the name's bytes (an_cc_key) */
    const rules_name *e;        /* exact entry or NULL */
    const char *id;             /* verdict's rule id */
    uint32_t len;               /* 0: empty slot */
    int32_t cls;                /* verdict's class, or RULES_CLS_UNSET */
} an_cc;

/* The verdict on one token of a template's loop bodies (an_state.tv,
 * indexed by lex_token.tmpl_tok - 1): every instance hands that token out
 * with the same bytes, so it is classified once (analyze_class.h). */
typedef struct {
    const rules_name *e;        /* as an_cc */
    const char *id;
    int32_t cls;
    uint32_t set;               /* 0: not asked yet */
} an_tv;

typedef struct {
    const rules *r;
    an_result *res;
    lex_state lx;
    int rc;                     /* sticky error: 0 or PD_ENOMEM */
    int cpp;                    /* C++ source */
    const tmpl_out *tmap;       /* template expansion being analysed */

    /* Output arrays, parallel to res->findings / res->functions. */
    size_t capf, capfn;
    an_fmeta *fmeta;
    an_facc *facc;
    /* Text pool with an intern table (offset, length, hash). */
    char *pool;
    size_t pool_len, pool_cap;
    struct an_itab { uint32_t off, len, hash; } *itab;
    size_t itab_mask, itab_n;
    uint32_t file_unguarded[AN_CLASS_COUNT];
    uint32_t triggers_seen;     /* exact-if trigger bits seen */

    /* Scope. */
    long depth;                 /* brace depth, wrappers excluded */
    long pdepth;                /* paren depth */
    int32_t cur;                /* open function, or -1 */
    long wrappers;              /* open extern "C" { / namespace { */

    /* C++ names: enclosing namespaces and classes ("ns::Cls"), and the
     * qualifier written before a function's name (`Cls::` in Cls::m). */
    char scope[AN_QUAL];
    uint32_t scope_len;
    uint32_t scope_marks[AN_MAXSCOPE];  /* scope_len before each wrapper */
    an_tok scope_name;          /* name of the namespace/class declared */
    int scope_name_valid, decl_colon;
    long adepth;                /* open '<' of template arguments (C++) */
    char opname[2][16];         /* "operator ==" names, pend and cand */
    an_tok alt;                 /* K&R header with an ANSI alternative */
    int alt_valid;
    uint32_t alt_line;          /* ... and its declaration's first line */
    size_t alt_find;
    char qual[AN_QUAL], cand_qual[AN_QUAL];  /* NUL-terminated */

    /* The declaration being read at depth 0. */
    int in_decl, decl_ntok, decl_kw;
    int decl_class;             /* has class/struct/union (C++ bodies) */
    uint32_t decl_line;
    size_t decl_find;           /* index of its first finding */
    int init;                   /* after '=': an initializer */
    int ctor;                   /* after ':' past the parameters (C++) */
    an_tok pend;                /* name whose (...) group is open */
    int pend_valid, group_idlist, group_nident;
    an_tok cand;                /* name followed by a closed (...) */
    int cand_valid, cand_idlist;
    an_tok group_arg;           /* the one identifier of pend's group */
    int group_ntok;             /* tokens in pend's group */
    an_tok cand_arg;            /* ... of cand's group, if it had one */
    int cand_arg_valid;
    an_tok pend_macro, cand_macro;  /* `M` of `M(name)(params)`: the
                                     * name is made by macro M */
    int pend_macro_valid, cand_macro_valid;
    size_t cand_ring;           /* nring when cand's group closed */
    an_tok tag_kw;              /* struct/union/enum/class after cand's
                                 * group: `M(x)  struct S {` */
    int tag_kw_valid;
    size_t tag_kw_find;         /* its first finding index */
    int after_group, post_seen;
    uint32_t group_close_line, post_line;
    size_t post_find;
    int kr, kr_next;            /* K&R parameter declarations */
    uint32_t kr_line;
    size_t kr_find;

    /* Preprocessor. */
    an_frame *frames;
    size_t nframes, capframes;
    int skip;                   /* current code is skipped (#if 0) */
    int guard;                  /* number of guarded open branches */

    /* Recent tokens, ring[(nring - 1) % AN_RING] is the last one. */
    an_tok ring[AN_RING];
    size_t nring;

    /* Object-dtype tracking inside a declaration or function. */
    an_local *locals;
    size_t nlocals, caplocals;
    size_t nitemparams;         /* locals[] that are item-typed parameters
                                 * (param, pv.cls >= 0): none, no name is one */
    an_call calls[AN_MAXCALLS];
    int ncalls;
    an_pcast pcast;             /* cast waiting for its operand */
    an_tok callpend;            /* itemcopy/nullowner name before '(' */
    int callpend_valid;
    const rules_name *ld_e;     /* local declaration being read */
    int ld_state, ld_stars, ld_param;
    long ld_depth;

    /* Variables named like a C API type (analyze_shadow.h): the name
     * waiting for its next token, and those visible in the function. */
    an_tpend tpend;
    struct { const char *s; uint32_t len; long depth; } shadow[AN_MAXSHADOW];
    int nshadow;

    int types_seen;             /* an identifier that analyze_types.c reads */
    int nograph;                /* an_analyze_nograph: no calls, no flow
                                 * facts (the dereference finding of
                                 * an_flow_end is kept) */
    /* Calls in function bodies: (function, interned callee name). */
    struct an_callrec { int32_t fn; uint32_t off, len; } *callrecs;
    size_t ncallrecs, capcallrecs;
    /* Flow facts of function bodies (analyze_flow.c), same shape. */
    struct an_callrec *flowrecs;
    size_t nflowrecs, capflowrecs;
    an_flow flow;

    /* Problems for the notes. */
    uint32_t bad_close_line, bad_closes;
    uint32_t bad_pp_line, bad_pps;

    struct an_rec *rec;         /* chunk being recorded for the memo, or
                                 * NULL (analyze_memo.c) */
    an_internlog *ilog;         /* that chunk's interned strings (an_intern
                                 * appends), or NULL when not recording */
    /* Classification verdicts by name (analyze_class.h): most names
     * recur, and a hit costs half the instructions of rules_classify. */
    an_cc cc[1u << AN_CC_BITS];
    an_tv *tv;                  /* the replay's tokens' verdicts (NULL, */
    size_t ntv;                 /* 0: no replay) */
    /* The replay the walk takes its tokens from (NULL: none), and what a
     * directive of the template's bytes does, by the template token of
     * its '#' (analyze_pp.c's AN_DV_*; 0: not read yet), ntv of them. */
    tmpl_replay *rp;
    uint16_t *dv;
    /* #if/#elif verdicts by the condition's bytes (analyze_pp.c). */
    an_pcc pcc[1u << AN_PCC_BITS];
    /* The argument codes of flow.fc's calls, by index: 8 KiB kept out of
     * the calls' own state, at the end, where only appending a code
     * touches them (inside an_fcall, 16 times 512 bytes in the middle of
     * the hot state, an ingest ran 3-8 % slower in three runs).  Last,
     * so that a new state is zeroed up to them only (an_analyze_st): each
     * call starts its own codes. */
    char fcodes[AN_MAXFCALL][AN_MAXCODES];
} an_state;

/* 1 if token t is the identifier s, a string literal (its length is
 * known at compile time, so most mismatches cost one comparison). */
#define an_is(tok, lit) \
    ((tok)->len == sizeof(lit) - 1 && (tok)->kind == LEX_IDENT && \
     memcmp((tok)->s, (lit), sizeof(lit) - 1) == 0)

/* 1 if t is the punctuator p.  The lexer gives a punct code only to
 * LEX_PUNCT tokens and '#' to LEX_PP_BEGIN (lex.h), so for a constant p
 * other than '#' and 0 the code alone decides (one comparison). */
static inline int an_punct_is(const an_tok *t, uint32_t p)
{
    if (__builtin_constant_p(p) && p != '#' && p != 0)
        return t->punct == p;
    return t->kind == LEX_PUNCT && t->punct == p;
}

/* The k-th most recent significant token (1 = last), or a LEX_EOF token.
 * The ring starts zeroed (an_state is), and a zeroed an_tok is that
 * LEX_EOF token: while fewer than k tokens were seen, slot nring - k is
 * one never written (the memo's replay writes the last min(ntok, AN_RING)
 * slots it advances over), so no count test is needed. */
static inline const an_tok *an_prev(const an_state *st, size_t k)
{
    static const an_tok none = {LEX_EOF, 0, NULL, 0, 0, 0, NULL};

    if (k > AN_RING)
        return &none;
    return &st->ring[(st->nring - k) & (AN_RING - 1)];
}

/* 1 if identifier s[0..len) is one the types pass reads (HPyType_...,
 * HPyField, HPy_VISIT, HPyDef_SLOT); cheap: most names fail at s[0]. */
static inline int an_types_word(const char *s, size_t len)
{
    if (len < 8 || s[0] != 'H' || s[1] != 'P' || s[2] != 'y')
        return 0;
    return memcmp(s, "HPyType_", 8) == 0 || (len == 8 && memcmp(s, "HPyField", 8) == 0) ||
           (len == 9 && memcmp(s, "HPy_VISIT", 9) == 0) ||
           (len == 11 && memcmp(s, "HPyDef_SLOT", 11) == 0);
}

#endif
