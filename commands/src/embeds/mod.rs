//! From engine outcomes to Discord embeds. Renderers build an [`EmbedView`]; the view enforces
//! Discord's limits (which serenity only partly checks) so a long roll is shortened by us, never
//! rejected by Discord.

pub mod chart_canvas;
pub mod chart_png;
pub mod chart_text;
pub mod limits;
pub mod markdown;
pub mod odds;
pub mod roll;
pub mod status;

use serenity::all::{CreateEmbed, CreateEmbedFooter};

pub use limits::truncate;

/// Colours by result, so a glance tells good from bad.
pub mod colour {
    pub const NEUTRAL: u32 = 0x5865F2;
    pub const SUCCESS: u32 = 0x2ECC71;
    pub const FAILURE: u32 = 0xE74C3C;
    pub const WARNING: u32 = 0xF1C40F;
    /// Something went wrong in the dice (a glitch): orange, apart from success and failure.
    pub const ALERT: u32 = 0xE67E22;
    /// Something went badly wrong (a critical glitch): darker than any failure.
    pub const CRITICAL: u32 = 0x8B0000;

    /// The colour of an engine [`Tone`](engine::systems::rules::Tone).
    pub fn of_tone(tone: engine::systems::rules::Tone) -> u32 {
        use engine::systems::rules::Tone;
        match tone {
            Tone::Neutral => NEUTRAL,
            Tone::Warning => ALERT,
            Tone::Critical => CRITICAL,
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EmbedView {
    pub title: String,
    pub description: String,
    pub colour: u32,
    pub fields: Vec<(String, String, bool)>,
    pub footer: Option<String>,
}

impl EmbedView {
    /// The view in one line (a log's summary): its title and the first line of its description,
    /// headings' `#` marks left out.
    pub fn headline(&self) -> String {
        let first = self
            .description
            .lines()
            .map(|l| l.trim_start_matches('#').trim())
            .find(|l| !l.is_empty());
        match first {
            Some(line) if !self.title.is_empty() => format!("{} — {line}", self.title),
            Some(line) => line.to_string(),
            None => self.title.clone(),
        }
    }

    /// Apply every Discord embed limit: each part's own cap, at most 25 fields, and 6000
    /// characters in all (fields are dropped from the end, then the description is cut).
    pub fn limited(&self) -> EmbedView {
        use limits::*;
        let mut v = EmbedView {
            title: truncate(&self.title, TITLE),
            description: truncate(&self.description, DESCRIPTION),
            colour: self.colour,
            fields: self
                .fields
                .iter()
                .take(FIELDS)
                .map(|(n, val, i)| (truncate(n, FIELD_NAME), truncate(val, FIELD_VALUE), *i))
                .collect(),
            footer: self.footer.as_ref().map(|f| truncate(f, FOOTER)),
        };
        while v.total_chars() > TOTAL && !v.fields.is_empty() {
            v.fields.pop();
        }
        if v.total_chars() > TOTAL {
            let room = TOTAL.saturating_sub(v.total_chars() - v.description.chars().count());
            v.description = truncate(&v.description, room);
        }
        v
    }

    pub fn total_chars(&self) -> usize {
        self.title.chars().count()
            + self.description.chars().count()
            + self
                .fields
                .iter()
                .map(|(n, v, _)| n.chars().count() + v.chars().count())
                .sum::<usize>()
            + self.footer.as_ref().map_or(0, |f| f.chars().count())
    }

    pub fn to_embed(&self) -> CreateEmbed {
        let v = self.limited();
        // Japanese text names commands the Japanese way (`command_names`).
        let ja = |s: &str| crate::command_names::in_japanese_text(s).into_owned();
        let mut e = CreateEmbed::new().colour(v.colour);
        if !v.title.is_empty() {
            e = e.title(ja(&v.title));
        }
        // The last guard against links in user text (see `markdown`): we never write links.
        if !v.description.is_empty() {
            e = e.description(markdown::defuse_links(&ja(&v.description)));
        }
        for (name, value, inline) in v.fields {
            e = e.field(
                markdown::defuse_links(&ja(&name)),
                markdown::defuse_links(&ja(&value)),
                inline,
            );
        }
        if let Some(f) = v.footer {
            e = e.footer(CreateEmbedFooter::new(ja(&f)));
        }
        e
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn huge_views_fit_discords_limits() {
        let v = EmbedView {
            title: "t".repeat(300),
            description: "d".repeat(5000),
            colour: 0,
            fields: (0..40)
                .map(|i| (format!("f{i}"), "v".repeat(2000), false))
                .collect(),
            footer: Some("x".repeat(3000)),
        };
        let l = v.limited();
        assert!(l.title.chars().count() <= limits::TITLE);
        assert!(l.description.chars().count() <= limits::DESCRIPTION);
        assert!(l.fields.len() <= limits::FIELDS);
        assert!(
            l.fields
                .iter()
                .all(|(n, v, _)| n.chars().count() <= 256 && v.chars().count() <= 1024)
        );
        assert!(l.footer.as_ref().unwrap().chars().count() <= limits::FOOTER);
        assert!(l.total_chars() <= limits::TOTAL, "{}", l.total_chars());
    }

    #[test]
    fn small_views_are_untouched() {
        let v = EmbedView {
            title: "2d6".into(),
            description: "7".into(),
            ..Default::default()
        };
        assert_eq!(v.limited(), v);
    }
}
