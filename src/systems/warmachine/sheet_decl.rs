//! The Warmachine model's sheet, declared once (see [`crate::systems::sheet_decl`]): each field
//! with its names, range, need and help, and the weapon grammar. `sheet.rs` applies them; help,
//! autocomplete, the sheet file and the conformance test read them here. Warmachine has no GM
//! (item 20): no field is GM-only.

use serde_json::Value;

use super::model::{AttackKind, MAX_BOXES, MAX_STAT, MAX_WEAPONS, Model};
use crate::systems::sheet_decl::{Field, Group, Kind, SheetDecl, SheetOption, Weapons};

const STAT: Kind = Kind::Int {
    min: 0,
    max: MAX_STAT as i64,
};

/// `/char show`'s shared rows.
const STATS: Group = ("Stats", "能力値");
const DAMAGE: Group = ("Damage", "ダメージ");

pub static DECL: SheetDecl = SheetDecl {
    example: "def=12 arm=18 boxes=30",
    option: SheetOption {
        ja: "ステータス",
        add: (
            "mat=6 def=12 arm=18 boxes=30",
            "近接=6 防御=12 装甲=18 ダメージボックス=30",
        ),
        edit: ("damage=4", "ダメージ=4"),
    },
    fields: &[
        // Issue 29: a member (`@ana`, a mention); left out, the entry's owner controls it, so
        // what autocomplete offers is never refused for a name that is no member.
        Field::new("controller", "コントローラー", Kind::Text { max: 60 }, "@ana")
            .names(&["player", "プレイヤー"])
            .at("/controller")
            .help(
                "the player who controls it, a member (@ana); default: the entry's owner",
                "コントロールするプレイヤー（メンバー、@ana）。既定は登録者",
            ),
        Field::new("mat", "近接", STAT, "6")
            .names(&["近接攻撃"])
            .at("/mat")
            .group(STATS)
            .help("melee attack", "近接攻撃"),
        Field::new("rat", "射撃", STAT, "4")
            .names(&["射撃攻撃"])
            .at("/rat")
            .group(STATS)
            .help("ranged attack", "射撃攻撃"),
        Field::new("def", "防御", STAT, "12")
            .names(&["防御値"])
            .at("/def")
            .group(STATS)
            .required()
            .help("defence", "防御"),
        Field::new("arm", "装甲", STAT, "18")
            .at("/arm")
            .group(STATS)
            .required()
            .help("armour", "装甲"),
        Field::new("cmd", "指揮", STAT, "8")
            .at("/cmd")
            .group(STATS)
            .help("command", "指揮"),
        Field::new("spd", "速度", STAT, "5")
            .at("/spd")
            .group(STATS)
            .help("speed", "速度"),
        Field::new(
            "boxes",
            "ダメージボックス",
            Kind::Int {
                min: 1,
                max: MAX_BOXES as i64,
            },
            "30",
        )
        .names(&["damage_boxes", "ボックス"])
        .at("/boxes")
        .group(DAMAGE)
        .required()
        .help("damage boxes", "ダメージボックス"),
        Field::new(
            "damage",
            "ダメージ",
            Kind::Int {
                min: 0,
                max: MAX_BOXES as i64,
            },
            "4",
        )
        .names(&["marked"])
        .at("/marked")
        .group(DAMAGE)
        .board()
        .help(
            "boxes marked, at most its boxes",
            "記入済みボックス（ボックス数まで）",
        ),
        Field::new("name", "名前", Kind::Text { max: 60 }, "Juggernaut").at("/name"),
        Field::new(
            "cannot",
            "できない",
            Kind::Other {
                en: "flags, comma separated",
                ja: "フラグ（カンマ区切り）",
            },
            "\"knockdown, stand_up\"",
        )
        .with(cannot_typed)
        .help(
            "the model's own cannot-flags; empty clears",
            "モデル固有の「できない」フラグ。空で解除",
        ),
        Field::new(
            "auto_hit_miss",
            "自動命中",
            Kind::Other {
                en: "on | off | default",
                ja: "on | off | default",
            },
            "off",
        )
        .with(auto_hit_miss_typed)
        .help(
            "the model's own rule: on, off, or the server's",
            "モデル固有のルール: on、off、またはサーバーの設定",
        ),
        Field::new(
            "status",
            "状態",
            Kind::Choice(&[
                &["ok", "健在"],
                &["disabled", "ディスエイブル"],
                &["destroyed", "デストロイ"],
            ]),
            "destroyed",
        )
        .at("/status")
        .group(DAMAGE)
        .quiet()
        .board(),
        Field::new("knocked_down", "ノックダウン", Kind::YesNo, "yes")
            .at("/knocked_down")
            .group(DAMAGE)
            .board()
            .help(
                "refused when a cannot-flag forbids it",
                "「できない」フラグがあれば不可",
            ),
        Field::new("cover", "カバー", Kind::YesNo, "yes")
            .names(&["in_cover"])
            .at("/cover")
            .group(DAMAGE)
            .board()
            .help(
                "in cover (refused when a cannot-flag forbids it)",
                "カバー中（「できない」フラグがあれば不可）",
            ),
        Field::new("reset", "リセット", Kind::YesNo, "yes").help(
            "no damage, no effects, standing, OK (a new game)",
            "ダメージ・効果なし、起立、健在（新しいゲーム）",
        ),
    ],
    weapons: Some(Weapons {
        max: MAX_WEAPONS,
        prefixes: &["weapon", "w", "武器"],
        grammar: ("NAME POW melee|ranged", "名前 POW 近接|射撃"),
        slots: (
            "Slots 1–8 (`weapon` alone is slot 1); an empty value removes the weapon.",
            "スロットは1〜8（`weapon` だけなら1）。空の値で削除。",
        ),
        example: "Battle Blade 14 melee",
        stored: weapons_typed,
    }),
    free: None,
};

fn model(sheet: &Value) -> Option<Model> {
    serde::Deserialize::deserialize(sheet).ok()
}

fn cannot_typed(sheet: &Value) -> Option<String> {
    let flags = sheet.get("cannot")?.as_array()?;
    let names: Vec<&str> = flags.iter().filter_map(Value::as_str).collect();
    (!names.is_empty()).then(|| names.join(", "))
}

fn auto_hit_miss_typed(sheet: &Value) -> Option<String> {
    let on = sheet.get("auto_hit_miss")?.as_bool()?;
    Some(if on { "on" } else { "off" }.to_string())
}

fn weapons_typed(sheet: &Value) -> Vec<String> {
    model(sheet)
        .map(|m| {
            m.weapons
                .iter()
                .map(|w| {
                    let kind = match w.kind {
                        AttackKind::Melee => "melee",
                        AttackKind::Ranged => "ranged",
                    };
                    format!("{} {} {kind}", w.name, w.pow)
                })
                .collect()
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::super::sheet::edit;
    use crate::systems::SystemId;
    use crate::systems::sheet::parse_fields;
    use crate::systems::sheet_file;

    const JUGG: &str =
        r#"controller=Ana def=12 arm=18 boxes=30 mat=6 w1="Battle Blade 14 melee" w2="Ice Cannon 12 ranged""#;

    /// Issue 30: `cover=yes` was an unknown field; the model's cover is now a field, in both
    /// languages, and still refused where a cannot-flag forbids it.
    #[test]
    fn cover_yes_puts_the_model_in_cover() {
        let m = edit(&json!({}), &parse_fields(&format!("{JUGG} cover=yes")).unwrap()).unwrap();
        assert_eq!(m["cover"], true);
        let m = edit(&m, &parse_fields("カバー=no").unwrap()).unwrap();
        assert_eq!(m["cover"], false);
        let e = edit(&m, &parse_fields("cannot=cover cover=yes").unwrap()).unwrap_err();
        assert!(!e.en.is_empty() && !e.ja.is_empty());
        let e = edit(&m, &parse_fields("cover=maybe").unwrap()).unwrap_err();
        assert!(e.en.contains("yes or no"), "{}", e.en);
    }

    #[test]
    fn a_model_round_trips_through_its_file() {
        let m = edit(
            &json!({}),
            &parse_fields(&format!(
                "{JUGG} damage=4 cannot=\"knockdown, fly\" auto_hit_miss=off cover=yes"
            ))
            .unwrap(),
        )
        .unwrap();
        let text = sheet_file::export(SystemId::Warmachine, "Juggernaut", &m);
        assert!(!text.contains("state ="), "{text}");
        assert!(
            text.contains("weapon2 = Ice Cannon 12 ranged\n") && text.contains("cannot = knockdown, fly\n")
        );
        assert_eq!(sheet_file::import(&text, None).unwrap().sheet, m);
    }
}
