/*
 * rules_profile.c: the `profile` directive of a rules file: what the port
 * has, for the views rather than the analyzer (issue 23, point 4):
 *
 *   profile object-dtype yes|no|auto    object-dtype cards, panel, scopes
 *   profile scopes NAME...              the named scopes (scopes file) that
 *                                       apply; none: every one that selects
 *   profile measure KEY                 the trend's default measure
 *   profile hpy VERSION                 the HPy version the port targets
 *
 * The analysis does not read them; they change the rules hash like any
 * line, so the files are analysed again when the profile changes.
 */
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "pd_error.h"
#include "rules.h"
#include "rules_int.h"

/* The words av[from..ac) joined by spaces, into the arena (NULL: no memory). */
static const char *rules_profile_words(rules *r, char **av, int from, int ac)
{
    char buf[1024];
    size_t n = 0;
    int i;

    buf[0] = '\0';
    for (i = from; i < ac && n < sizeof(buf); i++)
        n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s", i > from ? " " : "", av[i]);
    return rules_strndup(r, buf, strlen(buf));
}

int rules_d_profile(rules *r, const rules_ctx *c, char **av, int ac, unsigned arg)
{
    const char *key = av[1];
    const char **slot = NULL;

    if (!strcmp(key, "object-dtype")) {
        if (ac != 3 || (strcmp(av[2], "yes") && strcmp(av[2], "no") && strcmp(av[2], "auto")))
            return rules_err(c, "'profile object-dtype' takes yes, no or auto");
        r->prof_object_dtype = !strcmp(av[2], "yes") ? 1 : !strcmp(av[2], "no") ? 0 : -1;
        return 0;
    }
    if (!strcmp(key, "scopes"))
        slot = &r->prof_scopes;
    else if (!strcmp(key, "measure") && ac == 3)
        slot = &r->prof_measure;
    else if (!strcmp(key, "hpy") && ac == 3)
        slot = &r->prof_hpy;
    if (!slot)
        return rules_err(c, "'profile %s': the keys are object-dtype yes|no|auto, "
                         "scopes NAME..., measure KEY, hpy VERSION", key);
    if (!(*slot = rules_profile_words(r, av, 2, ac)))
        return pd_error_nomem("loading rules");
    return 0;
}

char *rules_profile_json(const rules *r)
{
    json_t *o = json_object(), *scopes = json_null();
    char *text;

    if (r->prof_scopes) {
        char buf[1024], *save = NULL, *w;

        scopes = json_array();
        snprintf(buf, sizeof(buf), "%s", r->prof_scopes);
        for (w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save))
            json_array_append_new(scopes, json_string(w));
    }
    json_object_set_new(o, "object_dtype", r->prof_object_dtype < 0 ? json_string("auto")
                                           : json_boolean(r->prof_object_dtype));
    json_object_set_new(o, "scopes", scopes);
    json_object_set_new(o, "default_measure",
                        r->prof_measure ? json_string(r->prof_measure) : json_null());
    json_object_set_new(o, "hpy_version", r->prof_hpy ? json_string(r->prof_hpy) : json_null());
    text = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    return text;
}
