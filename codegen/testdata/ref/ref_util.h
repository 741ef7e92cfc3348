/* A header of the test programs, found beside them (#include "..."). */
#ifndef REF_UTIL_H
#define REF_UTIL_H
static double ref_sum(const double *a, int n)
{
  double s = 0;
  for (int k = 0; k < n; k++)
    s += a[k];
  return s;
}
#endif
