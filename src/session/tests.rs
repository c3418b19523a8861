use serde_json::json;

use super::*;
use crate::i18n::{Lang, Localized};

const GUILD: u64 = 10;
const CHAN: u64 = 20;
const GM: u64 = 1;
const ALICE: u64 = 2;
const BOB: u64 = 3;
const ADMIN: u64 = 99;

fn session() -> Session {
    let mut s = Session::start(GUILD, CHAN, "Night Run", SystemId::Shadowrun4, GM, 1_000).unwrap();
    s.join(ALICE).unwrap();
    s.join(BOB).unwrap();
    s
}

fn with_entries() -> Session {
    let mut s = session();
    s.add_entry(Actor::user(ALICE), RosterEntry::new("Ghost", ALICE))
        .unwrap();
    s.add_entry(Actor::user(BOB), RosterEntry::new("Brick", BOB))
        .unwrap();
    s.add_entry(Actor::user(GM), RosterEntry::new("Ganger", GM))
        .unwrap();
    s
}

/// A refused transition must leave the session exactly as it was.
fn refused(s: &mut Session, f: impl FnOnce(&mut Session) -> Result<(), SessionError>) -> SessionError {
    let before = s.clone();
    let err = f(s).unwrap_err();
    assert_eq!(*s, before, "a refused transition changed the session");
    err
}

#[test]
fn start_trims_and_validates_the_name() {
    let s = Session::start(GUILD, CHAN, "  Night Run ", SystemId::Shadowrun4, GM, 5).unwrap();
    assert_eq!(s.name, "Night Run");
    assert!(s.is_active());
    assert_eq!((s.created_at_ms, s.updated_at_ms, s.version, s.id), (5, 5, 0, 0));
    let err = |n: &str| Session::start(GUILD, CHAN, n, SystemId::Shadowrun4, GM, 5).unwrap_err();
    assert_eq!(err("   "), SessionError::NameEmpty);
    assert_eq!(
        err(&"x".repeat(101)),
        SessionError::NameTooLong {
            max: MAX_SESSION_NAME_CHARS
        }
    );
    assert_eq!(err("a\nb"), SessionError::NameHasControl);
    // The cap counts characters, not bytes.
    assert!(Session::start(GUILD, CHAN, &"夜".repeat(100), SystemId::Terminator, GM, 5).is_ok());
}

#[test]
fn join_and_leave() {
    let mut s = session();
    assert_eq!(s.players, vec![ALICE, BOB]);
    assert!(s.is_member(GM) && s.is_member(ALICE) && !s.is_member(7));
    assert_eq!(refused(&mut s, |s| s.join(ALICE)), SessionError::AlreadyJoined);
    s.leave(ALICE).unwrap();
    assert_eq!(s.players, vec![BOB]);
    assert_eq!(refused(&mut s, |s| s.leave(ALICE)), SessionError::NotAPlayer);
}

#[test]
fn join_is_capped() {
    let mut s = session();
    for u in 100..(100 + MAX_PLAYERS as u64 - 2) {
        s.join(u).unwrap();
    }
    assert_eq!(
        refused(&mut s, |s| s.join(5)),
        SessionError::TooManyPlayers { max: MAX_PLAYERS }
    );
}

#[test]
fn leaving_keeps_the_players_entries() {
    let mut s = with_entries();
    s.leave(ALICE).unwrap();
    assert_eq!(s.entry("ghost").map(|e| e.owner), Some(ALICE));
}

#[test]
fn add_entry_checks_membership_names_and_ownership() {
    let mut s = session();
    s.add_entry(
        Actor::user(ALICE),
        RosterEntry::new(" Ghost ", ALICE).with_sheet(json!({"body": 3})),
    )
    .unwrap();
    assert_eq!(s.roster[0].name, "Ghost");
    assert_eq!(
        s.entry("GHOST").map(|e| e.sheet.clone()),
        Some(json!({"body": 3}).into())
    );

    let e = refused(&mut s, |s| {
        s.add_entry(Actor::user(ALICE), RosterEntry::new("ghost", ALICE))
    });
    assert_eq!(e, SessionError::DuplicateEntry { name: "ghost".into() });
    let e = refused(&mut s, |s| s.add_entry(Actor::user(7), RosterEntry::new("X", 7)));
    assert_eq!(e, SessionError::NotAPlayer);
    let e = refused(&mut s, |s| {
        s.add_entry(Actor::user(ALICE), RosterEntry::new("X", BOB))
    });
    assert_eq!(e, SessionError::NotOwner { name: "X".into() });
    let e = refused(&mut s, |s| {
        s.add_entry(Actor::user(ALICE), RosterEntry::new(" ", ALICE))
    });
    assert_eq!(e, SessionError::EntryNameEmpty);
    let e = refused(&mut s, |s| {
        s.add_entry(Actor::user(ALICE), RosterEntry::new("x".repeat(65), ALICE))
    });
    assert_eq!(
        e,
        SessionError::EntryNameTooLong {
            max: MAX_ENTRY_NAME_CHARS
        }
    );
    let e = refused(&mut s, |s| {
        s.add_entry(
            Actor::user(ALICE),
            RosterEntry::new("X", ALICE).with_sheet(json!(3)),
        )
    });
    assert_eq!(e, SessionError::SheetNotObject);
    let big = json!({ "notes": "x".repeat(MAX_SHEET_BYTES) });
    let e = refused(&mut s, |s| {
        s.add_entry(Actor::user(ALICE), RosterEntry::new("X", ALICE).with_sheet(big))
    });
    assert_eq!(
        e,
        SessionError::SheetTooLarge {
            max_bytes: MAX_SHEET_BYTES
        }
    );

    // The GM adds NPCs for anyone; a server manager needs no membership.
    s.add_entry(Actor::user(GM), RosterEntry::new("Mook", BOB))
        .unwrap();
    s.add_entry(Actor::manager(ADMIN), RosterEntry::new("Dragon", ADMIN))
        .unwrap();
    assert_eq!(s.roster.len(), 3);
}

#[test]
fn add_entry_checks_effects_and_the_roster_cap() {
    let mut s = session();
    let effect = |name: &str| Effect {
        name: name.into(),
        note: String::new(),
        rounds: Some(2),
    };
    let mut e = RosterEntry::new("X", ALICE);
    e.effects = vec![effect("stunned"); MAX_EFFECTS + 1];
    let err = refused(&mut s, |s| s.add_entry(Actor::user(ALICE), e));
    assert_eq!(err, SessionError::TooManyEffects { max: MAX_EFFECTS });
    let mut e = RosterEntry::new("X", ALICE);
    e.effects = vec![effect("")];
    let err = refused(&mut s, |s| s.add_entry(Actor::user(ALICE), e));
    assert!(matches!(err, SessionError::EffectTooLong { .. }));

    for i in 0..MAX_ROSTER_ENTRIES {
        s.add_entry(Actor::user(GM), RosterEntry::new(format!("npc {i}"), GM))
            .unwrap();
    }
    let err = refused(&mut s, |s| {
        s.add_entry(Actor::user(GM), RosterEntry::new("one more", GM))
    });
    assert_eq!(
        err,
        SessionError::RosterFull {
            max: MAX_ROSTER_ENTRIES
        }
    );
}

#[test]
fn edit_entry_changes_fields_and_checks_permission() {
    let mut s = with_entries();
    let edit = EntryEdit {
        sheet: Some(json!({"stun": 2})),
        ..EntryEdit::default()
    };
    s.edit_entry(Actor::user(ALICE), "ghost", edit).unwrap();
    assert_eq!(
        s.entry("Ghost").map(|e| e.sheet.clone()),
        Some(json!({"stun": 2}).into())
    );

    let effects = vec![Effect {
        name: "prone".into(),
        note: "fell".into(),
        rounds: None,
    }];
    s.edit_entry(
        Actor::user(GM),
        "Ghost",
        EntryEdit {
            effects: Some(effects.clone()),
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(s.entry("Ghost").map(|e| e.effects.clone()), Some(effects));

    let e = refused(&mut s, |s| {
        s.edit_entry(Actor::user(BOB), "Ghost", EntryEdit::default())
    });
    assert_eq!(e, SessionError::NotOwner { name: "Ghost".into() });
    let e = refused(&mut s, |s| {
        s.edit_entry(Actor::user(GM), "Nobody", EntryEdit::default())
    });
    assert_eq!(
        e,
        SessionError::UnknownEntry {
            name: "Nobody".into()
        }
    );
    let rename = |n: &str| EntryEdit {
        rename: Some(n.into()),
        ..EntryEdit::default()
    };
    let e = refused(&mut s, |s| {
        s.edit_entry(Actor::user(ALICE), "Ghost", rename("brick"))
    });
    assert_eq!(e, SessionError::DuplicateEntry { name: "brick".into() });
    let e = refused(&mut s, |s| {
        s.edit_entry(Actor::user(ALICE), "Ghost", rename(&"y".repeat(65)))
    });
    assert_eq!(
        e,
        SessionError::EntryNameTooLong {
            max: MAX_ENTRY_NAME_CHARS
        }
    );
    // A bad sheet after a good rename: nothing at all changes.
    let both = EntryEdit {
        rename: Some("Shade".into()),
        sheet: Some(json!([])),
        ..EntryEdit::default()
    };
    let e = refused(&mut s, |s| s.edit_entry(Actor::user(ALICE), "Ghost", both));
    assert_eq!(e, SessionError::SheetNotObject);
    let give = EntryEdit {
        owner: Some(BOB),
        ..EntryEdit::default()
    };
    let e = refused(&mut s, |s| {
        s.edit_entry(Actor::user(ALICE), "Ghost", give.clone())
    });
    assert_eq!(e, SessionError::NotGm);
    s.edit_entry(Actor::user(GM), "Ghost", give).unwrap();
    assert_eq!(s.entry("Ghost").map(|e| e.owner), Some(BOB));
    // Renaming to a different case of the same name is fine.
    s.edit_entry(Actor::user(BOB), "Ghost", rename("GHOST")).unwrap();
    assert_eq!(s.roster[0].name, "GHOST");
}

#[test]
fn rename_follows_into_the_turn_order() {
    let mut s = with_entries();
    s.set_turn_order(Actor::user(GM), &["ghost", "Brick"]).unwrap();
    s.edit_entry(
        Actor::user(ALICE),
        "Ghost",
        EntryEdit {
            rename: Some("Shade".into()),
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(s.turn.order, vec!["Shade", "Brick"]);
    s.validate().unwrap();
}

#[test]
fn remove_entry_checks_permission_and_fixes_the_turn_order() {
    let mut s = with_entries();
    let e = refused(&mut s, |s| s.remove_entry(Actor::user(BOB), "Ghost").map(drop));
    assert_eq!(e, SessionError::NotOwner { name: "Ghost".into() });
    let e = refused(&mut s, |s| s.remove_entry(Actor::user(GM), "nobody").map(drop));
    assert_eq!(
        e,
        SessionError::UnknownEntry {
            name: "nobody".into()
        }
    );

    s.set_turn_order(Actor::user(GM), &["Ghost", "Brick", "Ganger"])
        .unwrap();
    s.advance_turn(Actor::user(GM)).unwrap();
    s.advance_turn(Actor::user(GM)).unwrap();
    assert_eq!(s.turn.current_name(), Some("Ganger"));
    let removed = s.remove_entry(Actor::user(ALICE), "ghost").unwrap();
    assert_eq!(removed.name, "Ghost");
    assert_eq!(
        s.turn.current_name(),
        Some("Ganger"),
        "the current turn stays on its entry"
    );
    s.remove_entry(Actor::user(GM), "Ganger").unwrap();
    assert_eq!(s.turn.current_name(), Some("Brick"));
    s.remove_entry(Actor::manager(ADMIN), "Brick").unwrap();
    assert_eq!(s.turn, TurnState::default());
    s.validate().unwrap();
}

#[test]
fn set_gm_needs_a_manager() {
    let mut s = session();
    assert_eq!(
        refused(&mut s, |s| s.set_gm(Actor::user(ALICE), ALICE)),
        SessionError::NotGm
    );
    s.set_gm(Actor::user(GM), ALICE).unwrap();
    assert_eq!(s.gm, ALICE);
    s.set_gm(Actor::manager(ADMIN), BOB).unwrap();
    assert_eq!(s.gm, BOB);
}

#[test]
fn end_needs_a_manager_and_freezes_the_session() {
    let mut s = with_entries();
    assert_eq!(
        refused(&mut s, |s| s.end(Actor::user(ALICE), 9)),
        SessionError::NotGm
    );
    s.end(Actor::user(GM), 9).unwrap();
    assert!(!s.is_active());
    assert_eq!((s.ended_at_ms, s.updated_at_ms), (Some(9), 9));
    assert_eq!(
        refused(&mut s, |s| s.end(Actor::user(GM), 10)),
        SessionError::Ended
    );
    assert_eq!(refused(&mut s, |s| s.join(7)), SessionError::Ended);
    assert_eq!(refused(&mut s, |s| s.leave(ALICE)), SessionError::Ended);
    assert_eq!(
        refused(&mut s, |s| s
            .add_entry(Actor::user(GM), RosterEntry::new("Z", GM))),
        SessionError::Ended
    );
    assert_eq!(
        refused(&mut s, |s| s.edit_entry(
            Actor::user(GM),
            "Ghost",
            EntryEdit::default()
        )),
        SessionError::Ended
    );
    assert_eq!(
        refused(&mut s, |s| s.remove_entry(Actor::user(GM), "Ghost").map(drop)),
        SessionError::Ended
    );
    assert_eq!(
        refused(&mut s, |s| s.set_gm(Actor::user(GM), ALICE)),
        SessionError::Ended
    );
    assert_eq!(
        refused(&mut s, |s| s.set_turn_order(Actor::user(GM), &[])),
        SessionError::Ended
    );
    assert_eq!(
        refused(&mut s, |s| s.advance_turn(Actor::user(GM))),
        SessionError::Ended
    );
}

#[test]
fn turn_order_and_rounds() {
    let mut s = with_entries();
    assert_eq!(
        refused(&mut s, |s| s.advance_turn(Actor::user(GM))),
        SessionError::NoTurnOrder
    );
    assert_eq!(
        refused(&mut s, |s| s.set_turn_order(Actor::user(ALICE), &["Ghost"])),
        SessionError::NotGm
    );
    assert_eq!(
        refused(&mut s, |s| s
            .set_turn_order(Actor::user(GM), &["Ghost", "Nobody"])),
        SessionError::UnknownEntry {
            name: "Nobody".into()
        }
    );
    assert_eq!(
        refused(&mut s, |s| s.set_turn_order(Actor::user(GM), &["Ghost", "GHOST"])),
        SessionError::DuplicateInTurnOrder { name: "Ghost".into() }
    );
    s.set_turn_order(Actor::user(GM), &["brick", "ghost"]).unwrap();
    assert_eq!(
        s.turn,
        TurnState {
            order: vec!["Brick".into(), "Ghost".into()],
            current: 0,
            round: 1
        }
    );
    // Only the GM or the owner of the current entry passes the turn.
    assert_eq!(
        refused(&mut s, |s| s.advance_turn(Actor::user(ALICE))),
        SessionError::NotOwner { name: "Brick".into() }
    );
    s.advance_turn(Actor::user(BOB)).unwrap();
    assert_eq!((s.turn.current_name(), s.turn.round), (Some("Ghost"), 1));
    s.advance_turn(Actor::user(ALICE)).unwrap();
    assert_eq!((s.turn.current_name(), s.turn.round), (Some("Brick"), 2));
    s.set_turn_order(Actor::user(GM), &[]).unwrap();
    assert_eq!(s.turn, TurnState::default());
}

#[test]
fn validate_catches_hand_made_damage() {
    let good = with_entries();
    good.validate().unwrap();
    let mut s = good.clone();
    s.name = "x".repeat(101);
    assert_eq!(
        s.validate(),
        Err(SessionError::NameTooLong {
            max: MAX_SESSION_NAME_CHARS
        })
    );
    let mut s = good.clone();
    s.roster.push(RosterEntry::new("ghost", ALICE));
    assert_eq!(
        s.validate(),
        Err(SessionError::DuplicateEntry { name: "ghost".into() })
    );
    let mut s = good.clone();
    s.turn.order = vec!["Nobody".into()];
    assert_eq!(
        s.validate(),
        Err(SessionError::UnknownEntry {
            name: "Nobody".into()
        })
    );
    let mut s = good.clone();
    s.turn = TurnState {
        order: vec!["Ghost".into()],
        current: 3,
        round: 1,
    };
    assert_eq!(s.validate(), Err(SessionError::NoTurnOrder));
    let mut s = good;
    s.roster[0].sheet = json!("not an object").into();
    assert_eq!(s.validate(), Err(SessionError::SheetNotObject));
}

#[test]
fn sessions_round_trip_through_json() {
    let mut s = with_entries();
    s.set_turn_order(Actor::user(GM), &["Ghost"]).unwrap();
    s.roster[0].sheet = json!({"edge": 3, "monitor": {"physical": 2}}).into();
    let back: Session = serde_json::from_str(&serde_json::to_string(&s).unwrap()).unwrap();
    assert_eq!(back, s);
    let export = SessionExport::new(s, vec![]);
    let text = serde_json::to_string(&export).unwrap();
    assert!(text.contains("\"system\":\"shadowrun4\""));
    assert_eq!(export.format, EXPORT_FORMAT);
}

#[test]
fn system_ids_have_stable_keys_and_parse_leniently() {
    for s in SystemId::ALL {
        assert_eq!(s.key().parse::<SystemId>(), Ok(s));
        assert_eq!(serde_json::to_value(s).unwrap(), json!(s.key()));
        assert_eq!(s.display_name(Lang::En).parse::<SystemId>(), Ok(s));
        assert_eq!(s.display_name(Lang::Ja).parse::<SystemId>(), Ok(s));
        assert_eq!(s.to_string(), s.key());
    }
    assert_eq!("Mecha-D20".parse::<SystemId>(), Ok(SystemId::MechaD20));
    assert_eq!(
        " badlands rally ".parse::<SystemId>(),
        Ok(SystemId::BadlandsRally)
    );
    let err = SessionError::from("d&d".parse::<SystemId>().unwrap_err());
    assert_eq!(err, SessionError::UnknownSystem { input: "d&d".into() });
    assert!(err.localized(Lang::En).contains("d&d"));
    assert!(err.localized(Lang::Ja).contains("d&d"));
    let long = SessionError::from("z".repeat(500).parse::<SystemId>().unwrap_err());
    assert_eq!(
        long,
        SessionError::UnknownSystem {
            input: "z".repeat(40)
        }
    );
}

#[test]
fn server_settings_default_to_every_system_and_validate_house_options() {
    let mut s = ServerSettings::default();
    assert!(SystemId::ALL.iter().all(|&id| s.is_enabled(id)));
    // Settings stored before a field existed still load, with that field's default.
    let old: ServerSettings = serde_json::from_str(r#"{"gm_role": 5}"#).unwrap();
    assert_eq!(old.gm_role, Some(5));
    assert_eq!(old.enabled_systems.len(), SystemId::ALL.len());
    s.secret_rolls = SecretRolls::GmChannel { channel: 77 };
    s.language = Some(Lang::Ja);
    let back: ServerSettings = serde_json::from_value(serde_json::to_value(&s).unwrap()).unwrap();
    assert_eq!(back, s);
    s.validate().unwrap();
    s.house.insert("edge_rule".into(), "x".repeat(257));
    assert!(matches!(
        s.validate(),
        Err(SessionError::HouseOptionTooLong { .. })
    ));
    s.house.clear();
    for i in 0..=MAX_HOUSE_OPTIONS {
        s.house.insert(format!("k{i}"), "v".into());
    }
    assert_eq!(
        s.validate(),
        Err(SessionError::TooManyHouseOptions {
            max: MAX_HOUSE_OPTIONS
        })
    );
    let c: ChannelSettings = serde_json::from_str("{}").unwrap();
    assert_eq!(
        c,
        ChannelSettings {
            system: None,
            visibility: Visibility::Public
        }
    );
}

#[test]
fn every_error_speaks_both_languages() {
    let errors = [
        SessionError::NameEmpty,
        SessionError::NameTooLong { max: 100 },
        SessionError::NameHasControl,
        SessionError::EntryNameEmpty,
        SessionError::EntryNameTooLong { max: 64 },
        SessionError::DuplicateEntry { name: "A".into() },
        SessionError::UnknownEntry { name: "A".into() },
        SessionError::RosterFull { max: 50 },
        SessionError::TooManyEffects { max: 20 },
        SessionError::EffectTooLong {
            max: 64,
            note_max: 200,
        },
        SessionError::SheetNotObject,
        SessionError::SheetTooLarge { max_bytes: 16 },
        SessionError::NotAPlayer,
        SessionError::AlreadyJoined,
        SessionError::TooManyPlayers { max: 100 },
        SessionError::NotGm,
        SessionError::NotOwner { name: "A".into() },
        SessionError::Ended,
        SessionError::NoTurnOrder,
        SessionError::DuplicateInTurnOrder { name: "A".into() },
        SessionError::UnknownSystem { input: "x".into() },
        SessionError::TooManyHouseOptions { max: 32 },
        SessionError::HouseOptionTooLong {
            key_max: 64,
            value_max: 256,
        },
        SessionError::rule(&SessionError::Ended),
    ];
    for e in errors {
        let (en, ja) = (e.localized(Lang::En), e.localized(Lang::Ja));
        assert!(!en.is_empty() && !ja.is_empty() && en != ja, "{e:?}");
        assert!(!ja.is_ascii(), "{e:?} has no Japanese text");
    }
}
