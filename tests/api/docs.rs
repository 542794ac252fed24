//! The docs hold to the code. Every `curl` example in README.md,
//! docs/api.md and docs/reservations.md that shows its answer on the `# `
//! line(s) after it (`# {"slug":"..."}`, or `# 201 {...}` with the status
//! first, or `# 204` alone) is sent to a real app and must be answered as
//! shown; an answer the doc cuts short with `...` is not compared. And
//! every relative link between the docs leads to a file, and a heading in
//! it, that exist.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use reqwest::Method;
use serde_json::Value;

use crate::fixtures::{RedisServer, debian_cldr, load};
use crate::helpers::App;

/// A file of the repository, read whole.
fn read(relative: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(relative);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// One documented request and the answer the doc shows for it.
#[derive(Debug)]
struct Example {
    /// `file:line` of the `curl` line, for messages.
    at: String,
    method: Method,
    /// Path and query, as written (percent-encoded).
    path: String,
    headers: Vec<(String, String)>,
    body: Option<String>,
    status: u16,
    /// `None` for an answer without a body (`# 204`).
    answer: Option<Value>,
}

/// The examples of `file` with a shown answer, in order, and how many
/// answers the doc cuts short.
fn examples(file: &str) -> (Vec<Example>, usize) {
    let text = read(file);
    let lines: Vec<&str> = text.lines().collect();
    let (mut found, mut elided) = (Vec::new(), 0);
    let mut in_code = false;
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if line.starts_with("```") {
            in_code = !in_code;
        }
        if !(in_code && line.starts_with("curl ")) {
            i += 1;
            continue;
        }
        let at = format!("{file}:{}", i + 1);
        // The command goes on while a line ends in `\` or a quote is open.
        let mut command = line.to_owned();
        while command.ends_with('\\') || shlex::split(&command).is_none() {
            i += 1;
            assert!(i < lines.len(), "{at}: the command never ends");
            command.push('\n');
            command.push_str(lines[i]);
        }
        i += 1;
        let mut shown = Vec::new();
        while i < lines.len() && lines[i].starts_with('#') {
            shown.push(lines[i].trim_start_matches('#').trim());
            i += 1;
        }
        let words: Vec<String> = shlex::split(&command)
            .unwrap()
            .into_iter()
            .filter(|w| !w.is_empty())
            .collect();
        if shown.is_empty() || words.iter().any(|w| w == "|") {
            // No answer shown, or the answer of another program.
            continue;
        }
        let shown = shown.join(" ");
        if shown.contains("...") {
            elided += 1;
            continue;
        }
        let (status, answer) = parse_answer(&shown, &at);
        found.push(request(&words, status, answer, at));
    }
    (found, elided)
}

/// `201 {...} (a remark)`, `{...}` or `204`: the status (200 when not
/// shown) and the JSON body, if any.
fn parse_answer(shown: &str, at: &str) -> (u16, Option<Value>) {
    let (status, rest) = match shown.split_once(' ') {
        Some((s, rest)) if s.len() == 3 && s.parse::<u16>().is_ok() => (s.parse().unwrap(), rest),
        _ if shown.len() == 3 && shown.parse::<u16>().is_ok() => (shown.parse().unwrap(), ""),
        _ => (200, shown),
    };
    if rest.trim().is_empty() {
        return (status, None);
    }
    let mut values = serde_json::Deserializer::from_str(rest).into_iter::<Value>();
    let answer = match values.next() {
        Some(Ok(v)) => v,
        other => panic!("{at}: the answer {rest:?} is not JSON: {other:?}"),
    };
    let remark = rest[values.byte_offset()..].trim();
    assert!(
        remark.is_empty() || remark.starts_with('('),
        "{at}: after the answer, {remark:?} is neither nothing nor a (remark)"
    );
    (status, Some(answer))
}

/// The request of a `curl` command of the kinds the docs use: `-s`,
/// `-X METHOD`, `-H 'name: value'`, `-d 'body'` and one URL.
fn request(words: &[String], status: u16, answer: Option<Value>, at: String) -> Example {
    let (mut method, mut url, mut headers, mut body) = (None, None, Vec::new(), None);
    let mut words = words.iter().skip(1);
    while let Some(word) = words.next() {
        let mut value = || {
            words
                .next()
                .unwrap_or_else(|| panic!("{at}: {word} needs a value"))
        };
        match word.as_str() {
            "-s" => {}
            "-X" => method = Some(Method::from_bytes(value().as_bytes()).unwrap()),
            "-H" => {
                let (name, v) = value().split_once(':').expect("-H 'name: value'");
                headers.push((name.trim().to_lowercase(), v.trim().to_owned()));
            }
            "-d" => {
                let text = value().clone();
                // The body the doc shows must be JSON, whatever it is sent as.
                serde_json::from_str::<Value>(&text)
                    .unwrap_or_else(|e| panic!("{at}: the body is not JSON: {e}: {text}"));
                body = Some(text);
            }
            w if !w.starts_with('-') && url.is_none() => url = Some(w.to_owned()),
            w => panic!("{at}: curl {w} is not understood here; add it to docs.rs"),
        }
    }
    let url = url.unwrap_or_else(|| panic!("{at}: no URL"));
    let url = url.strip_prefix("http://").unwrap_or(&url);
    assert!(url.starts_with("localhost:8080/"), "{at}: {url}");
    let path = url["localhost:8080".len()..].to_owned();
    if body.is_some() && !headers.iter().any(|(n, _)| n == "content-type") {
        // What curl sends with -d unless told otherwise.
        headers.push((
            "content-type".to_owned(),
            "application/x-www-form-urlencoded".to_owned(),
        ));
    }
    let method = method.unwrap_or(if body.is_some() {
        Method::POST
    } else {
        Method::GET
    });
    Example {
        at,
        method,
        path,
        headers,
        body,
        status,
        answer,
    }
}

/// Sends every example to `app`, in order, and compares each answer with
/// the doc's; returns how many were compared.
async fn hold(app: &App, examples: &[Example]) -> usize {
    for e in examples {
        let mut request = app.client.request(e.method.clone(), app.url(&e.path));
        for (name, value) in &e.headers {
            request = request.header(name, value);
        }
        if let Some(body) = &e.body {
            request = request.body(body.clone());
        }
        let r = request.send().await.unwrap();
        let status = r.status().as_u16();
        let text = r.text().await.unwrap();
        let what = format!("{} ({} {})", e.at, e.method, e.path);
        assert_eq!(status, e.status, "{what}: answered {text}");
        match &e.answer {
            None => assert!(text.is_empty(), "{what}: answered a body: {text}"),
            Some(want) => {
                let mut got: Value = serde_json::from_str(&text)
                    .unwrap_or_else(|err| panic!("{what}: not JSON ({err}): {text}"));
                crate::helpers::as_documented_hold(&mut got, want, &what);
                assert_eq!(&got, want, "{what}");
            }
        }
    }
    examples.len()
}

/// README.md's and docs/api.md's examples, on one in-process service with
/// the locales `GET /locales` shows (the slugs are the same in both modes:
/// `slug.rs` and `options.rs` check that). docs/api.md's `/bench`
/// answer is cut short, and its `/openapi.json` example pipes the answer
/// through python.
#[tokio::test]
async fn the_api_examples_are_answered_as_documented() {
    let app = App::builder()
        .cldr(debian_cldr("de,de-CH,fr,ru"))
        .spawn()
        .await;
    let (readme, _) = examples("README.md");
    let (api, elided) = examples("docs/api.md");
    assert!(hold(&app, &readme).await >= 1, "README.md: {readme:?}");
    let compared = hold(&app, &api).await;
    assert!(
        compared >= 14,
        "{compared} examples of docs/api.md compared"
    );
    assert_eq!(elided, 1, "docs/api.md cuts one answer short, /bench's");
}

/// docs/reservations.md's examples build on each other: one service on
/// one fresh Redis, in the doc's order.
#[tokio::test]
async fn the_reservation_examples_are_answered_as_documented_in_order() {
    let redis = RedisServer::start().await;
    load(&redis).await;
    let app = App::on_redis(&redis).await;
    let (reservations, elided) = examples("docs/reservations.md");
    let compared = hold(&app, &reservations).await;
    assert!(
        compared >= 6,
        "{compared} examples of reservations.md compared"
    );
    assert_eq!(elided, 0);
}

/// docs/tokens.md's examples, in order, on a service on a fresh Redis with
/// the doc's own tokens file.
#[tokio::test]
async fn the_token_examples_are_answered_as_documented_in_order() {
    let text = read("docs/tokens.md");
    let file = text
        .split("```\n")
        .nth(1)
        .expect("the tokens file is the doc's first code block");
    let tokens = slugd::auth::Tokens::parse(file, "docs/tokens.md").unwrap();
    assert_eq!(tokens.len(), 2);
    let redis = RedisServer::start().await;
    load(&redis).await;
    let app = App::builder().redis(&redis).tokens(tokens).spawn().await;
    let (examples, elided) = examples("docs/tokens.md");
    let compared = hold(&app, &examples).await;
    assert!(compared >= 6, "{compared} examples of tokens.md compared");
    assert_eq!(elided, 0);
}

/// The markdown files people read.
fn doc_files() -> Vec<String> {
    let mut files = vec!["README.md".to_owned(), "CHANGELOG.md".to_owned()];
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs");
    for entry in std::fs::read_dir(dir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if name.ends_with(".md") {
            files.push(format!("docs/{name}"));
        }
    }
    files.sort();
    files
}

/// The anchors of a markdown file's headings, as GitHub makes them:
/// lower case, punctuation dropped, spaces as `-`, `-1`, `-2`... after
/// a repeated one.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut anchors = BTreeSet::new();
    let mut in_code = false;
    for line in text.lines() {
        in_code ^= line.starts_with("```");
        if in_code || !line.starts_with('#') {
            continue;
        }
        let heading = line.trim_start_matches('#').trim();
        let base: String = heading
            .to_lowercase()
            .chars()
            .filter_map(|c| match c {
                ' ' => Some('-'),
                c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
                _ => None,
            })
            .collect();
        let mut anchor = base.clone();
        let mut n = 0;
        while !anchors.insert(anchor.clone()) {
            n += 1;
            anchor = format!("{base}-{n}");
        }
    }
    anchors
}

/// The targets of a markdown file's inline links and images, outside code.
fn links(text: &str) -> Vec<String> {
    let mut targets = Vec::new();
    let mut in_code = false;
    for line in text.lines() {
        in_code ^= line.starts_with("```");
        if in_code {
            continue;
        }
        let mut rest = line;
        while let Some(start) = rest.find("](") {
            rest = &rest[start + 2..];
            let end = rest.find(')').expect("a link ends");
            targets.push(rest[..end].to_owned());
            rest = &rest[end..];
        }
    }
    targets
}

#[test]
fn every_link_between_the_docs_leads_to_a_file_and_a_heading() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut checked = 0;
    for file in doc_files() {
        let text = read(&file);
        let dir = Path::new(&file).parent().unwrap();
        for target in links(&text) {
            if target.starts_with("http://") || target.starts_with("https://") {
                continue;
            }
            let (path, anchor) = match target.split_once('#') {
                Some((path, anchor)) => (path, Some(anchor)),
                None => (target.as_str(), None),
            };
            let linked = if path.is_empty() {
                PathBuf::from(&file)
            } else {
                dir.join(path)
            };
            let full = root.join(&linked);
            assert!(
                full.exists(),
                "{file}: {target} leads to {}, which does not exist",
                linked.display()
            );
            if let Some(anchor) = anchor {
                let headings = anchors(&std::fs::read_to_string(&full).unwrap());
                assert!(
                    headings.contains(anchor),
                    "{file}: {target}: {} has no heading #{anchor}; it has {headings:?}",
                    linked.display()
                );
            }
            checked += 1;
        }
    }
    assert!(checked >= 40, "{checked} links checked");
}

/// Every path of the repository a doc names in backquotes (`src/...`,
/// `engine/...`, `scripts/...`, `tests/...`, `data/...`, `docs/...`,
/// `benches/...`, `examples/...`) exists: a file moved or gone is found
/// here, not by a reader. A `:line` after it and a glob are left out.
#[test]
fn every_path_the_docs_name_exists() {
    const ROOTS: [&str; 8] = [
        "src/",
        "engine/",
        "scripts/",
        "tests/",
        "data/",
        "docs/",
        "benches/",
        "examples/",
    ];
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut missing = Vec::new();
    let mut named = 0;
    for file in doc_files() {
        let text = read(&file);
        for (i, quoted) in text.split('`').enumerate() {
            // Odd pieces are inside backquotes.
            if i % 2 == 0 || !ROOTS.iter().any(|r| quoted.starts_with(r)) {
                continue;
            }
            let path = quoted.split([' ', ':', '(']).next().unwrap_or_default();
            if path.contains(['*', '{', '<', '$']) || path.ends_with("N/") {
                continue;
            }
            named += 1;
            if !root.join(path).exists() {
                missing.push(format!("{file}: `{path}`"));
            }
        }
    }
    assert!(named > 20, "only {named} paths found: the scan is broken");
    assert!(
        missing.is_empty(),
        "docs name paths that do not exist:\n{}",
        missing.join("\n")
    );
}
