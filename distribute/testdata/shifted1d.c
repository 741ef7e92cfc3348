/* shifted1d: the write is shifted from the counter (A[..][i + 1]), the time
   buffer is the inner dimension, and the loop counts down. */
#include <stdio.h>
#define N 41
#define T 9
float A[N][2];
int main(void)
{
	for (int i = 0; i < N; i++)
		A[i][0] = A[i][1] = (float)(i % 7) / 7.0f;
#pragma scop
	for (int t = 0; t < T; t++)
		for (int i = N - 3; i >= 0; i--)
			A[i + 1][(t + 1) % 2] = 0.25f * A[i][t % 2] + 0.5f * A[i + 1][t % 2] + 0.25f * A[i + 2][t % 2];
#pragma endscop
	double s = 0;
	for (int i = 0; i < N; i++)
		s += A[i][T % 2] * (i + 1);
	printf("checksum %.10e\n", s);
	return 0;
}
