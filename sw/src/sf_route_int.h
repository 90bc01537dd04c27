/* sf_route_int.h - declarations shared by the routing library's own files (sf_engine.c, sf_rules.c, sf_layers.c);
 * not part of the public API (sf_route.h). */
#ifndef SF_ROUTE_INT_H
#define SF_ROUTE_INT_H

#include "sf_route.h"

/* The channel classes of `rule` (as sf_channel_classes) and, if dir_out, the up/down orientation they were made
 * from (sf_updown_dir of root; owned by the caller). */
int8_t *sf_rule_classes(const sf_topo *t, sf_rule rule, int root, int8_t **dir_out);

/* LASH's layers (sf_layers.c): one acyclic channel dependency graph per layer, up to maxvc (1..64) layers. */
typedef struct sf_layers sf_layers;
/* empty layers for the channels of t */
sf_layers *sf_layers_new(const sf_topo *t, int maxvc);
/* put path `id` of rs in the lowest layer whose dependency graph stays acyclic and set its VCs to that layer; -1
 * with e set if none does */
int sf_layers_place(sf_layers *S, sf_routes *rs, int id, sf_err *e);
/* layers used so far */
int sf_layers_used(const sf_layers *S);
/* free S and its layers */
void sf_layers_free(sf_layers *S);

#endif
