"""The references of tests/rnn_reference.py checked against each other and
against torch: the numpy LSTM (torch.nn.LSTM's formula, which the rnn-file
tests use so that they run without torch) equals the rnn package's peephole
LSTM with the peepholes at zero, and equals torch.nn.LSTM where torch is
installed."""
import numpy as np

import rnn_reference as R

D, H, N, T = 3, 4, 2, 5
rng = np.random.default_rng(7)
W_IH, W_HH, B = rng.uniform(-1, 1, (4 * H, D)), rng.uniform(-1, 1, (4 * H, H)), rng.uniform(-1, 1, 4 * H)
XS, H0, C0 = rng.uniform(-1, 1, (T, N, D)), rng.uniform(-1, 1, (N, H)), rng.uniform(-1, 1, (N, H))


def test_lstm_is_the_peephole_lstm_without_peepholes():
    rows = {g: slice(k * H, (k + 1) * H) for k, g in enumerate("ifzo")}   # torch's i, f, g, o
    w = {g: (W_IH[r], B[r], W_HH[r]) + (() if g == "z" else (np.zeros(H),)) for g, r in rows.items()}
    np.testing.assert_allclose(R.lstm(W_IH, W_HH, B, XS, H0, C0), R.lstm_peephole(XS, w, H0, C0),
                               rtol=1e-14, atol=1e-15)


def test_lstm_starts_from_zero_states():
    zero = np.zeros((N, H))
    np.testing.assert_array_equal(R.lstm(W_IH, W_HH, B, XS), R.lstm(W_IH, W_HH, B, XS, zero, zero))


def test_lstm_matches_torch():
    y = R.torch_lstm(W_IH, W_HH, B, XS, H0, C0)[0]        # skips without torch
    np.testing.assert_allclose(R.lstm(W_IH, W_HH, B, XS, H0, C0), y.detach().numpy(), rtol=1e-13, atol=1e-14)
