"""rocmath.solver: rocSOLVER on the simulated device (issue 4: routines land here)."""
