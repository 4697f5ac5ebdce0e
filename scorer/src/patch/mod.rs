//! Unified and git diffs: parsing, and applying them to a [`crate::tree::Tree`] as `git apply` does.
