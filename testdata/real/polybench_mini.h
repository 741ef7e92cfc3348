/* A reduced polybench.h: the macros PolyBench kernels use in their
   declarations and loop bounds (the real header defines them the same way). */
#ifndef POLYBENCH_MINI_H
#define POLYBENCH_MINI_H
#ifndef POLYBENCH_PADDING_FACTOR
# define POLYBENCH_PADDING_FACTOR 0
#endif
#ifdef POLYBENCH_USE_RESTRICT
# define POLYBENCH_RESTRICT restrict
#else
# define POLYBENCH_RESTRICT
#endif
#ifndef POLYBENCH_USE_C99_PROTO
# define POLYBENCH_C99_SELECT(x,y) (x)
#else
# define POLYBENCH_C99_SELECT(x,y) (y)
#endif
#ifdef POLYBENCH_USE_SCALAR_LB
# define POLYBENCH_LOOP_BOUND(x,y) y
#else
# define POLYBENCH_LOOP_BOUND(x,y) x
#endif
#define POLYBENCH_1D(var, dim1,ddim1) var[POLYBENCH_RESTRICT POLYBENCH_C99_SELECT(dim1,ddim1) + POLYBENCH_PADDING_FACTOR]
#define POLYBENCH_2D(var, dim1, dim2, ddim1, ddim2) var[POLYBENCH_RESTRICT POLYBENCH_C99_SELECT(dim1,ddim1) + POLYBENCH_PADDING_FACTOR][POLYBENCH_C99_SELECT(dim2,ddim2) + POLYBENCH_PADDING_FACTOR]
#define POLYBENCH_ARRAY(x) *x
#define POLYBENCH_2D_ARRAY_DECL(var, type, dim1, dim2, ddim1, ddim2) \
  type POLYBENCH_2D(var, dim1, dim2, ddim1, ddim2);
#endif
