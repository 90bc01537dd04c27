/* sanfab — table loader of the Maestro switch box: reads one box's destination table from a
 * `sanfab-maestro 1` file (docs/routing.md, "Maestro switch-box tables"; written by sf_write_maestro,
 * `sanfab-route ... --maestro FILE`) for the box's register port (docs/sbox.md, table entries
 * 0x120..0x12F). Errors read "FILE:LINE: problem" (or "FILE: problem" when no line is to blame).
 */
#ifndef SANFAB_SBOX_LOAD_H
#define SANFAB_SBOX_LOAD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Destination nodes a box's table can hold (MASK has 16 bits; docs/sbox.md, NODES). */
#define SBOX_LOAD_MAX_NODES 16u
/* Ports of the largest box (docs/sbox.md, PORTS). */
#define SBOX_LOAD_MAX_PORTS 8u

/* One box's table: port[d] for every destination node d < nodes, -1 where the file has no entry. */
typedef struct {
    unsigned switches, hosts;        /* the `switches S hosts H` header line */
    char algorithm[160];             /* the rest of the `algorithm` line */
    unsigned switch_id;              /* the box loaded */
    unsigned nodes;                  /* node count: the file's hosts (<= SBOX_LOAD_MAX_NODES) */
    unsigned entries;                /* distinct destinations with a port */
    int port[SBOX_LOAD_MAX_NODES];   /* port of destination d, or -1 (entry invalid) */
    unsigned line[SBOX_LOAD_MAX_NODES]; /* the line that gave it (0: none) */
} sbox_table_t;

/* Reads `path` and fills `t` with the table of switch `switch_id`. The whole file is checked for
 * form (every line of every switch); the chosen box's entries are then checked against the box:
 * `ports` (a port must be < ports) and `nodes` (a destination must be < nodes); 0 for either means
 * the largest box (8 ports, 16 nodes). Returns 0 on success, -1 with "FILE:LINE: problem" in err
 * (t then holds no entry). */
int sbox_load_file(const char *path, unsigned switch_id, unsigned ports, unsigned nodes, sbox_table_t *t, char *err,
                   size_t errlen);

/* sbox_load_file on an open stream (read from its position to its end, not closed); `path` names it in messages. */
int sbox_load_stream(FILE *fp, const char *path, unsigned switch_id, unsigned ports, unsigned nodes, sbox_table_t *t,
                     char *err, size_t errlen);

/* The register write that sets entry d (docs/sbox.md, Register port): address 0x120 + d,
 * data bit 4 valid and bits 2..0 the port (0: invalid). */
static inline uint16_t sbox_table_addr(unsigned d) { return (uint16_t)(0x120u + (d & 15u)); }
static inline uint16_t sbox_table_wdata(const sbox_table_t *t, unsigned d)
{
    return d < t->nodes && t->port[d] >= 0 ? (uint16_t)(0x10u | ((unsigned)t->port[d] & 7u)) : 0u;
}

#endif
