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
