/*
 * pd_plan.h: a porting order from the call graph (issue 24, point 2).
 *
 * The graph is the repository's functions at one revision, each marked
 * blocking (legacy or bridged: it needs CPython) or not, with edges from
 * a caller to each in-repository definition its calls resolve to (the
 * frontier's resolution, api_frontier.c).  The rule the plan follows: a
 * function is portable when none of its callees is blocking, because a
 * ported (HPy) function that calls a legacy one needs a bridge to do it.
 *
 *   - unblocks(f): the blocking callers whose only blocking callee is f:
 *     porting f makes them portable next;
 *   - files_ready(f): the files whose only blocking function is f and
 *     that have no blocking use outside functions: porting f makes them
 *     universal-ready;
 *   - a plan for a target set (the blocking functions of a file or a
 *     scope): the target and every blocking function it reaches through
 *     calls (nothing less makes the target portable without bridges),
 *     cut into steps callees first (a call cycle is one level: its
 *     functions are ported together), each step naming what it unblocks
 *     and which files become universal-ready once it is done.
 *
 * Pure: no database, no I/O; names and paths stay with the caller, who
 * refers to functions and files by index.  Not thread-safe per graph.
 */
#ifndef PD_PLAN_H
#define PD_PLAN_H

#include <stddef.h>
#include <stdint.h>

typedef struct pd_plan pd_plan;

/* A graph of nfn functions in nfiles files, no edges yet, nothing
 * blocking.  0 or PD_ENOMEM. */
int pd_plan_new(pd_plan **out, size_t nfn, size_t nfiles);

void pd_plan_free(pd_plan *p);

/* Function i lives in file `file`; blocking 1 when it needs CPython. */
void pd_plan_set_fn(pd_plan *p, size_t i, uint32_t file, int blocking);

/* File `file` has blocking uses outside any function (a PyObject_HEAD in
 * a struct, a file-scope PyObject *): porting functions alone cannot make
 * it universal-ready. */
void pd_plan_set_file_blocked(pd_plan *p, uint32_t file);

/* caller calls callee (a self call is ignored, a repeated edge counts
 * once).  0 or PD_ENOMEM. */
int pd_plan_add_edge(pd_plan *p, size_t caller, size_t callee);

/* Index the edges; call once after the last add_edge.  0 or PD_ENOMEM. */
int pd_plan_finish(pd_plan *p);

/* Blocking callees of i (distinct, not counting i itself). */
size_t pd_plan_blocking_callees(const pd_plan *p, size_t i);

/* What porting i alone unblocks now (see above); 0 for a function that is
 * not blocking or not yet portable. */
size_t pd_plan_unblocks(const pd_plan *p, size_t i);

/* Files that porting i alone makes universal-ready. */
size_t pd_plan_files_ready(const pd_plan *p, size_t i);

/* One step of a plan. */
typedef struct {
    size_t fn;              /* the function to port */
    uint32_t level;         /* 0: no blocking callee; n: after level n-1 */
    int cycle;              /* 1: in a call cycle ported together */
    size_t *unblocks;       /* callers in the plan that become portable */
    size_t nunblocks;
    uint32_t *files_ready;  /* files universal-ready once this step is done */
    size_t nfiles_ready;
} pd_plan_step;

typedef struct {
    pd_plan_step *steps;    /* callees first: level, then the caller's order */
    size_t nsteps;
    size_t ntarget;         /* blocking functions of the target */
    size_t nbeyond;         /* reached through calls from outside the target */
} pd_plan_result;

/*
 * The plan that makes the blocking functions among target[0..n) portable
 * and ported.  Steps of one level keep the order of `rank` (lower first;
 * NULL: function index), which the caller sets to group a level by file
 * and owner.  0 or PD_ENOMEM; free with pd_plan_result_free.
 */
int pd_plan_make(const pd_plan *p, const size_t *target, size_t n, const uint64_t *rank,
                 pd_plan_result *out);

void pd_plan_result_free(pd_plan_result *r);

#endif
