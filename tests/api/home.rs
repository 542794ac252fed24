//! The home page, `GET /`: served by slugd with nothing from elsewhere,
//! and in a real browser (headless Chromium, `--dump-dom`) it runs
//! `/bench` and draws each side's latency distribution.
//!
//! The browser test needs Debian's `chromium` (`scripts/test.sh` installs
//! it with apt-get when it runs as root, as it does redis-server). Without
//! it the test fails and says how to install it; `SLUGD_SKIP_BROWSER=1`
//! makes it pass without a browser, saying so, for machines that cannot
//! have one.

use std::process::Command;

use crate::fixtures::{RedisServer, load};
use crate::helpers::App;

#[tokio::test]
async fn the_home_page_is_html_with_every_asset_inline() {
    let app = App::in_process().await;
    let r = app.client.get(app.url("/")).send().await.unwrap();
    assert_eq!(r.status().as_u16(), 200);
    let content_type = r.headers()["content-type"].to_str().unwrap().to_owned();
    assert!(content_type.starts_with("text/html"), "{content_type}");
    let page = r.text().await.unwrap();
    assert!(page.contains("<script>") && page.contains("<style>"));
    // No CDN, font or script from anywhere else: it works with no network.
    for outside in [
        "src=\"http",
        "href=\"http",
        "src=\"//",
        "href=\"//",
        "@import",
        "url(",
    ] {
        assert!(!page.contains(outside), "the page loads {outside}...");
    }
}

/// The page as headless Chromium leaves it after its scripts ran, or
/// `None` when the browser is missing and `SLUGD_SKIP_BROWSER=1` is set.
async fn rendered(app: &App, query: &str) -> Option<String> {
    if Command::new("chromium").arg("--version").output().is_err() {
        if std::env::var("SLUGD_SKIP_BROWSER").as_deref() == Ok("1") {
            eprintln!("SLUGD_SKIP_BROWSER=1: the home page was not checked in a browser");
            return None;
        }
        panic!(
            "chromium is missing: install Debian's package (sudo apt-get install chromium; \
             scripts/test.sh does it when run as root), or set SLUGD_SKIP_BROWSER=1 to skip \
             the browser check"
        );
    }
    let flags = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scripts/lib/chromium-flags"
    ))
    .unwrap();
    let profile = tempfile::tempdir().unwrap();
    let url = app.url(&format!("/{query}"));
    let profile_dir = format!("--user-data-dir={}", profile.path().display());
    // Off the runtime's thread: the app answers the browser meanwhile.
    let output = tokio::task::spawn_blocking(move || {
        Command::new("chromium")
            .args(flags.split_whitespace())
            .arg(profile_dir)
            .args(["--virtual-time-budget=60000", "--dump-dom", &url])
            .output()
            .expect("chromium runs")
    })
    .await
    .unwrap();
    let dom = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success() && dom.contains("</html>"),
        "chromium failed: {}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    Some(dom)
}

/// The parts of the drawn chart for one side: its CDF line, its
/// histogram's bars and its p50/p90/p99 label with numbers.
fn assert_drawn(dom: &str, side: &str) {
    for part in [
        format!("<polyline class=\"cdf-line\" data-side=\"{side}\""),
        format!("<svg class=\"histogram\" data-side=\"{side}\""),
        format!("<rect class=\"bar\" data-side=\"{side}\""),
    ] {
        assert!(dom.contains(&part), "no {part} in the page:\n{dom}");
    }
    let label = format!("<text class=\"marker\" data-side=\"{side}\"");
    let at = dom
        .find(&label)
        .unwrap_or_else(|| panic!("no {label}:\n{dom}"));
    let text = &dom[at..][..dom[at..].find("</text>").unwrap()];
    let text = &text[text.find('>').unwrap() + 1..];
    assert!(
        text.starts_with("p50 ") && text.contains(" µs") && text.contains("p99 "),
        "{side}'s label: {text:?}"
    );
    assert!(text.chars().any(|c| c.is_ascii_digit()), "{text:?}");
}

#[tokio::test]
async fn in_a_browser_the_page_draws_both_backends_on_redis() {
    let redis = RedisServer::start().await;
    load(&redis).await;
    let app = App::on_redis(&redis).await;
    let Some(dom) = rendered(&app, "?bench=1&iterations=300").await else {
        return;
    };
    assert!(
        dom.contains("data-bench=\"drawn\""),
        "the bench did not finish:\n{dom}"
    );
    for side in ["in_process", "redis", "redis_uncached"] {
        assert_drawn(&dom, side);
    }
    // The slug box answered as the page loaded, and the locales are listed.
    assert!(
        dom.contains("this-is-my-snowman-post-i-heavy-heart-redis"),
        "{dom}"
    );
    assert!(
        dom.contains("<span title=\"use this locale\">en</span>"),
        "{dom}"
    );
    assert!(dom.contains("Redis mode · table version"), "{dom}");
}

#[tokio::test]
async fn in_a_browser_in_process_mode_says_why_redis_is_not_measured() {
    let app = App::in_process().await;
    let Some(dom) = rendered(&app, "?bench=1&iterations=300").await else {
        return;
    };
    assert!(
        dom.contains("data-bench=\"drawn\""),
        "the bench did not finish:\n{dom}"
    );
    assert_drawn(&dom, "in_process");
    assert!(!dom.contains("data-side=\"redis\" points"), "{dom}");
    for side in ["redis", "redis_uncached"] {
        let why = format!(
            "<div class=\"why\" data-side=\"{side}\">Not measured: this service runs in-process: start it with --redis-url"
        );
        assert!(dom.contains(&why), "no {why}:\n{dom}");
    }
}

/// The "own script" toggle (`ascii: false`): a link that sets it shows the
/// slug in the title's script and its URI form below.
#[tokio::test]
async fn in_a_browser_the_own_script_toggle_shows_both_forms() {
    let app = App::in_process().await;
    let title = "Привет, мир ❤";
    let query = format!("?ascii=false&title={}", crate::helpers::path_segment(title));
    let Some(dom) = rendered(&app, &query).await else {
        return;
    };
    assert!(
        dom.contains("<div class=\"slug\" id=\"slug\">привет-мир-heavy-heart</div>"),
        "{dom}"
    );
    assert!(
        dom.contains("%D0%BF%D1%80%D0%B8%D0%B2%D0%B5%D1%82-%D0%BC%D0%B8%D1%80-heavy-heart</div>"),
        "{dom}"
    );
    assert!(dom.contains("id=\"own\" type=\"checkbox\""), "{dom}");
}

/// A title read letter by letter for want of a model: the page shows the
/// answer's warning under the slug.
#[tokio::test]
async fn in_a_browser_a_title_read_letter_by_letter_shows_the_warning() {
    let app = App::in_process().await;
    let title = "مرحبا بالعالم";
    let query = format!("?title={}", crate::helpers::path_segment(title));
    let Some(dom) = rendered(&app, &query).await else {
        return;
    };
    assert!(
        dom.contains("<div class=\"slug\" id=\"slug\">mrhba-balalm</div>"),
        "{dom}"
    );
    assert!(
        dom.contains("<div class=\"warning\" id=\"warning\"><div><code>reading_not_loaded</code> Arabic without vowel marks was read letter by letter"),
        "{dom}"
    );
}
