//! A JSON document of a session (an entry's sheet, the system state) shared between copies of
//! the session. Every edit works on a copy of the session the store keeps (issue 32): copying a
//! document is a reference count, comparing an unchanged one is a pointer check, and dropping
//! the old copy frees nothing. What a system reads out of a document (its typed sheet) is kept
//! with it, so the next command reading the same, unchanged sheet does not parse it again;
//! changing the document forgets it.

use std::any::{Any, TypeId};
use std::fmt;
use std::ops::{Deref, DerefMut};
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

/// A shared JSON document: reads through `Deref`, writes through `DerefMut` (copy on write).
#[derive(Clone)]
pub struct Doc(Arc<Inner>);

/// What a reader made of the document, by the reader's type (`Doc::read`).
type Readings = Vec<(TypeId, Arc<dyn Any + Send + Sync>)>;

struct Inner {
    value: Value,
    readings: Mutex<Readings>,
}

impl Clone for Inner {
    /// A copy about to be changed: what was read from the original does not carry over.
    fn clone(&self) -> Inner {
        Inner::new(self.value.clone())
    }
}

impl Inner {
    fn new(value: Value) -> Inner {
        Inner {
            value,
            readings: Mutex::new(Vec::new()),
        }
    }
}

/// The most readings one document keeps: a system reads its sheets one or two ways.
const MAX_READINGS: usize = 4;

impl Doc {
    pub fn new(value: Value) -> Doc {
        Doc(Arc::new(Inner::new(value)))
    }

    /// An empty JSON object, the sheet of a new entry.
    pub fn empty_object() -> Doc {
        Doc::new(Value::Object(serde_json::Map::new()))
    }

    pub fn value(&self) -> &Value {
        &self.0.value
    }

    /// What `read` makes of the document, read once per version of it: `read` runs the first
    /// time and its result is kept (by `read`'s own type, so two readers never mix) until the
    /// document changes. `read` captures nothing, so it depends only on the value it is given.
    pub fn read<T, F>(&self, read: F) -> T
    where
        T: Clone + Send + Sync + 'static,
        F: FnOnce(&Value) -> T + 'static,
    {
        // A reader that captures nothing is its type: one key, one meaning.
        const { assert!(std::mem::size_of::<F>() == 0, "a reader must capture nothing") };
        let key = TypeId::of::<F>();
        if let Some(kept) = self.kept::<T>(key) {
            return kept;
        }
        let made = read(&self.0.value);
        if let Ok(mut readings) = self.0.readings.lock()
            && readings.len() < MAX_READINGS
            && !readings.iter().any(|(k, _)| *k == key)
        {
            readings.push((key, Arc::new(made.clone())));
        }
        made
    }

    fn kept<T: Clone + 'static>(&self, key: TypeId) -> Option<T> {
        let readings = self.0.readings.lock().ok()?;
        let (_, kept) = readings.iter().find(|(k, _)| *k == key)?;
        kept.downcast_ref::<T>().cloned()
    }

    /// Whether both are the same shared document (no copy was changed in between).
    fn shares(&self, other: &Doc) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Deref for Doc {
    type Target = Value;

    fn deref(&self) -> &Value {
        &self.0.value
    }
}

impl DerefMut for Doc {
    /// Copies the document when another copy of the session shares it, and forgets what was
    /// read from it: the caller may change it.
    fn deref_mut(&mut self) -> &mut Value {
        let inner = Arc::make_mut(&mut self.0);
        match inner.readings.get_mut() {
            Ok(readings) => readings.clear(),
            Err(poisoned) => poisoned.into_inner().clear(),
        }
        &mut inner.value
    }
}

impl PartialEq for Doc {
    fn eq(&self, other: &Doc) -> bool {
        self.shares(other) || self.0.value == other.0.value
    }
}

impl PartialEq<Value> for Doc {
    fn eq(&self, other: &Value) -> bool {
        self.0.value == *other
    }
}

impl PartialEq<Doc> for Value {
    fn eq(&self, other: &Doc) -> bool {
        *self == other.0.value
    }
}

impl fmt::Debug for Doc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.value.fmt(f)
    }
}

impl fmt::Display for Doc {
    /// As the value prints (tests print a session's state when an assertion fails).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.value.fmt(f)
    }
}

impl Default for Doc {
    /// `null`, as `Value::default()`.
    fn default() -> Doc {
        Doc::new(Value::Null)
    }
}

impl From<Value> for Doc {
    fn from(value: Value) -> Doc {
        Doc::new(value)
    }
}

impl Serialize for Doc {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.value.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Doc {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Doc, D::Error> {
        Value::deserialize(deserializer).map(Doc::new)
    }
}

/// A sheet or a state to read: a plain JSON value (read every time) or a session's [`Doc`]
/// (read once per version). Systems' `read` functions take either, so a command reading from
/// the session gets the kept reading and a test or an edit reading a bare value is unchanged.
pub trait ReadJson {
    /// `read` applied to the JSON, or its kept result (see [`Doc::read`]).
    fn read_once<T, F>(&self, read: F) -> T
    where
        T: Clone + Send + Sync + 'static,
        F: FnOnce(&Value) -> T + 'static;
}

impl ReadJson for Value {
    fn read_once<T, F>(&self, read: F) -> T
    where
        T: Clone + Send + Sync + 'static,
        F: FnOnce(&Value) -> T + 'static,
    {
        read(self)
    }
}

impl ReadJson for Doc {
    fn read_once<T, F>(&self, read: F) -> T
    where
        T: Clone + Send + Sync + 'static,
        F: FnOnce(&Value) -> T + 'static,
    {
        self.read(read)
    }
}

/// A JSON object to set one member of: a plain value in place, or a session's [`Doc`] as a new
/// document (the others' members copied, the old member not: a shared document is never copied
/// whole only to have a member replaced, which for a grown game state was most of a write).
pub trait WriteJson: ReadJson {
    /// Sets `key` to `value`, keeping the other members; a document that is not an object
    /// becomes one.
    fn set_member(&mut self, key: &str, value: Value);
}

impl WriteJson for Value {
    fn set_member(&mut self, key: &str, value: Value) {
        if !self.is_object() {
            *self = Value::Object(serde_json::Map::new());
        }
        self[key] = value;
    }
}

impl WriteJson for Doc {
    fn set_member(&mut self, key: &str, value: Value) {
        let mut object: serde_json::Map<String, Value> = self
            .value()
            .as_object()
            .into_iter()
            .flatten()
            .filter(|(k, _)| k.as_str() != key)
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        object.insert(key.to_string(), value);
        *self = Doc::new(Value::Object(object));
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use serde_json::json;

    use super::*;

    #[test]
    fn a_copy_shares_until_one_side_changes() {
        let a = Doc::new(json!({"edge": 3}));
        let mut b = a.clone();
        assert!(a.shares(&b));
        assert_eq!(a, b);
        b["edge"] = json!(4);
        assert!(!a.shares(&b));
        assert_eq!(a["edge"], json!(3), "the original is untouched");
        assert_eq!(b["edge"], json!(4));
        assert_ne!(a, b);
        // Equal values in different documents are still equal.
        assert_eq!(Doc::new(json!({"edge": 4})), b);
    }

    #[test]
    fn a_reading_is_made_once_per_version_and_forgotten_on_change() {
        static READS: AtomicUsize = AtomicUsize::new(0);
        fn edge(v: &Value) -> Option<i64> {
            READS.fetch_add(1, Ordering::SeqCst);
            v["edge"].as_i64()
        }
        let mut doc = Doc::new(json!({"edge": 3}));
        let copy = doc.clone();
        assert_eq!(doc.read(edge), Some(3));
        assert_eq!(copy.read(edge), Some(3), "a copy shares the reading");
        assert_eq!(READS.load(Ordering::SeqCst), 1);
        doc["edge"] = json!(5);
        assert_eq!(doc.read(edge), Some(5), "the changed document is read again");
        assert_eq!(copy.read(edge), Some(3), "the other copy keeps its own");
        assert_eq!(READS.load(Ordering::SeqCst), 2);
    }

    #[test]
    fn two_readers_of_the_same_type_never_mix() {
        let doc = Doc::new(json!({"a": 1, "b": 2}));
        assert_eq!(doc.read(|v: &Value| v["a"].as_i64()), Some(1));
        assert_eq!(doc.read(|v: &Value| v["b"].as_i64()), Some(2));
    }

    #[test]
    fn a_mutable_borrow_forgets_the_reading_even_when_not_shared() {
        let mut doc = Doc::new(json!({"n": 1}));
        let read = |v: &Value| v["n"].as_i64();
        assert_eq!(doc.read(read), Some(1));
        *doc = json!({"n": 2});
        assert_eq!(doc.read(read), Some(2));
    }

    #[test]
    fn setting_a_member_keeps_the_others_and_leaves_a_shared_copy_alone() {
        let before = Doc::new(json!({"race": {"laps": 3}, "warmachine": {"round": 1}}));
        let mut after = before.clone();
        after.set_member("warmachine", json!({"round": 2}));
        assert_eq!(after, json!({"race": {"laps": 3}, "warmachine": {"round": 2}}));
        assert_eq!(before, json!({"race": {"laps": 3}, "warmachine": {"round": 1}}));
        let mut plain = json!({"race": {"laps": 3}, "warmachine": {"round": 1}});
        plain.set_member("warmachine", json!({"round": 2}));
        assert_eq!(after, plain);
        let mut null = Doc::default();
        null.set_member("race", json!(1));
        assert_eq!(null, json!({"race": 1}));
        let mut text = json!("not an object");
        text.set_member("race", json!(1));
        assert_eq!(text, json!({"race": 1}));
    }

    #[test]
    fn it_reads_and_writes_as_the_plain_value() {
        let doc: Doc = serde_json::from_str(r#"{"x":[1,2]}"#).unwrap();
        assert_eq!(serde_json::to_string(&doc).unwrap(), r#"{"x":[1,2]}"#);
        assert_eq!(doc, json!({"x": [1, 2]}));
        assert_eq!(Doc::default(), Value::Null);
        assert_eq!(Doc::empty_object(), json!({}));
    }
}
