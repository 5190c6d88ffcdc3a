"""Make the documentation's plots from real runs: python docs/plots.py

- img/digits_loss.png: ``python -m nn_legacy`` with its defaults; the mean
  training loss of each epoch, read from the demo's per-epoch lines.
- img/charlm_loss.png: a short run of ``python -m nn_legacy.demos.charlm``
  (CHARLM_ARGS); the validation loss after each round, from its output.
- img/speed.png: thnn's time over PyTorch's per case, parsed from the first
  results table of benchmarks/README.md (float32).

Run it from the repository root after the extension is built; it needs
matplotlib (the docs extra).  ``--only digits|charlm|speed`` makes one.
"""
import argparse
import os
import re
import subprocess
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
IMG = os.path.join(ROOT, "docs", "img")
CHARLM_ARGS = ["--rounds", "10", "--batches", "30"]


def _run(module, args):
    out = subprocess.run([sys.executable, "-m", module, *args], cwd=ROOT, capture_output=True, text=True)
    if out.returncode:
        sys.exit(f"python -m {module} failed:\n{out.stdout}\n{out.stderr}")
    return out.stdout


def digits():
    text = _run("nn_legacy", [])
    epochs = [(int(e), float(loss)) for e, loss in re.findall(r"^epoch +(\d+)/\d+ mean training loss ([\d.]+)",
                                                              text, re.M)]
    accuracy = re.search(r"held-out accuracy: ([\d.]+) %", text).group(1)
    if not epochs:
        sys.exit("the digits demo printed no epoch lines")
    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.plot(*zip(*epochs), marker="o")
    ax.set_xlabel("epoch")
    ax.set_ylabel("mean training loss")
    ax.set_title(f"python -m nn_legacy: held-out accuracy {accuracy} %")
    ax.grid(alpha=0.3)
    return fig, "digits_loss.png"


def charlm():
    text = _run("nn_legacy.demos.charlm", CHARLM_ARGS)
    rounds = [(0, float(re.search(r"^round +0: validation ([\d.]+)", text, re.M).group(1)))]
    rounds += [(int(r), float(v)) for r, v in re.findall(
        r"^round +(\d+)/\d+ training [\d.]+, validation ([\d.]+)", text, re.M)]
    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.plot(*zip(*rounds), marker="o")
    ax.set_xlabel("round (0: untrained)")
    ax.set_ylabel("validation bits per character")
    ax.set_title("python -m nn_legacy.demos.charlm " + " ".join(CHARLM_ARGS))
    ax.grid(alpha=0.3)
    return fig, "charlm_loss.png"


def speed_table(path=os.path.join(ROOT, "benchmarks", "README.md")):
    """[(case, pass, ratio)] of the first table under '## Results'."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    results = text[text.index("\n## Results"):]
    rows, case, started = [], None, False
    for line in results.splitlines():
        if line.startswith("| case | pass | thnn ms | torch ms | ratio"):
            started = True
            continue
        if not started or line.startswith("|---"):
            continue
        if not line.startswith("|"):
            if rows:
                break
            continue
        cells = [c.strip() for c in line.strip("|").split("|")]
        case = cells[0] or case
        rows.append((case.replace("\\*", "").strip(), cells[1], float(cells[4].strip("*"))))
    if not rows:
        sys.exit("benchmarks/README.md: no results table found")
    return rows


def speed():
    rows = speed_table()
    cases = list(dict.fromkeys(case for case, _, _ in rows))
    fig, ax = plt.subplots(figsize=(8, 0.45 * len(cases) + 1.2))
    height = 0.38
    for k, kind in enumerate(("fwd", "fwd+bwd")):
        ratio = {case: r for case, p, r in rows if p == kind}
        ys = [i + (k - 0.5) * height for i, case in enumerate(cases) if case in ratio]
        ax.barh(ys, [ratio[c] for c in cases if c in ratio], height=height, label=kind)
    ax.axvline(1.0, color="black", linewidth=0.8)
    ax.set_yticks(range(len(cases)))
    ax.set_yticklabels(cases, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("thnn time / PyTorch CPU time (below 1: thnn faster)")
    ax.set_title("benchmarks/README.md, float32 (the row marked float64 excepted), 2 threads")
    ax.legend()
    fig.tight_layout()
    return fig, "speed.png"


def main():
    plots = {"digits": digits, "charlm": charlm, "speed": speed}
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=sorted(plots))
    args = parser.parse_args()
    os.makedirs(IMG, exist_ok=True)
    for name, make in plots.items():
        if args.only in (None, name):
            fig, filename = make()
            fig.savefig(os.path.join(IMG, filename), dpi=100, bbox_inches="tight")
            print("wrote", os.path.join("docs", "img", filename))


if __name__ == "__main__":
    main()
