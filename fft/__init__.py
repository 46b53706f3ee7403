"""rocmath.fft: rocFFT on the simulated device (issue 5: plans and transforms land here)."""
