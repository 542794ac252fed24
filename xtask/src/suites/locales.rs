//! locales: what CLDR's names in every locale cost. The loads: `slugd
//! load --locales en` and `--locales all`, each into a fresh redis-server
//! of its own (targets `load_en`, `load_all`): wall time and the loader's
//! peak RSS (GNU time), the table's size (its meta's `bytes`), the
//! `MEMORY USAGE` of its CLDR buckets (`slugd:t:<version>:L*`) beside the
//! raw UTF-8 text of the CLDR `tts` names they hold, and the ratio of the
//! two. Then the RSS of one instance warmed with --warm titles (the corpus
//! and three emoji titles, each request under the next of 12 locales, so
//! that the Redis mode's cache holds names of many), read half a second
//! after: targets `redis_en` and `redis_all` (on those two Redis tables),
//! `in_process_en` and `in_process_all` (`serve --locales ...`), each
//! started once a round, in an order turned each round.
//!
//! CLDR comes from $SLUGD_CLDR or Debian's unicode-cldr-core
//! (/usr/share/unicode/cldr/common), installed when missing.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use super::shared::{buckets, corpus, post_titles_in, timed_load, warmed_rss};
use crate::builds::Build;
use crate::builds::Builds;
use crate::report::Report;
use crate::rounds::rotated;
use crate::services::{Backend, Redis};
use crate::settings::Settings;
use crate::tools::need_file;

const TARGETS: [&str; 4] = ["redis_en", "redis_all", "in_process_en", "in_process_all"];

/// The warm-up's locales, in turn; `None`: no locale.
const LOCALES: [Option<&str>; 12] = [
    None,
    Some("de"),
    Some("fr"),
    Some("ru"),
    Some("ja"),
    Some("es"),
    Some("pt"),
    Some("zh"),
    Some("ar"),
    Some("hi"),
    Some("el"),
    Some("uk"),
];

/// Titles whose symbols have CLDR names in every locale.
const EMOJI_TITLES: [&str; 3] = ["Made in 🇩🇪 👨‍👩‍👧 1️⃣ ☕", "I ❤ 🍕 and 🎉", "👋🏽 🇫🇷 🇯🇵 ⚽"];

pub fn run(settings: &Settings, work: &Path, report: &mut Report) -> Result<Builds> {
    let targets = settings.chosen(&TARGETS, &TARGETS)?;
    let cldr = std::env::var_os("SLUGD_CLDR")
        .map(PathBuf::from)
        .unwrap_or_else(|| "/usr/share/unicode/cldr/common".into());
    need_file(&cldr.join("annotations/de.xml"), "unicode-cldr-core")?;
    let cldr_arg = cldr.display().to_string();
    let builds = Builds::slugd(settings, work)?;

    let mut tables = Vec::new();
    for locales in ["en", "all"] {
        let target = format!("load_{locales}");
        let redis = Redis::start(&format!("redis-{locales}"), work)?;
        let loaded = timed_load(
            &builds.now,
            &redis,
            &["--locales", locales, "--cldr", &cldr_arg],
            work,
        )?;
        let table = redis.table_bytes()?;
        let pattern = format!("slugd:t:{}:L*", redis.table_version()?);
        let cldr_part = buckets(&redis, &pattern)?.bytes;
        let (raw, names) = raw_names(&cldr, locales == "all")?;
        eprintln!(
            "  load --locales {locales}: {:.2} s, peak {} kB, table {table} B, its CLDR buckets {cldr_part} B, raw text {raw} B ({names} names): {:.2}x",
            loaded.wall_s,
            loaded.peak_rss_kb,
            cldr_part / raw
        );
        report.record(&target, "wall", "s", Build::Now, loaded.wall_s);
        report.record(&target, "peak_rss", "kB", Build::Now, loaded.peak_rss_kb);
        report.record(&target, "table_bytes", "B", Build::Now, table);
        report.record(&target, "cldr_bytes", "B", Build::Now, cldr_part);
        report.record(&target, "raw_name_text", "B", Build::Now, raw);
        report.record(&target, "names", "names", Build::Now, names);
        report.record(&target, "cldr_over_raw", "x", Build::Now, cldr_part / raw);
        tables.push((locales, redis));
    }

    let mut titles = corpus(&settings.root)?;
    titles.extend(EMOJI_TITLES.map(str::to_owned));
    let pairs: Vec<(&str, Build)> = targets
        .iter()
        .flat_map(|t| builds.all().into_iter().map(move |b| (*t, b)))
        .collect();
    for round in 0..settings.rounds {
        for (target, build) in rotated(round, &pairs) {
            let (mode, locales) = target.rsplit_once('_').expect("targets are mode_locales");
            let (backend, args) = match mode {
                "redis" => {
                    let redis = &tables
                        .iter()
                        .find(|(l, _)| *l == locales)
                        .expect("loaded")
                        .1;
                    (redis.backend(), vec![])
                }
                _ => (
                    Backend::InProcess,
                    vec!["--locales", locales, "--cldr", &cldr_arg],
                ),
            };
            let (rss, _) = warmed_rss(
                &format!("{target}-{}", build.label()),
                builds.bin(build),
                &backend,
                &args,
                |port| post_titles_in(port, &titles, settings.warm, |k| LOCALES[k % LOCALES.len()]),
                0,
                work,
            )?;
            eprintln!(
                "  round {} {target:<15} {:<6} RSS {rss} kB",
                round + 1,
                build.label()
            );
            report.record(target, "rss", "kB", build, rss);
        }
    }
    report.compare("rss", "redis_all", "redis_en");
    report.compare("rss", "in_process_all", "in_process_en");
    Ok(builds)
}

/// The raw text of CLDR's `tts` names (annotations and
/// annotationsDerived) of English, or of every locale: UTF-8 bytes and
/// the count of names.
fn raw_names(cldr: &Path, all: bool) -> Result<(f64, f64)> {
    let (mut bytes, mut names) = (0usize, 0usize);
    for sub in ["annotations", "annotationsDerived"] {
        let dir = cldr.join(sub);
        let files: Vec<PathBuf> = if all {
            std::fs::read_dir(&dir)
                .with_context(|| format!("could not read {}", dir.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "xml"))
                .collect()
        } else {
            vec![dir.join("en.xml")]
        };
        for file in files {
            let text = std::fs::read_to_string(&file)
                .with_context(|| format!("could not read {}", file.display()))?;
            for name in tts_names(&text) {
                bytes += name.len();
                names += 1;
            }
        }
    }
    Ok((bytes as f64, names as f64))
}

/// The text of each `<annotation ... type="tts">` element, but CLDR's
/// `↑↑↑` (inherited).
fn tts_names(xml: &str) -> impl Iterator<Item = &str> {
    xml.split("<annotation ").skip(1).filter_map(|element| {
        let (attributes, rest) = element.split_once('>')?;
        if !attributes.contains("type=\"tts\"") {
            return None;
        }
        let text = rest.split('<').next()?;
        (text != "↑↑↑").then_some(text)
    })
}

#[cfg(test)]
mod tests {
    use super::tts_names;

    #[test]
    fn only_tts_names_count_and_inherited_ones_do_not() {
        let xml = r#"<annotations>
<annotation cp="☕">drink | hot</annotation>
<annotation cp="☕" type="tts">hot beverage</annotation>
<annotation cp="🍕" type="tts">↑↑↑</annotation>
</annotations>"#;
        assert_eq!(tts_names(xml).collect::<Vec<_>>(), ["hot beverage"]);
    }
}
