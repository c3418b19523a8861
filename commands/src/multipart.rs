//! A `multipart/form-data` body as serenity sends one with files: the boundary from the content
//! type, and each part's head and where its content lies. The HTTP mode's relay (which swaps
//! the `payload_json` part) and the fake Discord (which reads every part) both read it here.

use std::borrow::Cow;
use std::ops::Range;

/// The boundary of a `multipart/…` content type; `None` for any other type.
pub fn boundary(content_type: &str) -> Option<&str> {
    if !content_type.starts_with("multipart/") {
        return None;
    }
    Some(content_type.split("boundary=").nth(1)?.trim_matches('"'))
}

/// One part: its head (the `Content-Disposition` and other header lines) and the range of
/// `body` its content takes, without the line break before the next delimiter.
pub struct Part<'a> {
    pub head: Cow<'a, str>,
    pub content: Range<usize>,
}

impl Part<'_> {
    /// Whether this is the form field `name`.
    pub fn is(&self, name: &str) -> bool {
        self.head.contains(&format!("name=\"{name}\""))
    }

    /// The file name of a file part.
    pub fn filename(&self) -> Option<&str> {
        self.head.split("filename=\"").nth(1)?.split('"').next()
    }
}

/// The parts of `body` in order. A part without a blank line after its head is skipped; the
/// closing delimiter (followed by `--`) has no part after it.
pub fn parts<'a>(body: &'a [u8], boundary: &str) -> Vec<Part<'a>> {
    let delimiter = format!("--{boundary}");
    let d = delimiter.as_bytes();
    let starts: Vec<usize> = body
        .windows(d.len())
        .enumerate()
        .filter(|(_, w)| *w == d)
        .map(|(i, _)| i)
        .collect();
    let mut parts = Vec::new();
    for pair in starts.windows(2) {
        let start = pair[0] + d.len();
        let part = &body[start..pair[1]];
        let Some(split) = part.windows(4).position(|w| w == b"\r\n\r\n") else {
            continue;
        };
        let content = &part[split + 4..];
        let len = content.strip_suffix(b"\r\n").unwrap_or(content).len();
        let from = start + split + 4;
        parts.push(Part {
            head: String::from_utf8_lossy(&part[..split]),
            content: from..from + len,
        });
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_serenity_upload_reads_as_its_parts() {
        let body = b"--XB\r\nContent-Disposition: form-data; name=\"payload_json\"\r\n\r\n{\"a\":1}\r\n\
--XB\r\nContent-Disposition: form-data; name=\"files[0]\"; filename=\"odds.png\"\r\n\r\nPNG\r\n--XB--\r\n";
        assert_eq!(boundary("multipart/form-data; boundary=\"XB\""), Some("XB"));
        assert_eq!(boundary("application/json"), None);
        let parts = parts(body, "XB");
        assert_eq!(parts.len(), 2);
        assert!(parts[0].is("payload_json") && parts[0].filename().is_none());
        assert_eq!(&body[parts[0].content.clone()], b"{\"a\":1}");
        assert_eq!(parts[1].filename(), Some("odds.png"));
        assert_eq!(&body[parts[1].content.clone()], b"PNG");
    }
}
