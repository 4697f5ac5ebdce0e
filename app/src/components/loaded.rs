//! The three states of a page's resource (loading, failed, loaded), shown the same way everywhere.

use leptos::prelude::*;

/// Shows `loading` until `resource` resolves, then `ok`'s view of its value, or its error as
/// `<p class="error" id=error_id>` (under a `heading`, when given).
#[component]
pub fn Loaded<T, F, V>(
    resource: LocalResource<Result<T, String>>,
    loading: &'static str,
    error_id: &'static str,
    #[prop(optional, into)] heading: Option<Signal<String>>,
    ok: F,
) -> impl IntoView
where
    T: Clone + 'static,
    F: Fn(T) -> V + Send + Sync + 'static,
    V: IntoView + 'static,
{
    view! {
        <Suspense fallback=move || view! { <p class="muted">{loading}</p> }>
            {move || resource.get().map(|res| match res {
                Err(e) => view! {
                    {heading.map(|h| view! { <h1>{move || h.get()}</h1> })}
                    <p class="error" id=error_id>{e}</p>
                }.into_any(),
                Ok(value) => ok(value).into_any(),
            })}
        </Suspense>
    }
}
