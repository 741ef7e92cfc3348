/* A 2-D wave equation in three time fields (A[(t+2)%3] from the two
 * fields before it): a band's stores of one field are dead (the next
 * band overwrites it first), those of the two it reads are live. */
#define N 40
#define T 11
float A[3][N][N];

void kernel(void)
{
#pragma scop
	for (int t = 0; t < T; t++)
		for (int i = 1; i < N - 1; i++)
			for (int j = 1; j < N - 1; j++)
				A[(t + 2) % 3][i][j] = 2.0f * A[(t + 1) % 3][i][j] - A[t % 3][i][j] + 0.1f * (A[(t + 1) % 3][i - 1][j] + A[(t + 1) % 3][i + 1][j] + A[(t + 1) % 3][i][j - 1] + A[(t + 1) % 3][i][j + 1] - 4.0f * A[(t + 1) % 3][i][j]);
#pragma endscop
}
