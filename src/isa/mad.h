/* The mad engine as a service for the tile matrix ops (src/isa/tile_matrix.c): the same
 * checks, footprints and FMA chains as pto.mad* (src/isa/mad.c). */
#ifndef PT_MAD_H
#define PT_MAD_H

#include <stdbool.h>

#include "isa/isa.h"

/* What the FMA chain of every output element starts from. */
typedef enum pt_mad_seed { PT_MAD_SEED_ZERO, PT_MAD_SEED_ACC, PT_MAD_SEED_BIAS } pt_mad_seed;

/* Run one MAD described by p (operands as pto.mad* reads them). check_combo: verify the
 * (lhs, rhs, dst) element types against the micro-op tables; the tile ops pass false after
 * checking their own tables (tile MX also pairs f8E5M2, which pto.mad_mx* does not take). */
ptosim_status pt_mad_run(pt_ctx *x, const ptosim_mad_params *p, pt_mad_seed seed, bool mx, bool check_combo);

#endif
