/* A reduced AN5D common.h: the element type and the kernel's prototype. */
#ifndef SB_TYPE
#define SB_TYPE float
#endif
#include <stdbool.h>
double kernel_stencil(SB_TYPE *A1, int compsize, int timestep, bool scop);
