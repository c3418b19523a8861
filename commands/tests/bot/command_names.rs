//! Japanese replies name the Japanese commands (`command_names`), from the registered names.

use saikoro_bot::command_names::{in_japanese_text, learn};

fn learned() {
    learn(&saikoro_bot::commands::all());
}

#[test]
fn japanese_replies_name_the_japanese_command() {
    learned();
    assert_eq!(
        in_japanese_text("参加（/session join）"),
        "参加（/セッション 参加）"
    );
    assert_eq!(
        in_japanese_text("開始（/session start system:warmachine）"),
        "開始（/セッション 開始 システム:warmachine）"
    );
    // An unknown word is left as written.
    assert_eq!(in_japanese_text("不明（/nosuch thing）"), "不明（/nosuch thing）");
}

#[test]
fn japanese_messages_have_their_commands_named_in_japanese() {
    learned();
    assert_eq!(
        in_japanese_text("プレイヤーは /session join で参加します。"),
        "プレイヤーは /セッション 参加 で参加します。"
    );
    assert_eq!(
        in_japanese_text("ゲームではありません（/session start system:warmachine）。"),
        "ゲームではありません（/セッション 開始 システム:warmachine）。"
    );
    let named = in_japanese_text("先に /sr initiative roll で振ってください。");
    assert!(
        named.starts_with("先に /") && named.ends_with(" で振ってください。"),
        "{named}"
    );
    assert!(
        !named.contains("initiative") && !named.contains("roll"),
        "{named}"
    );
    // English text, URLs, fractions and unknown words are left alone.
    for same in [
        "Players join with /session join.",
        "参照 https://example.com/session join",
        "1/6 の確率",
        "/nosuch です",
    ] {
        assert_eq!(in_japanese_text(same), same);
    }
}

/// One language per line (issue 28): a value in Japanese (or with spaces) does not end the
/// command's Japanese names; the options after it are named in Japanese too.
#[test]
fn options_after_a_japanese_value_stay_japanese() {
    learned();
    assert_eq!(
        in_japanese_text(
            "ログ `/mecha attack attacker:ガンダム weapon:ビームライフル target:ザク distance:3` → 命中"
        ),
        "ログ `/メカ 攻撃 攻撃側:ガンダム 兵器:ビームライフル 目標:ザク 距離:3` → 命中"
    );
    assert_eq!(
        in_japanese_text("ログ `/sr test character:アナ attribute:agility skill:pistols`"),
        "ログ `/シャドウラン テスト キャラ:アナ 能力値:敏捷力 技能:pistols`"
    );
    // A value with spaces is one value: its choice still reads in Japanese.
    let named = in_japanese_text("ログ `/term attack band:long (6+) attacker:G weapon:Gun target:E`");
    assert!(!named.contains("band") && !named.contains("attacker"), "{named}");
}

/// The engine writes commands as they are spelled in English (it knows no bot's localized
/// names); the Japanese reader still sees the Japanese command, option and choice.
#[test]
fn the_engines_campaign_choice_reads_the_japanese_command() {
    learned();
    let ja = engine::session::SystemId::Warmachine
        .rules()
        .evenings()
        .choice_in(engine::i18n::Lang::Ja)
        .expect("Warmachine has a game to go on with");
    assert!(ja.contains("`/session start campaign:continue game:`"), "{ja}");
    assert!(
        in_japanese_text(&ja).contains("`/セッション 開始 キャンペーン:続ける ゲーム:`"),
        "{}",
        in_japanese_text(&ja)
    );
}
