/* THCTensorMath.h: the operation codes of the device tensor math
 * (generic/THCTensorMath.h declares the functions, generic/THCTensorMath.cu
 * defines them).  The part between the cdef markers is also read by the
 * cffi build: Python names the operations lib.THC_ADD, lib.THC_SUM, ...
 *
 * Integer (int64) tensors take the operations marked "int" below; the
 * others are for float and double tensors only (an int64 call is refused). */
#ifndef THC_TENSOR_MATH_H
#define THC_TENSOR_MATH_H

/* cdef-begin */
enum THCMathOp {
  /* THCTensor_(map), one operand x: out = f(x) */
  THC_ID = 0,           /* x (copy, or fill with a scalar)            int */
  THC_NEG = 1,          /* -x                                         int */
  THC_ABS = 2,          /* |x|                                        int */
  THC_SIGN = 3,         /* -1, 0 or 1 (NaN stays NaN)                 int */
  THC_EXP = 4,
  THC_LOG = 5,
  THC_LOG1P = 6,
  THC_EXPM1 = 7,
  THC_SQRT = 8,
  THC_SQUARE = 9,       /* x * x                                      int */
  THC_FLOOR = 10,
  THC_CEIL = 11,
  THC_RINT = 12,        /* to the nearest integer, halves to even (numpy's round) */
  THC_TRUNC = 13,
  THC_TANH = 14,
  THC_SIGMOID = 15,     /* 1 / (1 + exp(-x)) */
  THC_SIN = 16,
  THC_COS = 17,
  THC_LNOT = 18,        /* x == 0 ? 1 : 0                             int */
  THC_RECIPROCAL = 19,  /* 1 / x */
  /* THCTensor_(map), two operands x, y: out = f(x, y) */
  THC_ADD = 32,         /*                                            int */
  THC_SUB = 33,         /*                                            int */
  THC_MUL = 34,         /*                                            int */
  THC_DIV = 35,         /* x / y */
  THC_FLOORDIV = 36,    /* floor(x / y) as numpy's floor_divide (int: 0 for y = 0)   int */
  THC_MOD = 37,         /* x - floor(x / y) * y, the sign of y, as numpy's mod (int: 0 for y = 0)   int */
  THC_POW = 38,         /* x ** y */
  THC_MAXIMUM = 39,     /* the larger; NaN if either is NaN           int */
  THC_MINIMUM = 40,     /* the smaller; NaN if either is NaN          int */
  THC_LOGADDEXP = 41,   /* log(exp(x) + exp(y)) without overflow */
  THC_LAND = 42,        /* x != 0 and y != 0, as 0 or 1               int */
  THC_LOR = 43,         /*                                            int */
  THC_LXOR = 44,        /*                                            int */
  THC_ATAN2 = 45,
  /* THCTensor_(compare): out (int64 0 or 1) = f(x, y) */
  THC_EQ = 64,          /*                                            int */
  THC_NE = 65,          /*                                            int */
  THC_LT = 66,          /*                                            int */
  THC_LE = 67,          /*                                            int */
  THC_GT = 68,          /*                                            int */
  THC_GE = 69,          /*                                            int */
  THC_ISNAN = 70,       /* f(x) only                                  int */
  THC_ISINF = 71,       /*                                            int */
  THC_ISFINITE = 72,    /*                                            int */
  /* THCTensor_(reduce) along one dim */
  THC_SUM = 96,         /*                                            int */
  THC_PROD = 97,        /*                                            int */
  THC_MAX = 98,         /* NaN wins; indices: the first position      int */
  THC_MIN = 99,         /*                                            int */
  THC_NORM = 100,       /* (sum |x|^p)^(1/p); p = inf: max |x|; p = 0: count of nonzeros */
  /* THCTensor_(random) */
  THC_UNIFORM = 128,    /* U[a, b) */
  THC_NORMAL = 129      /* N(a, b^2): mean a, standard deviation b */
};
/* cdef-end */

#endif
