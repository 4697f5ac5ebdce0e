//! The interpreter for the Python subset the official tests use, with its standard-library shims.
