//! A d20 mecha weapon as typed into a weapon slot (`weapon1="Beam Rifle 2d6+5 r3 +1 right_arm"`),
//! on one line for `/char show`, and back as typed for the sheet file. The grammar's words are
//! declared in `sheet_decl.rs` for help.
//!
//! Weapon tokens: `melee`/`格闘` or `ranged`/`射撃`; `r3`/`range:3`/`射程3`; arcs
//! `front`/`正面`, `forward`/`前面`, `all_round`/`全周`, `rear`/`背面`; a modifier `+1`;
//! mounts `head`/`頭部`, `body`/`胴体`, `arm`/`腕`, `left_arm`/`左腕`, `right_arm`/`右腕`,
//! `leg`/`脚`, `left_leg`/`左脚`, `right_leg`/`右脚`; `fixed`/`固定` or `standard`/`標準`.

use super::damage::parse_power;
use super::unit::{Arc, Category, Mount, Side, Weapon, WeaponKind, WeaponStatus};
use crate::i18n::Lang;
use crate::systems::sheet_decl::int_in;
use crate::systems::sheet_error::SheetError;

const MAX_NAME_CHARS: usize = 40;

fn err(en: impl Into<String>, ja: impl Into<String>) -> SheetError {
    SheetError::new(en, ja)
}

fn number(key: &str, v: &str, min: i64, max: i64) -> Result<i64, SheetError> {
    int_in(key, v, min, max)
}

fn unsigned(key: &str, v: &str, max: u32) -> Result<u32, SheetError> {
    Ok(number(key, v, 0, i64::from(max))? as u32)
}

fn mount(t: &str) -> Option<Mount> {
    let arm = |side| Some(Mount::Arm { side });
    let leg = |side| Some(Mount::Leg { side });
    match t {
        "head" | "頭" | "頭部" => Some(Mount::Head),
        "body" | "torso" | "胴" | "胴体" => Some(Mount::Body),
        "arm" | "腕" => arm(None),
        "left_arm" | "arm:l" | "arm:left" | "左腕" => arm(Some(Side::Left)),
        "right_arm" | "arm:r" | "arm:right" | "右腕" => arm(Some(Side::Right)),
        "leg" | "脚" => leg(None),
        "left_leg" | "leg:l" | "leg:left" | "左脚" => leg(Some(Side::Left)),
        "right_leg" | "leg:r" | "leg:right" | "右脚" => leg(Some(Side::Right)),
        _ => None,
    }
}

fn arc(t: &str) -> Option<Arc> {
    match t {
        "front" | "正面" | "正面射界" => Some(Arc::Front),
        "forward" | "前面" | "前面射界" => Some(Arc::Forward),
        "all" | "all_round" | "全周" | "全周面" | "全周面射界" => Some(Arc::AllRound),
        "rear" | "背面" | "背面射界" => Some(Arc::Rear),
        _ => None,
    }
}

fn range_token(t: &str) -> Option<Option<u32>> {
    let rest = ["range:", "range", "射程:", "射程", "r"]
        .iter()
        .find_map(|p| t.strip_prefix(p))?;
    Some(rest.parse().ok())
}

/// `Beam Rifle 2d6+5 r3 front +1 right_arm standard` → a weapon.
pub fn parse_weapon(key: &str, v: &str) -> Result<Weapon, SheetError> {
    let bad = |en: &str, ja: &str| {
        err(
            format!(
                "`{key}`: {en} Write NAME POWER [melee] [rN] [arc] [±mod] [mount] [fixed], e.g. \"Beam Rifle 2d6+5 r3 +1 right_arm\"."
            ),
            format!(
                "`{key}`: {ja} 「名前 威力 [格闘] [射程N] [射界] [±修正] [部位] [固定]」の形で書いてください（例: \"ビームライフル 2d6+5 射程3 +1 右腕\"）。"
            ),
        )
    };
    let tokens: Vec<&str> = v.split([' ', '　', ';']).filter(|t| !t.is_empty()).collect();
    let at = tokens
        .iter()
        .position(|t| parse_power(t).is_ok())
        .ok_or_else(|| bad("no power such as 2d6+5.", "2d6+5 のような威力がありません。"))?;
    if at == 0 {
        return Err(bad("no name.", "名前がありません。"));
    }
    let name = tokens[..at].join(" ");
    if name.chars().count() > MAX_NAME_CHARS || name.parse::<usize>().is_ok() {
        return Err(bad(
            "the name is 1–40 characters and not a number.",
            "名前は1〜40文字で、数字だけにはできません。",
        ));
    }
    let power = parse_power(tokens[at]).map_err(|e| SheetError::from_localized(&e))?;
    let mut kind = None;
    let mut range = None;
    let mut weapon = Weapon {
        name,
        kind: WeaponKind::Ranged,
        power,
        range: 0,
        arc: Arc::Front,
        modifier: 0,
        mount: None,
        category: Category::Standard,
        status: WeaponStatus::Usable,
    };
    for raw in &tokens[at + 1..] {
        let lower = raw.to_lowercase().replace('＋', "+").replace(['－', '−'], "-");
        // A leading sign is a modifier; elsewhere `-` reads as `_` (left-arm).
        let t = if lower.starts_with(['+', '-']) {
            lower
        } else {
            lower.replace('-', "_")
        };
        if let Some(m) = mount(&t) {
            weapon.mount = Some(m);
        } else if let Some(a) = arc(&t) {
            weapon.arc = a;
        } else {
            match t.as_str() {
                "melee" | "格闘" => kind = Some(WeaponKind::Melee),
                "ranged" | "射撃" => kind = Some(WeaponKind::Ranged),
                "fixed" | "固定" | "固定武装" => weapon.category = Category::Fixed,
                "standard" | "標準" | "標準武装" => weapon.category = Category::Standard,
                _ if t.starts_with(['+', '-']) || t.starts_with("mod") || t.starts_with("修正") => {
                    let n = t.trim_start_matches("mod").trim_start_matches("修正");
                    weapon.modifier = number(key, n, -30, 30)?;
                }
                _ => match range_token(&t) {
                    Some(Some(r)) => {
                        range = Some(unsigned(key, &r.to_string(), 30)?);
                    }
                    _ => {
                        return Err(bad(
                            &format!("unknown word `{raw}`."),
                            &format!("「{raw}」は読めません。"),
                        ));
                    }
                },
            }
        }
    }
    weapon.kind = kind.unwrap_or(WeaponKind::Ranged);
    match (weapon.kind, range) {
        (WeaponKind::Melee, Some(_)) => {
            return Err(bad(
                "a melee weapon has no range (it reaches hex 0).",
                "格闘兵器に射程はありません（0ヘクスのみ）。",
            ));
        }
        (WeaponKind::Ranged, None) => {
            return Err(bad(
                "a ranged weapon needs its range (r3), or write melee.",
                "射撃兵器には射程（射程3など）が必要です。格闘兵器なら「格闘」と書いてください。",
            ));
        }
        (_, r) => weapon.range = r.unwrap_or(0),
    }
    Ok(weapon)
}

pub(super) fn signed(n: i64) -> String {
    if n > 0 { format!("+{n}") } else { n.to_string() }
}

fn status_text(st: WeaponStatus, lang: Lang) -> Option<String> {
    match (st, lang) {
        (WeaponStatus::Usable, _) => None,
        (WeaponStatus::Malfunction { turn }, Lang::En) => Some(format!("malfunction in turn {turn}")),
        (WeaponStatus::Malfunction { turn }, Lang::Ja) => Some(format!("ターン{turn}は兵器不調")),
        (WeaponStatus::Destroyed { from }, Lang::En) => Some(format!("destroyed from turn {from}")),
        (WeaponStatus::Destroyed { from }, Lang::Ja) => Some(format!("ターン{from}から兵器破損")),
        (WeaponStatus::Lost { from }, Lang::En) => Some(format!("lost from turn {from}")),
        (WeaponStatus::Lost { from }, Lang::Ja) => Some(format!("ターン{from}から兵器損失")),
    }
}

/// A weapon on one line: power, reach, arc, modifier, mount, category and status.
pub fn weapon_line(w: &Weapon, lang: Lang) -> String {
    let mut parts = vec![format!("{} {}", w.name, w.power)];
    let (min, max) = w.reach();
    parts.push(match (w.kind, lang) {
        (WeaponKind::Melee, _) => lang.pick("melee (hex 0)", "格闘（0ヘクス）").to_string(),
        (WeaponKind::Ranged, Lang::En) => format!("range {} (hexes {min}–{max})", w.range),
        (WeaponKind::Ranged, Lang::Ja) => format!("射程{}（{min}〜{max}ヘクス）", w.range),
    });
    if w.kind == WeaponKind::Ranged {
        parts.push(w.arc.name(lang).to_string());
    }
    if w.modifier != 0 {
        parts.push(signed(w.modifier));
    }
    if let Some(m) = w.mount {
        parts.push(m.name(lang));
    }
    parts.push(
        match w.category {
            Category::Fixed => lang.pick("fixed", "固定武装"),
            Category::Standard => lang.pick("standard", "標準武装"),
        }
        .to_string(),
    );
    let mut line = parts.join(" · ");
    if let Some(s) = status_text(w.status, lang) {
        line.push_str(&format!(" — **{s}**"));
    }
    line
}

/// A weapon as typed into its slot (the sheet file writes it so): the grammar
/// [`parse_weapon`] reads back to the same weapon (its damage is the sheet's state).
pub fn typed_weapon(w: &Weapon) -> String {
    let mut parts = vec![w.name.clone(), w.power.to_string()];
    match w.kind {
        WeaponKind::Melee => parts.push("melee".into()),
        WeaponKind::Ranged => {
            parts.push(format!("r{}", w.range));
            parts.push(
                match w.arc {
                    Arc::Front => "front",
                    Arc::Forward => "forward",
                    Arc::AllRound => "all_round",
                    Arc::Rear => "rear",
                }
                .into(),
            );
        }
    }
    if w.modifier != 0 {
        parts.push(signed(w.modifier));
    }
    let side = |s: Option<Side>, what: &str| match s {
        None => what.to_string(),
        Some(Side::Left) => format!("left_{what}"),
        Some(Side::Right) => format!("right_{what}"),
    };
    match w.mount {
        None => {}
        Some(Mount::Head) => parts.push("head".into()),
        Some(Mount::Body) => parts.push("body".into()),
        Some(Mount::Arm { side: s }) => parts.push(side(s, "arm")),
        Some(Mount::Leg { side: s }) => parts.push(side(s, "leg")),
    }
    parts.push(
        match w.category {
            Category::Fixed => "fixed",
            Category::Standard => "standard",
        }
        .into(),
    );
    parts.join(" ")
}
