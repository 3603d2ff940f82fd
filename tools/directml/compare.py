#!/usr/bin/env python3
"""DirectML (torch-directml) on rd3d12 against CPU torch: one line per tensor op.

Every op runs on torch_directml.device() and on the CPU with the same inputs (seeded); each line
says the op, "ok" or "FAIL" (max |dml - cpu| above the op's tolerance) or "ERROR" (what
DirectML raised), and the max absolute error. The last line counts them; the exit status is 0
only when every op that ran matched. `--json FILE` also writes {op: max_error or null}, so that
two runs (DXIL and DXBC) can be compared with `--against FILE`: an op that ran on both paths must
have the same max error to within 1e-6 and the same outcome.

Run it from the repository root (see tools/directml/README.md):

    target/release/rd3d12 run --as-hardware -- python3 tools/directml/compare.py --json /tmp/dxil.json
    target/release/rd3d12 run --as-hardware --shader-model 5.1 -- \
        python3 tools/directml/compare.py --json /tmp/dxbc.json --against /tmp/dxil.json
"""

import argparse
import json
import sys
import traceback

import torch
import torch.nn.functional as F
import torch_directml


def ops():
    """(name, function of the inputs, inputs, tolerance)."""
    g = torch.Generator().manual_seed(17)

    def r(*shape):
        return torch.randn(*shape, generator=g)

    a, b = r(4, 5), r(4, 5)
    m1, m2 = r(8, 16), r(16, 4)
    img, w = r(1, 3, 8, 8), r(4, 3, 3, 3)
    pos = r(4, 5).abs() + 0.1
    i1 = torch.randint(-50, 50, (4, 5), generator=g, dtype=torch.int32)
    i2 = torch.randint(1, 20, (4, 5), generator=g, dtype=torch.int32)
    return [
        ("copy (to and from)", lambda x: x, [a], 0.0),
        ("zeros", lambda x: torch.zeros_like(x) + 0, [a], 0.0),
        ("fill", lambda x: torch.full_like(x, 2.5), [a], 0.0),
        ("add", torch.add, [a, b], 1e-6),
        ("sub", torch.sub, [a, b], 1e-6),
        ("mul", torch.mul, [a, b], 1e-6),
        ("div", torch.div, [a, pos], 1e-5),
        ("add scalar", lambda x: x + 3.0, [a], 1e-6),
        ("neg", torch.neg, [a], 0.0),
        ("abs", torch.abs, [a], 0.0),
        ("relu", F.relu, [a], 0.0),
        ("sigmoid", torch.sigmoid, [a], 1e-5),
        ("tanh", torch.tanh, [a], 1e-5),
        ("exp", torch.exp, [a], 1e-4),
        ("log", torch.log, [pos], 1e-5),
        ("sqrt", torch.sqrt, [pos], 1e-5),
        ("rsqrt", torch.rsqrt, [pos], 1e-4),
        ("pow", lambda x: torch.pow(x, 2.0), [a], 1e-5),
        ("sin", torch.sin, [a], 1e-5),
        ("cos", torch.cos, [a], 1e-5),
        ("floor", torch.floor, [a], 0.0),
        ("clamp", lambda x: torch.clamp(x, -0.5, 0.5), [a], 0.0),
        ("maximum", torch.maximum, [a, b], 0.0),
        ("where", lambda x, y: torch.where(x > y, x, y), [a, b], 0.0),
        ("gt", lambda x, y: (x > y).float(), [a, b], 0.0),
        ("int add", torch.add, [i1, i2], 0.0),
        ("int mul", torch.mul, [i1, i2], 0.0),
        ("cast int to float", lambda x: x.float(), [i1], 0.0),
        ("cast float to int", lambda x: x.int(), [a * 10], 0.0),
        ("sum", torch.sum, [a], 1e-5),
        ("sum dim", lambda x: x.sum(dim=1), [a], 1e-5),
        ("mean", torch.mean, [a], 1e-6),
        ("max dim", lambda x: x.max(dim=1).values, [a], 0.0),
        ("argmax", lambda x: x.argmax(dim=1), [a], 0.0),
        ("softmax", lambda x: F.softmax(x, dim=1), [a], 1e-6),
        ("log_softmax", lambda x: F.log_softmax(x, dim=1), [a], 1e-5),
        ("transpose", lambda x: x.t().contiguous(), [a], 0.0),
        ("cat", lambda x, y: torch.cat([x, y], dim=0), [a, b], 0.0),
        ("slice", lambda x: x[1:3, ::2].contiguous(), [a], 0.0),
        ("matmul", torch.matmul, [m1, m2], 1e-4),
        ("linear", lambda x, y: F.linear(x, y.t()), [m1, m2], 1e-4),
        ("conv2d", lambda x, y: F.conv2d(x, y, padding=1), [img, w], 1e-4),
        ("max_pool2d", lambda x: F.max_pool2d(x, 2), [img], 0.0),
        ("avg_pool2d", lambda x: F.avg_pool2d(x, 2), [img], 1e-6),
        ("batch_norm", lambda x: F.batch_norm(x, torch.zeros(3), torch.ones(3), training=False), [img], 1e-5),
        ("layer_norm", lambda x: F.layer_norm(x, (5,)), [a], 1e-5),
        ("gelu", F.gelu, [a], 1e-5),
    ]


def max_error(got, want):
    got, want = got.cpu(), want.cpu()
    if got.shape != want.shape:
        raise RuntimeError(f"shape {tuple(got.shape)}, expected {tuple(want.shape)}")
    if got.numel() == 0:
        return 0.0
    return (got.double() - want.double()).abs().max().item()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", help="write {op: max error or null} here")
    ap.add_argument("--against", help="a --json file of another run: the same ops must agree")
    ap.add_argument("--only", help="run only the ops whose names contain this")
    ap.add_argument("-v", "--verbose", action="store_true", help="print each error's traceback")
    args = ap.parse_args()

    dev = torch_directml.device()
    print(f"device: {dev} ({torch_directml.device_name(dev.index or 0)})")
    results, bad = {}, 0
    for name, fn, inputs, tol in ops():
        if args.only and args.only not in name:
            continue
        want = fn(*inputs)
        try:
            got = fn(*[t.to(dev) for t in inputs])
            err = max_error(got, want)
        except Exception as e:  # noqa: BLE001 - DirectML raises RuntimeError and others
            results[name] = None
            print(f"{name:20} ERROR {str(e).splitlines()[0][:100] if str(e) else type(e).__name__}")
            if args.verbose:
                traceback.print_exc()
            continue
        results[name] = err
        ok = err <= tol
        bad += not ok
        print(f"{name:20} {'ok' if ok else 'FAIL':5} max error {err:.3g}")
    ran = sum(v is not None for v in results.values())
    print(f"compare: {ran} of {len(results)} ops ran, {ran - bad} matched CPU torch, {bad} did not")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    if args.against:
        with open(args.against) as f:
            other = json.load(f)
        differ = []
        for name, err in results.items():
            o = other.get(name)
            if (err is None) != (o is None) or (err is not None and abs(err - o) > 1e-6):
                differ.append(f"{name} ({err} here, {o} there)")
        both = sum(results[n] is not None and other.get(n) is not None for n in results)
        print(f"against {args.against}: {both} ops ran on both, {len(differ)} differ" +
              (": " + "; ".join(differ) if differ else ""))
        bad += len(differ)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
