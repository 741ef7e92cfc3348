/* An offset stencil with a 64-bit parameter: the iterators run from OFF,
 * which may exceed the range of int (e.g. 3000000000), and the statement
 * uses the absolute index (i % 7), so int arithmetic anywhere is visible;
 * a helper comes from a header beside the file. */
#include <stdio.h>
#include "ref_util.h"

#define N 64
#define T 5

static double A[2][N];

void kernel(long OFF)
{
  long t, i;

#pragma scop
  for (t = 0; t < T; t++)
    for (i = OFF + 1; i < OFF + N - 1; i++)
      A[(t + 1) % 2][i - OFF] = 0.25 * (A[t % 2][i - OFF - 1] + 2.0 * A[t % 2][i - OFF] + A[t % 2][i - OFF + 1]) + 0.125 * (i % 7);
#pragma endscop
}

int main(void)
{
  for (int x = 0; x < N; x++)
    A[0][x] = A[1][x] = x % 5;
  kernel(3000000000L);
  printf("checksum %.10e\n", ref_sum(A[T % 2], N));
  return 0;
}
