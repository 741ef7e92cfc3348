/* Global arrays (static and not), iterators and a coefficient at file
 * scope, a const and a restrict-qualified pointer in the kernel. */
#include <stdio.h>

#define N 48
#define T 8

static float A[N][N];
float B[N][N];
static float coef = 0.2f;
int t, i, j;

static void step(void)
{
  float *restrict unused = 0;
  const int pad = 1;

  (void)unused;
  (void)pad;
#pragma scop
  for (t = 0; t < T; t++) {
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < N - 1; j++)
        B[i][j] = coef * (A[i][j] + A[i - 1][j] + A[i + 1][j] + A[i][j - 1] + A[i][j + 1]);
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < N - 1; j++)
        A[i][j] = B[i][j];
  }
#pragma endscop
}

int main(void)
{
  double sum = 0;

  for (int x = 0; x < N; x++)
    for (int y = 0; y < N; y++)
      A[x][y] = (float)((x * 7 + y * 3) % 11) / 11.0f;
  step();
  for (int x = 0; x < N; x++)
    for (int y = 0; y < N; y++)
      sum += A[x][y];
  printf("checksum %.10e\n", sum);
  return 0;
}
