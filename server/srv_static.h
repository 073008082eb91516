/*
 * srv_static.h: serving the dashboard's files from the static directory.
 */
#ifndef SRV_STATIC_H
#define SRV_STATIC_H

#include "srv_reply.h"
#include "srv_req.h"

/*
 * Handler for "/" (index.html) and "/{file...}": serves a regular file
 * under the static directory.  Segments starting with '.' are refused, so
 * no path leaves the directory.  Unknown files get a 404 problem document.
 */
enum MHD_Result srv_static_serve(srv_req *r);

/*
 * Handler for "/vendor/chart.js/{file...}": the charting library, served
 * from the npm install (node_modules/chart.js/dist) that `make deps` makes,
 * so that no third-party build is committed.
 */
enum MHD_Result srv_static_chartjs(srv_req *r);

/*
 * Handler for "/vendor/{lib}/{file...}": marked (marked/lib) and DOMPurify
 * (dompurify/dist), which render and sanitise the weekly report, and jsdiff
 * (diff/dist, the function diffs of the commit and compare pages), from the
 * same vendor directory as Chart.js.  Other names get a 404.
 */
enum MHD_Result srv_static_vendor(srv_req *r);

/*
 * The files the dashboard loads that are not readable under the vendor
 * directory `dir`: up to `max` of their paths (static strings) in
 * missing[]; returns how many were put there (0: all there).
 */
size_t srv_static_vendor_missing(const char *dir, const char **missing, size_t max);

#endif
