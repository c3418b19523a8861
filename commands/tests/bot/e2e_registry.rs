//! End to end through the fake Discord: what the systems' registry builds — the free-form
//! Generic system, house options from every system's table in `/config option`, and the
//! Shadowrun chase manoeuvres on `/sr-rig` whose progress the session keeps per vehicle.

use crate::support::e2e::*;

use saikoro_bot::fake_discord::DEFAULT_CHANNEL;
use serde_json::Value;

async fn sr_state(c: &saikoro_bot::console::Console) -> Value {
    let s = c.store().active_session(DEFAULT_CHANNEL).await.unwrap().unwrap();
    s.system_state["shadowrun4"].clone()
}

#[tokio::test]
async fn a_generic_session_keeps_free_form_sheets() {
    let mut c = console().await;
    let r = send(&mut c, "/session start name:Anything system:generic").await;
    assert!(!r.ephemeral, "{}", text(&r));
    let r = send(&mut c, "/char add name:Ana stats:def=13 note=scout").await;
    assert!(!r.ephemeral, "{}", text(&r));
    assert_eq!(sheet(&c, "Ana").await["def"], 13);
    let r = send(&mut c, "/session status").await;
    let t = text(&r);
    assert!(t.contains("System: Generic") && t.contains("def 13"), "{t}");
}

#[tokio::test]
async fn house_options_come_from_the_systems_and_bad_values_change_nothing() {
    let mut c = console().await;
    let r = send(&mut c, "/config show").await;
    assert!(
        text(&r).contains("`rally.recovery` = `hull_first`"),
        "{}",
        text(&r)
    );
    let r = send(&mut c, "/config option name:rally.recovery value:structure_first").await;
    assert!(
        text(&r).contains(
            "`rally.recovery` (Which boxes recovery refills first): `hull_first` → `structure_first`."
        ),
        "{}",
        text(&r)
    );
    let stored = c
        .store()
        .server_settings(saikoro_bot::fake_discord::DEFAULT_GUILD)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        stored.house.get("rally.recovery").map(String::as_str),
        Some("structure_first")
    );
    // A value the option does not take, and an option nobody has, are refused; nothing changes.
    let r = send(&mut c, "/config option name:rally.recovery value:sideways").await;
    assert!(
        r.ephemeral && text(&r).contains("hull_first or structure_first"),
        "{}",
        text(&r)
    );
    let r = send(&mut c, "/config option name:edge.house value:on").await;
    assert!(
        r.ephemeral && text(&r).contains("no house option"),
        "{}",
        text(&r)
    );
    let again = c
        .store()
        .server_settings(saikoro_bot::fake_discord::DEFAULT_GUILD)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(again.house, stored.house);
    // No value: back to the default, which is not stored.
    send(&mut c, "/config option name:rally.recovery").await;
    let cleared = c
        .store()
        .server_settings(saikoro_bot::fake_discord::DEFAULT_GUILD)
        .await
        .unwrap()
        .unwrap();
    assert!(cleared.house.is_empty(), "{:?}", cleared.house);
    // A player cannot set them.
    let bob = player(&c, "bob");
    let r = as_(
        &mut c,
        &bob,
        "/config option name:rally.gentlemens_sport value:on",
    )
    .await;
    assert!(r.ephemeral, "{}", text(&r));
}

#[tokio::test]
async fn break_away_needs_three_successes_in_a_row_at_far_range() {
    let mut c = system_console().await;
    send(&mut c, "/session start name:Chase system:Shadowrun 4").await;
    // Far range, one pursuer: threshold 0 + 1. Four dice, two hits each time.
    for (n, dice) in [[5, 6, 1, 2], [5, 5, 2, 3]].into_iter().enumerate() {
        c.queue_dice(dice);
        let r = send(
            &mut c,
            "/sr-rig breakaway vehicle:Bike band:far pursuers:1 pool:4",
        )
        .await;
        assert!(!r.ephemeral, "{}", text(&r));
        assert!(text(&r).contains(&format!("**{}** / 3", n + 1)), "{}", text(&r));
        assert_eq!(
            sr_state(&c).await["chase"]["vehicles"]["bike"]["break_away"],
            n + 1
        );
    }
    // A failure (no hit against threshold 1) starts the count again.
    c.queue_dice([1, 2, 3, 4]);
    let r = send(
        &mut c,
        "/sr-rig breakaway vehicle:Bike band:far pursuers:1 pool:4",
    )
    .await;
    assert!(text(&r).contains("**0** / 3"), "{}", text(&r));
    assert!(sr_state(&c).await["chase"]["vehicles"].get("bike").is_none());
    // Three in a row: escaped, and the progress is cleared. Two pursuers: threshold 2.
    let mut last = String::new();
    for dice in [[5, 6, 1, 2], [5, 5, 2, 3], [6, 6, 6, 1]] {
        c.queue_dice(dice);
        let r = send(
            &mut c,
            "/sr-rig breakaway vehicle:Bike band:far pursuers:2 pool:4",
        )
        .await;
        assert!(!r.ephemeral, "{}", text(&r));
        last = text(&r);
    }
    assert!(
        last.contains("**3** / 3") && last.contains("Escaped") && last.contains("**yes**"),
        "{last}"
    );
    let state = sr_state(&c).await;
    assert!(state["chase"]["vehicles"].get("bike").is_none(), "{state}");
    // Only at far range: refused, nothing stored.
    let before = version(&c).await;
    let r = send(
        &mut c,
        "/sr-rig breakaway vehicle:Bike band:near pursuers:1 pool:4",
    )
    .await;
    assert!(r.ephemeral && text(&r).contains("range"), "{}", text(&r));
    assert_eq!(version(&c).await, before);
}

#[tokio::test]
async fn positioning_dice_go_to_the_next_chase_test_once() {
    let mut c = system_console().await;
    let gm = c.invoker();
    send(&mut c, "/session start name:Chase system:Shadowrun 4").await;
    send(&mut c, "/char add name:Ana stats:reaction=3 pilot_ground_craft=2").await;
    // Positioning with Ana's sheet: Reaction 3 + skill 2 = 5 dice, 2 hits → +2 dice.
    c.queue_dice([5, 6, 1, 2, 3]);
    let (id, r) = as_id(
        &mut c,
        &gm,
        "/sr-rig position vehicle:Ana skill:pilot_ground_craft",
    )
    .await;
    assert!(text(&r).contains("**+2**"), "{}", text(&r));
    assert_eq!(c.take_outcome(id).unwrap()["bonus"], 2);
    assert_eq!(sr_state(&c).await["chase"]["vehicles"]["ana"]["positioning"], 2);
    // The chase test: 5 + 2 dice for Ana, 2 for the quarry; the bonus is used up.
    c.queue_dice([5, 1, 1, 2, 3, 4, 2, 5, 2]);
    let (id, r) = as_id(
        &mut c,
        &gm,
        "/sr-rig chase quarry_pool:2 current:near character:Ana skill:pilot_ground_craft",
    )
    .await;
    assert!(!r.ephemeral, "{}", text(&r));
    let o = c.take_outcome(id).unwrap();
    assert_eq!(o["test"]["actor"]["pool"], 7, "{o}");
    assert!(sr_state(&c).await["chase"]["vehicles"].get("ana").is_none());
    // The next chase test has no bonus.
    c.queue_dice([5, 1, 1, 2, 3, 2, 2]);
    let (id, _) = as_id(
        &mut c,
        &gm,
        "/sr-rig chase quarry_pool:2 current:near character:Ana skill:pilot_ground_craft",
    )
    .await;
    assert_eq!(c.take_outcome(id).unwrap()["test"]["actor"]["pool"], 5);
}

#[tokio::test]
async fn cut_off_at_close_range_crashes_the_loser() {
    let mut c = system_console().await;
    let gm = c.invoker();
    // 4 dice against 2: 3 hits to 0, net 3. The target's crash test: 2 − 3 → no dice: crashed.
    c.queue_dice([5, 6, 5, 1, 2, 3]);
    let (id, r) = as_id(&mut c, &gm, "/sr-rig cutoff band:close target_pool:2 pool:4").await;
    assert!(!r.ephemeral, "{}", text(&r));
    let o = c.take_outcome(id).unwrap();
    assert_eq!(o["loser"], "second");
    assert_eq!(o["crashed"], true);
    assert!(o["crash_test"].is_null());
    // A tie cuts nobody off.
    c.queue_dice([5, 1, 6, 2]);
    let (id, _) = as_id(&mut c, &gm, "/sr-rig cutoff band:close target_pool:2 pool:2").await;
    let o = c.take_outcome(id).unwrap();
    assert!(o["loser"].is_null() && o["crashed"] == false, "{o}");
    // Only at close range.
    let r = send(&mut c, "/sr-rig cutoff band:far target_pool:2 pool:4").await;
    assert!(r.ephemeral, "{}", text(&r));
}
