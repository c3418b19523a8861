//! Profiles (§2): the stats a character starts from. The seed lost every die icon, so skill and
//! resolution are unset except the Endoskeleton's inferred D20 (L253); armour and specials are
//! reconstructed by column order (TG-12), Mindless added to the machines (TG-7).
//!
//! A session may define its own profiles or override a shipped one (same name): they are looked
//! up first ([`Library`]).

use std::sync::LazyLock;

use serde::{Deserialize, Serialize};

use super::dice::Die;
use super::weapon::{self, Weapon};
use crate::i18n::Lang;

/// Character specials named without text (shown as flags, resolved by nobody).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "flag", content = "n")]
pub enum Flag {
    MasterTactician,
    Machine,
    Guardian,
    Infiltrator,
    MimeticPolyalloy,
    Sprint,
    Friend,
    Vehicle,
    Vtol,
    Fast,
    Size(u32),
    Transport(u32),
}

impl Flag {
    const PLAIN: [Flag; 10] = [
        Flag::MasterTactician,
        Flag::Machine,
        Flag::Guardian,
        Flag::Infiltrator,
        Flag::MimeticPolyalloy,
        Flag::Sprint,
        Flag::Friend,
        Flag::Vehicle,
        Flag::Vtol,
        Flag::Fast,
    ];

    pub fn name(self, lang: Lang) -> String {
        let s = |en: &str, ja: &str| lang.pick(en, ja).to_string();
        match self {
            Flag::MasterTactician => s("Master Tactician", "類い稀な策士"),
            Flag::Machine => s("Machine", "マシン"),
            Flag::Guardian => s("Guardian", "ガーディアン"),
            Flag::Infiltrator => s("Infiltrator", "潜伏者"),
            Flag::MimeticPolyalloy => s("Mimetic Polyalloy", "流体多結晶合金"),
            Flag::Sprint => s("Sprint", "スプリント"),
            Flag::Friend => s("Friend?", "味方？"),
            Flag::Vehicle => s("Vehicle", "ビークル"),
            Flag::Vtol => s("VTOL", "ＶＴＯＬ"),
            Flag::Fast => s("Fast", "急速"),
            Flag::Size(n) => format!("{}({n})", lang.pick("Size", "サイズ")),
            Flag::Transport(n) => format!("{}({n})", lang.pick("Transport", "輸送車")),
        }
    }

    fn key(self) -> &'static str {
        match self {
            Flag::MasterTactician => "master_tactician",
            Flag::Machine => "machine",
            Flag::Guardian => "guardian",
            Flag::Infiltrator => "infiltrator",
            Flag::MimeticPolyalloy => "mimetic_polyalloy",
            Flag::Sprint => "sprint",
            Flag::Friend => "friend",
            Flag::Vehicle => "vehicle",
            Flag::Vtol => "vtol",
            Flag::Fast => "fast",
            Flag::Size(_) => "size",
            Flag::Transport(_) => "transport",
        }
    }

    /// `vtol`, `マシン`, `size3`, `size(3)`, `輸送車(7)`; `None`: not a flag.
    pub fn parse(input: &str) -> Option<Flag> {
        let t = input.trim().to_lowercase().replace([' ', '-'], "_");
        if let Some(f) = Flag::PLAIN.into_iter().find(|f| {
            f.key() == t || f.name(Lang::Ja) == t || f.name(Lang::En).to_lowercase().replace(' ', "_") == t
        }) {
            return Some(f);
        }
        let number = |rest: &str| -> Option<u32> {
            rest.trim_matches(|c| matches!(c, '(' | ')' | '（' | '）' | '_'))
                .parse()
                .ok()
                .filter(|n| (0..=99).contains(n))
        };
        if let Some(rest) = ["size", "サイズ"].iter().find_map(|p| t.strip_prefix(p)) {
            return number(rest).map(Flag::Size);
        }
        if let Some(rest) = ["transport", "輸送車"].iter().find_map(|p| t.strip_prefix(p)) {
            return number(rest).map(Flag::Transport);
        }
        None
    }
}

/// A profile: the stats and specials the rules read, and the armament.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Profile {
    pub name: String,
    #[serde(default)]
    pub ja: String,
    #[serde(default)]
    pub skill: Option<Die>,
    /// The damage roll needs this or more (4 = "4+").
    pub armour: u32,
    #[serde(default)]
    pub resolution: Option<Die>,
    /// Command(N); 0: not a commander (item 22).
    #[serde(default)]
    pub command: u32,
    /// Damage limit(N); 0: none, the first damaging roll kills (TG-4).
    #[serde(default)]
    pub damage_limit: u32,
    #[serde(default)]
    pub mindless: bool,
    #[serde(default)]
    pub ill_be_back: bool,
    #[serde(default)]
    pub slow: bool,
    #[serde(default)]
    pub flags: Vec<Flag>,
    /// "(1)" after the name: shown, not enforced.
    #[serde(default)]
    pub unique: bool,
    #[serde(default)]
    pub weapons: Vec<Weapon>,
}

impl Profile {
    pub fn new(name: &str, ja: &str, armour: u32) -> Profile {
        Profile {
            name: name.to_string(),
            ja: ja.to_string(),
            skill: None,
            armour,
            resolution: None,
            command: 0,
            damage_limit: 0,
            mindless: false,
            ill_be_back: false,
            slow: false,
            flags: Vec::new(),
            unique: false,
            weapons: Vec::new(),
        }
    }

    pub fn display_name(&self, lang: Lang) -> String {
        let base = match lang {
            Lang::Ja if !self.ja.is_empty() => self.ja.clone(),
            _ => self.name.clone(),
        };
        if self.unique { format!("{base} (1)") } else { base }
    }

    /// Every special on one line.
    pub fn specials(&self, lang: Lang) -> Vec<String> {
        let mut out = Vec::new();
        if self.command > 0 {
            out.push(format!("{}({})", lang.pick("Command", "コマンド"), self.command));
        }
        if self.damage_limit > 0 {
            out.push(format!(
                "{}({})",
                lang.pick("Damage limit", "損傷限界値"),
                self.damage_limit
            ));
        }
        if self.mindless {
            out.push(lang.pick("Mindless", "マインドレス").to_string());
        }
        if self.ill_be_back {
            out.push(lang.pick("I'll Be Back", "アイル ビー バック").to_string());
        }
        if self.slow {
            out.push(lang.pick("Slow", "低速").to_string());
        }
        out.extend(self.flags.iter().map(|f| f.name(lang)));
        out
    }
}

/// The name of the profile I'll Be Back swaps in (item 31).
pub const CRAWLER: &str = "Crawler";

fn p(name: &str, ja: &str, armour: u32, f: impl FnOnce(&mut Profile)) -> Profile {
    let mut pr = Profile::new(name, ja, armour);
    f(&mut pr);
    pr
}

fn armed(names: &[&str]) -> Vec<Weapon> {
    names
        .iter()
        .filter_map(|n| weapon::find(&[], n).cloned())
        .collect()
}

/// §2's profiles, quick-play first. The quick-play Resistance Soldier carries its combat knife;
/// its second weapon is the player's choice (L171–173).
pub static SHIPPED: LazyLock<Vec<Profile>> = LazyLock::new(|| {
    use Flag::*;
    vec![
        p(
            "Resistance Soldier",
            "レジスタンス ソルジャー",
            4,
            |x| {
                x.weapons = armed(&["Combat knife"]);
            },
        ),
        p("Endoskeleton", "エンドスケルトン", 8, |x| {
            x.resolution = Some(Die::D20);
            x.mindless = true;
            x.ill_be_back = true;
            x.weapons = armed(&["Terminator claw", "Plasma gun"]);
        }),
        p(CRAWLER, "クローラー", 8, |x| {
            x.slow = true;
            x.mindless = true;
            x.weapons = armed(&["Terminator claw"]);
        }),
        p("Resistance NCO", "レジスタンス ＮＣＯ", 4, |x| {
            x.command = 1
        }),
        p(
            "Resistance Captain",
            "レジスタンス キャプテン",
            4,
            |x| x.command = 1,
        ),
        p(
            "John Connor's Lieutenant",
            "ジョン・コナーの補佐官",
            4,
            |x| {
                x.command = 2;
                x.damage_limit = 2;
            },
        ),
        p("Kyle Reese", "カイル・リース", 4, |x| {
            x.command = 3;
            x.damage_limit = 2;
            x.unique = true;
        }),
        p("John Connor", "ジョン・コナー", 4, |x| {
            x.command = 5;
            x.damage_limit = 2;
            x.flags = vec![MasterTactician];
            x.unique = true;
        }),
        p("Sarah Connor", "サラ・コナー", 3, |x| {
            x.command = 3;
            x.damage_limit = 2;
            x.unique = true;
        }),
        p("Guardian", "ガーディアン", 8, |x| {
            x.ill_be_back = true;
            x.mindless = true;
            x.flags = vec![Machine, Guardian];
            x.unique = true;
        }),
        p("Cop", "コップ・刑事", 3, |_| {}),
        p("SWAT", "SWAT", 4, |_| {}),
        p("Abrams MBT", "エイブラムス主力戦車", 10, |x| {
            x.damage_limit = 3;
            x.flags = vec![Vehicle];
        }),
        p("Bradley AFV", "ブラッドレー装甲車", 8, |x| {
            x.damage_limit = 2;
            x.flags = vec![Vehicle, Transport(7)];
        }),
        p("Car", "車", 5, |x| {
            x.flags = vec![Vehicle, Size(2), Transport(3)]
        }),
        p("Humvee", "ハンヴィー", 7, |x| {
            x.damage_limit = 2;
            x.flags = vec![Vehicle, Transport(4)];
        }),
        p("Pickup truck", "ピックアップトラック", 5, |x| {
            x.flags = vec![Vehicle, Size(2), Transport(6)];
        }),
        p("Truck", "トラック", 6, |x| {
            x.damage_limit = 2;
            x.flags = vec![Vehicle, Transport(12)];
        }),
        p("Apache attack helicopter", "アパッチ 攻撃ヘリ", 6, |x| {
            x.damage_limit = 2;
            x.flags = vec![Vehicle, Vtol, Fast];
        }),
        p(
            "Black Hawk transport helicopter",
            "ブラックホーク 輸送ヘリ",
            6,
            |x| {
                x.damage_limit = 2;
                x.flags = vec![Vehicle, Vtol, Fast, Transport(10)];
            },
        ),
        p("T-1000", "T-1000", 8, |x| {
            x.damage_limit = 3;
            x.command = 2;
            x.mindless = true;
            x.flags = vec![Infiltrator, MimeticPolyalloy, Sprint];
        }),
        p(
            "Cyborg Infiltrator",
            "サイボーグ インフィルトレイター",
            8,
            |x| {
                x.ill_be_back = true;
                x.mindless = true;
                x.flags = vec![Infiltrator];
            },
        ),
        p(
            "Prototype Infiltrator",
            "プロトタイプ インフィルトレイター",
            8,
            |x| {
                x.ill_be_back = true;
                x.mindless = true;
                x.flags = vec![Friend];
            },
        ),
        p("Spider Tank", "スパイダータンク", 9, |x| {
            x.damage_limit = 2;
            x.mindless = true;
            x.flags = vec![Size(3)];
        }),
        p(
            "Hunter-Killer Gunship",
            "ハンターキラーガンシップ",
            8,
            |x| {
                x.damage_limit = 2;
                x.mindless = true;
                x.flags = vec![Vehicle, Vtol, Fast, Transport(6)];
            },
        ),
        p(
            "Hunter-Killer truck",
            "ハンターキラートラック",
            9,
            |x| {
                x.damage_limit = 3;
                x.mindless = true;
                x.flags = vec![Vehicle];
            },
        ),
    ]
});

fn fold(s: &str) -> String {
    s.trim().to_lowercase().replace(['_', '-', '　', '・'], " ")
}

/// Profiles and weapons a session reads: its own first, then §2.
#[derive(Debug, Clone, Copy, Default)]
pub struct Library<'a> {
    pub profiles: &'a [Profile],
    pub weapons: &'a [Weapon],
}

impl<'a> Library<'a> {
    /// §2 only (what `/char` reads without a session).
    pub fn shipped() -> Library<'static> {
        Library::default()
    }

    /// A profile by its English or Japanese name.
    pub fn profile(&self, input: &str) -> Option<&'a Profile> {
        let t = fold(input);
        let hit = |p: &&Profile| fold(&p.name) == t || (!p.ja.is_empty() && fold(&p.ja) == t);
        self.profiles
            .iter()
            .find(hit)
            .or_else(|| SHIPPED.iter().find(hit))
    }

    /// The Crawler I'll Be Back swaps in.
    pub fn crawler(&self) -> Profile {
        self.profile(CRAWLER)
            .cloned()
            .unwrap_or_else(|| Profile::new(CRAWLER, "クローラー", 8))
    }

    pub fn weapon(&self, input: &str) -> Option<&'a Weapon> {
        weapon::find(self.weapons, input)
    }

    /// Every profile name, the session's first (autocomplete).
    pub fn names(&self) -> Vec<String> {
        let mut out: Vec<String> = self.profiles.iter().map(|p| p.name.clone()).collect();
        for p in SHIPPED.iter() {
            if !out.iter().any(|n| fold(n) == fold(&p.name)) {
                out.push(p.name.clone());
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_profiles_keep_the_tables() {
        let lib = Library::shipped();
        assert_eq!(SHIPPED.len(), 26);
        let endo = lib.profile("エンドスケルトン").unwrap();
        assert_eq!(
            (endo.armour, endo.resolution, endo.skill),
            (8, Some(Die::D20), None)
        );
        assert!(endo.mindless && endo.ill_be_back);
        assert_eq!(
            endo.weapons.iter().map(|w| w.name.as_str()).collect::<Vec<_>>(),
            ["Terminator claw", "Plasma gun"]
        );
        let crawler = lib.crawler();
        assert!(crawler.slow && crawler.mindless && !crawler.ill_be_back);
        assert_eq!(crawler.resolution, None, "the Crawler's resolution is lost");
        let jc = lib.profile("john connor").unwrap();
        assert_eq!((jc.command, jc.damage_limit, jc.unique), (5, 2, true));
        assert_eq!(jc.display_name(Lang::Ja), "ジョン・コナー (1)");
        assert_eq!(lib.profile("Sarah Connor").unwrap().armour, 3);
        assert_eq!(lib.profile("T-1000").unwrap().command, 2);
        // TG-7: Mindless on every machine and the Guardian; on no Resistance human.
        for name in [
            "Guardian",
            "T-1000",
            "Spider Tank",
            "Hunter-Killer truck",
            "Cyborg Infiltrator",
        ] {
            assert!(lib.profile(name).unwrap().mindless, "{name}");
        }
        assert!(!lib.profile("SWAT").unwrap().mindless);
        assert!(SHIPPED.iter().all(|p| p.skill.is_none()));
        assert_eq!(
            SHIPPED.iter().filter(|p| p.resolution.is_some()).count(),
            1,
            "only the Endoskeleton's D20 survives"
        );
        assert_eq!(
            lib.profile("Black Hawk transport helicopter")
                .unwrap()
                .specials(Lang::En),
            ["Damage limit(2)", "Vehicle", "VTOL", "Fast", "Transport(10)"]
        );
    }

    #[test]
    fn a_session_profile_overrides_the_shipped_one() {
        let mut mine = SHIPPED[2].clone();
        mine.resolution = Some(Die::D10);
        let custom = [mine];
        let lib = Library {
            profiles: &custom,
            weapons: &[],
        };
        assert_eq!(lib.crawler().resolution, Some(Die::D10));
        assert_eq!(lib.names().iter().filter(|n| *n == CRAWLER).count(), 1);
    }

    #[test]
    fn flags_parse_in_both_languages() {
        assert_eq!(Flag::parse("vtol"), Some(Flag::Vtol));
        assert_eq!(Flag::parse("マシン"), Some(Flag::Machine));
        assert_eq!(Flag::parse("size(3)"), Some(Flag::Size(3)));
        assert_eq!(Flag::parse("輸送車（7）"), Some(Flag::Transport(7)));
        assert_eq!(Flag::parse("Master Tactician"), Some(Flag::MasterTactician));
        assert_eq!(Flag::parse("flying"), None);
        assert_eq!(Flag::parse("size"), None);
    }
}
