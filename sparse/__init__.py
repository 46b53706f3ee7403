"""rocmath.sparse: rocSPARSE on the simulated device (issue 6: routines land here)."""
