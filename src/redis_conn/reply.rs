//! What a pipeline's replies mean to slugd: a server error in any reply
//! fails the whole call, on one server as on a cluster.

use redis::{RedisResult, Value};

/// Turns a server error among pipeline replies into the call's error.
pub(super) fn errors_to_err(values: Vec<Value>) -> RedisResult<Vec<Value>> {
    values
        .into_iter()
        .map(|v| match v {
            Value::ServerError(_) => v.extract_error(),
            v => Ok(v),
        })
        .collect()
}
