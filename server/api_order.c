/*
 * api_order.c: the order of a first-parent chain against its dates (see
 * api_order.h).
 */
#include "api_order.h"

void api_order_step(api_order *o, int64_t t, int restart)
{
    o->pos = o->n++;
    o->out = o->pos > 0 && !restart && t < o->tmax;
    if (o->out)
        o->late++;
    if (o->pos == 0 || restart || t > o->tmax)
        o->tmax = t;
}
