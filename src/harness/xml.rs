//! A small XML well-formedness check for the games' pictures (SVG): one root element, every
//! element closed in order, attributes quoted and not repeated, entities known, no markup
//! characters loose in text. Enough for what [`crate::engine::svg`] writes; not a parser.

/// Checks that `text` is one well-formed XML element (no prolog, comments or CDATA, which
/// the pictures never write).
pub fn check_well_formed(text: &str) -> Result<(), String> {
    let b = text.as_bytes();
    let mut i = 0;
    let mut stack: Vec<&str> = Vec::new();
    let mut roots = 0;
    let at = |i: usize| format!("at byte {i}");
    while i < b.len() {
        if b[i] == b'<' {
            let end = text[i..].find('>').map(|e| i + e).ok_or_else(|| format!("unclosed tag {}", at(i)))?;
            let inner = &text[i + 1..end];
            if let Some(name) = inner.strip_prefix('/') {
                let name = name.trim_end();
                let open = stack.pop().ok_or_else(|| format!("</{name}> closes nothing {}", at(i)))?;
                ensure!(open == name, "</{name}> closes <{open}> {}", at(i));
            } else {
                let self_closing = inner.ends_with('/');
                let inner = inner.strip_suffix('/').unwrap_or(inner);
                let name_end = inner.find(|c: char| c.is_whitespace()).unwrap_or(inner.len());
                let name = &inner[..name_end];
                ensure!(is_name(name), "bad element name {name:?} {}", at(i));
                check_attributes(&inner[name_end..]).map_err(|e| format!("<{name}>: {e} {}", at(i)))?;
                if stack.is_empty() {
                    roots += 1;
                    ensure!(roots == 1, "a second root element <{name}> {}", at(i));
                }
                if !self_closing {
                    stack.push(name);
                }
            }
            i = end + 1;
        } else {
            let end = text[i..].find('<').map_or(b.len(), |e| i + e);
            let chunk = &text[i..end];
            ensure!(!chunk.contains('>'), "a loose '>' in text {}", at(i));
            if stack.is_empty() {
                ensure!(chunk.trim().is_empty(), "text outside the root element {}", at(i));
            }
            check_entities(chunk).map_err(|e| format!("{e} {}", at(i)))?;
            i = end;
        }
    }
    ensure!(stack.is_empty(), "unclosed elements: {stack:?}");
    ensure!(roots == 1, "no root element");
    Ok(())
}

fn is_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | ':'))
}

fn check_attributes(mut rest: &str) -> Result<(), String> {
    let mut seen: Vec<&str> = Vec::new();
    loop {
        rest = rest.trim_start();
        if rest.is_empty() {
            return Ok(());
        }
        let eq = rest.find('=').ok_or_else(|| format!("attribute without a value: {rest:?}"))?;
        let name = rest[..eq].trim_end();
        ensure!(is_name(name), "bad attribute name {name:?}");
        ensure!(!seen.contains(&name), "attribute {name} twice");
        seen.push(name);
        let after = rest[eq + 1..].trim_start();
        let quote = after.chars().next().ok_or("attribute without a value")?;
        ensure!(quote == '"' || quote == '\'', "unquoted value of {name}");
        let close = after[1..].find(quote).ok_or_else(|| format!("unclosed value of {name}"))?;
        let value = &after[1..1 + close];
        ensure!(!value.contains('<'), "'<' in the value of {name}");
        check_entities(value)?;
        rest = &after[close + 2..];
        ensure!(rest.is_empty() || rest.starts_with(char::is_whitespace), "no space after the value of {name}");
    }
}

fn check_entities(text: &str) -> Result<(), String> {
    let mut rest = text;
    while let Some(amp) = rest.find('&') {
        let after = &rest[amp + 1..];
        let semi = after.find(';').ok_or("'&' without ';'")?;
        let entity = &after[..semi];
        let known = matches!(entity, "amp" | "lt" | "gt" | "quot" | "apos")
            || entity.strip_prefix("#x").is_some_and(|h| !h.is_empty() && h.chars().all(|c| c.is_ascii_hexdigit()))
            || entity.strip_prefix('#').is_some_and(|d| !d.is_empty() && d.chars().all(|c| c.is_ascii_digit()));
        ensure!(known, "unknown entity &{entity};");
        rest = &after[semi + 1..];
    }
    Ok(())
}

/// How many elements of `svg` carry class `class` (among others).
pub fn count_class(svg: &str, class: &str) -> usize {
    let mut n = 0;
    let mut rest = svg;
    while let Some(i) = rest.find("class=\"") {
        rest = &rest[i + 7..];
        let end = rest.find('"').unwrap_or(rest.len());
        if rest[..end].split_whitespace().any(|c| c == class) {
            n += 1;
        }
        rest = &rest[end..];
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn well_formed_documents_pass() {
        check_well_formed("<svg a=\"1\" b='2'><g class=\"x y\"><rect/><text>a &amp; b &#39;</text></g></svg>\n").unwrap();
        assert_eq!(count_class("<a class=\"x y\"/><b class=\"y\"/><c class=\"yy\"/>", "y"), 2);
    }

    #[test]
    fn malformed_documents_fail() {
        for bad in [
            "<svg><g></svg>",
            "<svg></g>",
            "<svg a=1/>",
            "<svg a=\"1\" a=\"2\"/>",
            "<svg>a & b</svg>",
            "<svg>a > b</svg>",
            "<svg/><svg/>",
            "<svg><text>&nbsp;</text></svg>",
            "<svg",
            "text<svg/>",
            "<svg a=\"<\"/>",
            "",
        ] {
            assert!(check_well_formed(bad).is_err(), "{bad:?} passed");
        }
    }
}
