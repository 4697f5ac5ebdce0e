//! The harness's verdict rules for one error: `SkipTest` skips, `AssertionError` fails, anything
//! else (and every interpreter limit) is an error, with the exception's type and first message
//! line as unittest reports them; and the outcome of each `with self.subTest()` block.

use crate::interp::{ExcKind, Interp, PyErr, Value};

/// The outcome of one `with self.subTest()` block (or of a method without subtests).
#[derive(Clone, Debug)]
pub struct SubOutcome {
    pub status: crate::report::Status,
    pub exc_type: Option<String>,
    pub message: Option<String>,
    pub line: Option<u32>,
}

impl<'a> Interp<'a> {
    /// Records one subtest outcome (None = passed).
    pub fn record_subtest(&mut self, e: Option<&PyErr<'a>>) {
        let o = match e {
            None => SubOutcome {
                status: crate::report::Status::Pass,
                exc_type: None,
                message: None,
                line: None,
            },
            Some(e) => {
                let (status, exc_type, message) = self.classify(e);
                let line = if status == crate::report::Status::Skip { None } else { e.line };
                SubOutcome { status, exc_type: Some(exc_type), message: Some(message), line }
            }
        };
        self.record.subtests.push(o);
    }

    /// Status, exception type name and first message line of an error, as the harness reports them.
    pub fn classify(&mut self, e: &PyErr<'a>) -> (crate::report::Status, String, String) {
        use crate::report::Status;
        let (name, status, message) = match &e.exc {
            Value::Instance(i) => {
                let name = i.class.name.to_string();
                let status = if e.fatal {
                    Status::Error
                } else if i.class.is_subclass_named(ExcKind::SkipTest.name()) {
                    Status::Skip
                } else if i.class.is_subclass_named(ExcKind::AssertionError.name()) {
                    Status::Fail
                } else {
                    Status::Error
                };
                (name, status, self.str_of(&e.exc).unwrap_or_else(|_| "<unprintable>".to_string()))
            }
            other => (self.type_name(other), Status::Error, String::new()),
        };
        if matches!(status, Status::Fail | Status::Error) {
            // unittest formats its traceback (see `Interp::ast_parse_entries`).
            self.ast_parse_entries = self.ast_parse_entries.saturating_add(1);
        }
        let first = message.split('\n').next().unwrap_or("").to_string();
        let first = crate::interp::fmt::normalise_addresses(&first);
        let cut: String = first.chars().take(1000).collect();
        (status, name, cut)
    }
}
