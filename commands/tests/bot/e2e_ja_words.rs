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

/// A Japanese reader's console: the GM with the `ja` locale, the systems' commands registered.
async fn ja_console() -> (saikoro_bot::console::Console, saikoro_bot::fake_discord::Invoker) {
    let c = system_console().await;
    let mut gm = c.invoker();
    gm.locale = "ja".into();
    (c, gm)
}

/// The first embed's description.
fn description(r: &saikoro_bot::fake_discord::Reply) -> String {
    r.embeds()[0]["description"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// Issue 36: a Japanese keyboard's full-width digits and `＝` in `/char add` and `/char edit`
/// (read as `/roll` reads `２Ｄ６`), and skills shown in the reader's language: `回避 2, ピストル 5`
/// to a Japanese reader, the stored keys `dodge 2, pistols 5` to an English one.
#[tokio::test]
async fn full_width_sheets_and_skills_in_the_readers_language() {
    let (mut c, gm) = ja_console().await;
    as_(&mut c, &gm, "/session start name:夜の仕事 system:shadowrun4").await;
    let r = as_(
        &mut c,
        &gm,
        "/char add name:ケン stats:強靭力＝４ 敏捷力＝３ ピストル=5 回避=2",
    )
    .await;
    assert!(!r.ephemeral, "{}", text(&r));
    let shown = text(&r);
    assert!(shown.contains("強靭力 4 · 敏捷力 3"), "{shown}");
    assert_eq!(field(&r.embeds()[0], "技能"), "回避 2, ピストル 5");
    let r = as_(&mut c, &gm, "/char edit name:ケン stats:ピストル＝６").await;
    assert!(!r.ephemeral, "{}", text(&r));
    assert_eq!(field(&r.embeds()[0], "技能"), "回避 2, ピストル 6");
    let en = c.invoker();
    let r = as_(&mut c, &en, "/char show name:ケン").await;
    assert_eq!(field(&r.embeds()[0], "Skills"), "dodge 2, pistols 6");
    c.shutdown().await;
}

/// Issue 36: the seed's skill and program names are the keys the commands read. `ソフトウェア=4`
/// is threading's Software (it rolled 「技能なし −1」 before), `侵入=4` the hack's Exploit (it was
/// refused); the replies say スレッド編成 and フェイディング, the seed's words.
#[tokio::test]
async fn the_seeds_skill_and_program_names_are_the_ones_commands_read() {
    let (mut c, gm) = ja_console().await;
    as_(&mut c, &gm, "/session start name:夜の仕事 system:shadowrun4").await;
    let r = as_(
        &mut c,
        &gm,
        "/char add name:ケイ stats:意志力=4 共振力=5 ソフトウェア=4 侵入=4 ハッキング=3",
    )
    .await;
    assert_eq!(
        field(&r.embeds()[0], "技能"),
        "侵入 4, ハッキング 3, ソフトウェア 4"
    );
    c.queue_dice([5, 6, 1, 2, 5, 3, 3, 5, 1, 2, 3, 4, 5, 6, 1, 2, 5, 5]);
    let r = as_(&mut c, &gm, "/sr thread character:ケイ rating:3").await;
    let shown = text(&r);
    assert!(shown.contains("共振力 5 ソフトウェア +4 = 9"), "{shown}");
    assert!(!shown.contains("技能なし"), "{shown}");
    assert!(
        r.embeds()[0]["title"].as_str().unwrap().contains("スレッド編成"),
        "{shown}"
    );
    assert!(
        field(&r.embeds()[0], "フェイディング")
            .starts_with("値 4 (身体)\nヒット **4**\n意志力 4 共振力 +5 = 9"),
        "{shown}"
    );
    c.queue_dice([5, 5, 1, 1, 1, 1, 1, 1]);
    let r = as_(
        &mut c,
        &gm,
        "/sr-matrix hack firewall:2 node:1 stealth:3 character:ケイ max_passes:1",
    )
    .await;
    assert!(text(&r).contains("侵入 4 ハッキング +3 = 7"), "{}", text(&r));
    c.shutdown().await;
}

/// Issue 36: a total compared with a target reads in BCDice's order for a Japanese reader,
/// the total inside the line (no 合計 field under it); English is unchanged.
#[tokio::test]
async fn a_bcdice_comparison_reads_in_bcdices_order_in_japanese() {
    let mut c = console().await;
    let mut gm = c.invoker();
    gm.locale = "ja".into();
    c.queue_dice([3, 3]);
    let r = as_(&mut c, &gm, "/roll dice:2D6>=7").await;
    assert_eq!(description(&r), "(2D6>=7) ＞ 6[3,3] ＞ **6** ＞ **失敗**");
    assert!(
        r.embeds()[0]["fields"].as_array().is_none_or(Vec::is_empty),
        "{}",
        text(&r)
    );
    c.queue_dice([3, 4]);
    let r = as_(&mut c, &gm, "/roll dice:2D6+1>=7").await;
    assert_eq!(description(&r), "(2D6+1>=7) ＞ 7[3,4]+1 ＞ **8** ＞ **成功**");
    // Typed marks stay text: `*` is not italics.
    c.queue_dice([3, 3]);
    let r = as_(&mut c, &gm, "/roll dice:2D6*2>=7").await;
    assert_eq!(
        description(&r),
        "(2D6\\*2>=7) ＞ 6[3,3]\\*2 ＞ **12** ＞ **成功**"
    );
    c.queue_dice([6, 6, 1, 1]);
    let r = as_(&mut c, &gm, "/roll dice:x2 2d6>=7").await;
    assert_eq!(
        description(&r),
        "#1 (2d6>=7) ＞ 12[6,6] ＞ **12** ＞ **成功**\n#2 (2d6>=7) ＞ 2[1,1] ＞ **2** ＞ **失敗**"
    );
    let en = c.invoker();
    c.queue_dice([3, 3]);
    let r = as_(&mut c, &en, "/roll dice:2D6>=7").await;
    assert_eq!(description(&r), "2D6[3, 3]>=7 → (>=7) → **Failure**");
    assert_eq!(field(&r.embeds()[0], "Total"), "**6**");
    c.shutdown().await;
}

/// Issue 36, Rally in the seed's words: the play order is 時計回り (the seed corrects its own
/// 左回り), weapon traits バースト and ヒート, and a gear missing stats names them in Japanese
/// with an example the parser takes.
#[tokio::test]
async fn rally_reads_clockwise_and_its_sheet_in_japanese() {
    let (mut c, gm) = ja_console().await;
    as_(&mut c, &gm, "/session start name:カップ system:badlands_rally").await;
    let r = as_(
        &mut c,
        &gm,
        r#"/char add name:ホッパー stats:attack=4+ defence=3+ initiative=4+ mr=16 hits=3/2 ar=5 weapon1="Rifle 6 3-6/12 burst:1 heat""#,
    )
    .await;
    assert_eq!(
        field(&r.embeds()[0], "武器"),
        "1. Rifle POW 6 3-6/12 バースト:1 ヒート"
    );
    let r = as_(&mut c, &gm, "/char add name:ダート stats:attack=4+").await;
    assert!(r.ephemeral);
    assert_eq!(
        r.content(),
        "ギアには防御、イニシアチブ、移動力、ハル、ストラクチャー、アーマーが必要です（例: 攻撃=4+ 防御=4+ イニシアチブ=4+ 移動力=14 ヒット=2/1 アーマー=5）。"
    );
    // The example is a sheet the parser takes.
    let r = as_(
        &mut c,
        &gm,
        "/char add name:ダッシュ stats:攻撃=4+ 防御=4+ イニシアチブ=4+ 移動力=14 ヒット=2/1 アーマー=5",
    )
    .await;
    assert!(!r.ephemeral, "{}", text(&r));
    c.queue_dice([2, 2, 1, 1]);
    let r = as_(&mut c, &gm, "/rally initiative").await;
    assert_eq!(field(&r.embeds()[0], "行動順（時計回り）"), "ホッパー → ダッシュ");
    c.shutdown().await;
}

/// Issue 36, Warmachine in the seed's words: ダーク・シュラウド typed is shown so (stored as the
/// preset's English name), the player whose turn it is is the 手番プレイヤー and the others
/// インアクティブ, and `/odds wm` says ディスエイブル as the damage embed does.
#[tokio::test]
async fn warmachine_names_the_preset_and_the_players_as_the_seed() {
    let (mut c, gm) = ja_console().await;
    as_(&mut c, &gm, "/session start name:小競り合い system:warmachine").await;
    as_(
        &mut c,
        &gm,
        "/char add name:ストーカー stats:controller=@gm mat=7 rat=4 def=13 arm=17 boxes=10",
    )
    .await;
    as_(
        &mut c,
        &gm,
        "/char add name:ジャガーノート stats:controller=@bob mat=7 rat=4 def=10 arm=18 boxes=12",
    )
    .await;
    let r = as_(
        &mut c,
        &gm,
        "/wm-effect add model:ジャガーノート preset:ダーク・シュラウド",
    )
    .await;
    assert_eq!(
        r.embeds()[0]["title"].as_str().unwrap(),
        "✨ ジャガーノートにダーク・シュラウド #1"
    );
    assert!(!text(&r).contains("Dark Shroud"), "{}", text(&r));
    as_(&mut c, &gm, "/wm-turn start players:@gm, @bob").await;
    let r = as_(&mut c, &gm, "/wm status").await;
    let shown = text(&r);
    let (gm_id, bob_id) = (gm.user.id, player(&c, "bob").user.id);
    assert!(
        shown.contains(&format!(
            "手番プレイヤー: **<@{gm_id}>** · インアクティブプレイヤー: <@{bob_id}>"
        )),
        "{shown}"
    );
    assert!(
        shown.contains(&format!(
            "**ジャガーノート** (<@{bob_id}>) 0/12 · ダーク・シュラウド · ARM 18→16"
        )),
        "{shown}"
    );
    assert!(!shown.contains("非アクティブ"), "{shown}");
    let r = as_(&mut c, &gm, "/odds wm stat:7 def:13 pow:13 arm:17 boxes:5").await;
    assert_eq!(field(&r.embeds()[0], "ディスエイブル"), "**20.06 %**");
    assert!(!text(&r).contains("撃破"), "{}", text(&r));
    c.shutdown().await;
}

/// Issue 36, the mecha game in the seed's words: `/mecha check` names its ability and skill
/// (not two 修正), a natural 20 is 純粋な20, and a secondary-damage row shows no internal key.
#[tokio::test]
async fn mecha_names_every_part_and_no_internal_key() {
    let (mut c, gm) = ja_console().await;
    as_(&mut c, &gm, "/session start name:演習 system:mecha_d20").await;
    c.queue_dice([5]);
    let r = as_(&mut c, &gm, "/mecha check ability:4 skill:3 modifier:1").await;
    assert_eq!(description(&r), "d20 **5** + 能力値 4 + 技能 3 + 修正 1 = **13**");
    c.queue_dice([20]);
    let r = as_(&mut c, &gm, "/mecha check ability:4 skill:3").await;
    assert_eq!(
        description(&r),
        "d20 **20** 🌟純粋な20 + 能力値 4 + 技能 3 = **27**"
    );
    let r = as_(&mut c, &gm, "/mecha secondary row:20").await;
    assert_eq!(description(&r), "20 反応炉直撃! (反応炉出力0)");
    assert!(
        !text(&r).contains("reactor_zero") && !text(&r).contains("キー"),
        "{}",
        text(&r)
    );
    c.shutdown().await;
}

/// Issue 36: free-text options are read as `/roll` reads `２Ｄ６` — a Shadowrun modifier count
/// `ranged.aim＝２` and Warmachine's changes `ＡＲＭ－２、ＤＥＦ＋１` typed on a Japanese keyboard.
#[tokio::test]
async fn full_width_modifiers_and_changes_read_as_ascii() {
    let (mut c, gm) = ja_console().await;
    as_(&mut c, &gm, "/session start name:夜の仕事 system:shadowrun4").await;
    c.queue_dice([5, 6, 1, 2, 5, 3]);
    let r = as_(&mut c, &gm, "/sr test pool:4 modifiers:ranged.aim＝２").await;
    assert!(
        text(&r).contains("ダイス 4 狙いをつける(単純動作1回につき) (2) +2 = 6"),
        "{}",
        text(&r)
    );
    c.shutdown().await;
    let (mut c, gm) = ja_console().await;
    as_(&mut c, &gm, "/session start name:小競り合い system:warmachine").await;
    as_(
        &mut c,
        &gm,
        "/char add name:ジャガーノート stats:controller=@bob mat=7 rat=4 def=10 arm=18 boxes=12",
    )
    .await;
    let r = as_(
        &mut c,
        &gm,
        "/wm-effect add model:ジャガーノート name:霧 changes:ＡＲＭ－２、ＤＥＦ＋１",
    )
    .await;
    assert!(
        text(&r).contains("**霧** #1 ARM −2, DEF +1 (取り除くまで)"),
        "{}",
        text(&r)
    );
    c.shutdown().await;
}
