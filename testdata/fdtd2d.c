/* fdtd2d: FDTD 2-D (paper benchmark, PolyBench style): the ey[0][j] = fict[t] row and three update statements */
#include <stdio.h>
#include <math.h>

#define NX 32
#define NY 32
#define T 6

float ex[NX][NY];
float ey[NX][NY];
float hz[NX][NY];
float fict[T];

static void init(void)
{
	for (int t = 0; t < T; t++)
		fict[t] = (float) t;
	for (int i = 0; i < NX; i++)
		for (int j = 0; j < NY; j++) {
			ex[i][j] = ((float) i * (j + 1)) / NX;
			ey[i][j] = ((float) i * (j + 2)) / NY;
			hz[i][j] = ((float) i * (j + 3)) / NX;
		}
}

static void kernel(void)
{
#pragma scop
	for (int t = 0; t < T; t++) {
		for (int j = 0; j < NY; j++)
			ey[0][j] = fict[t];
		for (int i = 1; i < NX; i++)
			for (int j = 0; j < NY; j++)
				ey[i][j] = ey[i][j] - 0.5f * (hz[i][j] - hz[i - 1][j]);
		for (int i = 0; i < NX; i++)
			for (int j = 1; j < NY; j++)
				ex[i][j] = ex[i][j] - 0.5f * (hz[i][j] - hz[i][j - 1]);
		for (int i = 0; i < NX - 1; i++)
			for (int j = 0; j < NY - 1; j++)
				hz[i][j] = hz[i][j] - 0.7f * (ex[i][j + 1] - ex[i][j] + ey[i + 1][j] - ey[i][j]);
	}
#pragma endscop
}

int main(void)
{
	double sum = 0.0;

	init();
	kernel();
	for (int i = 0; i < NX; i++)
		for (int j = 0; j < NY; j++)
			sum += (double) ex[i][j] + (double) ey[i][j] + (double) hz[i][j];
	printf("checksum %.10e\n", sum);
	return 0;
}
