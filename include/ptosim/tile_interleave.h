/* Parameters of pto.tinterleave and pto.tdeinterleave (A5; pto-isa docs/isa/TINTERLEAVE.md,
 * TDEINTERLEAVE.md, include/pto/npu/a5/TInterleave.hpp, TDeInterleave.hpp). Text:
 *   pto.tinterleave   ins(%src0, %src1 : T, T) outs(%dst0, %dst1 : T, T)
 *   pto.tdeinterleave ins(%src0, %src1 : T, T) outs(%dst0, %dst1 : T, T)
 *   pto.tdeinterleave ins(%src : T) outs(%dst0, %dst1 : T, T)   (single: src in src0) */
#ifndef PTOSIM_TILE_INTERLEAVE_H
#define PTOSIM_TILE_INTERLEAVE_H

#include <stdbool.h>

#include "ptosim/tile.h"

typedef struct ptosim_tinterleave_params {
  ptosim_tile src0, src1; /* src1 unused when single */
  ptosim_tile dst0, dst1;
  bool single; /* tdeinterleave's single-source form */
} ptosim_tinterleave_params;

#endif
