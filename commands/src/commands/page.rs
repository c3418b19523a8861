//! `/session export`'s page: one self-contained HTML file anyone can open — the session, its
//! recap (with any extra sections, the luck table among them) and every roll, in the reader's
//! language. No scripts and nothing fetched: the CSS is inline, the charts are inline SVG, and a
//! Content-Security-Policy forbids the rest. Every text from the log or the roster is escaped.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use engine::i18n::Lang;
use engine::session::{RollLogEntry, Session, SessionExport};

use super::recap::{self, Recap, RecapSection, count_text, rolls_text};
use super::stamps::{clock, date_and_clock, minute_utc};
use super::transcript::result_text;

/// Text for HTML element content and attribute values.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

const STYLE: &str = "body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}\
table{border-collapse:collapse;margin:.5rem 0 1.5rem}th,td{border:1px solid #ccc;padding:.25rem .5rem;text-align:left;vertical-align:top}\
th{background:#f2f2f2}td.n{text-align:right}code{font-size:.9em;word-break:break-word}\
.moment{white-space:nowrap}figure{margin:0 0 1.5rem}figcaption{font-size:.9em;color:#555}";

/// A horizontal bar chart as inline SVG: one bar per `(label, value)`, the value written
/// beside it. Negative values draw as empty bars.
pub fn bar_chart(caption: &str, bars: &[(String, f64)]) -> String {
    const ROW: usize = 24;
    const LABEL: usize = 260;
    /// Characters of a bar's label shown (the table above has it whole).
    const LABEL_CHARS: usize = 32;
    const WIDTH: usize = 360;
    let max = bars.iter().map(|(_, v)| *v).fold(0.0_f64, f64::max);
    let height = ROW * bars.len() + 8;
    let mut svg = format!(
        "<figure><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{height}\" role=\"img\" aria-label=\"{}\">",
        LABEL + WIDTH + 60,
        esc(caption)
    );
    for (i, (label, value)) in bars.iter().enumerate() {
        let y = i * ROW + 4;
        let label = if label.chars().count() > LABEL_CHARS {
            let cut: String = label.chars().take(LABEL_CHARS - 1).collect();
            format!("{cut}…")
        } else {
            label.clone()
        };
        let w = if max > 0.0 && value.is_finite() {
            (value.max(0.0) / max * WIDTH as f64).round() as usize
        } else {
            0
        };
        let shown = if value.fract() == 0.0 {
            format!("{value:.0}")
        } else {
            format!("{value:.1}")
        };
        let _ = write!(
            svg,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\" font-size=\"13\">{}</text>\
             <rect x=\"{}\" y=\"{y}\" width=\"{w}\" height=\"{}\" fill=\"#4a78b5\"/>\
             <text x=\"{}\" y=\"{}\" font-size=\"13\">{}</text>",
            LABEL - 6,
            y + 15,
            esc(&label),
            LABEL,
            ROW - 6,
            LABEL + w + 4,
            y + 15,
            esc(&shown)
        );
    }
    let _ = write!(svg, "</svg><figcaption>{}</figcaption></figure>", esc(caption));
    svg
}

fn table(id: &str, heads: &[String], rows: &[Vec<String>]) -> String {
    let mut t = format!("<table id=\"{id}\"><thead><tr>");
    for h in heads {
        let _ = write!(t, "<th>{}</th>", esc(h));
    }
    t.push_str("</tr></thead><tbody>");
    for row in rows {
        t.push_str("<tr>");
        for cell in row {
            let _ = write!(t, "<td>{}</td>", esc(cell));
        }
        t.push_str("</tr>");
    }
    t.push_str("</tbody></table>");
    t
}

fn extra_section(i: usize, s: &RecapSection) -> String {
    let mut out = format!(
        "<section id=\"extra-{i}\" class=\"extra\"><h3>{}</h3>",
        esc(&s.title)
    );
    out.push_str(&table(&format!("extra-{i}-table"), &s.columns, &s.rows));
    if !s.chart.is_empty() {
        out.push_str(&bar_chart(&s.title, &s.chart));
    }
    out.push_str("</section>");
    out
}

fn recap_section(r: &Recap, lang: Lang) -> String {
    let l = |en: &'static str, ja: &'static str| lang.pick(en, ja);
    let mut out = format!("<section id=\"recap\"><h2>{}</h2>", l("Recap", "振り返り"));
    let mut total = rolls_text(r.total_rolls, lang);
    if let Some(note) = recap::partial_note(r, lang) {
        total.push(' ');
        total.push_str(&note);
    }
    let _ = write!(out, "<p id=\"total-rolls\">{}</p>", esc(&total));
    let _ = write!(out, "<h3>{}</h3>", l("Who played", "参加者"));
    let heads = [
        l("Player", "プレイヤー").to_string(),
        l("Rolls", "ロール").to_string(),
        l("Moments", "名場面").to_string(),
    ];
    let mut t = String::from("<table id=\"players\"><thead><tr>");
    for h in &heads {
        let _ = write!(t, "<th>{}</th>", esc(h));
    }
    t.push_str("</tr></thead><tbody>");
    for p in &r.players {
        let gm = if p.gm { " · GM" } else { "" };
        let moments: Vec<String> = p
            .moments
            .iter()
            .map(|(k, n)| format!("<span class=\"moment\">{}</span>", esc(&count_text(*k, *n, lang))))
            .collect();
        let _ = write!(
            t,
            "<tr><td>{}{gm}</td><td class=\"n\">{}</td><td>{}</td></tr>",
            esc(&p.label()),
            p.rolls,
            moments.join(" · ")
        );
    }
    t.push_str("</tbody></table>");
    out.push_str(&t);
    let bars: Vec<(String, f64)> = r.players.iter().map(|p| (p.label(), p.rolls as f64)).collect();
    if r.total_rolls > 0 {
        out.push_str(&bar_chart(
            l("Rolls per player", "プレイヤーごとのロール数"),
            &bars,
        ));
    }
    let _ = write!(out, "<h3>{}</h3>", l("Moments", "名場面"));
    if r.moments.is_empty() {
        let _ = write!(out, "<p>{}</p>", l("None this time.", "今回はありませんでした。"));
    } else {
        let totals: Vec<String> = r
            .totals
            .iter()
            .map(|(k, n)| esc(&count_text(*k, *n, lang)))
            .collect();
        let _ = write!(
            out,
            "<p id=\"moment-totals\">{}</p><ol id=\"moments\">",
            totals.join(" · ")
        );
        for m in &r.moments {
            let (who, subject) = m.listing(r, lang, recap::PlayerRecap::label, str::to_string);
            let _ = write!(
                out,
                "<li>{} {} — {} {}{} <code>{}</code></li>",
                esc(&clock(m.at_ms)),
                esc(&who),
                esc(m.kind.icon),
                esc(m.kind.name(lang)),
                esc(&subject),
                esc(&super::transcript::command_text(&m.command, lang))
            );
        }
        out.push_str("</ol>");
    }
    for (i, s) in r.extra.iter().enumerate() {
        out.push_str(&extra_section(i, s));
    }
    out.push_str("</section>");
    out
}

/// The whole page. `hidden(entry)`: the label of a roll the reader may not see (its command
/// and result left out), `None` for one they may.
pub fn html(
    export: &SessionExport,
    r: &Recap,
    lang: Lang,
    hidden: impl Fn(&RollLogEntry) -> Option<String>,
) -> String {
    let s = &export.session;
    // Members a command or result mentions, by name: the page is read outside Discord.
    let names = crate::log_line::last_names(&export.log);
    let known = crate::log_line::known_members(&names, s);
    let label = |user: u64| r.roller(user).map(|p| p.label());
    let mut rows = HtmlRows::new(lang);
    for entry in &export.log {
        rows.push(entry, hidden(entry).as_deref(), &BTreeMap::new(), &label, &known);
    }
    rows.finish(html_head(s, r, lang))
}

/// The page down to its Rolls heading: the session, the recap and the roster.
pub fn html_head(s: &Session, r: &Recap, lang: Lang) -> String {
    let l = |en: &'static str, ja: &'static str| lang.pick(en, ja);
    let code = lang.code();
    let mut out = format!(
        "<!DOCTYPE html>\n<html lang=\"{code}\"><head><meta charset=\"utf-8\">\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{}</title><style>{STYLE}</style></head><body>",
        esc(&s.name)
    );
    let _ = write!(out, "<header><h1 id=\"session-name\">{}</h1><dl>", esc(&s.name));
    let mut facts = vec![
        (l("System", "システム"), s.system.display_name(lang).to_string()),
        ("GM", r.roller(s.gm).map_or_else(|| member(s, s.gm), |p| p.name())),
        (l("Started", "開始"), minute_utc(s.created_at_ms)),
    ];
    if let Some(end) = s.ended_at_ms {
        facts.push((l("Ended", "終了"), minute_utc(end)));
    }
    for (k, v) in facts {
        let _ = write!(out, "<dt>{}</dt><dd>{}</dd>", esc(k), esc(&v));
    }
    out.push_str("</dl></header>");
    out.push_str(&recap_section(r, lang));
    if !s.roster.is_empty() {
        let _ = write!(out, "<section id=\"roster\"><h2>{}</h2>", l("Roster", "ロスター"));
        let rows: Vec<Vec<String>> = s
            .roster
            .iter()
            .map(|e| {
                let owner = r.roller(e.owner).map_or_else(|| member(s, e.owner), |p| p.name());
                vec![e.name.clone(), owner]
            })
            .collect();
        out.push_str(&table(
            "roster-table",
            &[l("Name", "名前").to_string(), l("Owner", "所有者").to_string()],
            &rows,
        ));
        out.push_str("</section>");
    }
    let _ = write!(out, "<section id=\"log\"><h2>{}</h2>", l("Rolls", "ロール"));
    out
}

/// The page's log table rows, written as the log is read (see [`html`]).
pub struct HtmlRows {
    lang: Lang,
    out: String,
    /// A campaign's log: the evening the last row was played in.
    evening: Option<u32>,
}

impl HtmlRows {
    pub fn new(lang: Lang) -> HtmlRows {
        HtmlRows {
            lang,
            out: String::new(),
            evening: None,
        }
    }

    /// One roll: `hidden`, the label of a roll the reader may not see; `evenings`, a
    /// campaign's evening numbers by session; `label(user)`, who rolled when the row kept no
    /// name; `known`, the members a text may mention.
    pub fn push(
        &mut self,
        entry: &RollLogEntry,
        hidden: Option<&str>,
        evenings: &BTreeMap<i64, u32>,
        label: &impl Fn(u64) -> Option<String>,
        known: &impl Fn(u64) -> Option<String>,
    ) {
        let lang = self.lang;
        // A campaign's log: a heading row where each evening begins.
        if let Some(&n) = evenings.get(&entry.session_id)
            && self.evening != Some(n)
        {
            self.evening = Some(n);
            let heading = match lang {
                Lang::En => format!("Evening {n}"),
                Lang::Ja => format!("第{n}回"),
            };
            let _ = write!(
                self.out,
                "<tr class=\"evening\"><th colspan=\"4\">{}</th></tr>",
                esc(&heading)
            );
        }
        let named = |text: String| crate::log_line::mentions_as_names(&text, known);
        let who = crate::log_line::roller_name(entry)
            .or_else(|| label(entry.user_id))
            .unwrap_or_else(|| format!("<@{}>", entry.user_id));
        let time = esc(&date_and_clock(entry.at_ms));
        let _ = match hidden {
            Some(label) => write!(
                self.out,
                "<tr class=\"hidden\"><td>{time}</td><td>{}</td><td colspan=\"2\">{}</td></tr>",
                esc(&who),
                esc(label)
            ),
            None => write!(
                self.out,
                "<tr><td>{time}</td><td>{}</td><td><code>{}</code></td><td>{}</td></tr>",
                esc(&who),
                esc(&named(super::transcript::command_text(&entry.command, lang))),
                result_html(&named(result_text(entry, lang)))
            ),
        };
    }

    /// The whole page: `head` ([`html_head`]), then the log table.
    pub fn finish(self, mut out: String) -> String {
        let l = |en: &'static str, ja: &'static str| self.lang.pick(en, ja);
        if self.out.is_empty() {
            let _ = write!(out, "<p>{}</p>", l("No rolls.", "ロールはありません。"));
        } else {
            let _ = write!(
                out,
                "<table id=\"log-table\"><thead><tr><th>{}</th><th>{}</th><th>{}</th><th>{}</th></tr></thead><tbody>",
                l("Time (UTC)", "時刻（UTC）"),
                l("Who", "誰"),
                l("Command", "コマンド"),
                l("Result", "結果")
            );
            out.push_str(&self.out);
            out.push_str("</tbody></table>");
        }
        out.push_str("</section></body></html>\n");
        out
    }
}

/// A result as escaped HTML with its Markdown bold (`**9**`, as Discord and the transcript show
/// it) as bold; an unpaired `**` stays as written.
fn result_html(text: &str) -> String {
    let escaped = esc(text);
    let pieces: Vec<&str> = escaped.split("**").collect();
    let mut out = String::with_capacity(escaped.len() + 16);
    for (i, piece) in pieces.iter().enumerate() {
        match (i % 2 == 1, i + 1 < pieces.len()) {
            (true, true) => {
                out.push_str("<strong>");
                out.push_str(piece);
                out.push_str("</strong>");
            }
            (true, false) => {
                out.push_str("**");
                out.push_str(piece);
            }
            _ => out.push_str(piece),
        }
    }
    out
}

/// Someone who never rolled, by the name the game last saw them under (else a mention).
fn member(s: &engine::session::Session, user: u64) -> String {
    s.name_of(user)
        .map_or_else(|| format!("<@{user}>"), str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_results_bold_is_bold_and_nothing_else_is_markup() {
        assert_eq!(result_html("**9**"), "<strong>9</strong>");
        assert_eq!(
            result_html("hits **2** vs <b>1</b> → **Hit**"),
            "hits <strong>2</strong> vs &lt;b&gt;1&lt;/b&gt; → <strong>Hit</strong>"
        );
        assert_eq!(
            result_html("2 ** 3 **4** 5 **"),
            "2 <strong> 3 </strong>4<strong> 5 </strong>"
        );
        assert_eq!(result_html("a ** b"), "a ** b");
        assert_eq!(result_html("no bold"), "no bold");
    }

    #[test]
    fn text_is_escaped_for_content_and_attributes() {
        assert_eq!(
            esc(r#"<b>"Eve" & 'Co'</b>"#),
            "&lt;b&gt;&quot;Eve&quot; &amp; &#39;Co&#39;&lt;/b&gt;"
        );
    }

    #[test]
    fn a_chart_is_inline_svg_with_escaped_labels_and_bars_to_scale() {
        let svg = bar_chart("Rolls", &[("<i>A</i>".into(), 4.0), ("B".into(), 2.0)]);
        assert!(
            svg.starts_with("<figure><svg xmlns=\"http://www.w3.org/2000/svg\""),
            "{svg}"
        );
        assert!(
            svg.contains("&lt;i&gt;A&lt;/i&gt;") && !svg.contains("<i>"),
            "{svg}"
        );
        assert!(
            svg.contains("width=\"360\"") && svg.contains("width=\"180\""),
            "{svg}"
        );
    }
}
