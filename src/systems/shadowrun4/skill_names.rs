//! Skill names in Japanese (issue 15: a sheet written in Japanese rolls the same skills): every
//! name here is stored and looked up under its English key, so `回避=3` is the `dodge` full
//! defence adds and `skill:ピストル` finds `pistols=5`. The seed names 回避, 体術 and 素手戦闘
//! (combat, 3.3–3.4), 呪文行使, 呪文対抗, 召喚, 霊視, コンピュータ, ソフトウェア (threading, 6.1),
//! コンパイル, 砲術 and 潜入, and the programs the commands read from a sheet: [侵入] (Exploit),
//! [分析] (Analyze), 戦闘用プログラム (Attack), 【センサー】; the rest follow the Japanese
//! edition's usual katakana and kanji. The first name is the one a Japanese reader is shown.

use crate::systems::field_names::{FieldNames, field_named};

/// `(key, Japanese names)`: the key is the one commands and sheets store.
pub const SKILLS: FieldNames = &[
    ("dodge", &["回避"]),
    ("gymnastics", &["体術"]),
    ("unarmed_combat", &["素手戦闘", "格闘"]),
    ("blades", &["刀剣", "ブレード"]),
    ("clubs", &["棍棒", "クラブ"]),
    ("pistols", &["ピストル", "拳銃"]),
    ("automatics", &["オートマチック", "自動火器"]),
    ("longarms", &["ロングアーム", "長銃"]),
    ("heavy_weapons", &["重火器"]),
    ("throwing_weapons", &["投擲武器", "投擲"]),
    ("archery", &["弓術"]),
    ("perception", &["知覚"]),
    ("infiltration", &["潜入", "隠密"]),
    ("spellcasting", &["呪文行使"]),
    ("counterspelling", &["呪文対抗"]),
    ("summoning", &["召喚"]),
    ("binding", &["束縛"]),
    ("banishing", &["退散"]),
    ("assensing", &["アセンシング", "霊視"]),
    ("astral_combat", &["アストラル戦闘"]),
    ("computer", &["コンピュータ", "コンピューター"]),
    ("hacking", &["ハッキング"]),
    ("cybercombat", &["サイバー戦闘"]),
    ("data_search", &["データ検索"]),
    ("electronic_warfare", &["電子戦"]),
    ("software", &["ソフトウェア"]),
    ("compiling", &["コンパイル"]),
    ("registering", &["レジスター", "登録"]),
    ("decompiling", &["デコンパイル"]),
    ("pilot_ground_craft", &["地上車両操縦"]),
    ("pilot_aircraft", &["航空機操縦"]),
    ("pilot_watercraft", &["船舶操縦"]),
    ("gunnery", &["砲術"]),
    ("first_aid", &["応急手当"]),
    ("etiquette", &["エチケット"]),
    ("negotiation", &["交渉"]),
    ("con", &["詐術"]),
    ("intimidation", &["威圧"]),
    ("leadership", &["指揮"]),
    ("running", &["走行"]),
    ("climbing", &["登攀"]),
    ("swimming", &["水泳"]),
    // Programs and ratings the matrix and sensor commands read from a sheet by name.
    ("exploit", &["侵入", "エクスプロイト"]),
    ("analyze", &["分析", "アナライズ"]),
    ("attack", &["戦闘用プログラム", "アタック"]),
    ("sensor", &["センサー"]),
    ("biofeedback_filter", &["生体信号フィルター"]),
];

/// The stored key of a skill typed by a player: lower case, spaces and hyphens as `_`, and a
/// Japanese name as its English key.
pub fn skill_key(name: &str) -> String {
    let key = name.trim().to_lowercase().replace([' ', '-', '・', '　'], "_");
    field_named(SKILLS, &key).map_or(key, str::to_string)
}

/// The Japanese name of a stored key, when the table has one.
pub fn japanese_name(key: &str) -> Option<&'static str> {
    SKILLS
        .iter()
        .find(|(en, _)| *en == key)
        .and_then(|(_, ja)| ja.first().copied())
}

/// A stored key as a reader of `lang` reads it: its Japanese name for a Japanese reader, when
/// the table has one (`dodge` → 回避); the key otherwise.
pub fn display_name(key: &str, lang: crate::i18n::Lang) -> &str {
    match lang {
        crate::i18n::Lang::Ja => japanese_name(key).unwrap_or(key),
        crate::i18n::Lang::En => key,
    }
}

/// Levenshtein distance in characters (a typo is one or two edits).
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != cb);
            cur[j + 1] = (prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// Edits a name of this many characters may be from the one meant: one, two from eight on.
pub fn typo_budget(chars: usize) -> usize {
    if chars >= 8 { 2 } else { 1 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn japanese_names_store_as_their_english_key() {
        assert_eq!(skill_key("回避"), "dodge");
        assert_eq!(skill_key(" 素手戦闘 "), "unarmed_combat");
        assert_eq!(skill_key("Heavy Weapons"), "heavy_weapons");
        assert_eq!(skill_key("heavy-weapons"), "heavy_weapons");
        assert_eq!(
            skill_key("underwater_basket_weaving"),
            "underwater_basket_weaving"
        );
        assert_eq!(japanese_name("dodge"), Some("回避"));
        assert_eq!(japanese_name("nope"), None);
    }

    /// Issue 36: the seed's names for the skills and programs the commands read by key —
    /// threading's ソフトウェア, hacking's [侵入], the matrix search's [分析] — store under it.
    #[test]
    fn the_seeds_skill_and_program_names_store_as_the_keys_the_commands_read() {
        for (typed, key) in [
            ("ソフトウェア", "software"),
            ("侵入", "exploit"),
            ("エクスプロイト", "exploit"),
            ("分析", "analyze"),
            ("戦闘用プログラム", "attack"),
            ("センサー", "sensor"),
            ("コンピュータ", "computer"),
            ("コンピューター", "computer"),
            ("レジスター", "registering"),
        ] {
            assert_eq!(skill_key(typed), key, "{typed}");
        }
        use crate::i18n::Lang;
        assert_eq!(display_name("pistols", Lang::Ja), "ピストル");
        assert_eq!(display_name("exploit", Lang::Ja), "侵入");
        assert_eq!(display_name("pistols", Lang::En), "pistols");
        assert_eq!(
            display_name("underwater_basket_weaving", Lang::Ja),
            "underwater_basket_weaving"
        );
    }

    #[test]
    fn typos_are_one_edit_or_two_in_long_names() {
        assert_eq!(edit_distance("pistls", "pistols"), 1);
        assert_eq!(edit_distance("pistols", "pistols"), 0);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(typo_budget(7), 1);
        assert_eq!(typo_budget(8), 2);
    }

    #[test]
    fn no_japanese_name_is_listed_twice() {
        let mut all: Vec<&str> = SKILLS.iter().flat_map(|(_, ja)| ja.iter().copied()).collect();
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n);
    }
}
