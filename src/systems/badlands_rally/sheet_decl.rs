//! The Badlands Rally gear's sheet, declared once (see [`crate::systems::sheet_decl`]): each
//! field with its names, range and help, and the weapon grammar. `sheet.rs` applies them;
//! help, autocomplete, the sheet file and the conformance test read them here.

use serde_json::Value;

use super::gear::{Gear, MAX_STAT, WeaponTrait};
use crate::systems::sheet_decl::{Field, Group, Kind, SheetDecl, SheetOption, Weapons};

/// Most weapons one gear carries.
pub const MAX_WEAPONS: usize = 6;

/// `/char show`'s shared rows.
const RATINGS: Group = ("Ratings", "能力値");
const MR_AR: Group = ("MR · AR", "MR · AR");
const HITS: Group = ("Hull/Structure", "ハル/ストラクチャー");
const RATING: Kind = Kind::Other {
    en: "rating 2–6 (`4` or `4+`)",
    ja: "2〜6（`4` または `4+`）",
};
const STAT: Kind = Kind::Int {
    min: 0,
    max: MAX_STAT as i64,
};

pub static DECL: SheetDecl = SheetDecl {
    example: "model=jerboa attack=4+ defence=4+ initiative=4+ mr=14 hits=2/1 ar=5",
    option: SheetOption {
        ja: "ギアデータ",
        add: (
            "attack=4+ defence=3+ initiative=4+ mr=14 hull=2 structure=1 ar=5",
            "攻撃=4+ 防御=3+ イニシアチブ=4+ 移動力=14 ハル=2 ストラクチャー=1 アーマー=5",
        ),
        edit: ("hull=1", "ハル=1"),
    },
    fields: &[
        Field::new("model", "機種", Kind::Text { max: 64 }, "jerboa")
            .names(&["モデル"])
            .at("/sheet/model")
            .help(
                "a datacard key (fills in its stats, traits and weapons)",
                "データカードのキー（能力・特性・武器を埋める）",
            ),
        Field::new("name", "名前", Kind::Text { max: 64 }, "\"Red Hopper\"")
            .at("/sheet/name")
            .help("display name (default: the model's)", "表示名（既定: 機種名）"),
        Field::new("attack", "攻撃", RATING, "4+")
            .names(&["att", "atk", "攻撃値"])
            .at("/sheet/attack")
            .group(RATINGS)
            .required(),
        Field::new("defence", "防御", RATING, "3+")
            .names(&["defense", "def", "防御値"])
            .at("/sheet/defence")
            .group(RATINGS)
            .required(),
        Field::new("initiative", "イニシアチブ", RATING, "4+")
            .names(&["init", "ini"])
            .at("/sheet/initiative")
            .group(RATINGS)
            .required(),
        Field::new("mr", "移動力", STAT, "16")
            .names(&["ｍｒ"])
            .at("/sheet/mr")
            .group(MR_AR)
            .required()
            .help("movement rating", "移動力"),
        Field::new("hull", "ハル", STAT, "2")
            .at("/sheet/hull")
            .group(HITS)
            .board()
            .required(),
        Field::new("structure", "ストラクチャー", STAT, "1")
            .names(&["str", "構造"])
            .at("/sheet/structure")
            .group(HITS)
            .board()
            .required(),
        Field::new(
            "hits",
            "ヒット",
            Kind::Other {
                en: "Hull/Structure",
                ja: "ハル/ストラクチャー",
            },
            "2/1",
        )
        .names(&["損傷"])
        .help("Hull and Structure at once", "ハルとストラクチャーを一度に"),
        Field::new("ar", "アーマー", STAT, "5")
            .names(&["armor", "armour", "アーマー値", "装甲"])
            .at("/sheet/ar")
            .group(MR_AR)
            .required(),
        Field::new(
            "traits",
            "特性",
            Kind::Other {
                en: "traits, comma separated",
                ja: "特性（カンマ区切り）",
            },
            "\"brawler, reliable\"",
        )
        .names(&["trait"])
        .help("extra traits beside the model's", "機種の特性に加える特性"),
        Field::new(
            "upgrades",
            "アップグレード",
            Kind::Other {
                en: "the_move, speed_demon, coiled_hydraulic_enhancer, sponsorship_paint, wacker, twins:N",
                ja: "the_move, speed_demon, coiled_hydraulic_enhancer, sponsorship_paint, wacker, twins:N",
            },
            "speed_demon",
        )
        .names(&["upgrade"]),
        Field::new("reset", "リセット", Kind::YesNo, "yes").help(
            "back to full hits, no rattles (a new race)",
            "ヒット全快・ラトルなし（新しいレース）",
        ),
    ],
    weapons: Some(Weapons {
        max: MAX_WEAPONS,
        prefixes: &["weapon", "w", "武器"],
        grammar: (
            "NAME POW RANGE [traits] [rating]: RANGE is `3-6/12` (optimal/max) or `R` alone for `1-R/R`; traits melee, heat, blast, impact, area, burst:X; `3+` gives the weapon its own attack rating.",
            "名前 POW 射程 [特性] [攻撃値]: 射程は `3-6/12`（最適/最大）、`R` だけなら `1-R/R`。特性 melee, heat, blast, impact, area, burst:X。`3+` で武器固有の攻撃値。",
        ),
        slots: (
            "Slots 1–6 (`weapon` alone is slot 1); a model fills them first; an empty value removes the weapon (twins stay on theirs).",
            "スロットは1〜6（`weapon` だけなら1）。機種が先に埋めます。空の値で削除（twins はその武器に残ります）。",
        ),
        example: "Rifle 6 3-6/12 burst:1",
        stored: weapons_typed,
    }),
    free: None,
};

fn weapons_typed(sheet: &Value) -> Vec<String> {
    let Ok(g) = <Gear as serde::Deserialize>::deserialize(sheet) else {
        return Vec::new();
    };
    g.sheet
        .weapons
        .iter()
        .map(|w| {
            let mut s = format!(
                "{} {} {}-{}/{}",
                w.name, w.pow, w.range.optimal_min, w.range.optimal_max, w.range.max
            );
            for t in &w.traits {
                s.push(' ');
                s.push_str(&match t {
                    WeaponTrait::AreaEffect => "area".to_string(),
                    WeaponTrait::Burst(x) => format!("burst:{x}"),
                    WeaponTrait::Blast => "blast".to_string(),
                    WeaponTrait::Heat => "heat".to_string(),
                    WeaponTrait::Impact => "impact".to_string(),
                    WeaponTrait::Melee => "melee".to_string(),
                });
            }
            if let Some(r) = w.attack {
                s.push_str(&format!(" {}+", r.value()));
            }
            s
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::super::sheet::edit;
    use crate::systems::SystemId;
    use crate::systems::sheet::parse_fields;
    use crate::systems::sheet_file;

    #[test]
    fn a_gear_round_trips_through_its_file() {
        let g = edit(
            &json!({}),
            &parse_fields(r#"model=jerboa attack=4+ defence=4+ initiative=4+ mr=14 hits=2/1 ar=5 name="Red Hopper" traits="brawler" w2="Rifle 6 3-6/12 burst:1 3+""#).unwrap(),
        )
        .unwrap();
        let text = sheet_file::export(SystemId::BadlandsRally, "Red Hopper", &g);
        assert!(text.contains("model = jerboa\n"), "{text}");
        assert_eq!(
            sheet_file::import(&text, Some(SystemId::BadlandsRally))
                .unwrap()
                .sheet,
            g
        );
    }

    #[test]
    fn plain_fields_go_through_the_declarations_one_assignment() {
        use super::MAX_STAT;
        let base = "attack=4+ defence=4+ initiative=4+";
        let bad = |line: &str| edit(&json!({}), &parse_fields(line).unwrap()).unwrap_err();
        // Out of range under a Japanese name: the shared path's error in both languages.
        let over = MAX_STAT + 1;
        let e = bad(&format!("{base} mr=14 hits=2/1 アーマー={over}"));
        assert_eq!(
            e.en,
            format!("`アーマー` must be between 0 and {MAX_STAT}, not {over}.")
        );
        assert_eq!(
            e.ja,
            format!("`アーマー` は0〜{MAX_STAT}の範囲で指定してください（{over}は使えません）。")
        );
        // `hits` writes each half through its own field's check, named as typed.
        let e = bad(&format!("{base} mr=14 ar=5 hits=2/{over}"));
        assert!(e.en.starts_with("`hits` must be between 0 and"), "{}", e.en);
        // The name's length is the declared one, with the shared error.
        let e = bad(&format!("{base} mr=14 ar=5 hits=2/1 name={}", "x".repeat(65)));
        assert_eq!(
            (e.en.as_str(), e.ja.as_str()),
            ("`name` is at most 64 characters.", "`name` は64文字までです。")
        );
        // In range: each value lands at its pointer; a model is kept as its card's key.
        let g = edit(
            &json!({}),
            &parse_fields(&format!("{base} 移動力=16 ar=5 hits=3/2 model=JERBOA name=Hop")).unwrap(),
        )
        .unwrap();
        for (at, want) in [
            ("/sheet/mr", json!(16)),
            ("/sheet/hull", json!(3)),
            ("/sheet/structure", json!(2)),
            ("/sheet/ar", json!(5)),
            ("/sheet/model", json!("jerboa")),
            ("/sheet/name", json!("Hop")),
        ] {
            assert_eq!(g.pointer(at), Some(&want), "{at}");
        }
        // An empty name goes back to the model's.
        let g = edit(&g, &parse_fields(r#"name="""#).unwrap()).unwrap();
        assert_eq!(g.pointer("/sheet/name"), Some(&json!("Rally Jerboa")));
    }
}
