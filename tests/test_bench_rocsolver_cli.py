"""rocmath-bench solver: rocsolver-bench's command line over any rocmath.solver routine (its defaults, and
operands that make each routine do its real work), its ``-v 1`` verification (residuals against the CPU
reference, the error column), and ROCSOLVER_LAYER=2 bench lines that replay through it."""

from __future__ import annotations

import io
import shlex
from typing import Any

import numpy as np
import pytest

import rocmath as rm
from rocmath import blas, solver
from rocmath.bench.cli import main as bench_main
from rocmath.bench.rocsolver_cli import VERIFIED, UsageError, parse, parse_command
from rocmath.log import close_logs


def _run(line: str) -> tuple[int, str]:
    out = io.StringIO()
    status = bench_main(shlex.split(line), out=out)
    return status, out.getvalue()


def test_parse_reads_rocsolver_bench_flags() -> None:
    assert parse(["-f", "getrf", "-r", "f64_r", "-m", "4", "--lda", "5", "-i", "3", "-j", "0"]) == (
        "getrf", "d", {"m": "4", "lda": "5"}, 3, 0)
    with pytest.raises(UsageError):
        parse(["-m", "4"])
    with pytest.raises(UsageError):
        parse(["-f", "getrf", "-r", "q"])


@pytest.mark.parametrize("line", [
    "solver -f getrf_strided_batched -r d -m 16 -n 16 --batch_count 50 -i 2",
    "solver -f getrf_batched -r s -m 8 -n 6 --batch_count 20 -i 2",
    "solver -f getrs -r z --trans C -n 24 --nrhs 3 -i 2",
    "solver -f gesv -r c -n 20 --nrhs 2 -i 2",
    "solver -f getri -r d -n 12 -i 2",
])
def test_routines_run_with_a_reference_ratio(line: str) -> None:
    status, text = _run(line)
    assert status == 0, text
    header, row = text.splitlines()[1:3]
    cols = dict(zip(header.split(","), row.split(","), strict=True))
    assert float(cols["gpu_time_us"]) > 0 and float(cols["ratio"]) > 0


@pytest.mark.parametrize("line", [
    "solver -f larfg -r d -n 10 --incx 1 -i 1",
    "solver -f larfg_64 -r s -n 10 --incx 2 -i 1",
    "solver -f lacgv -r z -n 10 --incx 2 -i 1",
    "solver -f larf -r c -m 10 -n 5 --incx 1 --side R -i 1",
    "solver -f larft -r d -n 10 -k 4 --direct F --storev C -i 1",
])
def test_householder_helpers_run_without_a_matrix_reference(line: str) -> None:
    """Routines whose operands are vectors and scalars (no A, or x longer than an info): their x, alpha and
    tau get room for rows x |incx| elements, and no SciPy reference (none to time)."""
    status, text = _run(line)
    assert status == 0, text
    header, row = text.splitlines()[1:3]
    cols = dict(zip(header.split(","), row.split(","), strict=True))
    assert float(cols["gpu_time_us"]) > 0 and "ratio" not in cols


def test_usage_errors_exit_2() -> None:
    assert _run("solver -f nothing -r d")[0] == 2
    assert _run("solver -f getrf -r d --bogus 1")[0] == 2
    assert _run("solver -f gesvd -r d -m 4 -n 4 --left_svect X")[0] == 2  # rocsolver-bench's validate_svect
    assert _run("solver -f syevd -r d -n 4 --evect Q")[0] == 2


def test_bench_lines_replay(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    bench = tmp_path / "bench.log"
    monkeypatch.setenv("ROCSOLVER_LAYER", "2")
    monkeypatch.setenv("ROCSOLVER_LOG_BENCH_PATH", str(bench))
    h = blas.create_handle()
    a = rm.to_device(np.asfortranarray(np.eye(6) * 3 + 1).reshape(-1))
    ipiv, info = rm.zeros(6, np.int32), rm.zeros(1, np.int32)
    solver.dgetrf(h, 6, 6, a, 6, ipiv, info)
    b = rm.to_device(np.ones(6 * 2))
    solver.dgetrs(h, "T", 6, 2, a, 6, ipiv, b, 6)
    s = rm.to_device(np.asfortranarray(np.eye(6) + 1).reshape(-1))
    res, sweeps, w = rm.zeros(1), rm.zeros(1, np.int32), rm.zeros(6)
    # rocSOLVER's own enums given by value or member: logged with rocsolver-bench's letters
    solver.dsyevj(h, 252, solver.Evect.original, 122, 6, s, 6, 0.0, res, 100, sweeps, w, info)
    blas.destroy_handle(h)
    close_logs()
    lines = bench.read_text().splitlines()
    assert lines[0].startswith("rocmath-bench solver -f getrf -r d")
    assert lines[2] == ("rocmath-bench solver -f syevj -r d --esort A --evect V --uplo L -n 6 --lda 6 --abstol 0.0 "
                        "--max_sweeps 100")
    monkeypatch.delenv("ROCSOLVER_LAYER")
    for line in lines:
        status, text = _run(line.removeprefix("rocmath-bench "))
        assert status == 0, (line, text)


# --- -v 1: rocsolver-bench's verification --------------------------------------------------------


def test_parse_command_reads_verify() -> None:
    cmd = parse_command(["-f", "potrf", "-r", "z", "-n", "4", "-v", "1", "-i", "2"])
    assert (cmd.function, cmd.precision, cmd.params, cmd.iters, cmd.cold, cmd.verify) == (
        "potrf", "z", {"n": "4"}, 2, 2, 1)
    assert parse_command(["-f", "getrf", "--verify", "0"]).verify == 0
    assert parse(["-f", "getrf", "-v", "1"]) == ("getrf", "s", {}, 10, 2)  # the five fields it always had
    with pytest.raises(UsageError):
        parse_command(["-f", "getrf", "-v", "2"])


def _cells(text: str) -> dict[str, str]:
    header, row = text.splitlines()[1:3]
    return dict(zip(header.split(","), row.split(","), strict=True))


def _eps(letter: str) -> float:
    return float(np.finfo({"s": np.float32, "c": np.float32, "d": np.float64, "z": np.float64}[letter]).eps)


#: The routines and precisions test_routines_run_with_a_reference_ratio compiles already.
RUNS = [
    "-f getrf_strided_batched -r d -m 16 -n 12 --batch_count 3",
    "-f getrf_batched -r s -m 8 -n 6 --batch_count 4",
    "-f getrs -r z --trans C -n 8 --nrhs 3",
    "-f gesv -r c -n 8 --nrhs 2",
    "-f getri -r d -n 8",
    "-f gesvdj -r d -m 8 -n 6 --left_svect A --right_svect A",
    "-f syevj -r d --evect V -n 8",
    "-f sygv -r d --evect V -n 8",
]
#: One of each other family the check covers (each compiles its own kernels: the slow tier).
SLOW_RUNS = [
    "-f getrf_npvt_batched -r c -m 6 -n 6 --batch_count 2",
    "-f potrf -r z --uplo L -n 8",
    "-f potrs_batched -r s -n 8 --nrhs 2 --batch_count 2",
    "-f posv -r d --uplo U -n 8 --nrhs 2",
    "-f geqrf -r d -m 10 -n 6",
    "-f gels -r z --trans C -m 8 -n 6 --nrhs 2",
    "-f gels -r d -m 5 -n 8 --nrhs 2",
    "-f syev -r d --evect V -n 8",
    "-f heevd -r z --evect V --uplo L -n 6",
    "-f gesvdj -r z -m 7 -n 5 --left_svect A --right_svect S",
    "-f heevj -r c --evect V --esort N -n 6",
    "-f sygv -r d --evect V --itype 3 -n 6",
    "-f hegv_strided_batched -r z --evect V --itype 2 --uplo L -n 5 --batch_count 2",
]


@pytest.mark.parametrize("line", RUNS + [pytest.param(line, marks=pytest.mark.slow) for line in SLOW_RUNS])
def test_verify_prints_the_error_column(line: str) -> None:
    status, text = _run(f"solver {line} -i 1 -j 0 -v 1")
    assert status == 0, text
    cells = _cells(text)
    size = max(int(cells.get(k, 1)) for k in ("m", "n", "nrhs"))
    assert list(cells)[-1] == "error" and 0 <= float(cells["error"]) <= 30 * size * _eps(line.split()[3])
    assert float(cells["gpu_time_us"]) > 0


def _store(ops: Any, name: str, values: np.ndarray) -> None:
    """Write ``(batch, rows, cols)`` values into a matrix operand's device memory (column-major, ld rows)."""
    ld, cols, entry = ops.layout[name]
    rows = values.shape[1]
    if ops.batched:
        for b, dev in enumerate(ops.batched_entries[name]):
            cm = dev.get()  # (cols, ld): column j is row j
            cm[:values.shape[2], :rows] = values[b].T
            dev.set(cm)
        return
    dev = ops.values[name]
    flat = dev.get()
    for b in range(ops.batch):
        block = flat[b * entry:b * entry + ld * cols].reshape(cols, ld)
        block[:values.shape[2], :rows] = values[b].T
    dev.set(flat)


def _store_vector(ops: Any, name: str, values: np.ndarray) -> None:
    """Write ``(batch, k)`` values into a strided vector operand (ipiv, tau, D)."""
    dev = ops.values[name]
    raw = dev.get()
    typed = raw.view(values.dtype) if raw.dtype == np.uint8 else raw
    count = ops.vector_counts[name]
    for b in range(ops.batch):
        typed[b * count:b * count + values.shape[1]] = values[b]
    dev.set(raw)


def _solve_in_double(matrix: np.ndarray, rhs: np.ndarray) -> np.ndarray:
    wide = np.complex128 if np.iscomplexobj(matrix) else np.float64
    return np.linalg.solve(matrix.astype(wide), rhs.astype(wide))


def _scipy_results(function: str, ops: Any) -> None:
    """Put SciPy's (LAPACK's) result of ``function`` on the initial operands where the routine writes it."""
    import scipy.linalg as sl

    v, dt = ops.values, ops.dtype
    n = int(v.get("n", 0))
    m = int(v.get("m", n))
    nrhs = int(v.get("nrhs", 1))
    a = ops.matrix("A", initial=True)[:, :m, :n].astype(np.complex128 if dt.kind == "c" else np.float64)
    base = function.split("_batched")[0].split("_strided")[0]
    if base == "getrf_npvt":  # square here
        lu = []
        for b in range(ops.batch):
            p, lo, up = sl.lu(a[b])
            assert np.array_equal(p, np.eye(m))  # a diagonally dominant matrix: no row exchange
            lu.append(np.tril(lo, -1) + up)
        _store(ops, "A", np.stack(lu).astype(dt))
    elif base in ("potrs", "posv"):
        upper = v["uplo"] == "U"
        if base == "potrs":
            f = np.triu(a) if upper else np.tril(a)
            h = np.swapaxes(f, -1, -2).conj()
            a = h @ f if upper else f @ h
        b0 = ops.matrix("B", initial=True)[:, :n, :nrhs]
        _store(ops, "B", _solve_in_double(a, b0).astype(dt))
    elif base == "potrf":
        upper = v["uplo"] == "U"
        _store(ops, "A", np.stack([sl.cholesky(x, lower=not upper) for x in a]).astype(dt))
    elif base == "geqrf":
        packed = [sl.qr(x, mode="raw") for x in a]  # LAPACK's geqrf: Householder vectors and tau
        _store(ops, "A", np.stack([p[0][0] for p in packed]).astype(dt))
        _store_vector(ops, "ipiv", np.stack([p[0][1] for p in packed]).astype(dt))
    elif base == "gels":
        op = a if v["trans"] == "N" else np.swapaxes(a, -1, -2).conj()
        b0 = ops.matrix("B", initial=True)[:, :op.shape[1], :nrhs]
        _store(ops, "B", np.stack([np.linalg.lstsq(op[b], b0[b, :op.shape[1]], rcond=None)[0]
                                   for b in range(ops.batch)]).astype(dt))
    elif base == "gesvdj":
        k = min(m, n)
        u, sv, vh = zip(*(sl.svd(x) for x in a), strict=True)
        _store_vector(ops, "S", np.stack(sv).astype(np.finfo(dt).dtype))
        _store(ops, "U", np.stack(u)[:, :, :ops.layout["U"][1]].astype(dt))
        _store(ops, "V", np.stack(vh)[:, :ops.layout["V"][0] if v["right_svect"] == "A" else k].astype(dt))
    elif base in ("sygv", "hegv"):
        bm = ops.matrix("B", initial=True)[:, :n, :n].astype(a.dtype)
        w, vecs = zip(*(sl.eigh(x, y, type=int(v["itype"])) for x, y in zip(a, bm, strict=True)), strict=True)
        _store_vector(ops, "D", np.stack(w).astype(np.finfo(dt).dtype))
        _store(ops, "A", np.stack(vecs).astype(dt))
    else:  # syev, heevd, heevj (its eigenvalues in W, here in scipy's ascending order)
        w, vecs = zip(*(sl.eigh(x) for x in a), strict=True)
        _store_vector(ops, "W" if base == "heevj" else "D", np.stack(w).astype(np.finfo(dt).dtype))
        _store(ops, "A", np.stack(vecs).astype(dt))


@pytest.mark.parametrize("line", SLOW_RUNS)
def test_the_check_of_each_family_against_lapack_results(line: str) -> None:
    """Without running the routines (their kernels belong to the slow tier): LAPACK's results pass the
    check, and the same results 0.1 % off fail it."""
    from rocmath.bench.rocsolver_cli import _Operands, _resolve, _value, _verify

    cmd = parse_command(line.split())
    fn = _resolve(cmd.function, cmd.precision)
    ops = _Operands(fn, {k: _value(x) for k, x in cmd.params.items()})
    _scipy_results(cmd.function, ops)
    rm.device_synchronize()
    error, tol = _verify(cmd.function, ops)
    size = max(int(cmd.params.get(k, 1)) for k in ("m", "n", "nrhs"))
    assert tol == 30 * size * _eps(cmd.precision) and 0 <= error <= tol, (error, tol)
    main_out = {"potrs": "B", "posv": "B", "gels": "B", "gesvdj": "U"}.get(cmd.function.split("_")[0], "A")
    _store(ops, main_out, (ops.matrix(main_out)[:, :, :] * 1.001).astype(ops.dtype))
    rm.device_synchronize()
    assert _verify(cmd.function, ops)[0] > 10 * tol


def test_verify_catches_a_wrong_result(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    real = solver.dgetrf

    def off_by_a_bit(handle: Any, m: int, n: int, A: Any, lda: int, ipiv: Any, info: Any) -> None:
        real(handle, m, n, A, lda, ipiv, info)
        handle.stream.synchronize()
        A.set(A.get() * 1.001)  # a factorization 0.1 % off

    for attr in ("routine", "flavour", "precision"):
        setattr(off_by_a_bit, attr, getattr(real, attr))
    monkeypatch.setattr(solver, "dgetrf", off_by_a_bit)
    status, text = _run("solver -f getrf -r d -m 8 -n 8 -i 1 -j 0 -v 1")
    assert status == 1 and float(_cells(text)["error"]) > 1e-4
    assert "above tolerance" in capsys.readouterr().err
    # Without -v the same run reports no error column and succeeds.
    status, text = _run("solver -f getrf -r d -m 8 -n 8 -i 1 -j 0")
    assert status == 0 and "error" not in _cells(text)


GESVD_RUNS = [
    "-f gesvd -r d -m 12 -n 8 --left_svect A --right_svect A",
    "-f gesvd_strided_batched -r d -m 6 -n 9 --left_svect S --right_svect S --batch_count 2",
    "-f gesvd_batched -r d -m 7 -n 7 --left_svect A --right_svect N --fast_alg I --batch_count 2",
]


@pytest.mark.parametrize("line", GESVD_RUNS)
def test_gesvd_is_verified_with_rocsolver_bench_sizes(line: str) -> None:
    status, text = _run(f"solver {line} -i 1 -j 0 -v 1")
    assert status == 0, text
    cells = _cells(text)
    m, n = int(cells["m"]), int(cells["n"])
    # rocsolver-bench's defaults: ldu = m, ldv = n for all right vectors, else min(m, n); fast_alg O
    assert int(cells["ldu"]) == m
    assert int(cells["ldv"]) == (n if cells["right_svect"] == "A" else min(m, n))
    assert cells["fast_alg"] in ("O", "I")
    assert 0 <= float(cells["error"]) <= 30 * max(m, n) * _eps("d")


def test_gesvd_check_catches_wrong_singular_values(monkeypatch: pytest.MonkeyPatch) -> None:
    real = solver.dgesvd

    def off(handle: Any, left: Any, right: Any, m: int, n: int, A: Any, lda: int, S: Any, *rest: Any) -> None:
        real(handle, left, right, m, n, A, lda, S, *rest)
        handle.stream.synchronize()
        S.set((S.get().view(np.float64) * 1.001).view(S.dtype))  # the bench's S is untyped storage

    for attr in ("routine", "flavour", "precision"):
        setattr(off, attr, getattr(real, attr))
    monkeypatch.setattr(solver, "dgesvd", off)
    status, text = _run("solver -f gesvd -r d -m 8 -n 6 --left_svect A --right_svect A -i 1 -j 0 -v 1")
    assert status == 1 and float(_cells(text)["error"]) > 1e-4


def test_verify_restores_the_data_for_the_timed_calls(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[np.ndarray] = []
    real = solver.dgetri

    def spy(handle: Any, n: int, A: Any, lda: int, ipiv: Any, info: Any) -> None:
        seen.append(A.get().copy())
        real(handle, n, A, lda, ipiv, info)

    for attr in ("routine", "flavour", "precision"):
        setattr(spy, attr, getattr(real, attr))
    monkeypatch.setattr(solver, "dgetri", spy)
    assert _run("solver -f getri -r d -n 6 -i 1 -j 0 -v 1")[0] == 0
    assert len(seen) == 2 and np.array_equal(seen[0], seen[1])  # the timed call got the initial matrix again


def test_verify_of_an_unchecked_routine_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert _run("solver -f trtri -r d -n 4 -v 1")[0] == 2
    assert "verifies getrf" in capsys.readouterr().err
    assert set(VERIFIED) >= {"getrf", "potrf", "geqrf", "gels", "syev", "heevd"}


def _operands(line: str) -> Any:
    from rocmath.bench.rocsolver_cli import _Operands, _resolve, _value

    cmd = parse_command(line.split())
    return _Operands(_resolve(cmd.function, cmd.precision), {k: _value(x) for k, x in cmd.params.items()})


def test_rocsolver_bench_defaults_of_the_eigen_and_svd_routines() -> None:
    """Without -v: the defaults rocsolver-bench's option table and its testing_*.hpp give (no kernel runs)."""
    v = _operands("-f gesvdj_strided_batched -r d -m 9 -n 6 --left_svect S --batch_count 2").values
    assert (v["abstol"], v["max_sweeps"], v["right_svect"]) == (0, 100, "N")
    assert (v["lda"], v["strideA"], v["strideS"], v["ldu"], v["strideU"], v["ldv"], v["strideV"]) == (
        9, 9 * 6, 6, 9, 9 * 6, 6, 6 * 6)
    v = _operands("-f gesvd_strided_batched -r d -m 9 -n 6 --left_svect S --right_svect A").values
    assert (v["strideS"], v["strideE"], v["strideU"], v["ldv"], v["strideV"], v["fast_alg"]) == (6, 5, 81, 6, 36, "O")
    v = _operands("-f syevj_strided_batched -r s -n 7").values
    assert (v["esort"], v["evect"], v["uplo"], v["strideA"], v["strideW"]) == ("A", "N", "U", 49, 7)
    v = _operands("-f sygv_strided_batched -r d -n 7").values
    assert (v["itype"], v["evect"], v["strideB"], v["strideD"], v["strideE"]) == (1, "N", 49, 7, 7)
    v = _operands("-f getrs_strided_batched -r d -n 8 --nrhs 2").values
    assert (v["strideA"], v["strideP"], v["strideB"]) == (64, 8, 16)
    v = _operands("-f sytrd_strided_batched -r d -n 8").values
    assert (v["strideD"], v["strideE"], v["strideP"]) == (8, 7, 7)
    # The partial decompositions' ranges (testing_syevdx_heevdx.hpp, testing_gesvdx.hpp): vl = 0, and vu = 1
    # for a value range, il = iu = 1 for an index range, 0 otherwise.
    v = _operands("-f syevdx -r d -n 8").values
    assert (v["erange"], v["vl"], v["vu"], v["il"], v["iu"]) == ("A", 0, 0, 0, 0)
    v = _operands("-f gesvdx_strided_batched -r d -m 9 -n 6 --srange V").values
    assert (v["vl"], v["vu"], v["il"], v["iu"]) == (0, 1, 0, 0)
    v = _operands("-f hegvdx -r c -n 8 --erange I --iu 3").values
    assert (v["vl"], v["vu"], v["il"], v["iu"]) == (0, 0, 1, 3)


@pytest.mark.parametrize("line", [
    "solver -f sytrf_strided_batched -r d -n 12 --batch_count 3 -i 1",
    "solver -f orgtr -r s -n 10 -i 1",
    "solver -f syevdx -r d -n 10 --erange I --il 2 --iu 4 --evect V -i 1",
    "solver -f gesvdx_strided_batched -r z -m 9 -n 6 --srange V --vl 0.5 --vu 3 --left_svect S --batch_count 2 -i 1",
    "solver -f sygvj -r s -n 8 -i 1",
])
def test_the_newer_routines_run(line: str) -> None:
    status, text = _run(line)
    assert status == 0, text
    header, row = text.splitlines()[1:3]
    assert float(dict(zip(header.split(","), row.split(","), strict=True))["gpu_time_us"]) > 0


def test_rocsolver_bench_tool_options() -> None:
    assert parse_command(["-f", "getrf", "--device", "0", "--perf", "0", "--singular", "0"]).device == 0
    for line in ("-f getrf --perf 1", "-f getrf --mem_query 1", "-f getrf --device x"):
        with pytest.raises(UsageError):
            parse_command(line.split())
    assert _run(f"solver -f getrf -r d -m 4 -n 4 --device {rm.get_device_count()}")[0] == 2


def test_a_nonzero_info_fails_the_check(monkeypatch: pytest.MonkeyPatch) -> None:
    real = solver.dsygv

    def failing(handle: Any, *args: Any) -> None:
        real(handle, *args)
        handle.stream.synchronize()
        args[-1].set(np.full(args[-1].shape, 9, np.int32))  # info: B not positive definite

    for attr in ("routine", "flavour", "precision"):
        setattr(failing, attr, getattr(real, attr))
    monkeypatch.setattr(solver, "dsygv", failing)
    status, text = _run("solver -f sygv -r d --evect V -n 8 -i 1 -j 0 -v 1")
    assert status == 1 and _cells(text)["error"] == "inf"


def test_rocsolver_bench_letters_of_rocsolver_enums() -> None:
    from rocmath.bench.rocsolver_cli import _enum_value

    assert _enum_value("evect", "V") == int(solver.Evect.original) and _enum_value("evect", "n") == int(
        solver.Evect.none)
    assert _enum_value("left_svect", "S") == int(solver.Svect.singular) and _enum_value("itype", 2) == int(
        solver.Eform.abx)
    assert _enum_value("uplo", "U") == "U" and _enum_value("evect", 213) == 213  # others, and values, as given


# --- every routine: rocsolver-bench's defaults and meaningful operands ---------------------------------------


def test_operands_for_every_routine_without_running_it() -> None:
    """Every rocmath.solver routine with a precision (the manifest's names but for rocSOLVER's version,
    logging and rfinfo functions, which rocsolver-bench does not run) gets its operands at tiny sizes."""
    from rocmath.solver._manifest import AUXILIARY, compute_routines

    names = sorted(compute_routines())
    routines = [name for name in names if hasattr(getattr(solver, name), "routine")]
    assert sorted(set(names) - set(routines)) == sorted(AUXILIARY) and len(routines) == 878
    tiny = {"m": 3, "n": 2, "k": 2, "nrhs": 2, "nb": 2, "nblocks": 2, "batch_count": 2}
    for name in routines:
        fn = getattr(solver, name)
        params = fn.routine.signature(fn.flavour)[1:]
        flags = " ".join(f"--{k} {v}" for k, v in tiny.items() if k in params)
        ops = _operands(f"-f {name[1:]} -r {name[0]} {flags}")
        assert set(params) <= set(ops.values) | {"rfinfo"}, name  # a value for every argument
    assert _run("solver -f get_version_string -r s")[0] == 2


#: One run of each family the command could not run before (no -v: rocsolver-bench checks none of them).
FIXED_RUNS = [
    "-f lacgv -r z -n 6",  # incx: rocsolver-bench's 1
    "-f larfg_64 -r d -n 6",
    "-f larf -r d -m 6 -n 4 --side R",
    "-f larft -r d -n 8 -k 3 --direct B --storev R",  # storev: C unless given
    "-f larfb -r d -m 6 -n 5 -k 3",
    "-f orgbr -r d -m 6 -n 5 -k 4",
    "-f unmbr -r z -m 6 -n 5 -k 3 --storev R --side R",
    "-f orgqr -r d -m 8 -n 6",  # k: the reflectors the matrix allows
    "-f ormlq -r d -m 6 -n 5",
    "-f bdsqr -r d -n 6 --nv 6 --nu 6 --nc 2",
    "-f bdsvdx -r d -n 6",  # svect N
    "-f laswp -r d -n 5",
    "-f lasyf -r d -n 8",  # nb = n
    "-f stein -r d -n 8",
    "-f csrrf_analysis -r d -n 20 --nrhs 2 --rfinfo_mode 2",
]


@pytest.mark.parametrize("line", FIXED_RUNS)
def test_the_routines_it_could_not_run(line: str) -> None:
    status, text = _run(f"solver {line} -i 1 -j 0")
    assert status == 0, text
    assert float(_cells(text)["gpu_time_us"]) > 0


#: -v 1 for the block tridiagonal and sparse refactorization routines, in each flavour they have.
CHECKED_RUNS = [
    "-f geblttrf_npvt -r d --nb 3 --nblocks 4",
    "-f geblttrf_npvt_batched -r d --nb 3 --nblocks 3 --batch_count 2",
    "-f geblttrf_npvt_strided_batched -r d --nb 2 --nblocks 4 --batch_count 2",
    "-f geblttrf_npvt_interleaved_batched -r d --nb 3 --nblocks 3 --batch_count 2 --inca 2 --lda 6 --strideA 1 "
    "--incb 2 --ldb 6 --strideB 1 --incc 2 --ldc 6 --strideC 1",  # entries interleaved element by element
    "-f geblttrs_npvt -r d --nb 3 --nblocks 4 --nrhs 2",
    "-f geblttrs_npvt_batched -r d --nb 2 --nblocks 3 --batch_count 2",
    "-f geblttrs_npvt_strided_batched -r d --nb 3 --nblocks 3 --nrhs 1 --batch_count 2",
    "-f geblttrs_npvt_interleaved_batched -r z --nb 2 --nblocks 3 --nrhs 2 --batch_count 2",
    "-f csrrf_sumlu -r d -n 12",
    "-f csrrf_splitlu -r d -n 12 --nnzT 40",
    "-f csrrf_refactlu -r d -n 20 --nnzA 90",
    "-f csrrf_refactchol -r d -n 20",
    "-f csrrf_solve -r d -n 20 --nrhs 3",
    "-f csrrf_solve -r d -n 20 --nrhs 2 --rfinfo_mode 2",
]


@pytest.mark.parametrize("line", CHECKED_RUNS)
def test_verify_of_the_block_tridiagonal_and_refactorization_routines(line: str) -> None:
    status, text = _run(f"solver {line} -i 1 -j 0 -v 1")
    assert status == 0, text
    cells = _cells(text)
    order = int(cells["n"]) if "n" in cells else int(cells["nb"]) * int(cells["nblocks"])
    exact = "sumlu" in line or "splitlu" in line  # copies: exactly right
    assert 0 <= float(cells["error"]) <= (0 if exact else 30 * order * _eps(line.split()[3]))


@pytest.mark.parametrize(("line", "routine", "output"), [
    ("-f geblttrf_npvt -r d --nb 3 --nblocks 3", "dgeblttrf_npvt", 5),  # B: the factors of M
    ("-f geblttrs_npvt -r d --nb 3 --nblocks 3", "dgeblttrs_npvt", 10),  # X
    ("-f csrrf_refactlu -r d -n 12", "dcsrrf_refactlu", 9),  # valT
    ("-f csrrf_refactchol -r d -n 12", "dcsrrf_refactchol", 9),
    ("-f csrrf_solve -r d -n 12 --nrhs 2", "dcsrrf_solve", 9),  # B
    ("-f csrrf_sumlu -r d -n 12", "dcsrrf_sumlu", 12),  # valT
    ("-f csrrf_splitlu -r d -n 12", "dcsrrf_splitlu", 11),  # valU
])
def test_verify_catches_a_wrong_block_tridiagonal_or_sparse_result(monkeypatch: pytest.MonkeyPatch, line: str,
                                                                   routine: str, output: int) -> None:
    real = getattr(solver, routine)

    def off_by_a_bit(handle: Any, *args: Any) -> None:
        real(handle, *args)
        handle.stream.synchronize()
        out = args[output - 1]
        out.set(out.get() * 1.001)  # a result 0.1 % off

    for attr in ("routine", "flavour", "precision"):
        setattr(off_by_a_bit, attr, getattr(real, attr))
    monkeypatch.setattr(solver, routine, off_by_a_bit)
    status, text = _run(f"solver {line} -i 1 -j 0 -v 1")
    assert status == 1 and float(_cells(text)["error"]) > 1e-5, text


def test_rocsolver_bench_defaults_of_the_other_routines() -> None:
    """Without running: the sizes, leading dimensions and strides rocsolver-bench's testing_*.hpp derive."""
    v = _operands("-f getrf -r d -m 12").values
    assert (v["n"], v["lda"], v["m"]) == (12, 12, 12)  # n = m, a square matrix
    v = _operands("-f getrs_strided_batched -r d -n 8").values
    assert (v["nrhs"], v["ldb"], v["strideB"]) == (8, 8, 64)  # nrhs = n
    v = _operands("-f gels -r d -m 5 -n 8").values
    assert (v["nrhs"], v["lda"], v["ldb"]) == (8, 5, 8)
    v = _operands("-f orgqr -r d -m 8 -n 6").values
    assert (v["k"], v["lda"]) == (6, 8)
    assert _operands("-f orglq -r d -m 4 -n 8").values["k"] == 4
    v = _operands("-f ormqr -r d -m 8 -n 5").values  # side L: nq = m
    assert (v["k"], v["lda"], v["ldc"]) == (8, 8, 8)
    v = _operands("-f ormql -r d -m 8 -n 5 --side R").values
    assert (v["k"], v["lda"]) == (5, 5)
    v = _operands("-f ormlq -r d -m 6 -n 5").values
    assert (v["k"], v["lda"]) == (6, 6)  # lda = k
    assert _operands("-f ormbr -r d -m 6 -n 5 -k 9 --storev R").values["lda"] == 6  # min(nq, k)
    v = _operands("-f larfb -r d -m 8 -n 5 --storev R").values
    assert (v["k"], v["ldv"], v["ldt"], v["lda"], v["storev"], v["direct"]) == (5, 5, 5, 8, "R", "F")
    v = _operands("-f larft -r d -n 8").values
    assert (v["k"], v["ldv"], v["ldt"], v["storev"]) == (8, 8, 8, "C")
    v = _operands("-f labrd -r d -m 9 -n 6").values
    assert (v["k"], v["ldx"], v["ldy"]) == (6, 9, 6)
    assert _operands("-f latrd -r d -n 7").values["ldw"] == 7
    v = _operands("-f bdsqr -r d -n 6").values
    assert (v["nv"], v["nu"], v["nc"], v["ldv"], v["ldu"], v["ldc"]) == (0, 0, 0, 1, 1, 1)
    v = _operands("-f bdsqr -r d -n 6 --nv 3 --nu 4 --nc 2").values
    assert (v["ldv"], v["ldu"], v["ldc"]) == (6, 4, 6)
    v = _operands("-f bdsvdx -r d -n 6").values
    assert (v["svect"], v["ldz"]) == ("N", 12)
    v = _operands("-f lasyf -r d -n 9").values
    assert (v["nb"], v["lda"]) == (9, 9)
    v = _operands("-f laswp -r d -n 7").values
    assert (v["k1"], v["k2"], v["lda"], v["incx"]) == (1, 7, 7, 1)
    ops = _operands("-f stein -r d -n 8")
    assert ops.values["ldz"] == 8 and ops.values["nev"].get()[0] == 5  # stebz's 5 largest
    v = _operands("-f geblttrs_npvt_strided_batched -r d").values
    assert (v["nb"], v["nblocks"], v["nrhs"], v["lda"], v["strideA"], v["strideX"]) == (32, 20, 32, 32, 32 * 32 * 20,
                                                                                         32 * 32 * 20)
    v = _operands("-f geblttrf_npvt_interleaved_batched -r d --nb 3 --nblocks 4").values
    assert (v["inca"], v["lda"], v["strideA"], v["incc"]) == (1, 3, 36, 1)
    v = _operands("-f csrrf_solve -r d -n 20").values
    assert (v["nrhs"], v["ldb"]) == (20, 20)
    assert _operands("-f csrrf_analysis -r d -n 20").values["nrhs"] == 0
    # The sparse matrix: a 5 x 4 grid's 2D Laplacian pattern (82 entries), or the count asked for.
    assert _operands("-f csrrf_refactlu -r d -n 20").values["nnzA"] == 82
    assert _operands("-f csrrf_refactchol -r d -n 20 --nnzA 120").values["nnzA"] == 120
    v = _operands("-f csrrf_sumlu -r d -n 10").values
    assert (v["nnzL"], v["nnzU"]) == (30, 30)
    assert _operands("-f csrrf_sumlu -r d -n 10 --nnzL 17 --nnzU 21").values["nnzU"] == 21
    assert _operands("-f csrrf_splitlu -r d -n 10 --nnzT 33").values["nnzT"] == 33
    with pytest.raises(UsageError):
        _operands("-f csrrf_solve -r d -n 20 --rfinfo_mode 3")
    with pytest.raises(UsageError):
        _operands("-f csrrf_refactlu -r d -n 20 --rfinfo_mode 1")  # rocsolver-bench reads it for analysis, solve


def _host_run(line: str) -> Any:
    """The operands of ``line`` after one call of the routine on them (and its handle, destroyed)."""
    from rocmath.bench.rocsolver_cli import _resolve

    cmd = parse_command(line.split())
    fn = _resolve(cmd.function, cmd.precision)
    ops = _operands(line)
    h = blas.create_handle()
    try:
        ops.attach(h)
        fn(h, *(ops.call_values[n] for n in ops.names[1:]))
        h.stream.synchronize()
    finally:
        ops.release()
        blas.destroy_handle(h)
    return ops


def _orthonormality(q: np.ndarray) -> float:
    q = q.astype(np.complex128)
    return float(np.abs(np.swapaxes(q, -1, -2).conj() @ q - np.eye(q.shape[-1])).max())


@pytest.mark.parametrize("line", ["-f orgbr -r d -m 6 -n 5 -k 4", "-f ungbr -r z -m 5 -n 7 -k 3 --storev R",
                                  "-f orgtr -r d -n 6 --uplo U", "-f ung2l -r z -m 7 -n 5 -k 3"])
def test_householder_operands_are_reflectors(line: str) -> None:
    """tau_i = 2 / ||v_i||^2 for the vectors where the routine reads them: its Q is orthonormal."""
    ops = _host_run(line)
    n = int(ops.values["n"])
    m = int(ops.values.get("m", n))
    q = ops.matrix("A")[:, :m, :n]
    assert _orthonormality(q if "storev R" not in line else np.swapaxes(q, -1, -2).conj()) < 1e-13


def test_larfb_applies_the_reflectors_of_its_t() -> None:
    """larfb's T is larft's for V and its taus: I - V T V^H is orthogonal, so A keeps its norm."""
    ops = _host_run("-f larfb -r z -m 7 -n 5 -k 3 --storev R --direct B --side R")
    before, after = ops.matrix("A", initial=True)[:, :7, :5], ops.matrix("A")[:, :7, :5]
    assert abs(np.linalg.norm(after) - np.linalg.norm(before)) < 1e-13 * np.linalg.norm(before)
    assert np.abs(after - before).max() > 0.1


def test_tridiagonal_operands_are_rocsolver_tests() -> None:
    """bdsqr's D, E: singular values as LAPACK's; stein's W, iblock, isplit from stebz: eigenpairs of T."""
    import scipy.linalg as sl

    ops = _host_run("-f bdsqr -r d -n 8 --nv 8 --nu 8")
    d, e = (ops.vector(x, np.float64, initial=True)[0] for x in ("D", "E"))
    assert np.abs(np.sort(ops.vector("D", np.float64)[0]) - np.sort(sl.svdvals(np.diag(d) + np.diag(e[:7], 1)))
                  ).max() < 1e-13 * np.abs(d).max()
    ops = _host_run("-f stein -r d -n 10")
    d, e = (ops.vector(x, np.float64, initial=True)[0] for x in ("D", "E"))
    t = np.diag(d) + np.diag(e[:9], 1) + np.diag(e[:9], -1)
    w, z = ops.vector("W", np.float64)[0, :5], ops.matrix("Z")[0, :10, :5]
    assert np.abs(np.sort(w) - sl.eigvalsh(t)[-5:]).max() < 1e-12 and np.abs(t @ z - z * w).max() < 1e-12
    assert np.all(np.abs(w) <= 20)  # rocSOLVER's scaling: the spectrum in [-20, 20]


def test_the_new_routines_bench_lines_replay(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    """The calls of a run log their bench lines (csrrf_analysis's before refactlu's too); each replays."""
    bench = tmp_path / "bench.log"
    monkeypatch.setenv("ROCSOLVER_LAYER", "2")
    monkeypatch.setenv("ROCSOLVER_LOG_BENCH_PATH", str(bench))
    for line in ("-f geblttrs_npvt_interleaved_batched -r d --nb 2 --nblocks 3 --batch_count 2",
                 "-f csrrf_refactlu -r d -n 12", "-f csrrf_sumlu -r s -n 6 --nnzL 9 --nnzU 10"):
        assert _run(f"solver {line} -i 1 -j 0")[0] == 0
    close_logs()
    monkeypatch.delenv("ROCSOLVER_LAYER")
    lines = sorted(set(bench.read_text().splitlines()))
    assert [x.split()[3] for x in lines] == ["csrrf_analysis", "csrrf_refactlu", "csrrf_sumlu",
                                             "geblttrs_npvt_interleaved_batched"]
    for line in lines:
        status, text = _run(line.removeprefix("rocmath-bench ") + " -i 1 -j 0")
        assert status == 0, (line, text)
