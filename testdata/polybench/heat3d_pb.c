/* heat3d_pb: PolyBench/C 4.2.1 heat-3d, kernel unchanged (macros as simple #defines, iterators declared in the for statements) */
#include <stdio.h>
#include <math.h>

#define TSTEPS 4
#define N 12
#define _PB_N N
#define DATA_TYPE double
#define SCALAR_VAL(x) x

DATA_TYPE A[N][N][N], B[N][N][N];

static void kernel_heat_3d(void)
{
#pragma scop
    for (int t = 1; t <= TSTEPS; t++) {
        for (int i = 1; i < _PB_N-1; i++) {
            for (int j = 1; j < _PB_N-1; j++) {
                for (int k = 1; k < _PB_N-1; k++) {
                    B[i][j][k] =   SCALAR_VAL(0.125) * (A[i+1][j][k] - SCALAR_VAL(2.0) * A[i][j][k] + A[i-1][j][k])
                                 + SCALAR_VAL(0.125) * (A[i][j+1][k] - SCALAR_VAL(2.0) * A[i][j][k] + A[i][j-1][k])
                                 + SCALAR_VAL(0.125) * (A[i][j][k+1] - SCALAR_VAL(2.0) * A[i][j][k] + A[i][j][k-1])
                                 + A[i][j][k];
                }
            }
        }
        for (int i = 1; i < _PB_N-1; i++) {
           for (int j = 1; j < _PB_N-1; j++) {
               for (int k = 1; k < _PB_N-1; k++) {
                   A[i][j][k] =   SCALAR_VAL(0.125) * (B[i+1][j][k] - SCALAR_VAL(2.0) * B[i][j][k] + B[i-1][j][k])
                                + SCALAR_VAL(0.125) * (B[i][j+1][k] - SCALAR_VAL(2.0) * B[i][j][k] + B[i][j-1][k])
                                + SCALAR_VAL(0.125) * (B[i][j][k+1] - SCALAR_VAL(2.0) * B[i][j][k] + B[i][j][k-1])
                                + B[i][j][k];
               }
           }
       }
    }
#pragma endscop
}

int main(void)
{
	double sum = 0.0;

	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			for (int k = 0; k < N; k++)
				A[i][j][k] = B[i][j][k] = (DATA_TYPE) (i + j + (N-k))* 10 / (N);
	kernel_heat_3d();
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			for (int k = 0; k < N; k++)
				sum += A[i][j][k];
	printf("checksum %.10e\n", sum);
	return 0;
}
