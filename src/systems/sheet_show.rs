//! `/char show`'s field rows and the field part of the `/session status` board line, derived
//! from a system's [`SheetDecl`]: one row per declared field that has a value (or one row per
//! group of fields), labelled with [`Field::label`], in declaration order; the board takes the
//! fields declared `board`. What is state rather than a field (condition monitors' boxes,
//! weapons by slot, totals, effects) stays each system's own rows; a system may also dress a
//! field's value (`3` → `■■■□□□□□□□ 3/10`) without changing its row or its label.

use serde_json::Value;

use super::sheet_decl::{Field, Kind, SheetDecl};
use crate::i18n::Lang;

/// A system's way to show a field's value (given as typed) richer than the plain value; `None`
/// leaves the plain one.
pub type Dress<'a> = &'a dyn Fn(&Field, &str) -> Option<String>;

/// The plain values.
pub fn plain(_: &Field, _: &str) -> Option<String> {
    None
}

impl Field {
    /// The value `/char show` shows, as typed: `None` when unset, empty, a flag that is off,
    /// or a quiet field's default (0, or a choice's first word).
    pub fn shown_in(&self, sheet: &Value) -> Option<String> {
        let v = self.value_in(sheet)?;
        let default = match self.kind {
            Kind::Choice(c) => c.first().map_or("0", |w| w[0]),
            _ => "0",
        };
        let off =
            v.is_empty() || (matches!(self.kind, Kind::YesNo) && v == "no") || (self.quiet && v == default);
        (!off).then_some(v)
    }

    /// A value as typed, in `lang`: yes/no and choices in its words (a choice's Japanese word
    /// is its last spelling).
    pub fn value_text(&self, typed: &str, lang: Lang) -> String {
        match self.kind {
            Kind::YesNo => match typed {
                "yes" => lang.pick("yes", "はい").to_string(),
                "no" => lang.pick("no", "いいえ").to_string(),
                other => other.to_string(),
            },
            Kind::Choice(choices) => choices.iter().find(|w| w[0] == typed).map_or_else(
                || typed.to_string(),
                |w| lang.pick(w[0], w[w.len() - 1]).to_string(),
            ),
            _ => typed.to_string(),
        }
    }

    /// `label value`, or the label alone for a flag that is on (`destroyed`).
    fn part(&self, typed: &str, lang: Lang, dress: Dress) -> String {
        let value = dress(self, typed).unwrap_or_else(|| self.value_text(typed, lang));
        match self.kind {
            Kind::YesNo if dress(self, typed).is_none() => self.label(lang).to_string(),
            _ => format!("{} {value}", self.label(lang)),
        }
    }
}

impl SheetDecl {
    /// `/char show`'s field rows: a field with a value has its own row under its label, or a
    /// part (`label value`) of its group's row, placed where the group's first field is.
    pub fn rows(&self, sheet: &Value, lang: Lang, dress: Dress) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = Vec::new();
        let mut groups: Vec<(&str, usize)> = Vec::new();
        for f in self.fields {
            let Some(typed) = f.shown_in(sheet) else {
                continue;
            };
            match f.group {
                None => out.push((
                    f.label(lang).to_string(),
                    dress(f, &typed).unwrap_or_else(|| f.value_text(&typed, lang)),
                )),
                Some(g) => {
                    let part = f.part(&typed, lang, dress);
                    match groups.iter().find(|(en, _)| *en == g.0) {
                        Some((_, i)) => {
                            out[*i].1.push_str(" · ");
                            out[*i].1.push_str(&part);
                        }
                        None => {
                            groups.push((g.0, out.len()));
                            out.push((lang.pick(g.0, g.1).to_string(), part));
                        }
                    }
                }
            }
        }
        out
    }

    /// The board line's field part: each `board` field with a value as `label value`, a flag
    /// that is on as its bold label.
    pub fn board_parts(&self, sheet: &Value, lang: Lang, dress: Dress) -> Vec<String> {
        self.fields
            .iter()
            .filter(|f| f.board)
            .filter_map(|f| {
                let typed = f.shown_in(sheet)?;
                Some(match (f.kind, dress(f, &typed)) {
                    (Kind::YesNo, None) => format!("**{}**", f.label(lang)),
                    _ => f.part(&typed, lang, dress),
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::systems::sheet_decl::{Field, Kind, SheetOption};

    const STATS: (&str, &str) = ("Stats", "能力値");

    static DECL: SheetDecl = SheetDecl {
        example: "a=1",
        option: SheetOption::NEUTRAL,
        fields: &[
            Field::new("name", "名前", Kind::Text { max: 10 }, "x").at("/name"),
            Field::new("body", "体", Kind::Int { min: 0, max: 9 }, "3")
                .at("/body")
                .group(STATS)
                .board(),
            Field::new("magic", "魔力", Kind::Int { min: 0, max: 9 }, "3")
                .at("/magic")
                .group(STATS)
                .quiet(),
            Field::new("down", "転倒", Kind::YesNo, "yes").at("/down").board(),
            Field::new(
                "mood",
                "気分",
                Kind::Choice(&[&["calm", "平静"], &["angry", "怒り"]]),
                "calm",
            )
            .at("/mood")
            .group(STATS),
            Field::new("reset", "リセット", Kind::YesNo, "yes"),
        ],
        weapons: None,
        free: None,
    };

    #[test]
    fn fields_with_values_show_in_their_rows_and_groups_in_both_languages() {
        let sheet = json!({"name": "Ana", "body": 4, "magic": 0, "down": true, "mood": "angry"});
        assert_eq!(
            DECL.rows(&sheet, Lang::En, &plain),
            vec![
                ("name".to_string(), "Ana".to_string()),
                ("Stats".to_string(), "body 4 · mood angry".to_string()),
                ("down".to_string(), "yes".to_string()),
            ]
        );
        assert_eq!(
            DECL.rows(&sheet, Lang::Ja, &plain),
            vec![
                ("名前".to_string(), "Ana".to_string()),
                ("能力値".to_string(), "体 4 · 気分 怒り".to_string()),
                ("転倒".to_string(), "はい".to_string()),
            ]
        );
        // A quiet field's 0 and an off flag are not shown; a set one is.
        let sheet = json!({"body": 2, "magic": 5, "down": false});
        assert_eq!(
            DECL.rows(&sheet, Lang::En, &plain),
            vec![("Stats".to_string(), "body 2 · magic 5".to_string())]
        );
        assert_eq!(DECL.board_parts(&sheet, Lang::En, &plain), vec!["body 2"]);
    }

    /// The one assignment: checked against the declaration, written at the field's pointer
    /// (its objects made on the way); a field of the system's own grammar is left to it.
    #[test]
    fn assign_checks_and_writes_at_the_pointer_and_leaves_other_grammars() {
        static NESTED: SheetDecl = SheetDecl {
            example: "",
            option: SheetOption::NEUTRAL,
            fields: &[
                Field::new("hp", "HP", Kind::Int { min: 0, max: 9 }, "3").at("/suit/hp"),
                Field::new(
                    "mood",
                    "気分",
                    Kind::Choice(&[&["calm", "平静"], &["angry", "怒り"]]),
                    "calm",
                )
                .at("/mood"),
                Field::new("down", "転倒", Kind::YesNo, "yes").at("/down"),
                Field::new("armour", "装甲", Kind::Other { en: "b/i", ja: "b/i" }, "6/4").at("/armour"),
            ],
            weapons: None,
            free: None,
        };
        let mut doc = json!({"name": "Ana"});
        for (k, v) in [("hp", "7"), ("気分", "怒り"), ("down", "はい")] {
            let f = NESTED.field(k).unwrap();
            assert!(NESTED.assign(f, k, v, &mut doc).unwrap(), "{k}");
        }
        assert_eq!(
            doc,
            json!({"name": "Ana", "suit": {"hp": 7}, "mood": "angry", "down": true})
        );
        let e = NESTED.assign(NESTED.get("hp"), "HP", "10", &mut doc).unwrap_err();
        assert!(e.en.contains("between 0 and 9") && e.ja.contains("0〜9"), "{e:?}");
        assert!(
            !NESTED
                .assign(NESTED.get("armour"), "armour", "6/4", &mut doc)
                .unwrap()
        );
        assert_eq!(doc["suit"]["hp"], 7, "a refusal writes nothing");
        assert!(doc.get("armour").is_none());
    }

    #[test]
    fn the_board_takes_its_fields_and_a_system_dresses_values() {
        let sheet = json!({"body": 3, "magic": 1, "down": true});
        let dress = |f: &Field, v: &str| (f.key == "body").then(|| format!("{v}/9"));
        assert_eq!(
            DECL.board_parts(&sheet, Lang::Ja, &dress),
            vec!["体 3/9", "**転倒**"]
        );
        assert_eq!(
            DECL.rows(&sheet, Lang::En, &dress)[0],
            ("Stats".to_string(), "body 3/9 · magic 1".to_string())
        );
    }
}
