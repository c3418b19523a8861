//! Japanese written for Japanese tables (issue 36): names quoted 「…」 without spaces around
//! them, the Japanese edition's words in replies.

use crate::support::e2e::*;

/// 「@alice が 夜の仕事 に参加しました。」 reads 「@aliceが「夜の仕事」に参加しました。」, and the
/// same for leaving and handing the GM over; English is unchanged.
#[tokio::test]
async fn session_messages_quote_the_session_name_without_spaces() {
    let mut c = console().await;
    let mut gm = c.invoker();
    gm.locale = "ja".into();
    let mut alice = player(&c, "alice");
    alice.locale = "ja".into();
    let bob = player(&c, "bob");
    as_(&mut c, &gm, "/session start name:夜の仕事 system:generic").await;
    let r = as_(&mut c, &alice, "/session join").await;
    let content = r.content();
    assert!(
        content.starts_with("<@") && content.ends_with(">が「夜の仕事」に参加しました。"),
        "{content}"
    );
    let r = as_(&mut c, &bob, "/session join").await;
    assert!(r.content().ends_with("> joined 夜の仕事."), "{}", r.content());
    let r = as_(&mut c, &alice, "/session leave").await;
    assert!(
        r.content().ends_with(">が「夜の仕事」から抜けました。"),
        "{}",
        r.content()
    );
    let r = as_(&mut c, &gm, "/session gm user:bob").await;
    let content = r.content();
    assert!(
        content.starts_with("「夜の仕事」のGMは<@") && content.ends_with(">になりました。"),
        "{content}"
    );
    as_(&mut c, &gm, "/session end").await;
    let r = as_(&mut c, &gm, "/session delete").await;
    assert!(text(&r).contains("「夜の仕事」を削除しますか？"), "{}", text(&r));
    c.shutdown().await;
}
