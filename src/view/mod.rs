//! How the loop's records look, shared by the window (`render`) and the lab's plots: pure
//! geometry and colours, no GPU and no files.

pub mod timeline;
