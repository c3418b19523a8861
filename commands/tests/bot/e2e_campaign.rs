//! Campaigns end to end (issue 27): evening 1, `/session end`, `/session start` offers to
//! continue, evening 2 carries the table, the log and the export read one evening or all.

use crate::support::e2e::*;

use saikoro_bot::fake_discord::DEFAULT_CHANNEL;
use serde_json::json;

/// Type `line` as `who`: the reply and the message it posted, as a client presses it.
async fn ask(
    c: &mut saikoro_bot::console::Console,
    who: &saikoro_bot::fake_discord::Invoker,
    line: &str,
) -> (saikoro_bot::fake_discord::Reply, serde_json::Value) {
    let (id, r) = as_id(c, who, line).await;
    let message = c.fake.original_message(id).expect("the reply's message");
    (r, message)
}

/// The channel's newest session (active or ended).
async fn newest(c: &saikoro_bot::console::Console) -> engine::session::Session {
    c.store()
        .last_session(DEFAULT_CHANNEL)
        .await
        .unwrap()
        .expect("a session")
}

#[tokio::test]
async fn a_campaign_continues_over_evenings_with_its_table_and_one_log() {
    let mut c = console().await;
    let gm = c.invoker();
    let ana = player(&c, "ana");
    as_(&mut c, &gm, "/session start name:Night system:generic").await;
    as_(&mut c, &ana, "/session join").await;
    as_(&mut c, &ana, "/char add name:Ana stats:hp=9").await;
    as_(&mut c, &ana, "/char edit name:Ana stats:hp-=3").await;
    as_(&mut c, &ana, "/char effect name:Ana effect:Dazed rounds:2").await;
    as_(&mut c, &ana, "/char effect name:Ana effect:Cursed").await;
    c.queue_dice([5]);
    as_(&mut c, &ana, "/roll dice:1d6").await;
    let first = newest(&c).await;
    let r = as_(&mut c, &gm, "/session end").await;
    assert!(
        text(&r).contains("continues the campaign as evening 2"),
        "{}",
        text(&r)
    );

    // Nothing offered is started yet; the offer names the campaign and its evening.
    let (offer, offer_msg) = ask(&mut c, &gm, "/session start").await;
    assert!(
        text(&offer).contains("**Night**") && text(&offer).contains("evening 1"),
        "{}",
        text(&offer)
    );
    assert!(text(&offer).contains("campaign:new"), "{}", text(&offer));
    assert!(c.store().active_session(DEFAULT_CHANNEL).await.unwrap().is_none());
    let cont = button(&offer_msg, "Continue: evening 2");
    // The offer belongs to whoever asked.
    let refused = press(&c, &ana, &offer_msg, &cont).await;
    assert!(
        refused.ephemeral && refused.content().contains("Only"),
        "{}",
        text(&refused)
    );
    assert!(c.store().active_session(DEFAULT_CHANNEL).await.unwrap().is_none());
    let r = press(&c, &gm, &offer_msg, &cont).await;
    assert_eq!(r.embeds()[0]["title"], "Evening 2 of Night", "{}", text(&r));
    assert!(text(&r).contains("Roster: Ana"), "{}", text(&r));
    // A second press finds the button used.
    let again = press(&c, &gm, &offer_msg, &cont).await;
    assert!(again.ephemeral, "{}", text(&again));

    let second = newest(&c).await;
    assert!(second.is_active());
    assert_eq!((second.campaign_id, second.evening), (first.id, 2));
    assert_eq!(second.players, first.players);
    let entry = second.entry("Ana").unwrap();
    assert_eq!(entry.sheet, json!({"hp": 6}), "the sheet as evening 1 left it");
    let effects: Vec<&str> = entry.effects.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(effects, ["Cursed"], "a rounds effect ended with its evening");

    // The log continues: tonight, one evening, or all of them.
    c.queue_dice([2, 3]);
    as_(&mut c, &ana, "/roll dice:2d6").await;
    let tonight = text(&as_(&mut c, &gm, "/session log").await);
    assert!(
        tonight.contains("Night, evening 2") && tonight.contains("2d6") && !tonight.contains("1d6"),
        "{tonight}"
    );
    let one = text(&as_(&mut c, &gm, "/session log evening:1").await);
    assert!(one.contains("1d6") && !one.contains("2d6"), "{one}");
    let all = text(&as_(&mut c, &gm, "/session log evening:0").await);
    assert!(
        all.contains("whole campaign") && all.contains("1d6") && all.contains("2d6"),
        "{all}"
    );
    let r = as_(&mut c, &gm, "/session log evening:7").await;
    assert!(
        r.ephemeral && text(&r).contains("evenings 1 to 2"),
        "{}",
        text(&r)
    );

    // The export of the campaign: both evenings, each roll under its evening, names not ids.
    let r = as_(&mut c, &gm, "/session export evening:0").await;
    let files = r.body["files"].as_array().expect("attachments");
    assert_eq!(files[0]["filename"], format!("campaign-{}.json", first.id));
    let md = files[1]["content"].as_str().unwrap();
    assert!(md.contains("evening 1") && md.contains("evening 2"), "{md}");
    assert!(md.contains("- GM: gm"), "the GM never rolled and is named: {md}");
    assert!(!md.contains("<@"), "{md}");
    assert!(r.content().contains("2 rolls"), "{}", r.content());

    // Ended, the campaign stays readable and exportable from its channel.
    as_(&mut c, &gm, "/session end").await;
    let all = text(&as_(&mut c, &gm, "/session log evening:0").await);
    assert!(all.contains("1d6") && all.contains("2d6"), "{all}");
    let r = as_(&mut c, &gm, "/session export").await;
    assert!(
        r.body["files"].as_array().is_some_and(|f| f.len() == 3),
        "{}",
        text(&r)
    );
}

#[tokio::test]
async fn a_new_campaign_is_one_choice_away_and_only_the_gm_continues() {
    let mut c = console().await;
    let gm = c.invoker();
    let bob = player(&c, "bob");
    as_(&mut c, &gm, "/session start name:Old system:generic").await;
    as_(&mut c, &gm, "/char add name:Zed stats:hp=2").await;
    as_(&mut c, &gm, "/session end").await;

    // A player may start a new campaign, not continue the GM's.
    let (offer, offer_msg) = ask(&mut c, &bob, "/session start name:Fresh system:generic").await;
    let t = text(&offer);
    assert!(t.contains("Only its GM"), "{t}");
    assert!(
        saikoro_bot::fake_discord::button_id(&offer_msg, "Continue").is_none(),
        "{t}"
    );
    let r = as_(&mut c, &bob, "/session start campaign:continue").await;
    assert!(r.ephemeral && text(&r).contains("Only the GM"), "{}", text(&r));
    let new = button(&offer_msg, "New campaign: Fresh");
    let r = press(&c, &bob, &offer_msg, &new).await;
    assert_eq!(r.embeds()[0]["title"], "Session started: Fresh", "{}", text(&r));
    let s = newest(&c).await;
    assert_eq!(
        (s.name.as_str(), s.gm, s.evening, s.campaign_id),
        ("Fresh", bob.user.id, 1, 0)
    );
    assert!(s.roster.is_empty());
    as_(&mut c, &bob, "/session end").await;

    // Typed choices skip the offer; wrong ones are refused with what to type.
    let r = as_(&mut c, &gm, "/session start campaign:new").await;
    assert!(
        r.ephemeral && text(&r).contains("needs `name:` and `system:`"),
        "{}",
        text(&r)
    );
    let r = as_(&mut c, &bob, "/session start campaign:continue system:shadowrun4").await;
    assert!(r.ephemeral && text(&r).contains("plays Generic"), "{}", text(&r));
    let r = as_(&mut c, &bob, "/session start campaign:continue name:Fresh II").await;
    assert_eq!(r.embeds()[0]["title"], "Evening 2 of Fresh II", "{}", text(&r));
    let r = as_(&mut c, &gm, "/session start campaign:continue").await;
    assert!(
        r.ephemeral && text(&r).contains("already running"),
        "{}",
        text(&r)
    );
}

#[tokio::test]
async fn continuing_where_nothing_was_played_says_how_to_start() {
    let mut c = console().await;
    let r = send(&mut c, "/session start campaign:continue").await;
    assert!(r.ephemeral && text(&r).contains("No campaign"), "{}", text(&r));
    let r = send(&mut c, "/session start").await;
    assert!(
        r.ephemeral && text(&r).contains("needs `name:` and `system:`"),
        "{}",
        text(&r)
    );
    assert!(c.store().last_session(DEFAULT_CHANNEL).await.unwrap().is_none());
}

#[tokio::test]
async fn deleting_a_campaign_is_the_gms_act_confirmed_with_a_button() {
    let mut c = console().await;
    let gm = c.invoker();
    let bob = player(&c, "bob");
    as_(&mut c, &gm, "/session start name:Night system:generic").await;
    c.queue_dice([4]);
    as_(&mut c, &gm, "/roll dice:1d6").await;
    as_(&mut c, &gm, "/session end").await;
    as_(&mut c, &gm, "/session start campaign:continue").await;
    c.queue_dice([6]);
    as_(&mut c, &gm, "/roll dice:1d6").await;
    let r = as_(&mut c, &gm, "/session delete").await;
    assert!(r.ephemeral && text(&r).contains("end it first"), "{}", text(&r));
    as_(&mut c, &gm, "/session end").await;
    let r = as_(&mut c, &bob, "/session delete").await;
    assert!(r.ephemeral && text(&r).contains("Only the GM"), "{}", text(&r));

    let (ask_r, ask_msg) = ask(&mut c, &gm, "/session delete").await;
    assert!(
        text(&ask_r).contains("2 evening(s) and 2 logged roll(s)"),
        "{}",
        text(&ask_r)
    );
    let delete = button(&ask_msg, "Delete for good");
    let r = press(&c, &bob, &ask_msg, &delete).await;
    assert!(r.ephemeral && r.content().contains("Only"), "{}", text(&r));
    let keep = button(&ask_msg, "Keep it");
    let r = press(&c, &gm, &ask_msg, &keep).await;
    assert!(r.content().contains("Kept"), "{}", text(&r));
    // One choice per question: the other button of it is used up too.
    let r = press(&c, &gm, &ask_msg, &delete).await;
    assert!(r.ephemeral, "{}", text(&r));
    let campaign = newest(&c).await.campaign();
    assert_eq!(c.store().campaign_sessions(campaign).await.unwrap().len(), 2);

    let (_, ask_msg) = ask(&mut c, &gm, "/session delete").await;
    let delete = button(&ask_msg, "Delete for good");
    let r = press(&c, &gm, &ask_msg, &delete).await;
    assert!(
        r.content().contains("Night deleted: 2 evening(s), 2 roll(s)"),
        "{}",
        text(&r)
    );
    assert!(c.store().last_session(DEFAULT_CHANNEL).await.unwrap().is_none());
    assert!(c.store().campaign_sessions(campaign).await.unwrap().is_empty());
    // A new campaign starts without asking: none lives here any more.
    let r = as_(&mut c, &gm, "/session start name:Dawn system:generic").await;
    assert_eq!(r.embeds()[0]["title"], "Session started: Dawn", "{}", text(&r));
}

/// Ana's Edge points as the channel's newest evening holds them.
async fn edge_points(c: &saikoro_bot::console::Console) -> u64 {
    newest(c).await.entry("Ana").expect("Ana").sheet["edge_points"]
        .as_u64()
        .expect("edge_points")
}

#[tokio::test]
async fn the_gm_says_whether_an_evening_begins_a_new_scenario_and_edge_refills_only_then() {
    let mut c = console().await;
    let gm = c.invoker();
    let ana = player(&c, "ana");
    as_(&mut c, &gm, "/session start name:Run system:shadowrun4").await;
    as_(&mut c, &ana, "/session join").await;
    as_(
        &mut c,
        &ana,
        "/char add name:Ana stats:\"body=4 agility=4 reaction=4 intuition=3 willpower=3 edge=3 pistols=5\"",
    )
    .await;
    as_(&mut c, &gm, "/char edit name:Ana stats:edge_points=1").await;
    assert_eq!(edge_points(&c).await, 1);
    as_(&mut c, &gm, "/session end").await;

    // The offer has a button per thing the evening may play.
    let (_, offer_msg) = ask(&mut c, &gm, "/session start").await;
    for label in [
        "Evening 2: new scenario",
        "Evening 2: same scenario",
        "Evening 2: same scenario, mid-combat",
    ] {
        button(&offer_msg, label);
    }
    let same = button(&offer_msg, "Evening 2: same scenario");
    let r = press(&c, &gm, &offer_msg, &same).await;
    let t = text(&r);
    assert!(
        t.contains("The scenario goes on; its fight ended with the last evening.") && !t.contains("Not said"),
        "{t}"
    );
    assert_eq!(
        edge_points(&c).await,
        1,
        "the same scenario: spent Edge stays spent"
    );
    as_(&mut c, &gm, "/session end").await;

    // Typed: a new scenario refills the points.
    let r = as_(&mut c, &gm, "/session start campaign:continue game:new").await;
    assert!(text(&r).contains("A new scenario begins."), "{}", text(&r));
    assert_eq!(edge_points(&c).await, 3);
    as_(&mut c, &gm, "/char edit name:Ana stats:edge_points=0").await;
    as_(&mut c, &gm, "/session end").await;

    // Unsaid: the usual (the scenario goes on), named, with how to say the other.
    let r = as_(&mut c, &gm, "/session start campaign:continue").await;
    let t = text(&r);
    assert!(
        t.contains("Not said, so the usual; `game:` `new` or `mid_combat` to choose otherwise."),
        "{t}"
    );
    assert_eq!(edge_points(&c).await, 0);
    assert_eq!(newest(&c).await.evening, 4);
}

#[tokio::test]
async fn game_is_refused_where_nothing_is_continued() {
    let mut c = console().await;
    let gm = c.invoker();
    let r = as_(&mut c, &gm, "/session start name:Night system:generic game:same").await;
    assert!(
        r.ephemeral && text(&r).contains("leave it out when starting a new campaign"),
        "{}",
        text(&r)
    );
    assert!(c.store().last_session(DEFAULT_CHANNEL).await.unwrap().is_none());
    as_(&mut c, &gm, "/session start name:Night system:generic").await;
    as_(&mut c, &gm, "/session end").await;
    let r = as_(&mut c, &gm, "/session start campaign:continue game:new").await;
    assert!(
        r.ephemeral && text(&r).contains("Free-form rolls have no battle"),
        "{}",
        text(&r)
    );
    assert!(!newest(&c).await.is_active(), "nothing started");
    // A Warmachine battle's offer: a new battle or the same one.
    let mut c2 = console().await;
    let gm2 = c2.invoker();
    as_(&mut c2, &gm2, "/session start name:Clash system:warmachine").await;
    as_(&mut c2, &gm2, "/session end").await;
    let (_, offer_msg) = ask(&mut c2, &gm2, "/session start").await;
    button(&offer_msg, "Evening 2: new battle");
    button(&offer_msg, "Evening 2: same battle");
    assert!(
        saikoro_bot::fake_discord::button_id(&offer_msg, "mid-combat").is_none(),
        "a battle's fight does not end with the evening"
    );
}

/// The log is read in the reader's language: a Japanese table's `/セッション ログ` and export
/// name every command the Japanese way, whichever language it was typed in.
#[tokio::test]
async fn a_japanese_log_names_commands_in_japanese() {
    let mut c = console_with(saikoro_bot::console::ConsoleOptions {
        locale: "ja".into(),
        ..Default::default()
    })
    .await;
    send(&mut c, "/セッション 開始 名前:夜 システム:generic").await;
    c.queue_dice([5, 3, 4]);
    send(&mut c, "/ダイス 式:1d20+2").await;
    send(&mut c, "/roll dice:2d6").await;
    let log = text(&send(&mut c, "/セッション ログ").await);
    assert!(
        log.contains("`/ダイス 式:1d20+2`") && log.contains("`/ダイス 式:2d6`"),
        "{log}"
    );
    assert!(!log.contains("/roll"), "{log}");
    let r = send(&mut c, "/セッション エクスポート").await;
    let files = r.body["files"].as_array().expect("attachments");
    let html = files[2]["content"].as_str().unwrap();
    assert!(
        html.contains("/ダイス 式:2d6"),
        "the page names it the Japanese way"
    );
    assert!(!html.contains("<code>/roll"), "{html}");
}
