"""Many games at once: runners, fast kernels, results and statistics."""
