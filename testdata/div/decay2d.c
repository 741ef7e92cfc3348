/* A 2-D stencil divided by 30 whose weights sum to 0.03 in magnitude: a
 * cell's value shrinks about 30-fold per cell away from the boundary, so
 * the middle of a 60^2 grid (29 cells in) passes through the subnormals
 * (0.03^29 ~ 6e-45), and
 * hx_divc takes its product path where |x| >= 2^-100 and divides below
 * (the emulator compares bit for bit). */
#define N 60
#define T 60
float A[2][N][N];

void kernel(void)
{
#pragma scop
	for (int t = 0; t < T; t++)
		for (int i = 1; i < N - 1; i++)
			for (int j = 1; j < N - 1; j++)
				A[(t + 1) % 2][i][j] = (0.2f * A[t % 2][i - 1][j] - 0.3f * A[t % 2][i][j] + 0.2f * A[t % 2][i + 1][j] + 0.1f * A[t % 2][i][j - 1] + 0.1f * A[t % 2][i][j + 1]) / 30;
#pragma endscop
}
