/* e^x of an f32 rounded once to f32 (nearest even), the exp of every op that has one
 * (exp_f32.c); NaN for NaN. */
#ifndef PT_EXP_F32_H
#define PT_EXP_F32_H

float pt_exp_f32(float x);

#endif
