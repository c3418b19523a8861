//! Who is typing: a name, whether they manage the server, and their roles — turned into the
//! member Discord would describe in an interaction. Names map to stable ids, so `bob` is the
//! same person in every line and across runs over one `--data-dir`.

use std::hash::{Hash, Hasher};

use crate::fake_discord::{self, FakeUser, Invoker};

use super::line::named_id;

/// What an ordinary member may do in a channel: see it, read it, write, embed, attach, react
/// and use application commands (Discord's @everyone defaults).
pub const MEMBER_PERMISSIONS: u64 = (1 << 6) // add reactions
    | (1 << 10) // view channel
    | (1 << 11) // send messages
    | (1 << 14) // embed links
    | (1 << 15) // attach files
    | (1 << 16) // read message history
    | (1 << 31); // use application commands

/// Manage Server: what `--admin` adds (the bot's admin commands ask for it).
pub const MANAGE_GUILD: u64 = 1 << 5;

/// A stable fake user id for a name, so `@bob` is the same person all session.
pub fn user_for(name: &str) -> FakeUser {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    name.hash(&mut h);
    // Keep ids in the snowflake range Discord uses and clear of the bot's own id.
    FakeUser {
        id: 100_000_000_000_000_000 + (h.finish() % 800_000_000_000_000_000),
        name: name.to_string(),
        bot: false,
    }
}

/// A person at the table as the console plays them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Who {
    pub name: String,
    /// Has Manage Server.
    pub admin: bool,
    /// Role names (`GM`): each becomes a role id the same way `role:@GM` in a line does, so
    /// `/config gm-role role:@GM` and `--role GM` meet.
    pub roles: Vec<String>,
}

impl Who {
    pub fn member(name: &str) -> Who {
        Who {
            name: name.to_string(),
            admin: false,
            roles: Vec::new(),
        }
    }

    pub fn user(&self) -> FakeUser {
        user_for(&self.name)
    }

    pub fn permissions(&self) -> u64 {
        if self.admin {
            MEMBER_PERMISSIONS | MANAGE_GUILD
        } else {
            MEMBER_PERMISSIONS
        }
    }

    /// The invoker in the default server and channel, with the client's `locale`.
    pub fn invoker(&self, locale: &str) -> Invoker {
        Invoker {
            user: self.user(),
            locale: locale.to_string(),
            guild_id: Some(fake_discord::DEFAULT_GUILD),
            channel_id: fake_discord::DEFAULT_CHANNEL,
            permissions: self.permissions(),
            roles: self.roles.iter().map(|r| named_id(r)).collect(),
        }
    }

    /// `bob`, `bob admin`, `carol role:GM admin`: the words after `as`.
    pub fn parse(words: &str) -> Result<Who, String> {
        let mut parts = words.split_whitespace();
        let name = parts
            .next()
            .ok_or("`as` needs a name: `as bob`, `as carol admin`, `as dana role:GM`")?;
        let mut who = Who::member(name.trim_start_matches('@'));
        for w in parts {
            match w.split_once(':') {
                None if w.eq_ignore_ascii_case("admin") => who.admin = true,
                Some((k, r)) if k.eq_ignore_ascii_case("role") && !r.is_empty() => who
                    .roles
                    .push(r.trim_start_matches("@&").trim_start_matches('@').to_string()),
                _ => {
                    return Err(format!(
                        "`{w}`: after the name only `admin` and `role:NAME` are understood"
                    ));
                }
            }
        }
        Ok(who)
    }

    /// `bob`, `bob (admin)`, `bob (admin, role GM)`.
    pub fn describe(&self) -> String {
        let mut marks = Vec::new();
        if self.admin {
            marks.push("admin".to_string());
        }
        marks.extend(self.roles.iter().map(|r| format!("role {r}")));
        if marks.is_empty() {
            self.name.clone()
        } else {
            format!("{} ({})", self.name, marks.join(", "))
        }
    }
}

/// Whether a member with `permissions` may see a command registered with
/// `default_member_permissions` (Discord hides it otherwise; Administrator sees everything).
pub fn may_use(command: &serde_json::Value, permissions: u64) -> bool {
    const ADMINISTRATOR: u64 = 1 << 3;
    let needed: u64 = command["default_member_permissions"]
        .as_str()
        .and_then(|p| p.parse().ok())
        .unwrap_or(0);
    permissions & ADMINISTRATOR != 0 || permissions & needed == needed
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn as_lines_name_a_person_with_admin_and_roles() {
        let w = Who::parse("carol admin role:GM").unwrap();
        assert_eq!(w.name, "carol");
        assert!(w.admin);
        assert_eq!(w.roles, vec!["GM".to_string()]);
        assert_eq!(w.describe(), "carol (admin, role GM)");
        assert_eq!(w.invoker("en-US").roles, vec![named_id("GM")]);
        assert_eq!(Who::parse("@bob").unwrap(), Who::member("bob"));
        assert!(Who::parse("").is_err());
        assert!(Who::parse("bob boss").is_err());
    }

    #[test]
    fn a_plain_member_cannot_manage_the_server() {
        let bob = Who::member("bob");
        assert_eq!(bob.permissions() & MANAGE_GUILD, 0);
        let config = json!({ "name": "config", "default_member_permissions": "32" });
        assert!(!may_use(&config, bob.permissions()));
        assert!(may_use(&config, Who::parse("bob admin").unwrap().permissions()));
        assert!(may_use(&json!({ "name": "roll" }), bob.permissions()));
        assert!(may_use(&config, 1 << 3));
        assert_eq!(user_for("bob"), bob.user());
    }
}
