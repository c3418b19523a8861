//! Terminator Genisys results: every die (hits, saves and damaging dice bold), the band and its
//! number, the save rule, I'll Be Back and the Crawler, resolution tests with their Reeling and
//! Retreat badges, the turn's steps, and the board on `/session status` — a field per side with
//! each character's Ready and Done markers, whose impulse it is and the Fate result.

use engine::i18n::Lang;
use engine::session::Session;
use engine::systems::terminator::attack::{
    AttackRoll, DamageRoll, IllBeBackRoll, ResolutionRoll, SaveRoll, SaveRule, TargetRun, TestResult,
};
use engine::systems::terminator::character::Removal;
use engine::systems::terminator::dice::{FateFace, FateRoll, LadderRoll, RollOff};
use engine::systems::terminator::sheet::badges;
use engine::systems::terminator::state::Phase;
use engine::systems::terminator::turn::{
    Activation, DoneOutcome, EndTurnOutcome, FateOutcome, OnYourFeetOutcome,
};
use engine::systems::terminator::{AttackReport, Band, Next, Stage, TerminatorState, Waiting};

use super::store::Chars;
use crate::embeds::{EmbedView, colour};

/// `[**7** 3 **6**]`: the faces, bold where `bold` holds.
pub fn faces(faces: &[u32], bold: impl Fn(u32) -> bool) -> String {
    let shown: Vec<String> = faces
        .iter()
        .map(|&f| {
            if bold(f) {
                format!("**{f}**")
            } else {
                f.to_string()
            }
        })
        .collect();
    format!("[{}]", shown.join(" "))
}

fn count(n: u32, one: &str, many: &str) -> String {
    if n == 1 {
        format!("{n} {one}")
    } else {
        format!("{n} {many}")
    }
}

pub fn band_text(band: Band, lang: Lang) -> String {
    format!("{} ({}+)", band.name(lang), band.threshold())
}

/// `D8 ×2 at 5+: [**5** 2] → 1 hit`.
pub fn attack_roll_line(a: &AttackRoll, lang: Lang) -> String {
    let hits = match lang {
        Lang::En => count(a.hits, "hit", "hits"),
        Lang::Ja => format!("命中{}", a.hits),
    };
    format!(
        "{} ×{} {} {}+: {} → **{hits}**",
        a.die,
        a.faces.len(),
        lang.pick("at", "目標"),
        a.threshold,
        faces(&a.faces, |f| f >= a.threshold)
    )
}

/// `D6 ×2 (4+): [**5** 2] → 1 saved, 1 through`.
pub fn save_line(s: &SaveRoll, lang: Lang) -> String {
    match lang {
        Lang::En => format!(
            "D6 ×{} (4+): {} → {} saved, {} through",
            s.faces.len(),
            faces(&s.faces, |f| f >= 4),
            s.saved,
            s.unsaved
        ),
        Lang::Ja => format!(
            "D6 ×{} (4+): {} → セーブ{}、通過{}",
            s.faces.len(),
            faces(&s.faces, |f| f >= 4),
            s.saved,
            s.unsaved
        ),
    }
}

pub fn no_save_text(rule: SaveRule, lang: Lang) -> &'static str {
    match rule {
        SaveRule::Allowed => "",
        SaveRule::NoCover => lang.pick(
            "no save: within short range with no cover",
            "セーブなし：近距離以内で遮蔽なし",
        ),
        SaveRule::Mindless => lang.pick("no save: Mindless", "セーブなし：マインドレス"),
        SaveRule::Hell => lang.pick(
            "no save: See you in hell, baby!",
            "セーブなし：地獄で会おうぜ、ベイビー！",
        ),
    }
}

/// `D10 ×1 vs 8+: [**9**] → 1 damaging · heavy`.
pub fn damage_line(d: &DamageRoll, show_heavy: bool, lang: Lang) -> String {
    let mut s = format!(
        "{} ×{} {} {}+: {} → **{}**",
        d.die,
        d.faces.len(),
        lang.pick("vs armour", "対アーマー"),
        d.armour,
        faces(&d.faces, |f| f >= d.armour),
        match lang {
            Lang::En => format!("{} damaging", d.damaging),
            Lang::Ja => format!("ダメージ{}", d.damaging),
        }
    );
    if d.heavy && show_heavy {
        s.push_str(lang.pick(
            " · heavy: the resolution die degrades",
            " · ヘヴィ：レゾリューションダイスが1段階低下",
        ));
    }
    s
}

pub fn test_text(r: TestResult, lang: Lang) -> &'static str {
    match r {
        TestResult::NoEffect => lang.pick("no effect", "効果なし"),
        TestResult::Reeling => lang.pick("💫 REELING", "💫 リーリング"),
        TestResult::Retreat => lang.pick("🏳️ RETREAT!", "🏳️ 撤退！"),
    }
}

/// `D20→D12 ×2: [4 1] → 💫 REELING, 🏳️ RETREAT!`.
pub fn resolution_line(r: &ResolutionRoll, lang: Lang) -> String {
    let die = if r.die == r.base {
        r.die.to_string()
    } else {
        format!("{}→{}", r.base, r.die)
    };
    let results: Vec<&str> = r.results.iter().map(|t| test_text(*t, lang)).collect();
    let mut s = format!(
        "{die} ×{}: {} → {}",
        r.faces.len(),
        faces(&r.faces, |f| f >= 6),
        results.join(", ")
    );
    if r.skipped > 0 {
        s.push_str(&match lang {
            Lang::En => format!(" ({} more not taken)", r.skipped),
            Lang::Ja => format!("（残り{}回は行わない）", r.skipped),
        });
    }
    s
}

pub fn ill_be_back_line(r: &IllBeBackRoll, lang: Lang) -> String {
    let verdict = if r.crawls {
        lang.pick("🦾 it fights on as a Crawler", "🦾 クローラーとして戦い続ける")
    } else {
        lang.pick("it stays down", "復帰せず")
    };
    format!("D6 **{}** (5+) → {verdict}", r.face)
}

fn stage_name(s: Stage, lang: Lang) -> &'static str {
    match s {
        Stage::AttackRoll => lang.pick("the attack roll", "攻撃ロール"),
        Stage::Saves => lang.pick("the cover saves", "カバーセーヴィング"),
        Stage::Damage => lang.pick("the damage roll", "ダメージロール"),
        Stage::IllBeBack => lang.pick("I'll Be Back", "アイル ビー バック"),
        Stage::Tests => lang.pick("the resolution tests", "レゾリューションテスト"),
        Stage::Complete => lang.pick("done", "完了"),
    }
}

/// The markers a target ends the attack with.
pub fn target_badges(t: &TargetRun, lang: Lang) -> Vec<String> {
    let l = |en: &str, ja: &str| lang.pick(en, ja).to_string();
    let mut out = Vec::new();
    match t.removed {
        Some(Removal::Killed) => out.push(l("💀 KILLED", "💀 戦闘不能")),
        Some(Removal::Retreated) => out.push(l("🏳️ RETREATED", "🏳️ 撤退")),
        None => {}
    }
    if t.crawler {
        out.push(l("🦾 Crawler", "🦾 クローラー"));
    }
    if t.reeling && t.removed.is_none() {
        out.push(l("💫 REELING", "💫 リーリング"));
    }
    if t.done_added > 0 {
        out.push(format!(
            "{} +{} → ×{}",
            l("☑️ Done", "☑️ ダン"),
            t.done_added,
            t.done
        ));
    }
    out
}

fn target_lines(t: &TargetRun, lang: Lang) -> String {
    let mut lines = Vec::new();
    if t.hits == 0 {
        return lang.pick("no hit", "命中なし").to_string();
    }
    match &t.saves {
        Some(s) => lines.push(format!(
            "{}: {}",
            lang.pick("Cover save", "カバーセーヴィング"),
            save_line(s, lang)
        )),
        None if !t.save.allowed() => lines.push(no_save_text(t.save, lang).to_string()),
        None => {}
    }
    if let Some(d) = &t.damage_roll {
        lines.push(format!(
            "{}: {}",
            lang.pick("Damage", "ダメージ"),
            damage_line(d, t.tests_due > 0, lang)
        ));
        if t.marked > 0 && t.removed != Some(Removal::Killed) && !t.crawler {
            lines.push(match lang {
                Lang::En => format!("Damage limit: {} marked, survives", t.marked),
                Lang::Ja => format!("損傷限界値：損傷{}、生存", t.marked),
            });
        }
    } else if t.saves.as_ref().is_some_and(|s| s.unsaved == 0) {
        lines.push(lang.pick("every hit saved", "全てセーブ").to_string());
    }
    if let Some(r) = &t.ill_be_back {
        lines.push(format!(
            "{}: {}",
            lang.pick("I'll Be Back", "アイル ビー バック"),
            ill_be_back_line(r, lang)
        ));
    }
    if !t.leftover.is_empty() {
        lines.push(match lang {
            Lang::En => format!("further damaging dice spent: {}", faces(&t.leftover, |_| true)),
            Lang::Ja => format!("残りのダメージダイスは消滅: {}", faces(&t.leftover, |_| true)),
        });
    }
    if !t.carried.is_empty() {
        lines.push(match lang {
            Lang::En => format!("carried to the Crawler: {}", faces(&t.carried, |_| true)),
            Lang::Ja => format!("クローラーに適用: {}", faces(&t.carried, |_| true)),
        });
    }
    if let Some(r) = &t.tests {
        lines.push(format!(
            "{}: {}",
            lang.pick("Resolution", "レゾリューション"),
            resolution_line(r, lang)
        ));
    }
    let b = target_badges(t, lang);
    if !b.is_empty() {
        lines.push(b.join(" · "));
    }
    lines.join("\n")
}

/// What a stopped run waits for, in words.
pub fn waiting_text(w: &Waiting, lang: Lang) -> String {
    match (w, lang) {
        (Waiting::IllBeBack { targets }, Lang::En) => format!(
            "Waiting for I'll Be Back: {} (the owner's button, or /term ibb)",
            targets.join(", ")
        ),
        (Waiting::IllBeBack { targets }, Lang::Ja) => format!(
            "アイル ビー バック待ち：{}（所有者のボタン、または /term ibb）",
            targets.join("、")
        ),
        (Waiting::Die { target, field }, Lang::En) => format!(
            "Waiting for {target}'s {} die (lost in the seed): /term die",
            field.name(lang)
        ),
        (Waiting::Die { target, field }, Lang::Ja) => format!(
            "{target}の{}ダイス待ち（シードで失われています）：/term die",
            field.name(lang)
        ),
    }
}

pub fn attack_view(rep: &AttackReport, lang: Lang, who: &str) -> EmbedView {
    let run = &rep.run;
    let req = &run.request;
    let weapon = engine::systems::terminator::weapon::display_name(&req.weapon.name, lang);
    let primary = run.targets.first().map_or("", |t| t.name.as_str());
    let mut desc = if req.hell {
        lang.pick(
            "😈 See you in hell, baby! · 2+ · no save · D20 damage",
            "😈 地獄で会おうぜ、ベイビー！ · 2+ · セーブなし · D20ダメージ",
        )
        .to_string()
    } else {
        band_text(req.band, lang)
    };
    desc.push_str(&format!(" · {} {}", lang.pick("ROF", "射撃回数"), run.rof));
    let mut fields = Vec::new();
    if let Some(a) = &run.attack {
        fields.push((
            lang.pick("Attack roll", "攻撃ロール").to_string(),
            attack_roll_line(a, lang),
            false,
        ));
    }
    if run.attack.is_some() {
        for t in &run.targets {
            let name = if t.primary {
                format!("🎯 {}", t.name)
            } else {
                format!("💥 {} ({})", t.name, lang.pick("Area", "エリア"))
            };
            // Step by step, a target has nothing to show before its saves: no empty line.
            let lines = target_lines(t, lang);
            if !lines.trim().is_empty() {
                fields.push((name, lines, false));
            }
        }
    }
    let next = if rep.applied {
        lang.pick("✅ Applied to the characters.", "✅ キャラクターに適用しました。")
            .to_string()
    } else if let Some(w) = &rep.waiting {
        format!("⏸️ {}", waiting_text(w, lang))
    } else {
        match lang {
            Lang::En => format!(
                "⏭️ Next: {} (the Continue button, or /term continue)",
                stage_name(run.stage, lang)
            ),
            Lang::Ja => format!(
                "⏭️ 次：{}（続行ボタン、または /term continue）",
                stage_name(run.stage, lang)
            ),
        }
    };
    fields.push((lang.pick("Status", "状態").to_string(), next, false));
    let killed = run.targets.iter().any(|t| t.removed.is_some());
    EmbedView {
        title: format!("⚔️ {} → {primary} · {weapon}", req.attacker),
        description: desc,
        colour: if killed {
            colour::CRITICAL
        } else if run.hits() > 0 {
            colour::SUCCESS
        } else if run.attack.is_some() {
            colour::FAILURE
        } else {
            colour::NEUTRAL
        },
        fields,
        footer: Some(who.to_string()),
    }
}

pub fn roll_off_view(r: &RollOff, turn: u32, lang: Lang) -> EmbedView {
    let rounds: Vec<String> = r
        .rounds
        .iter()
        .map(|[a, b]| format!("{} {a} · {} {b}", r.players[0], r.players[1]))
        .collect();
    EmbedView {
        title: match lang {
            Lang::En => format!("🎲 Turn {turn}: tactical roll-off ({})", r.die),
            Lang::Ja => format!("🎲 ターン{turn}：タクティカルロールオフ（{}）", r.die),
        },
        description: rounds.join("\n"),
        colour: colour::NEUTRAL,
        fields: vec![(
            lang.pick("Tactical Edge", "タクティカルエッジ").into(),
            match lang {
                Lang::En => format!("**{}** chooses who goes first.", r.winner),
                Lang::Ja => format!("**{}**が先攻プレイヤーを選びます。", r.winner),
            },
            false,
        )],
        footer: None,
    }
}

pub fn next_text(n: &Next, lang: Lang) -> String {
    match (n, lang) {
        (Next::Same, Lang::En) => "The impulse goes on.".into(),
        (Next::Same, Lang::Ja) => "インパルスは続きます。".into(),
        (Next::Impulse { player, number }, Lang::En) => {
            format!("Impulse {number}: **{player}** rolls the Fate die (/term fate).")
        }
        (Next::Impulse { player, number }, Lang::Ja) => {
            format!("インパルス{number}：**{player}**がフェイトダイスを振ります（/term fate）。")
        }
        (Next::EndTurn, Lang::En) => "Every character has activated: End Turn (/term endturn).".into(),
        (Next::EndTurn, Lang::Ja) => {
            "全キャラクターがアクティベートしました：エンドターン（/term endturn）。".into()
        }
    }
}

pub fn first_view(first: &str, next: &Next, lang: Lang) -> EmbedView {
    EmbedView {
        title: match lang {
            Lang::En => format!("▶️ {first} goes first"),
            Lang::Ja => format!("▶️ {first}が先攻"),
        },
        description: next_text(next, lang),
        colour: colour::NEUTRAL,
        fields: Vec::new(),
        footer: None,
    }
}

fn fate_face(r: &FateRoll, lang: Lang) -> String {
    format!("d6 {} → **{}**", r.face, r.result.label(lang))
}

pub fn fate_view(f: &FateOutcome, lang: Lang) -> EmbedView {
    let mut fields = Vec::new();
    let text = match f.roll.result {
        FateFace::One | FateFace::Two => match lang {
            Lang::En => format!(
                "{} may take a Ready marker (/term activate).",
                count(f.allowance, "character", "characters")
            ),
            Lang::Ja => format!("{}人がレディマーカーを置けます（/term activate）。", f.allowance),
        },
        FateFace::Fate if f.commanders.is_empty() => match lang {
            Lang::En => "FATE and no commander may be chosen: the impulse passes.".into(),
            Lang::Ja => "Fate：選べるコマンダーがいないので、インパルスは移ります。".into(),
        },
        FateFace::Fate => match lang {
            Lang::En => format!(
                "FATE: choose one commander ({}). It activates with friends, Command(N) in total: press its button to activate it alone, or /term activate with followers.",
                f.commanders.join(", ")
            ),
            Lang::Ja => format!(
                "Fate：コマンダーを1人選びます（{}）。味方とあわせてコマンド(N)人がアクティベートします。ボタンで単独、またはフォロワー付きで /term activate。",
                f.commanders.join("、")
            ),
        },
    };
    fields.push((lang.pick("Result", "結果").into(), text, false));
    if f.next != Next::Same {
        fields.push((lang.pick("Next", "次").into(), next_text(&f.next, lang), false));
    }
    EmbedView {
        title: match lang {
            Lang::En => format!("🎲 {}: Fate {}", f.player, fate_face(&f.roll, lang)),
            Lang::Ja => format!("🎲 {}：フェイト {}", f.player, fate_face(&f.roll, lang)),
        },
        description: String::new(),
        colour: if f.roll.result == FateFace::Fate {
            colour::WARNING
        } else {
            colour::NEUTRAL
        },
        fields,
        footer: None,
    }
}

pub fn activation_view(a: &Activation, lang: Lang, who: &str) -> EmbedView {
    let mut names = vec![a.character.clone()];
    names.extend(a.followers.iter().cloned());
    let mut desc = match lang {
        Lang::En => format!("🟢 Ready: {}", names.join(", ")),
        Lang::Ja => format!("🟢 レディ：{}", names.join("、")),
    };
    if a.fate_commander {
        desc.push_str(lang.pick(" (FATE commander)", "（Fate のコマンダー）"));
    } else if !a.followers.is_empty() {
        desc.push_str(lang.pick(
            " (Come With Me If You Want To Live)",
            "（死にたくなければついて来い）",
        ));
    }
    EmbedView {
        title: match lang {
            Lang::En => format!("▶️ {} activates", a.character),
            Lang::Ja => format!("▶️ {}がアクティベート", a.character),
        },
        description: desc,
        colour: colour::NEUTRAL,
        fields: vec![(
            lang.pick("Activations left", "残りアクティベーション").into(),
            a.allowance_left.to_string(),
            true,
        )],
        footer: Some(who.to_string()),
    }
}

pub fn done_view(d: &DoneOutcome, lang: Lang) -> EmbedView {
    EmbedView {
        title: match lang {
            Lang::En => format!("☑️ {} is done", d.character),
            Lang::Ja => format!("☑️ {}がダン", d.character),
        },
        description: format!("{} ×{}", lang.pick("Done", "ダン"), d.done),
        colour: colour::NEUTRAL,
        fields: vec![(lang.pick("Next", "次").into(), next_text(&d.next, lang), false)],
        footer: None,
    }
}

pub fn end_turn_view(e: &EndTurnOutcome, lang: Lang) -> EmbedView {
    let done: Vec<String> = e
        .done
        .iter()
        .filter(|(_, n)| *n > 0)
        .map(|(c, n)| format!("{c} ×{n}"))
        .collect();
    let mut fields = vec![(
        lang.pick("Done markers left", "残りのダンマーカー").into(),
        if done.is_empty() {
            lang.pick("none", "なし").into()
        } else {
            done.join(", ")
        },
        false,
    )];
    if !e.recovered.is_empty() {
        fields.push((
            lang.pick("No longer reeling", "リーリング終了").into(),
            e.recovered.join(", "),
            false,
        ));
    }
    if !e.on_your_feet.is_empty() {
        let b: Vec<String> = e.on_your_feet.iter().map(|(c, n)| format!("{c} {n}")).collect();
        fields.push((
            lang.pick(
                "On Your Feet, Soldier! (/term feet)",
                "さあ立ち上がれ！（/term feet）",
            )
            .into(),
            b.join(", "),
            false,
        ));
    }
    EmbedView {
        title: match lang {
            Lang::En => format!("⏹️ End of turn {}", e.turn),
            Lang::Ja => format!("⏹️ ターン{}終了", e.turn),
        },
        description: lang
            .pick(
                "One Done marker off each character. Next: /term rolloff.",
                "各キャラクターのダンマーカーを1つ取り除きました。次：/term rolloff",
            )
            .into(),
        colour: colour::NEUTRAL,
        fields,
        footer: None,
    }
}

pub fn feet_view(o: &OnYourFeetOutcome, lang: Lang) -> EmbedView {
    let mut desc = match lang {
        Lang::En => format!(
            "{} takes {} Done marker(s) off {}: ×{} left.",
            o.commander, o.removed, o.character, o.done
        ),
        Lang::Ja => format!(
            "{}が{}のダンマーカーを{}個取り除きました（残り{}）。",
            o.commander, o.character, o.removed, o.done
        ),
    };
    if o.recovered {
        desc.push_str(lang.pick(" No longer reeling.", " リーリング終了。"));
    }
    EmbedView {
        title: lang
            .pick("🫡 On Your Feet, Soldier!", "🫡 さあ立ち上がれ！")
            .into(),
        description: desc,
        colour: colour::SUCCESS,
        fields: vec![(
            match lang {
                Lang::En => format!("{} has left", o.commander),
                Lang::Ja => format!("{}の残り", o.commander),
            },
            o.left.to_string(),
            true,
        )],
        footer: None,
    }
}

pub fn ladder_view(r: &LadderRoll, lang: Lang, who: &str) -> EmbedView {
    let mut desc = match r.target {
        Some(t) => faces(&r.faces, |f| f >= t),
        None => faces(&r.faces, |_| false),
    };
    if let Some(t) = r.target {
        desc.push_str(&match lang {
            Lang::En => format!(" at {t}+ → **{}**", count(r.successes, "success", "successes")),
            Lang::Ja => format!(" 目標{t}+ → **成功{}**", r.successes),
        });
    } else {
        let total: u32 = r.faces.iter().sum();
        desc.push_str(&format!(" = {total}"));
    }
    EmbedView {
        title: format!("🎲 {} ×{}", r.die, r.faces.len()),
        description: desc,
        colour: colour::NEUTRAL,
        fields: Vec::new(),
        footer: Some(who.to_string()),
    }
}

/// One raw roll: a title and a line.
pub fn line_view(title: String, line: String, colour: u32, who: &str) -> EmbedView {
    EmbedView {
        title,
        description: line,
        colour,
        fields: Vec::new(),
        footer: Some(who.to_string()),
    }
}

/// The turn at a glance.
pub fn turn_text(state: &TerminatorState, lang: Lang) -> String {
    let mut lines = Vec::new();
    let phase = if state.turn == 0 {
        match lang {
            Lang::En => format!("No turn yet · {}", state.phase.name(lang)),
            Lang::Ja => format!("ターン開始前 · {}", state.phase.name(lang)),
        }
    } else {
        match lang {
            Lang::En => format!("Turn {} · {}", state.turn, state.phase.name(lang)),
            Lang::Ja => format!("ターン{} · {}", state.turn, state.phase.name(lang)),
        }
    };
    lines.push(phase);
    if state.players.len() == 2 {
        lines.push(format!(
            "{}: {}",
            lang.pick("Sides", "陣営"),
            state.players.join(" vs ")
        ));
    }
    if let Some(e) = &state.edge {
        let mut l = format!("{}: {e}", lang.pick("Tactical Edge", "タクティカルエッジ"));
        if let Some(f) = &state.first {
            l.push_str(&format!(" · {}: {f}", lang.pick("first", "先攻")));
        }
        lines.push(l);
    }
    if let (Phase::Impulse, Some(i)) = (state.phase, &state.impulse) {
        let fate = match (&i.fate, i.fate_commander) {
            (None, _) => lang.pick("Fate not rolled", "フェイト未ロール").to_string(),
            (Some(f), true) => format!(
                "{} · {}",
                fate_face(f, lang),
                lang.pick("a commander to choose", "コマンダーを選択")
            ),
            (Some(f), false) => match lang {
                Lang::En => format!("{} · {} left", fate_face(f, lang), i.allowance),
                Lang::Ja => format!("{} · 残り{}", fate_face(f, lang), i.allowance),
            },
        };
        lines.push(match lang {
            Lang::En => format!("▶️ Impulse {}: **{}**'s turn · {fate}", i.number, i.player),
            Lang::Ja => format!("▶️ インパルス{}：**{}**の番 · {fate}", i.number, i.player),
        });
    }
    if state.phase == Phase::OnYourFeet && !state.on_your_feet.is_empty() {
        let b: Vec<String> = state
            .on_your_feet
            .iter()
            .map(|(c, n)| format!("{c} {n}"))
            .collect();
        lines.push(format!(
            "{}: {}",
            lang.pick("On Your Feet left", "さあ立ち上がれ！残り"),
            b.join(", ")
        ));
    }
    if let Some(a) = &state.attack {
        let w = a.run.waiting();
        lines.push(match w {
            Some(w) => format!("⏸️ {}", waiting_text(&w, lang)),
            None => match lang {
                Lang::En => format!(
                    "⏸️ Attack by {} under way: next {}",
                    a.run.request.attacker,
                    stage_name(a.run.stage, lang)
                ),
                Lang::Ja => format!(
                    "⏸️ {}の攻撃が進行中：次は{}",
                    a.run.request.attacker,
                    stage_name(a.run.stage, lang)
                ),
            },
        });
    }
    lines.join("\n")
}

/// The board: the turn, then one field per side with every character's markers.
pub fn board_fields(
    session: &Session,
    chars: &Chars,
    state: &TerminatorState,
    lang: Lang,
) -> Vec<(String, String, bool)> {
    let mut fields = vec![(
        lang.pick("Terminator Genisys", "ターミネーター ジェニシス")
            .to_string(),
        turn_text(state, lang),
        false,
    )];
    let status = state.status(chars);
    let impulse_player = state
        .impulse
        .as_ref()
        .filter(|_| state.phase == Phase::Impulse)
        .map(|i| i.player.clone());
    for side in &status.sides {
        let mut lines = Vec::new();
        // Roster order, as the players added them.
        for e in &session.roster {
            let Some(c) = chars.get(&e.name).filter(|c| c.side == side.side) else {
                continue;
            };
            let mut b = badges(c, lang);
            if c.eligible() && matches!(state.phase, Phase::Impulse | Phase::FirstPlayer) {
                b.insert(0, lang.pick("⏳ to activate", "⏳ 未行動").to_string());
            }
            let profile = c.stats.display_name(lang);
            let line = if b.is_empty() {
                format!("**{}** ({profile})", e.name)
            } else {
                format!("**{}** ({profile}): {}", e.name, b.join(" · "))
            };
            lines.push(line);
        }
        let marker = if impulse_player.as_deref() == Some(side.side.as_str()) {
            lang.pick(" ▶️ impulse", " ▶️ インパルス中")
        } else {
            ""
        };
        fields.push((
            format!("{}{marker}", side.side),
            if lines.is_empty() {
                lang.pick("no characters", "キャラクターなし").to_string()
            } else {
                lines.join("\n")
            },
            false,
        ));
    }
    fields
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faces_bold_what_counts() {
        assert_eq!(faces(&[7, 3, 6], |f| f >= 6), "[**7** 3 **6**]");
        assert_eq!(faces(&[], |_| true), "[]");
    }

    #[test]
    fn a_resolution_line_shows_the_degraded_die_and_every_result() {
        use engine::systems::terminator::Die;
        let r = ResolutionRoll {
            base: Die::D20,
            die: Die::D12,
            faces: vec![6, 4, 1],
            results: vec![TestResult::NoEffect, TestResult::Reeling, TestResult::Retreat],
            skipped: 1,
        };
        let l = resolution_line(&r, Lang::En);
        assert_eq!(
            l,
            "D20→D12 ×3: [**6** 4 1] → no effect, 💫 REELING, 🏳️ RETREAT! (1 more not taken)"
        );
        assert!(resolution_line(&r, Lang::Ja).contains("撤退"));
    }
}
