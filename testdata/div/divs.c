/* Divisions of a float stencil: by constants hextile prints as hx_divc
 * (an int, a float literal, a cast, a negated literal) and by what it
 * keeps dividing (a double literal: a double division; a parameter; a
 * constant beyond 2^20). */
#define N 30
#define T 4
float A[2][N][N];
float B[N][N];

void kernel(void)
{
#pragma scop
	for (int t = 0; t < T; t++) {
		for (int i = 1; i < N - 1; i++)
			for (int j = 1; j < N - 1; j++)
				B[i][j] = (A[t % 2][i - 1][j] + A[t % 2][i + 1][j]) / 118 + A[t % 2][i][j] / 9.2f - A[t % 2][i][j - 1] / (float)3 + A[t % 2][i][j + 1] / -7.0f;
		for (int i = 1; i < N - 1; i++)
			for (int j = 1; j < N - 1; j++)
				A[(t + 1) % 2][i][j] = B[i][j] / 0.5 + B[i][j] / N + B[i][j] / 3e7f;
	}
#pragma endscop
}
