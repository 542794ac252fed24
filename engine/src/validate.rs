//! How a request's options are checked and merged over the service's
//! defaults: [`RawOptions::validate`] and [`RawOptions::validate_over`].
//! Apart from `options/` because rules 4 spell stopwords and judge a
//! fallback with the engine itself (`crate::slug`), which reads the
//! option types of `options/`: the types stay free of the engine.

use std::num::NonZeroUsize;
use std::sync::Arc;

use crate::locale::SlugLocale;
use crate::options::{
    OptionError, Options, Preserve, RawOptions, Rules, Separator, Spelling, StopWords, given,
    replacements, spelt_stopwords, stopwords,
};
use crate::rules::Switch;
use crate::slug::{NoSymbols, slugify};

impl RawOptions {
    /// Checks each option and fills in the defaults.
    pub fn validate(&self) -> Result<Options, OptionError> {
        self.validate_over(&Options::default())
    }

    /// Checks the options given and takes the others from `base` (the
    /// service's defaults).
    pub fn validate_over(&self, base: &Options) -> Result<Options, OptionError> {
        let mut options = base.clone();
        // What rules 4 spell stopwords and judge a fallback with, known
        // ahead of the fields that give it (an invalid `rules` or `locale`
        // is refused in its turn below). Rules 1 to 3 check both exactly as
        // they always have, in the same order.
        let rules = self.rules.and_then(Rules::numbered).unwrap_or(base.rules);
        let ahead = || Options {
            locale: match &self.locale {
                Some(tag) => SlugLocale::resolve(tag).ok(),
                None => base.locale.clone(),
            },
            decamelize: self.decamelize.unwrap_or(base.decamelize),
            ascii: self.ascii.unwrap_or(base.ascii),
            rules,
            ..Options::default()
        };
        if let Some(s) = &self.separator {
            options.separator = Separator::new(s)?;
        }
        if let Some(lowercase) = self.lowercase {
            options.lowercase = lowercase;
        }
        if let Some(n) = self.max_length {
            options.max_length = Some(NonZeroUsize::new(n).ok_or(OptionError::ZeroMaxLength)?);
        }
        if let Some(symbols) = self.symbols {
            options.symbols = symbols;
        }
        if let Some(words) = &self.stopwords {
            options.stopwords = match rules.has(Switch::EngineSpellsWords) {
                false => stopwords(words)?,
                true => engine_stopwords(words, &ahead(), false)?,
            };
        }
        if let Some(pairs) = &self.replacements {
            options.replacements = replacements(pairs)?;
        }
        if let Some(chars) = &self.preserve {
            options.preserve = Preserve::new(chars)?;
        }
        if let Some(fallback) = &self.fallback {
            options.fallback = Some(match rules.has(Switch::EngineSpellsWords) {
                false => crate::options::fallback(fallback)?,
                true => engine_fallback(fallback, &ahead())?,
            });
        }
        if let Some(decamelize) = self.decamelize {
            options.decamelize = decamelize;
        }
        if let Some(tag) = &self.locale {
            options.locale = Some(SlugLocale::resolve(tag)?);
        }
        if let Some(n) = self.rules {
            options.rules = Rules::numbered(n).ok_or(OptionError::Rules(n))?;
        }
        if let Some(ascii) = self.ascii {
            options.ascii = ascii;
        }
        if let Some(n) = self.max_bytes {
            options.max_bytes = Some(NonZeroUsize::new(n).ok_or(OptionError::ZeroMaxBytes)?);
        }
        if !options.ascii && !options.rules.has(Switch::UnicodeSlugs) {
            return Err(OptionError::UnicodeRules(options.rules.number()));
        }
        // The defaults' stopwords, for a request whose rules, locale or
        // decamelize spell them otherwise: spelled again, a word that
        // does not spell to one word left out (never an error the request
        // did not cause).
        if self.stopwords.is_none() && !options.stopwords.is_empty() {
            let spelling = Spelling::of(options.rules, options.locale.as_ref(), options.decamelize);
            if spelling != options.stopwords.spelling {
                let given: Vec<String> = options
                    .stopwords
                    .given
                    .iter()
                    .map(|w| w.to_string())
                    .collect();
                options.stopwords = match spelling {
                    Spelling::Deunicode => deunicode_stopwords_kept(&given),
                    Spelling::Engine(..) => engine_stopwords(&given, &options, true)?,
                };
            }
        }
        Ok(options)
    }
}

/// [`stopwords`] of the defaults for a request by rules 1 to 3 when rules
/// 4 spelled them: the words [`stopwords`] takes, the others left out.
fn deunicode_stopwords_kept(words: &[String]) -> StopWords {
    let kept: Vec<String> = words
        .iter()
        .filter(|w| stopwords(std::slice::from_ref(w)).is_ok())
        .cloned()
        .collect();
    let mut out = stopwords(&kept).unwrap_or_default();
    out.given = given(words);
    out
}

/// Stopwords as rules 4 spell them: each as the engine slugs it with
/// `options`' rules, locale and `decamelize`, one word (with `locale:
/// de`, `für` drops `fuer`; `və` drops `ve`). With `lenient`, a word that
/// does not spell to one word is left out instead of refused.
fn engine_stopwords(
    words: &[String],
    options: &Options,
    lenient: bool,
) -> Result<StopWords, OptionError> {
    let spelling = Options {
        locale: options.locale.clone(),
        rules: options.rules,
        decamelize: options.decamelize,
        symbols: false,
        ..Options::default()
    };
    let by = Spelling::of(options.rules, options.locale.as_ref(), options.decamelize);
    spelt_stopwords(words, by, lenient, |word| {
        slugify(word.trim(), &spelling, &NoSymbols).unwrap_or_default()
    })
}

/// A fallback as rules 4 take it: one [`fallback`] takes, or one the
/// engine slugs with `options`' rules, locale and `ascii` (`ə` is `e`).
fn engine_fallback(text: &str, options: &Options) -> Result<Arc<str>, OptionError> {
    match crate::options::fallback(text) {
        Err(OptionError::EmptyFallback(_)) => {
            let spelling = Options {
                locale: options.locale.clone(),
                rules: options.rules,
                ascii: options.ascii,
                symbols: false,
                ..Options::default()
            };
            match slugify(text, &spelling, &NoSymbols) {
                Ok(_) => Ok(Arc::from(text)),
                Err(_) => Err(OptionError::EmptyFallback(text.to_owned())),
            }
        }
        taken => taken,
    }
}
