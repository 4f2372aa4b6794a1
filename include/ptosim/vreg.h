/* ptosim — the value kinds of the A5 vector core (vpto-spec.md, micro-isa 03-05).
 *
 * A vector register (!pto.vreg<NxT>) is always 256 bytes: 256 lanes of 8-bit types, 128 of
 * 16-bit, 64 of 32-bit, 32 of 64-bit; lane i of a T-typed register occupies bytes
 * [i * sizeof(T), (i + 1) * sizeof(T)), little-endian. Its eight 32-byte VLanes are the unit of
 * the group reductions.
 *
 * A predicate (!pto.mask<b8|b16|b32>) is 256 bits, one bit per byte of a register: bit j is
 * bit (j % 8) of byte j / 8. An op on T-typed lanes reads lane i as active when bit
 * i * sizeof(T) is set (the granularity view; the other bits of the lane are ignored).
 *
 * An alignment state (!pto.align) carries the buffered bytes of an unaligned load or store
 * stream (vldas / vldus, vstus / vstas ...). */
#ifndef PTOSIM_VREG_H
#define PTOSIM_VREG_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PTOSIM_VREG_BYTES 256
#define PTOSIM_VLANE_BYTES 32

typedef struct ptosim_vreg {
  uint8_t b[PTOSIM_VREG_BYTES];
} ptosim_vreg;

typedef struct ptosim_vmask {
  uint8_t b[PTOSIM_VREG_BYTES / 8];
} ptosim_vmask;

/* The buffer of an unaligned stream: up to one register of pending bytes. */
typedef struct ptosim_valign {
  uint8_t b[PTOSIM_VREG_BYTES];
  uint32_t nbytes; /* pending bytes in b[0, nbytes) */
  uint64_t addr;   /* UB byte address the stream has reached */
} ptosim_valign;

#ifdef __cplusplus
}
#endif
#endif
