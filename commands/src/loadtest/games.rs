//! The scripted games of `saikoro loadtest --game`: for each system, the lines that set a
//! table up (typed once in each session's channel) and the commands and buttons of an evening,
//! each measured as a phase of its own ([`super::game_run`]). A phase may have preparation
//! lines, sent before each measured interaction and not measured: the command whose button a
//! press phase presses, or the line that makes a turn command repeatable. Lines are console
//! lines (`saikoro console`), typed by a member with every permission (the GM).

use serde::Serialize;

/// The options of `--game`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct GameOptions {
    /// Play a system's scripted evening instead (see `games.rs`): every command and button,
    /// each measured as a phase of --count interactions over --sessions channels.
    #[arg(long, value_enum)]
    pub game: Option<Game>,
    /// With --game: fill each session's log to this many rolls before the phases.
    #[arg(long)]
    pub fill_rolls: Option<u64>,
    /// With --game: only the phases whose command contains this (repeatable).
    #[arg(long = "phase")]
    pub phases: Vec<String>,
    /// With --game --floor: the floor's own number of interactions per burst (default
    /// --count); a burst runs before the first system's phases and after each system's.
    #[arg(long)]
    pub floor_count: Option<u64>,
}

/// Which game to play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Game {
    /// `/roll` and the generic commands, no session system.
    Roll,
    Shadowrun4,
    #[value(name = "badlands_rally", alias = "badlands-rally")]
    BadlandsRally,
    Warmachine,
    Terminator,
    #[value(name = "mecha_d20", alias = "mecha-d20")]
    MechaD20,
    /// Every game above, one after the other.
    All,
}

impl Game {
    pub fn key(self) -> &'static str {
        match self {
            Game::Roll => "roll",
            Game::Shadowrun4 => "shadowrun4",
            Game::BadlandsRally => "badlands_rally",
            Game::Warmachine => "warmachine",
            Game::Terminator => "terminator",
            Game::MechaD20 => "mecha_d20",
            Game::All => "all",
        }
    }
}

/// What a phase measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// A command line.
    Line(&'static str),
    /// The button whose label starts with this, on the answer to the phase's last preparation
    /// line.
    Press(&'static str),
}

/// One measured command (or press), with its unmeasured preparation.
#[derive(Debug, Clone, Copy)]
pub struct Phase {
    pub prep: &'static [&'static str],
    pub measured: Step,
    /// Lines sent after it, not measured, that bring the table back to where the phase
    /// started (a turn's remaining steps).
    pub post: &'static [&'static str],
    /// At most this many measured interactions, whatever `--count` (the worst `/odds` inputs,
    /// timed rather than loaded).
    pub cap: Option<u64>,
}

/// How many times a worst case is timed.
pub const WORST_CASE_COUNT: u64 = 20;

impl Phase {
    pub const fn line(line: &'static str) -> Phase {
        Phase {
            prep: &[],
            measured: Step::Line(line),
            post: &[],
            cap: None,
        }
    }

    /// The slowest input a command accepts: timed [`WORST_CASE_COUNT`] times.
    pub const fn worst(line: &'static str) -> Phase {
        Phase {
            prep: &[],
            measured: Step::Line(line),
            post: &[],
            cap: Some(WORST_CASE_COUNT),
        }
    }

    /// `line`, after `prep` (which makes it repeatable).
    pub const fn after(prep: &'static [&'static str], line: &'static str) -> Phase {
        Phase {
            prep,
            measured: Step::Line(line),
            post: &[],
            cap: None,
        }
    }

    /// `line` in a cycle: after `prep`, and followed by `post`.
    pub const fn cycle(
        prep: &'static [&'static str],
        line: &'static str,
        post: &'static [&'static str],
    ) -> Phase {
        Phase {
            prep,
            measured: Step::Line(line),
            post,
            cap: None,
        }
    }

    /// Press `label` on the answer to the last of `prep`.
    pub const fn press(prep: &'static [&'static str], label: &'static str) -> Phase {
        Phase {
            prep,
            measured: Step::Press(label),
            post: &[],
            cap: None,
        }
    }

    /// How the report names it.
    pub fn name(&self) -> String {
        match self.measured {
            Step::Line(l) => l.to_string(),
            Step::Press(label) => {
                let on: Vec<&str> = self
                    .prep
                    .last()
                    .map_or(vec![], |l| l.split(' ').take(2).collect());
                format!("press {label} (on {})", on.join(" "))
            }
        }
    }
}

/// A system's evening.
#[derive(Debug)]
pub struct Script {
    pub game: Game,
    pub setup: &'static [&'static str],
    pub phases: &'static [Phase],
}

/// The scripts `game` stands for.
pub fn scripts(game: Game) -> Vec<&'static Script> {
    let all = [
        &ROLL,
        &SHADOWRUN4,
        &BADLANDS_RALLY,
        &WARMACHINE,
        &TERMINATOR,
        &MECHA_D20,
    ];
    all.into_iter()
        .filter(|s| game == Game::All || s.game == game)
        .collect()
}

/// The commands every session has: status, log, export, recap, luck, a sheet, and the
/// stateless roll (each system edits its own sheet field).
macro_rules! session_phases {
    ($($phase:expr),* $(,)?) => {
        [
            Phase::line("/roll dice:2d6"),
            Phase::line("/session status"),
            Phase::line("/session log"),
            Phase::line("/session export"),
            Phase::line("/session recap"),
            Phase::line("/session luck"),
            Phase::line("/char show name:A"),
            $($phase),*
        ]
    };
}

pub static ROLL: Script = Script {
    game: Game::Roll,
    setup: &[],
    phases: &[
        Phase::line("/roll dice:2d6"),
        Phase::line("/roll dice:4d6 k3"),
        Phase::line("/roll dice:3B6>=5"),
        Phase::line("/odds roll expression:2d6>=7"),
        // Among the largest expressions /odds computes exactly (100d100k50 is refused).
        Phase::worst("/odds roll expression:200d100"),
    ],
};

pub static SHADOWRUN4: Script = Script {
    game: Game::Shadowrun4,
    setup: &[
        "/session start name:Run system:shadowrun4",
        "/char add name:A owner:@alice stats:body=4 agility=5 reaction=4 intuition=3 logic=3 willpower=3 strength=3 charisma=2 edge=3 pistols=5 dodge=2 armour=6/4 pilot_ground_craft=3",
        "/char add name:Bob owner:@bob stats:body=4 agility=3 reaction=3 intuition=3 willpower=3 edge=1 armour=6/4",
        "/char add name:Mage owner:@mia stats:body=3 willpower=4 logic=4 magic=5 edge=2 spellcasting=4 summoning=3 counterspelling=2 tradition=hermetic",
        "/char add name:Techno stats:body=3 willpower=4 resonance=4 edge=2 software=4 compiling=3",
        "/roll dice:2d6",
    ],
    phases: &session_phases![
        Phase::line("/char edit name:A stats:charisma=2"),
        Phase::line("/sr test character:A attribute:agility skill:pistols threshold:2"),
        Phase::line("/sr test pool:8 threshold:2"),
        Phase::line(
            "/sr opposed character:A attribute:agility skill:pistols opponent:Bob opponent_attribute:reaction opponent_attribute2:intuition"
        ),
        Phase::line("/sr extended pool:6 threshold:8"),
        Phase::line("/sr teamwork assistants:Bob character:A attribute:agility skill:pistols threshold:3"),
        Phase::line("/sr attack attacker:A target:Bob skill:pistols dv:5 ap:-1 weapon:Ares Predator"),
        Phase::line("/sr initiative roll"),
        Phase::after(&["/sr initiative roll"], "/sr initiative next"),
        Phase::line("/sr surprise aware:A ambush:Bob"),
        Phase::line("/sr spell caster:Mage force:3 drain:3 target:Bob"),
        Phase::line("/sr dispel caster:Mage force:3 magic:4 drain:2 hits:2"),
        Phase::line("/sr summon caster:Mage force:4"),
        Phase::line("/sr thread character:Techno rating:3"),
        Phase::line("/sr compile character:Techno rating:3"),
        Phase::line("/sr-matrix cybercombat attack:8 defence:6 dv:5 resist:6 target:black IC (stun)"),
        Phase::line("/sr-matrix hack pool:8 firewall:4 node:6 stealth:4"),
        Phase::line("/sr-matrix perception pool:6 hidden:4"),
        Phase::line("/sr-rig sensor pool:6 threshold:2"),
        Phase::line("/sr-rig crash damage:8 body:6 pool:7"),
        Phase::line("/sr-rig chase pool:7 quarry_pool:6 current:near"),
        Phase::line("/sr-rig feedback damage:5 character:Bob filter:1"),
        Phase::line("/sr-rig cutoff band:close target_pool:2 pool:4"),
        Phase::line("/odds sr character:A attribute:agility skill:pistols threshold:2"),
        Phase::line("/odds sr pool:12 threshold:3 edge:2"),
        Phase::worst("/odds sr pool:80 threshold:100 edge:20"),
        Phase::worst("/odds sr pool:80 opposed:100 edge:20"),
        // Each round heals Bob and gives A its Edge back (unmeasured), so every round presses
        // on a table like the first (without it Bob dies and A's Edge runs out in a few).
        Phase {
            post: &["/char edit name:Bob stats:physical=0 stun=0"],
            ..Phase::press(
                &["/sr attack attacker:A target:Bob skill:pistols dv:5 ap:-1 weapon:Ares Predator"],
                "Apply damage"
            )
        },
        Phase {
            post: &["/char edit name:A stats:edge_points=3"],
            ..Phase::press(
                &["/sr test character:A attribute:agility skill:pistols threshold:2"],
                "Second chance"
            )
        },
    ],
};

pub static BADLANDS_RALLY: Script = Script {
    game: Game::BadlandsRally,
    setup: &[
        "/session start name:Cup system:badlands_rally",
        "/char add name:A owner:@alice model:jerboa stats:attack=4+ defence=3+ initiative=4+ mr=16 hits=2/1 ar=5 weapon1=\"Rifle 6 3-6/12 burst:1\"",
        "/char add name:Dart owner:@bob model:jerboa stats:attack=4+ defence=3+ initiative=4+ mr=16 hits=2/1 ar=30 weapon1=\"Rifle 6 3-6/12 burst:1\"",
        "/rally initiative",
        "/roll dice:2d6",
    ],
    phases: &session_phases![
        Phase::line("/char edit name:A stats:ar=5"),
        Phase::line("/rally roll rating:4 dice:3"),
        Phase::line("/rally check rating:4 dice:2"),
        Phase::line("/rally initiative"),
        Phase::cycle(
            &["/rally initiative"],
            "/rally activate gear:A speed:top",
            &["/rally end gear:A"]
        ),
        Phase::cycle(
            &["/rally initiative", "/rally activate gear:A speed:top"],
            "/rally attack attacker:A defender:Dart distance:4",
            &["/rally end gear:A"],
        ),
        // No end after it: a burn whose dice all come up 1 spins the gear out, which ends its
        // activation (and refused the end, 2 rounds in 200); the next round's initiative
        // starts over either way.
        Phase::cycle(
            &["/rally initiative", "/rally activate gear:A speed:top"],
            "/rally burn gear:A",
            &[]
        ),
        Phase::after(
            &["/rally initiative", "/rally activate gear:A speed:top"],
            "/rally end gear:A"
        ),
        Phase::line("/rally damage mos:1 pow:7 ar:5"),
        Phase::line("/rally status"),
        Phase::line("/rally scenario"),
        Phase::line("/rally upgrade"),
        Phase::line("/odds rally rating:4 dice:3 vs_rating:5 vs_dice:2 pow:7 ar:6"),
        Phase::worst("/odds rally rating:2 dice:60 vs_rating:2 vs_dice:60 pow:30 ar:0 heat:true blast:true"),
    ],
};

pub static WARMACHINE: Script = Script {
    game: Game::Warmachine,
    setup: &[
        "/session start name:Skirmish system:warmachine",
        "/char add name:A owner:@alice stats:controller=@alice mat=7 rat=4 def=13 arm=17 boxes=10 weapon1=\"Blade 13 melee\"",
        "/char add name:Jug owner:@bob stats:controller=@bob mat=7 rat=4 def=5 arm=30 boxes=100 weapon1=\"Axe 16 melee\"",
        "/wm-turn start",
        "/roll dice:2d6",
    ],
    phases: &session_phases![
        Phase::line("/char edit name:A stats:cmd=5"),
        Phase::line("/wm attack attacker:A target:Jug weapon:Blade"),
        Phase::line("/wm damage attacker:A target:Jug weapon:Blade"),
        Phase::line("/wm roll modifier:3 target:10"),
        Phase::line("/wm d3"),
        Phase::line("/wm rolloff question:LOS through the wreck? ruling:Wrecks block LOS"),
        Phase::line("/wm status"),
        Phase::cycle(
            &[],
            "/wm-effect add model:Jug preset:dark_shroud",
            &["/wm-effect remove model:Jug name:Dark Shroud"]
        ),
        Phase::after(
            &["/wm-effect add model:Jug preset:dark_shroud"],
            "/wm-effect remove model:Jug name:Dark Shroud"
        ),
        Phase::line("/wm-effect list"),
        Phase::cycle(
            &[],
            "/wm-turn activate model:A",
            &["/wm-turn end-activation", "/wm-turn end", "/wm-turn end"]
        ),
        Phase::cycle(
            &["/wm-turn activate model:A"],
            "/wm-turn end-activation",
            &["/wm-turn end", "/wm-turn end"]
        ),
        Phase::line("/wm-turn end"),
        Phase::line("/wm-ruling list"),
        Phase::line("/odds wm stat:6 def:12 pow:10 arm:14"),
        Phase::worst("/odds wm stat:30 def:0 boost:true pow:30 arm:0 damage_boost:true boxes:60"),
        Phase::press(
            &["/wm attack attacker:A target:Jug weapon:Blade"],
            "Boosted damage"
        ),
    ],
};

/// A Terminator turn up to the first impulse's Fate roll.
const TERM_TURN: &[&str] = &[
    "/term start side1:Resistance side2:Skynet",
    "/term rolloff",
    "press Resistance goes first",
];

pub static TERMINATOR: Script = Script {
    game: Game::Terminator,
    setup: &[
        "/session start name:Judgment system:terminator",
        "/char add name:A owner:@alice stats:side=Resistance profile=\"Kyle Reese\" skill=d8 resolution=d8 w1=\"Plasma rifle d10\"",
        "/char add name:T1 owner:@gm model:Endoskeleton stats:side=Skynet skill=d8 w1=\"Terminator claw d8\" w2=\"Plasma gun d10\"",
        "/term start side1:Resistance side2:Skynet",
        "/roll dice:2d6",
    ],
    phases: &session_phases![
        Phase::line("/char edit name:A stats:skill=d8"),
        Phase::line("/term start side1:Resistance side2:Skynet"),
        Phase::after(&["/term start side1:Resistance side2:Skynet"], "/term rolloff"),
        Phase::press(
            &["/term start side1:Resistance side2:Skynet", "/term rolloff"],
            "Resistance goes first"
        ),
        Phase::after(TERM_TURN, "/term fate"),
        Phase::line("/term attack band:CC (3+) skill:D12 rof:3"),
        Phase::line("/term damage die:D10 count:2 armour:8"),
        Phase::line("/term resolution die:D8 count:3"),
        Phase::line("/term ladder die:D12 count:3 target:7"),
        Phase::line("/term cover hits:3"),
        Phase::line("/term ibb"),
        Phase::line("/term status"),
        Phase::line("/odds term band:close (4+) attacker:A weapon:Plasma rifle target:T1"),
        Phase::line("/odds term band:long (6+) skill:D10 rof:2 power:D8 armour:6 resolution:D6 cover:true"),
        Phase::worst(
            "/odds term band:CC (3+) skill:D20 rof:50 power:D20 armour:2 resolution:D20 hell:true cover:true"
        ),
    ],
};

/// A mecha turn's steps, in order.
const MECHA_TURN: [&str; 5] = [
    "/mecha turn",
    "/mecha initiative",
    "/mecha phase",
    "/mecha phase",
    "/mecha apply",
];

pub static MECHA_D20: Script = Script {
    game: Game::MechaD20,
    setup: &[
        "/session start name:Ridge system:mecha_d20",
        "/char add name:A owner:@bob stats:squad=Red leader=yes judgement=3 tactics=2 concentration=4 shooting=3 reaction=3 evade=2 ap=5 spirit=10 durability=999 armour=4 evasion=1 escape_device=5 movement=4 w1=\"MG 2d6+3 r3 front left_arm\" w2=\"Axe 1d6+4 melee right_arm\"",
        "/char add name:Gouf owner:@alice stats:squad=Blue leader=yes judgement=2 tactics=3 concentration=3 shooting=4 reaction=3 evade=2 ap=5 spirit=10 durability=999 armour=3 evasion=1 escape_device=5 movement=4 w1=\"Rifle 2d6+2 r4 front right_arm\"",
        "/roll dice:2d6",
    ],
    phases: &session_phases![
        Phase::line("/char edit name:A stats:armour=4"),
        Phase::cycle(
            &[],
            MECHA_TURN[0],
            &[MECHA_TURN[1], MECHA_TURN[2], MECHA_TURN[3], MECHA_TURN[4]]
        ),
        Phase::cycle(
            &[MECHA_TURN[0]],
            MECHA_TURN[1],
            &[MECHA_TURN[2], MECHA_TURN[3], MECHA_TURN[4]]
        ),
        Phase::cycle(
            &[MECHA_TURN[0], MECHA_TURN[1]],
            MECHA_TURN[2],
            &[MECHA_TURN[3], MECHA_TURN[4]]
        ),
        Phase::after(
            &[MECHA_TURN[0], MECHA_TURN[1], MECHA_TURN[2], MECHA_TURN[3]],
            MECHA_TURN[4]
        ),
        Phase::press(&MECHA_TURN, "Fatigue check: A"),
        Phase::line("/mecha attack attack_mod:5 evasion_mod:5"),
        Phase::line("/mecha damage power:2d6+5 armour:4"),
        Phase::line("/mecha check ability:3 skill:2 modifier:-1 target:12"),
        Phase::line("/mecha survive check:faint base:10"),
        Phase::line("/mecha secondary"),
        Phase::line("/mecha status"),
        Phase::line("/odds mecha attack_mod:5 evasion_mod:3 power:2d6+3 armour:4"),
        Phase::worst("/odds mecha attack_mod:999 evasion_mod:-999 power:20d100+999 armour:0"),
    ],
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_system_has_a_script_and_all_plays_them_all() {
        assert_eq!(scripts(Game::All).len(), 6);
        for g in [
            Game::Roll,
            Game::Shadowrun4,
            Game::BadlandsRally,
            Game::Warmachine,
            Game::Terminator,
            Game::MechaD20,
        ] {
            let s = scripts(g);
            assert_eq!(s.len(), 1, "{g:?}");
            assert_eq!(s[0].game, g);
            assert!(
                s[0].phases.iter().any(|p| p.name().starts_with("/roll")),
                "{g:?} measures /roll"
            );
        }
        // A press names its button and the command it is on.
        let p = Phase::press(&["/wm attack attacker:A target:Jug"], "Boosted damage");
        assert_eq!(p.name(), "press Boosted damage (on /wm attack)");
    }

    #[test]
    fn the_game_option_reads_system_keys() {
        use clap::ValueEnum;
        for (text, g) in [
            ("shadowrun4", Game::Shadowrun4),
            ("badlands_rally", Game::BadlandsRally),
            ("badlands-rally", Game::BadlandsRally),
            ("warmachine", Game::Warmachine),
            ("terminator", Game::Terminator),
            ("mecha_d20", Game::MechaD20),
            ("roll", Game::Roll),
            ("all", Game::All),
        ] {
            assert_eq!(Game::from_str(text, true).unwrap(), g, "{text}");
        }
        assert!(Game::from_str("chess", true).is_err());
        // On the command line, with the options that go with it.
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            opts: crate::loadtest::LoadOptions,
        }
        use clap::Parser;
        let cli = Cli::try_parse_from([
            "loadtest",
            "--game",
            "badlands_rally",
            "--phase",
            "/rally",
            "--phase",
            "press",
            "--fill-rolls",
            "5000",
        ])
        .expect("parses");
        assert_eq!(cli.opts.games.game, Some(Game::BadlandsRally));
        assert_eq!(cli.opts.games.phases, ["/rally", "press"]);
        assert_eq!(cli.opts.games.fill_rolls, Some(5000));
        assert!(Cli::try_parse_from(["loadtest", "--game", "chess"]).is_err());
        assert_eq!(
            Cli::try_parse_from(["loadtest"]).expect("parses").opts.games.game,
            None
        );
    }
}
