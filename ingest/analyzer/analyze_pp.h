/*
 * analyze_pp.h: preprocessor directives (analyze_pp.c).
 */
#ifndef ANALYZE_PP_H
#define ANALYZE_PP_H

#include "analyze_int.h"

void an_directive(an_state *st);

#endif
