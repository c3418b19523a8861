//! JSON written once, where a command makes it, and handed to the store as text (issue 18):
//! a button's payload or a logged outcome used to be built as a `serde_json::Value` (a tree
//! of maps), cloned per button and per batch, compared, and serialized again by the store —
//! about a fifth of the bot's CPU for `/sr test`. Cloning this is a reference count.

use std::fmt;
use std::sync::Arc;

use serde::Serialize;
use serde_json::Value;
use serde_json::value::RawValue;

/// Valid JSON text, shared. Equal when the texts are equal.
#[derive(Clone)]
pub struct JsonText(Arc<RawValue>);

impl JsonText {
    /// `value` written as JSON (fails only where `serde_json` would, e.g. a map with
    /// non-string keys).
    pub fn of<T: Serialize + ?Sized>(value: &T) -> Result<JsonText, serde_json::Error> {
        // serde_json's own output: not parsed again to check it.
        serde_json::value::to_raw_value(value).map(|raw| JsonText(Arc::from(raw)))
    }

    /// [`Self::of`] for a button's data of a derived type (which always writes): should it not,
    /// `null` is stored and the press is refused when it cannot read it back.
    pub fn of_or_null<T: Serialize + ?Sized>(value: &T) -> JsonText {
        JsonText::of(value).unwrap_or_else(|_| JsonText(Arc::from(RawValue::NULL.to_owned())))
    }

    /// Text already written as JSON by `serde_json` (checked again: a wrong text is an error,
    /// never stored).
    pub fn from_text(text: String) -> Result<JsonText, serde_json::Error> {
        RawValue::from_string(text).map(|raw| JsonText(Arc::from(raw)))
    }

    pub fn as_str(&self) -> &str {
        self.0.get()
    }

    /// The text read back as a value (tests, and readers that want the tree).
    pub fn to_value(&self) -> Value {
        serde_json::from_str(self.as_str()).unwrap_or(Value::Null)
    }
}

impl From<&Value> for JsonText {
    /// A value's text; writing a `Value` cannot fail.
    fn from(value: &Value) -> JsonText {
        JsonText::of_or_null(value)
    }
}

impl From<Value> for JsonText {
    fn from(value: Value) -> JsonText {
        JsonText::from(&value)
    }
}

impl PartialEq for JsonText {
    fn eq(&self, other: &JsonText) -> bool {
        Arc::ptr_eq(&self.0, &other.0) || self.as_str() == other.as_str()
    }
}

impl fmt::Debug for JsonText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for JsonText {
    /// Written as the JSON it holds (not as a string), e.g. through `sqlx::types::Json`.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn holds_the_json_of_what_it_was_made_from() {
        #[derive(Serialize)]
        struct Press {
            session: i64,
            character: &'static str,
        }
        let t = JsonText::of(&Press {
            session: 3,
            character: "Ana \"the\" 🎲",
        })
        .unwrap();
        assert_eq!(t.as_str(), r#"{"session":3,"character":"Ana \"the\" 🎲"}"#);
        assert_eq!(t.to_value(), json!({"session": 3, "character": "Ana \"the\" 🎲"}));
        // Written inside other JSON as JSON, not as a quoted string.
        assert_eq!(
            serde_json::to_string(&json!({"p": 1})).unwrap(),
            serde_json::to_string(&Wrapper {
                p: JsonText::of(&1).unwrap()
            })
            .unwrap()
        );
    }

    #[derive(Serialize)]
    struct Wrapper {
        p: JsonText,
    }

    #[test]
    fn equal_by_text_and_refuses_what_is_not_json() {
        let a = JsonText::from(json!({"a": [1, 2]}));
        assert_eq!(a, JsonText::from_text(r#"{"a":[1,2]}"#.into()).unwrap());
        assert_ne!(a, JsonText::from(json!({"a": [2, 1]})));
        assert!(JsonText::from_text("{\"a\":".into()).is_err());
        assert!(JsonText::from_text("nope".into()).is_err());
    }

    #[test]
    fn a_map_without_string_keys_is_an_error_not_a_panic() {
        let mut m = std::collections::BTreeMap::new();
        m.insert((1, 2), 3);
        assert!(JsonText::of(&m).is_err());
        assert_eq!(JsonText::of_or_null(&m).as_str(), "null");
    }
}
