//! Japanese replies name the Japanese commands (`command_names`), from the registered names.

use engine::i18n::Lang;
use saikoro_bot::command_names::{command, in_japanese_text, learn};

fn learned() {
    learn(&saikoro_bot::commands::all());
}

#[test]
fn japanese_replies_name_the_japanese_command() {
    learned();
    assert_eq!(command("session join", Lang::Ja), "/セッション 参加");
    assert_eq!(command("session join", Lang::En), "/session join");
    assert_eq!(
        command("session start system:warmachine", Lang::Ja),
        "/セッション 開始 システム:warmachine"
    );
    // An unknown word is left as written.
    assert_eq!(command("nosuch thing", Lang::Ja), "/nosuch thing");
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
    assert_eq!(
        in_japanese_text("先に /sr initiative roll で振ってください。"),
        "先に /シャドウラン イニシアティブ ロール で振ってください。".replace(
            "/シャドウラン イニシアティブ ロール",
            &command("sr initiative roll", Lang::Ja)
        )
    );
    assert!(!command("sr initiative roll", Lang::Ja).contains("initiative"));
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
