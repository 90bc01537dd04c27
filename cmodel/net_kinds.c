/* sanfab — the switch kinds of the network fabric by name (net.h): each kind's adapter lives beside its
 * model; this list is the only place that names them all. */
#include "net.h"

#include "sbox_net.h"
#include "vcsw_net.h"
#include "xbar_net.h"

#include <string.h>

static const net_switch_ops *const kinds[] = {&net_xbar_ops, &net_vcsw_ops, &net_sbox_ops};

const net_switch_ops *net_switch_kind(const char *name)
{
    for (size_t i = 0; name && i < sizeof kinds / sizeof kinds[0]; i++)
        if (strcmp(name, kinds[i]->name) == 0)
            return kinds[i];
    return NULL;
}

const char *net_switch_kind_names(void) { return "xbar, vcsw, sbox"; }
