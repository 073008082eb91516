/*
 * srv_static.h: serving the dashboard's files from the static directory.
 */
#ifndef SRV_STATIC_H
#define SRV_STATIC_H

#include "srv.h"

/*
 * Handler for "/" (index.html) and "/{file...}": serves a regular file
 * under the static directory.  Segments starting with '.' are refused, so
 * no path leaves the directory.  Unknown files get a 404 problem document.
 */
enum MHD_Result srv_static_serve(srv_req *r);

#endif
