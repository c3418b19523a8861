//! Weapons: range bands and what reaches them (items 13–14, TG-8), ROF and Semi-auto (item 27),
//! Heavy (26), Stopping Power (28), Area (29, TG-14/15), Limited ammo (TG-16), the flags shown
//! without text, and the armoury of §2 as data (every power die unset: the seed lost them).

use std::sync::LazyLock;

use serde::{Deserialize, Serialize};

use super::dice::Die;
use super::error::{DieField, RuleError};
use crate::i18n::Lang;
use crate::systems::bounds::within;
use crate::systems::sheet_error::SheetError;

/// The distance to the target, which the player reads off the templates (§4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Band {
    Cc,
    Close,
    Short,
    Long,
}

impl Band {
    /// The attack roll's number (L47–50): CC 3+, close 4+, short 5+, long 6+.
    pub fn threshold(self) -> u32 {
        match self {
            Band::Cc => 3,
            Band::Close => 4,
            Band::Short => 5,
            Band::Long => 6,
        }
    }

    /// Within short range (item 16, TG-9): CC and close count too.
    pub fn within_short(self) -> bool {
        self != Band::Long
    }

    pub fn key(self) -> &'static str {
        match self {
            Band::Cc => "CC",
            Band::Close => "close",
            Band::Short => "short",
            Band::Long => "long",
        }
    }

    pub fn name(self, lang: Lang) -> &'static str {
        match self {
            Band::Cc => lang.pick("CC", "接近戦距離"),
            Band::Close => lang.pick("close", "至近距離"),
            Band::Short => lang.pick("short", "近距離"),
            Band::Long => lang.pick("long", "遠距離"),
        }
    }

    pub fn parse(input: &str) -> Result<Band, RuleError> {
        match input.trim().to_lowercase().as_str() {
            "cc" | "close_combat" | "接近戦" | "接近戦距離" => Ok(Band::Cc),
            "close" | "至近" | "至近距離" => Ok(Band::Close),
            "short" | "近" | "近距離" => Ok(Band::Short),
            "long" | "遠" | "遠距離" => Ok(Band::Long),
            _ => Err(RuleError::UnknownBand {
                input: input.chars().take(20).collect(),
            }),
        }
    }
}

/// A weapon's range column: CC, Short or Long.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reach {
    Cc,
    Short,
    Long,
}

impl Reach {
    /// TG-8: CC weapons at CC only; Short at close and short; Long at close, short and long.
    pub fn reaches(self, band: Band) -> bool {
        match self {
            Reach::Cc => band == Band::Cc,
            Reach::Short => matches!(band, Band::Close | Band::Short),
            Reach::Long => band != Band::Cc,
        }
    }

    pub fn ranged(self) -> bool {
        self != Reach::Cc
    }

    pub fn name(self, lang: Lang) -> &'static str {
        match self {
            Reach::Cc => "CC",
            Reach::Short => lang.pick("Short", "Short（近）"),
            Reach::Long => lang.pick("Long", "Long（遠）"),
        }
    }
}

/// Area (small) and Area (medium): resolved alike (TG-14).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Area {
    Small,
    Medium,
}

/// Weapon specials named without text: shown, not resolved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WeaponFlag {
    SelfSacrifice,
    Sniper,
    IndirectFire,
    SelectableHe,
    Flame,
}

impl WeaponFlag {
    pub const ALL: [WeaponFlag; 5] = [
        WeaponFlag::SelfSacrifice,
        WeaponFlag::Sniper,
        WeaponFlag::IndirectFire,
        WeaponFlag::SelectableHe,
        WeaponFlag::Flame,
    ];

    pub fn name(self, lang: Lang) -> &'static str {
        match self {
            WeaponFlag::SelfSacrifice => lang.pick("Self-sacrifice", "自己犠牲"),
            WeaponFlag::Sniper => lang.pick("Sniper", "スナイパー"),
            WeaponFlag::IndirectFire => lang.pick("Indirect fire", "間接射撃"),
            WeaponFlag::SelectableHe => lang.pick("Selectable HE ammo", "ＨＥ弾薬選択式"),
            WeaponFlag::Flame => lang.pick("Flame", "火炎"),
        }
    }

    fn key(self) -> &'static str {
        match self {
            WeaponFlag::SelfSacrifice => "self_sacrifice",
            WeaponFlag::Sniper => "sniper",
            WeaponFlag::IndirectFire => "indirect",
            WeaponFlag::SelectableHe => "selectable_he",
            WeaponFlag::Flame => "flame",
        }
    }
}

/// A weapon on a character or in the armoury. Unset fields are dice and ranges the seed lost.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Weapon {
    pub name: String,
    #[serde(default)]
    pub reach: Option<Reach>,
    pub rof: u32,
    /// Semi-auto (item 27): ROF 1 at long range, 2 nearer; `rof` is then ignored.
    #[serde(default)]
    pub semi_auto: bool,
    #[serde(default)]
    pub power: Option<Die>,
    #[serde(default)]
    pub heavy: bool,
    /// Stopping Power (item 28): another power die at close range; the die the seed lost.
    #[serde(default)]
    pub stopping_power: bool,
    #[serde(default)]
    pub stopping_die: Option<Die>,
    #[serde(default)]
    pub area: Option<Area>,
    /// Limited ammo(N): N shots per game (TG-16).
    #[serde(default)]
    pub limited_ammo: Option<u32>,
    #[serde(default)]
    pub flags: Vec<WeaponFlag>,
}

impl Weapon {
    pub fn new(name: &str, reach: Option<Reach>, rof: u32) -> Weapon {
        Weapon {
            name: name.to_string(),
            reach,
            rof,
            semi_auto: false,
            power: None,
            heavy: false,
            stopping_power: false,
            stopping_die: None,
            area: None,
            limited_ammo: None,
            flags: Vec::new(),
        }
    }

    /// Dice rolled at this band (item 27; under See you in hell the band is CC, so 2).
    pub fn rof_at(&self, band: Band) -> u32 {
        if self.semi_auto {
            if band == Band::Long { 1 } else { 2 }
        } else {
            self.rof
        }
    }

    /// Whether the weapon may attack at `band` (item 14, TG-8). Under See you in hell only a
    /// ranged weapon may, at CC.
    pub fn check_band(&self, band: Band, hell: bool) -> Result<(), RuleError> {
        let reach = self.reach.ok_or_else(|| RuleError::MissingRange {
            weapon: self.name.clone(),
        })?;
        if hell {
            return if reach.ranged() {
                Ok(())
            } else {
                Err(RuleError::HellNeedsRanged {
                    weapon: self.name.clone(),
                })
            };
        }
        if reach.reaches(band) {
            Ok(())
        } else if band == Band::Cc {
            Err(RuleError::RangedAtCc {
                weapon: self.name.clone(),
            })
        } else {
            Err(RuleError::OutOfBand {
                weapon: self.name.clone(),
                band: band.key().to_string(),
            })
        }
    }

    /// The power die a normal attack rolls at `band`: the Stopping Power die at close range
    /// (item 28), else the weapon's. `None` names the field that is unset.
    pub fn power_at(&self, band: Band) -> Result<Die, RuleError> {
        if self.stopping_power && band == Band::Close {
            self.stopping_die.ok_or_else(|| RuleError::MissingDie {
                who: self.name.clone(),
                field: DieField::StoppingPower,
            })
        } else {
            self.power.ok_or_else(|| RuleError::MissingDie {
                who: self.name.clone(),
                field: DieField::Power,
            })
        }
    }

    /// One line: range, ROF, power and specials.
    pub fn line(&self, lang: Lang) -> String {
        let unset = lang.pick("unset", "未設定");
        let mut parts = vec![
            display_name(&self.name, lang),
            self.reach.map_or(unset.to_string(), |r| r.name(lang).to_string()),
            if self.semi_auto {
                format!("{} 2/1", lang.pick("ROF", "射撃回数"))
            } else {
                format!("{} {}", lang.pick("ROF", "射撃回数"), self.rof)
            },
            format!(
                "{} {}",
                lang.pick("power", "パワー"),
                self.power.map_or(unset.to_string(), |d| d.to_string())
            ),
        ];
        if self.semi_auto {
            parts.push(lang.pick("Semi-auto", "セミオート").to_string());
        }
        if self.heavy {
            parts.push(lang.pick("Heavy", "重火器").to_string());
        }
        if self.stopping_power {
            parts.push(format!(
                "{} {}",
                lang.pick("Stopping Power", "ストッピングパワー"),
                self.stopping_die.map_or(unset.to_string(), |d| d.to_string())
            ));
        }
        match self.area {
            Some(Area::Small) => parts.push(lang.pick("Area (small)", "エリア（小）").to_string()),
            Some(Area::Medium) => parts.push(lang.pick("Area (medium)", "エリア（中）").to_string()),
            None => {}
        }
        if let Some(n) = self.limited_ammo {
            parts.push(format!("{}({n})", lang.pick("Limited ammo", "弾数制限")));
        }
        parts.extend(self.flags.iter().map(|f| f.name(lang).to_string()));
        parts.join(" · ")
    }
}

/// A row of §2's weapon tables: English name, Japanese name, range, ROF, specials.
struct Row {
    en: &'static str,
    ja: &'static str,
    reach: Option<Reach>,
    rof: u32,
    semi: bool,
    heavy: bool,
    stopping: bool,
    area: Option<Area>,
    ammo: Option<u32>,
    flags: &'static [WeaponFlag],
}

const fn row(en: &'static str, ja: &'static str, reach: Option<Reach>, rof: u32) -> Row {
    Row {
        en,
        ja,
        reach,
        rof,
        semi: false,
        heavy: false,
        stopping: false,
        area: None,
        ammo: None,
        flags: &[],
    }
}

const CC: Option<Reach> = Some(Reach::Cc);
const SHORT: Option<Reach> = Some(Reach::Short);
const LONG: Option<Reach> = Some(Reach::Long);

/// §2: the Resistance's and the Machines' weapons (L380–456, TG-13 for the garbled rows).
const ROWS: &[Row] = &[
    row("Fists", "拳・素手", CC, 1),
    row("Combat knife", "コンバットナイフ", CC, 1),
    Row {
        area: Some(Area::Small),
        flags: &[WeaponFlag::SelfSacrifice],
        ..row("Sticky bomb", "スティッキーボム", CC, 1)
    },
    row("Bow", "ボウ／クロスボウ", LONG, 1),
    row("Pistol", "ピストル", SHORT, 1),
    row("Submachine gun", "サブマシンガン", SHORT, 2),
    Row {
        stopping: true,
        ..row("Shotgun", "ショットガン", SHORT, 1)
    },
    row("Rifle", "ライフル", LONG, 1),
    Row {
        flags: &[WeaponFlag::Sniper],
        ..row("Sniper rifle", "スナイパーライフル", LONG, 1)
    },
    Row {
        flags: &[WeaponFlag::Sniper],
        ..row("Heavy sniper rifle", "ヘヴィスナイパーライフル", LONG, 1)
    },
    Row {
        semi: true,
        ..row("Assault rifle", "アサルトライフル", LONG, 2)
    },
    Row {
        semi: true,
        ..row("Plasma rifle", "プラズマライフル", LONG, 2)
    },
    row("Light machine gun", "ライトマシンガン", LONG, 3),
    Row {
        heavy: true,
        ..row("Heavy machine gun", "ヘヴィマシンガン", LONG, 3)
    },
    Row {
        area: Some(Area::Small),
        ..row("Grenade launcher", "グレネードランチャー", LONG, 1)
    },
    Row {
        ammo: Some(1),
        ..row("RPG", "ＲＰＧ", LONG, 1)
    },
    Row {
        heavy: true,
        area: Some(Area::Small),
        flags: &[WeaponFlag::IndirectFire],
        ..row("Mortar", "迫撃砲", LONG, 1)
    },
    Row {
        heavy: true,
        ..row("Rocket launcher [AT]", "ロケットランチャー［AT］", LONG, 1)
    },
    Row {
        heavy: true,
        ..row("Chain gun", "チェーンガン（機関砲）", None, 3)
    },
    Row {
        heavy: true,
        area: Some(Area::Medium),
        ..row("Rocket launcher [HE]", "ロケットランチャー［HE］", None, 1)
    },
    Row {
        heavy: true,
        flags: &[WeaponFlag::SelectableHe],
        ..row("AT gun [AT]", "対戦車砲［AT］", LONG, 1)
    },
    Row {
        heavy: true,
        area: Some(Area::Small),
        ..row("AT gun [HE]", "対戦車砲［HE］", LONG, 1)
    },
    Row {
        heavy: true,
        ..row("Minigun", "ミニガン", LONG, 5)
    },
    Row {
        heavy: true,
        ..row("Gatling gun", "ガトリングガン", LONG, 4)
    },
    row("Terminator claw", "ターミネータークロウ", CC, 1),
    row("Stabbing parts", "突き刺し／鋭利部位", CC, 1),
    row("Stomp", "踏みつけ", CC, 1),
    row("Liquid-metal javelin", "液体金属ジャベリン", SHORT, 1),
    row("Plasma gun", "プラズマガン", LONG, 2),
    Row {
        flags: &[WeaponFlag::Flame],
        ..row("Flamethrower", "火炎放射器", SHORT, 1)
    },
    Row {
        heavy: true,
        ..row("Heavy plasma gun", "ヘヴィプラズマガン", LONG, 3)
    },
];

/// Other spellings players type for a shipped weapon.
const ALIASES: &[(&str, &str)] = &[
    ("Fists", "unarmed"),
    ("Fists", "fists / unarmed"),
    ("Bow", "crossbow"),
    ("Bow", "bow / crossbow"),
    ("Rocket launcher [AT]", "rocket launcher (at)"),
    ("Rocket launcher [AT]", "ロケットランチャー（ＡＴ）"),
    ("Rocket launcher [HE]", "rocket launcher (he)"),
    ("AT gun [AT]", "at gun (at)"),
    ("AT gun [HE]", "at gun (he)"),
    ("Stabbing parts", "sharp parts"),
    ("Chain gun", "チェーンガン"),
    ("Chain gun", "機関砲"),
];

/// The armoury as weapons.
pub static ARMOURY: LazyLock<Vec<Weapon>> = LazyLock::new(|| {
    ROWS.iter()
        .map(|r| Weapon {
            semi_auto: r.semi,
            heavy: r.heavy,
            stopping_power: r.stopping,
            area: r.area,
            limited_ammo: r.ammo,
            flags: r.flags.to_vec(),
            ..Weapon::new(r.en, r.reach, r.rof)
        })
        .collect()
});

fn fold(s: &str) -> String {
    s.trim().to_lowercase().replace(['_', '-'], " ")
}

/// The English name of a shipped weapon typed in either language (or an alias).
pub fn shipped_name(input: &str) -> Option<&'static str> {
    let t = fold(input);
    ROWS.iter()
        .find(|r| fold(r.en) == t || fold(r.ja) == t)
        .map(|r| r.en)
        .or_else(|| ALIASES.iter().find(|(_, a)| fold(a) == t).map(|(en, _)| *en))
}

/// The tables' weapons (§2) by name in `lang`, in the tables' order: what a weapon slot takes
/// by name (`/help`).
pub fn table_names(lang: Lang) -> Vec<&'static str> {
    ROWS.iter().map(|r| lang.pick(r.en, r.ja)).collect()
}

/// A weapon's name in `lang`: the table's Japanese for a shipped weapon, else as typed.
pub fn display_name(name: &str, lang: Lang) -> String {
    match lang {
        Lang::Ja => ROWS
            .iter()
            .find(|r| r.en == name)
            .map_or(name.to_string(), |r| r.ja.to_string()),
        Lang::En => name.to_string(),
    }
}

/// A weapon by name: the session's own first (`custom`), then the armoury.
pub fn find<'a>(custom: &'a [Weapon], input: &str) -> Option<&'a Weapon> {
    let t = fold(input);
    custom.iter().find(|w| fold(&w.name) == t).or_else(|| {
        let en = shipped_name(input)?;
        ARMOURY.iter().find(|w| w.name == en)
    })
}

fn sheet_err(key: &str, en: &str, ja: &str) -> SheetError {
    SheetError::new(
        format!(
            "`{key}`: {en} Write NAME [cc|short|long] [rofN|2/1] [dN] [stop:dN] [heavy] [area|area_medium] [ammoN], e.g. \"Shotgun d8 stop:d12\"."
        ),
        format!(
            "`{key}`: {ja} 「名前 [接近戦|近|遠] [rofN|2/1] [dN] [stop:dN] [重火器] [エリア|エリア中] [弾数N]」の形で書いてください（例: \"ショットガン d8 stop:d12\"）。"
        ),
    )
}

fn small_number(key: &str, n: &str, min: i64, max: i64) -> Result<u32, SheetError> {
    let v: i64 = n
        .trim_matches(|c| c == '(' || c == ')' || c == '（' || c == '）')
        .parse()
        .map_err(|_| {
            sheet_err(
                key,
                &format!("`{n}` is not a number."),
                &format!("「{n}」は数ではありません。"),
            )
        })?;
    within(v, min, max, || {
        sheet_err(
            key,
            &format!("{v} is not between {min} and {max}."),
            &format!("{v}は{min}〜{max}の範囲外です。"),
        )
    })?;
    Ok(v as u32)
}

/// One token of a weapon line changing `w`; `Ok(false)`: not a weapon word (part of the name).
fn apply_token(key: &str, w: &mut Weapon, raw: &str) -> Result<bool, SheetError> {
    let t = raw.to_lowercase();
    let t = t.as_str();
    let die = |s: &str| {
        Die::parse(s).map_err(|_| {
            sheet_err(
                key,
                &format!("`{s}` is not a die."),
                &format!("「{s}」はダイスではありません。"),
            )
        })
    };
    match t {
        "cc" | "接近戦" => w.reach = Some(Reach::Cc),
        "short" | "近" => w.reach = Some(Reach::Short),
        "long" | "遠" => w.reach = Some(Reach::Long),
        "2/1" | "semi_auto" | "semi" | "セミオート" => w.semi_auto = true,
        "heavy" | "重火器" => w.heavy = true,
        "area" | "area_small" | "エリア" | "エリア小" | "エリア（小）" => {
            w.area = Some(Area::Small)
        }
        "area_medium" | "エリア中" | "エリア（中）" => w.area = Some(Area::Medium),
        "stopping" | "stopping_power" | "ストッピングパワー" => w.stopping_power = true,
        _ => {
            if let Some(flag) = WeaponFlag::ALL
                .into_iter()
                .find(|f| f.key() == t || f.name(Lang::Ja) == t || f.name(Lang::En).to_lowercase() == t)
            {
                if !w.flags.contains(&flag) {
                    w.flags.push(flag);
                }
            } else if let Some(n) = ["rof=", "rof:", "rof", "射撃回数"]
                .iter()
                .find_map(|p| t.strip_prefix(p))
            {
                w.rof = small_number(key, n, 1, 10)?;
                w.semi_auto = false;
            } else if let Some(n) = ["ammo=", "ammo:", "ammo", "limited", "弾数制限", "弾数"]
                .iter()
                .find_map(|p| t.strip_prefix(p))
            {
                w.limited_ammo = Some(small_number(key, n, 1, 99)?);
            } else if let Some(d) = ["stop:", "stop=", "stop", "ストッピング:"]
                .iter()
                .find_map(|p| t.strip_prefix(p))
            {
                w.stopping_power = true;
                w.stopping_die = Some(die(d)?);
            } else if let Some(d) = ["power:", "power=", "パワー:"]
                .iter()
                .find_map(|p| t.strip_prefix(p))
            {
                w.power = Some(die(d)?);
            } else if looks_like_die(t) {
                w.power = Some(die(t)?);
            } else {
                return Ok(false);
            }
        }
    }
    Ok(true)
}

/// `d8`, `Ｄ１２`: a die word (maybe not of the ladder, which is then refused as a die).
fn looks_like_die(t: &str) -> bool {
    let rest = t.trim_start_matches(['d', 'ｄ', 'Ｄ']);
    rest.len() < t.len()
        && !rest.is_empty()
        && rest
            .chars()
            .all(|c| c.is_ascii_digit() || ('０'..='９').contains(&c))
}

/// `Plasma gun d10`, `プラズマガン d10`, `Railgun long rof2 d12 heavy` → a weapon. The longest
/// leading words naming an armoury (or session) weapon take its row; the rest change it. A name
/// found nowhere is a new weapon, which needs its range.
pub fn parse(key: &str, value: &str, custom: &[Weapon]) -> Result<Weapon, SheetError> {
    let tokens: Vec<&str> = value.split([' ', '　', ';']).filter(|t| !t.is_empty()).collect();
    if tokens.is_empty() {
        return Err(sheet_err(key, "no name.", "名前がありません。"));
    }
    let known = (1..=tokens.len())
        .rev()
        .find_map(|n| find(custom, &tokens[..n].join(" ")).map(|w| (n, w.clone())));
    let shipped = known.is_some();
    let (mut w, rest) = match known {
        Some((n, w)) => (w, &tokens[n..]),
        None => {
            let mut probe = Weapon::new("", None, 1);
            let n = tokens
                .iter()
                .position(|t| apply_token(key, &mut probe, t).unwrap_or(true))
                .unwrap_or(tokens.len());
            if n == 0 {
                return Err(sheet_err(key, "no name.", "名前がありません。"));
            }
            (Weapon::new(&tokens[..n].join(" "), None, 1), &tokens[n..])
        }
    };
    for t in rest {
        if !apply_token(key, &mut w, t)? {
            return Err(sheet_err(
                key,
                &format!("unknown word `{t}`."),
                &format!("「{t}」は読めません。"),
            ));
        }
    }
    if w.name.chars().count() > 40 || w.name.parse::<f64>().is_ok() {
        return Err(sheet_err(
            key,
            "the name is 1–40 characters and not a number.",
            "名前は1〜40文字で、数字だけにはできません。",
        ));
    }
    if w.reach.is_none() && !shipped {
        return Err(sheet_err(
            key,
            "a new weapon needs its range (cc, short or long).",
            "新しい武器には射程（接近戦・近・遠）が必要です。",
        ));
    }
    Ok(w)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn armoury(name: &str) -> Weapon {
        find(&[], name).unwrap().clone()
    }

    #[test]
    fn bands_read_their_numbers_and_reach() {
        let t: Vec<u32> = [Band::Cc, Band::Close, Band::Short, Band::Long]
            .iter()
            .map(|b| b.threshold())
            .collect();
        assert_eq!(t, [3, 4, 5, 6]);
        assert!(Band::Cc.within_short() && Band::Close.within_short() && Band::Short.within_short());
        assert!(!Band::Long.within_short());
        assert_eq!(Band::parse("至近"), Ok(Band::Close));
        assert_eq!(Band::parse("LONG"), Ok(Band::Long));
        assert!(Band::parse("far").is_err());
    }

    #[test]
    fn reach_follows_tg8() {
        use Band::*;
        let ok = |r: Reach| [Cc, Close, Short, Long].map(|b| r.reaches(b));
        assert_eq!(ok(Reach::Cc), [true, false, false, false]);
        assert_eq!(ok(Reach::Short), [false, true, true, false]);
        assert_eq!(ok(Reach::Long), [false, true, true, true]);
        let pistol = armoury("pistol");
        assert!(matches!(
            pistol.check_band(Cc, false),
            Err(RuleError::RangedAtCc { .. })
        ));
        assert!(matches!(
            pistol.check_band(Long, false),
            Err(RuleError::OutOfBand { .. })
        ));
        assert_eq!(pistol.check_band(Cc, true), Ok(()), "See you in hell");
        let knife = armoury("combat knife");
        assert!(matches!(
            knife.check_band(Close, false),
            Err(RuleError::OutOfBand { .. })
        ));
        assert!(matches!(
            knife.check_band(Cc, true),
            Err(RuleError::HellNeedsRanged { .. })
        ));
        assert!(matches!(
            armoury("chain gun").check_band(Long, false),
            Err(RuleError::MissingRange { .. })
        ));
    }

    #[test]
    fn semi_auto_and_stopping_power_change_with_the_band() {
        let ar = armoury("アサルトライフル");
        assert_eq!(
            [Band::Cc, Band::Close, Band::Short, Band::Long].map(|b| ar.rof_at(b)),
            [2, 2, 2, 1]
        );
        assert_eq!(armoury("minigun").rof_at(Band::Long), 5);
        let mut sg = armoury("shotgun");
        assert!(matches!(
            sg.power_at(Band::Close),
            Err(RuleError::MissingDie {
                field: DieField::StoppingPower,
                ..
            })
        ));
        sg.power = Some(Die::D8);
        sg.stopping_die = Some(Die::D12);
        assert_eq!(sg.power_at(Band::Close), Ok(Die::D12));
        assert_eq!(sg.power_at(Band::Short), Ok(Die::D8));
    }

    #[test]
    fn the_armoury_keeps_the_tables() {
        assert_eq!(ARMOURY.len(), 31);
        let rl = armoury("rocket launcher [AT]");
        assert_eq!((rl.reach, rl.heavy, rl.rof), (LONG, true, 1));
        let he = armoury("ロケットランチャー［HE］");
        assert_eq!((he.reach, he.area), (None, Some(Area::Medium)));
        assert_eq!(armoury("RPG").limited_ammo, Some(1));
        assert!(armoury("mortar").flags.contains(&WeaponFlag::IndirectFire));
        assert!(
            ARMOURY.iter().all(|w| w.power.is_none()),
            "the seed lost every power die"
        );
        assert_eq!(display_name("Plasma gun", Lang::Ja), "プラズマガン");
    }

    #[test]
    fn weapon_lines_parse_armoury_names_and_new_weapons() {
        let w = parse("weapon1", "Plasma gun d10", &[]).unwrap();
        assert_eq!(
            (w.name.as_str(), w.power, w.rof),
            ("Plasma gun", Some(Die::D10), 2)
        );
        let w = parse("武器1", "ショットガン d8 stop:d12", &[]).unwrap();
        assert_eq!((w.power, w.stopping_die), (Some(Die::D8), Some(Die::D12)));
        let w = parse("w", "Railgun long rof2 d12 heavy ammo3 sniper", &[]).unwrap();
        assert_eq!(w.name, "Railgun");
        assert_eq!(
            (w.reach, w.rof, w.power, w.heavy, w.limited_ammo),
            (LONG, 2, Some(Die::D12), true, Some(3))
        );
        assert_eq!(w.flags, vec![WeaponFlag::Sniper]);
        let custom = vec![w];
        assert_eq!(parse("w", "railgun", &custom).unwrap().power, Some(Die::D12));
        let bad = |v: &str| parse("weapon2", v, &[]).unwrap_err();
        assert!(bad("Railgun d12").en.contains("needs its range"));
        assert!(bad("Pistol d7").en.contains("not a die"));
        assert!(bad("Pistol rof11").ja.contains("1〜10"));
        assert!(bad("Pistol d6 sideways").en.contains("unknown word"));
        assert!(bad("d6").en.contains("no name"));
    }
}
