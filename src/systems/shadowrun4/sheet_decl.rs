//! The Shadowrun 4 character's sheet, declared once (see [`crate::systems::sheet_decl`]): the
//! attributes and fields with their names (English abbreviations and the seed's Japanese),
//! ranges, who sets them and help; any other name is a skill. `sheet.rs` applies them; help,
//! autocomplete, the GM-only check, the sheet file and the conformance test read them here.

use serde_json::Value;

use super::character::{MAX_ATTRIBUTE, MAX_INITIATIVE};
use super::dice::MAX_EDGE;
use crate::systems::sheet_decl::{Field, Free, Group, Kind, SheetDecl, SheetOption};

const ATTR: Kind = Kind::Int {
    min: 0,
    max: MAX_ATTRIBUTE as i64,
};
const EDGE: Kind = Kind::Int {
    min: 0,
    max: MAX_EDGE as i64,
};
/// `/char show`'s shared rows.
const ATTRIBUTES: Group = ("Attributes", "能力値");
const EDGE_ROW: Group = ("Edge", "エッジ");
const INITIATIVE: Group = ("Initiative", "イニシアティブ");
const BOXES: Kind = Kind::Int { min: 0, max: 100 };

pub static DECL: SheetDecl = SheetDecl {
    example: "body=3 agility=4 reaction=3 strength=3 charisma=2 intuition=4 logic=3 willpower=4 edge=3 pistols=4",
    option: SheetOption {
        ja: "能力値",
        add: (
            "body=3 agility=4 edge=3 pistols=4",
            "強靭力=3 敏捷力=4 エッジ=3 ピストル=4",
        ),
        edit: ("edge=2 armour=8", "エッジ=2 装甲=8"),
    },
    fields: &[
        Field::new("body", "強靭力", ATTR, "3")
            .names(&["bod"])
            .at("/attributes/body")
            .group(ATTRIBUTES),
        Field::new("agility", "敏捷力", ATTR, "4")
            .names(&["agi"])
            .at("/attributes/agility")
            .group(ATTRIBUTES),
        Field::new("reaction", "反応力", ATTR, "3")
            .names(&["rea"])
            .at("/attributes/reaction")
            .group(ATTRIBUTES),
        Field::new("strength", "筋力", ATTR, "3")
            .names(&["str"])
            .at("/attributes/strength")
            .group(ATTRIBUTES),
        Field::new("charisma", "魅力", ATTR, "2")
            .names(&["cha"])
            .at("/attributes/charisma")
            .group(ATTRIBUTES),
        // The seed writes both 直観力 (3.3) and 直感力 (4.4).
        Field::new("intuition", "直観力", ATTR, "4")
            .names(&["int", "直感力"])
            .at("/attributes/intuition")
            .group(ATTRIBUTES),
        Field::new("logic", "論理力", ATTR, "3")
            .names(&["log"])
            .at("/attributes/logic")
            .group(ATTRIBUTES),
        Field::new("willpower", "意志力", ATTR, "4")
            .names(&["wil"])
            .at("/attributes/willpower")
            .group(ATTRIBUTES),
        Field::new("edge", "エッジ", EDGE, "3")
            .names(&["edg"])
            .at("/attributes/edge")
            .group(EDGE_ROW)
            .help(
                "the Edge attribute; points follow it when they were full",
                "エッジ能力値（満タンならポイントも追従）",
            ),
        Field::new("magic", "魔力", ATTR, "5")
            .names(&["mag"])
            .at("/attributes/magic")
            .group(ATTRIBUTES)
            .quiet(),
        Field::new("resonance", "共振力", ATTR, "4")
            .names(&["res"])
            .at("/attributes/resonance")
            .group(ATTRIBUTES)
            .quiet(),
        Field::new(
            "initiative",
            "イニシアティブ",
            Kind::Int {
                min: 0,
                max: MAX_INITIATIVE as i64,
            },
            "9",
        )
        .names(&["ini", "init"])
        .at("/attributes/initiative")
        .group(INITIATIVE)
        .help(
            "when it differs from Reaction + Intuition; empty: the sum",
            "反応力＋直観力と違うとき。空で合計に戻す",
        ),
        Field::new("edge_points", "エッジポイント", EDGE, "2")
            .names(&["edge_left", "残りエッジ"])
            .at("/edge_points")
            .gm()
            .group(EDGE_ROW)
            .board()
            .help("Edge points left, 0–Edge", "残りエッジポイント（0〜エッジ）"),
        Field::new("edge_burnt", "燃焼エッジ", EDGE, "1")
            .at("/edge_burnt")
            .gm()
            .group(EDGE_ROW)
            .quiet(),
        Field::new("passes", "パス", Kind::Int { min: 1, max: 4 }, "2")
            .names(&["ip", "イニシアティブ・パス", "イニシアチブパス"])
            .at("/passes")
            .group(INITIATIVE),
        Field::new(
            "armour",
            "装甲",
            Kind::Other {
                en: "ballistic/impact",
                ja: "対弾/対衝撃",
            },
            "6/4",
        )
        .names(&["armor", "装甲値", "アーマー"])
        .with(armour_typed)
        .help("or one number for both", "1つの数なら両方"),
        Field::new("ballistic", "対弾装甲", ATTR, "6").names(&["対弾装甲値"]),
        Field::new("impact", "対衝撃装甲", ATTR, "4").names(&["対衝撃装甲値", "衝撃装甲"]),
        Field::new("physical", "身体ダメージ", BOXES, "2")
            .names(&["physical_damage", "肉体ダメージ"])
            .at("/physical")
            .gm()
            .board()
            .help("boxes filled", "埋まったボックス"),
        Field::new("stun", "精神ダメージ", BOXES, "3")
            .names(&["stun_damage", "朦朧ダメージ"])
            .at("/stun")
            .gm()
            .board()
            .help("boxes filled", "埋まったボックス"),
        Field::new("sustained", "維持", Kind::Int { min: 0, max: 20 }, "1")
            .names(&["維持呪文"])
            .at("/sustained")
            .quiet()
            .help(
                "spells/threads sustained (−2 dice each)",
                "維持中の呪文・スレッド（1つにつき−2ダイス）",
            ),
        Field::new(
            "tradition",
            "伝統",
            Kind::Other {
                en: "hermetic | shaman | an attribute",
                ja: "hermetic | shaman | 能力値名",
            },
            "shaman",
        )
        .at("/tradition")
        .help(
            "drain: Willpower + Logic (hermetic) or + Charisma (shaman)",
            "ドレイン: 意志力＋論理力（hermetic）または＋魅力（shaman）",
        ),
        Field::new("refresh", "リフレッシュ", Kind::YesNo, "yes")
            .gm()
            .help("Edge points back to the Edge attribute", "エッジポイントを全快"),
    ],
    weapons: None,
    free: Some(Free {
        help: (
            "Any other name is a skill rating 0–30 (`0` removes it; Japanese skill names work).",
            "他の名前は技能値 0〜30（`0` で削除、日本語の技能名も可）。",
        ),
        example: "pistols=5 dodge=3",
        stored: skills_typed,
    }),
};

fn armour_typed(sheet: &Value) -> Option<String> {
    let a = sheet.get("armour")?;
    let (b, i) = (a.get("ballistic")?.as_u64()?, a.get("impact")?.as_u64()?);
    (b > 0 || i > 0).then(|| format!("{b}/{i}"))
}

fn skills_typed(sheet: &Value) -> Vec<(String, String)> {
    sheet
        .get("skills")
        .and_then(Value::as_object)
        .map(|m| m.iter().map(|(k, v)| (k.clone(), v.to_string())).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::super::sheet::edit;
    use crate::systems::SystemId;
    use crate::systems::sheet::parse_fields;
    use crate::systems::sheet_file;

    #[test]
    fn a_wounded_runner_round_trips_through_its_file() {
        let c = edit(
            &json!({}),
            &parse_fields("body=4 agility=5 reaction=4 intuition=3 willpower=3 logic=4 edge=3 pistols=5 回避=3 armour=6/4 tradition=shaman").unwrap(),
        )
        .unwrap();
        let c = edit(
            &c,
            &parse_fields("physical=3 edge_points=1 sustained=1 initiative=9").unwrap(),
        )
        .unwrap();
        let text = sheet_file::export(SystemId::Shadowrun4, "Ana", &c);
        assert!(
            text.contains("pistols = 5\n") && text.contains("armour = 6/4\n"),
            "{text}"
        );
        assert!(
            text.contains("edge_points = 1\n") && text.contains("physical = 3\n"),
            "{text}"
        );
        assert_eq!(
            sheet_file::import(&text, Some(SystemId::Shadowrun4))
                .unwrap()
                .sheet,
            c
        );
    }

    #[test]
    fn plain_fields_go_through_the_declarations_one_assignment() {
        let sheet = |line: &str| edit(&json!({}), &parse_fields(line).unwrap());
        // Out of range under a Japanese name: the shared path's error in both languages.
        let e = sheet("強靭力=31").unwrap_err();
        assert_eq!(e.en, "`強靭力` must be between 0 and 30, not 31.");
        assert_eq!(
            e.ja,
            "`強靭力` は0〜30の範囲で指定してください（31は使えません）。"
        );
        // The declared range is the check: passes are 1–4.
        let e = sheet("ip=0").unwrap_err();
        assert_eq!(e.en, "`ip` must be between 1 and 4, not 0.");
        // Edge points are still checked against the Edge rating, after the assignments.
        let e = sheet("edge_points=3 edge=2").unwrap_err();
        assert!(e.en.contains("Edge") && e.en != e.ja, "{e:?}");
        // In range: each value lands at its pointer, whatever name typed.
        let c = sheet("bod=4 エッジ=3 残りエッジ=2 ip=2 stun=3 sustained=1 initiative=9 armour=6/4").unwrap();
        for (at, want) in [
            ("/attributes/body", json!(4)),
            ("/attributes/edge", json!(3)),
            ("/edge_points", json!(2)),
            ("/passes", json!(2)),
            ("/stun", json!(3)),
            ("/sustained", json!(1)),
            ("/attributes/initiative", json!(9)),
            ("/armour/ballistic", json!(6)),
        ] {
            assert_eq!(c.pointer(at), Some(&want), "{at}");
        }
        // Empty: an attribute back to 0, Initiative back to the sum.
        let c = edit(&c, &parse_fields(r#"body="" initiative="""#).unwrap()).unwrap();
        assert_eq!(c.pointer("/attributes/body"), Some(&json!(0)));
        assert!(c.pointer("/attributes/initiative").is_none_or(|v| v.is_null()));
    }
}
