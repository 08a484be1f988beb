"""North Wind's own tests."""
