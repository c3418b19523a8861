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

/// Shadowrun 4 in the Japanese edition's words (the seed): a sheet typed with `身体ダメージ=`
/// (or the old `肉体ダメージ=`) shows 身体 and 精神 damage, never 肉体 or 朦朧.
#[tokio::test]
async fn shadowrun_damage_reads_shintai_and_seishin() {
    let mut c = console().await;
    let mut gm = c.invoker();
    gm.locale = "ja".into();
    as_(&mut c, &gm, "/session start name:ラン system:shadowrun4").await;
    for (name, typed) in [
        ("ケン", "身体ダメージ=3 精神ダメージ=2"),
        ("アナ", "肉体ダメージ=3 朦朧ダメージ=2"),
    ] {
        let r = as_(
            &mut c,
            &gm,
            &format!("/char add name:{name} stats:強靭力=4 意志力=3 {typed}"),
        )
        .await;
        assert!(!r.ephemeral, "{}", text(&r));
        let r = as_(&mut c, &gm, &format!("/char show name:{name}")).await;
        let shown = text(&r);
        assert!(shown.contains("身体") && shown.contains("精神"), "{shown}");
        assert!(!shown.contains("肉体") && !shown.contains("朦朧"), "{shown}");
        assert!(shown.contains("3/10"), "{shown}");
    }
    c.shutdown().await;
}
