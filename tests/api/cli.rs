//! The `slugd` binary: slugify, load, and --help as the configuration
//! reference.

use std::io::Write;
use std::process::{Output, Stdio};

use serde_json::json;

use crate::fixtures::{RedisCluster, RedisServer, slugd_command};
use crate::helpers::App;

fn slugd(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = slugd_command()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn slugify_one_title_and_a_stream_in_process() {
    let out = slugd(&["slugify", "I ❤ Redis"], b"");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "i-heavy-heart-redis\n");

    let input = b"This is my \xE2\x98\x83 post!\r\nbad \xFF utf8\n!!!\n\xD0\x9F\xD1\x80\xD0\xB8\xD0\xB2\xD0\xB5\xD1\x82";
    let out = slugd(&["slugify"], input);
    assert_eq!(
        text(&out.stdout),
        "this-is-my-snowman-post\n\n\npriviet\n".replace("priviet", "privet")
    );
    let err = text(&out.stderr);
    assert!(err.contains("line 2: not valid UTF-8"), "{err}");
    assert!(err.contains("line 3: the title has no letters"), "{err}");
    assert_eq!(out.status.code(), Some(1));
}

#[tokio::test]
async fn load_then_slugify_on_redis() {
    let redis = RedisServer::start().await;
    let url = redis.url();
    let out = tokio::task::spawn_blocking(move || slugd(&["load", "--redis-url", &url], b""))
        .await
        .unwrap();
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(stdout.contains("7616 entries"), "{stdout}");
    assert!(stdout.contains("bytes of Redis memory"), "{stdout}");
    let url = redis.url();
    let out = tokio::task::spawn_blocking(move || {
        slugd(
            &["slugify", "--redis-url", &url],
            "Café ☕ Crème\n⬣\n".as_bytes(),
        )
    })
    .await
    .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "cafe-hot-beverage-creme\nhorizontal-hexagon\n"
    );
}

#[test]
fn mistakes_are_explained() {
    let out = slugd(&["load"], b"");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("slugd load needs Redis: give --redis-url"),
        "{}",
        text(&out.stderr)
    );
    let out = slugd(&["slugify", "--data", "/nonexistent/U.txt", "x"], b"");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("cannot open /nonexistent/U.txt"),
        "{}",
        text(&out.stderr)
    );
    let out = slugd(&["load", "--redis-url", "http://user:s3cret@host"], b"");
    assert!(
        text(&out.stderr).contains("is not a Redis URL"),
        "{}",
        text(&out.stderr)
    );
    assert!(!text(&out.stderr).contains("s3cret"));
    let out = slugd(&["serve", "--categories", "Xx"], b"");
    assert!(
        text(&out.stderr).contains("'Xx' is not a Unicode general category"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn help_documents_every_setting() {
    let out = slugd(&["serve", "--help"], b"");
    let help = text(&out.stdout);
    for needle in [
        "--listen",
        "SLUGD_LISTEN",
        "127.0.0.1:8080",
        "--redis-url",
        "REDIS_URL",
        "--redis-cluster",
        "REDIS_CLUSTER",
        "--redis-sentinel",
        "REDIS_SENTINEL",
        "--redis-master-name",
        "REDIS_MASTER_NAME",
        "mymaster",
        "--reservation-replicas",
        "--reservation-fsync",
        "SLUGD_RESERVATION_FSYNC",
        "--reservation-wait-connections",
        "--read-from-replicas",
        "SLUGD_READ_FROM_REPLICAS",
        "--data",
        "SLUGD_DATA",
        "--key-prefix",
        "SLUGD_KEY_PREFIX",
        "slugd:",
        "--redis-timeout-ms",
        "--max-batch",
        "--defaults",
        "SLUGD_DEFAULTS",
        "So,Sc,Sm",
        "--max-connections",
        "--header-timeout-ms",
        "--max-header-bytes",
        "SLUGD_MAX_HEADER_BYTES",
        "431 Request Header Fields Too Large",
    ] {
        assert!(
            help.contains(needle),
            "serve --help lacks {needle}:\n{help}"
        );
    }
    let out = slugd(&["load", "--help"], b"");
    assert!(text(&out.stdout).contains("--categories"));
}

#[test]
fn load_takes_no_flag_of_the_readers() {
    // The name cache and replica reads are how `serve` and `slugify` read
    // the table; `load` writes it, to primaries, and would ignore them.
    let out = slugd(&["load", "--help"], b"");
    let help = text(&out.stdout);
    for flag in ["--name-cache", "--read-from-replicas"] {
        assert!(!help.contains(flag), "load --help lists {flag}:\n{help}");
        for command in ["serve", "slugify"] {
            let out = slugd(&[command, "--help"], b"");
            assert!(
                text(&out.stdout).contains(flag),
                "{command} --help lacks {flag}"
            );
        }
    }
    for (args, flag) in [
        (&["load", "--name-cache", "5"][..], "--name-cache"),
        (
            &[
                "load",
                "--redis-cluster",
                "127.0.0.1:1",
                "--read-from-replicas",
            ],
            "--read-from-replicas",
        ),
    ] {
        let out = slugd(args, b"");
        // 2: clap's code for a command line it cannot parse.
        assert_eq!(out.status.code(), Some(2), "{args:?} was accepted");
        let err = text(&out.stderr);
        assert!(
            err.contains(&format!("unexpected argument '{flag}'")),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn redis_settings_that_cannot_work_are_refused_with_a_reason() {
    for (args, want) in [
        (
            &[
                "load",
                "--redis-url",
                "redis://127.0.0.1:1",
                "--redis-cluster",
                "127.0.0.1:2",
            ][..],
            "cannot be used with",
        ),
        (
            &["slugify", "--read-from-replicas", "x"][..],
            "--read-from-replicas needs --redis-cluster",
        ),
        (
            &["load", "--redis-cluster", " , "][..],
            "at least one seed node",
        ),
        (
            &[
                "load",
                "--redis-sentinel",
                "127.0.0.1:1",
                "--redis-cluster",
                "127.0.0.1:2",
            ][..],
            "cannot be used with",
        ),
        (
            &["load", "--redis-sentinel", " , "][..],
            "at least one sentinel",
        ),
        (
            &[
                "load",
                "--redis-sentinel",
                "127.0.0.1:1",
                "--redis-master-name",
                "my master",
            ][..],
            "the sentinels monitor",
        ),
        (
            &[
                "serve",
                "--redis-url",
                "redis://127.0.0.1:1",
                "--reservation-replicas",
                "1",
                "--reservation-wait-connections",
                "0",
            ][..],
            "--reservation-wait-connections must be from 1 to 4096",
        ),
        (
            &["load", "--redis-cluster", "127.0.0.1:7000,http://h:1"][..],
            "http://h:1",
        ),
        (
            &[
                "load",
                "--redis-url",
                "redis://127.0.0.1:1",
                "--key-prefix",
                "app{1}:",
            ][..],
            "braces",
        ),
    ] {
        let out = slugd(args, b"");
        assert!(!out.status.success(), "{args:?} was accepted");
        let err = text(&out.stderr);
        assert!(err.contains(want), "{args:?}: {err}");
    }
}

#[tokio::test]
async fn load_then_slugify_on_a_cluster() {
    let cluster = RedisCluster::start(3, 0).await;
    let seeds = cluster.seeds();
    let out = tokio::task::spawn_blocking(move || {
        let load = slugd(&["load", "--redis-cluster", &seeds], b"");
        let slugify = slugd(
            &["slugify", "--redis-cluster", &seeds],
            "I ❤ Redis\n⬣\n".as_bytes(),
        );
        (load, slugify)
    })
    .await
    .unwrap();
    assert!(out.0.status.success(), "{}", text(&out.0.stderr));
    assert!(out.1.status.success(), "{}", text(&out.1.stderr));
    assert_eq!(
        text(&out.1.stdout),
        "i-heavy-heart-redis\nhorizontal-hexagon\n"
    );
}

#[test]
fn a_defaults_file_sets_the_options_and_flags_override_it() {
    let mut file = tempfile::NamedTempFile::new().unwrap();
    file.write_all(br#"{"stopwords": ["the"], "separator": "_", "fallback": "untitled"}"#)
        .unwrap();
    let path = file.path().to_str().unwrap();
    let out = slugd(
        &["slugify", "--defaults", path],
        "The Big ☃\n???\n".as_bytes(),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "big_snowman\nuntitled\n");
    let out = slugd(
        &[
            "slugify",
            "--defaults",
            path,
            "--separator",
            "-",
            "The Big ☃",
        ],
        b"",
    );
    assert_eq!(text(&out.stdout), "big-snowman\n");
}

#[test]
fn a_bad_defaults_file_stops_serve_and_slugify_with_file_and_field_named() {
    for (content, says) in [
        (&br#"{"stopwords": [1]}"#[..], "stopwords[0]: invalid type"),
        (br#"{"separatr": "-"}"#, "unknown field `separatr`"),
        (br#"{"max_length": 0}"#, "max_length must be at least 1"),
        (br#"{"replacements": [["", "x"]]}"#, "replacements[0]"),
        (br#"{"stopwords": ["the"]"#, "EOF while parsing"),
    ] {
        let mut file = tempfile::NamedTempFile::new().unwrap();
        file.write_all(content).unwrap();
        let path = file.path().to_str().unwrap();
        for args in [
            &["serve", "--listen", "127.0.0.1:0", "--defaults", path][..],
            &["slugify", "--defaults", path, "x"][..],
        ] {
            let out = slugd(args, b"");
            assert_eq!(out.status.code(), Some(1), "{args:?}");
            let err = text(&out.stderr);
            assert!(err.contains(&format!("--defaults {path}")), "{err}");
            assert!(err.contains(says), "{args:?}: {err}");
        }
    }
    let out = slugd(&["serve", "--defaults", "/nonexistent/defaults.json"], b"");
    assert!(
        text(&out.stderr).contains("--defaults /nonexistent/defaults.json: cannot read it"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn every_slug_option_has_a_flag() {
    let help = text(&slugd(&["slugify", "--help"], b"").stdout);
    for flag in [
        "--separator",
        "--max-length",
        "--keep-case",
        "--no-symbols",
        "--stopwords",
        "--replace <FROM> <TO>",
        "--preserve",
        "--fallback",
        "--decamelize[=<BOOL>]",
        "--locale",
    ] {
        assert!(help.contains(flag), "slugify --help lacks {flag}:\n{help}");
    }
    for (args, want) in [
        (
            &[
                "--stopwords",
                "the,of",
                "--stopwords",
                "a",
                "The Lord of a Ring",
            ][..],
            "lord-ring",
        ),
        // FROM and TO are two arguments: `=`, `,`, spaces and a leading
        // `-` are plain text, and TO may be empty.
        (
            &[
                "--replace",
                "%",
                " percent",
                "--replace",
                "=",
                " equals ",
                "--replace",
                ",",
                "",
                "50%=1,000",
            ],
            "50-percent-equals-1000",
        ),
        (&["--replace", "-", " minus ", "a - b"], "a-minus-b"),
        (&["--preserve", ".", "Release v1.2.3"], "release-v1.2.3"),
        (&["--fallback", "untitled", "???"], "untitled"),
        (
            &["--decamelize", "fooBar APISection"],
            "foo-bar-api-section",
        ),
    ] {
        let out = slugd(&[&["slugify"], args].concat(), b"");
        assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
        assert_eq!(text(&out.stdout), format!("{want}\n"), "{args:?}");
    }
    // Flags override a --defaults file's options, lists and switches too.
    let mut file = tempfile::NamedTempFile::new().unwrap();
    file.write_all(br#"{"stopwords": ["the"], "decamelize": true}"#)
        .unwrap();
    let path = file.path().to_str().unwrap();
    let out = slugd(
        &[
            "slugify",
            "--defaults",
            path,
            "--stopwords",
            "",
            "--decamelize=false",
            "The fooBar",
        ],
        b"",
    );
    assert_eq!(text(&out.stdout), "the-foobar\n", "{}", text(&out.stderr));
}

#[tokio::test]
async fn a_bad_flag_value_fails_with_the_message_http_gives() {
    let app = App::in_process().await;
    for (args, field) in [
        (
            &["--stopwords", "the,two words"][..],
            json!({"stopwords": ["the", "two words"]}),
        ),
        (
            &["--replace", "", "x"],
            json!({"replacements": [["", "x"]]}),
        ),
        (
            &["--replace", "a", &"b".repeat(65)],
            json!({"replacements": [["a", "b".repeat(65)]]}),
        ),
        (&["--preserve", "./"], json!({"preserve": "./"})),
        (&["--fallback", "!!"], json!({"fallback": "!!"})),
        (&["--separator", "/"], json!({"separator": "/"})),
        (&["--max-length", "0"], json!({"max_length": 0})),
    ] {
        let mut request = field.clone();
        request["title"] = json!("x");
        let (status, body) = app.post("/slug", &request).await;
        assert_eq!(status, 422, "{body}");
        let message = body["error"].as_str().unwrap().to_owned();
        let flag = args[0].to_owned();
        let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        let out = tokio::task::spawn_blocking(move || {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            slugd(&[&["slugify"], &args[..], &["x"]].concat(), b"")
        })
        .await
        .unwrap();
        assert_eq!(out.status.code(), Some(1), "{field}");
        let err = text(&out.stderr);
        assert!(
            err.contains(&format!("{flag}: {message}")),
            "{field}: {err}"
        );
    }
}

#[test]
fn slugify_stops_at_once_when_its_output_fails_while_input_stays_open() {
    // Standard input stays open (a terminal, `tail -f`): the error must
    // not wait for more input, nor for the end of it.
    let mut child = slugd_command()
        .args(["--log", "warn", "slugify"])
        .stdin(Stdio::piped())
        .stdout(std::fs::File::create("/dev/full").unwrap())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    for i in 0..300 {
        writeln!(stdin, "Title {i}").unwrap();
    }
    stdin.flush().unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if std::time::Instant::now() > deadline {
            child.kill().unwrap();
            panic!("slugd slugify still runs 60 s after its output failed");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert_eq!(status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains("reading titles or writing slugs failed") && err.contains("No space left"),
        "{err}"
    );
}
