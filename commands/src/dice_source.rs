//! Where the bot's dice come from: the OS in production; a seed or exact faces in the console
//! and tests, so a whole session can be replayed.

use std::sync::{Arc, Mutex};

use engine::dice::{DiceError, FixedRoller, OsRoller, Roller, SeededRoller};

#[derive(Clone)]
pub enum DiceSource {
    Os(Arc<Mutex<OsRoller>>),
    Seeded(Arc<Mutex<SeededRoller>>),
    /// Shared so a test can queue the faces of its next interaction.
    Fixed(Arc<Mutex<FixedRoller>>),
}

impl DiceSource {
    pub fn os() -> Result<Self, DiceError> {
        Ok(DiceSource::Os(Arc::new(Mutex::new(OsRoller::from_os()?))))
    }

    pub fn seeded(seed: u64) -> Self {
        DiceSource::Seeded(Arc::new(Mutex::new(SeededRoller::from_seed(seed))))
    }

    pub fn fixed(faces: impl IntoIterator<Item = u32>) -> Self {
        DiceSource::Fixed(Arc::new(Mutex::new(FixedRoller::new(faces))))
    }

    /// Run `f` with exclusive use of the roller (one command's dice stay contiguous).
    pub fn with<T>(&self, f: impl FnOnce(&mut dyn Roller) -> T) -> T {
        // A poisoned lock means a panic mid-roll elsewhere; the generator itself is still valid.
        match self {
            DiceSource::Os(m) => f(&mut *m.lock().unwrap_or_else(|e| e.into_inner())),
            DiceSource::Seeded(m) => f(&mut *m.lock().unwrap_or_else(|e| e.into_inner())),
            DiceSource::Fixed(m) => f(&mut *m.lock().unwrap_or_else(|e| e.into_inner())),
        }
    }

    /// Faces the fixed source has left (tests see whether something rolled); `None` for the
    /// others.
    pub fn remaining(&self) -> Option<usize> {
        match self {
            DiceSource::Fixed(m) => Some(m.lock().unwrap_or_else(|e| e.into_inner()).remaining()),
            _ => None,
        }
    }

    /// Queue faces for the fixed source (tests); ignored by the others.
    pub fn queue(&self, faces: impl IntoIterator<Item = u32>) {
        if let DiceSource::Fixed(m) = self {
            m.lock().unwrap_or_else(|e| e.into_inner()).extend(faces);
        }
    }
}
