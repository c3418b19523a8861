//! The one list of game systems. A [`SystemId`] is what sessions, settings and exports store;
//! [`rules`] is everything the rest of Saikoro asks of that system's folder. Adding a system:
//! its folder under `systems/`, a variant here (with its stored key), and its arm in [`rules`]
//! — the compiler then points at every `match` that must learn it, and the conformance test
//! below checks each piece is there (its sheet, options, state, dialect and odds).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::rules::SystemRules;
use super::{badlands_rally, generic, mecha_d20, shadowrun4, terminator, warmachine};
use crate::i18n::{Lang, Localized};

/// A game system. The string keys are stored in databases and exports: never rename them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum SystemId {
    #[serde(rename = "badlands_rally")]
    BadlandsRally,
    #[serde(rename = "shadowrun4")]
    Shadowrun4,
    #[serde(rename = "warmachine")]
    Warmachine,
    #[serde(rename = "terminator")]
    Terminator,
    #[serde(rename = "mecha_d20")]
    MechaD20,
    /// Free-form: a session with no rules module (sheets of whole numbers and text).
    #[serde(rename = "generic")]
    Generic,
}

/// Each system's rules. The match is exhaustive: a new [`SystemId`] does not compile until it
/// has its entry here.
pub fn rules(id: SystemId) -> &'static dyn SystemRules {
    match id {
        SystemId::BadlandsRally => &badlands_rally::rules::BadlandsRallyRules,
        SystemId::Shadowrun4 => &shadowrun4::rules::Shadowrun4Rules,
        SystemId::Warmachine => &warmachine::rules::WarmachineRules,
        SystemId::MechaD20 => &mecha_d20::rules::MechaD20Rules,
        SystemId::Terminator => &terminator::rules::TerminatorRules,
        SystemId::Generic => &generic::GENERIC,
    }
}

impl SystemId {
    /// Every system, in the order menus show them.
    pub const ALL: [SystemId; 6] = [
        SystemId::BadlandsRally,
        SystemId::Shadowrun4,
        SystemId::Warmachine,
        SystemId::Terminator,
        SystemId::MechaD20,
        SystemId::Generic,
    ];

    /// The stable key (`shadowrun4`, `mecha_d20`, …), identical to the serde form.
    pub fn key(self) -> &'static str {
        match self {
            SystemId::BadlandsRally => "badlands_rally",
            SystemId::Shadowrun4 => "shadowrun4",
            SystemId::Warmachine => "warmachine",
            SystemId::Terminator => "terminator",
            SystemId::MechaD20 => "mecha_d20",
            SystemId::Generic => "generic",
        }
    }

    /// The name shown to people.
    pub fn display_name(self, lang: Lang) -> &'static str {
        rules(self).name(lang)
    }

    pub fn rules(self) -> &'static dyn SystemRules {
        rules(self)
    }
}

impl fmt::Display for SystemId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

/// A typed system name that matches no system.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown game system {input:?}")]
pub struct UnknownSystem {
    /// At most 40 characters of what was typed.
    pub input: String,
}

impl Localized for UnknownSystem {
    fn localized(&self, lang: Lang) -> String {
        let input = &self.input;
        match lang {
            Lang::En => format!("Unknown game system “{input}”."),
            Lang::Ja => format!("「{input}」というシステムはありません。"),
        }
    }
}

impl FromStr for SystemId {
    type Err = UnknownSystem;

    /// Accepts the key in any case, with `-` or spaces for `_`, or either display name, so a
    /// typed `Shadowrun4`, `mecha-d20` or `シャドウラン第4版` all work.
    fn from_str(input: &str) -> Result<Self, Self::Err> {
        let trimmed = input.trim();
        let normal: String = trimmed
            .chars()
            .map(|c| {
                if c == '-' || c == ' ' {
                    '_'
                } else {
                    c.to_ascii_lowercase()
                }
            })
            .collect();
        SystemId::ALL
            .into_iter()
            .find(|s| {
                s.key() == normal
                    || s.display_name(Lang::En).eq_ignore_ascii_case(trimmed)
                    || s.display_name(Lang::Ja) == trimmed
            })
            .ok_or_else(|| UnknownSystem {
                input: trimmed.chars().take(40).collect(),
            })
    }
}

#[cfg(test)]
mod conformance {
    //! One test over every system (as BCDice checks every game system in one test): each has
    //! its id, names, sheet, dialect, options and state, and they agree with each other.

    use std::collections::{BTreeMap, HashSet};

    use serde_json::{Value, json};

    use super::*;
    use crate::dice::FixedRoller;

    /// Every variant is in `ALL`: this match stops compiling when a variant is added, and the
    /// count below fails when `ALL` is not extended with it.
    #[test]
    fn all_lists_every_variant_once() {
        let count = |id: SystemId| match id {
            SystemId::BadlandsRally
            | SystemId::Shadowrun4
            | SystemId::Warmachine
            | SystemId::Terminator
            | SystemId::MechaD20
            | SystemId::Generic => 1,
        };
        let unique: HashSet<SystemId> = SystemId::ALL.into_iter().collect();
        assert_eq!(
            unique.len(),
            SystemId::ALL.iter().map(|&s| count(s)).sum::<usize>()
        );
        assert_eq!(unique.len(), 6);
    }

    #[test]
    fn every_system_conforms() {
        let mut keys = HashSet::new();
        let mut names = HashSet::new();
        let mut option_keys = HashSet::new();
        for id in SystemId::ALL {
            let r = rules(id);
            // Id: the stored key round-trips through serde and FromStr.
            assert!(keys.insert(id.key()), "{id}: duplicate key");
            assert_eq!(serde_json::to_value(id).unwrap(), json!(id.key()));
            assert_eq!(id.key().parse::<SystemId>(), Ok(id));
            // Names: both languages, distinct, and typed names find the system.
            for lang in [Lang::En, Lang::Ja] {
                let name = r.name(lang);
                assert!(!name.trim().is_empty(), "{id}: no {lang:?} name");
                assert!(names.insert(name), "{id}: name {name} taken");
                assert_eq!(name.parse::<SystemId>(), Ok(id));
            }
            // Sheet: an empty one is kept or refused in both languages, and described either way.
            match r.edit_sheet(&json!({}), &[], true) {
                Ok(sheet) => {
                    let _ = r.describe_sheet(&sheet, Lang::En);
                }
                Err(e) => assert!(!e.en.is_empty() && !e.ja.is_empty(), "{id}: unlocalized refusal"),
            }
            let _ = r.describe_sheet(&json!({}), Lang::Ja);
            assert!(
                !r.sheet_decl().gm_only(""),
                "{id}: the empty field name is nobody's"
            );
            // Options: keys carry a prefix, have a default, and are unique across systems.
            for o in r.house_options() {
                assert!(o.key.contains('.'), "{id}: option {} has no prefix", o.key);
                assert!(!o.values.is_empty(), "{id}: option {} has no values", o.key);
                assert!(
                    !o.en.is_empty() && !o.ja.is_empty(),
                    "{id}: option {} undescribed",
                    o.key
                );
                assert!(option_keys.insert(o.key), "option {} listed twice", o.key);
                let house = BTreeMap::new();
                assert_eq!(
                    crate::systems::rules::house_value(r.house_options(), &house, o.key),
                    Some(o.default_value())
                );
            }
            // State: a new session's (null) state and an empty object read.
            r.check_state(&Value::Null)
                .unwrap_or_else(|e| panic!("{id}: {e}"));
            r.check_state(&json!({})).unwrap_or_else(|e| panic!("{id}: {e}"));
            // Odds: a typical request computes exactly (`/odds` has a page for every system).
            let odds = r.typical_odds().unwrap_or_else(|e| panic!("{id}: no odds: {e}"));
            assert!(
                (odds.mass() - 1.0).abs() < 1e-9,
                "{id}: odds add up to {}",
                odds.mass()
            );
            assert!(odds.max() > odds.min(), "{id}: odds of a roll with one result");
            // Dialect: plain generic notation is never rewritten.
            if let Some(d) = r.roll_dialect() {
                assert_eq!(d.rewrite("2d6+1"), None, "{id}");
                let out = crate::notation::evaluate("2d6", &mut FixedRoller::new(vec![3, 4])).unwrap();
                let _ = d.read(&out, Lang::Ja);
            }
        }
    }

    /// Issue 30: every system declares its sheet, and every declared field (each of its
    /// names), weapon slot and free name parses from its example, shows on `/char show`, and
    /// round-trips through the sheet file; its help and autocomplete speak both languages.
    #[test]
    fn every_declared_field_parses_shows_and_round_trips() {
        use crate::systems::sheet::{describe_sheet, parse_fields};
        use crate::systems::sheet_decl::Stored;
        use crate::systems::sheet_file::{export, import};
        let empty = json!({});
        let mut checked = 0;
        let mut unshown = Vec::new();
        for id in SystemId::ALL {
            let r = rules(id);
            let decl = r.sheet_decl();
            assert!(
                !decl.fields.is_empty() || decl.free.is_some(),
                "{id}: no sheet declaration"
            );
            assert!(!decl.example.is_empty(), "{id}: no example entry");
            let base_fields = parse_fields(decl.example).unwrap();
            let base = r
                .edit_sheet(&empty, &base_fields, true)
                .unwrap_or_else(|e| panic!("{id}: its example `{}` is refused: {}", decl.example, e.en));
            let base_shown = describe_sheet(id, &base, Lang::En);
            let mut keys = HashSet::new();
            for f in decl.fields {
                assert!(keys.insert(f.key), "{id}: {} declared twice", f.key);
                assert!(!f.ja.is_empty(), "{id}: {} has no Japanese name", f.key);
                assert!(!f.example.is_empty(), "{id}: {} has no example", f.key);
                // Every name is one field's only.
                for n in f.names.iter().chain([&f.ja]) {
                    let owner = decl.field(n).map(|o| o.key);
                    assert_eq!(owner, Some(f.key), "{id}: `{n}` names {owner:?}, not {}", f.key);
                }
                let mut fields = base_fields.clone();
                fields.retain(|(k, _)| decl.field(k).is_none_or(|o| o.key != f.key));
                fields.extend(parse_fields(&format!("{}={}", f.key, f.example)).unwrap());
                let sheet = r
                    .edit_sheet(&empty, &fields, true)
                    .unwrap_or_else(|e| panic!("{id}: `{}={}` is refused: {}", f.key, f.example, e.en));
                if !matches!(f.stored, Stored::Action) {
                    assert!(f.value_in(&sheet).is_some(), "{id}: {} is not read back", f.key);
                    let shown = describe_sheet(id, &sheet, Lang::En);
                    if shown == base_shown && f.value_in(&sheet) != f.value_in(&base) {
                        unshown.push(format!("{id}: `{}={}`", f.key, f.example));
                    }
                }
                let file = export(id, "Ana", &sheet);
                let back =
                    import(&file, Some(id)).unwrap_or_else(|e| panic!("{id}: {}: {}\n{file}", f.key, e.en));
                assert_eq!(back.sheet, sheet, "{id}: {} does not round-trip:\n{file}", f.key);
                checked += 1;
            }
            if let Some(w) = &decl.weapons {
                let mut fields = base_fields.clone();
                fields.push((format!("{}{}", w.prefixes[0], w.max), w.example.to_string()));
                let sheet = r
                    .edit_sheet(&empty, &fields, true)
                    .unwrap_or_else(|e| panic!("{id}: the weapon example is refused: {}", e.en));
                assert!(!(w.stored)(&sheet).is_empty(), "{id}: weapons are not read back");
                assert_eq!(
                    import(&export(id, "Ana", &sheet), Some(id)).unwrap().sheet,
                    sheet,
                    "{id}"
                );
                for lang in [Lang::En, Lang::Ja] {
                    assert!(
                        decl.weapon_help(lang).is_some_and(|h| h.contains(w.example)),
                        "{id}"
                    );
                }
            }
            if let Some(free) = &decl.free {
                let mut fields = base_fields.clone();
                fields.extend(parse_fields(free.example).unwrap());
                let sheet = r.edit_sheet(&empty, &fields, true).unwrap();
                assert!(
                    !(free.stored)(&sheet).is_empty(),
                    "{id}: free names are not read back"
                );
            }
            for lang in [Lang::En, Lang::Ja] {
                assert_eq!(
                    decl.help_lines(lang).len(),
                    decl.fields.len() + usize::from(decl.free.is_some())
                );
                let offered = decl.choices("", lang);
                assert!(offered.len() <= 25, "{id}");
                assert_eq!(offered[0].1, decl.example, "{id}");
            }
        }
        assert!(unshown.is_empty(), "not shown on /char show: {unshown:?}");
        assert!(checked > 100, "{checked}");
    }

    /// Issue 30: `/char show`'s field rows come from the declaration. For every system, every
    /// declared field set to its example and shown (not unset, a flag off or a quiet 0) has its
    /// row under its label, or its `label value` part in its group's row, in both languages.
    #[test]
    fn every_declared_field_with_a_value_shows_under_its_label_in_both_languages() {
        use crate::systems::sheet::{describe_sheet, parse_fields};
        let empty = json!({});
        let mut checked = 0;
        for id in SystemId::ALL {
            let r = rules(id);
            let decl = r.sheet_decl();
            let base_fields = parse_fields(decl.example).unwrap();
            for f in decl.fields {
                let mut fields = base_fields.clone();
                fields.retain(|(k, _)| decl.field(k).is_none_or(|o| o.key != f.key));
                fields.extend(parse_fields(&format!("{}={}", f.key, f.example)).unwrap());
                let sheet = r.edit_sheet(&empty, &fields, true).unwrap();
                // Every field the sheet then has a value for, not only the one just set.
                for g in decl.fields.iter().filter(|g| g.shown_in(&sheet).is_some()) {
                    for lang in [Lang::En, Lang::Ja] {
                        let rows = describe_sheet(id, &sheet, lang);
                        let label = g.label(lang);
                        let found = match g.group {
                            None => rows.iter().any(|(k, v)| k == label && !v.is_empty()),
                            Some(group) => rows.iter().any(|(k, v)| {
                                k == lang.pick(group.0, group.1)
                                    && v.split(" · ")
                                        .any(|p| p == label || p.starts_with(&format!("{label} ")))
                            }),
                        };
                        assert!(
                            found,
                            "{id}: `{}` ({lang:?}) not under `{label}`: {rows:?}",
                            g.key
                        );
                        checked += 1;
                    }
                }
                // The field set from its example is one of them, unless it is an action or
                // its example is the quiet default.
                if f.shown_in(&sheet).is_none() {
                    assert!(
                        matches!(f.stored, crate::systems::sheet_decl::Stored::Action)
                            || matches!(f.kind, crate::systems::sheet_decl::Kind::YesNo)
                            || f.quiet,
                        "{id}: `{}={}` has no value to show",
                        f.key,
                        f.example
                    );
                }
            }
        }
        assert!(checked > 1000, "{checked}");
    }

    #[test]
    fn unknown_systems_are_refused_with_the_input_cut() {
        let err = "d&d".parse::<SystemId>().unwrap_err();
        assert_eq!(err.input, "d&d");
        assert!(err.localized(Lang::Ja).contains("d&d"));
        assert_eq!(
            "z".repeat(500)
                .parse::<SystemId>()
                .unwrap_err()
                .input
                .chars()
                .count(),
            40
        );
    }

    /// Issue 36: the sheet option's examples in both languages are sheets the parser takes:
    /// `add` makes a new sheet, `edit` changes it, and the Japanese `add` writes the same
    /// fields as the English one (values typed in Japanese, a side's name, may differ).
    #[test]
    fn every_sheet_options_examples_are_read() {
        use crate::systems::sheet::parse_fields;
        for id in SystemId::ALL {
            let r = rules(id);
            let o = r.sheet_decl().option;
            assert!(
                !o.ja.is_empty() && o.ja.chars().all(|c| !c.is_ascii()),
                "{id}: {}",
                o.ja
            );
            let mut sheets = Vec::new();
            for (add, edit) in [(o.add.0, o.edit.0), (o.add.1, o.edit.1)] {
                let fields = parse_fields(add).unwrap_or_else(|e| panic!("{id}: {add}: {e:?}"));
                let sheet = r
                    .edit_sheet(&json!({}), &fields, true)
                    .unwrap_or_else(|e| panic!("{id}: `{add}`: {}", e.en));
                let edited = r
                    .edit_sheet(&sheet, &parse_fields(edit).unwrap(), false)
                    .unwrap_or_else(|e| panic!("{id}: `{edit}`: {}", e.en));
                assert_ne!(edited, sheet, "{id}: `{edit}` changes nothing");
                let mut sheet = sheet;
                // Texts typed in Japanese: the free-form names, Terminator's side.
                if let Some(m) = sheet.as_object_mut() {
                    m.remove("side");
                }
                sheets.push(sheet);
            }
            if id != SystemId::Generic {
                assert_eq!(sheets[0], sheets[1], "{id}: the examples write different sheets");
            }
        }
    }
}
