//! The d20 mecha unit's sheet, declared once (see [`crate::systems::sheet_decl`]): each field
//! with its names, range, need and help, and the weapon grammar. `sheet.rs` applies them; help,
//! autocomplete, the GM-only check, the missing-field warning and the sheet file read them here.

use serde_json::Value;

use super::unit::Unit;
use super::weapon_sheet::typed_weapon;
use crate::systems::sheet_decl::{Field, Group, Kind, SheetDecl, SheetOption, Weapons};

const ABILITY: Kind = Kind::Int { min: 0, max: 30 };
const MODIFIER: Kind = Kind::Int { min: -30, max: 30 };
const NAME: Kind = Kind::Text { max: 40 };

/// `/char show`'s shared rows.
const ABILITIES: Group = ("Abilities", "能力値");
const SKILLS: Group = ("Skills", "技能");
const POINTS: Group = ("Points", "ポイント");
const STATUS: Group = ("Status", "状態");
const SQUAD: Group = ("Squad", "部隊");
const SUIT: Group = ("Suit", "兵装");
const COMBAT: Group = (
    "Armour · evasion · fire control · accuracy",
    "装甲・回避力・火器管制力・命中",
);
const DRIVE: Group = ("Drive", "推進・移動");

pub const MAX_WEAPONS: usize = 8;

pub static DECL: SheetDecl = SheetDecl {
    example: "durability=30 movement=4 ap=6 spirit=10 propellant=20 w1=\"MG 2d6+3 r3\"",
    option: SheetOption {
        ja: "データ",
        add: (
            "durability=30 movement=4 ap=6 spirit=10",
            "耐久度=30 移動力=4 行動ポイント=6 精神ポイント=10",
        ),
        edit: ("fatigue=1", "疲労=1"),
    },
    fields: &[
        Field::new("pilot", "パイロット", NAME, "Amuro")
            .at("/pilot/name")
            .help(
                "the pilot's name, when it differs from the entry's",
                "登録名と違うときのパイロット名",
            ),
        Field::new("judgement", "判断力", ABILITY, "4")
            .names(&["judgment"])
            .at("/pilot/judgement")
            .group(ABILITIES),
        Field::new("concentration", "集中力", ABILITY, "5")
            .at("/pilot/concentration")
            .group(ABILITIES),
        Field::new("reaction", "反応力", ABILITY, "4")
            .at("/pilot/reaction")
            .group(ABILITIES),
        Field::new("tactics", "戦術", ABILITY, "3")
            .at("/pilot/tactics")
            .group(SKILLS),
        Field::new("shooting", "射撃", ABILITY, "4")
            .at("/pilot/shooting")
            .group(SKILLS),
        Field::new("melee", "格闘", ABILITY, "2")
            .at("/pilot/melee")
            .group(SKILLS),
        Field::new("charge", "突撃", ABILITY, "1")
            .at("/pilot/charge")
            .group(SKILLS),
        Field::new("evade", "回避", ABILITY, "3")
            .names(&["dodge"])
            .at("/pilot/evade")
            .group(SKILLS),
        Field::new("parry", "武器受け", ABILITY, "2")
            .at("/pilot/parry")
            .group(SKILLS),
        Field::new("intercept", "迎撃", ABILITY, "1")
            .at("/pilot/intercept")
            .group(SKILLS),
        Field::new("ap", "行動ポイント", ABILITY, "6")
            .names(&["ap_max"])
            .at("/pilot/ap_max")
            .group(POINTS)
            .board()
            .help(
                "maximum AP (AP left follows when it was full)",
                "最大行動ポイント（満タンなら残りも追従）",
            ),
        Field::new("ap_left", "残り行動ポイント", ABILITY, "4")
            .at("/pilot/ap")
            .group(POINTS)
            .gm(),
        Field::new("fatigue", "疲労", ABILITY, "1")
            .at("/pilot/fatigue")
            .group(POINTS)
            .quiet()
            .board()
            .gm(),
        Field::new("spirit", "精神ポイント", Kind::Int { min: 0, max: 999 }, "10")
            .names(&["spirit_max"])
            .at("/pilot/spirit_max")
            .group(POINTS)
            .help("maximum spirit points", "最大精神ポイント"),
        Field::new(
            "spirit_left",
            "残り精神ポイント",
            Kind::Int { min: 0, max: 999 },
            "8",
        )
        .at("/pilot/spirit")
        .group(POINTS)
        .gm(),
        Field::new("fainted", "気絶", Kind::YesNo, "yes")
            .at("/pilot/fainted")
            .group(STATUS)
            .board()
            .gm(),
        Field::new("squad", "部隊", NAME, "Blue")
            .at("/pilot/squad")
            .group(SQUAD)
            .help("units of a squad act together", "同じ部隊のユニットは一緒に行動"),
        Field::new("leader", "隊長", Kind::YesNo, "yes")
            .names(&["隊長機"])
            .at("/pilot/leader")
            .group(SQUAD),
        // The seed calls the suit 兵装 throughout; 機体 is still read.
        Field::new("model", "兵装名", NAME, "RX-78")
            .names(&["suit", "兵装", "機体", "機体名"])
            .at("/suit/model")
            .group(SUIT)
            .help("the suit's name", "兵装の名前"),
        Field::new("durability", "耐久度", Kind::Int { min: 1, max: 9999 }, "30")
            .names(&["耐久力"])
            .at("/suit/durability_max")
            .group(SUIT)
            .board()
            .required()
            .help("maximum durability", "最大耐久度"),
        Field::new(
            "durability_left",
            "残り耐久度",
            Kind::Int {
                min: -9999,
                max: 9999,
            },
            "25",
        )
        .at("/suit/durability")
        .group(SUIT)
        .gm(),
        Field::new("destroyed", "撃破", Kind::YesNo, "yes")
            .at("/suit/destroyed")
            .group(STATUS)
            .board()
            .gm(),
        Field::new("armour", "装甲", Kind::Int { min: 0, max: 999 }, "8")
            .names(&["armor", "装甲値"])
            .at("/suit/armour")
            .group(COMBAT),
        Field::new("evasion", "回避力", MODIFIER, "2")
            .at("/suit/evasion")
            .group(COMBAT),
        Field::new("fire_control", "火器管制力", MODIFIER, "1")
            .names(&["火器管制"])
            .at("/suit/fire_control")
            .group(COMBAT),
        Field::new("accuracy", "命中", MODIFIER, "1")
            .at("/suit/accuracy")
            .group(COMBAT),
        Field::new("reactor", "反応炉", Kind::Int { min: 0, max: 999 }, "10")
            .at("/suit/reactor")
            .group(DRIVE),
        Field::new("propellant", "推進剤量", Kind::Int { min: 0, max: 999 }, "20")
            .names(&["推進剤"])
            .at("/suit/propellant_max")
            .group(DRIVE)
            .help("maximum propellant", "最大推進剤量"),
        Field::new(
            "propellant_left",
            "残り推進剤",
            Kind::Int { min: 0, max: 999 },
            "12",
        )
        .at("/suit/propellant")
        .group(DRIVE)
        .gm(),
        Field::new("movement", "移動力", ABILITY, "4")
            .names(&["move", "通常移動"])
            .at("/suit/movement")
            .group(DRIVE)
            .warn()
            .help(
                "hexes per normal move: a unit without it cannot move",
                "通常移動のヘクス数（未設定では移動できません）",
            ),
        Field::new("high_speed", "高速移動", ABILITY, "8")
            .at("/suit/high_speed")
            .group(DRIVE),
        Field::new("escape_device", "脱出装置", MODIFIER, "2")
            .names(&["escape"])
            .at("/suit/escape_device")
            .group(DRIVE),
        Field::new("handling", "操縦難易度修正", MODIFIER, "-1")
            .names(&["操縦難易度"])
            .at("/suit/handling")
            .group(DRIVE),
        Field::new(
            "cockpit",
            "コクピット",
            Kind::Choice(&[
                &["multi", "multi_monitor", "多面", "多面モニター"],
                &["all_round", "allround", "all", "全周", "全周囲", "全周囲モニター"],
            ]),
            "all_round",
        )
        .names(&["コックピット"])
        .at("/suit/cockpit")
        .group(SUIT),
        Field::new("reset", "修理", Kind::YesNo, "yes")
            .names(&["repair"])
            .gm()
            .help(
                "a fresh unit: damage, wear and points restored",
                "損傷・部位破損・ポイントを全回復",
            ),
    ],
    weapons: Some(Weapons {
        max: MAX_WEAPONS,
        prefixes: &["weapon", "w", "兵器", "武器"],
        grammar: (
            "NAME POWER [melee|ranged] [rN] [front|forward|all_round|rear] [±mod] [head|body|arm|left_arm|right_arm|leg|left_leg|right_leg] [fixed|standard]. A ranged weapon needs its range (r3 reaches hexes 2–4); a melee one has none (hex 0).",
            "名前 威力 [格闘|射撃] [射程N] [正面|前面|全周|背面] [±修正] [頭部|胴体|腕|左腕|右腕|脚|左脚|右脚] [固定|標準]。射撃兵器には射程（射程3なら2〜4ヘクス）が必要、格闘兵器は射程なし（0ヘクス）。",
        ),
        slots: (
            "Slots 1–8 (`weapon` alone is slot 1); an empty value removes the weapon; names must differ (attacks name them); re-entering a weapon under its name keeps its damage.",
            "スロットは1〜8（`weapon` だけなら1）。空の値で削除。攻撃で名前を使うので名前は別々に。同じ名前で入れ直すと損傷は残ります。",
        ),
        example: "Beam Rifle 2d6+5 r3 +1 right_arm",
        stored: weapons_typed,
    }),
    free: None,
};

/// Read from the stored unit itself, not through `sheet::read` (which parses a free-form sheet
/// from before the rules with this declaration: the two files would import each other). Such a
/// sheet has no typed weapons to list; the file's `state` line keeps it whole.
fn weapons_typed(sheet: &Value) -> Vec<String> {
    <Unit as serde::Deserialize>::deserialize(sheet)
        .map(|u| u.suit.weapons.iter().map(typed_weapon).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::super::error::RuleError;
    use super::super::movement::{Direction, MoveKind, MoveRequest, make_move};
    use super::super::sheet::edit;
    use super::super::unit::Unit;
    use crate::i18n::{Lang, Localized};
    use crate::systems::SystemId;
    use crate::systems::sheet::{describe_sheet, parse_fields};
    use crate::systems::sheet_file;

    /// Issue 30: `/char add name:Zaku stats:durability=6` (no `movement=`) was accepted
    /// silently, then `/mecha move` said "moves at most 0 hexes". Now the sheet says what is
    /// missing, and the move names the field to set.
    #[test]
    fn a_unit_without_movement_says_so_when_added_and_when_it_moves() {
        let sheet = edit(&json!({}), &parse_fields("durability=6").unwrap()).unwrap();
        let shown = describe_sheet(SystemId::MechaD20, &sheet, Lang::En);
        let (name, warning) = shown.last().unwrap();
        assert_eq!(name, "⚠️ Missing");
        assert!(
            warning.contains("`movement`") && warning.contains("movement=4"),
            "{warning}"
        );
        let ja = describe_sheet(SystemId::MechaD20, &sheet, Lang::Ja);
        assert!(ja.last().unwrap().1.contains("`移動力`"), "{ja:?}");
        let mut unit: Unit = serde_json::from_value(sheet).unwrap();
        let req = MoveRequest {
            kind: MoveKind::Normal,
            direction: Direction::Front,
            hexes: 2,
            ap: 1,
            propellant: 0,
            entered_zone_of_control: false,
        };
        unit.pilot.ap = 2;
        let e = make_move("Zaku", &mut unit, &req).unwrap_err();
        assert!(matches!(
            e,
            RuleError::NoMove {
                field: "movement",
                ..
            }
        ));
        assert!(e.localized(Lang::En).contains("no `movement` on its sheet"));
        assert!(e.localized(Lang::Ja).contains("`movement` がありません"));
        // With it, no warning.
        let sheet = edit(&json!({}), &parse_fields("durability=6 movement=4").unwrap()).unwrap();
        let shown = describe_sheet(SystemId::MechaD20, &sheet, Lang::En);
        assert!(!shown.iter().any(|(n, _)| n.contains("Missing")), "{shown:?}");
        // A new unit without durability is refused naming it in each language.
        let e = edit(&json!({}), &parse_fields("movement=4").unwrap()).unwrap_err();
        assert!(
            e.en.contains("needs durability") && e.ja.contains("耐久度"),
            "{e:?}"
        );
    }

    /// Issue 30: the mecha page of `/help` says how to write a weapon and what the slots are.
    #[test]
    fn help_says_how_to_write_a_weapon_and_the_slot_rules() {
        let en = super::DECL.weapon_help(Lang::En).unwrap();
        assert!(
            en.contains("NAME POWER") && en.contains("Slots 1–8") && en.contains("r3"),
            "{en}"
        );
        let ja = super::DECL.weapon_help(Lang::Ja).unwrap();
        assert!(ja.contains("名前 威力") && ja.contains("スロットは1〜8"), "{ja}");
    }

    /// A unit with every field, weapons with damage and wear, written to a file and read back.
    #[test]
    fn a_damaged_unit_round_trips_through_its_file() {
        let typed = r#"pilot=Amuro durability=30 movement=4 high_speed=8 cockpit=all_round squad=Blue leader=yes ap=6 spirit=10 armour=8 handling=-1 model="RX 78" w1="Beam Rifle 2d6+5 r3 +1 right_arm" w2="Saber 1d6+4 melee left_arm fixed" w3="Vulcan 2d6 r1 all_round head fixed""#;
        let sheet = edit(&json!({}), &parse_fields(typed).unwrap()).unwrap();
        let text = sheet_file::export(SystemId::MechaD20, "Gundam", &sheet);
        assert!(!text.contains("state ="), "{text}");
        assert!(
            text.contains("weapon2 = Saber 1d6+4 melee left_arm fixed\n"),
            "{text}"
        );
        let back = sheet_file::import(&text, Some(SystemId::MechaD20)).unwrap();
        assert_eq!(back.sheet, sheet);
        let mut u: Unit = serde_json::from_value(sheet).unwrap();
        u.suit.durability = 7;
        u.pilot.ap = 1;
        u.suit.wear.head = 1;
        u.suit.weapons[0].status = super::super::unit::WeaponStatus::Destroyed { from: 3 };
        let damaged = u.to_value();
        let text = sheet_file::export(SystemId::MechaD20, "Gundam", &damaged);
        assert!(
            text.contains("durability_left = 7\n") && text.contains("state = "),
            "{text}"
        );
        assert_eq!(sheet_file::import(&text, None).unwrap().sheet, damaged);
        // A field out of range is refused naming its line.
        let bad = text.replace("armour = 8", "armour = 1000");
        let line = bad.lines().position(|l| l.starts_with("armour")).unwrap() + 1;
        let e = sheet_file::import(&bad, None).unwrap_err();
        assert!(e.en.starts_with(&format!("Line {line}: `armour`")), "{}", e.en);
    }
}
