/* fdtd2d_pb: PolyBench/C 4.2.1 fdtd-2d, kernel unchanged (macros as simple #defines, iterators declared in the for statements) */
#include <stdio.h>
#include <math.h>

#define TMAX 5
#define NX 20
#define NY 30
#define _PB_TMAX TMAX
#define _PB_NX NX
#define _PB_NY NY
#define DATA_TYPE double
#define SCALAR_VAL(x) x

DATA_TYPE ex[NX][NY], ey[NX][NY], hz[NX][NY], _fict_[TMAX];

static void kernel_fdtd_2d(void)
{
#pragma scop
  for(int t = 0; t < _PB_TMAX; t++)
    {
      for (int j = 0; j < _PB_NY; j++)
	ey[0][j] = _fict_[t];
      for (int i = 1; i < _PB_NX; i++)
	for (int j = 0; j < _PB_NY; j++)
	  ey[i][j] = ey[i][j] - SCALAR_VAL(0.5)*(hz[i][j]-hz[i-1][j]);
      for (int i = 0; i < _PB_NX; i++)
	for (int j = 1; j < _PB_NY; j++)
	  ex[i][j] = ex[i][j] - SCALAR_VAL(0.5)*(hz[i][j]-hz[i][j-1]);
      for (int i = 0; i < _PB_NX - 1; i++)
	for (int j = 0; j < _PB_NY - 1; j++)
	  hz[i][j] = hz[i][j] - SCALAR_VAL(0.7)*  (ex[i][j+1] - ex[i][j] +
				       ey[i+1][j] - ey[i][j]);
    }
#pragma endscop
}

int main(void)
{
	double sum = 0.0;

	for (int i = 0; i < TMAX; i++)
		_fict_[i] = (DATA_TYPE) i;
	for (int i = 0; i < NX; i++)
		for (int j = 0; j < NY; j++) {
			ex[i][j] = ((DATA_TYPE) i*(j+1)) / NX;
			ey[i][j] = ((DATA_TYPE) i*(j+2)) / NY;
			hz[i][j] = ((DATA_TYPE) i*(j+3)) / NX;
		}
	kernel_fdtd_2d();
	for (int i = 0; i < NX; i++)
		for (int j = 0; j < NY; j++)
			sum += ex[i][j] + ey[i][j] + hz[i][j];
	printf("checksum %.10e\n", sum);
	return 0;
}
