//! The Terminator Genisys character's sheet, declared once (see
//! [`crate::systems::sheet_decl`]): each field with its names, range, need and help, and the
//! weapon grammar. `sheet.rs` applies them; help, autocomplete, the GM-only check, the sheet
//! file and the conformance test read them here.

use serde_json::Value;

use super::character::Character;
use crate::systems::sheet_decl::{Field, Group, Kind, SheetDecl, SheetOption, Weapons};

pub const MAX_WEAPONS: usize = 8;

const DIE: Kind = Kind::Other {
    en: "d4 | d6 | d8 | d10 | d12 | d20",
    ja: "d4 | d6 | d8 | d10 | d12 | d20",
};
const SMALL: Kind = Kind::Int { min: 0, max: 10 };

/// `/char show`'s shared rows.
const STATS: Group = ("Stats", "能力値");
const FLAGS: Group = ("Flags", "フラグ");
const MARKERS: Group = ("Markers", "マーカー");

pub static DECL: SheetDecl = SheetDecl {
    example: "side=Resistance armour=4 skill=d8 damage_limit=3",
    option: SheetOption {
        ja: "ステータス",
        add: ("side=Resistance skill=d8 armour=4 damage_limit=3", "陣営=レジスタンス スキル=d8 アーマー=4 損傷限界値=3"),
        edit: ("command=2", "コマンド=2"),
    },
    fields: &[
        Field::new("side", "陣営", Kind::Text { max: 40 }, "Resistance")
            .names(&["player", "サイド", "プレイヤー"])
            .at("/side")
            .required()
            .help("the side it fights for", "味方する陣営"),
        Field::new("profile", "プロフィール", Kind::Text { max: 40 }, "Endoskeleton")
            .names(&["model", "プロファイル", "機種"])
            .help(
                "a §2 (or session) profile: its stats, specials and armament, applied before the other fields",
                "§2（またはセッション）のプロフィール: 能力・スペシャル・武装を先に適用",
            ),
        Field::new("skill", "スキル", DIE, "d8").at("/stats/skill").group(STATS),
        Field::new("armour", "アーマー", Kind::Int { min: 2, max: 20 }, "4")
            .names(&["armor"])
            .at("/stats/armour")
            .group(STATS)
            .help("`4+` reads as 4; required without a profile", "`4+` は4。プロフィールなしでは必須"),
        Field::new("resolution", "レゾリューション", DIE, "d6").at("/stats/resolution").group(STATS),
        Field::new("command", "コマンド", SMALL, "2")
            .at("/stats/command")
            .group(STATS)
            .quiet()
            .help("0: none", "0: なし"),
        Field::new("damage_limit", "損傷限界値", SMALL, "3")
            .names(&["損傷限界"])
            .at("/stats/damage_limit")
            .group(STATS)
            .quiet()
            .help("0: none", "0: なし"),
        Field::new("mindless", "マインドレス", Kind::YesNo, "yes").at("/stats/mindless").group(FLAGS),
        Field::new("ill_be_back", "アイルビーバック", Kind::YesNo, "yes")
            .names(&["illbeback", "ibb", "アイル_ビー_バック"])
            .at("/stats/ill_be_back").group(FLAGS),
        Field::new("slow", "低速", Kind::YesNo, "yes").at("/stats/slow").group(FLAGS),
        Field::new("unique", "唯一", Kind::YesNo, "yes").at("/stats/unique").group(FLAGS),
        Field::new(
            "flags",
            "フラグ",
            Kind::Other {
                en: "specials, space separated",
                ja: "スペシャル（空白区切り）",
            },
            "\"vehicle size(2)\"",
        )
        .names(&["specials", "スペシャル"])
        .help(
            "named-only specials: vehicle vtol size(2) transport(6); empty clears",
            "名前だけのスペシャル: ビークル、ＶＴＯＬ、サイズ(2)、輸送車(6)。空で解除",
        ),
        Field::new("ready", "レディ", Kind::YesNo, "yes").at("/ready").group(MARKERS).board().gm(),
        Field::new("done", "ダン", SMALL, "1").at("/done").quiet().group(MARKERS).board().gm(),
        Field::new("reeling", "リーリング", Kind::YesNo, "yes").at("/reeling").group(MARKERS).board().gm(),
        Field::new(
            "removed",
            "除去",
            Kind::Choice(&[&["no", "なし", "いいえ"], &["killed", "撃破", "戦闘不能"], &["retreated", "retreat", "撤退"]]),
            "killed",
        )
        .at("/removed").group(MARKERS).board()
        .gm(),
        Field::new("damage", "損傷", SMALL, "1").at("/damage").quiet().group(MARKERS).board().gm(),
        Field::new("crawler", "クローラー", Kind::YesNo, "yes").at("/crawler").group(MARKERS).board().gm(),
        Field::new("moved", "移動済み", Kind::YesNo, "yes").at("/moved").group(MARKERS).gm(),
        Field::new("reset", "リセット", Kind::YesNo, "yes")
            .gm()
            .help("markers, damage and ammo cleared", "マーカー・損傷・弾数をクリア"),
    ],
    weapons: Some(Weapons {
        max: MAX_WEAPONS,
        prefixes: &["weapon", "w", "武器"],
        grammar: (
            "NAME [cc|short|long] [rofN|semi_auto] [dN] [heavy] [stop:dN] [area|area_medium] [ammoN] [specials]. A weapon of the armoury (or the session's) takes its row by name and the words after change it; a new name needs its range (cc, short or long).",
            "名前 [接近戦|近|遠] [射撃回数N|セミオート] [dN] [重火器] [stop:dN] [エリア|エリア中] [弾数N] [スペシャル]。武器庫（またはセッション）の武器は名前でその行を使い、後の語で変更。新しい名前には射程（接近戦・近・遠）が必要。",
        ),
        slots: (
            "Slots 1–8 (`weapon` alone is slot 1): a profile fills them first (Endoskeleton: 1 Terminator claw, 2 Plasma gun) and a typed slot replaces that one. A weapon typed under the name of one the character already carries overrides that one in its own slot, whatever number is typed (`w1=\"Plasma gun d10\"` keeps the claw). A profile's weapons come without the power the seed lost: give each its die (`w1=\"Terminator claw d8\" w2=\"Plasma gun d10\"`). An empty value removes a weapon; names must differ (attacks name them, or a unique start of the name, or the number).",
            "スロットは1〜8（`weapon` だけなら1）。プロフィールが先に埋め（エンドスケルトン：1 ターミネータークロウ、2 プラズマガン）、入力したスロットがそれを置き換えます。既に持っている武器と同じ名前で入力すると、番号にかかわらずその武器のスロットで上書きします（`武器1=\"プラズマガン d10\"` でもクロウは残ります）。プロフィールの武器にはシードで失われたパワーがないので、それぞれダイスを指定してください（`武器1=\"ターミネータークロウ d8\" 武器2=\"プラズマガン d10\"`）。空の値で削除。攻撃では名前（一意に決まる先頭部分でも可）か番号で指定するので、名前は別々に。",
        ),
        example: "Plasma gun d10",
        stored: weapons_typed,
    }),
    free: None,
};

/// Each weapon by its name: the armoury's row comes back by name; what differs from it is
/// the file's state line. Read from the stored character itself, not through `sheet::read`
/// (which parses a free-form sheet with this declaration: the two files would import each
/// other); a free-form sheet has no typed weapons, and the state line keeps it whole.
fn weapons_typed(sheet: &Value) -> Vec<String> {
    <Character as serde::Deserialize>::deserialize(sheet)
        .map(|c| c.stats.weapons.iter().map(|w| w.name.clone()).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::super::sheet::edit;
    use crate::i18n::Lang;
    use crate::systems::SystemId;
    use crate::systems::sheet::parse_fields;
    use crate::systems::sheet_file;

    /// Issue 30: the Terminator page of `/help` says how to write a weapon and the slot rules.
    #[test]
    fn help_says_how_to_write_a_weapon_and_the_slot_rules() {
        let en = super::DECL.weapon_help(Lang::En).unwrap();
        assert!(
            en.contains("NAME [cc|short|long]") && en.contains("Slots 1–8") && en.contains("profile fills"),
            "{en}"
        );
        let ja = super::DECL.weapon_help(Lang::Ja).unwrap();
        assert!(ja.contains("接近戦") && ja.contains("スロットは1〜8"), "{ja}");
    }

    #[test]
    fn a_character_with_a_profile_and_damage_round_trips_through_its_file() {
        let c = edit(
            &json!({}),
            &parse_fields(r#"side=Skynet profile=Endoskeleton w2="Plasma gun d10" command=2"#).unwrap(),
        )
        .unwrap();
        let c = edit(&c, &parse_fields("damage=1 ready=yes removed=retreated").unwrap()).unwrap();
        let text = sheet_file::export(SystemId::Terminator, "T-800", &c);
        assert!(
            text.contains("damage = 1\n") && text.contains("removed = retreated\n"),
            "{text}"
        );
        assert_eq!(
            sheet_file::import(&text, Some(SystemId::Terminator))
                .unwrap()
                .sheet,
            c
        );
        let e = edit(&c, &parse_fields("removed=maybe").unwrap()).unwrap_err();
        assert!(e.en.contains("`removed` is no, killed or retreated"), "{}", e.en);
    }
}
