//! Spells, dispelling, summoning, threading and compiling, with drain and fading.

use super::*;

pub(super) fn drain_text(d: &DrainOutcome, lang: Lang) -> String {
    let mut s = format!(
        "{} {} ({})\n",
        lang.pick("Value", "値"),
        d.value,
        damage_type(d.damage_type, lang)
    );
    s.push_str(&opt_rolled(&d.roll, lang));
    s.push_str(&match lang {
        Lang::En => format!("\n→ **{} {} box(es)**", d.boxes, damage_type(d.damage_type, lang)),
        Lang::Ja => format!("\n→ **{}{}点**", damage_type(d.damage_type, lang), d.boxes),
    });
    s
}

/// A spell's result (the result field and the log's summary).
pub fn spell_result_words(r: SpellResult, lang: Lang) -> &'static str {
    match r {
        SpellResult::Success => lang.pick("Success", "成功"),
        SpellResult::Tie => lang.pick("Tie: minimal effect or none", "同数: 効果は最小限かなし"),
        SpellResult::Resisted => lang.pick("Resisted", "抵抗された"),
        SpellResult::Failed => lang.pick("Failed", "失敗"),
    }
}

pub fn spell_view(o: &SpellOutcome, caster: &str, target: Option<&str>, lang: Lang) -> EmbedView {
    let mut cast = rolled_text(&o.cast, lang);
    if o.raw_hits > o.hits {
        cast.push_str(&format!(
            "\n{} {}",
            lang.pick("Hits capped at Force", "ヒットはフォースまで"),
            o.force
        ));
    }
    let mut fields = vec![f(
        &format!(
            "{} · {} {}",
            lang.pick("Spellcasting", "呪文詠唱"),
            lang.pick("Force", "フォース"),
            o.force
        ),
        cast,
    )];
    if o.resistance.is_some() || target.is_some() {
        fields.push(f(
            &format!("{} · {}", lang.pick("Resistance", "抵抗"), target.unwrap_or("?")),
            opt_rolled(&o.resistance, lang),
        ));
    }
    if let Some(t) = o.threshold {
        fields.push(fi(lang.pick("Threshold", "目標値"), t.to_string()));
    }
    fields.push(fi(
        lang.pick("Net hits", "純ヒット"),
        format!("**{}**", o.net_hits),
    ));
    fields.push(fi(
        lang.pick("Result", "結果"),
        format!("**{}**", spell_result_words(o.result, lang)),
    ));
    fields.push(f(lang.pick("Drain", "ドレイン"), drain_text(&o.drain, lang)));
    let (title, colour) = headline_of(
        who(Some(caster), lang.pick("Spellcasting", "呪文詠唱")),
        &[
            rg(caster, &o.cast),
            rg_opt(target.unwrap_or("?"), &o.resistance),
            rg_opt(drain_of(caster, lang), &o.drain.roll),
        ],
        Some(o.result == SpellResult::Success),
        lang,
    );
    view(title, colour, String::new(), fields)
}

fn drain_of(who_: &str, lang: Lang) -> String {
    format!("{who_}, {}", lang.pick("drain", "ドレイン"))
}

fn fading_of(who_: &str, lang: Lang) -> String {
    format!("{who_}, {}", lang.pick("fading", "フェイディング"))
}

/// Seed 4.2 dispelling: Counterspelling + Magic against Force + Magic, hits taken off, drain.
pub fn dispel_view(o: &DispelOutcome, who_: &str, force: u32, lang: Lang) -> EmbedView {
    let mut fields = vec![
        f(lang.pick("Dispelling", "呪文解除"), rolled_text(&o.dispel, lang)),
        f(
            &format!(
                "{} · {} {force}",
                lang.pick("Spell", "呪文"),
                lang.pick("Force", "フォース")
            ),
            rolled_text(&o.opposition, lang),
        ),
        fi(lang.pick("Net hits", "純ヒット"), format!("**{}**", o.net_hits)),
        fi(
            lang.pick("Spell hits removed", "呪文のヒット減少"),
            format!("**{}**", o.hits_removed),
        ),
    ];
    if let Some(left) = o.spell_hits_left {
        let text = if left == 0 {
            lang.pick("**Dispelled** (no hit left)", "**解除**（ヒット0）")
                .to_string()
        } else {
            format!("{} **{left}**", lang.pick("Hits left:", "残りヒット："))
        };
        fields.push(fi(lang.pick("Result", "結果"), text));
    }
    fields.push(f(lang.pick("Drain", "ドレイン"), drain_text(&o.drain, lang)));
    let (title, colour) = headline_of(
        who(Some(who_), lang.pick("Dispelling", "呪文解除")),
        &[
            rg(who_, &o.dispel),
            rg(lang.pick("spell", "呪文"), &o.opposition),
            rg_opt(drain_of(who_, lang), &o.drain.roll),
        ],
        Some(o.hits_removed > 0),
        lang,
    );
    view(title, colour, String::new(), fields)
}

pub fn summon_view(o: &SummonOutcome, caster: &str, force: u32, lang: Lang) -> EmbedView {
    let fields = vec![
        f(lang.pick("Summoning", "召喚"), rolled_text(&o.summon, lang)),
        f(
            &format!("{} {force}", lang.pick("Spirit, Force", "精霊 フォース")),
            rolled_text(&o.spirit, lang),
        ),
        fi(lang.pick("Services", "助力"), format!("**{}**", o.services)),
        f(lang.pick("Drain", "ドレイン"), drain_text(&o.drain, lang)),
    ];
    let (title, colour) = headline_of(
        who(Some(caster), lang.pick("Summoning", "精霊召喚")),
        &[
            rg(caster, &o.summon),
            rg(lang.pick("spirit", "精霊"), &o.spirit),
            rg_opt(drain_of(caster, lang), &o.drain.roll),
        ],
        Some(o.summoned),
        lang,
    );
    view(title, colour, String::new(), fields)
}

pub fn thread_view(o: &ThreadOutcome, who_: &str, lang: Lang) -> EmbedView {
    let fields = vec![
        f(
            lang.pick("Threading", "スレッド編成"),
            rolled_text(&o.thread, lang),
        ),
        fi(
            lang.pick("Rating", "レーティング"),
            format!("{} → **{}** (+{})", o.base_rating, o.rating, o.gained),
        ),
        f(lang.pick("Fading", "フェイディング"), drain_text(&o.fading, lang)),
    ];
    let (title, colour) = headline_of(
        who(Some(who_), lang.pick("Threading", "スレッド編成")),
        &[rg(who_, &o.thread), rg_opt(fading_of(who_, lang), &o.fading.roll)],
        Some(o.gained > 0),
        lang,
    );
    view(title, colour, String::new(), fields)
}

pub fn compile_view(o: &CompileOutcome, who_: &str, rating: u32, lang: Lang) -> EmbedView {
    let fields = vec![
        f(
            lang.pick("Compiling", "コンパイル"),
            rolled_text(&o.compile, lang),
        ),
        f(
            &format!(
                "{} {rating}",
                lang.pick("Sprite, rating", "スプライト レーティング")
            ),
            rolled_text(&o.sprite, lang),
        ),
        fi(lang.pick("Tasks", "タスク"), format!("**{}**", o.tasks)),
        f(lang.pick("Fading", "フェイディング"), drain_text(&o.fading, lang)),
    ];
    let (title, colour) = headline_of(
        who(Some(who_), lang.pick("Compiling", "スプライトのコンパイル")),
        &[
            rg(who_, &o.compile),
            rg(lang.pick("sprite", "スプライト"), &o.sprite),
            rg_opt(fading_of(who_, lang), &o.fading.roll),
        ],
        Some(o.compiled),
        lang,
    );
    view(title, colour, String::new(), fields)
}
