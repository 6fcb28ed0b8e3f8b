//! The control channel: newline-delimited JSON on stdin (requests) and stdout (replies and events).
//! README.md of this crate lists every operation.

use serde_json::{json, Value};
use std::io::{BufRead, Write};
use std::sync::mpsc::Sender;
use std::thread;

/// One request from the server: `id` is echoed in its reply.
pub struct Request {
    pub id: u64,
    pub op: String,
    pub body: Value,
}

/// Why an operation failed, as the engine contract names it (packages/server/src/engine/media-engine.ts).
#[derive(Debug, Clone, Copy)]
pub enum Reason {
    NotSubscribed,
    NegotiationFailed,
    Refused,
}

impl Reason {
    fn as_str(self) -> &'static str {
        match self {
            Reason::NotSubscribed => "not-subscribed",
            Reason::NegotiationFailed => "negotiation-failed",
            Reason::Refused => "refused",
        }
    }
}

/// A failed operation: its contract reason and a one-line message.
pub struct Failure {
    pub reason: Reason,
    pub message: String,
}

impl Failure {
    pub fn new(reason: Reason, message: impl Into<String>) -> Failure {
        Failure { reason, message: message.into() }
    }
}

/// Reads requests from stdin on a thread of its own; a closed stdin (the server went) sends `None`.
pub fn spawn_reader(tx: Sender<Option<Request>>) {
    thread::spawn(move || {
        let stdin = std::io::stdin();
        for line in stdin.lock().lines() {
            let Ok(line) = line else { break };
            if line.trim().is_empty() {
                continue;
            }
            match serde_json::from_str::<Value>(&line) {
                Ok(body) => {
                    let id = body.get("id").and_then(Value::as_u64).unwrap_or(0);
                    let op = body.get("op").and_then(Value::as_str).unwrap_or("").to_string();
                    if tx.send(Some(Request { id, op, body })).is_err() {
                        return;
                    }
                }
                // A line that is not JSON has no id to answer: said on stderr, which the server logs.
                Err(error) => eprintln!("control: a request that is not JSON: {error}"),
            }
        }
        let _ = tx.send(None); // the main loop may be gone already: nothing left to tell
    });
}

/// Writes one line to stdout.
pub fn emit(value: &Value) {
    let mut out = std::io::stdout().lock();
    let line = value.to_string();
    if writeln!(out, "{line}").and_then(|_| out.flush()).is_err() {
        // stdout closed: the server is gone, and the worker exits when stdin closes too.
        eprintln!("control: stdout closed");
    }
}

/// The reply to request `id`: its result fields, or its failure.
pub fn reply(id: u64, result: Result<Value, Failure>) {
    match result {
        Ok(mut fields) => {
            if let Value::Object(map) = &mut fields {
                map.insert("id".into(), json!(id));
                emit(&fields);
            } else {
                emit(&json!({ "id": id }));
            }
        }
        Err(failure) => emit(&json!({ "id": id, "error": { "reason": failure.reason.as_str(), "message": failure.message } })),
    }
}

/// An event (no id): `feed-up`, `uplink-lost`, `downlink-failed`, `census`, `counters`, `ready`.
pub fn event(name: &str, mut fields: Value) {
    if let Value::Object(map) = &mut fields {
        map.insert("event".into(), json!(name));
    }
    emit(&fields);
}

/// A string field of a request, or a `refused` failure naming it.
pub fn text<'a>(body: &'a Value, field: &str) -> Result<&'a str, Failure> {
    body.get(field).and_then(Value::as_str).ok_or_else(|| Failure::new(Reason::Refused, format!("missing field {field}")))
}
