"""The polynomial of THVector_exp16 (thnn_c/THVector.c), refitted.

exp(r) = 1 + r + r^2 P(r) on [-ln2/2, ln2/2], P of degree 5.  The fit
minimises the largest relative error of exp: weighted least squares on
Chebyshev points, the weights then updated towards the points of largest
error (Lawson's iteration) until the fit is close to minimax.  The
coefficients are rounded to float and printed as C hex literals, constant
term first.  Run: python tools/fit_expf.py"""
import numpy as np

DEGREE = 5


def fit(degree=DEGREE, points=4001, iterations=200):
    half = np.log(2) / 2
    r = np.cos(np.linspace(0, np.pi, points)) * half
    r = r[np.abs(r) > 1e-9]
    # exp(r) - 1 - r = r^2 P(r), error relative to exp(r)
    scale = r ** 2 / np.exp(r)
    basis = np.vander(r, degree + 1, increasing=True) * scale[:, None]
    target = (np.expm1(r) - r) / np.exp(r)
    weights = np.full(r.size, 1.0 / r.size)
    for _ in range(iterations):
        root = np.sqrt(weights)
        coefficients, *_ = np.linalg.lstsq(basis * root[:, None], target * root, rcond=None)
        error = np.abs(basis @ coefficients - target)
        weights = weights * error
        weights /= weights.sum()
    return coefficients, error.max()


if __name__ == "__main__":
    coefficients, error = fit()
    print(f"largest relative error of the fit before rounding to float: {error:.2e}")
    for c in coefficients.astype(np.float32):
        mantissa, exponent = float(c).hex().split("p")
        print(f"{mantissa.rstrip('0').ljust(10, '0')}p{exponent}f")
