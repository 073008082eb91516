/*
 * api_badge.h: SVG badges for READMEs (api_badge.c).
 */
#ifndef API_BADGE_H
#define API_BADGE_H

#include "srv_reply.h"
#include "srv_req.h"

#include <stddef.h>

/*
 * The SVG of a badge: `label` and `value` as its two parts (shields.io's
 * layout), `title` as its tooltip and accessible name, the value's part
 * coloured by `progress` (0..1 on shields.io's red-to-green scale, below 0
 * grey).  All three are XML-escaped (pd_esc_xml): a value reads "<1%" for
 * a port that started (pd_percent_text).  Returns a malloc'd, NUL-ended
 * text the caller frees, its length in *len; NULL when out of memory.
 */
char *api_badge_svg(const char *label, const char *value, const char *title,
                    double progress, size_t *len);

/* GET /badge/{repo}/{ref}/{measure}.svg */
enum MHD_Result api_badge(srv_req *r);

#endif
