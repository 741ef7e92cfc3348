/* coef2d: a read-only coefficient array (held whole by every rank), a
   constant-position statement (the boundary row), reads of a fixed row. */
#define N 23
#define M 17
#define T 7
float A[N][M];
float B[N][M];
float C[M];
void kernel(void)
{
#pragma scop
	for (int t = 0; t < T; t++) {
		for (int j = 0; j < M; j++)
			A[0][j] = C[j] + A[1][j];
		for (int i = 1; i < N - 1; i++)
			for (int j = 1; j < M - 1; j++)
				B[i][j] = C[j] * (A[i - 1][j] + A[i + 1][j + 1]) + A[i][j - 1];
		for (int i = 1; i < N - 1; i++)
			for (int j = 1; j < M - 1; j++)
				A[i][j] = B[i][j] * 0.5f;
	}
#pragma endscop
}
