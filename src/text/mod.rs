//! Text shared by the reports: the one table writer.

pub mod table;
