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

/// The `/char add` sheet option as the server registered it: `(Japanese name, Japanese
/// description)`.
fn sheet_option(c: &saikoro_bot::console::Console) -> (String, String) {
    let char = c
        .fake
        .commands(Some(saikoro_bot::fake_discord::DEFAULT_GUILD))
        .into_iter()
        .find(|c| c["name"] == "char")
        .expect("/char is registered in the server");
    let add = find(&char["options"], "add");
    let stats = find(&add["options"], "stats");
    let ja = |key: &str| stats[key]["ja"].as_str().unwrap_or_default().to_string();
    (ja("name_localizations"), ja("description_localizations"))
}

/// Issue 36: every command a Japanese table types has a Japanese name, in one style, and runs
/// as typed: `/シャドウラン テスト` in a Japanese session, the renamed options of `/シャドウラン
/// 攻撃` and `/ウォーマシン 攻撃`, `/セッション ゲームマスター交代`.
#[tokio::test]
async fn a_japanese_table_types_japanese_command_names() {
    let mut c = system_console().await;
    let mut gm = c.invoker();
    gm.locale = "ja".into();
    let names: Vec<String> = c
        .commands()
        .iter()
        .filter_map(|c| c["name_localizations"]["ja"].as_str().map(str::to_string))
        .collect();
    for name in [
        "シャドウラン",
        "シャドウラン-マトリックス",
        "シャドウラン-リガー",
        "ウォーマシン",
        "ウォーマシン-効果",
        "ウォーマシン-手番",
        "ウォーマシン-裁定",
        "ラリー",
        "メカ",
        "ターミネーター",
    ] {
        assert!(
            names.iter().any(|n| n == name),
            "/{name} is not registered: {names:?}"
        );
    }
    // 「/シャド」 finds Shadowrun's commands, as Discord matches what is typed.
    assert_eq!(
        names.iter().filter(|n| n.starts_with("シャド")).count(),
        3,
        "{names:?}"
    );
    as_(&mut c, &gm, "/セッション 開始 名前:ラン システム:shadowrun4").await;
    let r = as_(
        &mut c,
        &gm,
        "/キャラ 追加 名前:ケン シート:強靭力=4 敏捷力=3 ピストル=2",
    )
    .await;
    assert!(!r.ephemeral, "{}", text(&r));
    // Agility 3 + pistols 2: five dice, two hits against threshold 2.
    c.queue_dice([5, 6, 1, 2, 3]);
    let r = as_(
        &mut c,
        &gm,
        "/シャドウラン テスト キャラ:ケン 能力値:敏捷力 技能:ピストル 目標値:2",
    )
    .await;
    assert!(!r.ephemeral, "{}", text(&r));
    assert!(
        text(&r).contains("ヒット **2**") && text(&r).contains("**成功**"),
        "{}",
        text(&r)
    );
    // The options renamed for one word per idea: ダメージ値 and 装甲修正 (Shadowrun's DV and
    // AP), 攻撃値 / 防御値 / 威力 / 装甲 (Warmachine's MAT / DEF / POW / ARM, as `/確率` names them).
    as_(
        &mut c,
        &gm,
        "/キャラ 追加 名前:ボブ シート:強靭力=3 反応力=3 装甲=6/4",
    )
    .await;
    c.queue_dice([5, 6, 1, 2, 3, 1, 1, 2, 2, 5, 5, 6, 1, 2, 3, 4]);
    let line = "/シャドウラン 攻撃 攻撃者:ケン 目標:ボブ 技能:ピストル ダメージ値:5 装甲修正:-1";
    let r = as_(&mut c, &gm, line).await;
    assert!(!r.ephemeral && text(&r).contains("**命中**"), "{}", text(&r));
    assert!(text(&r).contains("**7P**"), "{}", text(&r));
    c.queue_dice([5, 6]);
    let r = as_(
        &mut c,
        &gm,
        "/ウォーマシン 攻撃 攻撃値:7 防御値:12 威力:10 装甲:15",
    )
    .await;
    assert!(text(&r).contains("**18** vs DEF **12**"), "{}", text(&r));
    let r = as_(
        &mut c,
        &gm,
        "/セッション ゲームマスター交代 新ゲームマスター:@alice",
    )
    .await;
    assert!(r.content().contains("「ラン」のGMは<@"), "{}", r.content());
    c.shutdown().await;
}

/// Issue 36: `/char add`'s sheet option (シート everywhere, as replies name it) is described and
/// exemplified for the server's one system (a Shadowrun example, taken as typed), and neutral
/// where the server plays several; the server's commands follow `/config systems`.
#[tokio::test]
async fn the_sheet_option_is_named_for_the_servers_one_system() {
    let mut c = console().await;
    let admin = c.invoker();
    let mut gm = c.invoker();
    gm.locale = "ja".into();
    assert_eq!(
        sheet_option(&c),
        (
            "シート".to_string(),
            "シート（項目名=値。項目は /ヘルプ の各システムのページ）".to_string()
        )
    );
    for off in [
        "badlands_rally",
        "warmachine",
        "terminator",
        "mecha_d20",
        "generic",
    ] {
        let r = as_(
            &mut c,
            &admin,
            &format!("/config systems system:{off} enabled:false"),
        )
        .await;
        assert!(r.ephemeral, "{}", text(&r));
    }
    assert_eq!(
        sheet_option(&c),
        (
            "シート".to_string(),
            "能力値（例: 強靭力=3 敏捷力=4 エッジ=3 ピストル=4）".to_string()
        )
    );
    // The example as typed under the option's name makes the sheet it shows.
    as_(&mut c, &gm, "/セッション 開始 名前:ラン システム:shadowrun4").await;
    let r = as_(
        &mut c,
        &gm,
        "/キャラ 追加 名前:ケン シート:強靭力=3 敏捷力=4 エッジ=3 ピストル=4",
    )
    .await;
    assert!(!r.ephemeral, "{}", text(&r));
    let s = sheet(&c, "ケン").await;
    assert_eq!(s["attributes"]["agility"], 4);
    assert_eq!(s["skills"]["pistols"], 4);
    // A second system: neutral again.
    as_(&mut c, &admin, "/config systems system:warmachine enabled:true").await;
    assert_eq!(
        sheet_option(&c).1,
        "シート（項目名=値。項目は /ヘルプ の各システムのページ）"
    );
    c.shutdown().await;
}
