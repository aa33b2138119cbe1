//! The HTTP edge every route shares: the `{code, msg, data}` envelope and its error
//! codes ([`envelope`]), sessions and their extractors ([`auth`]), the layers every
//! request passes ([`middleware`]) and the table of the calls they treat apart
//! ([`route_table`]), the OpenAPI document ([`openapi`]) and the built
//! web app ([`web_app`]). The routes themselves are in `crate::routes`.

pub mod auth;
pub mod envelope;
pub mod middleware;
pub mod openapi;
pub mod route_table;
pub mod web_app;
