"""A very short run of the character-level LSTM demo (nn_legacy/demos/charlm.py):
its gradient check passes, the validation loss goes down, it samples text."""
import numpy as np

from nn_legacy.demos import charlm


def test_short_run(capsys):
    status = charlm.main(["--rounds", "2", "--batches", "4", "--embedding", "8", "--hidden", "16",
                          "--seq-length", "12", "--batch-size", "4", "--lr", "0.01", "--sample-length", "40"])
    out = capsys.readouterr().out
    assert status == 0, out
    assert "whole model, w.r.t. every parameter" in out and "FAIL" not in out
    assert out.count("validation") >= 3 and "Sample (temperature 0.8):" in out and out.rstrip().endswith("OK")


def test_the_text_is_shipped_and_small():
    text = charlm.load_text()
    assert 100_000 < len(text.encode("utf-8")) < 200_000
    chars, ids = charlm.encode(text)
    assert "".join(chars[k] for k in ids[:20]) == text[:20]


def test_streams_and_chunks_predict_the_next_character():
    ids = np.arange(41)
    x, y = charlm.streams(ids, 4)                  # 4 streams of 10
    assert x.shape == (10, 4) and np.array_equal(x[:, 1], np.arange(10, 20)) and np.array_equal(y, x + 1)
    (xs, ys), = list(charlm.chunks(x[:5], y[:5], 5))
    assert xs.shape == (5, 4) and np.array_equal(ys, (xs + 1).reshape(-1))


def test_a_text_it_cannot_read_is_one_error_line(tmp_path, capsys):
    (tmp_path / "latin1.txt").write_bytes(b"caf\xe9 " * 100)
    for path, why in [(tmp_path / "absent.txt", "No such file or directory"), (tmp_path, "Is a directory"),
                      (tmp_path / "latin1.txt", "not UTF-8 text")]:
        assert charlm.main(["--text", str(path)]) == 2
        captured = capsys.readouterr()
        assert captured.err == f"error: cannot read {path}: {why}\n" and captured.out == ""
