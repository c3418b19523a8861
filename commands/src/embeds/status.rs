//! `/session status`: the roster as a board (one compact line per entry with what its system's
//! players watch), turn order and the system's own board (the rally's race board, …), split
//! over as many embeds and messages as Discord's limits need — never an entry silently dropped.

use engine::i18n::Lang;
use engine::session::{ServerSettings, Session};
use engine::systems::sheet::describe_sheet;

use super::markdown::escape;
use super::{EmbedView, colour, limits};

/// Longest roster line (an entry with a huge sheet is cut, the others still show).
pub const ENTRY_LINE: usize = 1000;
/// Most embeds in one message.
pub const EMBEDS_PER_MESSAGE: usize = 10;

/// `(name, value, inline)` fields for the session's system (its registry entry's board); empty
/// when it adds none.
pub fn system_status(
    session: &Session,
    settings: &ServerSettings,
    lang: Lang,
) -> Vec<(String, String, bool)> {
    crate::systems::bot(session.system).status_board(session, settings, lang)
}

/// The longest board line when the system gives none (a free-form sheet): its first fields.
pub const FREE_FORM_LINE: usize = 160;

/// One roster entry on one compact line: name, owner, what the system's players watch (its
/// registry entry's board line, or a free-form sheet's first fields), effects. The whole sheet
/// is `/char show`'s.
pub fn entry_line(session: &Session, index: usize, lang: Lang) -> String {
    let Some(e) = session.roster.get(index) else {
        return String::new();
    };
    let watched = crate::systems::bot(session.system)
        .board_line(&e.sheet, lang)
        .unwrap_or_else(|| {
            let stats: Vec<String> = describe_sheet(session.system, &e.sheet, lang)
                .into_iter()
                .map(|(k, v)| format!("{} {}", escape(&k), escape(&v)))
                .collect();
            limits::truncate(&stats.join(", "), FREE_FORM_LINE)
        });
    let mut line = format!("**{}** — <@{}>", escape(&e.name), e.owner);
    if !watched.is_empty() {
        line.push_str(&format!(" · {watched}"));
    }
    if !e.effects.is_empty() {
        let fx: Vec<String> = e.effects.iter().map(|f| escape(&f.name)).collect();
        line.push_str(&format!(" · [{}]", fx.join(", ")));
    }
    limits::truncate(&line, ENTRY_LINE)
}

fn header(s: &Session, lang: Lang) -> String {
    let players: Vec<String> = s.players.iter().map(|p| format!("<@{p}>")).collect();
    // No one has joined yet: say how, rather than an empty line.
    let players = if players.is_empty() {
        lang.pick("none yet: /session join", "まだいません：/session join")
            .to_string()
    } else {
        players.join(" ")
    };
    let system = s.system.display_name(lang);
    let mut text = match lang {
        Lang::En => format!("System: {system}\nGM: <@{}>\nPlayers: {players}", s.gm),
        Lang::Ja => format!("システム: {system}\nGM: <@{}>\nプレイヤー: {players}", s.gm),
    };
    if !s.turn.order.is_empty() {
        let order: Vec<String> = s
            .turn
            .order
            .iter()
            .enumerate()
            .map(|(i, n)| {
                if i == s.turn.current {
                    format!("**▶ {}**", escape(n))
                } else {
                    escape(n)
                }
            })
            .collect();
        // The system's own count where it has one (Shadowrun's turn and pass), so the status
        // and its initiative never disagree.
        let round = crate::systems::bot(s.system)
            .round_label(s, lang)
            .unwrap_or_else(|| match lang {
                Lang::En => format!("Round {}", s.turn.round),
                Lang::Ja => format!("ラウンド{}", s.turn.round),
            });
        text.push_str(&format!("\n{round}: {}", order.join(" → ")));
    }
    limits::truncate(&text, limits::DESCRIPTION / 2)
}

/// The status as embeds: the header and the roster lines packed into descriptions of at most
/// Discord's 4096 characters, then the system's board.
pub fn status_views(s: &Session, settings: &ServerSettings, lang: Lang) -> Vec<EmbedView> {
    let title = format!("📜 {}", s.name);
    let more = match lang {
        Lang::En => format!("📜 {} (continued)", s.name),
        Lang::Ja => format!("📜 {}（続き）", s.name),
    };
    let mut views = vec![EmbedView {
        title,
        description: header(s, lang),
        colour: colour::NEUTRAL,
        ..Default::default()
    }];
    let mut lines: Vec<String> = (0..s.roster.len()).map(|i| entry_line(s, i, lang)).collect();
    if lines.is_empty() {
        lines.push(
            lang.pick(
                "Roster: no entries yet: /char add",
                "ロスター: まだいません: /char add",
            )
            .into(),
        );
    }
    for (i, line) in lines.into_iter().enumerate() {
        let last = views.len() - 1;
        let desc = &mut views[last].description;
        let sep = if i == 0 { "\n\n" } else { "\n" };
        if desc.chars().count() + sep.chars().count() + line.chars().count() <= limits::DESCRIPTION {
            desc.push_str(sep);
            desc.push_str(&line);
        } else {
            views.push(EmbedView {
                title: limits::truncate(&more, limits::TITLE),
                description: line,
                colour: colour::NEUTRAL,
                ..Default::default()
            });
        }
    }
    let board = system_status(s, settings, lang);
    if !board.is_empty() {
        let last = views.len() - 1;
        let mut with_board = views[last].clone();
        with_board.fields.extend(board.iter().cloned());
        if with_board.fields.len() <= limits::FIELDS && with_board.limited() == with_board {
            views[last] = with_board;
        } else {
            views.push(EmbedView {
                title: limits::truncate(&more, limits::TITLE),
                colour: colour::NEUTRAL,
                fields: board,
                ..Default::default()
            });
        }
    }
    views
}

/// Embeds grouped into messages: at most 10 embeds and 6000 characters in each (Discord counts
/// the 6000 over all of a message's embeds).
pub fn pack_messages(views: Vec<EmbedView>) -> Vec<Vec<EmbedView>> {
    let mut messages: Vec<Vec<EmbedView>> = Vec::new();
    let mut chars = 0;
    for v in views {
        let v = v.limited();
        let n = v.total_chars();
        match messages.last_mut() {
            Some(m) if m.len() < EMBEDS_PER_MESSAGE && chars + n <= limits::TOTAL => {
                chars += n;
                m.push(v);
            }
            _ => {
                chars = n;
                messages.push(vec![v]);
            }
        }
    }
    messages
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::session::SystemId;

    /// Before anyone joins the line says how to, not nothing; then it lists who joined.
    #[test]
    fn the_players_line_says_how_to_join_until_someone_has() {
        let mut s = Session::start(1, 2, "Run", SystemId::Generic, 7, 0).unwrap();
        assert!(
            header(&s, Lang::En).contains("\nPlayers: none yet: /session join"),
            "{}",
            header(&s, Lang::En)
        );
        assert!(header(&s, Lang::Ja).contains("\nプレイヤー: まだいません：/session join"));
        s.players = vec![8, 9];
        assert!(
            header(&s, Lang::En).contains("\nPlayers: <@8> <@9>"),
            "{}",
            header(&s, Lang::En)
        );
    }
}
