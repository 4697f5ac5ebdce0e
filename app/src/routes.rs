//! The app's URLs: the shared [`site_routes`] crate (typed routes and the one percent-encoder,
//! also used by the trajectory worker's links) plus [`Href`], which puts a route under the site's
//! base path.

pub use site_routes::*;

/// The absolute link (`<a href>`) of a route: [`Route::path`] under the site's base path.
pub trait Href {
    fn href(&self) -> String;
}

impl Href for Route {
    fn href(&self) -> String {
        crate::net::href(&self.path())
    }
}
