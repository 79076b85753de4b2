//! Words shared by the window, the lab and the reports: the one table writer, the
//! strategies described as the texts describe them, the settings written and read as a
//! person types them, and the stable ids the JSON reports name things by.

pub mod serde_ids;
pub mod settings;
pub mod strategy;
pub mod table;
pub mod value_error;
