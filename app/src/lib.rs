//! refscore's browser app: a Leptos client-side UI. The Web Worker that scores is the `worker`
//! crate.
//!
//! The UI thread never scores: it sends requests to the worker ([`worker::ToWorker`], through
//! [`bridge`]) and renders what comes back. Everything a user uploads is rendered as text, never
//! as HTML.

pub mod app;
pub mod bridge;
pub mod bundles;
pub mod components;
pub mod net;
pub mod pages;
pub mod routes;
pub mod runs;
pub mod store;
pub mod trajbridge;
pub mod upload;
pub mod zip;
