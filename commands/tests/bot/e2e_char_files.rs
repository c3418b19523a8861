//! `/char export` and `/char import` end to end (issue 27): a character of every system goes
//! out as a file in one server and comes back in another exactly; bad files are refused with
//! their reason, in the reader's language, and change nothing.

use std::path::{Path, PathBuf};

use saikoro_bot::console::Console;
use saikoro_bot::fake_discord::{DEFAULT_CHANNEL, DEFAULT_GUILD, Invoker};
use serde_json::Value;

use crate::support::e2e::{as_, console, join_server, player, send, text};

/// A member of another server, in a channel there, with Manage Server (its GM). The bot joins
/// that server first: `/char` is registered per server.
async fn elsewhere(c: &mut Console) -> Invoker {
    let guild = DEFAULT_GUILD + 1;
    let mut who = c.invoker();
    who.guild_id = Some(guild);
    who.channel_id = DEFAULT_CHANNEL + 50;
    if c.fake.commands(Some(guild)).is_empty() {
        join_server(c, guild, &who).await;
    }
    who
}

/// The file a reply attached: its name and text.
fn attached(r: &saikoro_bot::fake_discord::Reply) -> (String, String) {
    let file = &r.body["files"][0];
    (
        file["filename"].as_str().unwrap_or_default().to_string(),
        file["content"].as_str().unwrap_or_default().to_string(),
    )
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

async fn roster(c: &Console, channel: u64) -> Vec<engine::session::RosterEntry> {
    c.store()
        .active_session(channel)
        .await
        .unwrap()
        .map(|s| s.roster)
        .unwrap_or_default()
}

/// `/char show`'s embed without what differs between two servers by design (none: the owner
/// is the same person, the importer).
fn shown(r: &saikoro_bot::fake_discord::Reply) -> Value {
    r.embeds()[0].clone()
}

#[tokio::test]
async fn every_systems_character_round_trips_to_another_server() {
    let cases: [(&str, &str, &str); 6] = [
        (
            "Shadowrun 4",
            "Ana",
            "/char add name:Ana stats:body=4 agility=5 reaction=4 intuition=3 willpower=3 edge=3 pistols=5 dodge=2 armour=6/4",
        ),
        (
            "Badlands Rally",
            "Hopper",
            "/char add name:Hopper model:jerboa stats:attack=4+ defence=3+ initiative=4+ mr=16 hits=2/1 ar=5 weapon1=\"Rifle 6 3-6/12 burst:1\"",
        ),
        (
            "warmachine",
            "Stalker",
            "/char add name:Stalker stats:controller=@gm mat=7 rat=4 def=13 arm=17 boxes=10 weapon1=\"Blade 13 melee\"",
        ),
        (
            "mecha_d20",
            "Zaku",
            "/char add name:Zaku stats:squad=Red leader=yes judgement=3 tactics=2 concentration=4 shooting=3 reaction=3 evade=2 ap=5 spirit=10 durability=6 armour=4 evasion=1 escape_device=5 w1=\"MG 2d6+3 r3 front left_arm\" w2=\"Axe 1d6+4 melee right_arm\"",
        ),
        (
            "Terminator Genisys",
            "Kyle",
            "/char add name:Kyle stats:side=Resistance profile=\"Kyle Reese\" skill=d8 resolution=d8 w1=\"Plasma rifle d10\"",
        ),
        (
            "generic",
            "Ada",
            "/char add name:Ada stats:hp=12 note=\"two words\"",
        ),
    ];
    let dir = tempfile::tempdir().unwrap();
    for (system, name, add) in cases {
        let mut c = console().await;
        send(&mut c, &format!("/session start name:Out system:{system}")).await;
        let added = send(&mut c, add).await;
        assert!(!added.ephemeral, "{system}: {}", text(&added));
        let out = send(&mut c, &format!("/char export name:{name}")).await;
        assert!(!out.ephemeral, "{system}: {}", text(&out));
        let (file, body) = attached(&out);
        assert_eq!(file, format!("{name}.saikoro.txt"));
        assert!(body.contains("format = 1\n"), "{body}");
        let path = write(dir.path(), &file, &body);

        let b = elsewhere(&mut c).await;
        as_(&mut c, &b, &format!("/session start name:In system:{system}")).await;
        let r = as_(&mut c, &b, &format!("/char import file:{}", path.display())).await;
        assert!(!r.ephemeral, "{system}: {}", text(&r));
        assert!(text(&r).contains(name), "{}", text(&r));

        let here = send(&mut c, &format!("/char show name:{name}")).await;
        let there = as_(&mut c, &b, &format!("/char show name:{name}")).await;
        assert_eq!(shown(&here), shown(&there), "{system}");
        let a = roster(&c, DEFAULT_CHANNEL).await;
        let z = roster(&c, b.channel_id).await;
        assert_eq!(a, z, "{system}: the stored entries are equal");
        // And the file of the copy is the file of the original, byte for byte.
        let again = as_(&mut c, &b, &format!("/char export name:{name}")).await;
        assert_eq!(attached(&again).1, body, "{system}");
        c.shutdown().await;
    }
}

#[tokio::test]
async fn a_whole_roster_goes_out_as_one_file_and_comes_back_in_one_go() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = console().await;
    send(&mut c, "/session start name:Out system:generic").await;
    send(&mut c, "/char add name:Ana stats:hp=12").await;
    send(&mut c, "/char add name:Bo stats:note=scout").await;
    let out = send(&mut c, "/char export").await;
    let (file, body) = attached(&out);
    assert_eq!(file, "Out-roster.saikoro.txt");
    assert_eq!(
        body,
        "# Saikoro character sheet (Generic)\nformat = 1\nsystem = generic\nname = Ana\nhp = 12\n---\n\
         # Saikoro character sheet (Generic)\nformat = 1\nsystem = generic\nname = Bo\nnote = scout\n"
    );
    assert_eq!(attached(&send(&mut c, "/char export name:all").await).1, body);
    // Issue 36: the Japanese description's word, typed in Japanese.
    assert_eq!(
        attached(&send(&mut c, "/キャラ 書き出し 名前:全員").await).1,
        body
    );
    let path = write(dir.path(), &file, &body);
    let b = elsewhere(&mut c).await;
    as_(&mut c, &b, "/session start name:In system:generic").await;
    let r = as_(&mut c, &b, &format!("/char import file:{}", path.display())).await;
    assert!(text(&r).contains("Imported 2"), "{}", text(&r));
    assert_eq!(roster(&c, DEFAULT_CHANNEL).await, roster(&c, b.channel_id).await);
}

#[tokio::test]
async fn bad_files_are_refused_with_their_reason_and_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = console().await;
    send(&mut c, "/session start name:Heist system:shadowrun4").await;
    send(&mut c, "/char add name:Ana stats:agility=3").await;
    let before = roster(&c, DEFAULT_CHANNEL).await;
    let good = attached(&send(&mut c, "/char export name:Ana").await).1;
    let sr = |body: &str| format!("format = 1\nsystem = shadowrun4\n{body}");
    let refusals: Vec<(&str, String, Vec<&str>)> = vec![
        (
            "wrong system",
            "format = 1\nsystem = generic\nname = Bo\nhp = 3\n".into(),
            vec!["Line 2:", "Generic sheet", "this game is Shadowrun 4"],
        ),
        (
            "wrong version",
            "format = 9\nsystem = shadowrun4\nname = Bo\n".into(),
            vec!["Line 1:", "format 9"],
        ),
        (
            "a field out of range",
            sr("name = Bo\nbody = 3\nagility = 99\n"),
            vec!["Line 5:", "agility"],
        ),
        (
            "not a sheet at all",
            "Dear diary, today\n".into(),
            vec!["Line 1:"],
        ),
        (
            "a roster with one bad sheet",
            format!(
                "{}---\n{}",
                sr("name = Bo\nbody = 3\n"),
                sr("name = Cy\nbody = x\n")
            ),
            vec!["Line 9:", "body"],
        ),
        (
            "a name already on the roster",
            good.replace("agility = 3", "agility = 4"),
            vec!["Ana", "already", "replace:true"],
        ),
    ];
    for (what, body, reasons) in &refusals {
        let path = write(dir.path(), "bad.saikoro.txt", body);
        let r = send(&mut c, &format!("/char import file:{}", path.display())).await;
        assert!(r.ephemeral, "{what}: refused to the importer only: {}", text(&r));
        for reason in reasons {
            assert!(text(&r).contains(reason), "{what}: `{reason}` in {}", text(&r));
        }
        assert_eq!(
            roster(&c, DEFAULT_CHANNEL).await,
            before,
            "{what}: nothing imported"
        );
    }
    // Bytes that are not text.
    let path = dir.path().join("picture.png");
    std::fs::write(&path, [0x89, b'P', b'N', b'G', 0xff, 0xfe]).unwrap();
    let r = send(&mut c, &format!("/char import file:{}", path.display())).await;
    assert!(text(&r).contains("not a Saikoro sheet file"), "{}", text(&r));

    // 10 MB: refused by its declared size, never downloaded.
    let downloads = c.fake.downloads();
    assert!(downloads >= refusals.len(), "the other files were downloaded");
    let path = dir.path().join("huge.saikoro.txt");
    std::fs::write(&path, vec![b'#'; 10 * 1024 * 1024]).unwrap();
    let r = send(&mut c, &format!("/char import file:{}", path.display())).await;
    assert!(text(&r).contains("larger than any sheet"), "{}", text(&r));
    assert_eq!(c.fake.downloads(), downloads, "no download request");
    assert_eq!(roster(&c, DEFAULT_CHANNEL).await, before);

    // In the reader's language, naming the line.
    send(&mut c, "/config language language:日本語").await;
    let path = write(
        dir.path(),
        "bad.saikoro.txt",
        &sr("name = Bo\nbody = 3\nagility = 99\n"),
    );
    let r = send(&mut c, &format!("/char import file:{}", path.display())).await;
    assert!(text(&r).contains("5行目"), "{}", text(&r));

    // replace:true lays the file over the entry of that name.
    send(&mut c, "/config language language:English").await;
    let path = write(
        dir.path(),
        "ana.saikoro.txt",
        &good.replace("agility = 3", "agility = 4"),
    );
    let r = send(
        &mut c,
        &format!("/char import file:{} replace:true", path.display()),
    )
    .await;
    assert!(!r.ephemeral, "{}", text(&r));
    assert_eq!(roster(&c, DEFAULT_CHANNEL).await.len(), 1);
    let r = send(&mut c, "/char show name:Ana").await;
    assert!(text(&r).contains("agility 4"), "{}", text(&r));
}

#[tokio::test]
async fn players_import_their_own_characters_and_the_gm_anyone() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = console().await;
    send(&mut c, "/session start name:Heist system:generic").await;
    let alice = player(&c, "alice");
    as_(&mut c, &alice, "/session join").await;
    let path = write(
        dir.path(),
        "bo.saikoro.txt",
        "format = 1\nsystem = generic\nname = Bo\nhp = 3\n",
    );
    let line = format!("/char import file:{} owner:@bob", path.display());
    let r = as_(&mut c, &alice, &line).await;
    assert!(r.ephemeral, "{}", text(&r));
    assert!(roster(&c, DEFAULT_CHANNEL).await.is_empty());
    let r = as_(&mut c, &alice, &format!("/char import file:{}", path.display())).await;
    assert!(!r.ephemeral, "{}", text(&r));
    assert_eq!(roster(&c, DEFAULT_CHANNEL).await[0].owner, alice.user.id);
    // The GM imports for bob.
    let path = write(
        dir.path(),
        "cy.saikoro.txt",
        "format = 1\nsystem = generic\nname = Cy\nhp = 4\n",
    );
    send(
        &mut c,
        &format!("/char import file:{} owner:@bob", path.display()),
    )
    .await;
    let bob = saikoro_bot::console::user_for("bob").id;
    assert_eq!(roster(&c, DEFAULT_CHANNEL).await[1].owner, bob);
}

/// The playing guide's import transcript: its file written out, its lines typed into the console
/// binary in that folder, the output compared with `docs/playing.md`.
#[test]
fn the_playing_guides_import_transcript_is_what_the_console_prints() {
    use std::io::Write;
    let guide = include_str!("../../../docs/playing.md");
    let start = guide
        .find("<!-- char file transcript: begin -->\n```text\n")
        .expect("the playing guide has the import transcript");
    let body = &guide[start..];
    let body = &body[body.find("```text\n").unwrap() + 8..];
    let body = &body[..body.find("```\n<!-- char file transcript: end -->").unwrap()];
    let file_start = body.find("$ cat ana.saikoro.txt\n").unwrap() + "$ cat ana.saikoro.txt\n".len();
    let run = body.find("$ saikoro console --user gm --admin --echo").unwrap();
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "ana.saikoro.txt", &body[file_start..run]);
    let transcript = &body[body.find("gm> ").unwrap()..];
    let input: String = transcript
        .lines()
        .filter_map(|l| l.strip_prefix("gm> "))
        .map(|l| format!("{l}\n"))
        .collect();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_saikoro"))
        .args(["console", "--user", "gm", "--admin", "--echo"])
        .current_dir(dir.path())
        .env_remove("DISCORD_TOKEN")
        .env_remove("DATABASE_URL")
        .env_remove("RUST_LOG")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("run saikoro");
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), transcript);
}

/// `--attach` gives the file to a line that leaves it out; a missing file is a clear error.
#[test]
fn the_console_attaches_a_file_by_flag() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "bo.saikoro.txt",
        "format = 1\nsystem = generic\nname = Bo\nhp = 3\n",
    );
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_saikoro"))
            .arg("console")
            .args(args)
            .current_dir(dir.path())
            .env_remove("DISCORD_TOKEN")
            .env_remove("DATABASE_URL")
            .env_remove("RUST_LOG")
            .output()
            .expect("run saikoro")
    };
    let out = run(&["--admin", "-c", "/char import", "--attach", "bo.saikoro.txt"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    // The file went with the line (the bot answered: no session here yet); without it the
    // line lacks its required `file`.
    assert!(stdout.contains("No session is running"), "{stdout}");
    let out = run(&["--admin", "-c", "/char import"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("missing required option `file`"), "{stdout}");
    let out = run(&["--admin", "-c", "/char import file:nope.txt"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("error: cannot attach `nope.txt`"), "{stdout}");
    assert_eq!(out.status.code(), Some(1));
}
