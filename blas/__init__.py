"""rocmath.blas: rocBLAS on the simulated device (issue 3: routines land here)."""
